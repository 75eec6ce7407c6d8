"""The LP solved on a growing restricted game (:mod:`loveformal.solver.oracle`): the same
value and a certified equilibrium as the whole LP, on a restricted game that is really smaller;
its best responses agree with the exact certificate's; and a loop that cannot grow gives up
(the whole LP is solved) instead of returning an unproved profile."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import scipy.sparse

from loveformal.notation import parse_position
from loveformal.solver import oracle, seqform
from loveformal.solver.certify import certify
from loveformal.solver.efg import Game
from loveformal.solver.endgame import build_endgame
from loveformal.solver.restricted import RestrictedModel
from loveformal.solver.seqform import constraint_matrix, payoff_matrix, solve
from tests.solver.games import KUHN_VALUE, kuhn_poker
from tests.test_seqform_speed import random_game

BOUND = Fraction(1, 10**9)


@pytest.fixture(autouse=True)
def restrict_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """These games are small: grow a restricted game for them all the same."""
    monkeypatch.setattr(seqform, "RESTRICT_FROM", 0)


# Benchmark positions (bench/solver.py: classic k = 3 seed 3001, k = 4 seed 4001).
CLASSIC_K3 = (
    "classic 2p r1 start:P1 | P1 Priest d:Guard*2,Handmaid,Guard t0 | P2 Baron,Princess "
    "d:King,Prince t0 | deck - / Guard,Priest,Baron | aside Prince | up Handmaid,Countess,Guard "
    "| play P2"
)


def endgame(text: str) -> Game:
    return build_endgame(parse_position(text), merge_dead_guesses=True, reduce=True).game


def both_ways(game: Game) -> tuple[seqform.Solution, seqform.Solution]:
    return solve(game, restricted=True), solve(game, restricted=False)


def assert_whole_lp_answer(
    game: Game, sol: seqform.Solution, results: list[oracle.Restricted | None]
) -> None:
    """The restricted game gave up (once), and the answer is the whole LP's, certified."""
    assert results == [None]
    assert sol.restricted_steps == 0
    whole = solve(game, restricted=False)
    assert abs(sol.value - whole.value) < 1e-9
    assert certify(game, sol.strategies).exploitability <= BOUND


def test_kuhn_value_on_the_restricted_game() -> None:
    sol = solve(kuhn_poker())
    assert sol.restricted_steps >= 1
    assert abs(sol.value - float(KUHN_VALUE)) < 1e-12
    assert certify(kuhn_poker(), sol.strategies).exploitability <= BOUND


@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_random_games_same_value_and_certified(seed: int) -> None:
    game = random_game(seed, seed % 2)
    grown, whole = both_ways(game)
    assert whole.restricted_steps == 0
    assert abs(grown.value - whole.value) < 1e-9
    assert certify(game, grown.strategies).exploitability <= BOUND


@pytest.fixture
def results(monkeypatch: pytest.MonkeyPatch) -> list[oracle.Restricted | None]:
    """What each call of :func:`~loveformal.solver.oracle.solve_restricted` returned."""
    seen: list[oracle.Restricted | None] = []
    real_solve = oracle.solve_restricted

    def spy(*args: Any, **kwargs: Any) -> oracle.Restricted | None:
        seen.append(real_solve(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(seqform, "solve_restricted", spy)
    return seen


def test_endgame_restricted_game_is_smaller_and_certified(
    results: list[oracle.Restricted | None],
) -> None:
    game = endgame(CLASSIC_K3)
    grown, whole = both_ways(game)
    assert abs(grown.value - whole.value) < 1e-9
    assert certify(game, grown.strategies).exploitability <= BOUND
    # The loop did real work, on a restricted game that left sequences out.
    [got] = results
    assert got is not None and got.steps == grown.restricted_steps >= 1
    total = sorted((game.num_sequences(0), game.num_sequences(1)))
    assert got.selected[0] + got.selected[1] < total[0] + total[1]
    assert got.gap <= oracle.TOLERANCE


def _tree_and_matrices(
    game: Game, player: int
) -> tuple[oracle.SequenceTree, oracle.SequenceTree, scipy.sparse.csr_matrix]:
    a = payoff_matrix(game)
    e, f = constraint_matrix(game, 0), constraint_matrix(game, 1)
    if player == 0:
        return oracle.SequenceTree(e), oracle.SequenceTree(f), a
    return oracle.SequenceTree(f), oracle.SequenceTree(e), (-a.T).tocsr()


@pytest.mark.parametrize("player", [0, 1])
def test_best_response_values_match_the_exact_certificate(player: int) -> None:
    """Against the uniform profile, the vectorised best response of each player has the
    value the exact certificate computes (rational arithmetic, tree walk)."""
    game = endgame(CLASSIC_K3)
    own, opp, pay = _tree_and_matrices(game, player)
    value, reached = own.best_response(pay @ opp.uniform(), maximise=True)
    uniform = [
        {i.key: {a: Fraction(1, len(i.actions)) for a in i.actions} for i in game.infosets_of(p)}
        for p in range(2)
    ]
    cert = certify(game, uniform)
    exact = cert.best_response_values[player]
    assert abs(value - float(exact)) < 1e-12  # both in the player's own utility
    # The reached set is a pure plan: one action at each information set it reaches.
    for r in np.flatnonzero(own.live(reached))[1:]:
        first, k = int(own.first[r]), int(own.count[r])
        assert int(reached[first : first + k].sum()) == 1


def _values_by_recursion(tree: oracle.SequenceTree, contribution: oracle.FloatArray) -> list[float]:
    """Each sequence's value under a best response below it (maximising), by plain recursion
    over the tree's rows."""
    children: dict[int, list[int]] = {}
    for r in range(1, tree.rows):
        children.setdefault(int(tree.parent[r]), []).append(r)
    value: list[float] = [0.0] * tree.sequences

    def of(seq: int) -> float:
        total = float(contribution[seq])
        for r in children.get(seq, []):
            first, k = int(tree.first[r]), int(tree.count[r])
            total += max(of(s) for s in range(first, first + k))
        value[seq] = total
        return total

    of(0)
    return value


@pytest.mark.parametrize("player", [0, 1])
def test_improvements_add_each_local_best_action_below_every_selected_sequence(
    player: int,
) -> None:
    """Start from one pure plan and value the sequences against another player's plan: the
    improvements keep every selected sequence and, at each information set hanging from a
    kept sequence, add exactly one action when the best one beats every selected one (by more
    than IMPROVEMENT), namely a best one, and none otherwise; and they reach information sets
    off the best response's own path."""
    game = endgame(CLASSIC_K3)
    own, opp, pay = _tree_and_matrices(game, player)
    rng = np.random.default_rng(7)
    start_plan = own.plan_of(own.matched(rng.random(own.sequences)))
    _, selected = own.best_response(start_plan, maximise=True)  # some pure plan
    contribution = pay @ opp.plan_of(opp.matched(rng.random(opp.sequences)))
    got = own.improvements(contribution, True, selected)
    value = _values_by_recursion(own, contribution)
    assert np.all(got[selected])
    added_somewhere = off_path = 0
    _, on_path = own.best_response(contribution, maximise=True)
    for r in range(1, own.rows):
        first, k = int(own.first[r]), int(own.count[r])
        seqs = range(first, first + k)
        new = [s for s in seqs if got[s] and not selected[s]]
        if not got[int(own.parent[r])]:
            assert not new  # nothing below a sequence that is not kept
            continue
        best = max(value[s] for s in seqs)
        kept = [value[s] for s in seqs if selected[s]]
        if kept and max(kept) >= best - oracle.IMPROVEMENT:
            assert not new
        else:
            assert len(new) == 1 and abs(value[new[0]] - best) <= 1e-12
            added_somewhere += 1
            off_path += not on_path[new[0]]
    assert added_somewhere and off_path  # the test is not vacuous


@pytest.mark.parametrize("player", [0, 1])
def test_siblings_add_every_action_of_each_set_a_growth_enters_at_the_top(player: int) -> None:
    """From one pure plan grown by its improvements: every information set hanging from a
    selected sequence where the growth adds an action gets all its actions; every other
    sequence is in the result exactly when it was in the growth (nothing below the new
    actions, nothing where the parent was not selected before)."""
    game = endgame(CLASSIC_K3)
    own, opp, pay = _tree_and_matrices(game, player)
    rng = np.random.default_rng(11)
    _, selected = own.best_response(own.plan_of(own.matched(rng.random(own.sequences))), True)
    contribution = pay @ opp.plan_of(opp.matched(rng.random(opp.sequences)))
    grown = own.improvements(contribution, True, selected)
    got = own.siblings(selected, grown)
    widened = deeper = 0
    for r in range(1, own.rows):
        seqs = range(int(own.first[r]), int(own.first[r]) + int(own.count[r]))
        enters = any(grown[s] and not selected[s] for s in seqs)
        if enters and selected[int(own.parent[r])]:
            assert all(got[s] for s in seqs)
            widened += sum(not grown[s] for s in seqs)
        else:
            assert all(got[s] == grown[s] for s in seqs)
            deeper += enters
    assert widened and deeper  # both cases occur: the test is not vacuous
    assert np.array_equal(own.row_of[1:], np.repeat(np.arange(1, own.rows), own.count[1:]))


@pytest.mark.parametrize(
    ("edition", "k", "index"),
    [("classic", 3, 2), ("z2019", 3, 1), ("z2019", 3, 0)],
)
def test_siblings_from_the_first_growth_same_value_and_certified(
    monkeypatch: pytest.MonkeyPatch,
    results: list[oracle.Restricted | None],
    edition: str,
    k: int,
    index: int,
) -> None:
    """The siblings only ever add sequences, so the loop stays sound whenever they are taken
    in: taken in from the first growth (SIBLINGS_BELOW above any gap), they add sequences and
    the loop still ends at the whole LP's value with an exactly certified equilibrium, without
    falling back to the whole LP. Every growth keeps each information set hanging from a
    selected sequence supplied with a selected action (the new siblings' sets included)."""
    from tests.solver.test_fast_build import bench_position

    game = build_endgame(bench_position(edition, k, index), reduce=True).game
    monkeypatch.setattr(oracle, "SIBLINGS_BELOW", float("inf"))
    added: list[int] = []
    real = oracle.SequenceTree.siblings

    def counted(
        self: oracle.SequenceTree, selected: oracle.BoolArray, grown: oracle.BoolArray
    ) -> oracle.BoolArray:
        out = real(self, selected, grown)
        added.append(int(out.sum() - grown.sum()))
        return out

    monkeypatch.setattr(oracle.SequenceTree, "siblings", counted)
    real_grow = RestrictedModel.grow
    growths: list[bool] = []

    def supplied(tree: Any, selected: oracle.BoolArray) -> bool:
        has = np.zeros(tree.rows, dtype=np.bool_)
        has[tree.row_of[selected]] = True
        return bool(np.all(has[1:][selected[tree.parent[1:]]]))

    def checked_grow(
        self: RestrictedModel, own_sel: oracle.BoolArray, opp_sel: oracle.BoolArray, hold: bool
    ) -> int | None:
        growths.append(supplied(self.own, own_sel) and supplied(self.opp, opp_sel))
        return real_grow(self, own_sel, opp_sel, hold=hold)

    monkeypatch.setattr(RestrictedModel, "grow", checked_grow)
    grown, whole = both_ways(game)
    assert len(growths) > 1 and all(growths), growths
    [got] = results
    assert got is not None and got.gap <= oracle.TOLERANCE
    assert sum(added) > 0
    assert abs(grown.value - whole.value) < 1e-9
    assert certify(game, grown.strategies).exploitability <= BOUND


def test_normalised_plan_is_feasible() -> None:
    game = endgame(CLASSIC_K3)
    own, _, _ = _tree_and_matrices(game, 0)
    rng = np.random.default_rng(0)
    noisy = own.plan_of(own.matched(rng.random(own.sequences))) + 1e-9 * rng.random(own.sequences)
    plan = own.normalised(noisy)
    e = constraint_matrix(game, 0)
    rhs = np.zeros(e.shape[0])
    rhs[0] = 1.0
    assert np.abs(e @ plan - rhs).max() < 1e-12


@pytest.mark.parametrize("contiguous", [True, False])
def test_per_set_normalisation_is_the_definition(contiguous: bool) -> None:
    """Regret matching and plan normalisation: each information set's entries over their sum,
    uniform where the sum is at most the floor (here many sets are all 0, some tiny), on the
    slice path (sequences numbered set by set) and on the general one."""
    game = endgame(CLASSIC_K3)
    own, _, _ = _tree_and_matrices(game, 0)
    assert own._contiguous  # what constraint_matrix gives
    own._contiguous = contiguous
    rng = np.random.default_rng(3)
    mixed = np.where(rng.random(own.sequences) < 0.5, 0.0, rng.random(own.sequences))
    mixed[rng.random(own.sequences) < 0.1] = 1e-13
    positive = 0.1 + rng.random(own.sequences)  # every set above the floor: the fast path
    for mass, floor in itertools.product((mixed, positive), (0.0, oracle.UNREACHED)):
        got = own._per_set(mass, floor)
        assert got[0] == 1.0
        uniform = normal = 0
        for r in range(1, own.rows):
            seqs = range(int(own.first[r]), int(own.first[r]) + int(own.count[r]))
            total = sum(mass[s] for s in seqs)
            for s in seqs:
                want = mass[s] / total if total > floor else 1.0 / len(seqs)
                assert got[s] == pytest.approx(want, rel=1e-15, abs=0)  # summation order
            uniform += total <= floor
            normal += total > floor
        assert normal and (uniform or mass is positive)  # both cases occur


def test_first_of_runs_is_uniques_first_index() -> None:
    rng = np.random.default_rng(5)
    for size in (0, 1, 7, 500):
        keys = np.sort(rng.integers(0, 40, size))
        assert np.array_equal(oracle._first_of_runs(keys), np.unique(keys, return_index=True)[1])


def test_a_loop_that_cannot_grow_gives_up(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    """A planted bug: best responses whose reached sequences are never added (their values
    are right). The gap cannot close, so the loop returns None and solve() falls back to the
    whole LP: the answer is still a certified equilibrium, never the unproved restricted one."""
    game = endgame(CLASSIC_K3)
    real_br = oracle.SequenceTree.best_response

    def start(
        own: oracle.SequenceTree,
        opp: oracle.SequenceTree,
        payoff: scipy.sparse.csr_matrix,
        pay_t: scipy.sparse.csr_matrix,
    ) -> tuple[oracle.BoolArray, oracle.BoolArray]:
        # The best responses to uniform play: far from an equilibrium on this position.
        _, a = real_br(own, payoff @ opp.uniform(), True)
        _, b = real_br(opp, pay_t @ own.uniform(), False)
        return a, b

    def blind(
        self: oracle.SequenceTree, contribution: oracle.FloatArray, maximise: bool
    ) -> tuple[float, oracle.BoolArray]:
        value, _ = real_br(self, contribution, maximise)
        return value, np.zeros(self.sequences, dtype=np.bool_)

    def nothing_new(
        self: oracle.SequenceTree,
        contribution: oracle.FloatArray,
        maximise: bool,
        selected: oracle.BoolArray,
    ) -> oracle.BoolArray:
        return selected

    monkeypatch.setattr(oracle, "_warm_support", start)
    monkeypatch.setattr(oracle.SequenceTree, "best_response", blind)
    monkeypatch.setattr(oracle.SequenceTree, "improvements", nothing_new)
    sol = solve(game)
    monkeypatch.undo()
    assert_whole_lp_answer(game, sol, results)


def test_no_optimum_of_a_restricted_lp_falls_back_to_the_whole_lp(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    game = endgame(CLASSIC_K3)
    monkeypatch.setattr(RestrictedModel, "run", lambda self, cold, strategy: None)
    sol = solve(game)
    monkeypatch.undo()
    assert_whole_lp_answer(game, sol, results)


def test_no_optimum_of_a_later_primal_half_step_falls_back_to_the_whole_lp(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    """After the first LP the model grows in two halves; the primal half failing gives up."""
    game = endgame(CLASSIC_K3)
    real = RestrictedModel.run
    strategies: list[int] = []

    def run(
        self: RestrictedModel, cold: bool, strategy: int
    ) -> tuple[float, oracle.FloatArray, oracle.FloatArray] | None:
        strategies.append(strategy)
        return None if strategy == oracle.PRIMAL else real(self, cold, strategy)

    monkeypatch.setattr(RestrictedModel, "run", run)
    sol = solve(game)
    monkeypatch.undo()
    assert oracle.PRIMAL in strategies  # the fault was reached
    assert_whole_lp_answer(game, sol, results)


def test_a_refused_later_growth_falls_back_to_the_whole_lp(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    game = endgame(CLASSIC_K3)
    real = RestrictedModel.grow
    calls: list[int] = []

    def grow(
        self: RestrictedModel, own: oracle.BoolArray, opp: oracle.BoolArray, hold: bool = False
    ) -> int | None:
        calls.append(1)
        return real(self, own, opp, hold) if len(calls) == 1 else None

    monkeypatch.setattr(RestrictedModel, "grow", grow)
    sol = solve(game)
    monkeypatch.undo()
    assert len(calls) == 2  # the first growth, then the refused one
    assert_whole_lp_answer(game, sol, results)


def test_a_refused_growth_falls_back_to_the_whole_lp(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    game = endgame(CLASSIC_K3)
    monkeypatch.setattr(RestrictedModel, "grow", lambda self, *sel, **kw: None)
    heard: list[tuple[int, tuple[int, int]]] = []
    sol = solve(game, on_step=lambda step, gap, sel: heard.append((step, sel)))
    # The progress callback hears of the fallback: step 0, every sequence.
    assert heard == [(0, (game.num_sequences(0), game.num_sequences(1)))]
    monkeypatch.undo()
    assert_whole_lp_answer(game, sol, results)


def test_a_sign_error_in_the_best_responses_is_caught(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    """A planted bug: each best response optimises the wrong way. The gap comes out negative,
    which cannot happen, so the loop gives up rather than stop at once on a wrong profile."""
    game = endgame(CLASSIC_K3)
    real_br = oracle.SequenceTree.best_response

    def backwards(
        self: oracle.SequenceTree, contribution: oracle.FloatArray, maximise: bool
    ) -> tuple[float, oracle.BoolArray]:
        return real_br(self, contribution, not maximise)

    monkeypatch.setattr(oracle.SequenceTree, "best_response", backwards)
    sol = solve(game)
    monkeypatch.undo()
    assert_whole_lp_answer(game, sol, results)


def test_a_restricted_game_near_the_whole_game_is_given_up(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    game = endgame(CLASSIC_K3)
    monkeypatch.setattr(oracle, "MAX_SHARE", 0.0)
    sol = solve(game)
    monkeypatch.undo()
    assert_whole_lp_answer(game, sol, results)


def test_the_value_lies_in_the_best_response_bracket(
    results: list[oracle.Restricted | None],
) -> None:
    game = endgame(CLASSIC_K3)
    sol = solve(game)
    assert len(results) == 1 and results[0] is not None
    cert = certify(game, sol.strategies)
    assert cert.value_bracket is not None
    lo, hi = cert.value_bracket
    assert float(lo) - 1e-12 <= sol.value <= float(hi) + 1e-12


def test_solve_position_reports_each_restricted_lp() -> None:
    from loveformal.solver.analysis import solve_position

    steps: list[tuple[int, float, tuple[int, int]]] = []
    result = solve_position(
        parse_position(CLASSIC_K3),
        reduce=True,
        pimc=False,
        lp_progress=lambda step, gap, sel: steps.append((step, gap, sel)),
    )
    assert [s for s, _, _ in steps] == list(range(1, len(steps) + 1))
    assert steps[-1][1] <= oracle.TOLERANCE
    assert all(a[2][0] <= b[2][0] and a[2][1] <= b[2][1] for a, b in itertools.pairwise(steps))
    assert result.exploitability is not None and result.exploitability <= BOUND


@pytest.mark.parametrize(
    ("edition", "k", "index"),
    [("classic", 3, 0), ("classic", 2, 1), ("z2019", 3, 1), ("z2019", 4, 0), ("z2019", 2, 2)],
)
def test_benchmark_endgames_agree_with_the_whole_lp(edition: str, k: int, index: int) -> None:
    """Bench-style endgames of both editions (every one grown on a restricted game here):
    the same value as the whole LP, and the restricted equilibrium certified exactly."""
    from tests.solver.test_fast_build import bench_position

    game = build_endgame(bench_position(edition, k, index), reduce=True).game
    grown, whole = both_ways(game)
    assert grown.restricted_steps >= 1
    assert abs(grown.value - whole.value) < 1e-9
    cert = certify(game, grown.strategies)
    assert cert.exploitability <= BOUND
    assert cert.value_bracket is not None
    lo, hi = cert.value_bracket
    assert float(lo) - 1e-9 <= grown.value <= float(hi) + 1e-9


def test_a_gap_left_by_the_lp_tolerances_is_polished_from_the_basis(
    monkeypatch: pytest.MonkeyPatch, results: list[oracle.Restricted | None]
) -> None:
    """Once the gap is below POLISH_BELOW the same restricted LP is solved again from its basis
    with tolerances of 1e-10, before it grows. In the benchmark (classic, 5 cards left, seed
    5007) the gap stalled at 6e-9 for nine growths, then the cold restart's new vertex reopened
    it to 0.27: 42 restricted LPs and 88.4 s, against 26 and 26.3 s polished. No small game
    stalls at HiGHS's own tolerances (1e-7), so here they are loosened to 1e-4, the threshold
    with them, on classic, 4 cards left, seed 4001. Without the polish (planted: threshold 0)
    the gap stalls there at 3.6e-6 for three growths and the loop restarts cold (21 LPs);
    polished, it goes on from the basis without a cold restart (19). (Here the polished
    vertex is another one, as the cold restart's was; on seed 5007 it closed the gap.)"""
    from tests.solver.test_fast_build import bench_position

    game = build_endgame(bench_position("classic", 4, 1), reduce=True).game
    whole = solve(game, restricted=False).value  # (at HiGHS's own tolerances)
    real_new, real_run = seqform._new, RestrictedModel.run
    instances: list[Any] = []

    def loose() -> Any:
        h = real_new()
        h.setOptionValue("primal_feasibility_tolerance", 1e-4)
        h.setOptionValue("dual_feasibility_tolerance", 1e-4)
        instances.append(h)
        return h

    colds: list[bool] = []

    def run(
        self: RestrictedModel, cold: bool, strategy: int
    ) -> tuple[float, oracle.FloatArray, oracle.FloatArray] | None:
        colds.append(cold)
        return real_run(self, cold, strategy)

    monkeypatch.setattr(seqform, "_new", loose)
    monkeypatch.setattr(RestrictedModel, "run", run)
    steps: list[tuple[int, float, tuple[int, int]]] = []
    for threshold, restarts in ((1e-4, 0), (0.0, 1)):
        monkeypatch.setattr(oracle, "POLISH_BELOW", threshold)
        colds.clear()
        steps.clear()
        sol = solve(game, on_step=lambda s, g, sel: steps.append((s, g, sel)))
        got = results[-1]
        assert got is not None and got.gap <= oracle.TOLERANCE
        assert colds.count(True) == restarts
        assert abs(sol.value - whole) < 1e-9
        assert certify(game, sol.strategies).exploitability <= BOUND
        if threshold:
            # The step after the first gap below the threshold re-solved the same selection.
            first = next(i for i, (_, gap, _) in enumerate(steps) if gap < threshold)
            assert steps[first][1] > oracle.TOLERANCE and steps[first][2] == steps[first + 1][2]
            h = instances[-1]
            assert h.getOptionValue("primal_feasibility_tolerance")[1] == 1e-10
            assert h.getOptionValue("dual_feasibility_tolerance")[1] == 1e-10
