"""Run the proofs by tier and format the results (ready for a ``loveformal prove`` command).

* ``fast`` tier: :data:`FAST` (a few presets × 2–3 player counts), for ``make test``.
* ``all`` tier: every preset and player count whose deck the model covers (see
  :func:`loveformal.proofs.cards.supported`; the Premium 32-card deck is not modelled yet and
  is listed by :func:`not_modelled`).

Results are :class:`~loveformal.proofs.obligations.ObligationResult` values; ``[r.as_json()
for r in results]`` is JSON-serialisable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

from loveformal.proofs import cards as C
from loveformal.proofs.model import Shape
from loveformal.proofs.obligations import Config, ObligationResult, check_all
from loveformal.rulebook import make_ruleset, preset_names

Tier = Literal["fast", "all"]

FAST: tuple[tuple[str, int], ...] = (("classic", 2), ("classic", 3), ("z2019", 2))
"""The fast tier: (preset, players)."""


def configurations(preset: str | None, tier: Tier) -> list[tuple[str, int]]:
    """The (preset, players) pairs of a tier, restricted to ``preset`` if given, and to the
    decks the model covers."""
    if tier == "fast":
        pairs = [p for p in FAST if preset is None or p[0] == preset]
        if preset is not None and not pairs:
            rules = make_ruleset(preset)
            pairs = [(preset, n) for n in (2, 3) if rules.min_players <= n <= rules.max_players]
        return pairs
    names = [preset] if preset is not None else list(preset_names())
    out: list[tuple[str, int]] = []
    for name in names:
        rules = make_ruleset(name)
        for n in range(rules.min_players, rules.max_players + 1):
            if C.supported(Shape.of(rules, n)):
                out.append((name, n))
    return out


def not_modelled(preset: str | None = None) -> list[tuple[str, int]]:
    """The (preset, players) pairs whose deck holds cards the model does not encode."""
    names = [preset] if preset is not None else list(preset_names())
    out: list[tuple[str, int]] = []
    for name in names:
        rules = make_ruleset(name)
        for n in range(rules.min_players, rules.max_players + 1):
            if not C.supported(Shape.of(rules, n)):
                out.append((name, n))
    return out


def prove(
    preset: str | None = None,
    tier: Tier = "fast",
    timeout_ms: int = 10_000,
    seed: int = 0,
) -> list[ObligationResult]:
    """Check every obligation of the tier (optionally one preset) with a fixed seed and a
    per-query timeout."""
    cfg = Config(timeout_ms=timeout_ms, seed=seed)
    results: list[ObligationResult] = []
    for name, players in configurations(preset, tier):
        results += check_all(make_ruleset(name), players, cfg)
    return results


def format_table(results: Iterable[ObligationResult]) -> str:
    """One line per obligation that is not proved, and a summary line per ruleset and player
    count (mypyvy style: ``<invariant> under <transition>: <status>``)."""
    rows = list(results)
    lines: list[str] = []
    groups: dict[tuple[str, int], list[ObligationResult]] = {}
    for r in rows:
        groups.setdefault((r.preset, r.players), []).append(r)
    for (preset, players), group in groups.items():
        counts = Counter(r.status for r in group)
        seconds = sum(r.seconds for r in group)
        summary = ", ".join(f"{counts[s]} {s}" for s in sorted(counts))
        lines.append(f"{preset} {players}p: {len(group)} obligations: {summary} ({seconds:.1f} s)")
        for r in group:
            if r.status != "proved":
                lines.append(f"  {r.name}: {r.status} {r.detail}".rstrip())
                if r.counterexample is not None:
                    text = r.counterexample.summary()
                    lines.extend("    " + line for line in text.splitlines())
    return "\n".join(lines)


__all__ = ["FAST", "Tier", "configurations", "format_table", "not_modelled", "prove"]
