"""What each seat knows for certain of the others' hands (``loveformal.knowledge``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from loveformal import knowledge as knowledge_module
from loveformal.actions import BishopRedraw, ChancellorReturn, Draw, Play
from loveformal.cards import Card
from loveformal.dealing import deal
from loveformal.engine import apply, new_match
from loveformal.events import Event, EventKind
from loveformal.knowledge import (
    Exclusions,
    drawn_since,
    fits,
    knowledge_table,
    knows,
    knows_bottom,
    public_exclusions,
)
from loveformal.notation import parse_position, position_of
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.ruleset import Ruleset
from loveformal.sampling import random_step
from loveformal.state import Phase, State
from tests.support import draw, play, pos, rules, step

G = Card
P1, P2, P3, P4, P5 = range(5)


def three(
    *,
    hands: Mapping[str, Sequence[str]] | None = None,
    deck: Sequence[str] = ("Prince", "Countess", "Handmaid", "Guard", "Guard"),
    set_aside: str = "Princess",
) -> State:
    """Classic, 3 players, P1 to play: by default P1 Priest+King, P2 Baron, P3 Guard."""
    default = {"P1": ["Priest", "King"], "P2": ["Baron"], "P3": ["Guard"]}
    return pos("classic", turn="P1", hands=hands or default, deck=deck, set_aside=set_aside)


def test_nothing_is_known_at_a_fresh_position() -> None:
    s = three()
    for seat in (P1, P2, P3):
        assert set(knows(s, seat).values()) == {None}
        assert seat not in knows(s, seat)


def test_priest_only_its_player_sees() -> None:
    s = play(three(), "Priest", "P2")
    assert knows(s, P1) == {P2: G.BARON, P3: None}
    assert knows(s, P2) == {P1: None, P3: None}
    assert knows(s, P3) == {P1: None, P2: None}


def test_baron_tie_both_sides_learn_the_other_card() -> None:
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Baron", "Prince"], "P2": ["Prince"], "P3": ["Guard"]},
        deck=["Guard", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Baron", "P2")
    assert not s.seats[P2].out
    assert knows(s, P1)[P2] is G.PRINCE
    assert knows(s, P2)[P1] is G.PRINCE
    assert knows(s, P3) == {P1: None, P2: None}


def test_baron_loser_is_out_and_holds_nothing() -> None:
    s = play(
        three(hands={"P1": ["Baron", "King"], "P2": ["Guard"], "P3": ["Priest"]}), "Baron", "P2"
    )
    assert s.seats[P2].out
    assert knows(s, P1)[P2] is None
    assert knows(s, P2)[P1] is G.KING  # the loser saw the winner's card


def test_king_player_does_not_forget_the_card_he_gave() -> None:
    """anchors.md bug 2 (TAG): after a King swap both sides know what they gave and got."""
    s = play(three(), "King", "P2")  # P1 gives the Priest, gets the Baron
    assert s.seats[P1].hand == (G.BARON,) and s.seats[P2].hand == (G.PRIEST,)
    assert knows(s, P1)[P2] is G.PRIEST
    assert knows(s, P2)[P1] is G.BARON
    assert knows(s, P3) == {P1: None, P2: None}


def test_third_party_knowledge_moves_with_the_swapped_hand() -> None:
    s = pos(
        "classic",
        turn="P3",
        hands={"P1": ["Baron"], "P2": ["Handmaid"], "P3": ["Priest", "Guard"]},
        deck=["King", "Guard", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Priest", "P1")  # P3 sees P1's Baron
    s = play(s, "King", "P2")  # P1 draws the King and trades the Baron to P2
    assert knows(s, P3) == {P1: None, P2: G.BARON}
    assert knows(s, P1)[P2] is G.BARON
    assert knows(s, P2)[P1] is G.HANDMAID


def test_drawing_keeps_knowledge_until_an_equal_card_is_played() -> None:
    s = play(three(), "Priest", "P2")  # P2 holds the Baron
    s = play(s, "Prince", "P3")  # P2 drew a Prince and played it: still holds the Baron
    assert knows(s, P1)[P2] is G.BARON
    s2 = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Priest", "King"], "P2": ["Baron"], "P3": ["Guard"]},
        deck=["Baron", "Guard", "Guard"],
        set_aside="Princess",
    )
    s2 = play(s2, "Priest", "P2")
    s2 = play(s2, "Baron", "P3")  # P2 drew the second Baron and played a Baron: which one?
    assert knows(s2, P1)[P2] is None


def test_prince_redraw_drops_knowledge_of_the_hand() -> None:
    s = play(three(), "Priest", "P2")
    s = play(s, "Prince", "P2")  # P2 discards its Baron and draws the Countess
    assert s.seats[P2].hand == (G.COUNTESS,)
    assert knows(s, P1)[P2] is None
    assert knows(s, P3)[P2] is None


def test_showdown_reveals_every_hand() -> None:
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Handmaid"], "P2": ["Guard"], "P3": ["Baron"]},
        deck=[],
        set_aside="Princess",
    )
    s = play(s, "Prince", "P3")  # P3 takes the set-aside card; the deck is empty: showdown
    assert s.round_over
    assert knows(s, P2) == {P1: G.HANDMAID, P3: G.PRINCESS}


def test_two_set_aside_cards_give_the_same_knowledge() -> None:
    """anchors.md bug 1 (TAG): the face-down set-aside card must not leak into knowledge."""
    results = []
    for hidden in ("Princess", "Countess"):
        s = three(set_aside=hidden, deck=["Prince", "Handmaid", "Guard", "Guard"])
        s = play(s, "Priest", "P2")
        s = play(s, "Prince", "P2")
        results.append([knowledge_table(s, seat) for seat in (P1, P2, P3)])
    assert results[0] == results[1]


def test_chancellor_bottom_order_known_only_to_its_player() -> None:
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Chancellor", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Princess", "Handmaid", "Countess", "Spy"],
        set_aside="Prince",
    )
    s = play(s, "Chancellor")
    s = step(s, ChancellorReturn(G.PRINCESS, (G.GUARD, G.HANDMAID)))
    assert knows_bottom(s, P1) == (G.GUARD, G.HANDMAID)
    assert knows_bottom(s, P2) is None and knows_bottom(s, P3) is None
    s = play(s, "Priest", "P1")  # P2 draws the Countess
    assert knows(s, P2)[P1] is G.PRINCESS
    s = play(s, "Spy")  # P3 draws the Spy
    assert knows_bottom(s, P1) == (G.GUARD, G.HANDMAID)
    s = play(s, "Guard", "P2", guess="Baron")  # P1 draws the Guard: one returned card left
    assert knows_bottom(s, P1) == (G.HANDMAID,)


def test_chancellor_keeps_its_hand_hidden() -> None:
    s = pos(
        "z2019",
        turn="P1",
        hands={"P1": ["Priest", "Guard"], "P2": ["Chancellor"], "P3": ["Baron"]},
        deck=["Handmaid", "Countess", "Spy", "Guard"],
        set_aside="Prince",
    )
    s = play(s, "Priest", "P2")  # P1 sees the Chancellor
    s = play(s, "Chancellor")  # P2 draws the Handmaid, plays the Chancellor, draws two
    s = step(s, ChancellorReturn(G.SPY, (G.HANDMAID, G.COUNTESS)))
    assert knows(s, P1)[P2] is None


def test_cardinal_swap_and_look() -> None:
    s = pos(
        "premium",
        turn="P1",
        hands={
            "P1": ["Cardinal", "Guard"],
            "P2": ["Baron"],
            "P3": ["King"],
            "P4": ["Priest"],
            "P5": ["Countess"],
        },
        deck=["Guard", "Guard", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Cardinal", targets=["P3", "P2"], look="P2")
    assert s.seats[P2].hand == (G.KING,) and s.seats[P3].hand == (G.BARON,)
    assert knows(s, P1) == {P2: G.KING, P3: None, P4: None, P5: None}
    assert knows(s, P2)[P3] is G.BARON  # what P2 gave
    assert knows(s, P3)[P2] is G.KING
    assert set(knows(s, P4).values()) == {None}


def test_bishop_hit_is_revealed_to_everyone_until_redrawn() -> None:
    s = pos(
        "premium",
        turn="P1",
        hands={
            "P1": ["Bishop", "Guard"],
            "P2": ["Prince"],
            "P3": ["Handmaid"],
            "P4": ["Baron"],
            "P5": ["Priest"],
        },
        deck=["Countess", "Guard", "Guard"],
        set_aside="Guard",
    )
    hit = step(s, Play(G.BISHOP, target=P2, guess=5))
    for seat in (P1, P3, P4, P5):
        assert knows(hit, seat)[P2] is G.PRINCE
    kept = step(hit, BishopRedraw(False))
    assert knows(kept, P4)[P2] is G.PRINCE
    redrawn = step(hit, BishopRedraw(True))
    assert knows(redrawn, P4)[P2] is None


def test_a_new_round_knows_nothing() -> None:
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Baron"]},
        deck=["Guard"],
        set_aside="Princess",
    )
    s = play(s, "Priest", "P2")
    assert knows(s, P1)[P2] is G.BARON
    s = play(s, "Baron", "P1")  # P2 draws a Guard, plays the Baron: Guard 1 vs Guard 1, tie
    assert s.round_over  # the deck is empty: showdown
    deck = ["Guard", "Guard", "Priest", "Priest", "Baron", "Handmaid", "Handmaid", "Prince"]
    deck += ["Prince", "King"]
    s = deal(
        s,
        set_aside=G.PRINCESS,
        face_up=(G.GUARD, G.GUARD, G.BARON),
        hands={P1: G.GUARD, P2: G.COUNTESS},
        deck=tuple(Card.parse(c) for c in deck),
        starter=s.next_starters[0],
    )
    assert knows(s, P1) == {P2: None}
    assert knows(s, P2) == {P1: None}


# ----------------------------------------------------------------------------- public inferences


def test_a_guard_miss_rules_the_named_card_out_until_the_hand_may_have_changed() -> None:
    s = three(hands={"P1": ["Guard", "Handmaid"], "P2": ["Baron"], "P3": ["Guard"]})
    s = play(s, "Guard", "P2", guess="Priest")
    assert public_exclusions(s) == {P2: (frozenset({G.PRIEST}),)}
    # P2 draws the Prince: the card it held before is still not a Priest.
    s = draw(s)
    assert set(s.seats[P2].hand) == {G.PRINCE, G.BARON}
    assert public_exclusions(s) == {P2: (frozenset({G.PRIEST}),)}
    assert fits((G.PRIEST, G.BARON), public_exclusions(s)[P2])
    assert not fits((G.PRIEST, G.PRIEST), public_exclusions(s)[P2])
    # It plays the Baron: it may have kept either card, so the miss says nothing more; the
    # Baron knocks P3 (Guard, shown) out, so P2's card is higher than a Guard.
    s = play(s, "Baron", "P3")
    assert s.seats[P3].out and s.seats[P2].hand == (G.PRINCE,)
    assert public_exclusions(s) == {P2: (frozenset({G.GUARD}),)}


def test_a_guard_naming_a_number_rules_out_every_card_of_that_value() -> None:
    hands = {"P1": ["Guard", "Handmaid"], "P2": ["Baron"], "P3": ["Guard"]}
    s = pos("z2019", turn="P1", hands=hands, deck=["Guard", "Guard"], set_aside="Princess")
    s = play(s, "Guard", "P2", guess="Priest")
    assert public_exclusions(s) == {P2: (frozenset({G.PRIEST}),)}
    s = pos(
        rules("z2019", guard_guess="number"),
        turn="P1",
        hands=hands,
        deck=["Guard", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Guard", "P2", guess=2)
    assert public_exclusions(s) == {P2: (frozenset({G.PRIEST}),)}


def test_the_countess_rule_says_a_king_or_prince_player_kept_no_countess() -> None:
    """R4: holding the Countess with the King or a Prince, the Countess must be played; the
    card the King's player kept goes to the King's target."""
    s = play(three(), "King", "P2")
    assert public_exclusions(s) == {P2: (frozenset({G.COUNTESS}),)}
    assert s.seats[P2].hand == (G.PRIEST,)


def _first_misfit(
    exclusions: Callable[[State], dict[int, Exclusions]], games: int, seed: int
) -> str | None:
    """Random play under every preset and player count: the first state whose actual hands
    do not fit the public exclusions, or None."""
    rng = random.Random(seed)
    for name in preset_names():
        ruleset = make_ruleset(name)
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            for _ in range(games):
                s = new_match(ruleset, players)
                while not s.round_over:
                    s, _ = random_step(s, rng)
                    for seat, x in exclusions(s).items():
                        if not fits(s.seats[seat].hand, x):
                            return f"{name} {players}p: {seat} holds {s.seats[seat].hand}, {x}"
    return None


def test_every_hand_reached_by_play_fits_the_public_exclusions() -> None:
    assert _first_misfit(public_exclusions, games=10, seed=11) is None


def _from_the_last_play(state: State) -> State:
    """``state`` with its log cut as a scenario's would be: the events since a position
    written without its log (here the one before the last card played)."""
    plays = [i for i, e in enumerate(state.log) if e.kind is EventKind.PLAYED]
    return state._replace(log=state.log[plays[-1] :]) if plays else state


def test_every_hand_reached_by_play_fits_what_a_log_from_a_position_rules_out() -> None:
    """A log that starts at a position (a scenario's moves) adds what the discard piles say
    now to what its events say: both hold, together."""

    def from_a_position(state: State) -> dict[int, Exclusions]:
        return public_exclusions(_from_the_last_play(state))

    assert _first_misfit(from_a_position, games=10, seed=13) is None


def test_the_fit_check_catches_piles_read_for_the_wrong_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A planted bug: what the piles say of one seat is merged into the other's hand."""
    real = knowledge_module.position_exclusions

    def swapped(*args: Any) -> dict[int, Exclusions]:
        return {1 - s: x for s, x in real(*args).items()}

    monkeypatch.setattr(knowledge_module, "position_exclusions", swapped)
    rng = random.Random(13)
    for _ in range(120):
        s = new_match(make_ruleset("classic"), 2)
        while not s.round_over:
            s, _ = random_step(s, rng)
            for seat, x in public_exclusions(_from_the_last_play(s)).items():
                if not fits(s.seats[seat].hand, x):
                    return
    pytest.fail("the planted bug went unnoticed")


def test_a_scenarios_moves_keep_what_the_discard_piles_say() -> None:
    """P1 played a Prince on P2, which then played a Handmaid: P1 still holds the card it
    kept with the Prince, no Countess (R4), and the piles say so whether the position is
    written after P2's Handmaid or P2's Handmaid is a move after it. (Until the eighteenth
    session the log's first card played dropped the piles' inference: P1 could hold the
    Countess, and the same endgame solved to -0.1385 instead of -0.1423.)"""
    from loveformal.solver.analysis import solve_position

    before = (
        "classic 2p r1 start:P1 | P1 King d:Guard,Prince t0 | P2 Handmaid,Guard d:Priest,Baron "
        "t0 | deck - / Guard,Handmaid,Prince,Countess,Princess | aside Guard | "
        "up Guard,Priest,Baron | play P2"
    )
    state = parse_position(before)
    assert public_exclusions(state) == {P1: (frozenset({G.COUNTESS}),)}
    state = apply(apply(state, Play(G.HANDMAID)), Draw(G.GUARD))
    assert any(e.kind is EventKind.PLAYED for e in state.log)
    after = position_of(state)
    assert public_exclusions(after) == {P1: (frozenset({G.COUNTESS}),)}
    assert public_exclusions(state) == public_exclusions(after)
    moved, written = solve_position(state, pimc=False), solve_position(after, pimc=False)
    assert written.value_float == pytest.approx(-0.14233253, abs=1e-8)
    assert moved.value_float == pytest.approx(written.value_float, abs=1e-12)


def test_the_fit_check_catches_a_tracker_that_forgets_a_swap() -> None:
    def swap_forgotten(state: State) -> dict[int, Exclusions]:
        log = tuple(e for e in state.log if e.kind is not EventKind.SWAPPED)
        return public_exclusions(state._replace(log=log))

    assert _first_misfit(swap_forgotten, games=4, seed=11) is not None


# ----------------------------------------------------------------------------- returns drawn


def _first_false_knowledge(games: int, seed: int) -> str | None:
    """Random play in 2019 rounds (two Chancellors) and premium ones: the first state where a
    seat 'knows' a card another seat does not hold, or None."""
    rng = random.Random(seed)
    for name in ("z2019", "premium"):
        ruleset = make_ruleset(name)
        for players in (2, 3, 5):
            for _ in range(games):
                s = new_match(ruleset, players)
                while not s.round_over:
                    s, _ = random_step(s, rng)
                    for me in range(players):
                        for other, cards in knowledge_table(s, me).items():
                            if Counter(cards) - Counter(s.seats[other].hand):
                                return f"{name} {players}p: P{me + 1} 'knows' {cards}"
    return None


def _returns_drawn_by_another(games: int, seed: int) -> int:
    """How often, just after a draw, the other seat knows the drawer holds the card drawn."""
    rng = random.Random(seed)
    found = 0
    for _ in range(games):
        s = new_match(make_ruleset("z2019"), 2)
        while not s.round_over:
            s, _ = random_step(s, rng)
            last = s.log[-1] if s.log else None
            if last is not None and last.kind is EventKind.DREW and last.seat is not None:
                me = 1 - last.seat
                if last.card in knowledge_table(s, me)[last.seat]:
                    found += 1
    return found


def test_a_seat_knows_the_card_another_draws_off_its_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Chancellor's player put its cards at the bottom in its chosen order (rules.md):
    once no card is left above them, it knows what the next draw takes."""
    with_returns = _returns_drawn_by_another(games=150, seed=3)
    with monkeypatch.context() as m:
        m.setattr(knowledge_module._Returns, "step", lambda self, event: None)
        assert _returns_drawn_by_another(games=150, seed=3) < with_returns
    assert _first_false_knowledge(games=6, seed=5) is None


def test_the_knowledge_check_catches_a_pile_replay_one_card_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_init = knowledge_module._Returns.__init__

    def early(self: knowledge_module._Returns, state: State, seat: int) -> None:
        real_init(self, state, seat)
        self.above -= 1

    monkeypatch.setattr(knowledge_module._Returns, "__init__", early)
    assert _first_false_knowledge(games=6, seed=5) is not None


# ----------------------------------------------------------------------------- without a log


def _two(hand: Sequence[str], deck: Sequence[str]) -> State:
    """Classic, 2 players, P2 to play ``hand``; P1 holds a Guard."""
    return pos(
        "classic",
        turn="P2",
        hands={"P1": ["Guard"], "P2": list(hand)},
        deck=deck,
        set_aside="Guard",
        face_up=["Guard", "Guard", "Priest"],
    )


def test_a_prince_on_the_mover_says_its_player_kept_no_countess_without_a_log() -> None:
    """R4, read off the discard piles alone: P2's top discard is a Prince it played on P1."""
    s = play(_two(["Prince", "Baron"], ["Handmaid", "King", "Countess"]), "Prince", "P1")
    assert s.seats[P1].discards == (G.GUARD,) and s.seats[P2].discards == (G.PRINCE,)
    position = position_of(s)
    assert not position.log
    assert public_exclusions(position) == {P2: (frozenset({G.COUNTESS}),)}


def test_a_prince_under_a_prince_says_nothing_without_a_log() -> None:
    """P2 played a Prince on itself and discarded its other Prince, then drew the Countess:
    the discard piles cannot tell this from a Prince played on P1, so nothing is ruled out."""
    s = play(_two(["Prince", "Prince"], ["Countess", "King", "Handmaid"]), "Prince", "P2")
    assert s.seats[P2].discards == (G.PRINCE, G.PRINCE) and s.seats[P2].hand == (G.COUNTESS,)
    assert public_exclusions(position_of(s)) == {}


def test_every_hand_reached_by_play_fits_what_its_position_alone_rules_out() -> None:
    def without_log(state: State) -> dict[int, Exclusions]:
        return public_exclusions(position_of(state))

    assert _first_misfit(without_log, games=10, seed=12) is None


def test_a_guard_miss_also_says_the_target_holds_no_assassin() -> None:
    """R6: a Guard on the Assassin's holder knocks the Guard's player out, whatever it named."""
    hands = {"P1": ["Guard", "Handmaid"], "P2": ["Baron"], "P3": ["Guard"], "P4": ["Priest"]}
    hands["P5"] = ["Guard"]
    s = pos("premium", turn="P1", hands=hands, deck=["Guard", "Guard"], set_aside="Princess")
    s = play(s, "Guard", "P2", guess=2)  # premium's Guard names a number: the Priest, Cardinal
    assert public_exclusions(s) == {P2: (frozenset({G.PRIEST, G.CARDINAL, G.ASSASSIN}),)}


def test_a_king_on_the_mover_gives_it_the_card_kept_without_a_countess() -> None:
    s = play(_two(["King", "Baron"], ["Handmaid", "Countess", "Priest"]), "King", "P1")
    assert s.seats[P1].hand == (G.BARON,) and s.phase is Phase.TURN_DRAW
    assert public_exclusions(position_of(s)) == {P1: (frozenset({G.COUNTESS}),)}
    # A Handmaid the mover played protected it from the King: no swap.
    protected = play(
        pos(
            "classic",
            turn="P2",
            hands={"P1": ["Guard"], "P2": ["King", "Baron"]},
            deck=["Handmaid", "Countess", "Priest"],
            set_aside="Guard",
            face_up=["Guard", "Guard", "Priest"],
            discards={"P1": ["Handmaid"]},
            protected=["P1"],
        ),
        "King",
    )
    assert protected.seats[P1].hand == (G.GUARD,)
    # The King did nothing, so its player kept a card that is no Countess (R4).
    assert public_exclusions(position_of(protected)) == {P2: (frozenset({G.COUNTESS}),)}


def test_the_movers_own_prince_says_it_kept_no_countess_until_the_other_seat_acts_on_it() -> None:
    hands = {"P1": ["Prince", "Baron"], "P2": ["Guard"]}
    s = pos(
        "classic",
        turn="P1",
        hands=hands,
        deck=["Handmaid", "Priest", "Countess", "King"],
        set_aside="Guard",
        face_up=["Guard", "Guard", "Priest"],
    )
    s = play(s, "Prince", "P2")  # P2 discards the Guard, draws the Handmaid
    s = play(s, "Handmaid")  # P2 draws the Priest and plays the Handmaid
    assert s.seats[P1].hand == (G.BARON,) and s.phase is Phase.TURN_DRAW
    assert public_exclusions(position_of(s)) == {P1: (frozenset({G.COUNTESS}),)}


# ------------------------------------------------ what two-player discard piles say for sure


def _older_card(state: State, seat: int) -> Card:
    """The card ``seat`` held before its last draw (its one card between turns)."""
    hand = list(state.seats[seat].hand)
    if len(hand) == 1:
        return hand[0]
    drew = next(e for e in reversed(state.log) if e.seat == seat and e.kind is EventKind.DREW)
    assert drew.card is not None
    hand.remove(drew.card)
    (older,) = hand
    return older


def _first_false_pile_inference(
    exclusions: Callable[..., dict[int, Exclusions]],
    tie: Callable[..., tuple[int, int] | None],
    games: int,
    seed: int,
    checked: Counter[str] | None = None,
) -> str | None:
    """Random two-player rounds of every edition: the first state, at a turn's draw or
    decision, where what its discard piles are said to rule out of the seat to move's older
    card or of the other seat's card, or the Baron's tie they are said to show, is false
    (``checked`` counts the inferences checked, by kind)."""
    checked = Counter() if checked is None else checked
    rng = random.Random(seed)
    for name in ("classic", "premium", "z2019"):
        for _ in range(games):
            s = new_match(make_ruleset(name), 2)
            while not s.round_over:
                s, _ = random_step(s, rng)
                if s.phase not in (Phase.PLAY, Phase.TURN_DRAW) or any(x.out for x in s.seats):
                    continue
                view = (
                    2,
                    s.phase,
                    s.turn,
                    tuple(x.discards for x in s.seats),
                    tuple(x.out for x in s.seats),
                )
                mover, other = s.turn, 1 - s.turn
                held = {mover: _older_card(s, mover), other: s.seats[other].hand[0]}
                for seat, ruled in exclusions(*view).items():
                    checked["mover" if seat == mover else "other"] += 1
                    if held[seat] in ruled[0]:
                        return f"{name}: {seat} holds {held[seat]}, ruled out {ruled}: {s}"
                if tie(*view) != (mover, other):
                    continue
                checked["tie"] += 1
                if s.rules.value(held[mover]) != s.rules.value(held[other]):
                    return f"{name}: no tie, {held}: {s}"
    return None


def test_what_two_player_discard_piles_say_holds_in_every_round_played() -> None:
    """The Countess rule read off the piles (:func:`position_exclusions`: a Prince or King
    played, the card a King handed over, a King on a protected seat) and a Baron's tie
    (:func:`position_tie`) hold of the actual cards, in random rounds."""
    from loveformal.knowledge import position_exclusions, position_tie

    checked: Counter[str] = Counter()
    assert _first_false_pile_inference(position_exclusions, position_tie, 600, 21, checked) is None
    assert min(checked["mover"], checked["other"], checked["tie"]) >= 50, checked


def test_the_pile_inference_check_catches_a_tie_under_a_handmaid() -> None:
    """Planted bugs: a Baron's tie claimed though the seat to move may have been protected;
    a King's player said to keep no Countess though a Handmaid may not have protected the seat
    to move (a Prince under it: the seat may have discarded the Handmaid with its own
    Prince)."""
    from loveformal.knowledge import position_exclusions, position_tie

    def any_baron(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        top = discards[1 - turn][-1:]
        return (turn, 1 - turn) if top == (Card.BARON,) and not any(out) else None

    assert _first_false_pile_inference(position_exclusions, any_baron, 40, 21) is not None

    def handmaid_on_top(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        found = position_exclusions(players, phase, turn, discards, out)
        mine, theirs = discards[turn], discards[1 - turn]
        if mine[-1:] == (Card.HANDMAID,) and theirs[-1:] == (Card.KING,) and not any(out):
            found[1 - turn] = (frozenset({Card.COUNTESS}),)
        return found

    assert _first_false_pile_inference(handmaid_on_top, position_tie, 400, 21) is not None


def _first_false_sight(
    sights: Callable[..., tuple[tuple[int, int], ...]],
    games: int,
    seed: int,
    checked: Counter[str] | None = None,
) -> str | None:
    """Random two-player rounds of every preset: the first state where a seat said to know
    another's card (``sights``, as :func:`position_sights`) does not know it by the log, or
    knows a card that seat does not hold; None if there is none."""
    for name, s in _two_player_states(games, random.Random(seed)):
        piles = tuple(x.discards for x in s.seats)
        out = tuple(x.out for x in s.seats)
        for observer, seat in sights(2, s.phase, s.turn, piles, out):
            if checked is not None:
                checked["mover" if seat == s.turn else "other"] += 1
            known = knowledge_table(s, observer).get(seat, ())
            # (it may know more: a card drawn off its Chancellor's returns)
            if not known or Counter(known) - Counter(s.seats[seat].hand):
                return f"{name}: {observer} of {seat}: {known}, {s}"
    return None


def _two_player_states(games: int, rng: random.Random) -> Iterator[tuple[str, State]]:
    """Every state of ``games`` random two-player rounds of each preset that allows two
    players, with the preset's name."""
    for name in preset_names():
        ruleset = make_ruleset(name)
        if ruleset.min_players <= 2:
            yield from ((name, s) for s in _round_states(ruleset, games, rng))


def _round_states(ruleset: Ruleset, games: int, rng: random.Random) -> Iterator[State]:
    """Every state of ``games`` random two-player rounds of ``ruleset``, in play order."""
    for _ in range(games):
        s = new_match(ruleset, 2)
        while not s.round_over:
            s, _ = random_step(s, rng)
            yield s


def test_what_the_piles_show_a_seat_saw_it_knows_in_every_round_played() -> None:
    """A Priest's look and a King's swap read off the piles (:func:`position_sights`): the
    observer knows the card by the log, and the seen seat holds it."""
    from loveformal.knowledge import position_sights

    checked: Counter[str] = Counter()
    assert _first_false_sight(position_sights, 120, 31, checked) is None
    assert min(checked["mover"], checked["other"]) >= 50, checked


def test_the_sight_check_catches_a_look_through_a_handmaid() -> None:
    """A planted bug: a Priest on top of the other seat's pile taken as a look even when a
    Handmaid on the seat to move's pile may have protected it."""

    def any_priest(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        top = discards[1 - turn][-2:]
        playing = phase in (Phase.PLAY, Phase.TURN_DRAW)
        if playing and top[-1:] == (Card.PRIEST,) and top[:1] != (Card.PRINCE,) and not any(out):
            return ((1 - turn, turn),)
        return ()

    assert _first_false_sight(any_priest, 120, 31) is not None


DrawnReturn = Callable[..., tuple[int, int] | None]


def _first_false_drawn_return(
    reading: DrawnReturn, games: int, seed: int, checked: Counter[int] | None = None
) -> str | None:
    """Random two-player 2019 rounds, under either reading of the Chancellor with one card
    left: the first state where the other seat is said (``reading``, as
    :func:`position_drawn_return`) to know the card the seat to move has just drawn but its
    log does not show it knowing that card (drawn off its returns), or that card is not in
    the hand; None if there is none. ``checked`` counts the readings by the deck's size."""
    rng = random.Random(seed)
    for short in ("draw_available", "no_effect_below_two"):
        ruleset = make_ruleset("z2019", {"chancellor_short_deck": short})
        for s in _round_states(ruleset, games, rng):
            piles = tuple(x.discards for x in s.seats)
            out = tuple(x.out for x in s.seats)
            said = reading(2, s.phase, s.turn, piles, out, s.pile.size, short == "draw_available")
            if said is None:
                continue
            observer, seat = said
            if checked is not None:
                checked[s.pile.size] += 1
            new = drawn_since(s, observer)[seat][-1:]
            if new in ((), (None,)) or new[0] not in s.seats[seat].hand:
                return f"{short}: {observer} of {seat}: {new}, {s}"
            if new[0] not in knowledge_table(s, observer).get(seat, ()):
                return f"{short}: not in the knowledge table: {s}"
    return None


def test_a_chancellor_return_the_piles_show_drawn_is_known_in_every_round_played() -> None:
    """The other seat's Chancellor on top, one card left (or none, its one return drawn):
    the seat to move drew that seat's return, and the log shows that seat knowing it."""
    from loveformal.knowledge import position_drawn_return

    checked: Counter[int] = Counter()
    assert _first_false_drawn_return(position_drawn_return, 6000, 37, checked) is None
    assert checked[1] >= 60 and checked[0] >= 20, checked


def test_the_drawn_return_check_catches_a_chancellor_played_earlier() -> None:
    """Planted bugs: any Chancellor on top of the other seat's pile taken as its last play
    with two cards left (a deck of two, or one under ``no_effect_below_two``); and one under
    its own Prince (discarded, not played)."""
    from loveformal.knowledge import position_drawn_return

    def two_left(*args: Any) -> tuple[int, int] | None:
        players, phase, turn, discards, out, size, _ = args
        return position_drawn_return(players, phase, turn, discards, out, max(1, size - 1), True)

    def under_prince(*args: Any) -> tuple[int, int] | None:
        _, phase, turn, discards, out, size, _ = args
        theirs = discards[1 - turn]
        if phase is Phase.PLAY and theirs[-1:] == (Card.CHANCELLOR,) and size == 1:
            return (1 - turn, turn) if not any(out) else None
        return None

    assert _first_false_drawn_return(two_left, 6000, 37) is not None
    found = _first_false_drawn_return(under_prince, 6000, 41)
    assert found is not None, "no Chancellor under a Prince with one card left"


LastPlay = Callable[..., Card | None]


def _effect(s: State, play: int, until: int, seat: int) -> Event | None:
    """The one look, comparison or swap by ``seat`` on the other seat that the log shows
    after the play at ``play`` and before the event at ``until`` (``None`` if not one)."""
    kinds = (EventKind.SAW, EventKind.COMPARED, EventKind.SWAPPED)
    found = [
        e
        for e in s.log[play + 1 : until]
        if e.kind in kinds and (e.seat, e.other) == (seat, 1 - seat)
    ]
    return found[0] if len(found) == 1 else None


def _plays_read(
    reading: LastPlay, games: int, seed: int, checked: Counter[Card] | None
) -> Iterator[tuple[str, State, Card, list[int]]]:
    """The states of random two-player rounds of every preset where ``reading`` of the
    discard piles (as :func:`position_last_play`) gives a card: the preset's name, the state,
    the card and the indexes of the log's plays; ``checked`` counts them by the card."""
    for name, s in _two_player_states(games, random.Random(seed)):
        piles = tuple(x.discards for x in s.seats)
        card = reading(2, s.phase, s.turn, piles, tuple(x.out for x in s.seats))
        if card is None:
            continue
        if checked is not None:
            checked[card] += 1
        yield name, s, card, [i for i, e in enumerate(s.log) if e.kind is EventKind.PLAYED]


def _first_false_last_play(
    reading: LastPlay, games: int, seed: int, checked: Counter[Card] | None = None
) -> str | None:
    """Random two-player rounds of every preset: the first state where the seat to move's own
    last play read off the piles (``reading``, as :func:`position_last_play`) is not what the
    log shows: that play, a Priest, Baron or King that showed it the other seat's card (a
    look, a tie, a swap), then the other seat's one play, its top discard; the card the seat
    to move knew is the other seat's card or that play, a Baron's is of its older card's
    value, a King's handed over is no Countess and its older card is the one it received.
    None if there is none; ``checked`` counts the readings by the card."""
    for name, s, last, plays in _plays_read(reading, games, seed, checked):
        piles = tuple(x.discards for x in s.seats)
        mover, other = s.turn, 1 - s.turn
        if len(plays) < 2:
            return f"{name}: fewer than two plays: {s}"
        mine, theirs = s.log[plays[-2]], s.log[plays[-1]]
        if (mine.seat, mine.card, theirs.seat, theirs.card) != (
            mover,
            last,
            other,
            piles[other][-1],
        ):
            return f"{name}: not the last two plays: {s}"
        e = _effect(s, plays[-2], plays[-1], mover)
        if e is None:
            return f"{name}: no look, tie or swap: {s}"
        older = _older_card(s, mover)
        if last is Card.PRIEST:
            assert e.card is not None
            known, fits_play = e.card, True
        elif last is Card.BARON:
            mover_card, known = e.cards
            fits_play = mover_card is older and s.rules.value(older) == s.rules.value(known)
        else:
            known, received = e.cards
            fits_play = received is older and known is not Card.COUNTESS
        if not fits_play or known not in (s.seats[other].hand[0], piles[other][-1]):
            return f"{name}: {last.title} knew {known.title}, older {older.title}: {s}"
    return None


def test_what_the_piles_show_the_seat_to_move_learnt_with_its_last_play_holds() -> None:
    """The seat to move's Priest, Baron or King two turns back, the other seat's one quiet
    play since (:func:`position_last_play`), hold of the log in random rounds."""
    from loveformal.knowledge import position_last_play

    checked: Counter[Card] = Counter()
    assert _first_false_last_play(position_last_play, 2000, 43, checked) is None
    assert min(checked[c] for c in (Card.PRIEST, Card.BARON, Card.KING)) >= 100, checked


def test_the_last_play_check_catches_a_look_through_a_handmaid_and_a_play_that_tells_more() -> None:
    """Planted bugs: the other seat's Handmaid under its top discard not read (it may have
    been protected: the play did nothing); any play of the other seat since taken as quiet
    (a King swaps again, a Prince makes the seat to move discard)."""
    from loveformal.knowledge import position_last_play

    def through_handmaid(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        theirs = discards[1 - turn]
        if theirs[-2:-1] != (Card.HANDMAID,):
            return position_last_play(players, phase, turn, discards, out)
        unprotected = (*theirs[:-2], Card.GUARD, theirs[-1])
        piles = tuple(unprotected if i != turn else p for i, p in enumerate(discards))
        return position_last_play(players, phase, turn, piles, out)

    assert _first_false_last_play(through_handmaid, 150, 43) is not None

    def any_play_since(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        piles = list(discards)
        piles[1 - turn] = (*piles[1 - turn][:-1], Card.GUARD) if piles[1 - turn] else ()
        return position_last_play(players, phase, turn, piles, out)

    assert _first_false_last_play(any_play_since, 150, 43) is not None


def test_a_log_with_plays_reads_the_last_play_from_its_events() -> None:
    """With a log, what the seat to move saw is in its events, not read off the piles."""
    from loveformal.knowledge import public_last_play

    s = play(_two(["Priest", "Guard"], ["Handmaid", "King", "Countess"]), "Priest", "P1")
    s = play(s, "Guard", "P2", guess="Priest")  # P1 draws the Handmaid first
    s = draw(s)
    assert s.turn == P2 and s.seats[P2].discards[-1] is G.PRIEST
    assert public_last_play(s) is None
    assert public_last_play(position_of(s)) is G.PRIEST


def _first_false_earlier_play(
    reading: LastPlay, games: int, seed: int, checked: Counter[Card] | None = None
) -> str | None:
    """Random two-player rounds of every preset: the first state where the other seat's play
    before its last read off the piles (``reading``, as :func:`position_earlier_play`) is
    not what the log shows: that play, a Priest, Baron or King on the seat to move (a look,
    a tie, a swap), then one play by each seat, their top discards; the card of the seat to
    move it was about is that seat's older card or its play since, the other seat's card
    then (a Baron's, a King's) its card or its play since, of equal values after a Baron,
    and a King's handed over is no Countess. None if there is none."""
    for name, s, earlier, plays in _plays_read(reading, games, seed, checked):
        piles = tuple(x.discards for x in s.seats)
        mover, other = s.turn, 1 - s.turn
        if len(plays) < 3:
            return f"{name}: fewer than three plays: {s}"
        seen = [(s.log[i].seat, s.log[i].card) for i in plays[-3:]]
        if seen != [(other, earlier), (mover, piles[mover][-1]), (other, piles[other][-1])]:
            return f"{name}: not the last three plays: {s}"
        e = _effect(s, plays[-3], plays[-2], other)
        if e is None:
            return f"{name}: no look, tie or swap: {s}"
        if earlier is Card.PRIEST:
            assert e.card is not None
            mine, theirs = e.card, None
        elif earlier is Card.BARON:
            theirs, mine = e.cards
        else:
            mine, theirs = e.cards  # the King's player handed ``mine`` over
        fits_play = (
            earlier is not Card.BARON
            or theirs is None
            or s.rules.value(mine) == s.rules.value(theirs)
        ) and not (earlier is Card.KING and mine is Card.COUNTESS)
        mine_then = (_older_card(s, mover), piles[mover][-1])
        theirs_then = (s.seats[other].hand[0], piles[other][-1])
        if not fits_play or mine not in mine_then or theirs not in (None, *theirs_then):
            return f"{name}: {earlier.title} about {mine.title} and {theirs}: {s}"
    return None


def test_what_the_piles_show_the_other_seat_learnt_before_its_last_play_holds() -> None:
    """The other seat's Priest, Baron or King three turns back, a quiet play by each seat
    since (:func:`position_earlier_play`), hold of the log in random rounds."""
    from loveformal.knowledge import position_earlier_play

    checked: Counter[Card] = Counter()
    assert _first_false_earlier_play(position_earlier_play, 2000, 47, checked) is None
    assert min(checked[c] for c in (Card.PRIEST, Card.BARON, Card.KING)) >= 100, checked


def test_the_earlier_play_check_catches_a_seat_that_may_have_been_protected() -> None:
    """Planted bugs: a Handmaid under the seat to move's top discard not read (it may have
    protected that seat); the seat to move's play since taken as quiet whatever it was."""
    from loveformal.knowledge import position_earlier_play

    def under_handmaid(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        mine = discards[turn]
        if mine[-2:-1] == (Card.HANDMAID,):
            mine = (*mine[:-2], Card.GUARD, mine[-1])
        piles = tuple(mine if i == turn else p for i, p in enumerate(discards))
        return position_earlier_play(players, phase, turn, piles, out)

    assert _first_false_earlier_play(under_handmaid, 400, 47) is not None

    def any_play_since(players: int, phase: Phase, turn: int, discards: Any, out: Any) -> Any:
        mine = discards[turn]
        piles = tuple(
            (*mine[:-1], Card.GUARD) if i == turn and mine else p for i, p in enumerate(discards)
        )
        return position_earlier_play(players, phase, turn, piles, out)

    assert _first_false_earlier_play(any_play_since, 400, 47) is not None
