"""One test per value of each of the 20 canonical options (``rules.md`` §8).

Each test plays a position where that value's behaviour differs from the other value's, so it
fails if the option were ignored. Options are set with ``make_ruleset(preset, {option: value})``
(given to ``pos``, or through ``pos(..., **overrides)``); the paired tests of one option play
the same position under both values, which shows that the difference is real.
"""

from __future__ import annotations

from collections import Counter

import pytest

from loveformal.actions import BishopRedraw, ChancellorReturn, Play
from loveformal.cards import Card
from loveformal.engine import current_player, legal_actions, new_match
from loveformal.events import EventKind
from loveformal.rulebook import make_ruleset
from loveformal.state import Phase, State
from tests.rulings.test_rulings import (
    all_cards,
    assert_illegal,
    check,
    deal_by_chance,
    kinds,
    legal,
    plays_of,
    premium5,
)
from tests.support import play, pos, step

G = Card
P1, P2, P3, P4, P5 = range(5)


def _last_turn(preset: str, p2: list[str], p3: list[str], **overrides: object) -> State:
    """Classic-style 3 seats: P1 plays the Handmaid on the last turn, P2 and P3 tie on a
    Prince; their discard piles are ``p2`` and ``p3``."""
    s = pos(
        make_ruleset(preset, overrides),
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Prince"], "P3": ["Prince"]},
        discards={"P2": p2, "P3": p3},
        deck=[],
        set_aside="Princess",
    )
    return play(s, "Handmaid")


# --------------------------------------------------------------------------- tokens_to_win


def _two_player_win(tokens: int, **overrides: object) -> State:
    s = pos(
        make_ruleset("classic", overrides),
        turn="P1",
        hands={"P1": ["Handmaid", "Princess"], "P2": ["Guard"]},
        deck=[],
        set_aside="Priest",
        tokens={"P1": tokens},
    )
    return play(s, "Handmaid")


def test_tokens_to_win_preset_map_classic_two_players_needs_seven() -> None:
    """tokens_to_win = the classic map {2:7, 3:5, 4:4} (D1; S-AEG-A): a third token in a
    2-player match does not end it; the seventh does."""
    check(_two_player_win(2), phase=Phase.ROUND_OVER, tokens={"P1": 3}, game_winners=[])
    check(_two_player_win(6), phase=Phase.GAME_OVER, tokens={"P1": 7}, game_winners=["P1"])


def test_tokens_to_win_override_map_ends_the_match_at_three() -> None:
    """tokens_to_win = {2: 3} (an override merged into the preset's map): the same third token
    now wins the match."""
    r = make_ruleset("classic", {"tokens_to_win": {2: 3}})
    assert [r.options.tokens_for(n) for n in (2, 3, 4)] == [3, 5, 4]
    s = _two_player_win(2, tokens_to_win={2: 3})
    check(s, phase=Phase.GAME_OVER, tokens={"P1": 3}, game_winners=["P1"])


# --------------------------------------------------------------------------- two_player_face_up


@pytest.mark.parametrize(("preset", "pile"), [("classic", 10), ("z2019", 15)])
def test_two_player_face_up_3_removes_three_cards_face_up(preset: str, pile: int) -> None:
    """two_player_face_up = 3 (D4, R14; S-AEG-B, S-Z-ES): a 2-player deal removes 1 card face
    down and 3 face up; 16 − 4 − 2 = 10 (Z2019: 21 − 4 − 2 = 15) cards remain to draw."""
    r = make_ruleset(preset, {"two_player_face_up": 3})
    s = deal_by_chance(new_match(r, 2))
    assert len(s.face_up) == 3
    assert s.pile.size == pile
    assert all_cards(s) == Counter(r.deck(2).cards())


@pytest.mark.parametrize(("preset", "pile"), [("classic", 13), ("z2019", 18)])
def test_two_player_face_up_0_removes_only_the_face_down_card(preset: str, pile: int) -> None:
    """two_player_face_up = 0 (D4; seed 000/003, S-BGA-NEW): only the face-down card is
    removed; 16 − 1 − 2 = 13 (Z2019: 18) cards remain to draw."""
    r = make_ruleset(preset, {"two_player_face_up": 0})
    s = deal_by_chance(new_match(r, 2))
    assert s.face_up == ()
    assert s.set_aside is not None
    assert s.pile.size == pile
    assert all_cards(s) == Counter(r.deck(2).cards())


# --------------------------------------------------------------------------- tie_break


def test_tie_break_discard_sum_higher_total_wins_alone() -> None:
    """tie_break = discard_sum (D3, R13; S-AEG-A): tied hands (5 = 5) → the discard totals
    (2 against 4) decide."""
    s = _last_turn("classic", ["Guard", "Guard"], ["Priest", "Priest"], tie_break="discard_sum")
    check(s, round_winners=["P3"], tokens={"P3": 1}, next_starters=["P3"])


def test_tie_break_none_all_tied_players_win() -> None:
    """tie_break = none (D3, R13; S-Z-DEMO): tied hands win together whatever the discards."""
    s = _last_turn("classic", ["Guard", "Guard"], ["Priest", "Priest"], tie_break="none")
    check(s, round_winners=["P2", "P3"], tokens={"P2": 1, "P3": 1}, next_starters=["P2", "P3"])


# --------------------------------------------------------------------------- residual_tie


def test_residual_tie_all_win_every_tied_player_scores() -> None:
    """residual_tie = all_win (D3, R13; S-PREM-B): equal hands and equal discard totals →
    both win a token."""
    s = _last_turn("classic", ["Guard", "Baron"], ["Priest", "Priest"], residual_tie="all_win")
    check(s, round_winners=["P2", "P3"], tokens={"P2": 1, "P3": 1}, next_starters=["P2", "P3"])


def test_residual_tie_nobody_no_one_scores() -> None:
    """residual_tie = nobody (D3; S-BGA-WIKI, seed 000): nobody wins the round; the next
    starter is drawn among the tied players."""
    s = _last_turn("classic", ["Guard", "Baron"], ["Priest", "Priest"], residual_tie="nobody")
    check(s, phase=Phase.ROUND_OVER, round_winners=[], tokens={}, next_starters=["P2", "P3"])


# --------------------------------------------------------------------------- guard_guess


def _guard_32(**overrides: object) -> State:
    return premium5(
        turn="P1",
        hands={
            "P1": ["Guard", "Priest"],
            "P2": ["Dowager Queen"],
            "P3": ["Countess"],
            "P4": ["Jester"],
        },
        out=["P5"],
        deck=["Baron"],
        set_aside="Handmaid",
        **overrides,
    )


def test_guard_guess_number_hits_every_card_of_that_value_in_the_32_card_deck() -> None:
    """guard_guess = number (D6, R5; S-PREM-A, S-BGA-LEG): naming 7 hits the Countess and
    the Dowager Queen alike; 0 hits the Jester; 1 and card names are illegal."""
    s = _guard_32(guard_guess="number")
    check(play(s, "Guard", "P2", guess=7), out=["P2", "P5"])
    check(play(s, "Guard", "P3", guess=7), out=["P3", "P5"])
    check(play(s, "Guard", "P4", guess=0), out=["P4", "P5"])
    assert_illegal(s, Play(G.GUARD, target=P2, guess=1), "the Guard cannot name 1")
    assert_illegal(s, Play(G.GUARD, target=P2, guess=G.COUNTESS), "names a number here")
    assert {a.guess for a in plays_of(s, G.GUARD)} == {0, 2, 3, 4, 5, 6, 7, 8, 9}


def test_guard_guess_name_hits_only_the_named_card_in_the_32_card_deck() -> None:
    """guard_guess = name (D6; seed 003): naming the Countess does not hit the Dowager Queen
    (same value 7); numbers are illegal; the Guard may not be named."""
    s = _guard_32(guard_guess="name")
    missed = play(s, "Guard", "P2", guess="Countess")
    check(
        missed,
        out=["P5"],
        hands={"P1": ["Priest"], "P2": ["Dowager Queen"], "P3": ["Countess"], "P4": ["Jester"]},
    )
    check(play(s, "Guard", "P3", guess="Countess"), out=["P3", "P5"])
    check(play(s, "Guard", "P4", guess="Jester"), out=["P4", "P5"])
    assert_illegal(s, Play(G.GUARD, target=P2, guess=7), "names a card here")
    assert_illegal(s, Play(G.GUARD, target=P2, guess=G.GUARD), "the Guard cannot name the Guard")
    names = {a.guess for a in plays_of(s, G.GUARD)}
    assert G.DOWAGER_QUEEN in names and G.COUNTESS in names and G.GUARD not in names


# --------------------------------------------------------------------------- guard_self_target


def _guard_self(**overrides: object) -> State:
    return pos(
        make_ruleset("classic", overrides),
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Baron"], "P3": ["King"]},
        deck=["Handmaid"],
        set_aside="Countess",
    )


def test_guard_self_target_false_guard_chooses_only_others() -> None:
    """guard_self_target = false (D5, R25; S-AEG-C, S-Z-CARDS): the Guard's own player is
    never a target."""
    s = _guard_self(guard_self_target=False)
    assert {a.target for a in plays_of(s, G.GUARD)} == {P2, P3}
    assert_illegal(
        s, Play(G.GUARD, target=P1, guess=G.PRIEST), "the Guard must choose another player"
    )


def test_guard_self_target_true_guard_may_choose_itself() -> None:
    """guard_self_target = true (D5; seeds 000/003 "a player"): the Guard may choose its own
    player, and naming its own card knocks that player out."""
    s = _guard_self(guard_self_target=True)
    assert {a.target for a in plays_of(s, G.GUARD)} == {P1, P2, P3}
    s = play(s, "Guard", "P1", guess="Priest")
    check(s, out=["P1"], discards={"P1": ["Guard", "Priest"]}, turn="P2")


# --------------------------------------------------------------------------- handmaid


def _shielded(**overrides: object) -> State:
    return pos(
        make_ruleset("classic", overrides),
        turn="P1",
        hands={"P1": ["Guard", "Baron"], "P2": ["Princess"]},
        protected=["P2"],
        deck=["Priest", "Prince"],
        set_aside="Countess",
    )


def test_handmaid_untargetable_protected_player_cannot_be_chosen() -> None:
    """handmaid = untargetable (D26, R9; S-AEG-C, S-Z-CARDS): the protected P2 is not a
    target; the Guard and Baron can only be played with no effect."""
    s = _shielded(handmaid="untargetable")
    assert legal(s) == {Play(G.GUARD), Play(G.BARON)}
    assert_illegal(s, Play(G.GUARD, target=P2, guess=G.PRINCESS), "played with no effect")


def test_handmaid_targetable_no_effect_protected_player_chosen_to_no_effect() -> None:
    """handmaid = targetable_no_effect (D26; S-GAAS #33): P2 may be chosen, but a correct Guard
    guess, a losing Baron comparison or a Prince do nothing to it."""
    s = _shielded(handmaid="targetable_no_effect")
    assert {a.target for a in plays_of(s, G.GUARD)} == {P2}
    assert plays_of(s, G.BARON) == {Play(G.BARON, target=P2)}
    guard = play(s, "Guard", "P2", guess="Princess")
    check(guard, out=[], hands={"P1": ["Baron"], "P2": ["Princess"]}, turn="P2")
    assert EventKind.NO_EFFECT in kinds(guard)
    baron = play(s, "Baron", "P2")  # 1 against 8: P1 would lose if P2 were affected
    check(baron, out=[], hands={"P1": ["Guard"], "P2": ["Princess"]})
    prince = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Princess"]},
        protected=["P2"],
        deck=["Priest", "Baron"],
        set_aside="Countess",
        handmaid="targetable_no_effect",
    )
    assert plays_of(prince, G.PRINCE) == {Play(G.PRINCE, target=P1), Play(G.PRINCE, target=P2)}
    check(play(prince, "Prince", "P2"), out=[], hands={"P1": ["Guard"], "P2": ["Princess"]})


# --------------------------------------------------------------------------- prince_empty_deck


def _prince_empty(**overrides: object) -> State:
    s = pos(
        make_ruleset("classic", {"two_player_face_up": 3, **overrides}),
        turn="P1",
        hands={"P1": ["Prince", "Guard"], "P2": ["Handmaid"]},
        deck=[],
        set_aside="Countess",
        face_up=["King", "Priest", "Baron"],
    )
    return play(s, "Prince", "P2")


def test_prince_empty_deck_set_aside_target_takes_the_face_down_card() -> None:
    """prince_empty_deck = set_aside (D16, R2; S-AEG-C, S-Z-CARDS): the face-down card."""
    s = _prince_empty(prince_empty_deck="set_aside")
    check(s, hands={"P1": ["Guard"], "P2": ["Countess"]}, set_aside=None)
    check(s, face_up=["King", "Priest", "Baron"], round_winners=["P2"])


def test_prince_empty_deck_top_removed_target_takes_the_first_face_up_card() -> None:
    """prince_empty_deck = top_removed (D16; seed 003 "the top one of the excluded cards"):
    the engine's [INF] reading is the first face-up card removed (scoring.draw_replacement);
    the face-down card stays set aside."""
    s = _prince_empty(prince_empty_deck="top_removed")
    check(s, hands={"P1": ["Guard"], "P2": ["King"]}, set_aside="Countess")
    check(s, face_up=["Priest", "Baron"], round_winners=["P2"], tokens={"P2": 1})


# --------------------------------------------------------------------------- chancellor_short_deck


def _chancellor_one_card(**overrides: object) -> State:
    s = pos(
        make_ruleset("z2019", overrides),
        turn="P1",
        hands={"P1": ["Chancellor", "Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Princess"],
        set_aside="Handmaid",
    )
    return play(s, "Chancellor")


def test_chancellor_short_deck_draw_available_draws_the_last_card_and_returns_one() -> None:
    """chancellor_short_deck = draw_available (D27, R10; S-Z-CARDS, S-Z-REF)."""
    s = _chancellor_one_card(chancellor_short_deck="draw_available")
    check(
        s,
        phase=Phase.CHANCELLOR,
        hands={"P1": ["Guard", "Princess"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=[],
    )
    s = step(s, ChancellorReturn(G.PRINCESS, (G.GUARD,)))
    check(
        s, hands={"P1": ["Princess"], "P2": ["Priest"], "P3": ["Baron"]}, deck=["Guard"], turn="P2"
    )


def test_chancellor_short_deck_no_effect_below_two_does_nothing_with_one_card() -> None:
    """chancellor_short_deck = no_effect_below_two (D27; a public Java implementation): with
    one card in the deck the Chancellor has no effect and the card stays on the deck."""
    s = _chancellor_one_card(chancellor_short_deck="no_effect_below_two")
    check(
        s,
        phase=Phase.TURN_DRAW,
        hands={"P1": ["Guard"], "P2": ["Priest"], "P3": ["Baron"]},
        deck=["Princess"],
    )
    check(s, turn="P2", discards={"P1": ["Chancellor"]})
    assert EventKind.NO_EFFECT in kinds(s)


# --------------------------------------------------------------------------- assassin_redraw


def _assassin(**overrides: object) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Assassin"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["King", "Countess"],
        set_aside="Handmaid",
        **overrides,
    )
    return play(s, "Guard", "P2", guess=0)


def test_assassin_redraw_true_holder_discards_the_assassin_and_draws() -> None:
    """assassin_redraw = true (D7, R6; S-PREM-A, S-BGA-LEG)."""
    s = _assassin(assassin_redraw=True)
    check(s, out=["P1", "P4", "P5"], hands={"P2": ["King"], "P3": ["Baron"]})
    check(s, discards={"P1": ["Guard", "Priest"], "P2": ["Assassin"]}, deck=["Countess"])


def test_assassin_redraw_false_holder_keeps_the_assassin() -> None:
    """assassin_redraw = false (D7; seed 000 card row: no discard, no redraw)."""
    s = _assassin(assassin_redraw=False)
    check(s, out=["P1", "P4", "P5"], hands={"P2": ["Assassin"], "P3": ["Baron"]})
    check(s, discards={"P1": ["Guard", "Priest"]}, deck=["King", "Countess"], turn="P2")


# --------------------------------------------------------------------------- bishop_showdown


def _bishop_showdown(
    bishop_discards: list[str], rival: str, rival_discards: list[str], **overrides: object
) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Bishop"], "P3": [rival]},
        discards={"P2": bishop_discards, "P3": rival_discards},
        out=["P4", "P5"],
        deck=[],
        set_aside="Baron",
        **overrides,
    )
    return play(s, "Handmaid")


def test_bishop_showdown_princess_beats_bishop_even_with_counts() -> None:
    """bishop_showdown = princess_beats_bishop (D8, D29, R16; S-PREM-A, S-BGA-LEG): the Bishop
    is left out when the Princess is held, Counts notwithstanding (9 + 2 against 8); against
    a boosted Countess (7 + 1 = 8) the Bishop counts as 9 and wins."""
    opt = {"bishop_showdown": "princess_beats_bishop"}
    s = _bishop_showdown(["Count", "Count"], "Princess", [], **opt)
    check(s, round_winners=["P3"], tokens={"P3": 1})
    s = _bishop_showdown([], "Countess", ["Count"], **opt)
    check(s, round_winners=["P2"], tokens={"P2": 1})


def test_bishop_showdown_seven_point_five_bishop_is_worth_seven_and_a_half() -> None:
    """bishop_showdown = seven_point_five (D8; seed 003): the Bishop is 7.5 at the showdown —
    with two Counts (9.5) it beats the Princess; a Countess with one Count (8) beats it."""
    opt = {"bishop_showdown": "seven_point_five"}
    s = _bishop_showdown(["Count", "Count"], "Princess", [], **opt)
    check(s, round_winners=["P2"], tokens={"P2": 1})
    s = _bishop_showdown([], "Countess", ["Count"], **opt)
    check(s, round_winners=["P3"], tokens={"P3": 1})


# --------------------------------------------------------------------------- bishop_redraw


def _bishop_miss(**overrides: object) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["King"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["Priest", "Handmaid"],
        set_aside="Countess",
        **overrides,
    )
    return play(s, "Bishop", "P2", guess=7)  # a miss: P2 holds a 6


def test_bishop_redraw_on_hit_a_miss_offers_no_redraw() -> None:
    """bishop_redraw = on_hit (D9, R16; S-PREM-A/D, S-BGA-LEG)."""
    s = _bishop_miss(bishop_redraw="on_hit")
    check(
        s,
        phase=Phase.TURN_DRAW,
        turn="P2",
        tokens={},
        hands={"P1": ["Guard"], "P2": ["King"], "P3": ["Baron"]},
    )


def test_bishop_redraw_always_the_target_may_redraw_after_a_miss() -> None:
    """bishop_redraw = always (D9; seed 003 "whether or not guessed right"): after a miss the
    target still chooses, and no token is gained."""
    s = _bishop_miss(bishop_redraw="always")
    check(s, phase=Phase.BISHOP_REDRAW, tokens={})
    assert current_player(s) == P2
    assert legal(s) == {BishopRedraw(True), BishopRedraw(False)}
    s = step(s, BishopRedraw(True))
    check(s, hands={"P1": ["Guard"], "P2": ["Priest"], "P3": ["Baron"]}, deck=["Handmaid"])
    check(s, discards={"P1": ["Bishop"], "P2": ["King"]}, turn="P2", phase=Phase.TURN_DRAW)


# --------------------------------------------------------------------------- count_bonus


def _countess_two_counts_vs_princess(**overrides: object) -> State:
    """Countess + two Counts (discards 10) against the Princess (discards King, Constable:
    12)."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Countess"], "P3": ["Princess"]},
        discards={"P2": ["Count", "Count"], "P3": ["King", "Constable"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Baron",
        **overrides,
    )
    return play(s, "Handmaid")


def test_count_bonus_per_count_two_counts_add_two() -> None:
    """count_bonus = per_count (D11, R19; S-PREM-A): 7 + 2 = 9 beats the Princess."""
    s = _countess_two_counts_vs_princess(count_bonus="per_count")
    check(s, round_winners=["P2"], tokens={"P2": 1})


def test_count_bonus_flat_two_counts_add_only_one() -> None:
    """count_bonus = flat (D11; seed 000 "+1"): 7 + 1 = 8 ties the Princess, and the discard
    totals (10 against 12) give the round to the Princess."""
    s = _countess_two_counts_vs_princess(count_bonus="flat")
    check(s, round_winners=["P3"], tokens={"P3": 1})


# --------------------------------------------------------------------------- count_tie


def _count_made_tie(**overrides: object) -> State:
    """Countess + one Count (8, discards 11) against the Princess (8, discards 1)."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Countess"], "P3": ["Princess"]},
        discards={"P2": ["Count", "King"], "P3": ["Guard"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Baron",
        **overrides,
    )
    return play(s, "Handmaid")


def test_count_tie_resolve_normally_discard_totals_decide() -> None:
    """count_tie = resolve_normally (D11, R19; S-PREM-A "resolve ties normally"): 8 = 8, then
    discard totals 11 against 1 → the Countess holder wins."""
    s = _count_made_tie(count_tie="resolve_normally")
    check(s, round_winners=["P2"], tokens={"P2": 1})


def test_count_tie_void_bonus_drops_count_bonuses_from_a_top_tie() -> None:
    """count_tie = void_bonus (D11; seed 003 "treated as void"). The reading implemented in
    ``scoring.showdown`` [INF]: when the best adjusted value is shared by several seats and at
    least one of them has a Count bonus, every Count bonus is dropped and all contenders are
    compared again on their unadjusted values (then tie_break and residual_tie as usual).
    Here 8 = 8 becomes 7 against 8 → the Princess wins, discard totals notwithstanding."""
    s = _count_made_tie(count_tie="void_bonus")
    check(s, round_winners=["P3"], tokens={"P3": 1})


def test_count_tie_void_bonus_leaves_a_tie_without_count_bonuses_alone() -> None:
    """count_tie = void_bonus, the condition of the implemented reading [INF]: only a top tie
    that involves a Count bonus voids the bonuses. Countess 7 against Dowager Queen 7 (no
    bonus) is an ordinary tie for the discard totals (1 against 2), even though a third
    player (Baron 3 + 1) has a Count."""
    s = premium5(
        turn="P1",
        hands={
            "P1": ["Handmaid", "Guard"],
            "P2": ["Countess"],
            "P3": ["Dowager Queen"],
            "P4": ["Baron"],
        },
        discards={"P2": ["Guard"], "P3": ["Priest"], "P4": ["Count"]},
        out=["P5"],
        deck=[],
        set_aside="Princess",
        count_tie="void_bonus",
    )
    s = play(s, "Handmaid")
    check(s, round_winners=["P3"], tokens={"P3": 1})


# --------------------------------------------------------------------------- princess_always_wins


def _princess_vs_boosted(**overrides: object) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Handmaid", "Guard"], "P2": ["Countess"], "P3": ["Princess"]},
        discards={"P2": ["Count", "Count"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Baron",
        **overrides,
    )
    return play(s, "Handmaid")


def test_princess_always_wins_false_two_counts_beat_the_princess() -> None:
    """princess_always_wins = false (D12; S-PREM-A): Countess 7 + 2 = 9 beats the Princess."""
    check(_princess_vs_boosted(princess_always_wins=False), round_winners=["P2"])


def test_princess_always_wins_true_the_princess_holder_wins() -> None:
    """princess_always_wins = true (D12; seed 000 "the Princess holder or the highest")."""
    s = _princess_vs_boosted(princess_always_wins=True)
    check(s, round_winners=["P3"], tokens={"P3": 1})


# --------------------------------------------------------------------------- baroness_targets


def _baroness(**overrides: object) -> State:
    return premium5(
        turn="P1",
        hands={"P1": ["Baroness", "Guard"], "P2": ["King"], "P3": ["Priest"], "P4": ["Baron"]},
        out=["P5"],
        deck=["Handmaid"],
        set_aside="Countess",
        **overrides,
    )


def test_baroness_targets_one_or_two_one_or_two_players() -> None:
    """baroness_targets = one_or_two (D13, R21; S-PREM-A)."""
    s = _baroness(baroness_targets="one_or_two")
    sets = {(P2,), (P3,), (P4,), (P2, P3), (P2, P4), (P3, P4)}
    assert plays_of(s, G.BARONESS) == {Play(G.BARONESS, targets=t) for t in sets}


def test_baroness_targets_two_exactly_two_when_possible() -> None:
    """baroness_targets = two (D13; seed 000 "look at two players"): exactly two whenever two
    can be chosen; a single choosable player is still allowed alone."""
    s = _baroness(baroness_targets="two")
    pairs = {(P2, P3), (P2, P4), (P3, P4)}
    assert plays_of(s, G.BARONESS) == {Play(G.BARONESS, targets=t) for t in pairs}
    assert_illegal(s, Play(G.BARONESS, targets=(P2,)), "must choose 2 players, not 1")
    alone = premium5(
        turn="P1",
        hands={"P1": ["Baroness", "Guard"], "P2": ["King"]},
        out=["P3", "P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
        baroness_targets="two",
    )
    assert plays_of(alone, G.BARONESS) == {Play(G.BARONESS, targets=(P2,))}


# --------------------------------------------------------------------------- sycophant_conflict


def _marked_guard_player(**overrides: object) -> State:
    """P1 marked P2 with the Sycophant; P2 now holds a Guard (which cannot choose itself)."""
    return premium5(
        turn="P2",
        hands={"P1": ["Priest"], "P2": ["Guard", "Handmaid"], "P3": ["Baron"]},
        discards={"P1": ["Sycophant"]},
        out=["P4", "P5"],
        deck=["King"],
        set_aside="Countess",
        sycophant="P2",
        **overrides,
    )


def test_sycophant_conflict_no_effect_the_guard_is_played_without_effect() -> None:
    """sycophant_conflict = no_effect (D14, R20; S-PREM-A literal text, §7.3)."""
    s = _marked_guard_player(sycophant_conflict="no_effect")
    assert plays_of(s, G.GUARD) == {Play(G.GUARD)}
    assert_illegal(s, Play(G.GUARD, target=P3, guess=3), "played with no effect")


def test_sycophant_conflict_waived_the_guard_chooses_freely() -> None:
    """sycophant_conflict = waived (D14; S-BGA-LEG): the mark on the Guard's own player is
    dropped, so the Guard chooses among the others as usual."""
    s = _marked_guard_player(sycophant_conflict="waived")
    assert {a.target for a in plays_of(s, G.GUARD)} == {P1, P3}
    check(play(s, "Guard", "P3", guess=3), out=["P3", "P4", "P5"])


# --------------------------------------------------------------------------- jester_self


def _jester(**overrides: object) -> State:
    return premium5(
        turn="P1",
        hands={"P1": ["Jester", "Princess"], "P2": ["Baron"], "P3": ["Guard"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Countess",
        **overrides,
    )


def test_jester_self_false_the_jester_must_choose_another_player() -> None:
    """jester_self = false (D15, R23; S-PREM-A, seed 003)."""
    s = _jester(jester_self=False)
    assert plays_of(s, G.JESTER) == {Play(G.JESTER, target=P2), Play(G.JESTER, target=P3)}
    assert_illegal(s, Play(G.JESTER, target=P1), "the Jester must choose another player")


def test_jester_self_true_betting_on_yourself_and_winning_gives_two_tokens() -> None:
    """jester_self = true (D15; seed 000 "guess who wins"): the Jester's player may choose
    itself, and then wins both the round token and the Jester token."""
    s = _jester(jester_self=True)
    assert {a.target for a in plays_of(s, G.JESTER)} == {P1, P2, P3}
    check(play(s, "Jester", "P1"), round_winners=["P1"], tokens={"P1": 2})


# --------------------------------------------------------------------------- constable_counts_held


def _constable_held(**overrides: object) -> State:
    s = premium5(
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Constable"], "P3": ["Baron"]},
        out=["P4", "P5"],
        deck=["Handmaid"],
        set_aside="Countess",
        **overrides,
    )
    return play(s, "Guard", "P2", guess=6)


def test_constable_counts_held_false_a_held_constable_does_not_score() -> None:
    """constable_counts_held = false (D28, R18; S-PREM-A "in your discard pile", S-BGA-LEG,
    §5 "Knock-out order")."""
    s = _constable_held(constable_counts_held=False)
    check(s, out=["P2", "P4", "P5"], discards={"P1": ["Guard"], "P2": ["Constable"]}, tokens={})


def test_constable_counts_held_true_a_held_constable_scores() -> None:
    """constable_counts_held = true (D28): the Constable discarded by the knock-out counts."""
    s = _constable_held(constable_counts_held=True)
    check(s, out=["P2", "P4", "P5"], tokens={"P2": 1}, phase=Phase.TURN_DRAW, turn="P3")


# --------------------------------------------------------------------------- simultaneous_win


def _double_threshold(**overrides: object) -> State:
    """Premium 5p (4 tokens): P3 (3 tokens) wins the round; P1 (3 tokens) bet on P3."""
    s = premium5(
        turn="P1",
        hands={"P1": ["Jester", "Guard"], "P2": ["Baron"], "P3": ["Princess"]},
        out=["P4", "P5"],
        deck=[],
        set_aside="Countess",
        tokens={"P1": 3, "P3": 3},
        **overrides,
    )
    return play(s, "Jester", "P3")


def test_simultaneous_win_all_win_both_players_at_the_threshold_win() -> None:
    """simultaneous_win = all_win (D23, R24; S-Z-ES): the round token and the Jester token
    both reach 4 → both players win the match."""
    s = _double_threshold(simultaneous_win="all_win")
    check(s, phase=Phase.GAME_OVER, game_winners=["P1", "P3"], tokens={"P1": 4, "P3": 4})


def test_simultaneous_win_first_awarded_only_the_first_award_wins() -> None:
    """simultaneous_win = first_awarded (D23, R24, §5 award order, §7.5; S-PREM-A "win
    immediately"): the round token is awarded first and ends the match."""
    s = _double_threshold(simultaneous_win="first_awarded")
    check(s, phase=Phase.GAME_OVER, game_winners=["P3"], tokens={"P1": 3, "P3": 4})
    assert legal_actions(s) == ()
