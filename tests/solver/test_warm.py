"""The CFR+ run that starts the restricted game (:mod:`loveformal.solver.warm`): on its own
numbering of the sequences it computes the plain loop's averages float for float, so the
first restricted game, and every solve after it, stay as they were."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

from loveformal.notation import parse_position
from loveformal.solver import oracle, warm
from loveformal.solver.endgame import build_endgame
from loveformal.solver.seqform import constraint_matrix, payoff_matrix
from tests.solver.test_oracle import CLASSIC_K3
from tests.test_seqform_speed import random_game


def _plain_loop(
    own: oracle.SequenceTree,
    opp: oracle.SequenceTree,
    payoff: scipy.sparse.csr_matrix,
    iterations: int,
) -> tuple[np.ndarray, np.ndarray]:
    """CFR+ written with the trees' own methods (the loop ``_warm_support`` ran before)."""
    pay_t = payoff.T.tocsr()
    q_own, q_opp = np.zeros(own.sequences), np.zeros(opp.sequences)
    b_own, b_opp = own.matched(q_own), opp.matched(q_opp)
    y = opp.plan_of(b_opp)
    sum_x, sum_y = np.zeros(own.sequences), np.zeros(opp.sequences)
    for t in range(1, iterations + 1):
        _, r = own.counterfactual(payoff @ y, b_own)
        q_own = np.maximum(q_own + r, 0.0)
        b_own = own.matched(q_own)
        x = own.plan_of(b_own)
        sum_x += t * x
        _, r = opp.counterfactual(-(pay_t @ x), b_opp)
        q_opp = np.maximum(q_opp + r, 0.0)
        b_opp = opp.matched(q_opp)
        y = opp.plan_of(b_opp)
        sum_y += t * y
    return sum_x / sum_x[0], sum_y / sum_y[0]


def _random_tree(rng: np.random.Generator, infosets: int, widest: int) -> scipy.sparse.csr_matrix:
    """A constraint matrix in :func:`~loveformal.solver.seqform.constraint_matrix`'s form:
    each information set below a random earlier sequence, with 1 to ``widest`` actions."""
    rows, cols, vals = [0], [0], [1.0]
    sequences = 1
    for r in range(1, infosets + 1):
        k = int(rng.integers(1, widest + 1))
        rows += [r] * (k + 1)
        cols += [int(rng.integers(0, sequences)), *range(sequences, sequences + k)]
        vals += [-1.0] + [1.0] * k
        sequences += k
    return scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(infosets + 1, sequences))


def _matrices(
    which: str,
) -> tuple[oracle.SequenceTree, oracle.SequenceTree, scipy.sparse.csr_matrix]:
    if which.startswith(("wide", "shuffled")):
        # Information sets of up to 300 actions: every branch of numpy's pairwise sum.
        rng = np.random.default_rng(int(which[-1]))
        e, f = _random_tree(rng, 60, 300), _random_tree(rng, 40, 300)
        if which.startswith("shuffled"):
            # Information sets in another order: their sequences are not 1, 2, ... in order.
            e = e[np.concatenate([[0], 1 + rng.permutation(e.shape[0] - 1)])]
        a = scipy.sparse.random(
            e.shape[1], f.shape[1], density=0.05, format="csr", random_state=rng
        )
        a.data = a.data * 4.0 - 2.0
        return oracle.SequenceTree(e), oracle.SequenceTree(f), a
    game = (
        build_endgame(parse_position(CLASSIC_K3), reduce=True).game
        if which == "classic-k3"
        else random_game(int(which[-1]), int(which[-1]) % 2)
    )
    e, f = constraint_matrix(game, 0), constraint_matrix(game, 1)
    return oracle.SequenceTree(e), oracle.SequenceTree(f), payoff_matrix(game)


def _bits(values: np.ndarray) -> np.ndarray:
    """The floats' bit patterns (``-0.0`` differs from ``0.0``)."""
    return np.ascontiguousarray(values, dtype=np.float64).view(np.int64)


@pytest.mark.parametrize(
    "which", ["classic-k3", "random-1", "random-2", "wide-1", "wide-2", "shuffled-3"]
)
def test_the_renumbered_cfr_is_the_plain_loop_float_for_float(which: str) -> None:
    own, opp, a = _matrices(which)
    if which.startswith("shuffled"):
        assert not own._contiguous
    want = _plain_loop(own, opp, a, 25)
    got = warm.cfr_averages(own, opp, a, a.T.tocsr(), 25)
    assert np.array_equal(_bits(got[0]), _bits(want[0]))
    assert np.array_equal(_bits(got[1]), _bits(want[1]))


@pytest.mark.parametrize("k", [1, 2, 3, 8, 9, 10, 16, 17, 24, 129, 130, 137, 257, 300])
def test_a_groups_sums_are_reduceats_sums(k: int) -> None:
    rng = np.random.default_rng(k)
    n = 50
    # Magnitudes far apart and both signs, so that another order of addition rounds
    # differently; and blocks of zeros of both signs.
    blocks = (rng.random((n, k)) - 0.5) * rng.choice([1e-8, 1.0, 1e8], (n, k))
    blocks[0] = -0.0
    blocks[1] = 0.0
    want = np.add.reduceat(blocks.reshape(-1), np.arange(0, n * k, k))
    got = warm._reduceat_sum(np.ascontiguousarray(blocks.T))
    assert np.array_equal(_bits(got), _bits(want))


def test_the_layout_numbers_each_sequence_once_by_level_and_width() -> None:
    own, _, _ = _matrices("wide-1")
    layout = warm.Layout(own)
    assert np.array_equal(np.sort(layout.new), np.arange(own.sequences))
    assert layout.new[0] == 0
    at = 1
    for level, (rows, seqs, starts, _) in zip(layout.levels, own.levels, strict=True):
        for g in level.groups:
            assert g.base == at and (own.count[rows[g.place]] == g.k).all()
            # Action j of the group's i-th information set is base + j·n + i.
            members = seqs[starts[g.place][:, None] + np.arange(g.k)]
            assert np.array_equal(
                layout.new[members], g.base + np.arange(g.k) * g.n + np.arange(g.n)[:, None]
            )
            at = g.end
    assert at == own.sequences
