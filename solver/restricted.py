"""The restricted LP of :mod:`~loveformal.solver.oracle` as a HiGHS model, with every chain of
single-action sequences merged into one column (one row), rebuilt on each growth and started
from the previous model's basis.

**The LP.** The LP player's plan ``x`` (one column per own sequence, ``x ≥ 0``) and one free
multiplier ``q_J`` per opponent information set ``J`` whose parent sequence is selected (and
``q_0`` for the opponent's root, the objective ``max q_0``); one row ``q_{I(σ)} − Σ_{J below σ}
q_J ≤ (Aᵀx)_σ`` per selected opponent sequence ``σ``, and one row ``Σ_{σ ∈ I} x_σ = x_{parent(I)}``
per own information set whose parent is selected (``x_∅ = 1``). This is the LP of the game in
which both players are limited to the selected actions (:mod:`~loveformal.solver.seqform`).

**The merge.** In a restricted game most information sets have one selected action. Where the
LP player's information set ``I`` has one, ``x_σ = x_{parent(I)}``: ``σ``'s column is added to
its parent's and ``I``'s row dropped. Where the opponent's ``J`` has one, its only row is
``q_J ≤ (Aᵀx)_σ + Σ q_K``, and ``q_J`` occurs elsewhere only in its parent's row, with
coefficient −1, where a larger ``q_J`` only helps: at the optimum the row is tight, so it is
added to its parent's row and ``q_J`` dropped (Fourier–Motzkin elimination of one variable
between two rows: exact). Chains merge the same way, each sequence into the nearest ancestor
sequence (the *representative*) at an information set with a choice left (or the empty
sequence). The plans are read back through the representatives: ``x_σ`` is its
representative's column, ``y_σ`` its representative row's dual. An information set of a
selected parent with no selected action keeps its row (``x_{parent} = 0``) or its multiplier
(unbounded: HiGHS reports it and the caller solves the whole LP), as in the LP unmerged.

**The basis carried over.** A growth adds sequences, so every column and row of the old model
is a column or row of the new one (with fewer members where a chain split) or went away
with nothing; new ones start as follows, which keeps the old optimum optimal in the new model
(before the new sequences themselves are priced):

* a chain split where an own information set gained an action: the sequence it had becomes a
  basic column and the new equality row is nonbasic (the merge undone with the same values);
  an opponent's information set that gained an action: its ``q`` basic, the row of the action
  it had nonbasic at its bound (the elimination undone with the row tight);
* new sequences: own columns nonbasic at 0, opponent rows basic (slack), new multipliers
  nonbasic at 0 (they occur only in new rows: every new sequence's representative is new),
  new equality rows basic.

Measured on the classic benchmark endgame with 5 cards left (seed 5001): the last restricted
LP has 50 k rows and 56 k columns unmerged and 31 k × 37 k merged; HiGHS's time over the
whole growth fell from 19 s (31.6 k simplex iterations) to 8–10 s (22.8 k), for 2–3 s of
rebuilding (:mod:`~loveformal.solver.oracle` has the totals).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import highspy
import numpy as np
import numpy.typing as npt
import scipy.sparse

if TYPE_CHECKING:
    from .oracle import SequenceTree

__all__ = ["RestrictedModel", "pass_lp"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
_INF = highspy.kHighsInf
_S = highspy.HighsBasisStatus
_STATUS = [_S.kLower, _S.kBasic, _S.kUpper, _S.kZero, _S.kNonbasic]
LOWER, BASIC, UPPER, ZERO = 0, 1, 2, 3
"""HiGHS basis statuses by number (``HighsBasisStatus``)."""
CANCELLED = 1e-15
"""A merged payoff entry this small is the rounding left where members' payoffs cancel (every
entry is a probability times a utility, at least 1e-6 in the benchmark endgames)."""


class Tree:
    """What the merge needs of one player's sequence tree
    (:class:`~loveformal.solver.oracle.SequenceTree`): its rows (row 0 the empty sequence's,
    row ``r ≥ 1`` information set ``r − 1``), each row's parent sequence, its levels (top-down:
    rows, sequences, starts, segment) and each sequence's row."""

    def __init__(self, tree: SequenceTree) -> None:
        self.rows: int = tree.rows
        self.sequences: int = tree.sequences
        self.parent: IntArray = tree.parent
        self.levels: list[tuple[IntArray, IntArray, IntArray, IntArray]] = tree.levels
        self.row_of: IntArray = tree.row_of
        """Each sequence's information-set row (0 for the empty sequence)."""

    def merge(self, selected: BoolArray) -> tuple[IntArray, BoolArray]:
        """Each sequence's representative (−1 where not selected or below an unselected
        sequence), and the rows that keep a row or multiplier of their own: row 0 and every
        information set of a selected parent whose selected actions are not exactly one."""
        rep = np.full(self.sequences, -1, dtype=np.int64)
        rep[0] = 0
        own_row = np.zeros(self.rows, dtype=np.bool_)
        own_row[0] = True
        for rows, seqs, starts, segment in self.levels:
            parent_rep = rep[self.parent[rows]]
            live = parent_rep >= 0
            chosen = selected[seqs] & live[segment]
            count = np.add.reduceat(chosen.astype(np.int64), starts)
            choice = count != 1
            own_row[rows] = live & choice
            rep[seqs] = np.where(chosen, np.where(choice[segment], seqs, parent_rep[segment]), -1)
        return rep, own_row


@dataclass(frozen=True)
class _Lp:
    """One merged restricted LP: which sequences and rows its columns and rows stand for."""

    cols_x: IntArray
    """Own representatives (sorted), a column each, then ..."""
    cols_q: IntArray
    """... opponent rows with a multiplier (sorted, row 0 first), a free column each."""
    rows_y: IntArray
    """Opponent representatives (sorted), a ``≤ 0`` row each, then ..."""
    rows_e: IntArray
    """... own rows with an equality (sorted, row 0 first: ``x_∅ = 1``)."""
    rep_own: IntArray
    rep_opp: IntArray
    own_selected: BoolArray
    opp_selected: BoolArray


def _index(keys: IntArray, size: int) -> IntArray:
    out = np.full(size, -1, dtype=np.int64)
    out[keys] = np.arange(len(keys))
    return out


def pass_lp(
    h: Any,
    cost: FloatArray,
    col_lower: FloatArray,
    col_upper: FloatArray,
    row_lower: FloatArray,
    row_upper: FloatArray,
    matrix: scipy.sparse.csc_matrix,
) -> Any:
    """Pass the LP ``min costᵀx`` s.t. ``row_lower ≤ matrix·x ≤ row_upper``, ``col_lower ≤ x ≤
    col_upper`` to the HiGHS instance ``h``, every column continuous: HiGHS's status
    (``HighsStatus``: ``kWarning`` when it dropped tiny entries, ``kError`` if it refused).

    It goes through highspy's ``passModel`` overload that takes numpy arrays (read through
    the buffer protocol, as one block each). The fields of a ``HighsLp`` are converted entry
    by entry instead: on a restricted LP of 25 k rows, 25 k columns and 125 k entries, filling
    one took 24 ms and passing the arrays 3 ms. That overload also takes each column's
    integrality; all are ``kContinuous`` (0), so HiGHS solves it as an LP."""
    n_col = matrix.shape[1]
    status = h.passModel(
        n_col,
        matrix.shape[0],
        matrix.nnz,
        int(highspy.MatrixFormat.kColwise),
        int(highspy.ObjSense.kMinimize),
        0.0,
        cost,
        col_lower,
        col_upper,
        row_lower,
        row_upper,
        matrix.indptr.astype(np.int32),
        matrix.indices.astype(np.int32),
        matrix.data.astype(np.float64),
        np.zeros(n_col, dtype=np.int32),
    )
    return status


class RestrictedModel:
    """The merged restricted LP in one HiGHS instance (module docstring). ``payoff`` is the LP
    player's payoff matrix (own × opponent sequences)."""

    def __init__(
        self, highs: Any, own: SequenceTree, opp: SequenceTree, payoff: scipy.sparse.csr_matrix
    ) -> None:
        self.h = highs
        self.own, self.opp = Tree(own), Tree(opp)
        coo = payoff.tocoo()
        self.pay_own = coo.row.astype(np.int64)
        self.pay_opp = coo.col.astype(np.int64)
        self.pay_val = coo.data.astype(np.float64)
        self.lp: _Lp | None = None
        self.held: IntArray = np.empty(0, dtype=np.int64)
        self.n_own, self.n_opp = own.sequences, opp.sequences
        self.basis = BasisTransfer()

    def selected(self) -> tuple[int, int]:
        """Sequences the model holds (LP player, opponent)."""
        if self.lp is None:
            return 0, 0
        return int((self.lp.rep_own >= 0).sum()), int((self.lp.rep_opp >= 0).sum())

    def grow(self, own_sel: BoolArray, opp_sel: BoolArray, hold: bool = False) -> int | None:
        """Rebuild the model for the new selection (a superset of the last), its basis carried
        over: how many sequences were added (None if HiGHS refuses the model or basis). With
        ``hold``, the LP player's new columns are fixed at 0 until :meth:`release`: the
        carried basis then stays dual feasible (the opponent's new rows are all it has to
        mend, a dual simplex's work)."""
        old = self.lp
        rep_own, e_row = self.own.merge(own_sel)
        rep_opp, q_row = self.opp.merge(opp_sel)
        added = int((rep_own >= 0).sum()) + int((rep_opp >= 0).sum()) - sum(self.selected())
        if old is not None and added == 0:
            return 0
        lp = _Lp(
            cols_x=np.flatnonzero(rep_own == np.arange(self.n_own)),
            cols_q=np.flatnonzero(q_row),
            rows_y=np.flatnonzero(rep_opp == np.arange(self.n_opp)),
            rows_e=np.flatnonzero(e_row),
            rep_own=rep_own,
            rep_opp=rep_opp,
            own_selected=rep_own >= 0,
            opp_selected=rep_opp >= 0,
        )
        basis = None
        if old is not None:
            got = self.read_basis()
            if got is not None:
                basis = _carried(old, *got, lp, self.own, self.opp)
        held: IntArray = np.empty(0, dtype=np.int64)
        if hold and old is not None:
            held = np.flatnonzero(~old.own_selected[lp.cols_x])
        if not self.pass_to(self.h, lp, held):
            return None
        if basis is not None and not self.basis.write(self.h, *basis):
            return None
        self.lp = lp
        self.held = held
        return added

    def read_basis(self) -> tuple[IntArray, IntArray] | None:
        """The basis HiGHS holds for the model as column and row status numbers (None if it
        holds no valid one).

        Every nonbasic status of this LP follows from the variable's bounds, so only which
        variables are basic needs reading, and HiGHS gives that as an array
        (``getBasicVariables``; about 1.5 ms on a 25 k × 25 k restricted LP, against 20 ms
        for writing and reading the basis file): a column ``x ≥ 0`` at its lower bound, a
        free multiplier at zero, an opponent's row ``≤ 0`` at its upper bound, and an
        equality row (fixed) at its upper bound where its dual is positive, else its lower
        bound, as HiGHS reports them. While columns are held at 0 (fixed), or where HiGHS
        does not give the basic variables, the basis goes through :attr:`basis` instead.
        ``tests/solver/test_restricted.py`` checks it against the basis file on every
        growth of an endgame's LP."""
        lp = self.lp
        if lp is None or len(self.held):
            return self.basis.read(self.h)
        got = _derived_basis(self.h, len(lp.cols_x), len(lp.cols_q), len(lp.rows_y), len(lp.rows_e))
        return got if got is not None else self.basis.read(self.h)

    def release(self) -> int | None:
        """Free the columns :meth:`grow` held at 0 (the basis stays primal feasible: a primal
        simplex's work): how many (None if HiGHS refuses)."""
        held, self.held = self.held, np.empty(0, dtype=np.int64)
        if len(held):
            status = self.h.changeColsBounds(
                len(held), held.astype(np.int32), np.zeros(len(held)), np.full(len(held), _INF)
            )
            if status != highspy.HighsStatus.kOk:
                return None
        return len(held)

    def triplets(
        self, lp: _Lp, pay_val: npt.NDArray[Any], unit: object = 1.0
    ) -> tuple[IntArray, IntArray, npt.NDArray[Any], tuple[int, int]]:
        """The merged matrix of ``lp`` as (row, column, value) triplets, duplicates unsummed,
        and its shape: the payoff values ``pay_val`` (one per entry of the payoff matrix, as
        given to the constructor; floats, or integers for an exact solve), ``unit`` the
        multipliers' coefficient in the opponent's rows (1, or the integers' denominator)."""
        own, opp = self.own, self.opp
        ix = _index(lp.cols_x, self.n_own)
        iq = _index(lp.cols_q, opp.rows)
        iy = _index(lp.rows_y, self.n_opp)
        ie = _index(lp.rows_e, own.rows)
        nx, nq, ny, ne = len(lp.cols_x), len(lp.cols_q), len(lp.rows_y), len(lp.rows_e)
        # The payoff between representatives: the sum over their members (duplicates are
        # summed by the caller).
        pay_own, pay_opp = self.pay_own, self.pay_opp
        both = lp.own_selected[pay_own] & lp.opp_selected[pay_opp]
        p_row = iy[lp.rep_opp[pay_opp[both]]]
        p_col = ix[lp.rep_own[pay_own[both]]]
        p_val = -pay_val[both]
        # Opponent rows: −payoff, +1 at the own information set's q, −1 at each q below.
        top = lp.cols_q[1:]
        ones = np.full(ny, unit, dtype=pay_val.dtype)
        y_rows = np.concatenate([p_row, np.arange(ny), iy[lp.rep_opp[opp.parent[top]]]])
        y_cols = np.concatenate([p_col, nx + iq[opp.row_of[lp.rows_y]], nx + iq[top]])
        y_vals = np.concatenate([p_val, ones, -np.full(len(top), unit, dtype=pay_val.dtype)])
        # Own equality rows: +1 at each representative of the set, −1 at the parent's.
        members = lp.cols_x[1:]
        below = lp.rows_e[1:]
        e_rows = ny + np.concatenate([[0], ie[own.row_of[members]], ie[below]])
        e_cols = np.concatenate([[ix[0]], ix[members], ix[lp.rep_own[own.parent[below]]]])
        e_vals = np.concatenate(
            [[1], np.ones(len(members), np.int64), -np.ones(len(below), np.int64)]
        )
        return (
            np.concatenate([y_rows, e_rows]).astype(np.int64),
            np.concatenate([y_cols, e_cols]).astype(np.int64),
            np.concatenate([y_vals, e_vals.astype(pay_val.dtype)]),
            (ny + ne, nx + nq),
        )

    def pass_to(self, h: Any, lp: _Lp, held: IntArray) -> bool:
        """Pass the merged LP of ``lp`` to the HiGHS instance ``h`` (columns ``held`` fixed at
        0): whether HiGHS took it."""
        nx, nq, ny, ne = len(lp.cols_x), len(lp.cols_q), len(lp.rows_y), len(lp.rows_e)
        rows, cols, vals, shape = self.triplets(lp, self.pay_val)
        matrix = scipy.sparse.csc_matrix((vals, (rows, cols)), shape=shape)
        matrix.sum_duplicates()
        # Members whose payoffs cancel leave float dust (1e-19), which HiGHS would drop with
        # a warning: drop it here.
        matrix.data[np.abs(matrix.data) <= CANCELLED] = 0.0
        matrix.eliminate_zeros()
        cost = np.zeros(nx + nq)
        cost[nx] = -1.0  # maximise q_0 (row 0 is the first multiplier)
        col_upper = np.full(nx + nq, _INF)
        col_upper[held] = 0.0
        lower = np.concatenate([np.full(ny, -_INF), np.zeros(ne)])
        upper = np.zeros(ny + ne)
        lower[ny] = upper[ny] = 1.0
        col_lower = np.concatenate([np.zeros(nx), np.full(nq, -_INF)])
        status = pass_lp(h, cost, col_lower, col_upper, lower, upper, matrix)
        return bool(status == highspy.HighsStatus.kOk)

    def tighten(self) -> None:
        """Feasibility tolerances of 1e-10 (HiGHS's default is 1e-7) for every later run."""
        self.h.setOptionValue("primal_feasibility_tolerance", 1e-10)
        self.h.setOptionValue("dual_feasibility_tolerance", 1e-10)

    def run(self, cold: bool, strategy: int) -> tuple[float, FloatArray, FloatArray] | None:
        """Solve the model with the simplex ``strategy`` (from its basis unless ``cold``): the
        objective and both plans over all sequences, or None if HiGHS reports no optimum even
        from scratch."""
        h, lp = self.h, self.lp
        assert lp is not None
        h.setOptionValue("simplex_strategy", strategy)
        if cold:
            self.tighten()
            h.clearSolver()
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            h.clearSolver()  # a cold restart before giving up
            h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        sol = h.getSolution()
        nx, ny = len(lp.cols_x), len(lp.rows_y)
        col = np.clip(np.asarray(sol.col_value, dtype=np.float64)[:nx], 0.0, None)
        dual = np.clip(-np.asarray(sol.row_dual, dtype=np.float64)[:ny], 0.0, None)
        x = np.zeros(self.n_own)
        on = lp.own_selected
        x[on] = col[_index(lp.cols_x, self.n_own)[lp.rep_own[on]]]
        y = np.zeros(self.n_opp)
        on = lp.opp_selected
        y[on] = dual[_index(lp.rows_y, self.n_opp)[lp.rep_opp[on]]]
        return float(h.getInfo().objective_function_value), x, y


def _derived_basis(h: Any, nx: int, nq: int, ny: int, ne: int) -> tuple[IntArray, IntArray] | None:
    """:meth:`RestrictedModel.read_basis` from the basic variables and the row duals (None
    where HiGHS holds no valid basis, or does not give the basic variables or row duals)."""
    if h.getInfo().basis_validity != 1:  # kBasisValidityValid
        return None
    status, basic = h.getBasicVariables()
    basic = np.asarray(basic, dtype=np.int64)
    if status != highspy.HighsStatus.kOk or basic.shape != (ny + ne,):
        return None
    solution = h.getSolution()
    dual = np.asarray(solution.row_dual, dtype=np.float64)
    if not solution.dual_valid or dual.shape != (ny + ne,):
        return None
    dual = dual[ny:]
    cols = np.concatenate([np.full(nx, LOWER), np.full(nq, ZERO)]).astype(np.int64)
    rows = np.concatenate([np.full(ny, UPPER), np.where(dual > 0, UPPER, LOWER)]).astype(np.int64)
    cols[basic[basic >= 0]] = BASIC
    rows[-1 - basic[basic < 0]] = BASIC
    return cols, rows


def _carried(
    old: _Lp, cols: IntArray, rows: IntArray, new: _Lp, own: Tree, opp: Tree
) -> tuple[IntArray, IntArray]:
    """The new model's starting basis (column and row statuses) from the old model's
    (module docstring)."""
    nx, ny = len(old.cols_x), len(old.rows_y)
    was_live_q = old.opp_selected[opp.parent[new.cols_q]]
    was_live_e = old.own_selected[own.parent[new.rows_e]]
    was_live_q[new.cols_q == 0] = True
    was_live_e[new.rows_e == 0] = True
    parts = [
        _carry(
            old.cols_x, cols[:nx], new.cols_x, np.where(old.own_selected[new.cols_x], BASIC, LOWER)
        ),
        _carry(old.cols_q, cols[nx:], new.cols_q, np.where(was_live_q, BASIC, ZERO)),
        _carry(
            old.rows_y, rows[:ny], new.rows_y, np.where(old.opp_selected[new.rows_y], UPPER, BASIC)
        ),
        _carry(old.rows_e, rows[ny:], new.rows_e, np.where(was_live_e, LOWER, BASIC)),
    ]
    return np.concatenate(parts[:2]), np.concatenate(parts[2:])


class BasisTransfer:
    """Reads and sets a HiGHS instance's basis as arrays of status numbers.

    ``HighsBasis``'s status lists cost about half a microsecond an entry to read (highspy
    makes a Python enum object for each) and to fill, a few hundred milliseconds over the
    grown LP of a slow endgame. A basis file (HiGHS's ``writeBasis``/``readBasis``, format
    v2: a header, ``Valid`` (``None`` for no valid basis), ``# Columns N``, one ``name
    status`` line per column, ``# Rows M``, one per row) carries the same numbers in a few
    milliseconds. Whatever the file route cannot do exactly (another format or size, a
    refused read, a failed write) is done through ``HighsBasis`` instead, for the rest of
    this transfer's life.

    Reading gives exactly ``getBasis``'s statuses. Setting differs in one way:
    ``readBasis`` takes the statuses as they are, where ``setBasis`` of a ``HighsBasis``
    (an "alien" basis) first factorises it, repairs it if singular, and accepts a wrong
    number of basic variables. ``readBasis`` refuses that last case, which then goes through
    ``HighsBasis``; a singular basis would be repaired by the simplex as it starts instead.
    On the slow endgames measured the simplex takes the same iterations either way, and the
    solves are the same (``docs/solver.md``).

    Reading goes through :meth:`RestrictedModel.read_basis` first, which derives the basis
    from HiGHS's basic variables without a file; this reads it only where that cannot.

    The file this writes names every column ``x``. HiGHS reads names only against a model's
    own: ``writeBasis`` names an unnamed model's columns and rows, but each growth passes a
    new, unnamed model (:meth:`RestrictedModel.grow`), which takes the file. A named model
    refuses it, and the ``HighsBasis`` route takes over."""

    def __init__(self) -> None:
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self.by_file = True
        """False once the file route failed: ``HighsBasis`` from then on."""

    @property
    def _path(self) -> str:
        """The basis file (its directory made at first use, removed with this transfer)."""
        if self._dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix="loveformal-basis-")
        return os.path.join(self._dir.name, "basis.txt")

    def read(self, h: Any) -> tuple[IntArray, IntArray] | None:
        """The basis's column and row statuses (None if HiGHS holds no valid basis)."""
        if self.by_file:
            try:
                got = self._read_file(h)
            except OSError:
                got = None
            if got is not None:
                valid, cols, rows = got
                return (cols, rows) if valid else None
            self.by_file = False
        basis = h.getBasis()
        if not basis.valid:
            return None
        cols = np.array([s.value for s in basis.col_status], dtype=np.int64)
        rows = np.array([s.value for s in basis.row_status], dtype=np.int64)
        return cols, rows

    def write(self, h: Any, cols: IntArray, rows: IntArray) -> bool:
        """Set the basis from status numbers (False if HiGHS refuses it)."""
        if self.by_file:
            lines = np.empty((len(cols) + len(rows), 4), dtype=np.uint8)
            lines[:] = np.frombuffer(b"x 0\n", dtype=np.uint8)
            lines[:, 2] += np.concatenate([cols, rows]).astype(np.uint8)
            body = lines.tobytes()
            head = b"HiGHS_basis_file v2\nValid\n# Columns %d\n" % len(cols)
            try:
                with open(self._path, "wb") as f:
                    f.write(head + body[: 4 * len(cols)])
                    f.write(b"# Rows %d\n" % len(rows) + body[4 * len(cols) :])
                taken = h.readBasis(self._path) == highspy.HighsStatus.kOk
            except OSError:
                taken = False
            if taken:
                return True
            self.by_file = False  # a refused read leaves HiGHS's basis as it was
        out = highspy.HighsBasis()
        out.col_status = [_STATUS[s] for s in cols.tolist()]
        out.row_status = [_STATUS[s] for s in rows.tolist()]
        out.valid = True
        return bool(h.setBasis(out) == highspy.HighsStatus.kOk)

    def _read_file(self, h: Any) -> tuple[bool, IntArray, IntArray] | None:
        """Whether the basis is valid, and its statuses, through a basis file; None when
        the file is not what this reads."""
        n_cols, n_rows = h.getNumCol(), h.getNumRow()
        if h.writeBasis(self._path) == highspy.HighsStatus.kError:
            return None
        with open(self._path, "rb") as f:
            text = f.read()
        buf = np.frombuffer(text, dtype=np.uint8)
        ends = np.flatnonzero(buf == ord("\n"))
        starts = np.concatenate([[0], ends[:-1] + 1])
        if len(ends) < 2 or not text.startswith(b"HiGHS_basis_file v2\n"):
            return None
        second = text[starts[1] : ends[1]]
        if second == b"None" and len(ends) == 2:
            return False, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        if second != b"Valid" or len(ends) != 4 + n_cols + n_rows:
            return None
        rows_at = 3 + n_cols
        if (
            text[starts[2] : ends[2]] != b"# Columns %d" % n_cols
            or text[starts[rows_at] : ends[rows_at]] != b"# Rows %d" % n_rows
        ):
            return None
        lines = np.concatenate([np.arange(3, rows_at), np.arange(rows_at + 1, len(ends))])
        status = buf[ends[lines] - 1].astype(np.int64) - ord("0")
        # Each status line ends in a space and one digit that is a status.
        if np.any(buf[ends[lines] - 2] != ord(" ")) or np.any((status < 0) | (status > 4)):
            return None
        return True, status[:n_cols], status[n_cols:]


def _carry(
    old_keys: IntArray, old_status: IntArray, new_keys: IntArray, default: IntArray
) -> IntArray:
    """``default`` with each key the old model had given its old status (keys sorted)."""
    out = default.astype(np.int64, copy=True)
    if len(old_keys):
        at = np.minimum(np.searchsorted(old_keys, new_keys), len(old_keys) - 1)
        hit = old_keys[at] == new_keys
        out[hit] = old_status[at[hit]]
    return out
