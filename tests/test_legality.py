"""``apply`` accepts exactly ``legal_actions``; everything else is rejected and explained.

For random reachable states of every preset and player count (seeded playouts), a superset of
candidate actions (:func:`loveformal.testing.invariants.candidate_actions`: every card of the
edition × every seat including the player, seats out or protected and ``None`` × every guess,
cards and numbers and ``None``; seat sets; every Chancellor return; both Bishop choices; every
draw; every starter) is tried: the accepted ones are exactly the legal actions, every rejection
is an ``IllegalAction`` or ``OutOfTurn`` whose non-empty message equals ``explain``, and the
state never changes.
"""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import pytest

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Draw, Play, Starter
from loveformal.cards import Card
from loveformal.engine import CHANCE, apply, current_player, explain, legal_actions, new_match
from loveformal.errors import IllegalAction, OutOfTurn
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step
from loveformal.state import CHANCE_PHASES, Phase, State
from loveformal.testing.invariants import candidate_actions, rejection_explained, snapshot

CONFIGS: tuple[tuple[str, int], ...] = tuple(
    (preset, n)
    for preset in preset_names()
    for n in range(make_ruleset(preset).min_players, make_ruleset(preset).max_players + 1)
)
PLAY_STATES = 5
OTHER_STATES = 3


def _id(config: tuple[str, int]) -> str:
    return f"{config[0]}-{config[1]}p"


def _kind(state: State) -> tuple[object, ...]:
    """A coarse description, to pick varied states: phase, and for plays what bears on
    targeting (protected or out seats, a Sycophant mark, the hand)."""
    if state.phase is not Phase.PLAY:
        return (state.phase,)
    return (
        state.phase,
        any(s.protected for s in state.seats),
        any(s.out for s in state.seats),
        state.sycophant is not None,
        state.seats[state.turn].hand,
    )


@cache
def reachable_states(preset: str, players: int, seed: int = 11) -> tuple[State, ...]:
    """Varied non-terminal states of seeded random matches of ``preset``."""
    rng = random.Random(f"{preset}-{players}-{seed}")
    groups: dict[tuple[object, ...], list[State]] = defaultdict(list)
    for match in range(3):
        state = new_match(make_ruleset(preset), players, starter=match % players)
        while state.phase is not Phase.GAME_OVER:
            groups[_kind(state)].append(state)
            state, _ = random_step(state, rng)
    plays = [rng.choice(g) for k, g in sorted(groups.items(), key=repr) if k[0] is Phase.PLAY]
    others = [rng.choice(g) for k, g in sorted(groups.items(), key=repr) if k[0] is not Phase.PLAY]
    rng.shuffle(plays)
    # Prefer plays where someone is protected or out, or a Sycophant mark holds.
    plays.sort(key=lambda s: not (_kind(s)[1] or _kind(s)[2] or _kind(s)[3]))
    rng.shuffle(others)
    decisions = [s for s in others if s.phase not in CHANCE_PHASES]
    chances = [s for s in others if s.phase in CHANCE_PHASES]
    return (*plays[:PLAY_STATES], *decisions[:OTHER_STATES], *chances[:OTHER_STATES])


def _minor_play(action: Action) -> bool:
    return isinstance(action, Play) and (
        action.guess not in (None, Card.PRIEST, 2) or (action.target or 0) > 1
    )


def _expected_error(state: State, action: Action) -> type[Exception]:
    chance_node = state.phase in CHANCE_PHASES
    chance_outcome = isinstance(action, (Draw, Starter))
    return OutOfTurn if chance_node != chance_outcome else IllegalAction


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_apply_accepts_exactly_the_legal_actions(config: tuple[str, int]) -> None:
    preset, players = config
    states = reachable_states(preset, players)
    assert any(s.phase is Phase.PLAY for s in states)
    for state in states:
        before = snapshot(state)
        legal = set(legal_actions(state))
        candidates = candidate_actions(state)
        if state.phase is not Phase.PLAY:
            # Plays are rejected by phase alone here: a few of each card stand for them all.
            candidates = tuple(a for a in candidates if not _minor_play(a))
        assert legal <= set(candidates), "the candidate superset misses legal actions"
        accepted: set[Action] = set()
        for action in candidates:
            try:
                apply(state, action)
            except (IllegalAction, OutOfTurn) as exc:
                message = str(exc)
                assert message, f"{action}: empty message"
                assert message == explain(state, action), action
                assert type(exc) is _expected_error(state, action), (action, exc)
            else:
                assert explain(state, action) is None, action
                accepted.add(action)
        assert accepted == legal, (state.phase, accepted ^ legal)
        assert state == before, "trying actions changed the state"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_wrong_seat_is_out_of_turn(config: tuple[str, int]) -> None:
    preset, players = config
    for state in reachable_states(preset, players)[::2]:
        before = snapshot(state)
        actor = current_player(state)
        action = legal_actions(state)[0]
        apply(state, action, seat=actor)  # the right seat is accepted
        for seat in (CHANCE, *range(players), players):
            if seat == actor:
                continue
            with pytest.raises(OutOfTurn) as info:
                apply(state, action, seat=seat)
            assert str(info.value)
            assert rejection_explained(state, action, seat=seat) == []
        assert state == before


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_chance_outcome_at_a_decision_and_decision_at_chance(config: tuple[str, int]) -> None:
    preset, players = config
    states = reachable_states(preset, players)
    decisions = [s for s in states if s.phase not in CHANCE_PHASES]
    chances = [s for s in states if s.phase in CHANCE_PHASES]
    assert decisions and chances
    for state in decisions:
        for outcome in (Draw(Card.GUARD), Draw(Card.PRINCESS), Starter(0)):
            with pytest.raises(OutOfTurn) as info:
                apply(state, outcome)
            assert str(info.value) == explain(state, outcome)
    for state in chances:
        decisions_tried: list[Action] = [
            Play(Card.GUARD),
            Play(Card.PRIEST, target=0),
            ChancellorReturn(Card.GUARD, (Card.PRIEST,)),
            BishopRedraw(True),
        ]
        for decision in decisions_tried:
            with pytest.raises(OutOfTurn) as info:
                apply(state, decision)
            assert str(info.value) == explain(state, decision)


def test_rejection_explained_on_a_sample_of_candidates() -> None:
    """The reusable checker agrees: no violations on legal and illegal candidates alike."""
    rng = random.Random(5)
    for preset, players in (("classic", 2), ("premium", 6), ("z2019", 4)):
        for state in reachable_states(preset, players)[:4]:
            for action in rng.sample(candidate_actions(state), 15):
                assert rejection_explained(state, action) == []
