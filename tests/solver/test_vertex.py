"""The exact vertex of the LP (:mod:`loveformal.solver.vertex`) and its certificate
(:func:`loveformal.solver.certify.certify_plans`): where the float strategies' certificate leaves
a bracket, the plans solved exactly from HiGHS's optimal basis pin the value down; every
exact answer is checked (the basis system in integers, the plans, the certificate), and a
planted error in the data, the plans or the float solve is caught rather than reported."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import scipy.sparse

from loveformal.cards import Card
from loveformal.notation import parse_position
from loveformal.solver import analysis, seqform, vertex
from loveformal.solver.analysis import EndgameResult, solve_position
from loveformal.solver.blocklu import BlockLU
from loveformal.solver.certify import Plan, certify, certify_plans
from loveformal.solver.efg import Game
from loveformal.solver.endgame import build_endgame
from loveformal.solver.expectimax import _plans
from loveformal.state import State
from tests.solver.games import kuhn_poker

# bench/solver.py: classic k = 3 seed 3010. The LP's floats, made exact, leave a bracket
# about 1e-17 wide; the full tree (no reductions) has the same value.
CLASSIC_K3_OPEN = (
    "classic 2p r1 start:P1 | P1 Handmaid,Princess d:Guard,Handmaid,Guard t0 | P2 Baron "
    "d:Countess,Baron,Guard t0 | deck - / Guard*2,Priest | aside Prince | up Prince,King,Priest "
    "| play P1"
)
CLASSIC_K3_VALUE = Fraction(230177, 2457000)


def test_the_floats_leave_a_bracket_and_the_vertex_closes_it() -> None:
    game = build_endgame(parse_position(CLASSIC_K3_OPEN), merge_dead_guesses=True).game
    sol = seqform.solve(game)
    assert sol.restricted_steps > 0  # the restricted LP's last model gives the basis
    floats = certify(game, sol.strategies)
    assert floats.value_bracket is not None
    lo, hi = floats.value_bracket
    assert lo < hi and hi - lo < Fraction(1, 10**15)  # the case this module is for
    assert sol.vertex is not None
    plans = sol.vertex()
    assert plans is not None
    exact = certify_plans(game, plans)
    assert exact is not None and exact.value_bracket is not None
    assert exact.value_bracket == (CLASSIC_K3_VALUE, CLASSIC_K3_VALUE)
    assert exact.exploitability == 0
    assert lo <= CLASSIC_K3_VALUE <= hi
    # The behaviour read off the plans is a strategy: each set's probabilities sum to 1.
    for p in (0, 1):
        for info in game.infosets_of(p):
            assert sum(exact.profile[p][info.key].values()) == 1


def test_solve_position_reports_the_exact_value_of_the_reduced_and_the_full_game() -> None:
    state = parse_position(CLASSIC_K3_OPEN)
    reduced = solve_position(state, pimc=False)
    full = solve_position(state, pimc=False, reduce=False)
    assert reduced.value == full.value == CLASSIC_K3_VALUE
    assert "vertex" in reduced.seconds
    assert reduced.bracket == (CLASSIC_K3_VALUE, CLASSIC_K3_VALUE)
    # The action table reads the exact equilibrium: its probabilities sum to 1.
    assert sum(a.probability for a in reduced.actions) == pytest.approx(1.0, abs=1e-12)


def test_the_whole_lp_path_gives_kuhn_pokers_exact_equilibrium() -> None:
    game = kuhn_poker()  # small: the whole LP is solved, then again in the merged form
    sol = seqform.solve(game)
    assert sol.restricted_steps == 0 and sol.vertex is not None
    plans = sol.vertex()
    assert plans is not None
    cert = certify_plans(game, plans)
    assert cert is not None
    assert cert.value_bracket == (Fraction(-1, 18), Fraction(-1, 18))
    assert cert.exploitability == 0


def _kuhn_plans() -> tuple[Plan, Plan]:
    sol = seqform.solve(kuhn_poker())
    assert sol.vertex is not None
    plans = sol.vertex()
    assert plans is not None
    return plans


@pytest.mark.parametrize("fault", ["root", "negative", "sum", "length"])
def test_certify_plans_refuses_what_is_not_a_realization_plan(fault: str) -> None:
    game = kuhn_poker()
    (x, dx), y = _kuhn_plans()
    assert certify_plans(game, ((x, dx), y)) is not None
    bad = list(x)
    info = game.infosets_of(0)[0]
    if fault == "root":
        bad[0] += 1
    elif fault == "negative":
        # Move weight within the first information set so that it still sums, below 0.
        bad[info.first_sequence] = -1
        bad[info.first_sequence + 1] += x[info.first_sequence] + 1
    elif fault == "sum":
        bad[info.first_sequence] += 1
    else:
        bad = bad[:-1]
    assert certify_plans(game, ((bad, dx), y)) is None


def test_a_vertex_of_wrong_payoffs_gives_no_exact_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: every exact payoff entry off by one unit (the vertex solved exactly, but for
    another game: its plans are not plans of this one). The float answer (value None, the
    float strategies' bracket) stands."""
    right = seqform.exact_payoff_entries

    def wrong(*args: Any, **kwargs: Any) -> Any:
        got = right(*args, **kwargs)
        assert got is not None
        nums, den = got
        return nums + 1, den

    monkeypatch.setattr(seqform, "exact_payoff_entries", wrong)
    _assert_float_answer(solve_position(parse_position(CLASSIC_K3_OPEN), pimc=False))


def test_plans_that_are_no_equilibrium_give_no_exact_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Planted: P1's exact plan mixed half and half with uniform play (still a realization
    plan, no longer an equilibrium). The exact certificate's bracket stays open, so the
    float answer stands."""
    right = seqform._exact_vertex

    def mixed(game: Game, *args: Any) -> tuple[Plan, Plan] | None:
        got = right(game, *args)
        assert got is not None
        (x, dx), y = got
        table = [tuple(Fraction(1, len(i.actions)) for _ in i.actions) for i in game.infosets]
        (u, du) = _plans(game, table, (0,))[0]
        half = ([a * du + b * dx for a, b in zip(x, u, strict=True)], 2 * dx * du)
        assert certify_plans(game, (half, y)) is not None  # a plan, not an equilibrium
        return half, y

    monkeypatch.setattr(seqform, "_exact_vertex", mixed)
    _assert_float_answer(solve_position(parse_position(CLASSIC_K3_OPEN), pimc=False))


def _assert_float_answer(r: EndgameResult) -> None:
    assert r.value is None
    assert r.bracket is not None and r.bracket[0] < r.bracket[1]
    assert r.bracket[0] <= CLASSIC_K3_VALUE <= r.bracket[1]
    assert "vertex" in r.seconds  # it was tried


def test_the_refinement_returns_only_checked_solutions() -> None:
    """Planted: a float solve of another matrix. The refinement stalls or its candidates fail
    the exact check; it returns None, never a wrong solution."""
    rng = np.random.default_rng(7)
    n = 30
    dense = rng.integers(-9, 10, size=(n, n))
    dense += np.diag(np.full(n, 60))  # well conditioned
    rows, cols = np.nonzero(dense)
    vals = np.array([int(v) for v in dense[rows, cols]], dtype=object)
    matrix = vertex._Sparse(rows.astype(np.int64), cols.astype(np.int64), vals, (n, n))
    b = np.array([int(v) for v in rng.integers(-5, 6, size=n)], dtype=object)
    right = np.linalg.inv(dense.astype(float))
    got = vertex._solve(matrix, lambda v: right @ v, b)
    assert got is not None
    num, den = got
    assert np.all(matrix.times(num) == b * den)
    skewed = np.linalg.inv(dense.astype(float) + np.eye(n))
    assert vertex._solve(matrix, lambda v: skewed @ v, b) is None


def test_a_coarse_float_solve_is_refined_in_smaller_steps() -> None:
    """A float solve good to about 2⁻²³ stalls at 32 bits a round; the refinement then takes
    16 bits a round and finds the exact solution."""
    rng = np.random.default_rng(11)
    n = 25
    dense = rng.integers(-9, 10, size=(n, n)) + np.diag(np.full(n, 50))
    rows, cols = np.nonzero(dense)
    vals = np.array([int(v) for v in dense[rows, cols]], dtype=object)
    matrix = vertex._Sparse(rows.astype(np.int64), cols.astype(np.int64), vals, (n, n))
    b = np.array([int(v) for v in rng.integers(-5, 6, size=n)], dtype=object)
    inverse = np.linalg.inv(dense.astype(float))
    coarse = inverse * (1 + 1e-7 * rng.standard_normal(inverse.shape))
    assert vertex.STEP_BITS == (32, 16)
    assert vertex._refine(matrix, lambda v: coarse @ v, b, 32) is None
    got = vertex._solve(matrix, lambda v: coarse @ v, b)
    assert got is not None
    assert np.all(matrix.times(got[0]) == b * got[1])


def test_reconstruction_recovers_fractions_from_their_binary_digits() -> None:
    values = [Fraction(1, 3), Fraction(-5, 7), Fraction(0), Fraction(2), Fraction(11, 21)]
    bits = 240
    digits = np.array([round(v * (1 << bits)) for v in values], dtype=object)
    got = vertex._reconstruct(digits, bits, 1 << 8)
    assert got is not None
    num, den = got
    assert [Fraction(v, den) for v in num.tolist()] == values
    # Too few digits for the denominator: no candidate rather than a wrong one.
    short = 12
    digits = np.array([round(v * (1 << short)) for v in values], dtype=object)
    assert vertex._reconstruct(digits, short, 1 << 8) is None


@pytest.mark.parametrize("seed", range(6))
def test_the_block_lu_solves_both_ways(seed: int) -> None:
    """A random sparse matrix with triangular front and back parts around a general kernel,
    rows and columns shuffled: the peeled factorization solves ``B z = r`` and ``Bᵀ w = c``,
    and finds the parts."""
    rng = np.random.default_rng(seed)
    front, kernel, back = 40, 15, 30
    n = front + kernel + back
    dense = np.zeros((n, n))
    for i in range(n):
        dense[i, i] = rng.uniform(1, 3) * rng.choice([-1, 1])
        lo = front if front <= i < front + kernel else 0
        for j in rng.choice(i + 1, size=min(i, 3), replace=False):
            if j >= lo or i >= front + kernel:
                dense[i, j] = rng.uniform(-1, 1)
    ks = slice(front, front + kernel)
    dense[ks, ks] += rng.uniform(-1, 1, size=(kernel, kernel)) * (
        rng.random((kernel, kernel)) < 0.4
    )
    rows, cols = rng.permutation(n), rng.permutation(n)
    matrix = scipy.sparse.csc_matrix(dense[rows][:, cols])
    lu = BlockLU(matrix)
    assert len(lu.rows[0]) + len(lu.rows[2]) >= front  # the triangular parts were found
    r = rng.standard_normal(n)
    assert np.abs(matrix @ lu.solve(r) - r).max() < 1e-9
    assert np.abs(matrix.T @ lu.solve_transposed(r) - r).max() < 1e-9


def _peeled_one_by_one(matrix: scipy.sparse.csc_matrix) -> tuple[set[int], ...]:
    """The front rows and columns, back rows and columns, taking one singleton at a time."""
    dense = matrix.toarray() != 0
    rows, cols = set(range(dense.shape[0])), set(range(dense.shape[1]))
    out: list[set[int]] = [set(), set(), set(), set()]
    for part, by_row in ((0, True), (2, False)):
        progress = True
        while progress:
            progress = False
            for i in sorted(rows if by_row else cols):
                line = dense[i] if by_row else dense[:, i]
                live = [j for j in (cols if by_row else rows) if line[j]]
                if len(live) == 1:
                    (rows if by_row else cols).discard(i)
                    (cols if by_row else rows).discard(live[0])
                    out[part if by_row else part + 1].add(i)
                    out[part + 1 if by_row else part].add(live[0])
                    progress = True
    return tuple(out)


@pytest.mark.parametrize("seed", range(6))
def test_the_peel_in_rounds_takes_the_one_by_one_parts_in_a_triangular_order(
    seed: int,
) -> None:
    """``_peel`` takes every singleton of a round at once (and the last few one at a time):
    on a matrix with a nonzero diagonal (no two rows can then compete for one column) the
    same front and back rows and columns as taking them one at a time, each part lower
    triangular in its order, with a nonzero diagonal."""
    from loveformal.solver import blocklu

    rng = np.random.default_rng(seed)
    n = 60
    dense = np.zeros((n, n))
    for i in range(n):
        dense[i, i] = 1.0 + i
        for j in rng.choice(n, size=2, replace=False):
            if (i < 25 and j < i) or (i >= 45 and j > i) or (25 <= i < 45 and 25 <= j < 45):
                dense[i, j] = rng.uniform(-1, 1) or 0.5
    rows, cols = rng.permutation(n), rng.permutation(n)
    matrix = scipy.sparse.csc_matrix(dense[rows][:, cols])
    front_rows, front_cols, back_rows, back_cols = blocklu._peel(matrix)
    want = _peeled_one_by_one(matrix)
    assert (set(front_rows), set(front_cols), set(back_rows), set(back_cols)) == want
    assert len(front_rows) >= 20
    for r, c in ((front_rows, front_cols), (back_rows[::-1], back_cols[::-1])):
        block = scipy.sparse.csr_matrix(matrix)[r][:, c].tocoo()
        assert np.all(block.row >= block.col) and np.all(block.diagonal() != 0)


def test_two_rows_with_their_one_entry_in_one_column_give_it_to_one() -> None:
    """Eleven rows with one entry each at the start, two of them in column 0 (a singular
    matrix): the first round takes ten rows, one of the two among them, and the other is
    left with no entry; the next round takes the ten rows the first freed. What is left has
    no singleton row or column."""
    from loveformal.solver import blocklu

    n = 22
    dense = np.zeros((n, n))
    for i in range(10):
        dense[i, i] = 2.0
    dense[10, 0] = 3.0  # competes with row 0
    for i in range(11, 21):
        dense[i, i - 1] = 1.0 + i
        dense[i, i - 11] = 0.5  # a column of the first round
    dense[21, [5, 20, 21]] = 1.0
    matrix = scipy.sparse.csc_matrix(dense)
    front_rows, front_cols, back_rows, back_cols = blocklu._peel(matrix)
    assert len(set(front_cols)) == len(front_cols) == len(front_rows) == 20
    assert len({0, 10} & set(front_rows)) == 1 and set(range(11, 21)) <= set(front_rows)
    block = scipy.sparse.csr_matrix(matrix)[front_rows][:, front_cols].tocoo()
    assert np.all(block.row >= block.col) and np.all(block.diagonal() != 0)
    rest_rows = sorted(set(range(n)) - set(front_rows) - set(back_rows))
    rest_cols = sorted(set(range(n)) - set(front_cols) - set(back_cols))
    left = dense[rest_rows][:, rest_cols] != 0
    assert not (left.sum(axis=1) == 1).any() and not (left.sum(axis=0) == 1).any()


def test_the_block_lu_refuses_a_singular_matrix() -> None:
    singular = scipy.sparse.csc_matrix(np.array([[1.0, 0, 0], [2.0, 0, 0], [0, 1.0, 3.0]]))
    with pytest.raises(RuntimeError):
        BlockLU(singular)


@pytest.mark.parametrize("cheap", [False, True])
def test_a_costly_vertex_is_sought_only_when_the_floats_leave_a_bracket(cheap: bool) -> None:
    """Where the vertex means solving the whole LP again (Kuhn poker is solved whole), the
    floats' certificate comes first (Kuhn poker's floats round to its exact equilibrium);
    with the restricted LP's basis at hand the vertex does."""
    game = kuhn_poker()
    sol = seqform.solve(game)
    assert sol.vertex is not None and not sol.vertex_cheap
    calls: list[int] = []
    found = sol.vertex

    def counted() -> tuple[Plan, Plan] | None:
        calls.append(1)
        return found()

    seconds: dict[str, float] = {}
    spied = dataclasses.replace(sol, vertex=counted, vertex_cheap=cheap)
    cert, exact = analysis._certificate(game, spied, seconds)
    assert cert.value_bracket == (Fraction(-1, 18), Fraction(-1, 18))
    assert exact is cheap and len(calls) == (1 if cheap else 0)
    assert ("vertex" in seconds) is cheap and "certify" in seconds


def _scaled_payoffs(monkeypatch: pytest.MonkeyPatch, factor: int) -> None:
    """The exact payoff entries and their denominator both multiplied by ``factor``: the
    same LP, with longer integers."""
    right = seqform.exact_payoff_entries

    def scaled(*args: Any, **kwargs: Any) -> Any:
        got = right(*args, **kwargs)
        assert got is not None
        return got[0] * factor, got[1] * factor

    monkeypatch.setattr(seqform, "exact_payoff_entries", scaled)


def test_long_payoff_denominators_are_refined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 51-bit denominator (priors with uneven weights make long ones): the opponent's
    duals, over the denominator, would be far below one unit with the cost unscaled, and the
    first residual no measure of a stall (a review found both)."""
    _scaled_payoffs(monkeypatch, (1 << 50) + 1)
    game = kuhn_poker()
    sol = seqform.solve(game)
    assert sol.vertex is not None
    plans = sol.vertex()
    assert plans is not None
    cert = certify_plans(game, plans)
    assert cert is not None and cert.value_bracket == (Fraction(-1, 18), Fraction(-1, 18))
    # The refinement alone, on one such entry: z = 1 / (2^50 + 1).
    big = (1 << 50) + 1
    one = vertex._Sparse(
        np.zeros(1, np.int64), np.zeros(1, np.int64), np.array([big], dtype=object), (1, 1)
    )
    got = vertex._solve(one, lambda v: v / float(big), np.array([1], dtype=object))
    assert got is not None and Fraction(int(got[0][0]), got[1]) == Fraction(1, big)


def test_denominators_too_long_for_floats_leave_the_float_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past MAX_DENOMINATOR_BITS the vertex is not tried (its floats would overflow: a
    review's prior with coprime weights of 1,200 bits raised OverflowError); the solve goes
    on with the floats' certificate."""
    _scaled_payoffs(monkeypatch, (1 << vertex.MAX_DENOMINATOR_BITS) + 1)
    game = kuhn_poker()
    sol = seqform.solve(game)
    assert sol.vertex is not None and sol.vertex() is None
    r = solve_position(parse_position(CLASSIC_K3_OPEN), pimc=False)
    assert r.value is None and "vertex" in r.seconds
    assert r.bracket is not None and r.bracket[0] <= CLASSIC_K3_VALUE <= r.bracket[1]


def test_a_prior_with_a_wide_weight_ratio_gives_a_bracket_not_a_crash() -> None:
    """Deals weighed 10¹² times others make payoff entries HiGHS refuses (below its 1e-9
    floor) when the whole LP is rebuilt for the vertex; a review found the vertex then
    crashed. The floats' bracket (1.6e-12 wide) is reported."""
    state = parse_position(
        "classic 2p r1 start:P1 | P1 Handmaid d:Guard*2,Prince,King,Guard t0 | P2 Baron*2 "
        "d:Prince,Priest t0 | deck - / Guard,Priest | aside Guard | up Handmaid,Princess,"
        "Countess | play P2"
    )

    def prior(deal: State, weight: int) -> int:
        return weight * 10**12 if Card.HANDMAID in deal.seats[0].hand else weight

    r = solve_position(state, pimc=False, prior=prior)
    assert r.bracket is not None and r.bracket[0] < r.bracket[1]
    assert r.value is None and r.exploitability is not None and r.exploitability <= 1e-9
    assert "vertex" in r.seconds
