"""The set-aside card pooled with the pile (``Reductions.pool_aside``, ``endgame.pool_deals``).

The reduced build makes the deals that differ only in which card of their pool (the set-aside
card and the pile's unseen cards) is set aside one root outcome, whose draws come from the
pool. That is the same game (the proof is in ``pool_deals``' docstring); these tests check
that it solves to the same exact value, with the same determinized (PIMC) figures and the same
full-tree size, as the build with one root outcome per deal; that a prior which weighs the
set-aside card apart is never pooled (planted: pooled anyway, the value changes); and that the
determinized value needs the deals' own set-aside cards (the pooled tree's own minimax differs).
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction

import pytest

from loveformal.cards import Card, sort_cards
from loveformal.solver import endgame as endgame_module
from loveformal.solver import pimc
from loveformal.solver.analysis import EndgameResult, solve_position
from loveformal.solver.endgame import (
    Deal,
    Reductions,
    _TreeWalker,
    build_endgame,
    deal_state,
    enumerate_deals,
    pool_deals,
)
from loveformal.solver.levels import _Dag
from loveformal.solver.pimc import PoolDeal, minimax_values
from loveformal.state import State

from .test_fast_build import bench_position
from .test_reductions import check_against_full

UNPOOLED = Reductions(pool_aside=False)

CASES = [
    ("classic", 1, 0),
    ("classic", 1, 10),
    ("classic", 2, 0),
    ("classic", 2, 3),
    ("classic", 3, 4),
    ("classic", 3, 7),
    ("z2019", 2, 2),
    ("z2019", 2, 5),
    ("z2019", 3, 11),
    ("z2019", 3, 8),  # a Chancellor's returns under the pile: pooled above them
]


def figures(r: EndgameResult) -> tuple[object, ...]:
    """What must not depend on pooling: the exact value and bracket, the determinized value
    and each root action's, and the full tree's size."""
    return (
        r.value,
        r.bracket,
        r.exploitability,
        r.pimc,
        tuple((a.action, a.pimc) for a in r.actions),
        r.sizes.deals,
        r.sizes.full_histories,
    )


@pytest.mark.parametrize(("edition", "k", "index"), CASES)
def test_pooled_build_solves_the_same_game(edition: str, k: int, index: int) -> None:
    state = bench_position(edition, k, index)
    pooled = solve_position(state, reduce=True)
    apart = solve_position(state, reduce=UNPOOLED)
    assert pooled.exploitability == 0 and pooled.value is not None
    assert figures(pooled) == figures(apart)
    # Not vacuous: the deals were pooled, and the full tree's size is the unpooled count.
    eg = build_endgame(state, reduce=True, merge_dead_guesses=True)
    assert eg.groups is not None and len(eg.groups) < len(eg.deals) == pooled.sizes.deals
    full = build_endgame(state, merge_dead_guesses=True)
    assert pooled.sizes.full_histories == full.game.num_nodes
    assert any("root outcomes" in note for note in pooled.notes)


def test_pool_deals_groups_in_proportion_to_the_copies() -> None:
    state = bench_position("classic", 2, 3)
    deals = enumerate_deals(state)
    groups = pool_deals(deals)
    assert groups is not None and len(groups) < len(deals)
    assert sorted(i for m in groups for i in m) == list(range(len(deals)))
    for members in groups:
        first = deals[members[0]]
        assert first.set_aside is not None
        pool = sort_cards((*first.pile, first.set_aside))
        copies = Counter(pool)
        total = sum((deals[i].weight for i in members), Fraction(0))
        assert {deals[i].set_aside for i in members} == set(copies)
        for i in members:
            d = deals[i]
            assert d.set_aside is not None and d.hands == first.hands
            assert sort_cards((*d.pile, d.set_aside)) == pool
            assert d.weight / total == Fraction(copies[d.set_aside], len(pool))


def aside_prior(state: State, arrangements: int) -> int:
    """Weighs deals with the Princess set aside three times as much (common knowledge)."""
    return arrangements * (3 if state.set_aside is Card.PRINCESS else 1)


def test_a_prior_that_weighs_the_set_aside_card_apart_is_not_pooled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = bench_position("classic", 2, 3)
    deals = enumerate_deals(state, prior=aside_prior)
    assert pool_deals(deals) is None
    eg = build_endgame(state, reduce=True, merge_dead_guesses=True, prior=aside_prior)
    assert eg.groups is None
    right = solve_position(state, prior=aside_prior, pimc=False, reduce=True)
    assert right.value == solve_position(state, prior=aside_prior, pimc=False).value  # full tree
    assert right.value == Fraction(3679, 23040)

    # Planted: pooled although the weights are not in proportion -> another game, another value.
    def every_group(ds: Sequence[Deal]) -> list[list[int]]:
        groups: dict[object, list[int]] = {}
        for i, d in enumerate(ds):
            key = (d.hands, sort_cards((*d.pile, d.set_aside))) if d.set_aside else (i,)
            groups.setdefault(key, []).append(i)
        return list(groups.values())

    monkeypatch.setattr(endgame_module, "pool_deals", every_group)
    wrong = solve_position(state, prior=aside_prior, pimc=False, reduce=True)
    assert wrong.value is not None and wrong.value != right.value


def test_the_determinized_value_needs_each_deals_set_aside_card() -> None:
    """The determinized player knows the set-aside card; the pooled tree's own minimax does
    not, and differs here (classic, 1 card left, seed 1000: −5/48 against −1/12)."""
    state = bench_position("classic", 1, 0)
    r = solve_position(state, reduce=True)
    apart = solve_position(state, reduce=UNPOOLED)
    assert r.pimc == apart.pimc == Fraction(-5, 48) * (1 if r.seat == 0 else -1)
    eg = build_endgame(state, reduce=True, merge_dead_guesses=True)
    assert eg.groups is not None and eg.determinized is None  # only when asked
    sign = 1 if r.seat == 0 else -1
    assert sign * minimax_values(eg.game)[0] == Fraction(-1, 12) * (1 if r.seat == 0 else -1)


def test_a_pooled_deal_without_its_set_aside_card_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deal whose node has a pooled draw below it cannot be valued without its set-aside
    card (the draw's probabilities depend on it): the determinized pass says so rather than
    take the pool's."""
    seen: list[tuple[Sequence[PoolDeal], object]] = []
    real = pimc.pooled_minimax

    def spy(
        deals: Sequence[PoolDeal], dag: _Dag
    ) -> list[tuple[Fraction, dict[Hashable, Fraction]]]:
        seen.append((deals, dag))
        return real(deals, dag)

    monkeypatch.setattr(pimc, "pooled_minimax", spy)
    build_endgame(bench_position("classic", 2, 3), reduce=True, determinize=True)
    ((deals, dag),) = seen
    pooled = next(d for d in deals if d.aside is not None)
    assert isinstance(dag, _Dag)
    assert real([pooled], dag)  # with its card it is valued
    with pytest.raises(ValueError, match="needs its set-aside card"):
        real([PoolDeal(pooled.entry, None)], dag)


def test_the_exact_step_of_the_determinized_pass() -> None:
    """One node's exact value from its candidates (:func:`~loveformal.solver.pimc._combine`):
    the best for the player at a decision, a weighted sum at a chance node, divided by the
    pile's size at a pooled draw."""
    third, half = Fraction(1, 3), Fraction(1, 2)
    assert pimc._combine([third, half], [], [], True, None) == half
    assert pimc._combine([third, half], [], [], False, None) == third
    # Probabilities 1/4 and 3/4 of the values 1/3 and −1/2: 1/12 − 3/8 = −7/24.
    assert pimc._combine([], [1 * 1, 3 * -1], [4 * 3, 4 * 2], True, None) == Fraction(-7, 24)
    # A pooled draw from a pool of 4 whose set-aside card is the one Priest: the pile holds
    # 2 Guards and the Baron (copies 2 and 1, over 4 − 1), of values 1/3 and −1/2.
    assert pimc._combine([], [2 * 1, 1 * -1], [3, 2], True, 3) == Fraction(1, 18)


def test_a_prior_that_leaves_a_set_aside_card_out_is_not_pooled() -> None:
    """Weight 0 on the deals with the Princess set aside: no group holds one deal per card
    of its pool set aside, so nothing is pooled, and the reduced game keeps the full tree's
    value."""
    state = bench_position("classic", 2, 3)

    def no_princess_aside(s: State, arrangements: int) -> int:
        return 0 if s.set_aside is Card.PRINCESS else arrangements

    deals = enumerate_deals(state, prior=no_princess_aside)
    assert deals and all(d.set_aside is not Card.PRINCESS for d in deals)
    assert pool_deals(deals) is None
    reduced = solve_position(state, prior=no_princess_aside, pimc=False, reduce=True)
    assert reduced.value == solve_position(state, prior=no_princess_aside, pimc=False).value


def test_pooled_states_share_one_engine_node() -> None:
    """Two deals of one pool reach the same memoised engine node, and an unpooled walker
    keeps them apart."""
    state = bench_position("classic", 2, 3)
    deals = enumerate_deals(state)
    groups = pool_deals(deals)
    assert groups is not None
    members = next(m for m in groups if len(m) > 1)
    a, b = (deal_state(state, deals[i]) for i in members[:2])
    assert a.set_aside is not b.set_aside
    for pooled in (True, False):
        walker = _TreeWalker(state, "round", True, 10**6, 2)
        walker.pool_aside = pooled
        assert (walker.entry(a) is walker.entry(b)) is pooled


def test_pooled_equilibrium_above_returned_cards_is_one_of_the_full_game() -> None:
    """2019 edition, 3 cards left, seed 3008: every deal has a Chancellor's returns under an
    unseen card (480 deals, 270 root outcomes). The pooled reduced game's equilibrium,
    extended to the full tree, has the same exact figures there."""
    state = bench_position("z2019", 3, 8)
    _, red = check_against_full(state, Reductions())
    assert red.groups is not None and len(red.groups) == 270 and len(red.deals) == 480
    assert all(d.bottom for d in red.deals)


def test_the_determinized_pass_leaves_no_engine_nodes_to_the_collector() -> None:
    """The determinized pass's closures refer to one another; it empties their tables when it
    is done, so that the engine's nodes go when the solve drops them, not when the cyclic
    collector next runs (which the solver keeps paused: on classic with 5 cards left, seed
    5008, 9 million objects were left for it, and its first pass took 2 s)."""
    state = bench_position("classic", 3, 4)
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        result = solve_position(state, reduce=True)
        gc.collect()
        left = Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    assert result.pimc is not None  # the determinized pass ran (not vacuous)
    assert left["_Entry"] == left["State"] == 0, left.most_common(5)
