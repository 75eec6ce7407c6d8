"""Deliberately broken rules: each mutant must be caught by some obligation.

A mutant is the rules' :class:`~loveformal.proofs.steps.Semantics` with one function replaced
by a broken one (bugs seen in public implementations, anchors.md). :func:`run` checks the
transitions the mutant touches and returns the obligations that fail; the expected result
(obligation names plus the first decoded counterexample) is kept as a golden file in
``tests/proofs/golden/<mutant>.txt``. Regenerate them with::

    .venv/bin/python -m loveformal.proofs.mutants --write tests/proofs/golden
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path

import z3

from loveformal import cards as G
from loveformal.proofs.cards import hits
from loveformal.proofs.model import (
    BISHOP_REDRAW,
    NONE,
    PILE,
    PLAY,
    TURN_DRAW,
    BoolE,
    IntE,
    Shape,
    SymState,
    merge,
    total,
    value_of,
)
from loveformal.proofs.obligations import Config, ObligationResult, check_transition, transition
from loveformal.proofs.steps import (
    Choice,
    Semantics,
    chancellor_keep,
    discard_hand,
    draw_replacement,
    end_round,
    knock_out,
    minus,
    next_seat,
    showdown,
)
from loveformal.rulebook import make_ruleset

# ------------------------------------------------------------------------------ broken rules


def baron_tie_knocks_player(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """BROKEN Baron (anchors bug 10): on a tie the Baron's player is out."""
    t = ch.target
    mine = value_of(s.shape, s.hand_at(s.turn))
    theirs = value_of(s.shape, s.hand_at(t))
    loser = z3.If(mine <= theirs, s.turn, t)
    return z3.BoolVal(True), merge(t != NONE, knock_out(s, loser), s)


def prince_draws_after_princess(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """BROKEN Prince: the target draws even after discarding the Princess (contrary to R1)."""
    t = ch.target
    discarded = discard_hand(s, t)
    carries_on = discarded.phase == PLAY
    extra, drawn = draw_replacement(discarded, t, ch.kind, prince=True)
    return z3.If(carries_on, extra, ch.kind == NONE), merge(carries_on, drawn, discarded)


def end_turn_keeps_protection(s: SymState) -> SymState:
    """BROKEN end of turn: Handmaid protection never expires (anchors TAG history, R8)."""
    nxt = next_seat(s)
    passed = replace(s, turn=nxt, phase=z3.IntVal(TURN_DRAW), pending=z3.IntVal(NONE))
    return merge(total(s.pile) == 0, end_round(s, *showdown(s)), passed)


def chancellor_loses_card(s: SymState, keep: IntE) -> SymState:
    """BROKEN Chancellor return (anchors bug 26): one of the returned cards vanishes."""
    after = chancellor_keep(s, keep)
    back = minus(after.pile, s.pile)
    # Lose the first kind (in card order) among those returned.
    lost = []
    seen: BoolE = z3.BoolVal(False)
    for b in back:
        first = z3.And(z3.Not(seen), b >= 1)
        lost.append(z3.If(first, 1, 0))
        seen = z3.Or(seen, b >= 1)
    return after.with_zones({PILE: minus(after.pile, tuple(lost))})


def bishop_hit_gives_no_token(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """BROKEN Bishop: a correct guess offers the redraw but gives no token (contrary to R16:
    "if that player holds that number, you gain a token")."""
    t = ch.target
    acts = z3.And(t != NONE, hits(s, t, ch.guess))
    deciding = replace(s, phase=z3.IntVal(BISHOP_REDRAW), pending=t)
    return z3.BoolVal(True), merge(acts, deciding, s)


# ------------------------------------------------------------------------------ the mutants


@dataclass(frozen=True)
class Mutant:
    name: str
    description: str
    preset: str
    players: int
    semantics: Semantics
    focus: tuple[str, ...]
    """The transitions checked (those the broken function takes part in)."""
    expected: str
    """An obligation that must fail (others may fail too)."""


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "baron-tie",
        "Baron tie knocks out the Baron's player",
        "classic",
        2,
        Semantics(effects={G.BARON: baron_tie_knocks_player}),
        ("play Baron",),
        "knock-outs justified",
    ),
    Mutant(
        "prince-after-princess",
        "Prince target draws after discarding the Princess",
        "classic",
        3,
        Semantics(effects={G.PRINCE: prince_draws_after_princess}),
        ("play Prince",),
        "hand sizes",
    ),
    Mutant(
        "handmaid-forever",
        "Handmaid protection never expires",
        "classic",
        2,
        Semantics(end_turn=end_turn_keeps_protection),
        ("play Priest",),
        "protection expiry",
    ),
    Mutant(
        "chancellor-loses-card",
        "Chancellor's return loses a card",
        "z2019",
        2,
        Semantics(chancellor_keep=chancellor_loses_card),
        ("chancellor return",),
        "conservation",
    ),
    Mutant(
        "guard-names-guard",
        "Guard may name the Guard",
        "classic",
        2,
        Semantics(guard_may_name_guard=True),
        ("play Guard",),
        "legal guess",
    ),
    Mutant(
        "bishop-no-token",
        "Bishop hit gives no token",
        "premium",
        5,
        Semantics(effects={G.BISHOP: bishop_hit_gives_no_token}),
        ("play Bishop",),
        "bishop token",
    ),
    Mutant(
        "baroness-protected",
        "Baroness may look at a protected player",
        "premium",
        5,
        Semantics(may_choose_protected=frozenset({G.BARONESS})),
        ("play Baroness",),
        "legal targets",
    ),
)


def run(mutant: Mutant, cfg: Config | None = None) -> list[ObligationResult]:
    """The obligations of the mutant's focus transitions (all statuses)."""
    cfg = cfg or Config()
    rules = make_ruleset(mutant.preset)
    shape = Shape.of(rules, mutant.players)
    results: list[ObligationResult] = []
    for name in mutant.focus:
        results += check_transition(rules, shape, transition(shape, name, mutant.semantics), cfg)
    return results


def golden_text(mutant: Mutant, results: list[ObligationResult]) -> str:
    """The golden file's text: which obligations fail, and the first counterexample."""
    failed = [r for r in results if r.status == "counterexample"]
    lines = [
        f"# mutant {mutant.name}: {mutant.description}",
        "# regenerate: .venv/bin/python -m loveformal.proofs.mutants --write tests/proofs/golden",
        f"ruleset: {mutant.preset}, {mutant.players} players",
        "caught by:",
        *(f"  {r.name}" for r in failed),
    ]
    if failed and failed[0].counterexample is not None:
        lines.append(f"counterexample to {failed[0].name}:")
        lines.append(failed[0].counterexample.summary())
    return "\n".join(lines) + "\n"


def golden_path(directory: Path, mutant: Mutant) -> Path:
    return directory / f"{mutant.name}.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the mutants; optionally write goldens.")
    parser.add_argument("--write", type=Path, help="directory to write the golden files to")
    args = parser.parse_args(argv)
    status = 0
    for m in MUTANTS:
        results = run(m)
        text = golden_text(m, results)
        caught = any(r.status == "counterexample" and r.invariant == m.expected for r in results)
        print(f"{m.name}: {'caught' if caught else 'NOT CAUGHT'}")
        if not caught:
            status = 1
        if args.write is not None:
            golden_path(args.write, m).write_text(text, encoding="utf-8")
    return status


__all__ = ["MUTANTS", "Mutant", "golden_path", "golden_text", "main", "run"]

if __name__ == "__main__":
    raise SystemExit(main())
