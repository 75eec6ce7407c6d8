"""The sequence-form LP solves one LP (the smaller one) and reads the other plan from its duals:
both orientations, and the explicit second LP, give certified equilibria of the same value."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from loveformal.solver import seqform
from loveformal.solver.certify import certify
from loveformal.solver.efg import Game, GameBuilder
from loveformal.solver.seqform import solve
from tests.solver.games import KUHN_VALUE, kuhn_poker

Obs = tuple[tuple[object, ...], tuple[object, ...]]


def random_game(seed: int, wide: int) -> Game:
    """A random two-player zero-sum game with private chance and public actions.

    Player ``wide`` has four actions at every decision and the other two, so one player's
    LP is clearly smaller. Information-set keys are the acting player's whole observation
    history (perfect recall)."""
    rng = random.Random(seed)
    b = GameBuilder(2)

    def node(depth: int, obs: Obs) -> int:
        if depth == 5:
            u = Fraction(rng.randint(-6, 6), rng.randint(1, 4))
            return b.terminal([u, -u])
        if depth in (0, 3):
            outs = []
            for o in range(2):
                seen: Obs = ((*obs[0], o), obs[1]) if depth == 0 else (obs[0], (*obs[1], o))
                outs.append((o, Fraction(1, 2), node(depth + 1, seen)))
            return b.chance(outs)
        player = wide if depth == 4 else depth - 1
        n = 4 if player == wide else 2
        kids = []
        for a in range(n):
            seen = ((*obs[0], (player, a)), (*obs[1], (player, a)))
            kids.append((a, node(depth + 1, seen)))
        return b.decision(player, obs[player], kids)

    return b.build(node(0, ((), ())))


@pytest.mark.parametrize("wide", [0, 1])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_both_orientations_certify(seed: int, wide: int) -> None:
    game = random_game(seed, wide)
    # solve() picks the LP with fewer columns: S_p + 1 + #infosets of the opponent.
    cols = [game.num_sequences(p) + 1 + len(game.infosets_of(1 - p)) for p in range(2)]
    assert (cols[1] < cols[0]) if wide == 0 else (cols[0] < cols[1])
    one, both = solve(game), solve(game, second_lp=True)
    assert both.value_player1_lp is not None
    assert abs(both.value_player1_lp - both.value) < 1e-9
    assert abs(one.value - both.value) < 1e-9
    for sol in (one, both):
        cert = certify(game, sol.strategies)
        assert cert.exploitability <= Fraction(1, 10**9)
        assert cert.value_bracket is not None
        lo, hi = cert.value_bracket
        assert float(lo) - 1e-9 <= sol.value <= float(hi) + 1e-9


def test_kuhn_value() -> None:
    sol = solve(kuhn_poker())
    assert abs(sol.value - float(KUHN_VALUE)) < 1e-12
    assert certify(kuhn_poker(), sol.strategies).exploitability <= Fraction(1, 10**9)


@pytest.mark.parametrize("wide", [0, 1])
def test_scipy_fallback_gives_the_same_equilibrium(
    wide: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without highspy's plain binding, scipy's HiGHS solves the same LP: same value, and a
    certified equilibrium."""
    game = random_game(4, wide)
    direct = solve(game)
    monkeypatch.setattr(seqform, "_Highs", None)
    fallback = solve(game)
    assert abs(fallback.value - direct.value) < 1e-9
    assert certify(game, fallback.strategies).exploitability <= Fraction(1, 10**9)


def test_payoff_matrix_from_arrays_equals_the_exact_sums() -> None:
    """The payoff matrix read off the grouped arrays (mixed-radix keys, one float division)
    equals, entry for entry, the exact sums computed here independently: each terminal's
    chance reach walked up the tree in Fractions, times its utility, per sequence pair."""
    from loveformal.notation import parse_position
    from loveformal.solver.efg import TERMINAL
    from loveformal.solver.endgame import build_endgame

    text = (
        "classic 2p r1 start:P1 | P1 Priest d:Guard*2,Handmaid,Guard t0 | P2 Baron,Princess "
        "d:King,Prince t0 | deck - / Guard,Priest,Baron | aside Prince | up Handmaid,Countess,"
        "Guard | play P2"
    )
    game = build_endgame(parse_position(text), reduce=True).game
    fast = seqform.payoff_matrix(game)
    exact: dict[tuple[int, int], Fraction] = {}
    for t in np.flatnonzero(game.kind == TERMINAL).tolist():
        reach, node = Fraction(1), t
        while node > 0:
            parent = int(game.parent[node])
            p = game.edge_prob_exact[int(game.child_start[parent]) + int(game.action[node])]
            reach *= p if p is not None else 1
            node = parent
        u = game.utility_exact[t]
        assert u is not None
        pair = (int(game.own_sequence[t, 0]), int(game.own_sequence[t, 1]))
        exact[pair] = exact.get(pair, Fraction(0)) + reach * u[0]
    expected = {pair: v for pair, v in exact.items() if v}
    got = fast.todok()
    assert len(got) == len(expected) > 0
    for pair, v in expected.items():
        assert got[pair] == float(v)


@pytest.mark.parametrize("grouping", ["numpy", "dictionary"])
@pytest.mark.parametrize("unplayed", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fused_certificate_pass_equals_the_separate_ones(
    seed: int, unplayed: bool, grouping: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The certificate's one-pass values and best responses on two-player trees equal the
    separate root-value and best-response computations, for a random (non-equilibrium)
    profile; with ``unplayed``, one with actions of probability 0 (the pass skips the payoffs
    of sequences a plan does not reach); over the payoffs grouped in numpy, or in a
    dictionary (when the sums could overflow 64 bits)."""
    from loveformal.solver import expectimax

    if grouping == "dictionary":
        monkeypatch.setattr(expectimax._Grouped, "_vectorised", lambda *args: False)
    game = random_game(seed, seed % 2)
    assert game.is_tree()
    assert (expectimax._grouped(game).keys is not None) == (grouping == "numpy")
    rng = random.Random(seed)
    low = 0 if unplayed else 1
    profile = {
        p: {
            i.key: {a: Fraction(rng.randint(low, 5) if j else 1) for j, a in enumerate(i.actions)}
            for i in game.infosets_of(p)
        }
        for p in range(2)
    }
    table = expectimax._exact_profile(game, profile)
    values, responses = expectimax.tree_values_and_responses(game, table)
    assert values == expectimax._root_values(game, table)
    for p, fused in enumerate(responses):
        alone = expectimax._best_response(game, p, table)
        assert fused.value == alone.value
        assert fused.strategy == alone.strategy
        assert dict(fused.action_values) == dict(alone.action_values)
    assert responses[0].value > values[0] or responses[1].value > values[1]
