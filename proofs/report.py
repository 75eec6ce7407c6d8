"""Run the proofs by tier and format the results (the ``loveformal prove`` command).

* ``fast`` tier: :data:`FAST` (a few presets × 2–3 player counts), for ``make test``.
* ``all`` tier: every preset and player count whose deck the model covers (see
  :func:`loveformal.proofs.cards.supported`: every deck, the Premium 32-card deck included;
  :func:`not_modelled` lists any that is not).

The work is split into *tasks*: one per (preset, players, transition), plus the initial
deal; :func:`prove` runs them serially, or in a pool of ``workers`` processes (largest
first). Each task is self-contained (it builds its own transition), so the results are those
of a serial run — the same obligations in the same order with the same statuses and the same
canonical counterexamples; only the measured seconds differ.

Results are :class:`~loveformal.proofs.obligations.ObligationResult` values; ``[r.as_json()
for r in results]`` is JSON-serialisable.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Literal, NamedTuple

from loveformal import cards as G
from loveformal.proofs import cards as C
from loveformal.proofs.model import Shape
from loveformal.proofs.obligations import (
    Config,
    ObligationResult,
    check_initial,
    check_transition,
    transition,
    transition_names,
)
from loveformal.rulebook import make_ruleset, preset_names

Tier = Literal["fast", "all"]

FAST: tuple[tuple[str, int], ...] = (("classic", 2), ("classic", 3), ("z2019", 2))
"""The fast tier: (preset, players)."""

INITIAL = "initial deal"
"""The task name of the base case (a fresh deal satisfies every invariant)."""


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


class Task(NamedTuple):
    """One unit of work: the initial deal (:data:`INITIAL`) or one transition's obligations."""

    preset: str
    players: int
    name: str
    timeout_ms: int
    seed: int


def tasks(configs: Iterable[tuple[str, int]], timeout_ms: int, seed: int) -> list[Task]:
    """Every task of the configurations, in the order of a serial run (per configuration:
    the initial deal, then the transitions in :func:`transition_names` order)."""
    out: list[Task] = []
    for preset, players in configs:
        shape = Shape.of(make_ruleset(preset), players)
        for name in (INITIAL, *transition_names(shape)):
            out.append(Task(preset, players, name, timeout_ms, seed))
    return out


_HEAVY = frozenset({f"play {c.title}" for c in (G.GUARD, G.PRINCE, G.KING, G.CARDINAL)})


def cost(task: Task) -> float:
    """A rough estimate of a task's solver time, for scheduling the largest first: it grows
    with the seats and the card kinds, and some effects (a knock-out with its follow-ups, a
    swap of hands) weigh more."""
    kinds = len(make_ruleset(task.preset).deck(task.players).kinds)
    weight = 4.0 if task.name in _HEAVY else 0.1 if task.name == INITIAL else 1.0
    return weight * task.players**2 * kinds


def run_task(task: Task) -> list[ObligationResult]:
    """The obligations of one task (in a worker process or not)."""
    rules = make_ruleset(task.preset)
    shape = Shape.of(rules, task.players)
    cfg = Config(timeout_ms=task.timeout_ms, seed=task.seed)
    if task.name == INITIAL:
        return check_initial(rules, shape, cfg)
    return check_transition(rules, shape, transition(shape, task.name), cfg)


def run_tasks(todo: list[Task], workers: int = 1) -> list[ObligationResult]:
    """The results of ``todo``, in its order: serially, or on ``workers`` processes (tasks
    submitted largest first; results put back in order)."""
    if workers <= 1 or len(todo) <= 1:
        return [r for t in todo for r in run_task(t)]
    order = sorted(range(len(todo)), key=lambda i: -cost(todo[i]))
    done: dict[int, list[ObligationResult]] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {i: pool.submit(run_task, todo[i]) for i in order}
        for i, future in futures.items():
            done[i] = future.result()
    return [r for i in range(len(todo)) for r in done[i]]


def prove(
    preset: str | None = None,
    tier: Tier = "fast",
    timeout_ms: int = 10_000,
    seed: int = 0,
    workers: int = 1,
) -> list[ObligationResult]:
    """Check every obligation of the tier (optionally one preset) with a fixed seed and a
    per-query timeout, on ``workers`` processes (1: in this process)."""
    return run_tasks(tasks(configurations(preset, tier), timeout_ms, seed), workers)


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


__all__ = [
    "FAST",
    "INITIAL",
    "Task",
    "Tier",
    "configurations",
    "cost",
    "format_table",
    "not_modelled",
    "prove",
    "run_task",
    "run_tasks",
    "tasks",
]
