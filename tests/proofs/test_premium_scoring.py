"""The Premium showdown (Count, Bishop, ``count_tie``, ``princess_always_wins``) of the model
against the engine's :func:`loveformal.scoring.showdown`, on positions of random Premium 5-8
player matches (every option value of the showdown, including overrides no preset uses)."""

from __future__ import annotations

import random

import pytest
import z3

from loveformal.engine import new_match
from loveformal.proofs import cards as C
from loveformal.proofs.model import Position, Shape, fresh, substitution
from loveformal.proofs.steps import showdown
from loveformal.rulebook import make_ruleset
from loveformal.ruleset import Ruleset
from loveformal.sampling import random_step
from loveformal.scoring import showdown as engine_showdown
from loveformal.state import Phase, State


def _states(rules: Ruleset, players: int, seed: int, count: int) -> list[State]:
    rng = random.Random(seed)
    state = new_match(rules, players)
    out: list[State] = []
    while len(out) < count:
        if state.phase is Phase.GAME_OVER:
            state = new_match(rules, players)
        if state.phase is Phase.TURN_DRAW:
            out.append(state)
        state, _ = random_step(state, rng)
    return out


CASES = [
    ("premium", {}, 5),
    ("bga-help", {}, 6),
    ("cn-wiki", {}, 7),
    ("premium", {"count_tie": "void_bonus", "bishop_showdown": "seven_point_five"}, 8),
    ("premium", {"count_bonus": "flat", "princess_always_wins": True}, 5),
]


@pytest.mark.parametrize(("preset", "overrides", "players"), CASES)
def test_premium_showdown_agrees_with_the_engine(
    preset: str, overrides: dict[str, object], players: int
) -> None:
    rules = make_ruleset(preset, overrides)
    shape = Shape.of(rules, players)
    assert C.supported(shape)
    s = fresh(shape)
    winners, tied = showdown(s)
    for state in _states(rules, players, seed=11, count=25):
        # the showdown as if the deck were empty now: give every seat's discards a chance
        # to matter (Counts, tie-breaks), on the hands actually held
        pairs = substitution(s, Position.of_state(state))
        want_w, want_t = engine_showdown(state)
        got_w = {
            i for i, w in enumerate(winners) if z3.is_true(z3.simplify(z3.substitute(w, *pairs)))
        }
        got_t = {i for i, t in enumerate(tied) if z3.is_true(z3.simplify(z3.substitute(t, *pairs)))}
        where = Position.of_state(state).summary()
        assert got_w == set(want_w), where
        assert got_t == set(want_t), where
