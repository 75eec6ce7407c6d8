"""The proof obligations of the fast tier: all proved, none vacuous; the checker itself
reports vacuity and counterexamples."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import pytest
import z3

from loveformal.cards import Card
from loveformal.proofs import cards as C
from loveformal.proofs.model import Shape, fresh
from loveformal.proofs.obligations import (
    INVARIANTS,
    Config,
    NotModelled,
    ObligationResult,
    _satisfiable,
    check_all,
    check_transition,
    transition_names,
    transitions,
)
from loveformal.proofs.report import FAST, configurations, format_table, not_modelled
from loveformal.rulebook import make_ruleset

CFG = Config(timeout_ms=20_000, seed=0)


@cache
def results(preset: str, players: int) -> tuple[ObligationResult, ...]:
    return tuple(check_all(make_ruleset(preset), players, CFG))


@pytest.mark.parametrize(("preset", "players"), FAST)
def test_fast_tier_all_proved(preset: str, players: int) -> None:
    res = results(preset, players)
    bad = [r for r in res if r.status != "proved"]
    assert not bad, format_table(bad)


@pytest.mark.parametrize(("preset", "players"), FAST)
def test_every_transition_and_invariant_is_checked(preset: str, players: int) -> None:
    res = results(preset, players)
    shape = Shape.of(make_ruleset(preset), players)
    names = {t.name for t in transitions(shape)} | {"initial deal"}
    assert {r.transition for r in res} == names
    for name, _ in INVARIANTS:
        assert {r.transition for r in res if r.invariant == name} == names
    assert not [r for r in res if r.status == "vacuous"]


def test_results_are_json() -> None:
    res = results(*FAST[0])
    text = json.dumps([r.as_json() for r in res])
    assert '"status": "proved"' in text
    table = format_table(res)
    assert table.startswith(f"classic 2p: {len(res)} obligations: {len(res)} proved")


def test_frame_condition_covers_every_variable() -> None:
    shape = Shape.of(make_ruleset("classic"), 3)
    s = fresh(shape)
    variables = list(s.variables())
    # 9 zones × 8 kinds, 5 flags/ints per seat × 3, 7 scalars.
    assert len(variables) == 9 * 8 + 5 * 3 + 7
    assert len({str(v) for v in variables}) == len(variables)


def test_a_transition_that_cannot_fire_is_vacuous() -> None:
    rules = make_ruleset("classic")
    shape = Shape.of(rules, 2)
    t = transitions(shape)[0]
    dead = replace(t, guard=z3.And(t.guard, z3.BoolVal(False)))
    res = check_transition(rules, shape, dead, CFG)
    assert res
    assert {r.status for r in res} == {"vacuous"}


def test_a_missing_frame_condition_is_caught() -> None:
    """A post-state variable left free (no frame equation) yields counterexamples."""
    rules = make_ruleset("classic")
    shape = Shape.of(rules, 2)
    t = transitions(shape)[0]
    loose = replace(t, post=replace(t.post, tokens=(z3.Int("free1"), z3.Int("free2"))))
    res = {r.invariant: r for r in check_transition(rules, shape, loose, CFG)}
    assert res["tokens never decrease"].status == "counterexample"
    cex = res["tokens never decrease"].counterexample
    assert cex is not None
    assert "pre:" in cex.summary()


def test_every_preset_and_player_count_is_modelled() -> None:
    assert not not_modelled()
    for preset in ("premium", "bga-help", "cn-wiki"):
        assert {n for p, n in configurations(preset, "all")} == set(range(2, 9))
    shape = Shape.of(make_ruleset("premium"), 5)
    assert "bishop redraw" in transition_names(shape)


def test_a_model_without_a_card_is_reported_not_modelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(C, "MODELLED", C.MODELLED - {Card.BISHOP})
    assert ("premium", 5) in not_modelled("premium")
    assert ("premium", 5) not in configurations("premium", "all")
    with pytest.raises(NotModelled, match="Bishop"):
        check_all(make_ruleset("premium"), 5, CFG)


class _StuckSolver:
    """An incremental solver that answers ``unknown`` (as one stuck on a query does)."""

    def __init__(self, assertions: list[z3.BoolRef]) -> None:
        self._assertions = assertions

    def check(self) -> z3.CheckSatResult:
        return z3.unknown

    def assertions(self) -> list[z3.BoolRef]:
        return self._assertions


def test_canonical_query_left_unknown_is_retried_on_a_fresh_solver() -> None:
    x = z3.Int("x")
    stuck = _StuckSolver([x >= 3, x <= 3])
    model = _satisfiable(stuck, CFG)  # z3 is untyped: the stand-in passes for a Solver
    assert model is not None
    assert model.eval(x).as_long() == 3
    assert _satisfiable(_StuckSolver([x >= 3, x <= 2]), CFG) is None
