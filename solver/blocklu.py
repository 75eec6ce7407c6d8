"""A float LU of an LP basis matrix that first peels off its triangular parts.

A basis of the merged sequence-form LP (:mod:`~loveformal.solver.vertex`) is mostly
triangular: rows with a single entry (an equality row of one sequence, a best-response row of
one multiplier) and columns with a single entry fix one unknown each. SuperLU's orderings do
not see this, and they stall on the dense row and column that the empty sequences bring: on
the 2019 edition's benchmark endgame with 4 cards left, seed 4005 (29 k × 29 k, 87 k entries),
the minimum-degree orderings take 1.5–2.3 s and COLAMD fills L + U with 38 M entries. So, as
LP codes do (HiGHS's own basis factorization among them):

* **front**: repeatedly take a row with one entry among the columns left; its column is fixed
  by it. The rows and columns so taken form a lower triangular block, in the order taken;
* **back**: then repeatedly take a column with one entry among the rows left; its row is the
  only one that needs it. In the reverse of the order taken they form a lower triangular
  block too;
* **kernel**: what is left, factored by SuperLU (3.7 k × 3.7 k on seed 4005, 5 ms).

With rows and columns in the order front, kernel, back the matrix is block lower
triangular, so ``B z = r`` is solved block by block downward and ``Bᵀ w = c`` upward; the
triangular blocks are given to SuperLU in their own order (no fill).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse
import scipy.sparse.linalg

__all__ = ["BlockLU"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _peel(matrix: scipy.sparse.csc_matrix) -> tuple[list[int], list[int], list[int], list[int]]:
    """Front rows and columns (in order), back rows and columns (in the order taken)."""
    csc = matrix.tocsc()
    csr = matrix.tocsr()
    row_alive = np.ones(matrix.shape[0], dtype=bool)
    col_alive = np.ones(matrix.shape[1], dtype=bool)
    row_count = np.diff(csr.indptr).astype(np.int64)
    front_rows, front_cols = _singletons(csr, csc, row_alive, col_alive, row_count)
    # Column counts among the rows left.
    entry_col = np.repeat(np.arange(matrix.shape[1]), np.diff(csc.indptr))
    col_count = np.bincount(entry_col[row_alive[csc.indices]], minlength=matrix.shape[1])
    col_count = col_count.astype(np.int64)
    col_count[~col_alive] = 0
    back_cols, back_rows = _singletons(csc, csr, col_alive, row_alive, col_count)
    return front_rows, front_cols, back_rows, back_cols


ROUND_FROM = 8
"""Singletons at once from which a round pays: a round costs about 40 µs of numpy calls
whatever its size, a line taken on its own about 5 µs of Python."""


def _singletons(
    lines: scipy.sparse.spmatrix,
    across: scipy.sparse.spmatrix,
    line_alive: npt.NDArray[np.bool_],
    other_alive: npt.NDArray[np.bool_],
    count: IntArray,
) -> tuple[list[int], list[int]]:
    """Repeatedly take a line (row of a CSR ``lines``, or column of a CSC one) with one entry
    among the other lines left, and that entry's line of the other kind (``across``, the same
    matrix compressed the other way): both lists in the order taken. ``count`` holds each
    line's entries among the other lines left; the arrays are updated in place.

    In rounds while there are :data:`ROUND_FROM` such lines or more: every line with one
    entry left at the start of a round is taken in it (of two whose entry is in the same
    other line, the first; the second then has none left, as if taken one by one). A line's
    other entries lie in lines taken in earlier rounds, so the order of the rounds is a
    triangular order as the one-by-one order is. Then, for a chain that frees one line at a
    time, one by one."""
    taken: list[int] = []
    partners: list[int] = []
    ready = np.flatnonzero(line_alive & (count == 1))
    while ready.size >= ROUND_FROM:
        at, owner = _entries(lines, ready)
        other = lines.indices[at]
        live = other_alive[other]
        partner = np.empty(ready.size, dtype=np.int64)
        partner[owner[live]] = other[live]  # one live entry each (count 1)
        first = np.sort(np.unique(partner, return_index=True)[1])
        ready, partner = ready[first], partner[first]
        taken.extend(ready.tolist())
        partners.extend(partner.tolist())
        line_alive[ready] = False
        other_alive[partner] = False
        at, _ = _entries(across, partner)
        hit = across.indices[at].astype(np.int64)
        hit = hit[line_alive[hit]]
        np.subtract.at(count, hit, 1)
        ready = np.unique(hit[count[hit] == 1])
    stack = ready.tolist()
    while stack:
        i = stack.pop()
        if not line_alive[i] or count[i] != 1:
            continue
        others = lines.indices[lines.indptr[i] : lines.indptr[i + 1]]
        j = int(others[other_alive[others]][0])
        taken.append(i)
        partners.append(j)
        line_alive[i] = other_alive[j] = False
        hit = across.indices[across.indptr[j] : across.indptr[j + 1]]
        hit = hit[line_alive[hit]]
        count[hit] -= 1
        stack.extend(hit[count[hit] == 1].tolist())
    return taken, partners


def _entries(lines: scipy.sparse.spmatrix, which: IntArray) -> tuple[IntArray, IntArray]:
    """The positions in ``lines.indices`` of the entries of lines ``which`` (a compressed
    matrix's rows or columns), and each one's place in ``which``."""
    start = lines.indptr[which].astype(np.int64)
    size = lines.indptr[which + 1].astype(np.int64) - start
    owner = np.repeat(np.arange(which.shape[0], dtype=np.int64), size)
    offset = np.cumsum(size) - size
    at = np.arange(int(size.sum()), dtype=np.int64) - offset[owner] + start[owner]
    return at, owner


class BlockLU:
    """``B z = r`` and ``Bᵀ w = c`` for a square sparse ``B`` (module docstring). Raises
    ``RuntimeError`` (as SuperLU does) when a block is singular."""

    def __init__(self, matrix: scipy.sparse.spmatrix) -> None:
        n, m = matrix.shape
        if n != m:
            raise ValueError("BlockLU needs a square matrix")
        front_rows, front_cols, back_rows, back_cols = _peel(matrix)
        taken_rows = np.zeros(n, dtype=bool)
        taken_cols = np.zeros(n, dtype=bool)
        taken_rows[front_rows + back_rows] = True
        taken_cols[front_cols + back_cols] = True
        kernel_rows = np.flatnonzero(~taken_rows)
        kernel_cols = np.flatnonzero(~taken_cols)
        if len(kernel_rows) != len(kernel_cols):
            raise RuntimeError("structurally singular matrix")
        self.rows: list[IntArray] = [
            np.array(front_rows, dtype=np.int64),
            kernel_rows,
            np.array(back_rows[::-1], dtype=np.int64),
        ]
        self.cols: list[IntArray] = [
            np.array(front_cols, dtype=np.int64),
            kernel_cols,
            np.array(back_cols[::-1], dtype=np.int64),
        ]
        csr = scipy.sparse.csr_matrix(matrix)
        # blocks[a][b]: rows of part a, columns of part b (b ≤ a; the rest is empty).
        self.blocks = [[csr[r][:, c].tocsr() for c in self.cols] for r in self.rows]
        self.lus: list[Any] = [
            self._factor(self.blocks[0][0], triangular=True),
            self._factor(self.blocks[1][1], triangular=False),
            self._factor(self.blocks[2][2], triangular=True),
        ]
        self.n = n

    @staticmethod
    def _factor(block: scipy.sparse.csr_matrix, triangular: bool) -> Any:
        if block.shape[0] == 0:
            return None
        if triangular:  # in its own order: L is the block itself, no fill, no pivoting
            return scipy.sparse.linalg.splu(
                block.tocsc(), permc_spec="NATURAL", diag_pivot_thresh=0.0
            )
        return scipy.sparse.linalg.splu(block.tocsc(), permc_spec="MMD_ATA")

    def solve(self, r: FloatArray) -> FloatArray:
        """``z`` with ``B z = r``."""
        parts: list[FloatArray] = []
        for a in range(3):
            rhs = r[self.rows[a]].astype(np.float64)
            for b in range(a):
                if len(parts[b]):
                    rhs = rhs - self.blocks[a][b] @ parts[b]
            lu = self.lus[a]
            parts.append(lu.solve(rhs) if lu is not None else rhs)
        z = np.empty(self.n)
        for a in range(3):
            z[self.cols[a]] = parts[a]
        return z

    def solve_transposed(self, c: FloatArray) -> FloatArray:
        """``w`` with ``Bᵀ w = c``."""
        parts: list[FloatArray | None] = [None, None, None]
        for a in (2, 1, 0):
            rhs = c[self.cols[a]].astype(np.float64)
            for b in range(a + 1, 3):
                got = parts[b]
                if got is not None and len(got):
                    rhs = rhs - self.blocks[b][a].T @ got
            lu = self.lus[a]
            parts[a] = lu.solve(rhs, trans="T") if lu is not None else rhs
        w = np.empty(self.n)
        for a in range(3):
            got = parts[a]
            assert got is not None
            w[self.rows[a]] = got
        return w
