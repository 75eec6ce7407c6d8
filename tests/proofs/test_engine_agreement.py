"""The engine against the model: random play steps satisfy the model's relations, reachable
states satisfy the invariants, and legal actions agree exactly (Classic, Z2019 and the Premium
5–8 player deck, whose Bishop, Baroness and Cardinal choose differently)."""

from __future__ import annotations

import random

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from loveformal.actions import Action, BishopRedraw, Play
from loveformal.cards import Card
from loveformal.engine import apply, legal_actions, new_match
from loveformal.proofs import engine_check
from loveformal.proofs.engine_check import check_legal, check_step, random_play
from loveformal.proofs.model import Position, Shape, fresh, substitution
from loveformal.proofs.obligations import inv
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step
from loveformal.state import Phase, State
from tests.support import pos, rules

CONFIGS = [("classic", 2), ("classic", 3), ("z2019", 2), ("z2019", 3)]
PREMIUM = [("premium", 5), ("bga-help", 6), ("cn-wiki", 8)]


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_random_play_agrees_with_the_model(preset: str, players: int) -> None:
    checked, mismatches = random_play(make_ruleset(preset), players, seed=7, steps=60)
    assert checked == 60
    assert not mismatches, mismatches[0].summary()


@pytest.mark.parametrize(("preset", "players"), PREMIUM)
def test_premium_random_play_agrees_with_the_model(preset: str, players: int) -> None:
    checked, mismatches = random_play(make_ruleset(preset), players, seed=11, steps=30)
    assert checked == 30
    assert not mismatches, mismatches[0].summary()


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["classic", "z2019", "premium"]))
def test_hypothesis_drawn_play_agrees(seed: int, preset: str) -> None:
    _, mismatches = random_play(make_ruleset(preset), 2, seed=seed, steps=15, legal=False)
    assert not mismatches, mismatches[0].summary()


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    preset=st.sampled_from(["premium", "bga-help", "cn-wiki"]),
    players=st.sampled_from([5, 8]),
)
def test_hypothesis_drawn_premium_play_agrees(seed: int, preset: str, players: int) -> None:
    _, mismatches = random_play(make_ruleset(preset), players, seed=seed, steps=12, legal=False)
    assert not mismatches, mismatches[0].summary()


def _states(preset: str, players: int, seed: int, count: int) -> list[State]:
    rng = random.Random(seed)
    state = new_match(make_ruleset(preset), players)
    out: list[State] = []
    while len(out) < count:
        if state.phase is Phase.GAME_OVER:
            state = new_match(make_ruleset(preset), players)
        if state.phase is not Phase.DEAL:
            out.append(state)
        state, _ = random_step(state, rng)
    return out


@pytest.mark.parametrize(("preset", "players"), [("classic", 3), ("z2019", 2), ("premium", 6)])
def test_reachable_states_satisfy_the_invariants(preset: str, players: int) -> None:
    shape = Shape.of(make_ruleset(preset), players)
    s = fresh(shape)
    formula = inv(s)
    for state in _states(preset, players, seed=3, count=80):
        value = z3.simplify(z3.substitute(formula, *substitution(s, Position.of_state(state))))
        assert z3.is_true(value), Position.of_state(state).summary()


def test_a_wrong_engine_step_is_reported() -> None:
    rng = random.Random(1)
    state = new_match(make_ruleset("classic"), 2)
    while state.phase is not Phase.PLAY:
        state, _ = random_step(state, rng)
    action = legal_actions(state)[0]
    post = apply(state, action)
    assert check_step(state, action, post) is None
    seats = list(post.seats)
    seats[0] = seats[0]._replace(tokens=seats[0].tokens + 1)
    wrong = post._replace(seats=tuple(seats))
    problem = check_step(state, action, wrong)
    assert problem is not None
    assert "post-states differ" in problem.detail
    assert "action:" in problem.summary()


def test_legal_actions_agree_at_decisions() -> None:
    for state in _states("z2019", 3, seed=5, count=60):
        problem = check_legal(state)
        assert problem is None, problem.summary()


SMALL = {"P3": ["Guard"], "P4": ["Baron"], "P5": ["Handmaid"]}


@pytest.mark.parametrize(
    ("hand", "protected", "overrides"),
    [
        (["Bishop", "Cardinal"], [], {}),
        (["Baroness", "Cardinal"], ["P3"], {}),
        (["Baroness", "Bishop"], ["P2", "P4"], {"baroness_targets": "two"}),
        (["Cardinal", "Sycophant"], ["P2", "P3", "P4", "P5"], {}),
        (["Bishop", "Guard"], ["P2"], {"guard_guess": "name", "handmaid": "targetable_no_effect"}),
    ],
)
def test_premium_legal_actions_agree_on_small_positions(
    hand: list[str], protected: list[str], overrides: dict[str, object]
) -> None:
    """All-solutions enumeration of the model's guards equals ``legal_actions`` exactly, on
    5-player positions with two cards in the deck, at the play and at the Bishop target's
    redraw decision."""
    state = pos(
        rules("premium", **overrides),
        turn="P1",
        hands={"P1": hand, "P2": ["Princess"], **SMALL},
        deck=["Count", "Countess"],
        protected=protected,
    )
    problem = check_legal(state)
    assert problem is None, problem.summary()
    bishop = [a for a in legal_actions(state) if isinstance(a, Play) and a.card is Card.BISHOP]
    for action in bishop:
        post = apply(state, action)
        assert check_step(state, action, post) is None
        if post.phase is Phase.BISHOP_REDRAW:
            problem = check_legal(post)
            assert problem is None, problem.summary()
            for choice in (BishopRedraw(True), BishopRedraw(False)):
                assert check_step(post, choice, apply(post, choice)) is None


def test_a_wrong_legal_action_set_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: an engine that forgot the Cardinal's looks is caught."""
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Baroness", "Cardinal"], "P2": ["Princess"], **SMALL},
        deck=["Count", "Countess"],
    )

    def no_looks(s: State) -> tuple[Action, ...]:
        return tuple(a for a in legal_actions(s) if not (isinstance(a, Play) and a.look))

    monkeypatch.setattr(engine_check, "legal_actions", no_looks)
    problem = check_legal(state)
    assert problem is not None
    assert "only the model allows" in problem.detail and "Cardinal" in problem.detail
