"""The CFR project's reduced full rounds (:mod:`loveformal.solver.rounds`), solved from the deal.

**The 4-card version** (face up: the CFR project's first 12 shuffled cards; in play: Baron,
Guard ×3, one per hand, one set aside, one in the pile). Player 1 draws the last card and plays
once; the round then ends at a showdown (Classic: a tie goes to the higher discard pile).
By hand: the Baron is in Player 1's two cards with probability 1/2 — it keeps the Baron
(3 > 1) or plays the Baron against a Guard (a tie; Player 1's discard pile then holds 3 > 0):
a win either way. Otherwise Player 1 holds Guard,Guard and names the Baron: if Player 2 holds
it, Player 2 is out; if it is set aside, the Guards tie and Player 1's discarded Guard (1 > 0)
wins. **The value is 1**, and Player 2 never acts.

**The 7-card version** (Countess, King, Baron, Guard ×4 in play) is cross-checked three ways:
the reduced game's exact certificate, the full tree's own LP value, and exact best responses
(expectimax over information sets) in the full tree against the reduced equilibrium extended
to it: each equals the value.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from loveformal.cards import Card
from loveformal.errors import MalformedInput
from loveformal.sampling import random_step
from loveformal.solver import best_response, certify, solve
from loveformal.solver.analysis import solve_position
from loveformal.solver.endgame import build_endgame, enumerate_deals, extend_strategy
from loveformal.solver.rounds import (
    CFR_DECK_ORDER,
    JavaRandom,
    cfr_face_up,
    java_shuffle,
    reduced_round,
)
from loveformal.state import Phase
from loveformal.testing.invariants import check_state

# Printed by a real JVM (OpenJDK, java.util.Random / Collections.shuffle) for these seeds.
JDK_SHUFFLED_DECK = (
    "Princess Baron Guard Priest Handmaid Handmaid Priest Prince Prince Countess King Guard "
    "Baron Guard Guard Guard"
)


def test_java_random_matches_the_jdk() -> None:
    assert JavaRandom(0).next_int() == -1155484576
    r = JavaRandom(42)
    assert [r.next_int(b) for b in (10, 7, 16, 3, 1000, 5, 2, 100)] == [0, 5, 10, 2, 970, 0, 0, 18]
    r = JavaRandom(123456789)
    assert (r.next_int(), r.next_int(13), r.next_int(1 << 20)) == (-1442945365, 2, 479148)
    assert java_shuffle(list(range(10)), 7) == [0, 1, 9, 3, 7, 4, 8, 5, 2, 6]
    assert " ".join(c.title for c in java_shuffle(CFR_DECK_ORDER, 0)) == JDK_SHUFFLED_DECK


def test_face_up_cards_of_the_versions() -> None:
    assert Counter(CFR_DECK_ORDER) == Counter(reduced_round(4).rules.deck(2).cards())
    four = reduced_round(4)
    assert len(four.face_up) == 12 and four.face_up == cfr_face_up(4)
    deal = enumerate_deals(four)[0]
    dealt = Counter([*deal.hands[0], *deal.hands[1], deal.set_aside, *deal.pile])
    assert dealt == Counter({Card.GUARD: 3, Card.BARON: 1})
    assert len(enumerate_deals(four)) == 4  # where the Baron is: a hand, aside or the pile
    in_play = Counter(CFR_DECK_ORDER) - Counter(cfr_face_up(7))
    assert in_play == Counter({Card.GUARD: 4, Card.BARON: 1, Card.KING: 1, Card.COUNTESS: 1})
    assert Card.PRINCE not in in_play  # both Princes face up, as the project notes


def test_reduced_round_is_a_valid_state() -> None:
    """Before Player 1's draw, every card in exactly one zone; random play stays valid."""
    rng = random.Random(3)
    for cards in (4, 7, 9):
        state = reduced_round(cards)
        assert state.phase is Phase.TURN_DRAW and state.turn == 0
        assert state.pile.size == cards - 3 and state.set_aside is not None
        assert check_state(state) == []
        for _ in range(20):
            s = state
            while not s.round_over:
                s, _ = random_step(s, rng)
                assert check_state(s) == [], s


@pytest.mark.parametrize(
    ("cards", "face_up", "match"),
    [
        (3, None, "4 to 13"),
        (4, [Card.GUARD] * 12, "more copies"),
        (5, cfr_face_up(4), "11 cards face up"),
    ],
)
def test_bad_reduced_rounds(cards: int, face_up: list[Card] | None, match: str) -> None:
    with pytest.raises(MalformedInput, match=match):
        reduced_round(cards, face_up=face_up)


def test_four_card_version_is_a_win_for_player_one() -> None:
    r = solve_position(reduced_round(4), reduce=True)
    assert r.value == 1 and r.exploitability == 0 and r.seat == 0
    assert r.actions == ()  # the next step is the draw
    full = solve_position(reduced_round(4))
    assert full.value == 1 and full.sizes.histories == r.sizes.full_histories
    assert full.sizes.infosets[1] == 0  # Player 2 never acts


def test_seven_card_version_cross_checked() -> None:
    state = reduced_round(7)
    red = build_endgame(state, reduce=True)
    full = build_endgame(state)
    sol = solve(red.game)
    cert = certify(red.game, sol.strategies)
    assert cert.value_bracket is not None and cert.exploitability == 0
    value = cert.value_bracket[0]
    assert value == Fraction(-4, 235)  # found by the solver; confirmed below
    assert solve(full.game).value == pytest.approx(float(value), abs=1e-9)
    extended = [extend_strategy(red, full.game, p, sol.strategies[p]) for p in (0, 1)]
    # Expectimax best responses in the full tree against each extended equilibrium strategy.
    assert best_response(full.game, 0, {1: extended[1]}).value == value
    assert best_response(full.game, 1, {0: extended[0]}).value == -value
    assert red.game.num_nodes < full.game.num_nodes == red.full_histories


def test_bench_solves_a_reduced_round() -> None:
    """bench/solver.py's worker (run in-process here) on the 4-card version."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "solver.py"
    spec = importlib.util.spec_from_file_location("bench_solver_rounds", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    row = mod._solve("", 100_000, 4, False)
    assert row["status"] == "ok" and row["value"] == 1.0 and row["value_exact"] == "1"
    assert row["histories"] < row["full_histories"] == 19
    assert {"infosets", "sequences", "seconds", "exploitability", "peak_mb"} <= set(row)
    assert mod._ks("0") == [] and mod._ks("2-3") == [2, 3]
