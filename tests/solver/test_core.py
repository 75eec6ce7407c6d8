"""Tests of the game-agnostic solver core on small games with known answers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loveformal.solver import pimc
from loveformal.solver.certify import certify
from loveformal.solver.efg import CHANCE, DECISION, TERMINAL, Game, GameBuilder
from loveformal.solver.expectimax import best_response, evaluate, exact_policy
from loveformal.solver.graph import to_networkx, write_graphml
from loveformal.solver.pimc import (
    determinized_value,
    float_minimax_values,
    minimax_values,
    perfect_information_values,
)
from loveformal.solver.seqform import solve
from tests.solver.games import (
    KUHN_VALUE,
    PI_VALUE,
    SHARED_VALUE,
    TOY_BR_VALUE,
    TOY_P1,
    TOY_P2,
    ExactPolicy,
    always_bet,
    forgetful,
    kuhn_equilibrium,
    kuhn_poker,
    matching_pennies,
    perfect_information,
    shared_chance_game,
    three_player_toy,
)

F = Fraction
HALF = {"H": F(1, 2), "T": F(1, 2)}
KUHN = kuhn_poker()

# --- building -------------------------------------------------------------------------------


def test_kuhn_sizes_and_arrays() -> None:
    game = kuhn_poker()
    sizes = game.sizes()
    # 6 deals x (4 decision nodes + 5 terminals) + the root.
    assert (sizes.nodes, sizes.terminals, sizes.edges) == (55, 30, 54)
    assert sizes.infosets == (6, 6)
    assert sizes.sequences == (13, 13)  # empty + 6 infosets x 2 actions
    assert sizes.deals == 6
    assert game.kind[0] == CHANCE and game.parent[0] == -1
    assert all(game.parent[n] < n for n in range(1, game.num_nodes))
    assert not game.kind.flags.writeable
    for info in game.infosets:
        assert len(info.nodes) == 2  # the opponent's card is hidden: two histories each
        assert all(game.kind[n] == DECISION and game.infoset[n] == info.index for n in info.nodes)
        assert {int(game.own_sequence[n, info.player]) for n in info.nodes} == {
            info.parent_sequence
        }
    p0_after = game.infoset_index(0, "Kpb")
    assert game.infosets[p0_after].parent_sequence == game.infosets[
        game.infoset_index(0, "K")
    ].first_sequence + game.infosets[game.infoset_index(0, "K")].actions.index("p")
    assert game.describe_sequence(0, 0) == "∅"
    assert sum(game.chance_reach_exact()[n] for n in range(55) if game.kind[n] == TERMINAL) == 5
    with pytest.raises(KeyError, match="no information set 'Kb'"):
        game.infoset_index(0, "Kb")


def test_perfect_recall_violation_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"'again' of player 0 violates perfect recall"):
        forgetful()


def test_builder_rejects_bad_input() -> None:
    b = GameBuilder(2)
    t = b.terminal([1, -1])
    u = b.terminal([F(-1, 2), F(1, 2)])
    with pytest.raises(ValueError, match="sum to 1/2, not 1"):
        b.chance([("a", F(1, 4), t), ("b", F(1, 4), u)])
    with pytest.raises(TypeError, match=r"must be an int or fractions\.Fraction"):
        b.chance([("a", 0.5, t), ("b", F(1, 2), u)])  # type: ignore[list-item]  # a float
    with pytest.raises(ValueError, match="probability 0"):
        b.chance([("a", 0, t), ("b", 1, u)])
    with pytest.raises(ValueError, match="duplicate action in infoset 'I' labels: 'x'"):
        b.decision(0, "I", [("x", t), ("x", u)])
    with pytest.raises(ValueError, match="needs 2 utilities"):
        b.terminal([1])
    with pytest.raises(ValueError, match="player 2 out of range"):
        b.decision(2, "I", [("x", t)])
    with pytest.raises(ValueError, match="child 99 is not a node"):
        b.decision(0, "I", [("x", 99)])
    b.decision(0, "I", [("x", t), ("y", u)])
    with pytest.raises(ValueError, match=r"has actions \['x', 'y'\] at one node and \['x'\]"):
        b.decision(0, "I", [("x", t)])
    b.terminal([0, 0], key="k")
    assert b.terminal([0, 0], key="k") == b.find("k")  # same content: the same node
    with pytest.raises(ValueError, match="node key 'k' already names a different node"):
        b.terminal([1, -1], key="k")


def test_infoset_children_follow_canonical_action_order() -> None:
    b = GameBuilder(2)
    win, lose = b.terminal([1, -1]), b.terminal([-1, 1])
    first = b.decision(1, "I", [("x", win), ("y", lose)])
    second = b.decision(1, "I", [("y", lose), ("x", win)])  # same set, other order
    game = b.build(b.chance([("a", F(1, 2), first), ("b", F(1, 2), second)]))
    info = game.infosets[game.infoset_index(1, "I")]
    assert info.actions == ("x", "y")
    for n in info.nodes:
        assert [game.edge_label[e] for e in game.edges(n)] == ["x", "y"]
        assert [game.utility_exact[c] for c in game.children(n)] == [(F(1), F(-1)), (F(-1), F(1))]


def test_shared_subtrees_form_a_dag() -> None:
    shared, tree = shared_chance_game(share=True), shared_chance_game(share=False)
    assert (shared.num_nodes, tree.num_nodes) == (8, 15)
    pennies = shared.infosets[shared.infoset_index(0, "coin")].nodes
    assert len(pennies) == 1 and shared.num_parents[pennies[0]] == 2
    assert shared.chance_reach_exact()[pennies[0]] == 1
    for game in (shared, tree):
        assert abs(solve(game).value - float(SHARED_VALUE)) < 1e-9
        cert = certify(game, [{"coin": HALF}, {"guess": HALF}])
        assert cert.value_bracket == (SHARED_VALUE, SHARED_VALUE)
        # Determinized, player 1 sees player 0's coin and always mismatches: -1.
        assert determinized_value(game).value == -1


def test_sharing_across_different_own_actions_is_rejected() -> None:
    b = GameBuilder(2)
    end = b.decision(1, "J", [("x", b.terminal([1, -1])), ("y", b.terminal([0, 0]))])
    with pytest.raises(ValueError, match=r"shared node .* own sequences of player 0"):
        b.build(b.decision(0, "I", [("L", end), ("R", end)]))


# --- the sequence-form LP and exact certification ---------------------------------------------


def test_kuhn_lp_value_and_certificate() -> None:
    game = kuhn_poker()
    sol = solve(game)
    assert abs(sol.value - float(KUHN_VALUE)) <= 1e-9
    cert = certify(game, sol.strategies)
    assert cert.exploitability <= F(1, 10**9)
    assert cert.value_bracket is not None
    low, high = cert.value_bracket
    assert low <= KUHN_VALUE <= high and high - low <= F(2, 10**9)
    for player, strategy in enumerate(sol.strategies):
        assert set(strategy) == {i.key for i in game.infosets_of(player)}
        assert all(abs(sum(p.values()) - 1) < 1e-12 for p in strategy.values())
        assert all(x >= 0 for p in strategy.values() for x in p.values())


def test_kuhn_second_lp_agrees_with_duals() -> None:
    game = kuhn_poker()
    dual, explicit = solve(game), solve(game, second_lp=True)
    assert explicit.value_player1_lp is not None
    assert abs(explicit.value_player1_lp - explicit.value) < 1e-9
    assert certify(game, explicit.strategies).exploitability <= F(1, 10**9)
    assert certify(game, dual.strategies).exploitability <= F(1, 10**9)


@pytest.mark.parametrize("alpha", [F(0), F(1, 6), F(1, 3)])
def test_kuhn_equilibrium_family_is_certified_exactly(alpha: Fraction) -> None:
    cert = certify(kuhn_poker(), kuhn_equilibrium(alpha))
    assert cert.value_bracket == (KUHN_VALUE, KUHN_VALUE)
    assert cert.expected_values == (KUHN_VALUE, -KUHN_VALUE)
    assert cert.nash_conv == 0 and cert.is_equilibrium


def test_kuhn_always_bet_exploitability() -> None:
    """Hand computation. Against a player 0 who always bets, player 1 calls with K (+2), calls
    with Q (J or K behind: 0 > −1) and folds J (−1 > −2): BR_1 = (2 + 0 − 1)/3 = 1/3. Against a
    player 1 who always bets and calls, player 0 gets +2 with K, 0 with Q (showdown vs J or K),
    and −1 with J by check-folding: BR_0 = 1/3. Both always bet: a ±2 showdown, EV 0."""
    game = kuhn_poker()
    _, eq1 = kuhn_equilibrium(F(1, 6))
    br = best_response(game, 1, {0: always_bet(0)})
    assert br.value == F(1, 3)
    assert {k: br.strategy[k] for k in ("Kb", "Qb", "Jb")} == {"Kb": "b", "Qb": "b", "Jb": "p"}
    cert = certify(game, [always_bet(0), eq1])
    assert cert.value_bracket == (F(-1, 3), KUHN_VALUE)
    assert cert.gains[1] == F(1, 3) - cert.expected_values[1]
    both = certify(game, [always_bet(0), always_bet(1)])
    assert both.expected_values == (F(0), F(0))
    assert both.best_response_values == (F(1, 3), F(1, 3))
    assert both.nash_conv == F(2, 3) and both.exploitability == F(1, 3)
    assert best_response(game, 0, [None, eq1]).value == KUHN_VALUE  # no gain vs equilibrium


def _pure_strategies(
    game_infosets: list[tuple[Hashable, tuple[Hashable, ...]]],
) -> list[ExactPolicy]:
    keys = [k for k, _ in game_infosets]
    choices = itertools.product(*(acts for _, acts in game_infosets))
    return [{k: {a: F(1)} for k, a in zip(keys, pick, strict=True)} for pick in choices]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=12), min_size=6, max_size=6))
def test_best_response_equals_brute_force_over_pure_strategies(bets: list[Fraction]) -> None:
    """The infoset best response of player 1 equals the best of its 64 pure strategies."""
    game = KUHN
    keys = [i.key for i in game.infosets_of(0)]
    p0: ExactPolicy = {k: {"p": 1 - q, "b": q} for k, q in zip(keys, bets, strict=True)}
    pures = _pure_strategies([(i.key, i.actions) for i in game.infosets_of(1)])
    assert len(pures) == 64
    brute = max(evaluate(game, [p0, pure])[1] for pure in pures)
    assert best_response(game, 1, {0: p0}).value == brute


def test_planted_bug_is_caught() -> None:
    """Perturb the LP strategy: calling with the Jack after check-bet loses 2 instead of 1."""
    game = kuhn_poker()
    sol = solve(game)
    bad0 = {k: dict(v) for k, v in sol.strategies[0].items()}
    bad0["Jpb"] = {"p": 0.9, "b": 0.1}
    cert = certify(game, [bad0, sol.strategies[1]])
    assert cert.exploitability > F(1, 1000)
    assert cert.best_responses[0]["Jpb"] == "p"  # the certifier names the fix


def test_matching_pennies() -> None:
    game = matching_pennies()
    sol = solve(game)
    assert abs(sol.value) < 1e-9
    for strategy in sol.strategies:
        probs = next(iter(strategy.values()))
        assert abs(probs["H"] - 0.5) < 1e-9 and abs(probs["T"] - 0.5) < 1e-9
    cert = certify(game, [{"coin": HALF}, {"guess": HALF}])
    assert cert.value_bracket == (F(0), F(0)) and cert.nash_conv == 0
    skewed = certify(game, [{"coin": {"H": 0.6, "T": 0.4}}, {"guess": HALF}])
    # Player 1 guesses T against 60% heads: wins 0.6 - 0.4 = 1/5.
    assert skewed.best_response_values[1] == F(1, 5)
    assert skewed.value_bracket == (F(-1, 5), F(0))
    assert skewed.exploitability == F(1, 10)


def test_perfect_information_game() -> None:
    game = perfect_information()
    sol = solve(game)
    assert abs(sol.value - float(PI_VALUE)) < 1e-9
    assert sol.strategies[0]["root"]["R"] > 1 - 1e-9
    cert = certify(game, sol.strategies)
    assert cert.value_bracket == (PI_VALUE, PI_VALUE)
    assert determinized_value(game).value == PI_VALUE  # perfect information: no fusion gap


@pytest.mark.parametrize(
    "make",
    [
        kuhn_poker,
        perfect_information,
        lambda: shared_chance_game(share=True),  # a DAG: the node-by-node float pass
        lambda: shared_chance_game(share=False),
    ],
)
def test_minimax_values_agree_with_the_exact_reference(make: Callable[[], Game]) -> None:
    game = make()
    exact = perfect_information_values(game)
    floats = float_minimax_values(game)
    assert all(abs(floats[n] - float(exact[n])) < 1e-12 for n in range(game.num_nodes))
    assert minimax_values(game, range(game.num_nodes)) == dict(enumerate(exact))
    root_only = minimax_values(game)
    assert root_only[0] == exact[0]
    assert all(exact[n] == v for n, v in root_only.items())


def _near_tie() -> Game:
    """P1 chooses A, a chance node worth exactly 1/5 whose float sum comes out at
    0.19999999999999998, or B, a terminal worth 1/5 − 10⁻¹⁸ (the float 0.2)."""
    b = GameBuilder(2)
    thirds = [(i, F(1, 3), b.terminal([F(i, 10), -F(i, 10)])) for i in (1, 2, 3)]
    a = b.chance(thirds)
    worse = F(1, 5) - F(1, 10**18)
    return b.build(b.decision(0, "root", [("A", a), ("B", b.terminal([worse, -worse]))]))


def test_minimax_values_settle_near_ties_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _near_tie()
    floats = float_minimax_values(game)
    a, b_ = (int(c) for c in game.edge_child[game.child_start[0] : game.child_start[1]])
    assert floats[a] < floats[b_]  # the floats order them wrongly
    assert minimax_values(game)[0] == F(1, 5) == perfect_information_values(game)[0]
    # Planted bug: trusting the floats' order (no tolerance) picks B.
    monkeypatch.setattr(pimc, "TOLERANCE", 0.0)
    assert minimax_values(game)[0] == F(1, 5) - F(1, 10**18)


def test_kuhn_determinized_value() -> None:
    """Seeing both cards, the higher card wins the ante (+1): the fused value is 0, not −1/18."""
    det = determinized_value(kuhn_poker())
    assert det.value == 0
    assert {label: v for label, _, v in det.deals} == {
        "JQ": -1,
        "JK": -1,
        "QK": -1,
        "QJ": 1,
        "KJ": 1,
        "KQ": 1,
    }


def test_unreached_infoset_gets_uniform_strategy() -> None:
    b = GameBuilder(2)
    later = b.decision(0, "later", [("c", b.terminal([0, 0])), ("d", b.terminal([-1, 1]))])
    game = b.build(b.decision(0, "first", [("stay", b.terminal([1, -1])), ("go", later)]))
    sol = solve(game)
    assert abs(sol.value - 1) < 1e-9
    assert sol.strategies[0]["later"] == {"c": 0.5, "d": 0.5}
    assert sol.strategies[1] == {}
    assert certify(game, sol.strategies).nash_conv == 0


def test_lp_rejects_games_it_cannot_solve() -> None:
    with pytest.raises(ValueError, match="needs 2 players"):
        solve(three_player_toy())
    b = GameBuilder(2)
    with pytest.raises(ValueError, match=r"zero-sum game; terminal 1 has utilities \['1', '1'\]"):
        solve(b.build(b.decision(0, "I", [("a", b.terminal([1, 1]))])))


@pytest.mark.parametrize(
    ("utilities", "zero_sum"),
    [
        ([Fraction(3, 4), Fraction(-3, 4)], True),
        ([Fraction(6, 8), Fraction(-9, 12)], True),  # lowest terms: 3/4 and −3/4
        ([Fraction(1, 2), Fraction(-1, 3)], False),  # numerators cancel, denominators differ
        ([Fraction(1, 3), Fraction(-2, 3)], False),  # denominators equal, numerators do not
        ([Fraction(0), Fraction(0)], True),
        ([Fraction(1, 2), Fraction(1, 2), Fraction(-1)], True),  # three players: the sum
        ([Fraction(1, 2), Fraction(1, 2), Fraction(-1, 2)], False),
    ],
)
def test_zero_sum_check_is_exact(utilities: list[Fraction], zero_sum: bool) -> None:
    """``Game.is_zero_sum`` compares two players' Fractions without adding them; it must agree
    with the exact sum."""
    b = GameBuilder(len(utilities))
    won = b.terminal([-x for x in utilities] if len(utilities) == 2 else [0] * len(utilities))
    game = b.build(b.decision(0, "I", [("a", b.terminal(utilities)), ("b", won)]))
    assert game.is_zero_sum() is zero_sum
    assert (sum(utilities) == 0) is zero_sum


# --- N-player exact best response ---------------------------------------------------------------


def test_three_player_best_response() -> None:
    """Reach of player 0's histories: (H, x) 1/2, (T, x) 1/4, (T, y) 1/4; E[l bonus] = 1/3.
    After x: a = 1/2·(2 + 1/3) + 1/4·(−1 + 1/3) = 1, b = 1/4·1 = 1/4 → a.
    After y: a = 1/4·(−2/3) = −1/6, b = 1/4 → b.  BR = 1 + 1/4 = 5/4
    (a player who also saw the coin would get 7/6 + 1/4 + 1/4 = 5/3)."""
    game = three_player_toy()
    br = best_response(game, 0, {1: TOY_P1, 2: TOY_P2})
    assert br.value == TOY_BR_VALUE
    assert br.strategy == {"after-x": "a", "after-y": "b"}
    assert br.action_values["after-x"] == (F(1), F(1, 4))
    assert evaluate(game, [br.policy(), TOY_P1, TOY_P2])[0] == TOY_BR_VALUE
    # Always a: u0 = 1/2·7/3 + 1/2·(−2/3) = 5/6; u1 = 3/4·1 + 1/4·2 = 5/4; u2 = P(l) = 1/3.
    always_a = {"after-x": {"a": 1}, "after-y": {"a": 1}}
    assert evaluate(game, [always_a, TOY_P1, TOY_P2]) == (F(5, 6), F(5, 4), F(1, 3))
    cert = certify(game, [always_a, TOY_P1, TOY_P2])
    assert cert.value_bracket is None
    assert cert.gains[0] == TOY_BR_VALUE - F(5, 6)


def test_policies_are_validated_and_made_exact() -> None:
    game = matching_pennies()
    with pytest.raises(ValueError, match="information set 'coin': the policy has no entry"):
        certify(game, [{}, {"guess": HALF}])
    with pytest.raises(ValueError, match=r"unknown action\(s\) \['X'\]"):
        exact_policy(game, 0, {"coin": {"X": 1}})
    with pytest.raises(ValueError, match=r"action 'H': -0\.5 is negative"):
        exact_policy(game, 0, {"coin": {"H": -0.5, "T": 1.5}})
    with pytest.raises(ValueError, match="all action probabilities are 0"):
        exact_policy(game, 0, {"coin": {"H": 0}})
    with pytest.raises(ValueError, match="no policy given for player 1"):
        evaluate(game, [{"coin": HALF}])
    # Weights are divided by their sum; a callable works as a policy.
    exact = exact_policy(game, 0, lambda key: {"H": 0.1, "T": 0.1})
    assert list(exact.values()) == [(F(1, 2), F(1, 2))]
    thirds = exact_policy(game, 1, {"guess": {"H": 1 / 3, "T": 2 / 3}})
    assert list(thirds.values()) == [(F(1, 3), F(2, 3))]


def test_float_probabilities_are_rounded_to_small_fractions_or_the_power_of_two_grid() -> None:
    game = matching_pennies()
    # Near a small fraction (an LP's float of 3/7, 1e-16 off): that fraction.
    near = 3 / 7 + 1e-16
    assert exact_policy(game, 0, {"coin": {"H": near, "T": 1 - near}})[0] == (F(3, 7), F(4, 7))
    p = 617 / 1620  # a larger denominator, as in exact equilibria of small endgames
    assert exact_policy(game, 0, {"coin": {"H": p, "T": 1 - p}})[0] == (F(617, 1620), F(1003, 1620))
    # A generic float: the nearest multiple of 2^-64, and the pair sums to exactly 1 with the
    # larger taking up the rounding (both stay on the grid).
    p = 0.123456789012345
    ((h, t),) = exact_policy(game, 0, {"coin": {"H": p, "T": 1 - p}}).values()
    assert h + t == 1 and h.denominator & (h.denominator - 1) == 0
    assert t.denominator & (t.denominator - 1) == 0
    assert abs(h - F(p)) <= F(1, 2**65) and abs(t - F(1 - p)) <= F(1, 10**15)
    # Floats that miss 1 by more than rounding are weights, divided by their sum.
    ((h, t),) = exact_policy(game, 0, {"coin": {"H": 0.3, "T": 0.3}}).values()
    assert (h, t) == (F(1, 2), F(1, 2))


# --- export --------------------------------------------------------------------------------------


def test_graphml_round_trip(tmp_path: Path) -> None:
    game = kuhn_poker()
    path = tmp_path / "kuhn.graphml"
    write_graphml(game, path)
    back = nx.read_graphml(path, node_type=int)
    graph = to_networkx(game)
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))
    assert {(u, v): d for u, v, d in back.edges(data=True)} == {
        (u, v): d for u, v, d in graph.edges(data=True)
    }
    assert back.number_of_nodes() == 55 and back.number_of_edges() == 54
    root, leaf = back.nodes[0], back.nodes[game.num_nodes - 1]
    assert root["kind"] == "chance" and root["probability"] == 1.0
    assert leaf["kind"] == "terminal" and leaf["probability_exact"] == "1/6"
    assert back.edges[0, 1]["probability_exact"] == "1/6"
    decision = back.nodes[1]
    assert decision["kind"] == "decision" and decision["player"] == 0
    assert decision["infoset"] == repr(game.infosets[int(game.infoset[1])].key)
