"""Sequence-form linear program for two-player zero-sum games (Koller–Megiddo–von Stengel).

Notation (player 0 maximises, utilities are player 0's):

* ``x ∈ R^{S_0}``, ``y ∈ R^{S_1}`` — realization plans over each player's sequences
  (:mod:`loveformal.solver.efg`), constrained by ``E x = e, x ≥ 0`` and ``F y = f, y ≥ 0``:
  row 0 says ``x(∅) = 1``; the row of infoset ``I`` says ``Σ_a x(I, a) = x(parent(I))``.
  ``e = f = (1, 0, …, 0)``.
* ``A ∈ R^{S_0 × S_1}``, ``A[σ_0, σ_1] = Σ_{terminals z with own sequences (σ_0, σ_1)}
  π_c(z) u_0(z)`` (``π_c`` = chance reach), so ``u_0(x, y) = xᵀ A y``.

The value is ``max_x min_y xᵀ A y``. Dualising the inner minimisation
(``min_y xᵀAy s.t. Fy = f, y ≥ 0`` equals ``max_q fᵀq s.t. Fᵀq ≤ Aᵀx``) gives player 0's LP::

    maximise  q_0   over x ≥ 0, q free
    s.t.      Fᵀ q − Aᵀ x ≤ 0          (one row per player-1 sequence)
              E x = e

whose optimum is the game value and whose ``x`` is a maximin realization plan. Player 1's LP
is the mirror image (``min_{y,p} eᵀp s.t. Eᵀp − Ay ≥ 0, Fy = f, y ≥ 0``) and, by LP duality,
the dual of player 0's. **Only one of the two is solved** — the one with fewer columns
(``S_p`` plan entries plus one free multiplier per opponent infoset plus the root), which
HiGHS's dual simplex solves markedly faster — and **the other plan is read from its duals**:
the multipliers of its ``≤ 0`` rows (one per opponent sequence). HiGHS reports them as
``∂objective/∂b_ub ≤ 0`` for the minimisation form (``min −q_0``, resp. ``min p_0``), so the
plan is ``−duals``. The solve is HiGHS's dual simplex, single-threaded, by default on a
growing **restricted game** once the game has :data:`RESTRICT_FROM` sequences or more
(:mod:`loveformal.solver.oracle`: the LP over the sequences an equilibrium needs, grown until
neither player's best response in the whole game gains more than ``1e-10``; the whole LP if
that loop cannot close the gap); ``restricted=False`` solves the whole LP at once. With
``second_lp=True`` (which always solves whole LPs) the other LP is solved explicitly too (its
plan replaces the duals), and
:attr:`Solution.value_player1_lp` holds the optimum of player 1's LP (a check: it must equal
:attr:`Solution.value` up to solver tolerance).

Numerical care: tiny negative plan entries are clipped to 0; each infoset's behaviour is
``x(I, a) / Σ_b x(I, b)``, so it sums to 1 by construction. Infosets a player reaches with
plan mass ≤ ``1e-12`` (the player's own strategy never goes there) get the **uniform**
strategy — any choice there leaves both players' expected values and the exploitability of the
profile unchanged, but the profile is then a Nash equilibrium, not necessarily a refinement
(sequential / subgame-perfect) one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import highspy
import numpy as np
import numpy.typing as npt
import scipy.sparse

from .certify import Plan
from .efg import TERMINAL, Game, gc_paused
from .oracle import DUAL, SequenceTree, StepProgress, per_set, solve_restricted
from .restricted import RestrictedModel, pass_lp
from .vertex import exact_plans

if TYPE_CHECKING:
    from .expectimax import _Grouped

_Highs: Any
try:  # the plain binding: ``highspy.Highs`` prints a banner on stdout (it would break --json)
    from highspy._core import _Highs
except ImportError:  # a highspy release without it: scipy's HiGHS (:func:`_linprog`) instead
    _Highs = None

__all__ = ["Solution", "Strategy", "constraint_matrix", "payoff_matrix", "solve"]

Strategy = dict[Hashable, dict[Hashable, float]]
"""Behaviour strategy of one player: infoset key -> {action label: probability}."""
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
UNREACHED = 1e-12
RESTRICT_FROM = 4000
"""Sequences (both players) from which :func:`solve` grows a restricted game; smaller LPs are
solved whole (a few milliseconds, less than the restricted game's CFR+ start)."""
_INF = highspy.kHighsInf


@dataclass(frozen=True)
class Solution:
    """Result of :func:`solve`."""

    value: float
    """Game value for player 0: the optimum of player 0's LP (of player 1's when only that one
    was solved; of the last restricted LP, clamped into the whole game's best-response
    bracket, when it was grown on a restricted game)."""
    strategies_of: Callable[[], tuple[Strategy, Strategy]] = field(compare=False, repr=False)
    """Makes :attr:`strategies` (on its first use)."""
    realization_plans: tuple[FloatArray, FloatArray]
    """``x`` and ``y`` after clipping negatives to 0."""
    value_player1_lp: float | None
    """Optimum of player 1's LP when ``second_lp=True``, else None."""
    setup_seconds: float
    """Building the sparse matrices."""
    solve_seconds: float
    """HiGHS time (both LPs when ``second_lp=True``), with the restricted games' CFR+ and
    best responses."""
    restricted_steps: int = 0
    """Restricted LPs solved (:mod:`~loveformal.solver.oracle`); 0 when the whole LP was."""
    vertex: Callable[[], tuple[Plan, Plan] | None] | None = field(
        default=None, compare=False, repr=False
    )
    """Finds both players' realization plans at the exact vertex of the LP's optimal basis
    (:mod:`~loveformal.solver.vertex`; None where it is not found), on demand. None without
    ``highspy``."""
    vertex_cheap: bool = False
    """Whether :attr:`vertex` starts from the last restricted LP's basis at hand (else it
    solves the whole LP again, in the merged form): the caller then asks for it before
    certifying :attr:`strategies`, else only when their certificate leaves a bracket."""

    @cached_property
    def strategies(self) -> tuple[Strategy, Strategy]:
        """Behaviour strategies of players 0 and 1 (every infoset present), read off
        :attr:`realization_plans` on first use: a dictionary per information set, which
        takes a few tenths of a second on the largest benchmark endgames, and which a caller
        that certifies the exact vertex never reads."""
        return self.strategies_of()


def _check(game: Game) -> None:
    if game.num_players != 2:
        raise ValueError(f"the sequence-form LP needs 2 players, the game has {game.num_players}")
    if not game.is_zero_sum():
        bad = next(n for n, u in enumerate(game.utility_exact) if u is not None and sum(u) != 0)
        raise ValueError(
            f"the sequence-form LP needs a zero-sum game; terminal {bad} has utilities "
            f"{[str(u) for u in game.utility_exact[bad] or ()]}"
        )


def payoff_matrix(game: Game) -> scipy.sparse.csr_matrix:
    """``A`` (player 0's utility, chance-weighted), shape ``(S_0, S_1)``.

    On a tree the entries are summed exactly (the certificate's grouping of terminals by
    sequence pair, cached on the game) and rounded once, so that payoffs cancelling exactly
    leave no entry (summing floats would leave rounding noise around 1e-20 in their place,
    which only slows the LP down); otherwise in floats."""
    if game.is_tree():
        from .expectimax import _grouped

        grouped = _grouped(game)
        den = grouped.denominator
        shape = (game.num_sequences(0), game.num_sequences(1))
        keys, values = grouped.keys, grouped.values
        exact_in_floats = (
            keys is not None
            and values is not None
            and den < 2**53
            and int(np.abs(values[:, 0]).max(initial=0)) < 2**53
        )
        if exact_in_floats and keys is not None and values is not None:
            # Integers below 2**53 are exact in floats: one correctly rounded division.
            nz = values[:, 0] != 0
            data = values[nz, 0].astype(np.float64) / float(den)
            coo = (data, (keys[nz, 0], keys[nz, 1]))
            return scipy.sparse.coo_matrix(coo, shape=shape).tocsr()
        keys, nums = _player0_sums(grouped)
        nz = np.array([bool(v) for v in nums.tolist()], dtype=bool)
        data = np.array([v / den for v in nums[nz].tolist()], dtype=np.float64)
        coo = (data, (keys[nz, 0], keys[nz, 1]))
        return scipy.sparse.coo_matrix(coo, shape=shape).tocsr()
    terminal = np.flatnonzero(game.kind == TERMINAL)
    reach = game.chance_reach()[terminal]
    data = reach * game.utility[terminal, 0]
    rows = game.own_sequence[terminal, 0]
    cols = game.own_sequence[terminal, 1]
    shape = (game.num_sequences(0), game.num_sequences(1))
    # Duplicate (row, col) entries are summed by the COO -> CSR conversion.
    return scipy.sparse.coo_matrix((data, (rows, cols)), shape=shape).tocsr()


def _player0_sums(grouped: _Grouped) -> tuple[IntArray, npt.NDArray[np.object_]]:
    """A two-player tree's grouped payoffs (:class:`~loveformal.solver.expectimax._Grouped`)
    as sequence pairs (rows of ``keys``) and player 0's exact sums (Python integers over
    ``grouped.denominator``), zeros included."""
    if grouped.keys is not None and grouped.values is not None:
        keys = grouped.keys[:, :2].astype(np.int64)
        nums = np.array(grouped.values[:, 0].tolist(), dtype=object)
    else:
        items = list(grouped.sums.items())
        keys = np.array([k for k, _ in items], dtype=np.int64).reshape(len(items), 2)
        nums = np.array([v[0] for _, v in items], dtype=object)
    return keys, nums


def exact_payoff_entries(
    game: Game, lp_player: int, rows: IntArray, cols: IntArray
) -> tuple[npt.NDArray[np.object_], int] | None:
    """The exact entries of the LP player's payoff matrix (``A`` for player 0, ``−Aᵀ`` for
    player 1) at ``(rows, cols)``, as integers over the returned denominator (None for a game
    that is not a tree: its payoffs are summed in floats)."""
    if not game.is_tree():
        return None
    from .expectimax import _grouped

    grouped = _grouped(game)
    keys, nums = _player0_sums(grouped)
    width = game.num_sequences(1)
    code = keys[:, 0] * width + keys[:, 1]
    order = np.argsort(code)
    code, nums = code[order], nums[order]
    s0, s1 = (rows, cols) if lp_player == 0 else (cols, rows)
    want = s0.astype(np.int64) * width + s1.astype(np.int64)
    at = np.minimum(np.searchsorted(code, want), max(len(code) - 1, 0))
    if len(code) == 0 or not np.array_equal(code[at], want):
        return None
    out = nums[at]
    return (out if lp_player == 0 else -out), grouped.denominator


def constraint_matrix(game: Game, player: int) -> scipy.sparse.csr_matrix:
    """``E`` (player 0) or ``F`` (player 1): shape ``(1 + #infosets, S_player)``."""
    infos = game.infosets_of(player)
    rows, cols, vals = [0], [0], [1.0]
    for r, info in enumerate(infos, start=1):
        rows.append(r)
        cols.append(info.parent_sequence)
        vals.append(-1.0)
        for a in range(len(info.actions)):
            rows.append(r)
            cols.append(info.first_sequence + a)
            vals.append(1.0)
    shape = (1 + len(infos), game.num_sequences(player))
    return scipy.sparse.coo_matrix((vals, (rows, cols)), shape=shape).tocsr()


def _highs(
    c: FloatArray,
    a_ub: scipy.sparse.spmatrix,
    a_eq: scipy.sparse.spmatrix,
    b_eq: FloatArray,
    free_from: int,
    what: str,
) -> tuple[FloatArray, FloatArray, float]:
    """Minimise ``cᵀz`` s.t. ``a_ub z ≤ 0``, ``a_eq z = b_eq``, ``z[:free_from] ≥ 0`` (the rest
    free) with HiGHS's dual simplex, single-threaded; return (solution, the multipliers of
    the ``a_ub`` rows as ``∂objective/∂b_ub ≤ 0``, objective)."""
    if _Highs is None:
        return _linprog(c, a_ub, a_eq, b_eq, free_from, what)
    matrix = scipy.sparse.vstack([a_ub, a_eq], format="csc")
    n_ub = a_ub.shape[0]
    n_cols = matrix.shape[1]
    h = _new()
    status = pass_lp(
        h,
        c,
        np.concatenate([np.zeros(free_from), np.full(n_cols - free_from, -_INF)]),
        np.full(n_cols, _INF),
        np.concatenate([np.full(n_ub, -_INF), b_eq]),
        np.concatenate([np.zeros(n_ub), b_eq]),
        matrix,
    )
    if status == highspy.HighsStatus.kError:  # a warning (tiny entries dropped) is no refusal
        raise RuntimeError(f"HiGHS refused {what}")
    h.run()
    model_status = h.getModelStatus()
    if model_status == highspy.HighsModelStatus.kOptimal:
        sol = h.getSolution()
        z: FloatArray = np.asarray(sol.col_value, dtype=np.float64)
        duals: FloatArray = np.asarray(sol.row_dual, dtype=np.float64)[:n_ub]
        return z, duals, float(h.getInfo().objective_function_value)
    status = h.modelStatusToString(model_status)
    raise RuntimeError(f"HiGHS failed on {what}: {status}")


def _new() -> Any:
    """A quiet, single-threaded HiGHS instance set to its dual simplex."""
    h = _Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("solver", "simplex")
    return h


def _linprog(
    c: FloatArray,
    a_ub: scipy.sparse.spmatrix,
    a_eq: scipy.sparse.spmatrix,
    b_eq: FloatArray,
    free_from: int,
    what: str,
) -> tuple[FloatArray, FloatArray, float]:
    """:func:`_highs` through ``scipy.optimize.linprog`` (HiGHS's dual simplex too; imported
    here, as the fallback, to keep half a second off every command's start)."""
    import scipy.optimize

    n_cols = a_ub.shape[1]
    res = scipy.optimize.linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=[(0.0, None)] * free_from + [(None, None)] * (n_cols - free_from),
        method="highs-ds",
    )
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on {what}: status {res.status}: {res.message}")
    z: FloatArray = np.asarray(res.x, dtype=np.float64)
    duals: FloatArray = np.asarray(res.ineqlin.marginals, dtype=np.float64)
    return z, duals, float(res.fun)


def _strategies(game: Game, x: FloatArray, y: FloatArray) -> tuple[Strategy, Strategy]:
    """Both players' behaviour strategies (:func:`_behaviour`), made with the collector
    paused: a dictionary per information set."""
    with gc_paused():
        return _behaviour(game, 0, x), _behaviour(game, 1, y)


def _behaviour(game: Game, player: int, plan: FloatArray) -> Strategy:
    """Each infoset's ``x(I, a) / Σ_b x(I, b)`` (uniform at or below :data:`UNREACHED`),
    computed for all infosets at once."""
    infos = game.infosets_of(player)
    if not infos:
        return {}
    first = np.array([i.first_sequence for i in infos], dtype=np.int64)
    count = np.array([len(i.actions) for i in infos], dtype=np.int64)
    starts = np.cumsum(count) - count
    seqs = np.repeat(first, count) + np.arange(int(count.sum())) - np.repeat(starts, count)
    segment = np.repeat(np.arange(len(infos)), count)
    size = np.repeat(count, count).astype(np.float64)
    flat = per_set(plan[seqs], starts, segment, size, UNREACHED).tolist()
    out: Strategy = {}
    at = 0
    for info in infos:
        k = len(info.actions)
        out[info.key] = dict(zip(info.actions, flat[at : at + k], strict=True))
        at += k
    return out


def _player_lp(
    own: scipy.sparse.csr_matrix,
    opp: scipy.sparse.csr_matrix,
    pay: scipy.sparse.csr_matrix,
) -> tuple[FloatArray, scipy.sparse.spmatrix, scipy.sparse.spmatrix, FloatArray]:
    """One player's LP in the form of :func:`_highs`: maximise ``q_0`` over ``(x, q)`` s.t.
    ``oppᵀ q − payᵀ x ≤ 0``, ``own x = e`` — player 0's LP with ``(E, F, A)``, player 1's with
    ``(F, E, −Aᵀ)`` (player 1 maximises ``−u_0``). Returns ``(c, a_ub, a_eq, b_eq)``."""
    n, m_own, m_opp = own.shape[1], own.shape[0], opp.shape[0]
    c = np.zeros(n + m_opp)
    c[n] = -1.0
    a_ub = scipy.sparse.hstack([-pay.T, opp.T], format="csr")
    a_eq = scipy.sparse.hstack([own, scipy.sparse.csr_matrix((m_own, m_opp))], format="csr")
    b_eq = np.zeros(m_own)
    b_eq[0] = 1.0
    return c, a_ub, a_eq, b_eq


def solve(
    game: Game,
    *,
    second_lp: bool = False,
    restricted: bool = True,
    on_step: StepProgress | None = None,
) -> Solution:
    """Solve a two-player zero-sum game exactly up to LP tolerance (see the module docstring).

    Only one LP is solved: the player whose LP has fewer columns (``S_p`` plan entries plus
    one free ``q`` per opponent infoset) — HiGHS's dual simplex is then markedly faster;
    the other plan is read from its duals (``tests/test_seqform_speed.py`` checks both
    orientations). With ``restricted`` (the default) it is grown on a restricted game
    (:mod:`~loveformal.solver.oracle`) once the game has :data:`RESTRICT_FROM` sequences;
    ``on_step`` then hears of every restricted LP (step, gap, sequences selected), and of
    step 0 (all sequences) when the loop gives up and the whole LP is solved.

    Raises ``ValueError`` if the game is not two-player zero-sum, ``RuntimeError`` if HiGHS
    does not report an optimum. Runs with the garbage collector paused (see
    :func:`~loveformal.solver.efg.gc_paused`).
    """
    with gc_paused():
        return _solve(game, second_lp, restricted, on_step)


def _solve(game: Game, second_lp: bool, restricted: bool, on_step: StepProgress | None) -> Solution:
    _check(game)
    t0 = time.perf_counter()
    a = payoff_matrix(game)
    e = constraint_matrix(game, 0)
    f = constraint_matrix(game, 1)
    n0, n1 = a.shape
    m0, m1 = e.shape[0], f.shape[0]
    first = 1 if n1 + m0 < n0 + m1 else 0
    lps = (lambda: _player_lp(e, f, a), lambda: _player_lp(f, e, -a.T))
    n_first = (n0, n1)[first]
    t1 = time.perf_counter()
    got, steps = None, 0
    if restricted and not second_lp and _Highs is not None and n0 + n1 >= RESTRICT_FROM:
        pay = a if first == 0 else (-a.T).tocsr()
        own, opp = (e, f) if first == 0 else (f, e)
        got = solve_restricted(own, opp, pay, highs=_new(), on_step=on_step)
        if got is None and on_step is not None:
            on_step(0, float("nan"), (n0, n1))  # the restricted game gave up: the whole LP
    if got is not None:
        z, marg, obj, steps = got.plan, -got.opponent_plan, got.objective, got.steps
    else:
        c, a_ub, a_eq, b_eq = lps[first]()
        z, marg, obj = _highs(c, a_ub, a_eq, b_eq, n_first, f"player {first}'s LP")
    plans: list[FloatArray] = [np.empty(0), np.empty(0)]
    plans[first] = np.clip(z[:n_first], 0.0, None)
    # Both LPs minimise: player 0's ``−q_0 = −value``, player 1's ``p_0 = value``.
    lp_value: list[float | None] = [None, None]
    lp_value[first] = -obj if first == 0 else obj
    if second_lp:
        other = 1 - first
        c2, a_ub2, a_eq2, b_eq2 = lps[other]()
        n_other = (n0, n1)[other]
        z2, _, obj2 = _highs(c2, a_ub2, a_eq2, b_eq2, n_other, f"player {other}'s LP")
        plans[other] = np.clip(z2[:n_other], 0.0, None)
        lp_value[other] = -obj2 if other == 0 else obj2
    else:
        plans[1 - first] = np.clip(-marg, 0.0, None)
    value = lp_value[0] if lp_value[0] is not None else lp_value[1]
    assert value is not None
    value1 = lp_value[1] if second_lp else None
    t2 = time.perf_counter()
    x, y = plans
    vertex = None
    if _Highs is not None:
        model = got.model if got is not None else None

        def vertex() -> tuple[Plan, Plan] | None:
            with gc_paused():
                return _exact_vertex(game, first, e, f, a, model)

    return Solution(
        value=value,
        strategies_of=lambda: _strategies(game, x, y),
        realization_plans=(x, y),
        value_player1_lp=value1,
        setup_seconds=(t1 - t0),
        solve_seconds=t2 - t1,
        restricted_steps=steps,
        vertex=vertex,
        vertex_cheap=got is not None,
    )


def _exact_vertex(
    game: Game,
    first: int,
    e: scipy.sparse.spmatrix,
    f: scipy.sparse.spmatrix,
    a: scipy.sparse.csr_matrix,
    model: RestrictedModel | None,
) -> tuple[Plan, Plan] | None:
    """Both players' plans at the exact vertex (:func:`~loveformal.solver.vertex.exact_plans`)
    of ``model`` (the last restricted LP), or of the whole LP solved again in the merged
    form when the whole LP was solved (the small games, or the restricted game gave up);
    ``first`` is the LP player, ``e``, ``f`` and ``a`` the game's matrices."""
    if model is None:
        pay = a if first == 0 else (-a.T).tocsr()
        own, opp = (e, f) if first == 0 else (f, e)
        model = RestrictedModel(_new(), SequenceTree(own), SequenceTree(opp), pay)
        if model.grow(np.ones(model.n_own, dtype=bool), np.ones(model.n_opp, dtype=bool)) is None:
            return None  # HiGHS refused the model (e.g. entries below its 1e-9 floor)
        if model.run(True, DUAL) is None:
            return None
    entries = exact_payoff_entries(game, first, model.pay_own, model.pay_opp)
    if entries is None:
        return None
    got = exact_plans(model, *entries)
    if got is None:
        return None
    mine, theirs = got
    return (mine, theirs) if first == 0 else (theirs, mine)
