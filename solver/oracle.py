"""The sequence-form LP solved on a growing restricted game (sequence-form double oracle).

The LP of :mod:`loveformal.solver.seqform` has a column per sequence of one player and a row
per sequence of the other. On a Love Letter endgame most of them are irrelevant: an equilibrium
uses a small part of each player's tree (a classic endgame with 5 cards left: 38 k of 104 k and
29 k of 78 k sequences), and HiGHS's dual simplex spends most of its time on the rest. So the
LP is solved on a **restricted game** that only grows:

1. Start from the support of a short run of CFR+ (:data:`WARM_ITERATIONS` iterations in
   sequence form: counterfactual values bottom-up over each player's information sets, regret
   matching plus, alternating updates, linearly weighted average): every action the average
   plays with conditional probability at least :data:`SUPPORT_THRESHOLD` on a path it plays,
   plus the sequences reached by each player's pure best response to the other's average.
   Only the support is used, never the CFR+ numbers.
2. Solve the LP restricted to the selected sequences: the maximising player's plan uses only
   its selected sequences (the others are 0), and the opponent may only choose its selected
   actions (one ``≤`` row per selected opponent sequence, one free multiplier per information
   set whose parent sequence is selected). This is the LP of the game in which both players
   are limited to the selected actions; the restricted equilibrium is ``(x, y)``, ``y`` read
   from the duals as in :mod:`~loveformal.solver.seqform`.
3. Compute both players' pure best responses to ``(x, y)`` **in the whole game** (floats,
   bottom-up over each player's information sets). If the maximiser's best response gets at
   most ``tol`` more than the minimiser's concedes (the *gap* ``BR_0(y) − BR_1(x)``: the
   width of the value bracket, twice the exploitability), ``(x, y)`` is an equilibrium of the
   whole game up to ``tol``: stop.
4. Otherwise add the sequences the two best responses reach and, below every selected
   sequence, each deviation that gains locally (:meth:`SequenceTree.improvements`: at an
   information set whose parent sequence is selected, the best action, a best response
   below it, when it beats every selected action there by more than :data:`IMPROVEMENT`);
   go to 2. Once the gap is below :data:`SIBLINGS_BELOW`, every action of each opponent
   information set where this adds one at the top is added too (with a best response below
   each). The first time the gap is below :data:`POLISH_BELOW` (HiGHS's own feasibility
   tolerance), nothing is added: the same LP is solved again from its basis with tighter
   tolerances, since such a gap can be the LP's rounding.

Soundness: each step but the one polish and the one cold retry adds sequences, so it stops
after finitely many steps (and :data:`MAX_STEPS` bounds them); when it stops, the gap is
measured in the whole game, so the profile is an ``ε``-equilibrium with ``ε ≤ tol``. (A
union of pure plans' reached sets keeps every information set whose parent sequence is
selected supplied with at least one selected action, so every restricted LP is feasible and
bounded; the CFR+ support is such a set too, since it keeps each reached information set's
likeliest action.) If no sequence can be added while the
gap is still above ``tol`` (floating-point trouble: the restricted LP is solved once more from
scratch with tighter tolerances first), the gap is negative beyond ``tol`` (impossible: a
sign error), HiGHS refuses a growth or reports no optimum, or the restricted game passes
:data:`MAX_SHARE` of all sequences, :func:`solve_restricted` returns ``None`` and the caller
solves the whole LP. The returned objective is clamped into the bracket the two best
responses give. The exact certificate
(:mod:`~loveformal.solver.certify`) checks the result in rational arithmetic either way.

The restricted LP is a HiGHS model with each chain of single-action sequences merged into one
column or row (:mod:`~loveformal.solver.restricted`), rebuilt on each growth and started from
the previous model's basis. After the first LP each growth comes in two halves: with the LP
player's new sequences held at 0, the opponent's new ones (rows, which keep the basis dual
feasible) solved with the dual simplex; then the LP player's released (columns, which keep it
primal feasible) and solved with the primal simplex. The dual simplex uses devex pricing (dual
steepest-edge weights are recomputed after every growth, which cost more than it saved).

Measured on the classic benchmark position with 4 cards left (22 k × 31 k sequences): the
whole LP takes 10–11 s; growing from best responses to uniform play took 30 restricted LPs
and 8–11 s; from the CFR+ support, 0.9 s of CFR+ and 14 restricted LPs, 3.4 s in all, ending
at 8 k × 17 k sequences. With 5 cards left (104 k × 78 k): 480 s whole, 62–89 s grown in one
piece per step (40 restricted LPs, ending at 38 k × 29 k), 31 s grown in halves (the same
with 4 cards left). A lower support threshold (1e-4) was faster with 4 cards left (2.5 s) but
twice as slow with 5. Which vertex HiGHS returns decides ties between best responses, so
the number of steps moves with rounding noise (15 to 22 with 4 cards left).

With the halves, a shorter CFR+ run is better (the LP alone, one run each; 200 / 100 / 50
iterations): classic, 4 cards left, seed 4000: 3.4 / 2.1 / 2.3 s; seed 4001: 1.2 / 1.0 /
0.6 s; 5 cards left, seed 5001: 28 / 22 / 41 s; 2019 edition, seed 5000: 1.0 / 0.7 / 0.6 s;
6 cards left, seed 6001: 1.8 / 1.4 / 0.9 s. A support threshold of 3e-4 with 100 iterations
was faster with 4 cards left (1.8 s) and twice as slow with 5 (51 s).

Adding the local improvements below every selected sequence (step 4), not only the best
responses' paths, halves the number of restricted LPs and saves 10–25 % of the LP's time
(the loop alone on the saved matrices, two runs each, paths only → with the improvements):
classic, 4 cards left, seed 4000: 13 → 6 LPs, 2.15–2.46 → 1.88–1.98 s; seed 4001: 21 → 11,
0.90–0.96 → 0.66–0.80 s; 5 cards left, seed 5001: 38 → 15, 24.8 → 20.1 s; 2019 edition,
5 cards left, seed 5000: 10 → 6, 0.88–1.06 → 0.72–0.82 s; 6 cards left, seed 6001: 14 → 8,
1.6 → 1.4 s. The final restricted games are as large as before.

HiGHS's presolve shrinks the last restricted LP with 5 cards left from 50 k × 56 k to
15 k × 18 k, mostly by merging the sequences of information sets left with one selected
action into their parent's, and solved from scratch it then takes 6.5 s against 55 s without
presolve; but presolve is skipped whenever a basis is kept. That merge is therefore done here
(:mod:`~loveformal.solver.restricted`): the same last LP is 31 k × 37 k. A model grown in
place (new rows and columns only) took the LP alone 20.1 s on that position; rebuilt merged
at each growth, 14–15 s (HiGHS itself 19 s → 8–10 s, rebuilding and carrying the basis over
2–3 s). The smaller benchmark LPs move by up to ±0.4 s either way (4 cards left, seed 4000:
1.7–2.0 s both ways). Solving each merged growth in one piece instead of the halves cost
thousands of iterations per growth (67 s in all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse

from .efg import block_offsets
from .restricted import RestrictedModel
from .warm import cfr_averages

__all__ = ["Restricted", "SequenceTree", "StepProgress", "per_set", "solve_restricted"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
UNREACHED = 1e-12
"""Plan mass below which an information set counts as unreached (as in ``seqform``)."""
StepProgress = Callable[[int, float, tuple[int, int]], None]
"""``on_step(step, gap, (own sequences, opponent sequences selected))``; ``seqform.solve``
adds step 0 (gap NaN, every sequence) when it falls back to the whole LP."""
TOLERANCE = 1e-10
"""Largest gap (value-bracket width, in utility units) at which the loop stops."""
MAX_STEPS = 500
"""A safety bound on the number of restricted LPs (the loop stops long before on real games)."""
POLISH_BELOW = 1e-7
"""Gap below which the restricted LP is solved once more, from its basis and before it grows
again, with feasibility tolerances of 1e-10 instead of HiGHS's 1e-7
(:meth:`~loveformal.solver.restricted.RestrictedModel.tighten`, kept for the rest of the loop).
A gap that small can be the LP's own tolerance: on classic with 5 cards left, seed 5007, it
stalled at 6.0e-9 for nine growths (each best response's new sequences a tie); then, with
both best responses inside the restricted game, the loop's cold restart (from scratch, tight
tolerances) found another optimal vertex of the restricted game, exploitable in the whole
game by 0.27, and took 18.7 s and eight more growths to close that. Seed 5011 did the same
from 2.8e-9 (reopened to 0.048). Polished, seed 5007's gap falls to 3e-16 in one warm
re-solve (the thirty-sixth session, the LP alone on the saved matrices, old and new in
turns): seed 5007 42 → 26 restricted LPs, 88.4 → 26.3 s; seed 5011 38 → 23, 25.5 → 13.6 s.
The other 38 saved benchmark LPs with 4 and 5 cards left never polish: the same restricted
LPs, the times within their noise (136.7 → 133.9 s in all). Thresholds of 1e-5 did about as
well; 1e-3 was faster on seed 5011 (11.5 s) and nearly twice as slow on
2019 seed 5004 (46.1 s against 20.6–23.8)."""
IMPROVEMENT = 1e-13
"""Counterfactual gain below which a selected action counts as good as the best one
(:meth:`SequenceTree.improvements`): float noise, far below :data:`TOLERANCE`."""
SIBLINGS_BELOW = 0.05
"""Gap below which each growth also takes in every action of the opponent's information sets
where it adds one at the top of the restricted game (:meth:`SequenceTree.siblings`). Once the
gap is small the LP player's value is right, but the LP returns one of its many optimal
plans, and the opponent's best response exploits that plan through one untried action of a
set; with that action added, the next plan is exploited through a sibling of it (a Guard's
other guesses, another target). On 2019, 4 cards left, seed 4003 the opponent's plan was
already optimal from the 14th restricted LP on, and the gap stayed between 5.4e-4 and 2e-3
for 14 more, each adding a few actions of the same sets (thirty-fourth session).

The LP alone on the saved matrices of 30 benchmark endgames (restricted LPs and seconds, best
of two, run in turns): 2019 seed 4003 30 → 13, 5.11 → 3.54 s; classic, 5 cards left, seed
5001 18 → 14, 4.17 → 3.82 s; seed 5008 8 → 6, 1.21 → 1.08 s; 2019 seed 4005 11 → 9, 2.59 →
2.48 s; all 30 together 26.1 → 24.8 s. The small ones move by up to 0.2 s either way (2019
seed 4008 16 → 17, 2.30 → 2.51 s; classic seed 5005 9 → 11, 0.67 → 0.84 s). From the first
growth on (no threshold) seed 4003 took 14 LPs but 6.2 s (47 k opponent sequences instead
of 24 k). Thresholds of 0.01 and 0.1, and the siblings of both players' sets, did about as
well in another pair of runs (within their noise); taking them in only after a step that
closed less than half, or 30 %, of the gap did worse (seed 4003: 17 LPs)."""
MAX_SHARE = 0.8
"""Share of all sequences past which the restricted game is given up for the whole LP."""


class SequenceTree:
    """One player's sequences and information sets, in the row order of
    :func:`~loveformal.solver.seqform.constraint_matrix` (row 0 is the empty sequence's, row
    ``r ≥ 1`` is information set ``r − 1`` of the player), with vectorised best responses."""

    def __init__(self, constraints: scipy.sparse.spmatrix) -> None:
        """From the player's constraint matrix (``E`` or ``F``): row ``r ≥ 1`` has ``−1`` at
        the information set's parent sequence and ``+1`` at each of its sequences."""
        coo = scipy.sparse.coo_matrix(constraints)
        self.rows, self.sequences = coo.shape
        r, c, v = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
        own = v > 0
        self.count = np.bincount(r[own], minlength=self.rows).astype(np.int64)
        self.first = np.full(self.rows, self.sequences, dtype=np.int64)
        np.minimum.at(self.first, r[own], c[own])
        self.parent = np.full(self.rows, -1, dtype=np.int64)
        self.parent[r[~own]] = c[~own]
        parent, first, count = self.parent[1:], self.first[1:], self.count[1:]
        # Depth of each information set: one more than its parent sequence's.
        # Every information set's sequences at once (for per-set normalisations).
        self.all_seqs = np.repeat(first, count) + block_offsets(count)
        self.all_starts = np.cumsum(count) - count
        seq_depth = np.zeros(self.sequences, dtype=np.int64)
        depth = np.zeros(self.rows - 1, dtype=np.int64)
        for _ in range(self.rows):
            new = seq_depth[parent] + 1
            if np.array_equal(new, depth):
                break
            depth = new
            seq_depth[self.all_seqs] = np.repeat(depth, count)
        self.all_k = np.repeat(count, count).astype(np.float64)
        self.all_segment = np.repeat(np.arange(self.rows - 1), count)
        self.levels: list[tuple[IntArray, IntArray, IntArray, IntArray]] = []
        for d in range(1, int(depth.max(initial=0)) + 1):
            at = np.flatnonzero(depth == d)
            k = count[at]
            seqs = np.repeat(first[at], k) + block_offsets(k)
            starts = np.concatenate([[0], np.cumsum(k)[:-1]])
            self.levels.append((at + 1, seqs, starts, np.repeat(np.arange(len(at)), k)))
        self.row_of = np.zeros(self.sequences, dtype=np.int64)
        """Each sequence's row (its information set's; 0 for the empty sequence)."""
        self.row_of[self.all_seqs] = np.repeat(np.arange(1, self.rows), count)
        self._contiguous = bool(np.array_equal(self.all_seqs, np.arange(1, self.sequences)))
        """Whether the information sets' sequences are 1, 2, ... in order (as
        ``seqform.constraint_matrix`` numbers them): then per-set work takes slices."""

    def best_response(self, contribution: FloatArray, maximise: bool) -> tuple[float, BoolArray]:
        """The value of a pure best response, given each sequence's own payoff contribution
        (the payoff matrix times the opponent's plan), and the sequences it reaches."""
        value = contribution.astype(np.float64, copy=True)
        choice: list[IntArray] = []
        for rows, seqs, starts, segment in reversed(self.levels):
            v = value[seqs]
            best = (np.maximum if maximise else np.minimum).reduceat(v, starts)
            hit = np.flatnonzero(v == best[segment])
            choice.append(seqs[hit[_first_of_runs(segment[hit])]])
            np.add.at(value, self.parent[rows], best)
        reached = np.zeros(self.sequences, dtype=np.bool_)
        reached[0] = True
        for (rows, _, _, _), chosen in zip(self.levels, reversed(choice), strict=True):
            on = reached[self.parent[rows]]
            reached[chosen[on]] = True
        return float(value[0]), reached

    def improvements(
        self, contribution: FloatArray, maximise: bool, selected: BoolArray
    ) -> BoolArray:
        """The sequences a best response adds below *every* selected sequence, not only on its
        own path: at each information set whose parent sequence is selected (or added here),
        the action of greatest value (bottom-up, with a best response below), unless a
        selected action is within :data:`IMPROVEMENT` of it (then nothing is added there).

        One growth step thus takes in each deviation that gains locally, wherever it lies;
        the pure best response only finds those its own path reaches, one path per step."""
        value = contribution.astype(np.float64, copy=True)
        sign = 1.0 if maximise else -1.0
        choice: list[IntArray] = []
        for rows, seqs, starts, segment in reversed(self.levels):
            v = sign * value[seqs]
            best = np.maximum.reduceat(v, starts)
            sel = selected[seqs]
            best_selected = np.maximum.reduceat(np.where(sel, v, -np.inf), starts)
            stay = best_selected >= best - IMPROVEMENT
            target = np.where(stay, best_selected, best)
            hit = np.flatnonzero((v == target[segment]) & (sel | ~stay[segment]))
            choice.append(seqs[hit[_first_of_runs(segment[hit])]])
            np.add.at(value, self.parent[rows], sign * best)
        reached = selected.copy()
        reached[0] = True
        for (rows, _, _, _), chosen in zip(self.levels, reversed(choice), strict=True):
            on = reached[self.parent[rows]]
            reached[chosen[on]] = True
        return reached

    def siblings(self, selected: BoolArray, grown: BoolArray) -> BoolArray:
        """``grown`` with every action of each information set where it adds an action to
        ``selected`` at the top of ``selected`` (the information set's parent sequence is
        selected). Below those actions nothing is added: :meth:`improvements` then supplies
        each new information set with a best action."""
        fresh = np.flatnonzero(grown & ~selected)
        rows = self.row_of[fresh]
        rows = np.unique(rows[selected[self.parent[rows]]])
        out = grown.copy()
        k = self.count[rows]
        out[np.repeat(self.first[rows], k) + block_offsets(k)] = True
        return out

    def counterfactual(
        self, contribution: FloatArray, behaviour: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """Each sequence's value when this player follows ``behaviour`` below it (bottom-up),
        and each sequence's instantaneous regret (its value minus its information set's)."""
        value = contribution.astype(np.float64, copy=True)
        regret = np.zeros(self.sequences)
        for rows, seqs, starts, segment in reversed(self.levels):
            v = value[seqs]
            expected = np.add.reduceat(v * behaviour[seqs], starts)
            regret[seqs] = v - expected[segment]
            np.add.at(value, self.parent[rows], expected)
        return value, regret

    def normalised(self, plan: FloatArray) -> FloatArray:
        """The plan of the behaviour strategy read off ``plan`` the way
        :mod:`~loveformal.solver.seqform` reads it (each information set's entries over their
        sum; uniform below :data:`~loveformal.solver.seqform.UNREACHED`), so that LP
        tolerances do not leave it slightly infeasible."""
        return self.plan_of(self._per_set(plan, UNREACHED))

    def plan_of(self, behaviour: FloatArray) -> FloatArray:
        """The realization plan of a behaviour strategy (per-sequence action probabilities)."""
        plan = np.zeros(self.sequences)
        plan[0] = 1.0
        for rows, seqs, _, segment in self.levels:
            plan[seqs] = plan[self.parent[rows]][segment] * behaviour[seqs]
        return plan

    def matched(self, positive: FloatArray) -> FloatArray:
        """Regret matching: each information set's actions in proportion to ``positive``
        (uniform where all are 0)."""
        return self._per_set(positive, 0.0)

    def _per_set(self, mass: FloatArray, floor: float) -> FloatArray:
        """Each information set's entries of ``mass`` over their sum (uniform where the sum
        is at most ``floor``); the empty sequence gets 1."""
        out = np.ones(self.sequences)
        if self._contiguous and self.all_seqs.size:
            out[1:] = per_set(mass[1:], self.all_starts, self.all_segment, self.all_k, floor)
        elif self.all_seqs.size:
            out[self.all_seqs] = per_set(
                mass[self.all_seqs], self.all_starts, self.all_segment, self.all_k, floor
            )
        return out

    def support(self, plan: FloatArray, threshold: float) -> BoolArray:
        """The sequences a plan plays with conditional probability ≥ ``threshold`` (and each
        reached information set's most likely action), from the root down."""
        keep = np.zeros(self.sequences, dtype=np.bool_)
        keep[0] = True
        for rows, seqs, starts, segment in self.levels:
            mass = plan[seqs]
            parent_mass = plan[self.parent[rows]][segment]
            cond = mass / np.where(parent_mass > 0, parent_mass, 1.0)
            top = np.maximum.reduceat(cond, starts)[segment]
            on = keep[self.parent[rows]][segment]
            keep[seqs] = on & ((cond >= threshold) | (cond == top))
        return keep

    def uniform(self) -> FloatArray:
        """The realization plan of the uniformly random behaviour strategy."""
        return self.plan_of(self.matched(np.zeros(self.sequences)))

    def live(self, selected: BoolArray) -> BoolArray:
        """The rows whose information set is reached by a selected sequence (row 0 always)."""
        out = np.zeros(self.rows, dtype=np.bool_)
        out[0] = True
        out[1:] = selected[self.parent[1:]]
        return out


def _first_of_runs(keys: IntArray) -> IntArray:
    """Where each run of equal values of ``keys`` begins: for sorted keys ≥ 0 (the callers'
    information-set numbers), the first index of each distinct key, as ``np.unique`` gives."""
    return np.flatnonzero(np.diff(keys, prepend=-1))


def per_set(
    mass: FloatArray, starts: IntArray, segment: IntArray, k: FloatArray, floor: float
) -> FloatArray:
    """Normalise consecutive blocks of ``mass`` (block ``i`` starts at ``starts[i]``;
    ``segment`` and ``k`` give each entry's block and block size): each entry over its block's
    sum, or ``1 / k`` where that sum is at most ``floor``."""
    total = np.add.reduceat(mass, starts)
    above = total > floor
    if above.all():
        whole: FloatArray = mass / total[segment]
        return whole
    out: FloatArray = np.where(above[segment], mass / np.where(above, total, 1.0)[segment], 1.0 / k)
    return out


@dataclass(frozen=True)
class Restricted:
    """Result of :func:`solve_restricted`."""

    objective: float
    """The optimum of the last restricted LP (in the form ``min cᵀz`` of the caller), clamped
    into the best responses' bracket."""
    plan: FloatArray
    """The LP player's realization plan over all its sequences, normalised per information
    set (0 outside the restricted game, up to the uniform play at unreached sets)."""
    opponent_plan: FloatArray
    """The opponent's plan, from the duals of its rows (0 outside the restricted game),
    normalised per information set."""
    gap: float
    """``BR_0 − BR_1`` of the profile in the whole game (the stopping test; ≥ 0)."""
    steps: int
    """Restricted LPs solved."""
    selected: tuple[int, int]
    """Sequences selected at the end (LP player, opponent)."""
    model: RestrictedModel | None = field(default=None, compare=False, repr=False)
    """The last restricted LP, solved (its basis gives the exact vertex:
    :mod:`~loveformal.solver.vertex`)."""


def solve_restricted(
    own_constraints: scipy.sparse.spmatrix,
    opp_constraints: scipy.sparse.spmatrix,
    payoff: scipy.sparse.csr_matrix,
    *,
    highs: Any,
    tol: float = TOLERANCE,
    on_step: StepProgress | None = None,
) -> Restricted | None:
    """Solve one player's LP of :func:`~loveformal.solver.seqform._player_lp` by growing a
    restricted game (module docstring). The constraint matrices are the LP player's and its
    opponent's (``E``/``F``), ``payoff`` the LP player's payoff matrix (own × opponent
    sequences), ``highs`` an empty HiGHS instance; ``on_step`` is told each step's number, gap
    and selected sequences. Returns None when the loop cannot close the gap or HiGHS finds no
    optimum of a restricted LP (the caller then solves the whole LP)."""
    highs.setOptionValue("simplex_dual_edge_weight_strategy", 1)  # devex: see the docstring
    own, opp = SequenceTree(own_constraints), SequenceTree(opp_constraints)
    n_own, n_opp = own.sequences, opp.sequences
    pay_t = payoff.T.tocsr()
    own_sel, opp_sel = _warm_support(own, opp, payoff, pay_t)
    model = RestrictedModel(highs, own, opp, payoff)
    cold = retried = polished = False
    whole = n_own + n_opp
    for step in range(1, MAX_STEPS + 1):
        if int(own_sel.sum()) + int(opp_sel.sum()) > MAX_SHARE * whole:
            return None  # hardly smaller than the whole LP: solve that instead
        solved = _grow_and_run(model, own_sel, opp_sel, cold)
        if solved is None:
            return None
        objective, x, y = solved
        cold = False
        x, y = own.normalised(x), opp.normalised(y)
        to_own, to_opp = payoff @ y, pay_t @ x
        best_own, own_br = own.best_response(to_own, maximise=True)
        best_opp, opp_br = opp.best_response(to_opp, maximise=False)
        gap = best_own - best_opp
        if on_step is not None:
            on_step(step, gap, model.selected())
        if gap < -tol:
            return None  # best responses below the value they bound: something is wrong
        if gap <= tol:
            # The LP player's value lies in [best_opp, best_own]; the objective is its
            # negative, kept inside that bracket despite LP tolerances.
            value = min(max(-objective, best_opp), best_own)
            return Restricted(-value, x, y, max(gap, 0.0), step, model.selected(), model)
        if gap < POLISH_BELOW and not polished:
            model.tighten()
            polished = True
            continue  # the same restricted LP once more, from its basis
        if not ((own_br & ~own_sel).any() or (opp_br & ~opp_sel).any()):
            # Both best responses lie in the restricted game: the gap is LP tolerance. Solve
            # it once more from scratch with tighter tolerances, then give up.
            if retried:
                return None
            cold = retried = True
            polished = True  # the cold retry runs with the tight tolerances already
        own_next = own.improvements(to_own, True, own_sel | own_br)
        opp_next = opp.improvements(to_opp, False, opp_sel | opp_br)
        if gap < SIBLINGS_BELOW:
            opp_next = opp.improvements(to_opp, False, opp.siblings(opp_sel, opp_next))
        own_sel, opp_sel = own_next, opp_next
    return None


def _grow_and_run(
    model: RestrictedModel,
    own_sel: BoolArray,
    opp_sel: BoolArray,
    cold: bool,
) -> tuple[float, FloatArray, FloatArray] | None:
    """Grow the model to the selection and solve it (None if HiGHS refuses or fails). After
    the first LP, in two halves: with the LP player's new sequences held at 0, the opponent's
    new ones (rows: the basis stays dual feasible) with the dual simplex, then the LP
    player's released (columns: it stays primal feasible) with the primal simplex."""
    first = model.lp is None
    added = model.grow(own_sel, opp_sel, hold=not (first or cold))
    if added is None:
        return None
    if first or cold:
        return model.run(cold, DUAL)
    solved = model.run(False, DUAL) if added else None
    if added and solved is None:
        return None
    released = model.release()
    if released is None:
        return None
    if released or solved is None:
        solved = model.run(False, PRIMAL)
    return solved


DUAL, PRIMAL = 1, 4
"""HiGHS ``simplex_strategy`` values."""

WARM_ITERATIONS = 100
"""Iterations of CFR+ whose average picks the first restricted game. With the LP grown in
halves, 100 was the best compromise on the benchmark positions (module docstring): 200 was
slower on all of them, 50 faster on the smaller ones but nearly twice as slow with 5 cards
left. The 100 iterations take 1.9–2.0 s on the saved matrices of classic with 5 cards left
(seed 5001; best of three, twice), 2.4–2.5 s before regret matching worked on slices."""
SUPPORT_THRESHOLD = 1e-2
"""Conditional probability at which an action of the CFR+ average joins the first
restricted game. 1e-2 since the twenty-third session (1e-3 before). The LP alone, 1e-3 →
1e-2, run in turns (idle): 2019 edition, 4 cards left, seed 4003: 16.1 → 8.6–11.9 s and
again 14.3 → 9.8 s (31 → 28 steps; the last restricted game 28 k × 31 k → 26 k × 24 k
sequences), seed 4008: 5.4 → 5.4 s; classic, 5 cards left, seed 5001: 10.4 → 8.3–8.5 s and
again 11.1 → 8.7 s (37 k × 30 k → 34 k × 28 k), seeds 5002 and 5009: 4.0 → 3.4–3.5 and
3.3 → 3.1 s; the small LPs move by a few tenths either way (seed 5005: 2.5 and 2.7 → 2.2 and
2.8 s; seed 5006: 1.4 and 1.6 → 1.9 and 1.7 s; 4 cards left, seed 4000: 1.7 → 1.7 s). 3e-2
was mixed (seed 4003 7.5 s; seeds 5001 and 5002 slower than at 1e-2); 1e-4 for the
opponent alone doubled seed 5001's LP (53 k opponent sequences selected)."""


def _warm_support(
    own: SequenceTree,
    opp: SequenceTree,
    payoff: scipy.sparse.csr_matrix,
    pay_t: scipy.sparse.csr_matrix,
) -> tuple[BoolArray, BoolArray]:
    """The first restricted game: the support of a short run of CFR+ (alternating updates,
    linear averaging) in sequence form, plus both players' best responses to its average.
    Any start is sound (the loop only grows it); a good one saves restricted LPs."""
    avg_x, avg_y = cfr_averages(own, opp, payoff, pay_t, WARM_ITERATIONS)
    _, own_br = own.best_response(payoff @ avg_y, maximise=True)
    _, opp_br = opp.best_response(pay_t @ avg_x, maximise=False)
    own_sel = own.support(avg_x, SUPPORT_THRESHOLD) | own_br
    opp_sel = opp.support(avg_y, SUPPORT_THRESHOLD) | opp_br
    return own_sel, opp_sel
