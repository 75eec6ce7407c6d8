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

whose optimum is the game value and whose ``x`` is a maximin realization plan. **Player 1's
plan is read from the duals** of the ``Fᵀq − Aᵀx ≤ 0`` rows: by LP duality the dual of this LP
is player 1's LP (``min_{y,p} eᵀp s.t. Eᵀp − Ay ≥ 0, Fy = f, y ≥ 0``) and its optimal ``y`` is
the vector of those multipliers (HiGHS reports ``∂objective/∂b_ub ≤ 0`` for the ``min −q_0``
form, so ``y = −marginals``). With ``second_lp=True`` player 1's LP is solved explicitly
instead, and :attr:`Solution.value_player1_lp` holds its optimum (a check: it must equal
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
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.optimize
import scipy.sparse

from .efg import TERMINAL, Game

__all__ = ["Solution", "Strategy", "constraint_matrix", "payoff_matrix", "solve"]

Strategy = dict[Hashable, dict[Hashable, float]]
"""Behaviour strategy of one player: infoset key -> {action label: probability}."""
FloatArray = npt.NDArray[np.float64]
UNREACHED = 1e-12


@dataclass(frozen=True)
class Solution:
    """Result of :func:`solve`."""

    value: float
    """Game value for player 0 (``q_0`` of player 0's LP)."""
    strategies: tuple[Strategy, Strategy]
    """Behaviour strategies of players 0 and 1 (every infoset present)."""
    realization_plans: tuple[FloatArray, FloatArray]
    """``x`` and ``y`` after clipping negatives to 0."""
    value_player1_lp: float | None
    """Optimum of player 1's LP when ``second_lp=True``, else None."""
    setup_seconds: float
    """Building the sparse matrices."""
    solve_seconds: float
    """HiGHS time (both LPs when ``second_lp=True``)."""


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
        pairs = [(k, v[0]) for k, v in grouped.sums.items() if v[0]]
        shape = (game.num_sequences(0), game.num_sequences(1))
        return scipy.sparse.coo_matrix(
            (
                np.array([v / den for _, v in pairs], dtype=np.float64),
                (
                    np.array([k[0] for k, _ in pairs], dtype=np.int64),
                    np.array([k[1] for k, _ in pairs], dtype=np.int64),
                ),
            ),
            shape=shape,
        ).tocsr()
    terminal = np.flatnonzero(game.kind == TERMINAL)
    reach = game.chance_reach()[terminal]
    data = reach * game.utility[terminal, 0]
    rows = game.own_sequence[terminal, 0]
    cols = game.own_sequence[terminal, 1]
    shape = (game.num_sequences(0), game.num_sequences(1))
    # Duplicate (row, col) entries are summed by the COO -> CSR conversion.
    return scipy.sparse.coo_matrix((data, (rows, cols)), shape=shape).tocsr()


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


def _linprog(
    c: FloatArray,
    a_ub: scipy.sparse.spmatrix,
    a_eq: scipy.sparse.spmatrix,
    b_eq: FloatArray,
    bounds: list[tuple[float | None, float | None]],
    what: str,
) -> tuple[FloatArray, FloatArray, float]:
    """Run HiGHS; return (solution, inequality marginals, objective)."""
    res = scipy.optimize.linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on {what}: status {res.status}: {res.message}")
    sol: FloatArray = np.asarray(res.x, dtype=np.float64)
    marg: FloatArray = np.asarray(res.ineqlin.marginals, dtype=np.float64)
    return sol, marg, float(res.fun)


def _behaviour(game: Game, player: int, plan: FloatArray) -> Strategy:
    out: Strategy = {}
    for info in game.infosets_of(player):
        k = len(info.actions)
        mass = plan[info.first_sequence : info.first_sequence + k]
        total = float(mass.sum())
        probs = [float(m) / total for m in mass] if total > UNREACHED else [1.0 / k] * k
        out[info.key] = dict(zip(info.actions, probs, strict=True))
    return out


def solve(game: Game, *, second_lp: bool = False) -> Solution:
    """Solve a two-player zero-sum game exactly up to LP tolerance (see the module docstring).

    Raises ``ValueError`` if the game is not two-player zero-sum, ``RuntimeError`` if HiGHS
    does not report an optimum.
    """
    _check(game)
    t0 = time.perf_counter()
    a = payoff_matrix(game)
    e = constraint_matrix(game, 0)
    f = constraint_matrix(game, 1)
    n0, n1 = a.shape
    m0, m1 = e.shape[0], f.shape[0]
    # Player 0: variables (x, q); minimise -q_0.
    c0 = np.zeros(n0 + m1)
    c0[n0] = -1.0
    a_ub0 = scipy.sparse.hstack([-a.T, f.T], format="csr")
    a_eq0 = scipy.sparse.hstack([e, scipy.sparse.csr_matrix((m0, m1))], format="csr")
    b_eq0 = np.zeros(m0)
    b_eq0[0] = 1.0
    bounds0: list[tuple[float | None, float | None]] = [(0.0, None)] * n0 + [(None, None)] * m1
    t1 = time.perf_counter()
    z0, marg0, obj0 = _linprog(c0, a_ub0, a_eq0, b_eq0, bounds0, "player 0's LP")
    x = np.clip(z0[:n0], 0.0, None)
    value = -obj0
    value1: float | None = None
    if second_lp:
        # Player 1: variables (y, p); minimise p_0 s.t. A y - E^T p <= 0, F y = f.
        c1 = np.zeros(n1 + m0)
        c1[n1] = 1.0
        a_ub1 = scipy.sparse.hstack([a, -e.T], format="csr")
        a_eq1 = scipy.sparse.hstack([f, scipy.sparse.csr_matrix((m1, m0))], format="csr")
        b_eq1 = np.zeros(m1)
        b_eq1[0] = 1.0
        bounds1: list[tuple[float | None, float | None]] = [(0.0, None)] * n1 + [(None, None)] * m0
        z1, _, obj1 = _linprog(c1, a_ub1, a_eq1, b_eq1, bounds1, "player 1's LP")
        y = np.clip(z1[:n1], 0.0, None)
        value1 = obj1
    else:
        y = np.clip(-marg0, 0.0, None)
    t2 = time.perf_counter()
    return Solution(
        value=value,
        strategies=(_behaviour(game, 0, x), _behaviour(game, 1, y)),
        realization_plans=(x, y),
        value_player1_lp=value1,
        setup_seconds=(t1 - t0),
        solve_seconds=t2 - t1,
    )
