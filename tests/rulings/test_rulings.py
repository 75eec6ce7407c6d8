"""One or more tests per official ruling R1–R25 (``rules.md`` §2), plus the edge cases of
``rules.md`` §5 and of ``anchors.md`` ("Edge cases worth making first-class test vectors").

Positions are written with card and seat names (``tests/support.py``); every test checks the
outcome precisely (hands, discard order, who is out or protected, tokens, phase, winners,
next starters, exact legal-action sets, error messages).
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Play, Starter
from loveformal.cards import Card
from loveformal.dealing import deal
from loveformal.engine import (
    apply,
    chance_outcomes,
    current_player,
    explain,
    legal_actions,
    new_match,
)
from loveformal.errors import IllegalAction, MalformedInput
from loveformal.events import EventKind
from loveformal.rulebook import make_ruleset
from loveformal.seats import seat_name
from loveformal.state import Phase, State
from tests.support import play, pos, step

G = Card
K = EventKind
P1, P2, P3, P4, P5 = range(5)
UNCHECKED = "<unchecked>"


# --------------------------------------------------------------------------- helpers


def _titles(cards: Sequence[Card]) -> list[str]:
    return [c.title for c in cards]


def _names(seats: Sequence[int]) -> list[str]:
    return [seat_name(s) for s in seats]


def check(
    state: State,
    *,
    hands: Mapping[str, Sequence[str]] | None = None,
    discards: Mapping[str, Sequence[str]] | None = None,
    out: Sequence[str] | None = None,
    protected: Sequence[str] | None = None,
    tokens: Mapping[str, int] | None = None,
    phase: Phase | None = None,
    turn: str | None = None,
    deck: Sequence[str] | None = None,
    set_aside: str | None = UNCHECKED,
    face_up: Sequence[str] | None = None,
    round_winners: Sequence[str] | None = None,
    next_starters: Sequence[str] | None = None,
    game_winners: Sequence[str] | None = None,
) -> None:
    """Assert every given part of ``state``. Tables (hands, discards, tokens) are checked for
    *every* seat: a seat not listed must hold nothing / have discarded nothing / have 0."""
    seats = [seat_name(i) for i in range(state.players)]
    if hands is not None:
        got = {n: sorted(_titles(state.seats[i].hand)) for i, n in enumerate(seats)}
        assert got == {n: sorted(hands.get(n, ())) for n in seats}
    if discards is not None:
        got = {n: _titles(state.seats[i].discards) for i, n in enumerate(seats)}
        assert got == {n: list(discards.get(n, ())) for n in seats}
    if out is not None:
        assert [n for i, n in enumerate(seats) if state.seats[i].out] == list(out)
    if protected is not None:
        assert [n for i, n in enumerate(seats) if state.seats[i].protected] == list(protected)
    if tokens is not None:
        got_t = {n: state.seats[i].tokens for i, n in enumerate(seats)}
        assert got_t == {n: tokens.get(n, 0) for n in seats}
    if phase is not None:
        assert state.phase is phase
    if turn is not None:
        assert seat_name(state.turn) == turn
    if deck is not None:
        assert _titles(state.pile.cards()) == list(deck)
    if set_aside != UNCHECKED:
        assert (state.set_aside.title if state.set_aside else None) == set_aside
    if face_up is not None:
        assert _titles(state.face_up) == list(face_up)
    if round_winners is not None:
        assert _names(state.round_winners) == list(round_winners)
    if next_starters is not None:
        assert _names(state.next_starters) == list(next_starters)
    if game_winners is not None:
        assert _names(state.game_winners) == list(game_winners)


def legal(state: State) -> set[Action]:
    actions = legal_actions(state)
    assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
    return set(actions)


def plays_of(state: State, card: Card) -> set[Play]:
    return {a for a in legal_actions(state) if isinstance(a, Play) and a.card is card}


def assert_illegal(state: State, action: Action, text: str) -> None:
    """``apply`` rejects ``action`` with a message containing ``text``; nothing changes."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=re.escape(text)):
        apply(state, action)
    assert text in (explain(state, action) or "")
    assert action not in legal_actions(state)
    assert state == before


def kinds(state: State) -> list[EventKind]:
    return [e.kind for e in state.log]


def all_cards(state: State) -> Counter[Card]:
    """Every card in some zone: draw pile, set-aside, face-up, hands and discard piles."""
    c: Counter[Card] = Counter(state.pile.cards())
    c.update(state.face_up)
    if state.set_aside is not None:
        c[state.set_aside] += 1
    for s in state.seats:
        c.update(s.hand)
        c.update(s.discards)
    return c


def deal_by_chance(state: State) -> State:
    """Resolve a whole deal through the engine's chance outcomes (first outcome each time)."""
    while state.phase is Phase.DEAL:
        outcomes = chance_outcomes(state)
        assert sum(p for _, p in outcomes) == 1
        state = apply(state, outcomes[0][0])
    return state


def premium5(**kwargs: Any) -> State:
    """A 5-player Premium position (the 32-card deck); keywords as for ``pos``."""
    return pos("premium", players=5, **kwargs)


# --------------------------------------------------------------------------- R1


def test_r01_prince_on_princess_holder_knocks_out_without_redraw() -> None:
    """R1; S-PREM-A Princess text, S-Z-CARDS: the Princess discarded by a Prince knocks her
    holder out, and no replacement card is drawn (the deck is untouched)."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Princess"], "P3": ["Baron"]},
        deck=["Priest", "Handmaid"],
        set_aside="King",
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Guard"], "P3": ["Baron"]},
        discards={"P1": ["Prince"], "P2": ["Princess"]},
        out=["P2"],
        deck=["Priest", "Handmaid"],
        set_aside="King",
        phase=Phase.TURN_DRAW,
        turn="P3",
    )
    assert K.DREW not in kinds(s)


def test_r01_prince_on_princess_in_two_player_round_ends_the_round_at_once() -> None:
    """R1, §1.1.7(a); S-Z-CARDS: with one player left the round ends mid-turn, cards still in
    the deck, and the last player wins it."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Princess"]},
        deck=["Priest", "Baron", "Handmaid"],
        set_aside="King",
        face_up=["Spy", "Guard", "Guard"],
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Guard"]},
        discards={"P1": ["Prince"], "P2": ["Princess"]},
        out=["P2"],
        deck=["Priest", "Baron", "Handmaid"],
        phase=Phase.ROUND_OVER,
        round_winners=["P1"],
        tokens={"P1": 1},
        next_starters=["P1"],
    )


def test_r01_prince_forced_princess_discard_still_scores_constable() -> None:
    """R1, R18; S-PREM-A: effects tied to a knock-out still apply — a Constable already in
    the discard pile earns its token when a Prince forces the Princess out."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Princess"], "P3": ["Baron"]},
        discards={"P2": ["Constable"]},
        out=["P4", "P5"],
        deck=["Priest"],
        set_aside="King",
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Guard"], "P3": ["Baron"]},
        discards={"P1": ["Prince"], "P2": ["Constable", "Princess"]},
        out=["P2", "P4", "P5"],
        tokens={"P2": 1},
        deck=["Priest"],
        phase=Phase.TURN_DRAW,
        turn="P3",
    )


def test_r01_prince_forced_princess_discard_keeps_jester_bet() -> None:
    """R1, R23; S-PREM-A, S-BGA-LEG: a Jester player knocked out by a Prince-forced Princess
    discard still gains the Jester token when their chosen player wins."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Princess"], "P3": ["King"]},
        discards={"P2": ["Jester"]},
        jester=("P2", "P3"),
        out=["P4", "P5"],
        deck=[],
        set_aside="Baron",
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        out=["P2", "P4", "P5"],
        set_aside="Baron",
        phase=Phase.ROUND_OVER,
        round_winners=["P3"],
        tokens={"P2": 1, "P3": 1},
    )


# --------------------------------------------------------------------------- R2


@pytest.mark.parametrize("preset", ["classic", "premium", "z2019"])
def test_r02_prince_on_empty_deck_takes_set_aside_card_never_a_face_up_card(preset: str) -> None:
    """R2; S-AEG-C, S-PREM-A, S-Z-CARDS ("facedown set-aside card"); anchors bugs 11, 16:
    the target discards and draws the face-down set-aside card; the 2p face-up cards stay."""
    s = pos(
        preset,
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Handmaid"]},
        deck=[],
        set_aside="Countess",
        face_up=["King", "Priest", "Priest"],
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["Countess"]},
        discards={"P1": ["Prince"], "P2": ["Handmaid"]},
        out=[],
        set_aside=None,
        face_up=["King", "Priest", "Priest"],
        phase=Phase.ROUND_OVER,
        round_winners=["P2"],
        tokens={"P2": 1},
    )
    drew = [e for e in s.log if e.kind is K.DREW]
    assert [(e.seat, e.card, e.visible_to) for e in drew] == [(P2, G.COUNTESS, (P2,))]


def test_r02_prince_with_cards_in_deck_draws_the_top_card() -> None:
    """R2 (contrast); S-AEG-C: while the deck has cards the target draws its top card and the
    set-aside card stays where it is."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Handmaid"], "P3": ["Priest"]},
        deck=["Baron", "King"],
        set_aside="Countess",
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["Baron"], "P3": ["Priest"]},
        discards={"P1": ["Prince"], "P2": ["Handmaid"]},
        deck=["King"],
        set_aside="Countess",
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


# --------------------------------------------------------------------------- R3


def test_r03_prince_on_yourself_is_legal() -> None:
    """R3; S-AEG-C, S-Z-CARDS ("including yourself"); anchors bug 23: the Prince may choose its
    own player, who discards the other card and draws."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Baron"], "P3": ["Priest"]},
        deck=["King", "Handmaid"],
        set_aside="Countess",
    )
    assert plays_of(s, G.PRINCE) == {Play(G.PRINCE, target=t) for t in (P1, P2, P3)}
    s = play(s, "Prince", "P1")
    check(
        s,
        hands={"P1": ["King"], "P2": ["Baron"], "P3": ["Priest"]},
        discards={"P1": ["Prince", "Guard"]},
        out=[],
        deck=["Handmaid"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r03_prince_self_forced_when_all_others_protected() -> None:
    """R3, R9; S-AEG-C ("must choose themselves if all others are protected"), S-Z-CARDS:
    the Prince's only legal target is its own player; the Guard has no effect."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Baron"], "P3": ["Priest"]},
        protected=["P2", "P3"],
        deck=["King", "Baron"],
        set_aside="Countess",
    )
    assert legal(s) == {Play(G.GUARD), Play(G.PRINCE, target=P1)}
    assert_illegal(s, Play(G.PRINCE, target=P2), "P2 is protected by the Handmaid")
    assert_illegal(s, Play(G.PRINCE), "the Prince must choose a player: one of P1")
    s = play(s, "Prince", "P1")
    check(
        s,
        hands={"P1": ["King"], "P2": ["Baron"], "P3": ["Priest"]},
        discards={"P1": ["Prince", "Guard"]},
        protected=["P3"],  # P2's protection ended as its turn began
        deck=["Baron"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r03_prince_on_yourself_with_princess_knocks_yourself_out() -> None:
    """R3, R1; S-AEG-C, S-Z-CARDS: a self-targeted Prince discarding your Princess knocks you
    out (and you draw nothing)."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Princess"], "P2": ["Baron"], "P3": ["Priest"]},
        deck=["King"],
        set_aside="Countess",
    )
    s = play(s, "Prince", "P1")
    check(
        s,
        hands={"P2": ["Baron"], "P3": ["Priest"]},
        discards={"P1": ["Prince", "Princess"]},
        out=["P1"],
        deck=["King"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


# --------------------------------------------------------------------------- R4


@pytest.mark.parametrize("preset", ["classic", "z2019"])
@pytest.mark.parametrize("other", ["King", "Prince"])
def test_r04_countess_forced_with_king_or_prince_even_without_a_legal_target(
    preset: str, other: str
) -> None:
    """R4; S-AEG-C, S-Z-CARDS, S-BGA-LEG/NEW `validatePlayerNotHoldingCountess`; anchors bug
    25: holding the Countess with the King or a Prince, only the Countess may be played —
    even when every other player is protected, so the King would have no target."""
    s = pos(
        preset,
        turn="P1",
        hands={"P1": ["Countess", other], "P2": ["Guard"], "P3": ["Priest"]},
        protected=["P2", "P3"],
        deck=["Baron"],
        set_aside="Handmaid",
    )
    assert legal(s) == {Play(G.COUNTESS)}
    forced = Card.parse(other)
    attempt = Play(forced) if forced is G.KING else Play(forced, target=P1)
    assert_illegal(s, attempt, f"the Countess must be played while holding the {other}")
    s = play(s, "Countess")
    check(
        s,
        hands={"P1": [other], "P2": ["Guard"], "P3": ["Priest"]},
        discards={"P1": ["Countess"]},
        out=[],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r04_countess_may_be_played_voluntarily() -> None:
    """R4, §1.1.3; S-AEG-C, S-PREM-A, S-Z-CARDS: the Countess may always be played by choice;
    it has no effect and the other card is not revealed."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Countess", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Handmaid"],
        set_aside="King",
    )
    assert Play(G.COUNTESS) in legal(s)
    assert plays_of(s, G.GUARD)  # the Guard is playable too
    s = play(s, "Countess")
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        discards={"P1": ["Countess"]},
        out=[],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )
    assert not [e for e in s.log if e.kind is K.REVEALED]


def test_r04_king_and_prince_hand_is_unconstrained() -> None:
    """R4; S-AEG-C, S-Z-CARDS: without the Countess a King+Prince hand may play either."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["King", "Prince"], "P2": ["Priest"], "P3": ["Guard"]},
        deck=["Baron"],
        set_aside="Handmaid",
    )
    assert legal(s) == {
        Play(G.KING, target=P2),
        Play(G.KING, target=P3),
        Play(G.PRINCE, target=P1),
        Play(G.PRINCE, target=P2),
        Play(G.PRINCE, target=P3),
    }


# --------------------------------------------------------------------------- R5


@pytest.mark.parametrize("preset", ["classic", "z2019"])
def test_r05_guard_cannot_name_guard(preset: str) -> None:
    """R5; S-AEG-C, S-Z-CARDS, S-TAG: naming the Guard is illegal; every other card of the deck
    (in Z2019 also the Spy) may be named."""
    s = pos(
        preset,
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Guard"], "P3": ["Baron"]},
        deck=["Handmaid"],
        set_aside="King",
    )
    assert_illegal(s, Play(G.GUARD, target=P2, guess=G.GUARD), "the Guard cannot name the Guard")
    named = {a.guess for a in plays_of(s, G.GUARD)}
    expected = {
        G.PRIEST, G.BARON, G.HANDMAID, G.PRINCE, G.KING, G.COUNTESS, G.PRINCESS,
    } | ({G.CHANCELLOR, G.SPY} if preset == "z2019" else set())  # fmt: skip
    assert named == expected
    assert plays_of(s, G.GUARD) == {
        Play(G.GUARD, target=t, guess=g) for t in (P2, P3) for g in expected
    }


def test_r05_premium_guard_cannot_name_one_but_may_name_zero_and_nine() -> None:
    """R5, D6; S-PREM-A: the Premium Guard names a number other than 1; 0 (Jester) and 9
    (Bishop) are legal and hit."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Jester"], "P3": ["Bishop"]},
        out=["P4", "P5"],
        deck=["Baron"],
        set_aside="Handmaid",
    )
    assert_illegal(s, Play(G.GUARD, target=P2, guess=1), "the Guard cannot name 1")
    assert {a.guess for a in plays_of(s, G.GUARD)} == {0, 2, 3, 4, 5, 6, 7, 8, 9}
    zero = play(s, "Guard", "P2", guess=0)
    check(zero, out=["P2", "P4", "P5"], discards={"P1": ["Guard"], "P2": ["Jester"]})
    nine = play(s, "Guard", "P3", guess=9)
    check(nine, out=["P3", "P4", "P5"], discards={"P1": ["Guard"], "P3": ["Bishop"]})


# --------------------------------------------------------------------------- R6


@pytest.mark.parametrize("guess", [0, 2, 9])
def test_r06_guard_on_assassin_knocks_out_guard_player_whatever_was_named(guess: int) -> None:
    """R6; S-PREM-A ("regardless of what number … (even 0!)"), S-BGA-LEG: the Guard's player
    is out; the Assassin's holder discards the Assassin and draws a new card."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Assassin"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["King", "Countess"],
        set_aside="Handmaid",
    )
    s = play(s, "Guard", "P2", guess=guess)
    check(
        s,
        hands={"P2": ["King"], "P3": ["Baron"]},
        discards={"P1": ["Guard", "Priest"], "P2": ["Assassin"]},
        out=["P1", "P4", "P5"],
        deck=["Countess"],
        set_aside="Handmaid",
        tokens={},
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r06_assassin_redraw_takes_set_aside_card_when_deck_is_empty() -> None:
    """R6; S-PREM-A, S-BGA-LEG: with the deck empty the Assassin's holder takes the set-aside
    card; then the deck is empty at the end of the turn and the round is compared."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Assassin"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Countess",
    )
    s = play(s, "Guard", "P2", guess=0)
    check(
        s,
        hands={"P2": ["Countess"], "P3": ["Baron"]},
        discards={"P1": ["Guard", "Priest"], "P2": ["Assassin"]},
        out=["P1", "P4", "P5"],
        set_aside=None,
        phase=Phase.ROUND_OVER,
        round_winners=["P2"],
        tokens={"P2": 1},
    )


# --------------------------------------------------------------------------- R7


def test_r07_baron_tie_does_nothing() -> None:
    """R7; S-AEG-C, S-Z-CARDS; anchors bug 10: on a tie nobody is out and both keep their
    cards."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Priest"], "P2": ["Priest"], "P3": ["Guard"]},
        deck=["King"],
        set_aside="Handmaid",
    )
    s = play(s, "Baron", "P2")
    check(
        s,
        hands={"P1": ["Priest"], "P2": ["Priest"], "P3": ["Guard"]},
        discards={"P1": ["Baron"]},
        out=[],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )
    compared = [e for e in s.log if e.kind is K.COMPARED]
    assert [(e.cards, e.visible_to) for e in compared] == [((G.PRIEST, G.PRIEST), (P1, P2))]


@pytest.mark.parametrize(
    ("mine", "theirs", "loser"),
    [("Princess", "Guard", "P2"), ("Guard", "Princess", "P1")],
)
def test_r07_baron_lower_value_is_out(mine: str, theirs: str, loser: str) -> None:
    """R7; S-AEG-C: the lower hand is out — the Baron's own player too."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", mine], "P2": [theirs], "P3": ["Priest"]},
        deck=["King"],
        set_aside="Handmaid",
    )
    s = play(s, "Baron", "P2")
    held = {"P1": [mine], "P2": [theirs], "P3": ["Priest"]}
    lost = held.pop(loser)
    piles = {"P1": ["Baron"]}
    piles[loser] = piles.get(loser, []) + lost
    check(s, hands=held, discards=piles, out=[loser], phase=Phase.TURN_DRAW)


def test_r07_baron_cannot_choose_a_protected_player() -> None:
    """R7, R9; S-AEG-C; anchors bug 12: a protected player cannot be compared with; alone
    with a protected opponent the Baron is played with no effect and nobody is out."""
    three = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Guard"], "P2": ["Princess"], "P3": ["Priest"]},
        protected=["P2"],
        deck=["King"],
        set_aside="Handmaid",
    )
    assert plays_of(three, G.BARON) == {Play(G.BARON, target=P3)}
    assert_illegal(three, Play(G.BARON, target=P2), "P2 is protected by the Handmaid")

    two = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Guard"], "P2": ["Princess"]},
        protected=["P2"],
        deck=["King"],
        set_aside="Handmaid",
    )
    assert legal(two) == {Play(G.BARON), Play(G.GUARD)}
    assert_illegal(two, Play(G.BARON, target=P2), "played with no effect")
    after = play(two, "Baron")
    check(
        after,
        hands={"P1": ["Guard"], "P2": ["Princess"]},
        discards={"P1": ["Baron"]},
        out=[],
        protected=[],  # P2's protection ends at the start of its turn
        phase=Phase.TURN_DRAW,
        turn="P2",
    )
    assert K.NO_EFFECT in kinds(after)


# --------------------------------------------------------------------------- R8


def test_r08_handmaid_lasts_until_the_start_of_its_holders_next_turn() -> None:
    """R8, D25; S-AEG-C, S-PREM-A, S-Z-CARDS, S-TAG PR #167 (anchors bug 6): the protection
    holds through every other player's turn and ends when its holder's turn starts."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Guard", "Priest", "King", "Prince"],
        set_aside="Countess",
    )
    s = play(s, "Handmaid")
    check(s, protected=["P1"], turn="P2", phase=Phase.TURN_DRAW)
    p2 = apply(s, legal_actions(s)[0])  # P2 draws the Guard
    assert plays_of(p2, G.GUARD) == {
        Play(G.GUARD, target=P3, guess=g)
        for g in (G.PRIEST, G.BARON, G.HANDMAID, G.PRINCE, G.KING, G.COUNTESS, G.PRINCESS)
    }
    assert_illegal(p2, Play(G.GUARD, target=P1, guess=G.GUARD), "P1 is protected by the Handmaid")
    s = play(p2, "Priest", "P3")
    check(s, protected=["P1"], turn="P3", phase=Phase.TURN_DRAW)
    p3 = apply(s, legal_actions(s)[0])  # P3 draws the Priest
    assert plays_of(p3, G.PRIEST) == {Play(G.PRIEST, target=P2)}
    s = play(p3, "Priest", "P2")
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["Guard"], "P3": ["Baron"]},
        discards={"P1": ["Handmaid"], "P2": ["Priest"], "P3": ["Priest"]},
        protected=[],
        out=[],
        deck=["King", "Prince"],
        phase=Phase.TURN_DRAW,
        turn="P1",
    )


def test_r08_handmaid_protection_does_not_carry_into_the_next_round() -> None:
    """R8; S-BGA-LEG/NEW (all protection reset at round start): a Handmaid played on the last
    turn of a round protects nobody in the next round."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Priest"]},
        deck=[],
        set_aside="Princess",
        face_up=["Guard", "Guard", "Guard"],
    )
    s = play(s, "Handmaid")
    check(s, phase=Phase.ROUND_OVER, round_winners=["P2"], next_starters=["P2"])
    nxt = deal(
        s,
        set_aside=G.PRINCESS,
        face_up=[G.GUARD, G.GUARD, G.GUARD],
        hands={P1: G.GUARD, P2: G.GUARD},
        deck=[G.PRIEST, G.PRIEST, G.BARON, G.BARON, G.HANDMAID]
        + [G.HANDMAID, G.PRINCE, G.PRINCE, G.KING, G.COUNTESS],
    )
    check(
        nxt,
        protected=[],
        out=[],
        hands={"P1": ["Guard"], "P2": ["Guard"]},
        discards={},
        tokens={"P2": 1},
        phase=Phase.TURN_DRAW,
        turn="P2",
    )
    assert nxt.round == 2


# --------------------------------------------------------------------------- R9


@pytest.mark.parametrize("preset", ["classic", "z2019"])
@pytest.mark.parametrize(("a", "b"), [("Guard", "Priest"), ("Baron", "King")])
def test_r09_guard_priest_baron_king_have_no_effect_when_all_others_protected(
    preset: str, a: str, b: str
) -> None:
    """R9; S-Z-CARDS ("Guard, Priest, Baron, King → played with no effect"), S-AEG-C; anchors
    bugs 8, 24: legal_actions holds exactly ``Play(card)`` for each; the play changes only the
    player's hand and discard pile."""
    s = pos(
        preset,
        players=3,
        turn="P1",
        hands={"P1": [a, b], "P2": ["Princess"]},
        protected=["P2"],
        out=["P3"],
        discards={"P3": ["Prince"]},
        deck=["Handmaid"],
        set_aside="Countess",
    )
    ca, cb = Card.parse(a), Card.parse(b)
    assert legal(s) == {Play(ca), Play(cb)}
    assert_illegal(s, Play(cb, target=P2), f"the {b} is played with no effect")
    s = play(s, a)
    check(
        s,
        hands={"P1": [b], "P2": ["Princess"]},
        discards={"P1": [a], "P3": ["Prince"]},
        out=["P3"],
        protected=[],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )
    assert K.NO_EFFECT in kinds(s)


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("Dowager Queen", {Play(G.DOWAGER_QUEEN)}),
        ("Bishop", {Play(G.BISHOP)}),
        ("Jester", {Play(G.JESTER)}),
        ("Baroness", {Play(G.BARONESS)}),
        ("Cardinal", {Play(G.CARDINAL)}),
        ("Sycophant", {Play(G.SYCOPHANT, target=P1)}),
        ("Prince", {Play(G.PRINCE, target=P1)}),
    ],
)
def test_r09_premium_cards_when_all_others_protected(card: str, expected: set[Play]) -> None:
    """R9, R22, §1.1.4; S-PREM-A ("must choose him- or herself … if possible"): the Dowager
    Queen, Bishop, Jester and Baroness have no effect; the Cardinal (fewer than 2 choosable)
    has no effect; the Sycophant and the Prince must choose their own player."""
    s = premium5(
        turn="P1",
        hands={"P1": [card, "Handmaid"], "P2": ["Priest"]},
        protected=["P2"],
        out=["P3", "P4", "P5"],
        deck=["Guard"],
        set_aside="Baron",
    )
    assert plays_of(s, Card.parse(card)) == expected


@pytest.mark.parametrize("card", ["Guard", "Priest", "Baron", "King", "Prince"])
def test_r09_a_protected_player_cannot_be_chosen(card: str) -> None:
    """R9, §1.1.4, D26 (official: untargetable); S-AEG-C, S-Z-CARDS; anchors bugs 13, 18,
    30: no card may choose a Handmaid-protected player while another choice exists."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": [card, "Handmaid"], "P2": ["Princess"], "P3": ["Priest"]},
        protected=["P2"],
        deck=["Guard"],
        set_aside="Countess",
    )
    c = Card.parse(card)
    targets = {a.target for a in plays_of(s, c)}
    assert targets == ({P1, P3} if c is G.PRINCE else {P3})
    guess = G.PRINCESS if c is G.GUARD else None
    assert_illegal(s, Play(c, target=P2, guess=guess), "P2 is protected by the Handmaid")


def test_r09_king_trades_only_with_a_player_still_in_and_unprotected() -> None:
    """R9, §1.2 King; S-AEG-C ("You cannot trade with a player who is out of the round, nor
    with someone protected by the Handmaid"): both traders see both cards."""
    s = pos(
        "classic",
        players=4,
        turn="P1",
        hands={"P1": ["King", "Guard"], "P2": ["Princess"], "P3": ["Baron"]},
        protected=["P2"],
        out=["P4"],
        deck=["Priest"],
        set_aside="Countess",
    )
    assert plays_of(s, G.KING) == {Play(G.KING, target=P3)}
    assert_illegal(s, Play(G.KING, target=P4), "P4 is out of the round")
    s = play(s, "King", "P3")
    check(s, hands={"P1": ["Baron"], "P2": ["Princess"], "P3": ["Guard"]}, out=["P4"])
    swaps = [(e.seat, e.other, e.cards, e.visible_to) for e in s.log if e.kind is K.SWAPPED]
    assert swaps == [(P1, P3, (G.GUARD, G.BARON), (P1, P3))]


# --------------------------------------------------------------------------- R10


def test_r10_chancellor_with_empty_deck_has_no_effect() -> None:
    """R10; S-Z-CARDS, S-Z-REF, S-BGA-NEW: 0 cards in the deck → played with no effect (and
    the round then ends with the comparison)."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=[],
        set_aside="Handmaid",
    )
    assert plays_of(s, G.CHANCELLOR) == {Play(G.CHANCELLOR)}
    s = play(s, "Chancellor")
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        discards={"P1": ["Chancellor"]},
        phase=Phase.ROUND_OVER,
        round_winners=["P3"],
        tokens={"P3": 1},
    )
    assert K.NO_EFFECT in kinds(s)


def test_r10_chancellor_with_one_card_draws_it_and_returns_one() -> None:
    """R10, D27 (official); S-Z-CARDS, S-Z-REF: draw the last card, return one; the deck size
    is unchanged and the round goes on."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Princess"],
        set_aside="Handmaid",
    )
    s = play(s, "Chancellor")
    check(s, hands={"P1": ["Guard", "Princess"], "P2": ["Priest"], "P3": ["Baron"]})
    check(s, deck=[], phase=Phase.CHANCELLOR, turn="P1")
    assert legal(s) == {
        ChancellorReturn(G.GUARD, (G.PRINCESS,)),
        ChancellorReturn(G.PRINCESS, (G.GUARD,)),
    }
    s = step(s, ChancellorReturn(G.PRINCESS, (G.GUARD,)))
    check(
        s,
        hands={"P1": ["Princess"], "P2": ["Priest"], "P3": ["Baron"]},
        discards={"P1": ["Chancellor"]},
        deck=["Guard"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r10_chancellor_with_two_or_more_cards_returns_two_to_the_bottom_in_order() -> None:
    """R10, §5 "Deck"; S-Z-CARDS: draw 2, keep 1 of 3, the others go under the deck in the
    order given (the last listed at the very bottom)."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Princess", "King", "Handmaid"],
        set_aside="Spy",
    )
    s = play(s, "Chancellor")
    check(s, hands={"P1": ["Guard", "Princess", "King"], "P2": ["Priest"], "P3": ["Baron"]})
    check(s, deck=["Handmaid"], phase=Phase.CHANCELLOR)
    assert len(legal(s)) == 6  # 3 cards to keep x 2 orders of the other two
    s = step(s, ChancellorReturn(G.KING, (G.PRINCESS, G.GUARD)))
    check(
        s,
        hands={"P1": ["King"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Handmaid", "Princess", "Guard"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r10_chancellor_with_a_second_chancellor_in_hand_conserves_cards() -> None:
    """R10; S-Z-CARDS; anchors bug 26: the second Chancellor is one of the three cards — it
    may be kept or returned, and no card appears or vanishes."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Chancellor"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Guard", "Princess", "Handmaid"],
        set_aside="Spy",
    )
    total = all_cards(s)
    s = play(s, "Chancellor")
    check(s, hands={"P1": ["Chancellor", "Guard", "Princess"], "P2": ["Priest"], "P3": ["Baron"]})
    assert {a.keep for a in legal_actions(s) if isinstance(a, ChancellorReturn)} == {
        G.CHANCELLOR,
        G.GUARD,
        G.PRINCESS,
    }
    assert all_cards(s) == total
    returned = step(s, ChancellorReturn(G.PRINCESS, (G.CHANCELLOR, G.GUARD)))
    check(returned, hands={"P1": ["Princess"], "P2": ["Priest"], "P3": ["Baron"]})
    check(returned, deck=["Handmaid", "Chancellor", "Guard"], discards={"P1": ["Chancellor"]})
    assert all_cards(returned) == total
    kept = step(s, ChancellorReturn(G.CHANCELLOR, (G.GUARD, G.PRINCESS)))
    check(kept, hands={"P1": ["Chancellor"], "P2": ["Priest"], "P3": ["Baron"]})
    check(kept, deck=["Handmaid", "Guard", "Princess"])
    assert all_cards(kept) == total


# --------------------------------------------------------------------------- R11


def test_r11_chancellor_drawing_countess_and_king_is_not_forced() -> None:
    """R11; S-Z-CARDS ("does not apply when you draw cards for other effects"), seed 002: with
    the Countess and the King among the three cards, any one may be kept."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Prince"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Countess", "King", "Guard"],
        set_aside="Spy",
    )
    s = play(s, "Chancellor")
    check(s, hands={"P1": ["Prince", "Countess", "King"], "P2": ["Priest"], "P3": ["Baron"]})
    assert {a.keep for a in legal_actions(s) if isinstance(a, ChancellorReturn)} == {
        G.PRINCE,
        G.KING,
        G.COUNTESS,
    }
    s = step(s, ChancellorReturn(G.KING, (G.COUNTESS, G.PRINCE)))
    check(
        s,
        hands={"P1": ["King"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Guard", "Countess", "Prince"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


# --------------------------------------------------------------------------- R12


def _spy_showdown(discards: Mapping[str, Sequence[str]], out: Sequence[str] = ()) -> State:
    """Z2019, 3 seats: P1 plays the Handmaid on the last turn; P2's Princess wins."""
    hands = {"P1": ["Handmaid", "Baron"], "P2": ["Princess"], "P3": ["Guard"]}
    for o in out:
        hands.pop(o)
    s = pos(
        "z2019",
        players=3,
        turn="P1",
        hands=hands,
        discards=discards,
        out=out,
        deck=[],
        set_aside="King",
    )
    return play(s, "Handmaid")


def test_r12_spy_token_to_the_only_surviving_spy_player() -> None:
    """R12; S-Z-CARDS, seed 002, S-BGA-NEW `rewardSpy`: exactly one player still in the round
    played a Spy → 1 token, separate from the round win (P2 still scores)."""
    s = _spy_showdown({"P1": ["Spy"]})
    check(s, phase=Phase.ROUND_OVER, round_winners=["P2"], tokens={"P1": 1, "P2": 1})


def test_r12_both_spies_still_give_one_token() -> None:
    """R12; S-Z-CARDS ("two Spies, you still gain only one token")."""
    s = _spy_showdown({"P1": ["Spy", "Spy"]})
    check(s, round_winners=["P2"], tokens={"P1": 1, "P2": 1})


def test_r12_eliminated_players_spy_does_not_count() -> None:
    """R12; S-BGA-NEW (alive players only); anchors edge case: P3 played a Spy but is out, so
    P1 is the only surviving Spy player and scores."""
    s = _spy_showdown({"P1": ["Spy"], "P3": ["Spy", "Guard"]}, out=["P3"])
    check(s, out=["P3"], round_winners=["P2"], tokens={"P1": 1, "P2": 1})


def test_r12_no_spy_token_when_two_survivors_played_a_spy() -> None:
    """R12; S-Z-CARDS ("the only player"): two surviving Spy players → no Spy token."""
    s = _spy_showdown({"P1": ["Spy"], "P3": ["Spy"]})
    check(s, round_winners=["P2"], tokens={"P2": 1})


def test_r12_prince_forced_spy_discard_counts() -> None:
    """R12; S-Z-CARDS ("Discards forced by the Prince count"): a Spy discarded to a Prince
    makes its player a Spy player."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Spy"], "P3": ["King"]},
        deck=[],
        set_aside="Baron",
    )
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["Baron"], "P3": ["King"]},
        discards={"P1": ["Prince"], "P2": ["Spy"]},
        round_winners=["P3"],
        tokens={"P2": 1, "P3": 1},
    )


def test_r12_spy_token_adds_to_the_round_win_when_the_round_ends_by_knock_out() -> None:
    """R12; S-Z-CARDS: the Spy token is awarded at any round end and is separate from the
    round win — the round winner who is also the only Spy player gains 2 tokens."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["King"]},
        discards={"P1": ["Spy"]},
        deck=["Baron", "Handmaid"],
        set_aside="Countess",
    )
    s = play(s, "Guard", "P2", guess="King")
    check(s, out=["P2"], round_winners=["P1"], tokens={"P1": 2}, next_starters=["P1"])


# --------------------------------------------------------------------------- R13


def _tie(preset: str, p2: Sequence[str], p3: Sequence[str]) -> State:
    """3 seats: P1 plays the Handmaid on the last turn; P2 and P3 both hold a Prince."""
    s = pos(
        preset,
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Prince"], "P3": ["Prince"]},
        discards={"P2": p2, "P3": p3},
        deck=[],
        set_aside="Princess",
    )
    return play(s, "Handmaid")


@pytest.mark.parametrize("preset", ["classic", "premium", "bga-help"])
def test_r13_showdown_tie_broken_by_discard_sum(preset: str) -> None:
    """R13; S-AEG-A ("the player who discarded the highest total value"), S-PREM-B,
    S-BGA-WIKI: equal hands → the higher discard total wins alone and starts next."""
    s = _tie(preset, ["Guard", "Guard"], ["Priest", "Priest"])
    check(
        s,
        phase=Phase.ROUND_OVER,
        round_winners=["P3"],
        tokens={"P3": 1},
        next_starters=["P3"],
    )
    assert chance_outcomes(s) == ((Starter(P3), Fraction(1)),)


@pytest.mark.parametrize("preset", ["classic", "premium"])
def test_r13_tie_after_discard_sum_all_tied_players_win(preset: str) -> None:
    """R13, §7.1; S-PREM-B ("all tied players win"); anchors bug 31: both tied players gain
    a token. CLASSIC is silent; the engine follows AEG's Premium text (residual_tie=all_win,
    rules.md §7.1)."""
    s = _tie(preset, ["Guard", "Baron"], ["Priest", "Priest"])
    check(
        s,
        phase=Phase.ROUND_OVER,
        round_winners=["P2", "P3"],
        tokens={"P2": 1, "P3": 1},
        next_starters=["P2", "P3"],
    )


def test_r13_z2019_tie_all_win_without_discard_sum() -> None:
    """R13; S-Z-DEMO ("all tied players win the round and each gains one token"), S-Z-REF:
    no discard-sum tie-break, even with different discard totals."""
    s = _tie("z2019", ["Guard"], ["Priest", "Priest"])
    check(s, round_winners=["P2", "P3"], tokens={"P2": 1, "P3": 1}, next_starters=["P2", "P3"])


def test_r13_bga_help_residual_tie_nobody_scores() -> None:
    """R13; S-BGA-WIKI ("If the tie remains, nobody gets a token"), seed 000: no winner; the
    next starter is drawn among the tied players."""
    s = _tie("bga-help", ["Guard", "Baron"], ["Priest", "Priest"])
    check(s, phase=Phase.ROUND_OVER, round_winners=[], tokens={}, next_starters=["P2", "P3"])


def test_r13_tied_winners_next_starter_is_random_among_them() -> None:
    """R13, D22, §8 "Rules with no option"; S-Z-ES ("a random tied winner"): each tied
    winner starts the next round with probability 1/k; the round number advances."""
    s = _tie("z2019", ["Guard"], ["Priest"])
    assert chance_outcomes(s) == ((Starter(P2), Fraction(1, 2)), (Starter(P3), Fraction(1, 2)))
    assert legal(s) == {Starter(P2), Starter(P3)}
    assert_illegal(s, Starter(P1), "P1 cannot start the next round (only P2, P3)")
    nxt = apply(s, Starter(P3))
    check(nxt, phase=Phase.DEAL, turn="P3", tokens={"P2": 1, "P3": 1}, hands={}, discards={})
    assert (nxt.round, nxt.starter) == (2, P3)


def test_r13_next_round_starts_with_the_single_round_winner() -> None:
    """§1.2 "Starting player", D22; S-AEG-A ("The winner of the previous round goes first"):
    with one winner, one chance outcome of probability 1."""
    s = _tie("classic", ["Guard"], ["Priest"])
    assert chance_outcomes(s) == ((Starter(P3), Fraction(1)),)
    nxt = deal_by_chance(apply(s, Starter(P3)))
    check(nxt, phase=Phase.TURN_DRAW, turn="P3", tokens={"P3": 1}, protected=[], out=[])


# --------------------------------------------------------------------------- R14


@pytest.mark.parametrize(
    ("preset", "pile"), [("classic", 10), ("premium", 10), ("z2019", 15), ("z2019-classic", 10)]
)
def test_r14_two_player_round_removes_one_face_down_and_three_face_up(
    preset: str, pile: int
) -> None:
    """R14, §1.2/§1.4 "Setup"; S-AEG-B ("A 2-player deck holds 10 cards after setup"),
    S-PREM-B, S-Z-ES; anchors bugs 17, 19, 20, 27: 16 − 1 − 3 − 2 = 10 (Z2019: 21 − 6 = 15)."""
    m = new_match(make_ruleset(preset), 2)
    s = deal_by_chance(m)
    assert s.set_aside is not None
    assert len(s.face_up) == 3
    assert [len(x.hand) for x in s.seats] == [1, 1]
    assert s.pile.size == pile
    assert all_cards(s) == Counter(make_ruleset(preset).deck(2).cards())
    check(s, phase=Phase.TURN_DRAW, turn="P1")


@pytest.mark.parametrize(
    ("preset", "players", "pile"),
    [
        ("classic", 3, 12),
        ("classic", 4, 11),
        ("z2019", 3, 17),
        ("z2019", 4, 16),
        ("z2019", 5, 15),
        ("z2019", 6, 14),
        ("premium", 5, 26),
        ("premium", 6, 25),
        ("premium", 7, 24),
        ("premium", 8, 23),
    ],
)
def test_r14_three_or_more_players_remove_only_the_face_down_card(
    preset: str, players: int, pile: int
) -> None:
    """R14, §1.2–1.4 "Setup"/"Deck after the deal": no face-up removal beyond 2 players."""
    s = deal_by_chance(new_match(make_ruleset(preset), players))
    assert s.face_up == ()
    assert s.set_aside is not None
    assert s.pile.size == pile


def test_r14_a_two_player_deal_without_face_up_cards_is_rejected() -> None:
    """R14; S-AEG-B: an explicit 2p deal must remove 3 cards face up."""
    m = new_match(make_ruleset("classic"), 2)
    with pytest.raises(IllegalAction, match="must remove 3 cards face up"):
        deal(
            m,
            set_aside=G.PRINCESS,
            hands={P1: G.GUARD, P2: G.GUARD},
            deck=[G.GUARD] * 3
            + [G.PRIEST, G.PRIEST, G.BARON, G.BARON, G.HANDMAID]
            + [G.HANDMAID, G.PRINCE, G.PRINCE, G.KING, G.COUNTESS],
        )


# --------------------------------------------------------------------------- R15

THRESHOLDS = [
    ("classic", 2, 7),
    ("classic", 3, 5),
    ("classic", 4, 4),
    ("premium", 2, 7),
    ("premium", 3, 5),
    ("premium", 4, 4),
    ("premium", 5, 4),
    ("premium", 6, 4),
    ("premium", 7, 4),
    ("premium", 8, 4),
    ("z2019", 2, 6),
    ("z2019", 3, 5),
    ("z2019", 4, 4),
    ("z2019", 5, 3),
    ("z2019", 6, 3),
]


def _last_turn_win(preset: str, players: int, tokens: int) -> State:
    others = {seat_name(i): ["Guard"] for i in range(1, players)}
    s = pos(
        preset,
        turn="P1",
        hands={"P1": ["Handmaid", "Princess"], **others},
        deck=[],
        set_aside="Priest",
        tokens={"P1": tokens},
    )
    return play(s, "Handmaid")


@pytest.mark.parametrize(("preset", "players", "goal"), THRESHOLDS)
def test_r15_token_threshold_per_edition_and_player_count(
    preset: str, players: int, goal: int
) -> None:
    """R15, D1, D2; S-AEG-A (7/5/4), S-PREM-B/C, S-BGA-WIKI (5–8p: 4), S-Z-TOK (6/5/4/3/3):
    the round token that reaches the threshold ends the match; one fewer does not."""
    assert make_ruleset(preset).options.tokens_for(players) == goal
    won = _last_turn_win(preset, players, goal - 1)
    check(won, phase=Phase.GAME_OVER, game_winners=["P1"], tokens={"P1": goal})
    if goal >= 2:
        going = _last_turn_win(preset, players, goal - 2)
        check(going, phase=Phase.ROUND_OVER, game_winners=[], tokens={"P1": goal - 1})
    with pytest.raises(MalformedInput, match=f"the match ends at {goal}"):
        others = {seat_name(i): ["Guard"] for i in range(1, players)}
        pos(preset, turn="P1", hands={"P1": ["Guard", "Priest"], **others}, tokens={"P2": goal})


# --------------------------------------------------------------------------- R16


def _bishop(target_card: str, *, tokens: int = 0) -> State:
    return premium5(
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": [target_card], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["Priest", "Handmaid"],
        set_aside="Countess",
        tokens={"P1": tokens},
    )


def test_r16_bishop_hit_gives_a_token_then_the_target_may_redraw() -> None:
    """R16; S-PREM-A/D, S-BGA-LEG: a correct number earns the Bishop's player a token, and
    only then the target chooses to keep or to discard and draw."""
    s = play(_bishop("King"), "Bishop", "P2", guess=6)
    check(s, tokens={"P1": 1}, phase=Phase.BISHOP_REDRAW, discards={"P1": ["Bishop"]})
    assert current_player(s) == P2
    assert legal(s) == {BishopRedraw(True), BishopRedraw(False)}
    redrawn = step(s, BishopRedraw(True))
    check(
        redrawn,
        hands={"P1": ["Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        discards={"P1": ["Bishop"], "P2": ["King"]},
        deck=["Handmaid"],
        phase=Phase.TURN_DRAW,
        turn="P2",
        tokens={"P1": 1},
    )
    kept = step(s, BishopRedraw(False))
    check(
        kept,
        hands={"P1": ["Guard"], "P2": ["King"], "P3": ["Baron"]},
        discards={"P1": ["Bishop"]},
        deck=["Priest", "Handmaid"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r16_bishop_miss_gives_no_token_and_no_redraw() -> None:
    """R16, D9 (on_hit); S-PREM-A/D, S-BGA-LEG: a wrong number does nothing."""
    s = play(_bishop("King"), "Bishop", "P2", guess=7)
    check(
        s,
        hands={"P1": ["Guard"], "P2": ["King"], "P3": ["Baron"]},
        tokens={},
        deck=["Priest", "Handmaid"],
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


def test_r16_bishop_token_can_win_immediately() -> None:
    """R16, §1.3 "Immediate win"; S-PREM-A: the Bishop token reaching 4 (5p) ends the match
    at once, before any redraw choice."""
    s = play(_bishop("King", tokens=3), "Bishop", "P2", guess=6)
    check(s, phase=Phase.GAME_OVER, game_winners=["P1"], tokens={"P1": 4})
    assert legal_actions(s) == ()


def test_r16_bishop_redraw_discarding_the_princess_knocks_out() -> None:
    """R16, §1.1.6; S-PREM-A ("no effect, except that a Princess knocks them out")."""
    s = step(play(_bishop("Princess"), "Bishop", "P2", guess=8), BishopRedraw(True))
    check(
        s,
        out=["P2", "P4", "P5"],
        discards={"P1": ["Bishop"], "P2": ["Princess"]},
        deck=["Priest", "Handmaid"],
        tokens={"P1": 1},
        turn="P3",
    )


def test_r16_bishop_guess_cannot_be_one() -> None:
    """R16, D10; S-BGA-LEG reference text ("other than 1")."""
    assert_illegal(_bishop("King"), Play(G.BISHOP, target=P2, guess=1), "the Bishop cannot name 1")


def test_r16_bishop_is_nine_for_a_baron_but_loses_to_the_princess_at_showdown() -> None:
    """R16; S-PREM-A ("the Princess still beats the Bishop", 9 for all other effects)."""
    baron = premium5(
        turn="P1",
        hands={"P1": ["Baron", "Princess"], "P2": ["Bishop"], "P3": ["Guard"]},
        out=["P4", "P5"],
        deck=["Priest"],
        set_aside="Countess",
    )
    check(play(baron, "Baron", "P2"), out=["P1", "P4", "P5"])
    show = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Bishop"], "P3": ["Princess"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Countess",
    )
    check(play(show, "Handmaid"), round_winners=["P3"], tokens={"P3": 1})
    beats_countess = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Bishop"], "P3": ["Countess"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Princess",
    )
    check(play(beats_countess, "Handmaid"), round_winners=["P2"], tokens={"P2": 1})


# --------------------------------------------------------------------------- R17


@pytest.mark.parametrize(
    ("mine", "theirs", "loser"),
    [
        ("Guard", "Baron", "P2"),
        ("Princess", "Baron", "P1"),
        ("Princess", "Bishop", "P2"),
        ("Priest", "Priest", None),
    ],
)
def test_r17_dowager_queen_higher_value_is_out_tie_does_nothing(
    mine: str, theirs: str, loser: str | None
) -> None:
    """R17; S-PREM-A: compare hands, the *higher* value is out (the Bishop counts as 9); a
    tie does nothing."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Dowager Queen", mine], "P2": [theirs], "P3": ["Guard"]},
        out=["P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
    )
    s = play(s, "Dowager Queen", "P2")
    check(s, out=sorted([loser, "P4", "P5"]) if loser else ["P4", "P5"])
    if loser == "P1":
        check(s, discards={"P1": ["Dowager Queen", mine]})
    elif loser == "P2":
        check(s, discards={"P1": ["Dowager Queen"], "P2": [theirs]})
    else:
        check(s, hands={"P1": [mine], "P2": [theirs], "P3": ["Guard"]})


# --------------------------------------------------------------------------- R18


def _constable_knock_out(tokens: int) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Prince"], "P3": ["Baron"]},
        discards={"P2": ["Constable"]},
        out=["P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
        tokens={"P2": tokens},
    )
    return play(s, "Guard", "P2", guess=5)


def test_r18_constable_in_discard_pile_scores_when_knocked_out() -> None:
    """R18; S-PREM-A: knocked out with the Constable in the discard pile → a token."""
    s = _constable_knock_out(0)
    check(
        s,
        out=["P2", "P4", "P5"],
        discards={"P1": ["Guard"], "P2": ["Constable", "Prince"]},
        tokens={"P2": 1},
        phase=Phase.TURN_DRAW,
        turn="P3",
    )


def test_r18_constable_token_can_win_immediately() -> None:
    """R18, R24; S-PREM-A ("you win immediately"), S-PREM-C (win without winning a round)."""
    s = _constable_knock_out(3)
    check(s, phase=Phase.GAME_OVER, game_winners=["P2"], tokens={"P2": 4})


def test_r18_constable_does_not_score_on_a_showdown_loss() -> None:
    """R18; S-PREM-A, seed 003: losing the round-end comparison is not a knock-out."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Princess"], "P2": ["Guard"], "P3": ["Baron"]},
        discards={"P2": ["Constable"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Countess",
    )
    s = play(s, "Handmaid")
    check(s, phase=Phase.ROUND_OVER, round_winners=["P1"], tokens={"P1": 1})


def test_r18_constable_scores_when_its_player_plays_the_princess() -> None:
    """R18, §1.1.6; S-PREM-A: playing the Princess is a knock-out like any other; with the
    Constable in the discard pile it earns a token, and the other card is discarded."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Princess", "Guard"], "P2": ["Baron"], "P3": ["Priest"]},
        discards={"P1": ["Constable"]},
        out=["P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
    )
    s = play(s, "Princess")
    check(
        s,
        out=["P1", "P4", "P5"],
        discards={"P1": ["Constable", "Princess", "Guard"]},
        hands={"P2": ["Baron"], "P3": ["Priest"]},
        tokens={"P1": 1},
        phase=Phase.TURN_DRAW,
        turn="P2",
    )


# --------------------------------------------------------------------------- R19


def test_r19_two_counts_lift_a_seven_above_the_princess() -> None:
    """R19, D12; S-PREM-A ("Countess and Dowager Queen would beat the Princess"): +1 per
    Count in the discard pile, stacking."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Countess"], "P3": ["Princess"]},
        discards={"P2": ["Count", "Count"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="King",
    )
    check(play(s, "Handmaid"), round_winners=["P2"], tokens={"P2": 1})


def test_r19_count_bonus_applies_only_at_the_showdown() -> None:
    """R19; S-PREM-A ("only if hand values must be compared" at round end): a Baron compares
    printed values, so the Princess (8) beats a Countess with two Counts."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Baron", "Princess"], "P2": ["Countess"], "P3": ["Guard"]},
        discards={"P2": ["Count", "Count"]},
        out=["P4", "P5"],
        deck=["Handmaid"],
        set_aside="King",
    )
    check(play(s, "Baron", "P2"), out=["P2", "P4", "P5"])


@pytest.mark.parametrize(("p3_discards", "winner"), [(["Guard"], "P2"), (["King", "Priest"], "P3")])
def test_r19_tie_after_count_bonus_resolved_by_discard_sum(
    p3_discards: list[str], winner: str
) -> None:
    """R19, D11 (resolve_normally); S-PREM-A ("resolve ties normally"): Countess + 1 Count
    (8) ties the Princess (8); the discard totals (Count 5 against P3's) decide."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Countess"], "P3": ["Princess"]},
        discards={"P2": ["Count"], "P3": p3_discards},
        out=["P4", "P5"],
        deck=[],
        set_aside="Baron",
    )
    check(play(s, "Handmaid"), round_winners=[winner], tokens={winner: 1})


# --------------------------------------------------------------------------- R20


def _sycophant_round() -> State:
    return premium5(
        turn="P1",
        hands={"P1": ["Sycophant", "Guard"], "P2": ["Guard"], "P3": ["Priest"], "P4": ["King"]},
        out=["P5"],
        deck=["Baron", "Handmaid", "Countess"],
        set_aside="Bishop",
    )


def test_r20_sycophant_forces_the_next_cards_target_then_clears() -> None:
    """R20; S-PREM-A, S-BGA-LEG: the next card that chooses players must choose the marked
    player; the mark ends after that card."""
    s = _sycophant_round()
    assert Play(G.SYCOPHANT, target=P1) in legal(s)  # yourself allowed
    s = play(s, "Sycophant", "P3")
    assert s.sycophant == P3
    s = apply(s, legal_actions(s)[0])  # P2 draws the Baron
    assert plays_of(s, G.BARON) == {Play(G.BARON, target=P3)}
    assert {a.target for a in plays_of(s, G.GUARD)} == {P3}
    assert_illegal(
        s, Play(G.GUARD, target=P4, guess=6), "the Sycophant's mark: the Guard must choose P3"
    )
    s = play(s, "Guard", "P3", guess=2)
    check(s, out=["P3", "P5"], turn="P4")
    assert s.sycophant is None
    s = apply(s, legal_actions(s)[0])  # P4 draws the Handmaid; no mark any more
    assert s.sycophant is None


def test_r20_sycophant_mark_clears_after_a_card_that_chooses_nobody() -> None:
    """R20 ("lasts for the next card only"); S-BGA-LEG clears it after any play."""
    s = premium5(
        turn="P2",
        hands={"P1": ["Guard"], "P2": ["Handmaid", "Guard"], "P3": ["Priest"], "P4": ["King"]},
        out=["P5"],
        deck=["Baron", "Countess"],
        set_aside="Bishop",
        sycophant="P4",
    )
    assert {a.target for a in plays_of(s, G.GUARD)} == {P4}
    s = play(s, "Handmaid")
    assert s.sycophant is None
    s = apply(s, legal_actions(s)[0])  # P3 draws the Baron
    assert plays_of(s, G.BARON) == {Play(G.BARON, target=t) for t in (P1, P4)}


def test_r20_sycophant_marking_the_next_player_forces_their_prince_onto_themselves() -> None:
    """R20, R3; S-PREM-A: marked, the next player's Prince must choose that player (itself);
    their Guard, which cannot choose its own player, is played with no effect
    (sycophant_conflict = no_effect, the literal Premium text)."""
    s = premium5(
        turn="P2",
        hands={"P1": ["Priest"], "P2": ["Prince", "Guard"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["King", "Handmaid"],
        set_aside="Countess",
        sycophant="P2",
    )
    assert legal(s) == {Play(G.PRINCE, target=P2), Play(G.GUARD)}
    assert_illegal(s, Play(G.PRINCE, target=P3), "the Sycophant's mark: the Prince must choose P2")
    s = play(s, "Prince", "P2")
    check(
        s,
        hands={"P1": ["Priest"], "P2": ["King"], "P3": ["Baron"]},
        discards={"P2": ["Prince", "Guard"]},
        deck=["Handmaid"],
        turn="P3",
    )
    assert s.sycophant is None


def test_r20_sycophant_mark_binds_multi_target_cards_too() -> None:
    """R20; S-PREM-A ("it must at least choose that player"): a marked Baroness or Cardinal
    must include the marked player among its choices."""
    s = premium5(
        turn="P2",
        hands={"P1": ["Priest"], "P2": ["Baroness", "Cardinal"], "P3": ["Baron"], "P4": ["King"]},
        out=["P5"],
        deck=["Handmaid"],
        set_aside="Countess",
        sycophant="P4",
    )
    baroness = {(P4,), (P1, P4), (P3, P4)}
    assert plays_of(s, G.BARONESS) == {Play(G.BARONESS, targets=t) for t in baroness}
    pairs = [(P1, P4), (P2, P4), (P3, P4)]
    assert plays_of(s, G.CARDINAL) == {
        Play(G.CARDINAL, targets=p, look=lk) for p in pairs for lk in (None, *p)
    }


# --------------------------------------------------------------------------- R21


def test_r21_baroness_looks_at_one_or_two_other_players() -> None:
    """R21, D13 (one_or_two); S-PREM-A: every set of 1 or 2 other players still in the round;
    the looks are private to the Baroness's player."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Baroness", "Guard"], "P2": ["King"], "P3": ["Priest"], "P4": ["Baron"]},
        out=["P5"],
        deck=["Handmaid"],
        set_aside="Countess",
    )
    sets = {(P2,), (P3,), (P4,), (P2, P3), (P2, P4), (P3, P4)}
    assert plays_of(s, G.BARONESS) == {Play(G.BARONESS, targets=t) for t in sets}
    assert_illegal(s, Play(G.BARONESS, targets=(P2, P3, P4)), "must choose 1 or 2 players")
    assert_illegal(s, Play(G.BARONESS, targets=(P1, P2)), "must choose another player")
    after = play(s, "Baroness", targets=["P2", "P4"])
    saw = [(e.other, e.card, e.visible_to) for e in after.log if e.kind is K.SAW]
    assert saw == [(P2, G.KING, (P1,)), (P4, G.BARON, (P1,))]
    check(
        after,
        hands={"P1": ["Guard"], "P2": ["King"], "P3": ["Priest"], "P4": ["Baron"]},
        out=["P5"],
    )


# --------------------------------------------------------------------------- R22


def test_r22_cardinal_swaps_two_players_and_looks_at_one_hand() -> None:
    """R22; S-PREM-A: exactly 2 players (yourself allowed) trade hands; then one of those two
    hands may be looked at."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Cardinal", "Guard"], "P2": ["King"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
    )
    pairs = [(P1, P2), (P1, P3), (P2, P3)]
    assert plays_of(s, G.CARDINAL) == {
        Play(G.CARDINAL, targets=p, look=lk) for p in pairs for lk in (None, *p)
    }
    swapped = play(s, "Cardinal", targets=["P2", "P3"], look="P2")
    check(swapped, hands={"P1": ["Guard"], "P2": ["Baron"], "P3": ["King"]})
    saw = [(e.seat, e.other, e.card, e.visible_to) for e in swapped.log if e.kind is K.SAW]
    assert saw == [(P1, P2, G.BARON, (P1,))]
    mine = play(s, "Cardinal", targets=["P1", "P2"])
    check(mine, hands={"P1": ["King"], "P2": ["Guard"], "P3": ["Baron"]})
    assert_illegal(s, Play(G.CARDINAL, targets=(P2, P3), look=P1), "may look only at P2 or P3")


def test_r22_cardinal_with_fewer_than_two_choosable_players_has_no_effect() -> None:
    """R22; S-PREM-A: only the Cardinal's own player can be chosen → no effect."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Cardinal", "Guard"], "P2": ["King"]},
        protected=["P2"],
        out=["P3", "P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
    )
    assert plays_of(s, G.CARDINAL) == {Play(G.CARDINAL)}
    after = play(s, "Cardinal")
    check(after, hands={"P1": ["Guard"], "P2": ["King"]}, discards={"P1": ["Cardinal"]})
    assert K.NO_EFFECT in kinds(after)


# --------------------------------------------------------------------------- R23


def _jester_bet(**kw: object) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Jester", "Guard"], "P2": ["Baron"], "P3": ["Princess"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Countess",
        **kw,
    )
    return s


def test_r23_jester_token_when_the_chosen_player_wins() -> None:
    """R23; S-PREM-A: choose another player; if they win the round, gain a token."""
    s = _jester_bet()
    assert_illegal(s, Play(G.JESTER, target=P1), "the Jester must choose another player")
    won = play(s, "Jester", "P3")
    check(won, round_winners=["P3"], tokens={"P1": 1, "P3": 1})
    lost = play(s, "Jester", "P2")
    check(lost, round_winners=["P3"], tokens={"P3": 1})


def test_r23_jester_token_even_if_the_jester_player_is_out() -> None:
    """R23, D15; S-BGA-LEG, S-PREM-A Princess text (Jester survives a knock-out): P2, out,
    bet on P3, who wins → P2 gains a token."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P3": ["Princess"]},
        discards={"P2": ["Jester", "Baron"]},
        jester=("P2", "P3"),
        out=["P2", "P4", "P5"],
        deck=[],
        set_aside="Countess",
    )
    s = play(s, "Handmaid")
    check(s, round_winners=["P3"], tokens={"P2": 1, "P3": 1})


def test_r23_jester_token_can_win_immediately() -> None:
    """R23, R24; S-PREM-A: the Jester token that reaches the threshold wins the match."""
    s = play(_jester_bet(tokens={"P1": 3}), "Jester", "P3")
    check(s, phase=Phase.GAME_OVER, game_winners=["P1"], tokens={"P1": 4, "P3": 1})


# --------------------------------------------------------------------------- R24


def test_r24_z2019_all_players_reaching_the_threshold_win_together() -> None:
    """R24, D23; S-Z-ES ("Varios jugadores pueden ganar la partida simultáneamente"): the
    round winner and the Spy player both reach 5 (3p) → both win."""
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Handmaid", "Baron"], "P2": ["Princess"], "P3": ["Guard"]},
        discards={"P1": ["Spy"]},
        deck=[],
        set_aside="King",
        tokens={"P1": 4, "P2": 4},
    )
    s = play(s, "Handmaid")
    check(s, phase=Phase.GAME_OVER, game_winners=["P1", "P2"], tokens={"P1": 5, "P2": 5})


def test_r24_premium_first_token_to_reach_the_threshold_wins() -> None:
    """R24, §5 "Bonus token timing", §7.5 [INF award order]; S-PREM-A: round winner first,
    then the Jester; the round token reaches 4 first and ends the match."""
    s = play(_jester_bet(tokens={"P1": 3, "P3": 3}), "Jester", "P3")
    check(s, phase=Phase.GAME_OVER, game_winners=["P3"], tokens={"P1": 3, "P3": 4})


# --------------------------------------------------------------------------- R25


@pytest.mark.parametrize("preset", ["classic", "z2019", "premium"])
def test_r25_guard_must_choose_another_player(preset: str) -> None:
    """R25, D5; S-AEG-C reference card, S-Z-CARDS: the Guard never chooses its own player,
    and with every other player protected it has no effect rather than turning on itself."""
    s = pos(
        preset,
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Baron"], "P3": ["Handmaid"]},
        deck=["King"],
        set_aside="Countess",
    )
    guess: Card | int = 2 if preset == "premium" else G.PRIEST
    assert {a.target for a in plays_of(s, G.GUARD)} == {P2, P3}
    assert_illegal(s, Play(G.GUARD, target=P1, guess=guess), "the Guard must choose another player")
    shielded = pos(
        preset,
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Baron"], "P3": ["Handmaid"]},
        protected=["P2", "P3"],
        deck=["King"],
        set_aside="Countess",
    )
    assert plays_of(shielded, G.GUARD) == {Play(G.GUARD)}
