"""The CFR+ run that picks the first restricted game (:mod:`~loveformal.solver.oracle`), on
its own renumbering of the sequences.

:func:`cfr_averages` runs CFR+ in sequence form — counterfactual values bottom-up over each
player's information sets, regret matching plus, alternating updates, linearly weighted
average — and returns both players' average plans. It computes exactly what the plain loop
over :class:`~loveformal.solver.oracle.SequenceTree`'s methods computes (``counterfactual``,
``matched``, ``plan_of``), float for float, only faster.

**Why a renumbering.** The trees' methods gather each level's sequences by index and sum each
information set's entries with ``np.add.reduceat``. On the benchmark endgames (with 4 and 5
cards left) an iteration took about 9 ms, 100 iterations about 1 s of a solve: most of it
those gathers and scatters, and ``reduceat`` itself, which costs about 10 ns an information
set whatever its size. Here every level's information sets are grouped by their number of
actions ``k``, and each group's sequences numbered as one block, action-major: the ``j``-th
action of the group's ``i``-th information set is ``base + j·n + i``. A group's entries are
then a ``k × n`` view of one slice, an information set's sum is ``k`` vector additions, and
only the additions into parent sequences stay indexed. The payoff matrices are renumbered
once (their entries keep their order within each row, so each product sums the same terms in
the same order).

**Float for float.** ``np.add.reduceat`` adds a block's first entry to numpy's pairwise sum of
the rest (sequential below eight terms, eight interleaved partial sums from eight, halves
above 128); :func:`_reduceat_sum` adds the rows of a group in that order, so the sums, and
therefore the averages, the support and the whole solve, are the same as the plain loop's.
``tests/solver/test_warm.py`` checks this bit for bit against the plain loop and
``reduceat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import scipy.sparse

if TYPE_CHECKING:
    from .oracle import SequenceTree

__all__ = ["Layout", "cfr_averages"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Group:
    """The information sets of one level with ``k`` actions each: sequences
    ``base … base + k·n − 1`` (action-major), their parent sequences (renumbered) and their
    places in the level's order."""

    base: int
    k: int
    n: int
    parent: IntArray
    place: IntArray

    @property
    def end(self) -> int:
        return self.base + self.k * self.n


@dataclass(frozen=True)
class _Level:
    groups: tuple[_Group, ...]
    parent: IntArray
    """Each information set's parent sequence (renumbered), in the level's order."""


class Layout:
    """One player's sequences renumbered by level and group (module docstring): ``new[s]`` is
    sequence ``s``'s number here (the empty sequence stays 0)."""

    def __init__(self, tree: SequenceTree) -> None:
        self.sequences = tree.sequences
        new = np.zeros(tree.sequences, dtype=np.int64)
        placed: list[tuple[list[tuple[int, int, IntArray, IntArray]], IntArray]] = []
        base = 1
        for rows, seqs, starts, _ in tree.levels:
            k_of = tree.count[rows]
            groups: list[tuple[int, int, IntArray, IntArray]] = []
            for k in np.unique(k_of).tolist():
                place = np.flatnonzero(k_of == k)
                n = len(place)
                # The group's sequences, infoset-major (row i: its k actions in order).
                members = seqs[starts[place][:, None] + np.arange(k)]
                new[members] = base + np.arange(k)[None, :] * n + np.arange(n)[:, None]
                groups.append((base, k, place, rows[place]))
                base += k * n
            placed.append((groups, rows))
        hit = np.zeros(tree.sequences, dtype=np.bool_)
        hit[new] = True
        if base != tree.sequences or not hit.all():
            raise AssertionError("the layout does not number every sequence once")
        self.new: IntArray = new
        self.levels: list[_Level] = [
            _Level(
                tuple(
                    _Group(b, k, len(place), new[tree.parent[grows]], place)
                    for b, k, place, grows in groups
                ),
                new[tree.parent[rows]],
            )
            for groups, rows in placed
        ]

    def counterfactual_regret(self, contribution: FloatArray, behaviour: FloatArray) -> FloatArray:
        """:meth:`SequenceTree.counterfactual`'s regrets, renumbered."""
        value = contribution.copy()
        regret = np.zeros(self.sequences)
        for level in reversed(self.levels):
            expected = np.empty(len(level.parent))
            for g in level.groups:
                v = value[g.base : g.end].reshape(g.k, g.n)
                e = _reduceat_sum(v * behaviour[g.base : g.end].reshape(g.k, g.n))
                regret[g.base : g.end].reshape(g.k, g.n)[:] = v - e
                expected[g.place] = e
            np.add.at(value, level.parent, expected)
        return regret

    def matched(self, positive: FloatArray) -> FloatArray:
        """:meth:`SequenceTree.matched`, renumbered: each information set's entries over their
        sum, uniform where the sum is 0."""
        out = np.ones(self.sequences)
        for level in self.levels:
            for g in level.groups:
                mass = positive[g.base : g.end].reshape(g.k, g.n)
                total = _reduceat_sum(mass)
                above = total > 0.0
                share = out[g.base : g.end].reshape(g.k, g.n)
                if above.all():
                    share[:] = mass / total
                else:
                    share[:] = np.where(above, mass / np.where(above, total, 1.0), 1.0 / g.k)
        return out

    def plan_of(self, behaviour: FloatArray) -> FloatArray:
        """:meth:`SequenceTree.plan_of`, renumbered."""
        plan = np.zeros(self.sequences)
        plan[0] = 1.0
        for level in self.levels:
            for g in level.groups:
                acts = behaviour[g.base : g.end].reshape(g.k, g.n)
                plan[g.base : g.end].reshape(g.k, g.n)[:] = plan[g.parent] * acts
        return plan

    def renumber_rows(
        self, matrix: scipy.sparse.csr_matrix, columns: Layout
    ) -> scipy.sparse.csr_matrix:
        """``matrix`` (rows this player's sequences, columns ``columns``'s) renumbered on both
        sides, each row's entries in their original order."""
        indptr = matrix.indptr.astype(np.int64)
        old_of = np.empty(self.sequences, dtype=np.int64)
        old_of[self.new] = np.arange(self.sequences)
        length = np.diff(indptr)[old_of]
        new_ptr = np.zeros(self.sequences + 1, dtype=np.int64)
        np.cumsum(length, out=new_ptr[1:])
        take = np.repeat(indptr[old_of] - new_ptr[:-1], length) + np.arange(int(new_ptr[-1]))
        return scipy.sparse.csr_matrix(
            (matrix.data[take], columns.new[matrix.indices[take]], new_ptr),
            shape=matrix.shape,
        )


def _reduceat_sum(rows: FloatArray) -> FloatArray:
    """The sum over the first axis of a ``k × n`` array, column by column, in the order
    ``np.add.reduceat`` adds a block of ``k`` entries: the first plus the pairwise sum of
    the rest."""
    first: FloatArray = rows[0]
    if rows.shape[0] == 1:
        return first.copy()
    out: FloatArray = first + _pairwise([rows[j] for j in range(1, rows.shape[0])])
    return out


def _pairwise(terms: list[FloatArray]) -> FloatArray:
    """numpy's pairwise summation of ``terms`` (its ``pairwise_sum``): in order below eight
    terms; up to 128, eight partial sums over every eighth term, combined as
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the remainder in order;
    above 128, the two halves (the first a multiple of eight) summed apart."""
    m = len(terms)
    if m < 8:
        acc = terms[0].copy()
        for t in terms[1:]:
            acc += t
        return acc
    if m <= 128:
        r = [terms[j].copy() for j in range(8)]
        whole = m - m % 8
        for i in range(8, whole, 8):
            for j in range(8):
                r[j] += terms[i + j]
        acc = (r[0] + r[1]) + (r[2] + r[3])
        acc += (r[4] + r[5]) + (r[6] + r[7])
        for t in terms[whole:]:
            acc += t
        return acc
    half = m // 2
    half -= half % 8
    out: FloatArray = _pairwise(terms[:half]) + _pairwise(terms[half:])
    return out


def cfr_averages(
    own: SequenceTree,
    opp: SequenceTree,
    payoff: scipy.sparse.csr_matrix,
    pay_t: scipy.sparse.csr_matrix,
    iterations: int,
) -> tuple[FloatArray, FloatArray]:
    """Both players' average plans after ``iterations`` of CFR+ from uniform play (the LP
    player maximises ``xᵀ payoff y``; ``pay_t`` is ``payoff``'s transpose as CSR),
    normalised to 1 at the empty sequence, in the trees' own numbering."""
    lo, lp = Layout(own), Layout(opp)
    pay, pay_tr = lo.renumber_rows(payoff, lp), lp.renumber_rows(pay_t, lo)
    q_own, q_opp = np.zeros(own.sequences), np.zeros(opp.sequences)
    b_own, b_opp = lo.matched(q_own), lp.matched(q_opp)  # uniform behaviour
    y = lp.plan_of(b_opp)
    sum_x, sum_y = np.zeros(own.sequences), np.zeros(opp.sequences)
    for t in range(1, iterations + 1):
        r = lo.counterfactual_regret(pay @ y, b_own)
        q_own = np.maximum(q_own + r, 0.0)
        b_own = lo.matched(q_own)
        x = lo.plan_of(b_own)
        sum_x += t * x
        r = lp.counterfactual_regret(-(pay_tr @ x), b_opp)
        q_opp = np.maximum(q_opp + r, 0.0)
        b_opp = lp.matched(q_opp)
        y = lp.plan_of(b_opp)
        sum_y += t * y
    avg_x: FloatArray = (sum_x / sum_x[0])[lo.new]
    avg_y: FloatArray = (sum_y / sum_y[0])[lp.new]
    return avg_x, avg_y
