"""The merged restricted LP (:mod:`loveformal.solver.restricted`): the optimum of the restricted
LP written out in full, on fewer rows and columns, with plans that satisfy the whole game's
sequence constraints; and a carried basis that is a valid start (dual feasible with the new
columns held, primal feasible once they are released)."""

from __future__ import annotations

from typing import Any

import highspy
import numpy as np
import pytest
import scipy.optimize
import scipy.sparse

from loveformal.notation import parse_position
from loveformal.solver import oracle, restricted, seqform
from loveformal.solver.efg import Game
from loveformal.solver.endgame import build_endgame
from loveformal.solver.seqform import constraint_matrix, payoff_matrix
from tests.solver.test_oracle import CLASSIC_K3
from tests.test_seqform_speed import random_game

# Benchmark position (bench/solver.py: classic k = 4 seed 4001).
CLASSIC_K4 = (
    "classic 2p r1 start:P1 | P1 Priest d:Prince,Guard,Baron t0 | P2 Guard,Priest d:Prince,"
    "Handmaid t0 | deck - / Guard*2,Countess,Princess | aside King | up Handmaid,Guard,Baron "
    "| play P2"
)


def _parts(game: Game) -> tuple[Any, Any, scipy.sparse.csr_matrix, Any, Any]:
    e, f = constraint_matrix(game, 0), constraint_matrix(game, 1)
    a = payoff_matrix(game)
    return e, f, a, oracle.SequenceTree(e), oracle.SequenceTree(f)


def _unmerged_optimum(
    e: Any, f: Any, a: scipy.sparse.csr_matrix, own_sel: np.ndarray, opp_sel: np.ndarray
) -> float:
    """The restricted LP written out in full (every selected sequence its own column or row,
    every live information set its row or multiplier), solved by scipy: ``max q_0``."""
    c, a_ub, a_eq, b_eq = seqform._player_lp(e, f, a)
    own, opp = oracle.SequenceTree(e), oracle.SequenceTree(f)
    cols = np.concatenate([own_sel, opp.live(opp_sel)])
    res = scipy.optimize.linprog(
        c[cols],
        A_ub=scipy.sparse.csr_matrix(a_ub)[opp_sel][:, cols],
        b_ub=np.zeros(int(opp_sel.sum())),
        A_eq=scipy.sparse.csr_matrix(a_eq)[own.live(own_sel)][:, cols],
        b_eq=b_eq[own.live(own_sel)],
        bounds=[(0, None)] * int(own_sel.sum()) + [(None, None)] * int(opp.live(opp_sel).sum()),
        method="highs",
    )
    assert res.status == 0
    return -float(res.fun)


@pytest.mark.parametrize("which", ["classic-k3", "random-1", "random-2"])
def test_the_merged_lp_has_the_restricted_lps_optimum_on_fewer_rows(which: str) -> None:
    game = (
        build_endgame(parse_position(CLASSIC_K3), reduce=True).game
        if which == "classic-k3"
        else random_game(int(which[-1]), int(which[-1]) % 2)
    )
    e, f, a, own, opp = _parts(game)
    own_sel, opp_sel = oracle._warm_support(own, opp, a, a.T.tocsr())
    model = restricted.RestrictedModel(seqform._new(), own, opp, a)
    assert model.grow(own_sel, opp_sel) == int(own_sel.sum()) + int(opp_sel.sum())
    got = model.run(False, oracle.DUAL)
    assert got is not None
    objective, x, y = got
    assert abs(-objective - _unmerged_optimum(e, f, a, own_sel, opp_sel)) < 1e-9
    # The plans read back through the representatives satisfy the whole game's constraints
    # and are 0 outside the selection.
    rhs = np.zeros(e.shape[0])
    rhs[0] = 1.0
    assert np.abs(e @ x - rhs).max() < 1e-9 and not x[~own_sel].any()
    rhs = np.zeros(f.shape[0])
    rhs[0] = 1.0
    assert np.abs(f @ y - rhs).max() < 1e-9 and not y[~opp_sel].any()
    # Merged: fewer rows and columns than the LP written out in full.
    full_rows = int(opp_sel.sum()) + int(own.live(own_sel).sum())
    full_cols = int(own_sel.sum()) + int(opp.live(opp_sel).sum())
    assert model.h.getNumRow() < full_rows and model.h.getNumCol() < full_cols


def _grown_once(
    text: str,
) -> tuple[restricted.RestrictedModel, Any, Any, np.ndarray, np.ndarray, int]:
    """A model solved on the first restricted game, then grown by one step of the loop (the
    best responses and local improvements to its plans) with the new columns held."""
    game = build_endgame(parse_position(text), reduce=True).game
    _, _, a, own, opp = _parts(game)
    pay_t = a.T.tocsr()
    own_sel, opp_sel = oracle._warm_support(own, opp, a, pay_t)
    model = restricted.RestrictedModel(seqform._new(), own, opp, a)
    model.grow(own_sel, opp_sel)
    got = model.run(False, oracle.DUAL)
    assert got is not None
    _, x, y = got
    x, y = own.normalised(x), opp.normalised(y)
    _, own_br = own.best_response(a @ y, maximise=True)
    _, opp_br = opp.best_response(pay_t @ x, maximise=False)
    own_next = own.improvements(a @ y, True, own_sel | own_br)
    opp_next = opp.improvements(pay_t @ x, False, opp_sel | opp_br)
    old = model.lp
    assert old is not None
    added = model.grow(own_next, opp_next, hold=True)
    assert added
    # Splits: sequences the old model had merged that are representatives now.
    assert model.lp is not None
    split = (
        int(np.isin(model.lp.cols_x, np.flatnonzero(old.own_selected)).sum())
        - len(old.cols_x)
        + int(np.isin(model.lp.rows_y, np.flatnonzero(old.opp_selected)).sum())
        - len(old.rows_y)
    )
    return model, own, opp, own_next, opp_next, split


def _infeasibilities(h: Any) -> tuple[int, int]:
    """(dual, primal) infeasibilities of the model's current basis (no simplex iteration)."""
    h.setOptionValue("simplex_iteration_limit", 0)
    h.setOptionValue("simplex_strategy", oracle.DUAL)
    h.run()
    info = h.getInfo()
    h.setOptionValue("simplex_iteration_limit", 2**31 - 1)
    return int(info.num_dual_infeasibilities), int(info.num_primal_infeasibilities)


def test_the_carried_basis_is_dual_feasible_with_the_new_columns_held() -> None:
    """Chains split in this growth, and still the carried basis needs no dual repair: the
    old optimum is optimal in the grown model until its new sequences are priced."""
    model, *_, split = _grown_once(CLASSIC_K4)
    assert split > 0  # not vacuous: the growth split merged chains
    dual, _ = _infeasibilities(model.h)
    assert dual == 0


def test_released_columns_keep_the_basis_primal_feasible() -> None:
    model, *_ = _grown_once(CLASSIC_K4)
    assert model.run(False, oracle.DUAL) is not None
    released = model.release()
    assert released
    _, primal = _infeasibilities(model.h)
    assert primal == 0
    assert model.run(False, oracle.PRIMAL) is not None


def test_a_wrong_start_for_split_rows_is_not_dual_feasible(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A planted bug: the row of an opponent's action that a split left on its own starts
    basic (as a new row would) instead of tight. The test above would see it."""
    real = restricted._carry

    def wrong(
        old_keys: np.ndarray, old_status: np.ndarray, new_keys: np.ndarray, default: np.ndarray
    ) -> np.ndarray:
        return real(
            old_keys, old_status, new_keys, np.where(default == restricted.UPPER, 1, default)
        )

    monkeypatch.setattr(restricted, "_carry", wrong)
    model, *_ = _grown_once(CLASSIC_K4)
    dual, _ = _infeasibilities(model.h)
    assert dual > 0


def test_status_numbers_are_highs_basis_statuses() -> None:
    statuses = highspy.HighsBasisStatus
    assert [restricted._STATUS[i] for i in (restricted.LOWER, restricted.BASIC)] == [
        statuses.kLower,
        statuses.kBasic,
    ]
    assert restricted._STATUS[restricted.UPPER] == statuses.kUpper
    assert restricted._STATUS[restricted.ZERO] == statuses.kZero


def _statuses(h: Any) -> tuple[list[int], list[int]]:
    """The basis through ``HighsBasis`` (the slow route the file replaces)."""
    basis = h.getBasis()
    assert basis.valid
    return [s.value for s in basis.col_status], [s.value for s in basis.row_status]


def test_the_basis_file_reads_and_sets_the_highs_basis() -> None:
    """The basis carried from one restricted LP to the next goes through a basis file: what
    it reads is ``HighsBasis``'s statuses, what it sets is what HiGHS then holds, and the
    grown model's own transfer used the file throughout."""
    model, *_ = _grown_once(CLASSIC_K4)
    assert model.basis.by_file  # the growth above read and set its basis by file
    assert model.run(False, oracle.DUAL) is not None
    transfer = restricted.BasisTransfer()
    got = transfer.read(model.h)
    assert got is not None and transfer.by_file
    cols, rows = got
    want_cols, want_rows = _statuses(model.h)
    assert (cols.tolist(), rows.tolist()) == (want_cols, want_rows)
    assert {restricted.BASIC, restricted.LOWER} <= set(cols.tolist())
    # Set another basis (a basic column and a nonbasic one swapped) on the same LP passed
    # afresh, as each growth passes its model, and read it back.
    basic = int(np.flatnonzero(cols == restricted.BASIC)[0])
    lower = int(np.flatnonzero(cols == restricted.LOWER)[0])
    swapped = cols.copy()
    swapped[[basic, lower]] = swapped[[lower, basic]]
    assert model.lp is not None
    fresh = seqform._new()
    assert model.pass_to(fresh, model.lp, model.held)
    assert transfer.write(fresh, swapped, rows) and transfer.by_file
    assert _statuses(fresh) == (swapped.tolist(), want_rows)


class _OtherFormat:
    """A HiGHS instance whose basis files are in a format the transfer does not read."""

    def __init__(self, h: Any) -> None:
        self.h = h

    def __getattr__(self, name: str) -> Any:
        return getattr(self.h, name)

    def writeBasis(self, path: str) -> Any:
        status = self.h.writeBasis(path)
        with open(path, "rb") as f:
            text = f.read()
        with open(path, "wb") as f:
            f.write(text.replace(b"HiGHS_basis_file v2", b"HiGHS_basis_file v3"))
        return status


def test_a_basis_file_it_cannot_read_falls_back_to_highs_basis() -> None:
    """A planted change of format: the transfer reads the basis through ``HighsBasis``
    instead (the same statuses), and from then on sets it that way too."""
    model, *_ = _grown_once(CLASSIC_K4)
    assert model.run(False, oracle.DUAL) is not None
    transfer = restricted.BasisTransfer()
    got = transfer.read(_OtherFormat(model.h))
    assert got is not None and not transfer.by_file
    assert (got[0].tolist(), got[1].tolist()) == _statuses(model.h)
    assert transfer.write(model.h, *got)
    assert _statuses(model.h) == (got[0].tolist(), got[1].tolist())


def test_a_basis_the_file_cannot_set_goes_through_highs_basis() -> None:
    """A basis with one basic column too many: ``readBasis`` refuses it, and the transfer
    sets it as ``setBasis`` of a ``HighsBasis`` does (accepted and repaired), on a model
    passed afresh."""
    model, *_ = _grown_once(CLASSIC_K4)
    assert model.run(False, oracle.DUAL) is not None and model.lp is not None
    got = restricted.BasisTransfer().read(model.h)
    assert got is not None
    cols, rows = got
    extra = cols.copy()
    extra[int(np.flatnonzero(cols == restricted.LOWER)[0])] = restricted.BASIC
    by_object = seqform._new()
    assert model.pass_to(by_object, model.lp, model.held)
    basis = highspy.HighsBasis()
    basis.col_status = [restricted._STATUS[s] for s in extra.tolist()]
    basis.row_status = [restricted._STATUS[s] for s in rows.tolist()]
    basis.valid = True
    assert by_object.setBasis(basis) == highspy.HighsStatus.kOk
    fresh = seqform._new()
    assert model.pass_to(fresh, model.lp, model.held)
    transfer = restricted.BasisTransfer()
    assert transfer.write(fresh, extra, rows)
    assert not transfer.by_file  # the file was refused
    assert _statuses(fresh) == _statuses(by_object)


def test_no_valid_basis_reads_as_none_by_file() -> None:
    """A model not yet solved has no valid basis: the file says so (``None``), and the
    transfer reads it without leaving the file route."""
    model, *_ = _grown_once(CLASSIC_K4)
    assert model.lp is not None
    fresh = seqform._new()
    assert model.pass_to(fresh, model.lp, model.held)
    assert not fresh.getBasis().valid
    transfer = restricted.BasisTransfer()
    assert transfer.read(fresh) is None
    assert transfer.by_file


def test_pass_lp_gives_highs_the_lp_as_given_every_column_continuous() -> None:
    """``max x + y`` s.t. ``2x + y ≤ 3.25``, ``x − y = 0.5``: the LP optimum 2 at (1.25, 0.75)
    has fractional columns, which integer columns would cut off."""
    matrix = scipy.sparse.csc_matrix(np.array([[2.0, 1.0], [1.0, -1.0]]))
    h = seqform._new()
    assert highspy.HighsStatus.kOk == restricted.pass_lp(
        h,
        np.array([-1.0, -1.0]),
        np.zeros(2),
        np.full(2, highspy.kHighsInf),
        np.array([-highspy.kHighsInf, 0.5]),
        np.array([3.25, 0.5]),
        matrix,
    )
    held = h.getLp()
    assert np.array_equal(np.asarray(held.a_matrix_.start_), matrix.indptr)
    assert np.array_equal(np.asarray(held.a_matrix_.index_), matrix.indices)
    assert np.array_equal(np.asarray(held.a_matrix_.value_), matrix.data)
    assert np.array_equal(np.asarray(held.row_lower_), [-highspy.kHighsInf, 0.5])
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert h.getInfo().objective_function_value == pytest.approx(-2.0)
    assert np.allclose(np.asarray(h.getSolution().col_value), [1.25, 0.75])
    assert h.getBasis().valid  # a simplex basis: solved as an LP


def test_the_basis_read_from_the_basic_variables_is_the_basis_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On every growth of an endgame's restricted LP (and the last LP), the basis read from
    HiGHS's basic variables and row duals (``read_basis``) is the one its basis file gives,
    equality rows at their upper bound among them."""
    game = build_endgame(parse_position(CLASSIC_K4), reduce=True).game
    e, f, a, _, _ = _parts(game)
    compared: list[tuple[np.ndarray, np.ndarray]] = []
    derived = restricted.RestrictedModel.read_basis

    def both_ways(model: restricted.RestrictedModel) -> Any:
        got = derived(model)
        want = restricted.BasisTransfer().read(model.h)
        assert got is not None and want is not None
        lp = model.lp
        assert lp is not None and not len(model.held)
        sizes = len(lp.cols_x), len(lp.cols_q), len(lp.rows_y), len(lp.rows_e)
        # Read from the basic variables, not by the file as a fallback.
        direct = restricted._derived_basis(model.h, *sizes)
        assert direct is not None
        assert np.array_equal(direct[0], got[0]) and np.array_equal(direct[1], got[1])
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        compared.append(got)
        return got

    monkeypatch.setattr(restricted.RestrictedModel, "read_basis", both_ways)
    got = oracle.solve_restricted(e, f, a, highs=seqform._new())
    assert got is not None and got.model is not None and got.model.lp is not None
    both_ways(got.model)
    assert len(compared) >= 3
    ny = len(got.model.lp.rows_y)
    assert any((rows[ny:] == restricted.UPPER).any() for _, rows in compared)
