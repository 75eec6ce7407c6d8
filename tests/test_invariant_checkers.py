"""The invariant checkers catch planted bugs, and say nothing about correct states.

Every function of :mod:`loveformal.testing.invariants` is shown a broken state or transition
(built with ``_replace``, or by monkeypatching the engine functions the checker calls) and
must report it; and the stateful machine must catch a planted engine bug.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import Phase as HPhase
from hypothesis.stateful import run_state_machine_as_test

import loveformal.testing.invariants as inv
from loveformal.actions import Action, ChanceOutcome, Draw, Play, Starter
from loveformal.cards import Card
from loveformal.effects import EFFECTS
from loveformal.engine import apply, chance_outcomes, legal_actions, new_match
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step
from loveformal.state import Phase, Seat, State
from loveformal.testing.stateful import make_machine
from tests.support import pos

G = Card


def reach(
    predicate: Callable[[State], bool], preset: str = "classic", players: int = 3, seed: int = 1
) -> State:
    """The first state of a seeded random match that satisfies ``predicate``."""
    rng = random.Random(seed)
    for match in range(50):
        state = new_match(make_ruleset(preset), players, starter=match % players)
        while state.phase is not Phase.GAME_OVER:
            if predicate(state):
                return state
            state, _ = random_step(state, rng)
        if predicate(state):
            return state
    raise AssertionError("no such state")


def seat(state: State, i: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[i] = seats[i]._replace(**changes)
    return state._replace(seats=tuple(seats))


def in_play(state: State) -> bool:
    return state.phase is Phase.PLAY


@pytest.fixture(scope="module")
def play_state() -> State:
    """A 3-player classic state at a decision, with every card in a zone."""
    return reach(in_play)


def off_turn(state: State) -> int:
    return next(i for i in state.in_round() if i != state.turn)


# --------------------------------------------------------------------------- cards


def test_card_conservation(play_state: State) -> None:
    assert inv.card_conservation(play_state) == []
    other = off_turn(play_state)
    held = play_state.seats[other].hand
    duplicated = seat(play_state, other, hand=held + held)
    assert inv.card_conservation(duplicated)
    assert inv.card_conservation(duplicated, partial=True)
    lost = seat(play_state, other, hand=())
    assert inv.card_conservation(lost)
    assert inv.card_conservation(lost, partial=True) == []  # out of play is fine in positions
    moved = play_state._replace(set_aside=None)
    assert "missing" in inv.card_conservation(moved)[0]


def test_card_conservation_during_the_deal() -> None:
    mid_deal = reach(lambda s: s.phase is Phase.DEAL and s.set_aside is not None)
    assert inv.card_conservation(mid_deal) == []
    assert inv.card_conservation(mid_deal._replace(pile=mid_deal.pile._replace(unseen=())))


def test_one_princess(play_state: State) -> None:
    assert inv.one_princess(play_state) == []
    other = off_turn(play_state)
    two = seat(play_state, other, hand=(G.PRINCESS,))
    if G.PRINCESS in play_state.seats[other].hand:
        two = seat(play_state, play_state.turn, hand=(G.PRINCESS, G.PRINCESS))
    assert inv.one_princess(two)
    assert inv.one_princess(two, partial=True)
    none = play_state._replace(
        seats=tuple(s._replace(hand=(), discards=()) for s in play_state.seats),
        pile=play_state.pile._replace(unseen=(), top=(), bottom=()),
        set_aside=None,
        face_up=(),
    )
    assert inv.one_princess(none)
    assert inv.one_princess(none, partial=True) == []


# --------------------------------------------------------------------------- hands and seats


def test_hand_sizes(play_state: State) -> None:
    assert inv.hand_sizes(play_state) == []
    actor = play_state.turn
    three = seat(play_state, actor, hand=(*play_state.seats[actor].hand, G.GUARD))
    assert "holds 3 cards" in inv.hand_sizes(three)[0]
    other = off_turn(play_state)
    assert inv.hand_sizes(seat(play_state, other, hand=()))
    assert inv.hand_sizes(seat(play_state, other, out=True))  # out but holding a card
    drawn_twice = play_state._replace(phase=Phase.TURN_DRAW)  # 2 cards before the draw
    assert inv.hand_sizes(drawn_twice)


def test_hand_sizes_in_every_phase() -> None:
    for phase in (Phase.DEAL, Phase.TURN_DRAW, Phase.ROUND_OVER, Phase.GAME_OVER):
        assert inv.hand_sizes(reach(lambda s, p=phase: s.phase is p)) == []  # type: ignore[misc]  # untyped lambda default
    chancellor = reach(lambda s: s.phase is Phase.CHANCELLOR, "z2019", 4)
    assert inv.hand_sizes(chancellor) == []
    actor = chancellor.turn
    assert inv.hand_sizes(seat(chancellor, actor, hand=(G.GUARD,)))
    bishop = reach(lambda s: s.phase is Phase.BISHOP_REDRAW, "premium", 6)
    assert inv.hand_sizes(bishop) == []


def test_out_seats_consistent(play_state: State) -> None:
    assert inv.out_seats_consistent(play_state) == []
    other = off_turn(play_state)
    assert inv.out_seats_consistent(seat(play_state, other, out=True, protected=True, hand=()))
    assert inv.out_seats_consistent(seat(play_state, play_state.turn, out=True))


def test_protection_expires(play_state: State) -> None:
    assert inv.protection_expires(play_state) == []
    assert inv.protection_expires(seat(play_state, play_state.turn, protected=True))
    other = off_turn(play_state)
    assert inv.protection_expires(seat(play_state, other, protected=True)) == []
    deal = reach(lambda s: s.phase is Phase.DEAL and s.round > 1)
    assert inv.protection_expires(deal) == []
    assert inv.protection_expires(seat(deal, 0, protected=True))


def test_player_to_act(play_state: State, monkeypatch: pytest.MonkeyPatch) -> None:
    assert inv.player_to_act(play_state) == []
    chance = reach(lambda s: s.phase is Phase.TURN_DRAW)
    assert inv.player_to_act(chance) == []
    monkeypatch.setattr(inv, "current_player", lambda s: (s.turn + 1) % s.players)
    assert inv.player_to_act(play_state)
    assert inv.player_to_act(chance)


# --------------------------------------------------------------------------- legal actions


def test_chosen_seats_legal() -> None:
    state = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Prince"], "P2": ["Guard"], "P3": ["Priest"], "P4": []},
        deck=["Guard", "Guard"],
        set_aside="Handmaid",
        discards={"P2": ["Handmaid"], "P4": ["Princess"]},
        protected=["P2"],
        out=["P4"],
    )
    for action in legal_actions(state):
        assert inv.chosen_seats_legal(state, action) == []
    assert inv.chosen_seats_legal(state, Play(G.BARON, target=2)) == []
    assert inv.chosen_seats_legal(state, Play(G.PRINCE, target=0)) == []  # Prince: self ok
    assert "protected" in inv.chosen_seats_legal(state, Play(G.BARON, target=1))[0]
    assert "out" in inv.chosen_seats_legal(state, Play(G.BARON, target=3))[0]
    assert "own player" in inv.chosen_seats_legal(state, Play(G.BARON, target=0))[0]
    assert inv.chosen_seats_legal(state, Play(G.BARON, target=7))
    assert inv.chosen_seats_legal(state, Play(G.CARDINAL, targets=(0, 2), look=1))
    assert inv.chosen_seats_legal(state, Play(G.BARONESS, targets=(2, 2)))
    targetable = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Prince"], "P2": ["Guard"], "P3": ["Priest"]},
        deck=["Guard"],
        set_aside="Handmaid",
        discards={"P2": ["Handmaid"]},
        protected=["P2"],
        handmaid="targetable_no_effect",
    )
    assert inv.chosen_seats_legal(targetable, Play(G.BARON, target=1)) == []


def test_legal_actions_chosen_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    state = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Guard"], "P2": ["Guard"], "P3": ["Priest"]},
        deck=["Guard"],
        set_aside="Handmaid",
        discards={"P2": ["Handmaid"]},
        protected=["P2"],
    )
    assert inv.legal_actions_chosen_seats(state) == []
    bad: tuple[Action, ...] = (*legal_actions(state), Play(G.BARON, target=1))
    monkeypatch.setattr(inv, "legal_actions", lambda s: bad)
    assert "protected P2" in inv.legal_actions_chosen_seats(state)[0]


def test_legal_actions_apply(play_state: State, monkeypatch: pytest.MonkeyPatch) -> None:
    assert inv.legal_actions_apply(play_state) == []
    legal = legal_actions(play_state)
    extra: tuple[Action, ...] = (*legal, Play(G.PRINCESS, target=0, guess=G.KING))
    monkeypatch.setattr(inv, "legal_actions", lambda s: extra)
    assert inv.legal_actions_apply(play_state)
    monkeypatch.setattr(inv, "legal_actions", lambda s: (*legal, legal[0]))
    assert "repeat" in inv.legal_actions_apply(play_state)[0]


def test_action_legal(play_state: State) -> None:
    action = legal_actions(play_state)[0]
    assert inv.action_legal(play_state, action) == []
    assert inv.action_legal(play_state, Draw(G.GUARD))
    assert inv.action_legal(play_state, Play(G.PRINCESS, target=0))


def test_rejection_explained(play_state: State, monkeypatch: pytest.MonkeyPatch) -> None:
    legal = legal_actions(play_state)[0]
    illegal = Draw(G.GUARD)
    assert inv.rejection_explained(play_state, legal) == []
    assert inv.rejection_explained(play_state, illegal) == []
    assert inv.rejection_explained(play_state, legal, seat=(play_state.turn + 1) % 3) == []
    real_apply = apply
    # The engine accepts an illegal action:
    monkeypatch.setattr(inv, "apply", lambda s, a, seat=None: s)
    assert "accepted" in inv.rejection_explained(play_state, illegal)[0]
    # ... or rejects it with a message that is not explain's:
    monkeypatch.setattr(inv, "explain", lambda s, a: "some other reason")
    monkeypatch.setattr(inv, "apply", real_apply)
    assert inv.rejection_explained(play_state, illegal)


def test_chance_probabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    chance = reach(lambda s: s.phase is Phase.TURN_DRAW)
    assert inv.chance_probabilities(chance) == []
    real = chance_outcomes(chance)
    broken: list[tuple[tuple[ChanceOutcome, Fraction], ...]] = [
        tuple((o, p * Fraction(9, 10)) for o, p in real),  # sums to 9/10
        ((Draw(G.GUARD), Fraction(1)), (Draw(G.GUARD), Fraction(0))),  # zero and repeated
        ((Draw(G.GUARD), Fraction(3, 2)), (Draw(G.PRIEST), Fraction(-1, 2))),  # outside (0,1]
        (),
    ]
    for outcomes in broken:
        monkeypatch.setattr(inv, "chance_outcomes", lambda s, o=outcomes: o)
        assert inv.chance_probabilities(chance), outcomes
    floats = tuple((o, float(p)) for o, p in real)
    monkeypatch.setattr(inv, "chance_outcomes", lambda s: floats)
    assert "Fraction" in inv.chance_probabilities(chance)[0]


def test_terminal_absorbing(monkeypatch: pytest.MonkeyPatch) -> None:
    over = reach(lambda s: s.phase is Phase.GAME_OVER, players=2)
    assert inv.terminal_absorbing(over) == []
    monkeypatch.setattr(inv, "legal_actions", lambda s: (Starter(0),))
    monkeypatch.setattr(inv, "current_player", lambda s: 0)
    monkeypatch.setattr(inv, "apply", lambda s, a, seat=None: s)
    found = inv.terminal_absorbing(over)
    assert len(found) >= 3
    monkeypatch.setattr(inv, "legal_actions", lambda s: ())
    assert inv.terminal_absorbing(reach(in_play))  # a stuck, non-terminal state


# --------------------------------------------------------------------------- tokens and the end


def test_match_end_at_threshold(play_state: State) -> None:
    assert inv.match_end_at_threshold(play_state) == []
    goal = inv.threshold(play_state)
    past = seat(play_state, 0, tokens=goal)  # the match continues past the threshold
    assert "goes on" in inv.match_end_at_threshold(past)[0]
    over = reach(lambda s: s.phase is Phase.GAME_OVER)
    assert inv.match_end_at_threshold(over) == []
    early = over._replace(seats=tuple(s._replace(tokens=0) for s in over.seats))
    assert inv.match_end_at_threshold(early)
    winner = over.game_winners[0]
    loser = next(i for i in range(over.players) if i not in over.game_winners)
    wrong = over._replace(game_winners=(loser,))
    assert inv.match_end_at_threshold(wrong)
    assert inv.match_end_at_threshold(over._replace(game_winners=()))
    assert over.seats[winner].tokens >= goal


def test_tokens_monotone(play_state: State) -> None:
    over = reach(lambda s: s.phase is Phase.ROUND_OVER)
    assert inv.tokens_monotone(play_state, play_state) == []
    assert inv.tokens_monotone(over, over) == []
    winner = over.round_winners[0]
    lost = seat(over, winner, tokens=over.seats[winner].tokens - 1)
    assert "went from" in inv.tokens_monotone(over, lost)[0]


def test_round_progress_and_bound() -> None:
    start = reach(lambda s: s.phase is Phase.TURN_DRAW)
    assert inv.turns_left_bound(start) == start.pile.size
    drawn = apply(start, legal_actions(start)[0])
    assert inv.turns_left_bound(drawn) == start.pile.size  # a turn in progress
    assert inv.round_progress(start, drawn) == []
    action = legal_actions(drawn)[0]
    after = apply(drawn, action)
    assert inv.round_progress(drawn, after) == []
    assert inv.turns_left_bound(after) < inv.turns_left_bound(start) or after.round_over
    # A turn that ends without using up a card (the draw went back on the pile):
    stalled = drawn._replace(phase=Phase.TURN_DRAW, pile=start.pile)
    assert inv.round_progress(drawn, stalled)
    # The pile grows mid-round:
    grown = start._replace(pile=start.pile._replace(unseen=(*start.pile.unseen, G.GUARD)))
    assert "grew" in inv.round_progress(start, grown)[0]
    assert inv.turns_left_bound(reach(lambda s: s.phase is Phase.ROUND_OVER)) == 0


# --------------------------------------------------------------------------- transitions


def test_input_unchanged(play_state: State) -> None:
    copy = inv.snapshot(play_state)
    assert inv.input_unchanged(copy, play_state) == []
    mutated = seat(play_state, 0, tokens=play_state.seats[0].tokens + 1)
    assert "seats" in inv.input_unchanged(copy, mutated)[0]


def test_deterministic(play_state: State) -> None:
    action = legal_actions(play_state)[0]
    after = apply(play_state, action)
    assert inv.deterministic(play_state, action, after) == []
    other = seat(after, 0, tokens=after.seats[0].tokens + 1)
    assert "differs" in inv.deterministic(play_state, action, other)[0]


def test_check_state_and_transition_aggregate(play_state: State) -> None:
    assert inv.check_state(play_state) == []
    other = off_turn(play_state)
    broken = seat(play_state, other, hand=(G.PRINCESS, G.PRINCESS, G.GUARD))
    found = inv.check_state(broken)
    assert any(m.startswith("card conservation") for m in found)
    assert any(m.startswith("one princess") for m in found)
    assert any(m.startswith("hand sizes") for m in found)
    action = legal_actions(play_state)[0]
    copy = inv.snapshot(play_state)
    after = apply(play_state, action)
    assert inv.check_transition(play_state, action, after, before_copy=copy) == []
    assert inv.check_transition(play_state, action, broken, before_copy=broken)


def test_invariant_names_are_functions() -> None:
    for name in inv.INVARIANTS:
        assert callable(getattr(inv, name)), name
    assert set(inv.STATE_CHECKS) | set(inv.TRANSITION_CHECKS) <= set(inv.INVARIANTS)


def test_candidate_actions_cover_the_legal_actions() -> None:
    for preset, players in (("premium", 6), ("z2019", 3)):
        state = reach(in_play, preset, players)
        assert set(legal_actions(state)) <= set(inv.candidate_actions(state))


# --------------------------------------------------------------------------- the machine


_FAST = settings(
    max_examples=150,
    stateful_step_count=60,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[HPhase.explicit, HPhase.generate],  # no shrinking: only the failure matters here
)


def test_machine_passes_on_the_engine() -> None:
    run_state_machine_as_test(make_machine("classic", 2), settings=settings(_FAST, max_examples=10))


def test_machine_catches_a_planted_king_duplication(monkeypatch: pytest.MonkeyPatch) -> None:
    king = EFFECTS[G.KING]

    def duplicating_king(state: State, play: Play) -> State:
        after = king(state, play)
        s = after.seats[after.turn]
        if not s.hand:
            return after
        hand = tuple(sorted((*s.hand, s.hand[0]), key=lambda c: c.index))
        seats = list(after.seats)
        seats[after.turn] = Seat(hand, s.discards, s.out, s.protected, s.tokens, s.spied)
        return after._replace(seats=tuple(seats))

    monkeypatch.setitem(EFFECTS, G.KING, duplicating_king)
    with pytest.raises(AssertionError) as info:
        run_state_machine_as_test(make_machine("classic", 2), settings=_FAST)
    assert "card conservation" in str(info.value) or "hand sizes" in str(info.value)
