"""The exact vertex of a solved LP: the game value as a fraction, even where the certificate
of the float strategies leaves a bracket.

The LP (:mod:`~loveformal.solver.restricted`'s merged model) is solved in floats, and the
certificate (:mod:`~loveformal.solver.certify`) of the strategies made exact from those floats
closes its bracket only when the rounding recovered the equilibrium's fractions. On larger
endgames it often does not: before this module, 8 of the 12 classic benchmark endgames with
4 cards left, and all five with 5 that solve, had a bracket about 1e-17 wide and no exact
value. HiGHS's optimal *basis* is exact, though: the optimal vertex solves the square system
of the basic columns and the rows at their bounds, in the LP's exact data (the payoff sums
as integers over one denominator, :class:`~loveformal.solver.expectimax._Grouped`; the
opponent's rows scaled by it). This module solves that system, and its transpose for the
opponent's plan (the duals), in rationals:

* **numeric–symbolic iterative refinement** (Wan, "Exactly solve integer linear systems using
  numerical methods", J. Symbolic Comput. 2006): a float LU of the basis matrix
  (:class:`~loveformal.solver.blocklu.BlockLU`: its triangular parts peeled off) solves for
  ``d ≈ B⁻¹ r``; ``⌊2^s d⌉`` is appended to the solution's binary digits and the residual
  updated exactly in integers, ``r ← 2^s r − B ⌊2^s d⌉``, gaining ``s`` bits per round while
  the float solve is accurate to better than ``2^−s`` (:data:`STEP_BITS`);
* **rational reconstruction**: after each round, each coordinate is read as the fraction with
  the least denominator within its error (``B⁻¹r`` units of the digits' last place, which the
  next round's float solve estimates; one common denominator, grown as needed), and the
  candidate is **checked exactly**, ``B z = b`` in integers. Only a checked solution is
  returned.

The plans are read off the vertex as the float LP's are (columns, and the duals scaled so
that the opponent's empty sequence has weight 1). The caller checks them exactly to be
realization plans and certifies them on the whole game
(:func:`~loveformal.solver.certify.certify_plans`), so a closed bracket from them proves the
exact value whatever happened here. Anything that fails (a singular basis, a refinement that
stalls or passes :data:`MAX_BITS`, a check) leaves the float answer standing.

On the classic benchmark endgame with 5 cards left, seed 5005, the basis is 11.5 k × 11.5 k
with 28 k entries, and the two plans have denominators of 50 and 65 bits; seed 5001's is
16.8 k × 16.8 k with 61 k entries, and 451 and 282 bits (19 and 12 rounds).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import scipy.sparse

from .blocklu import BlockLU
from .certify import Plan
from .restricted import BASIC, RestrictedModel

__all__ = ["MAX_BITS", "exact_plans"]

ObjArray = npt.NDArray[np.object_]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

STEP_BITS = (32, 16)
"""Bits gained per refinement round, tried in turn: the float solve must be accurate to better
than ``2^−s`` (on the benchmark endgames 32 works; a refinement that stalls is tried again
with 16)."""
MAX_BITS = 8_000
"""Refinement stops (None: no exact vertex) past this many bits of each coordinate (the
benchmark endgames' vertices need a few hundred bits)."""
STALL_BITS = 12
"""A residual this many bits above its steady level stops the refinement (:func:`_refine`)."""
MAX_DENOMINATOR_BITS = 900
"""Payoff denominators longer than this are not tried (their floats would overflow; only
priors with large, coprime weights make them: the float answer stands)."""


class _Sparse:
    """An exact integer sparse matrix (object entries) for products with integer vectors."""

    def __init__(self, rows: IntArray, cols: IntArray, vals: ObjArray, shape: tuple[int, int]):
        self.shape = shape
        order = np.lexsort((cols, rows))
        rows, cols, vals = rows[order], cols[order], vals[order]
        # Sum duplicates exactly.
        key = rows * shape[1] + cols
        first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else key
        summed = np.add.reduceat(vals, first) if len(vals) else vals
        keep = np.array([v != 0 for v in summed.tolist()], dtype=bool)
        self.rows, self.cols = rows[first][keep], cols[first][keep]
        self.vals: ObjArray = summed[keep]

    def row_sum_bits(self) -> int:
        """Bits of the largest row sum of absolute values (the residual's steady level)."""
        if not len(self.vals):
            return 0
        starts = np.flatnonzero(np.r_[True, self.rows[1:] != self.rows[:-1]])
        sums = np.add.reduceat(np.abs(self.vals), starts)
        return int(max(sums.tolist())).bit_length()

    def sub(self, rows: IntArray, cols: IntArray) -> _Sparse:
        """The submatrix of ``rows`` × ``cols`` (both index arrays, renumbered in order)."""
        r_at = np.full(self.shape[0], -1, dtype=np.int64)
        r_at[rows] = np.arange(len(rows))
        c_at = np.full(self.shape[1], -1, dtype=np.int64)
        c_at[cols] = np.arange(len(cols))
        keep = (r_at[self.rows] >= 0) & (c_at[self.cols] >= 0)
        return _Sparse(
            r_at[self.rows[keep]], c_at[self.cols[keep]], self.vals[keep], (len(rows), len(cols))
        )

    def transposed(self) -> _Sparse:
        return _Sparse(self.cols, self.rows, self.vals, (self.shape[1], self.shape[0]))

    def times(self, z: ObjArray) -> ObjArray:
        """``M z`` exactly (``z`` integers)."""
        out = np.zeros(self.shape[0], dtype=object)
        if len(self.vals):
            prod = self.vals * z[self.cols]
            starts = np.flatnonzero(np.r_[True, self.rows[1:] != self.rows[:-1]])
            out[self.rows[starts]] = np.add.reduceat(prod, starts)
        return out

    def floats(self, row_scale: FloatArray) -> scipy.sparse.csc_matrix:
        """The matrix in floats, row ``i`` divided by ``row_scale[i]``."""
        data = np.array([float(v) for v in self.vals.tolist()]) / row_scale[self.rows]
        return scipy.sparse.csc_matrix((data, (self.rows, self.cols)), shape=self.shape)


def _solve(
    matrix: _Sparse, solve: Callable[[FloatArray], FloatArray], b: ObjArray
) -> tuple[ObjArray, int] | None:
    """Integers ``num`` and a denominator ``den`` with ``matrix · num = b · den`` exactly, by
    refinement and reconstruction (module docstring); ``solve`` approximates the inverse in
    floats. None when the refinement stalls or passes :data:`MAX_BITS` at every step of
    :data:`STEP_BITS`."""
    for step in STEP_BITS:
        got = _refine(matrix, solve, b, step)
        if got is not None:
            return got
    return None


def _refine(
    matrix: _Sparse, solve: Callable[[FloatArray], FloatArray], b: ObjArray, step: int
) -> tuple[ObjArray, int] | None:
    """:func:`_solve` with ``step`` bits per round.

    While the float solve is accurate enough the residual stays at the level rounding the
    digits leaves, at most half the largest row sum of absolute values (or at the right-hand
    side's, if larger); a residual :data:`STALL_BITS` above that level means it is not (a
    singular or ill-conditioned basis, or a wrong float solve), and the refinement stops.
    (The first round's residual is no measure: where the solution is far below one unit,
    its digits are all 0 and the residual is the right-hand side, scaled.)"""
    n = matrix.shape[1]
    digits = np.zeros(n, dtype=object)
    r = b.copy()
    scale = 1 << step
    bits = 0
    big = max(max((abs(v) for v in b.tolist()), default=0), 1)  # the residual's largest
    level = max(matrix.row_sum_bits(), big.bit_length())
    while bits < MAX_BITS:
        shift = max(big.bit_length() - 60, 0)  # floats of the residual, scaled into range
        rf = np.array([float(v >> shift) if shift else float(v) for v in r.tolist()])
        d = solve(rf) * float(scale)
        if not np.all(np.isfinite(d)):
            return None
        if bits:
            # The digits so far are off by B⁻¹r units of their last place, about d / 2^step:
            # read them as fractions within that (the exact check decides).
            slack = (1 << 8) + 2 * (int(np.abs(d).max(initial=0.0)) << shift >> step)
            got = _reconstruct(digits, bits, slack)
            if got is not None and np.all(matrix.times(got[0]) == b * got[1]):
                return got
        d_int = np.array([int(v) << shift for v in np.rint(d).tolist()], dtype=object)
        digits = digits * scale + d_int
        r = r * scale - matrix.times(d_int)
        bits += step
        now = max((abs(v) for v in r.tolist()), default=0)
        if now == 0:
            return digits, 1 << bits
        if now.bit_length() > level + STALL_BITS:
            return None
        big = now
    return None


def _reconstruct(digits: ObjArray, bits: int, slack: int) -> tuple[ObjArray, int] | None:
    """Each ``digits[i] / 2**bits``, good to ``slack`` units of its last place, read as the
    fraction of least denominator that near, over one common denominator; None if some
    coordinate would need a denominator too long for the digits to decide it
    (``2·slack·q² ≥ 2**bits``)."""
    limit = max(math.isqrt((1 << bits) // (2 * slack)), 1)
    half = 1 << (bits - 1)
    common = 1
    out: list[int] = []
    for v in digits.tolist():
        scaled = v * common
        near = (scaled + half) >> bits
        if abs(scaled - (near << bits)) <= slack * common:
            out.append(near)  # already a multiple of 1 / common
            continue
        f = Fraction(v, 1 << bits).limit_denominator(limit)
        if abs(f.numerator * (1 << bits) - v * f.denominator) > slack * f.denominator:
            return None
        grow = f.denominator // math.gcd(f.denominator, common)
        common *= grow
        if common > limit:
            return None
        out = [w * grow for w in out]
        out.append(f.numerator * (common // f.denominator))
    return np.array(out, dtype=object), common


def exact_plans(
    model: RestrictedModel, exact_pay: ObjArray, denominator: int
) -> tuple[Plan, Plan] | None:
    """The LP player's and the opponent's realization plans (over all their sequences, 0
    outside the model; integers over a denominator) at the exact vertex of ``model``'s
    optimal basis, or None (module docstring). ``exact_pay`` holds the payoff matrix's
    entries in the order ``model`` was given them, as integers over ``denominator``. The
    plans are not checked here: :func:`~loveformal.solver.certify.certify_plans` does."""
    lp = model.lp
    if lp is None or denominator.bit_length() > MAX_DENOMINATOR_BITS:
        return None
    basis = model.read_basis()
    if basis is None:
        return None
    col_basic, row_basic = basis[0] == BASIC, basis[1] == BASIC
    rows, cols, vals, shape = model.triplets(lp, exact_pay, denominator)
    if len(col_basic) != shape[1] or len(row_basic) != shape[0]:
        return None
    at_bound = np.flatnonzero(~row_basic)
    basic = np.flatnonzero(col_basic)
    if len(at_bound) != len(basic):
        return None
    square = _Sparse(rows, cols, vals, shape).sub(at_bound, basic)
    nx, ny = len(lp.cols_x), len(lp.rows_y)
    scale = np.where(at_bound < ny, float(denominator), 1.0)
    try:
        lu = BlockLU(square.floats(scale))
    except RuntimeError:  # singular in floats
        return None
    # Rows at their bound: the opponent's rows at 0, the equalities at 0 but x_∅ = 1.
    rhs = np.zeros(len(at_bound), dtype=object)
    rhs[at_bound == ny] = 1
    primal = _solve(square, lambda v: lu.solve(v / scale), rhs)
    if primal is None:
        return None
    # The duals: Bᵀ π = c_B, the cost −1 at q_0 (the first multiplier column), scaled by the
    # denominator: the opponent's rows are scaled by it, so their duals are the opponent's
    # plan over it, and would be far below one unit (hard to refine) with the cost unscaled.
    # The plan is proportional to them on its rows (0 on the rows not at their bound).
    cost = np.zeros(len(basic), dtype=object)
    cost[basic == nx] = -denominator
    dual = _solve(square.transposed(), lambda v: lu.solve_transposed(v) / scale, cost)
    if dual is None:
        return None
    values = np.zeros(shape[1], dtype=object)
    values[basic] = primal[0]
    duals = np.zeros(shape[0], dtype=object)
    duals[at_bound] = dual[0]
    x_rep, y_rep = values[:nx], duals[:ny]
    # The empty sequence is its own representative, the first of each side.
    y_den = y_rep[0] if ny and lp.rows_y[0] == 0 else 0
    if not y_den:
        return None
    if y_den < 0:
        y_rep, y_den = -y_rep, -y_den
    return (
        _spread(x_rep, lp.cols_x, lp.rep_own, model.n_own, primal[1]),
        _spread(y_rep, lp.rows_y, lp.rep_opp, model.n_opp, y_den),
    )


def _spread(rep_values: ObjArray, keys: IntArray, rep: IntArray, size: int, den: int) -> Plan:
    """A plan over all ``size`` sequences from its representatives' values (``keys`` the
    representatives, sorted; ``rep`` each sequence's, −1 outside the model)."""
    at = np.full(size, -1, dtype=np.int64)
    at[keys] = np.arange(len(keys))
    out = np.zeros(size, dtype=object)
    on = rep >= 0
    out[on] = rep_values[at[rep[on]]]
    return out.tolist(), den
