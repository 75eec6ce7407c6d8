"""The information model (``loveformal.observation``): what one seat knows, and nothing more."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from loveformal.cards import Card
from loveformal.engine import current_player, is_terminal, legal_actions, new_match
from loveformal.events import Event, EventKind
from loveformal.knowledge import knows
from loveformal.notation import format_position
from loveformal.observation import Observation, information_state_string, observation
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step
from loveformal.state import DrawPile, State
from tests.support import play, pos

G = Card
P1, P2, P3 = range(3)

CONFIGS = [
    (p, n)
    for p in preset_names()
    for n in range(make_ruleset(p).min_players, make_ruleset(p).max_players + 1)
]


def sample(preset: str, players: int, seeds: int = 2, steps: int = 120) -> list[State]:
    out: list[State] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        s = new_match(make_ruleset(preset), players)
        for _ in range(steps):
            if is_terminal(s):
                break
            s, _ = random_step(s, rng)
            out.append(s)
    return out


def public(state: State) -> tuple[object, ...]:
    """What every seat sees (independent of the observer)."""
    return (
        state.rules.key,
        state.round,
        state.phase,
        state.turn,
        state.pending_seat,
        state.chancellor_draws,
        tuple(
            (len(s.hand), s.discards, s.out, s.protected, s.tokens, s.spied) for s in state.seats
        ),
        state.face_up,
        state.sycophant,
        state.jester,
        state.pile.size,
        state.set_aside is not None,
        state.round_winners,
        state.next_starters,
        state.game_winners,
        tuple(e.public() for e in state.log),
    )


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_equal_keys_mean_equal_own_hand_and_public_information(preset: str, players: int) -> None:
    states = sample(preset, players)
    for seat in range(players):
        groups: dict[object, list[State]] = defaultdict(list)
        strings: dict[object, str] = {}
        for s in states:
            obs = observation(s, seat)
            hash(obs)
            groups[obs.key].append(s)
            text = information_state_string(s, seat)
            assert strings.setdefault(obs.key, text) == text
        # distinct keys give distinct strings (the string is perfect recall too)
        assert len(set(strings.values())) == len(strings)
        assert any(len(set(m)) > 1 for m in groups.values())  # hidden differences exist
        for members in groups.values():
            first = members[0]
            for other in members[1:]:
                assert other.seats[seat].hand == first.seats[seat].hand
                assert public(other) == public(first)
                if current_player(first) == seat:
                    assert legal_actions(other) == legal_actions(first)


def three() -> State:
    return pos(
        "classic",
        turn="P1",
        hands={"P1": ["Priest", "King"], "P2": ["Baron"], "P3": ["Guard"]},
        deck=["Prince", "Countess", "Handmaid", "Guard", "Guard"],
        set_aside="Princess",
    )


def keys(state: State) -> list[tuple[object, ...]]:
    return [observation(state, s).key for s in range(state.players)]


def test_another_seats_hand_and_the_set_aside_card_are_hidden() -> None:
    a = three()
    b = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Priest", "King"], "P2": ["Princess"], "P3": ["Guard"]},
        deck=["Prince", "Countess", "Handmaid", "Guard", "Guard"],
        set_aside="Baron",
    )
    assert observation(a, P1).key == observation(b, P1).key
    assert observation(a, P3).key == observation(b, P3).key
    assert observation(a, P2).key != observation(b, P2).key  # P2 sees its own hand
    assert format_position(a, P1) == format_position(b, P1)


def test_the_order_of_the_draw_pile_is_hidden() -> None:
    a = three()
    b = a._replace(pile=DrawPile.ordered(tuple(reversed(a.pile.cards()))))
    assert keys(a) == keys(b)


@pytest.mark.parametrize("preset,players", [("classic", 2), ("premium", 6), ("z2019", 3)])
def test_anchor_bug_1_set_aside_card_never_reaches_an_observation(
    preset: str, players: int
) -> None:
    """anchors.md bug 1 (TAG): states that differ only in the face-down card are one
    information set for every seat."""
    checked = 0
    for s in sample(preset, players, seeds=2, steps=80):
        if s.set_aside is None or not s.pile.unseen:
            continue
        other = next((c for c in s.pile.unseen if c is not s.set_aside), None)
        if other is None:
            continue
        unseen = list(s.pile.unseen)
        unseen[unseen.index(other)] = s.set_aside
        swapped = s._replace(
            set_aside=other,
            pile=DrawPile(s.pile.top, tuple(sorted(unseen, key=lambda c: c.index)), s.pile.bottom),
        )
        assert keys(swapped) == keys(s)
        checked += 1
    assert checked > 10


def test_a_card_a_seat_saw_changes_its_key_only() -> None:
    s = play(three(), "Priest", "P2")
    saw = s.log[-1]
    assert saw.kind is EventKind.SAW and saw.card is G.BARON
    changed = s._replace(log=(*s.log[:-1], saw._replace(card=G.KING)))
    assert observation(s, P1).key != observation(changed, P1).key
    assert observation(s, P2).key == observation(changed, P2).key
    assert observation(s, P3).key == observation(changed, P3).key


def test_perfect_recall_keeps_the_order_of_events() -> None:
    s = play(three(), "Priest", "P2")
    obs = observation(s, P3)
    assert [e.kind for e in obs.events] == [e.kind for e in s.log]
    assert all(e.card is None for e in obs.events if e.kind is EventKind.SAW)


def test_anchor_bug_2_king_swap_both_sides_know_what_they_gave_and_got() -> None:
    s = play(three(), "King", "P2")  # P1 gives the Priest, gets the Baron
    for seat in (P1, P2):
        swap = [e for e in observation(s, seat).events if e.kind is EventKind.SWAPPED]
        assert swap and swap[0].cards == (G.PRIEST, G.BARON)
    assert observation(s, P1).known[P2] == (G.PRIEST,)
    assert observation(s, P2).known[P1] == (G.BARON,)
    assert observation(s, P3).known == ((), (), ())
    assert knows(s, P1)[P2] is G.PRIEST and knows(s, P2)[P1] is G.BARON
    swap3 = [e for e in observation(s, P3).events if e.kind is EventKind.SWAPPED]
    assert swap3[0].cards == ()


def test_stale_knowledge_after_a_prince_redraw_is_dropped() -> None:
    s = play(three(), "Priest", "P2")  # P1 sees P2's Baron
    assert observation(s, P1).known[P2] == (G.BARON,)
    s = play(s, "Prince", "P2")  # P2 draws the Prince and discards its own Baron
    assert observation(s, P1).known[P2] == ()
    assert knows(s, P1)[P2] is None


def test_stale_knowledge_after_a_swap_moves_with_the_hand() -> None:
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Priest", "Guard"], "P2": ["Baron"], "P3": ["Handmaid"]},
        deck=["King", "Prince", "Countess", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Priest", "P2")  # P1 sees the Baron; P2 draws the King
    s = play(s, "King", "P3")  # P2 and P3 trade: P3 now holds the Baron
    assert knows(s, P1) == {P2: None, P3: G.BARON}
    assert observation(s, P1).known[P3] == (G.BARON,)


def test_own_chancellor_returns_are_known_bottom_cards() -> None:
    from loveformal.actions import ChancellorReturn

    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Guard"], "P2": ["Baron"], "P3": ["Priest"]},
        deck=["Spy", "Countess", "Handmaid", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Chancellor")
    from tests.support import step

    s = step(s, ChancellorReturn(G.GUARD, (G.SPY, G.COUNTESS)))
    assert observation(s, P1).known_bottom == (G.SPY, G.COUNTESS)
    assert observation(s, P2).known_bottom == ()
    assert "mine:Spy,Countess" in format_position(s, P1)


def test_observation_is_frozen_and_hashable() -> None:
    obs = observation(three(), P1)
    assert isinstance(obs, Observation)
    with pytest.raises(AttributeError):
        obs.round = 2  # type: ignore[misc]  # the point: assigning to a frozen value fails
    assert len({obs, observation(three(), P1)}) == 1


def test_bad_seat() -> None:
    with pytest.raises(ValueError, match="no seat P4"):
        observation(three(), 3)


def test_information_state_string_is_readable() -> None:
    s = play(three(), "Priest", "P2")
    text = information_state_string(s, P1)
    first, *events = text.splitlines()
    assert "view:P1" in first
    assert any("saw P1 ->P2 card=Baron" in e for e in events)
    other = information_state_string(s, P3)
    assert "card=Baron" not in other


def test_event_kinds_all_round_trip_through_public() -> None:
    e = Event(EventKind.DREW, seat=0, card=G.GUARD, visible_to=(0,))
    assert e.public().card is None and e.public().seen_by(1) is False
    counts = Counter(k for k in EventKind)
    assert counts
