"""Determinized ("perfect-information Monte Carlo", exhaustively) value of a 2-player zero-sum game.

For each root chance outcome ("deal") ``d`` with probability ``w_d``, the subtree below it is
solved as if it were a perfect-information game: every player sees every node (information sets
are ignored), player 0 maximises and player 1 minimises player 0's utility, chance nodes take
expectations. The determinized value is ``Σ_d w_d · minimax(d)``; when the root is not a chance
node there is a single deal, the whole game.

This is a comparison figure, not a game value: it lets each player's choices depend on hidden
information (strategy fusion), so it differs from the sequence-form value whenever hidden
information matters (Kuhn poker: determinized 0, true −1/18). All arithmetic is exact.

:func:`perfect_information_values` values every node in rational arithmetic (the reference);
:func:`minimax_values`, which the solver uses, values every node in floats (vectorised) and
then in rational arithmetic only the nodes a choice can depend on: the same exact values, at
about a seventh of the cost on the benchmark endgames.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from loveformal.cards import Card, sort_cards

from .efg import CHANCE, DECISION, TERMINAL, Game, gc_paused
from .levels import _edges_of

if TYPE_CHECKING:
    from .endgame import _Entry
    from .levels import _Dag

__all__ = [
    "Determinized",
    "PoolDeal",
    "determinized_value",
    "float_minimax_values",
    "minimax_values",
    "perfect_information_values",
    "pooled_minimax",
]


TOLERANCE = 1e-9
"""Children of a decision whose float minimax values lie within this (times the largest
utility, at least 1) of the best one's are valued exactly (:func:`minimax_values`)."""


@dataclass(frozen=True)
class Determinized:
    """Result of :func:`determinized_value` (player 0's utility)."""

    value: Fraction
    deals: tuple[tuple[Hashable, Fraction, Fraction], ...]
    """``(outcome label, probability, minimax value)`` per root deal."""


def perfect_information_values(game: Game) -> list[Fraction]:
    """Minimax value (player 0's utility) of every node, ignoring information sets."""
    _check(game)
    exact = _exact_values(game, bytearray(b"\x01") * game.num_nodes)
    return [exact[n] for n in range(game.num_nodes)]


def _check(game: Game) -> None:
    if game.num_players != 2 or not game.is_zero_sum():
        raise ValueError("the determinized value is defined for two-player zero-sum games")


_Lists = tuple[list[int], list[int], list[int], list[int]]


def _lists(game: Game) -> _Lists:
    """The node kinds and players, the child offsets and the edges' children, as lists."""
    return (
        game.kind.tolist(),
        game.player.tolist(),
        game.child_start.tolist(),
        game.edge_child.tolist(),
    )


def _exact_values(
    game: Game, needed: bytearray, lists: _Lists | None = None
) -> dict[int, Fraction]:
    """The exact minimax values of the ``needed`` nodes, bottom-up; a decision takes the best
    of its needed children (it must have one), a chance node needs all of them."""
    kinds, players, starts, children = lists or _lists(game)
    exact: dict[int, Fraction] = {}
    for n in range(game.num_nodes - 1, -1, -1):
        if not needed[n]:
            continue
        k = kinds[n]
        if k == TERMINAL:
            u = game.utility_exact[n]
            assert u is not None
            exact[n] = u[0]
        elif k == CHANCE:
            total = Fraction(0)
            for e in range(starts[n], starts[n + 1]):
                p = game.edge_prob_exact[e]
                assert p is not None
                total += p * exact[children[e]]
            exact[n] = total
        else:
            kids = (children[e] for e in range(starts[n], starts[n + 1]))
            options = [exact[c] for c in kids if needed[c]]
            exact[n] = max(options) if players[n] == 0 else min(options)
    return exact


def float_minimax_values(game: Game) -> npt.NDArray[np.float64]:
    """:func:`perfect_information_values` in floats: on a tree one vectorised step per depth,
    deepest first; otherwise node by node."""
    kind, player = game.kind, game.player
    starts, child = game.child_start, game.edge_child
    values = game.utility[:, 0].astype(np.float64, copy=True)
    if not game.is_tree():
        probs = game.edge_prob.tolist()
        out = values.tolist()
        kinds, players = kind.tolist(), player.tolist()
        bounds, kids = starts.tolist(), child.tolist()
        for n in range(game.num_nodes - 1, -1, -1):
            if kinds[n] == TERMINAL:
                continue
            edges = range(bounds[n], bounds[n + 1])
            if kinds[n] == CHANCE:
                out[n] = sum(probs[e] * out[kids[e]] for e in edges)
            else:
                out[n] = (max if players[n] == 0 else min)(out[kids[e]] for e in edges)
        return np.array(out, dtype=np.float64)
    depth = game.depths()
    inner = kind != TERMINAL
    for d in range(int(depth.max(initial=0)), -1, -1):
        nodes = np.flatnonzero(inner & (depth == d))
        if nodes.size == 0:
            continue
        count = starts[nodes + 1] - starts[nodes]
        offsets = np.cumsum(count) - count
        edges = np.arange(int(count.sum())) + np.repeat(starts[nodes] - offsets, count)
        below = values[child[edges]]
        chance = kind[nodes] == CHANCE
        weighted = np.where(np.repeat(chance, count), game.edge_prob[edges] * below, below)
        sums = np.add.reduceat(weighted, offsets)
        chosen = np.where(
            player[nodes] == 0,
            np.maximum.reduceat(below, offsets),
            np.minimum.reduceat(below, offsets),
        )
        values[nodes] = np.where(chance, sums, chosen)
    return values


def minimax_values(game: Game, nodes: Iterable[int] = (0,)) -> dict[int, Fraction]:
    """The exact minimax values of :func:`perfect_information_values` for ``nodes`` (and of
    the nodes they needed, which the returned table also holds), computed exactly only where
    a choice can depend on it.

    A pass in floats values every node first. At a decision node, only the children whose
    float value lies within :data:`TOLERANCE` of the best one's can be the exact optimum (every
    float differs from its exact value by far less: rounding errors of about 1e-16 per
    operation, a few dozen operations deep), so only those are valued exactly; a chance node
    needs every child. The exact value of a decision node is then the best of its candidates'
    exact values, which is the exact minimax value.
    """
    _check(game)
    n_nodes = game.num_nodes
    lists = _lists(game)
    kinds, _, starts, children = lists
    floats = float_minimax_values(game).tolist()
    scale = max(1.0, float(np.abs(game.utility[:, 0]).max(initial=0.0)))
    tolerance = TOLERANCE * scale
    # Which nodes need an exact value (parents have smaller ids than their children).
    needed = bytearray(n_nodes)
    for n in list(nodes):
        needed[n] = 1
    for n in range(n_nodes):
        if not needed[n] or kinds[n] == TERMINAL:
            continue
        lo, hi = starts[n], starts[n + 1]
        if kinds[n] == CHANCE:
            for e in range(lo, hi):
                needed[children[e]] = 1
        else:
            best = floats[n]
            for e in range(lo, hi):
                if abs(floats[children[e]] - best) <= tolerance:
                    needed[children[e]] = 1
    return _exact_values(game, needed, lists)


def determinized_value(game: Game) -> Determinized:
    """Average over root deals of the perfect-information minimax value.

    The root outcomes of ``game`` are taken as the deals. In a pooled reduced build
    (:attr:`~loveformal.solver.endgame.Endgame.groups`) they are not: a root outcome there
    holds every deal of one pool, whose set-aside card the determinized player would know,
    and the deals' own values are :attr:`~loveformal.solver.endgame.Endgame.determinized`
    (what :func:`~loveformal.solver.analysis.solve_position` reports)."""
    root_children = game.edge_child[game.child_start[0] : game.child_start[1]]
    values = minimax_values(game, [0, *map(int, root_children)])
    if game.kind[0] != CHANCE:
        return Determinized(value=values[0], deals=((None, Fraction(1), values[0]),))
    deals = []
    for e in game.edges(0):
        p = game.edge_prob_exact[e]
        assert p is not None
        deals.append((game.edge_label[e], p, values[int(game.edge_child[e])]))
    return Determinized(value=values[0], deals=tuple(deals))


class PoolDeal(NamedTuple):
    """What :func:`pooled_minimax` needs of one root deal of a pooled build."""

    entry: _Entry
    """The deal's engine node (its group's: the set-aside card pooled with the pile)."""
    aside: Card | None
    """The deal's own set-aside card, None when its node is not pooled."""


def pooled_minimax(
    deals: Sequence[PoolDeal], dag: _Dag
) -> list[tuple[Fraction, dict[Hashable, Fraction]]]:
    """Per deal: its perfect-information minimax value (player 0's utility) and, when its
    node is a decision, each action's (the child's value), computed on the engine's memoised
    nodes (``dag``, numbered children first) of a build whose deals share nodes by pool
    (:attr:`~loveformal.solver.endgame.Reductions.pool_aside`).

    The determinized player knows the deal, set-aside card included, so the values are
    those of the deal's own game: at a pooled draw (a chance node whose set-aside card and
    unseen pile cards are one pool of ``m`` cards, :func:`~loveformal.solver.endgame.pool_copies`)
    the draw takes card ``c`` with probability ``(n(c) − [c = a]) / (m − 1)`` given the deal's
    set-aside card ``a`` — the pile is the pool without ``a`` — and leads to the pooled child,
    where ``a`` is still set aside. The pooled game's own tree cannot say this (its histories do
    not know ``a``), hence this pass over the nodes, with one column of values per set-aside
    card of the deals. A node with no pooled draw below it has the same value in every column
    and is valued once. As :func:`minimax_values`: floats first, every node and column at
    once, one height of the DAG at a time; then exact values only where a choice can depend
    on them. Every action of the engine's nodes counts (no dominance), which is what the
    reduced game's minimax is too.
    """
    with gc_paused():  # millions of small objects: collections would traverse them all
        return _PooledNodes(dag, deals).exact_values(deals)


class _PooledNodes:
    """The arrays of :func:`pooled_minimax`: the DAG's float values per set-aside card
    (column), then which (node, column) pairs need an exact value."""

    def __init__(self, dag: _Dag, deals: Sequence[PoolDeal]) -> None:
        self.dag = dag
        entries = dag.entries
        n, n_edges = len(entries), int(dag.child.shape[0])
        kind, start = dag.kind, dag.start
        cards = sort_cards({d.aside for d in deals if d.aside is not None})
        self.column = {c: j for j, c in enumerate(cards)}
        self.width = width = max(1, len(cards))
        self.aside = np.array([c.index for c in cards] or [-1], dtype=np.int64)
        # Per edge: at a pooled draw, the card drawn (its index), its copies in the pool and
        # the pool's size less one (the pile: the pool without the set-aside card); at
        # another chance node, its probability (floats).
        draws = dag.pooled_draws()
        self.drawn, self.copies = draws.drawn, draws.copies
        self.rest = np.maximum(draws.size - 1, 1).astype(np.float64)
        nlab, child = dag.nlab, dag.child
        pooled_draw = np.zeros(n, dtype=bool)
        pooled_draw[dag.edge_owner[draws.drawn >= 0]] = True
        self.pooled_draw = pooled_draw
        plain = np.flatnonzero((kind == CHANCE) & ~pooled_draw)
        as_floats: dict[int, list[float]] = {}
        plain_probs: list[float] = []
        for i in plain.tolist():
            probs = entries[i].probs
            assert probs is not None
            p = as_floats.get(id(probs))
            if p is None:
                p = as_floats[id(probs)] = [float(x) for x in probs]
            plain_probs.extend(p)
        self.prob = np.zeros(n_edges)
        self.prob[_edges_of(plain, nlab, start)[0]] = plain_probs
        # Nodes with a pooled draw below them: only their values depend on the column.
        self.depends = depends = pooled_draw.copy()
        for level in dag.levels[1:]:
            edges, seg = _edges_of(level, nlab, start)
            depends[level] |= np.logical_or.reduceat(depends[child[edges]], seg)
        # The float values, every column, heights in increasing order.
        utility: dict[int, float] = {}
        terminal_values: list[float] = []
        for i in dag.levels[0].tolist():
            u = entries[i].exact
            assert u is not None
            f = utility.get(id(u))
            if f is None:
                f = utility[id(u)] = float(u[0])
            terminal_values.append(f)
        self.values = values = np.zeros((n, width))
        values[dag.levels[0]] = np.array(terminal_values)[:, None]
        first = dag.player == 0
        for level in dag.levels[1:]:
            edges, seg = _edges_of(level, nlab, start)
            below = values[child[edges]]
            sums = np.add.reduceat(self.weights(edges) * below, seg, axis=0)
            best = np.where(
                first[level][:, None],
                np.maximum.reduceat(below, seg, axis=0),
                np.minimum.reduceat(below, seg, axis=0),
            )
            values[level] = np.where((kind[level] == CHANCE)[:, None], sums, best)

    def weights(self, edges: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Per edge and column, the edge's probability (0 at a decision)."""
        w = np.repeat(self.prob[edges][:, None], self.width, axis=1)
        at = np.flatnonzero(self.drawn[edges] >= 0)
        if at.size:
            pe = edges[at]
            own = self.drawn[pe][:, None] == self.aside[None, :]
            w[at] = (self.copies[pe][:, None] - own) / self.rest[pe][:, None]
        return w

    def col(self, node: int, column: int) -> int:
        """The column that holds ``node``'s value for ``column``'s set-aside card."""
        return column if self.depends[node] else 0

    def exact_values(
        self, deals: Sequence[PoolDeal]
    ) -> list[tuple[Fraction, dict[Hashable, Fraction]]]:
        """What :func:`pooled_minimax` returns for ``deals`` (the deals these arrays were
        made for)."""
        dag, width, values = self.dag, self.width, self.values
        entries, kind, nlab, start, child = dag.entries, dag.kind, dag.nlab, dag.start, dag.child
        need = np.zeros((len(entries), width), dtype=bool)
        asked: list[tuple[int, int]] = []
        for d in deals:
            x = d.entry.index
            if d.aside is None and self.depends[x]:
                raise ValueError(
                    f"engine node {x} has a pooled draw below it: its deal needs its set-aside card"
                )
            j = 0 if d.aside is None else self.column[d.aside]
            asked.append((x, j))
            need[x, self.col(x, j)] = True
            if kind[x] == DECISION:
                for kid in d.entry.children:
                    need[kid.index, self.col(kid.index, j)] = True
        # Top-down (heights decreasing: every parent is higher than its children), the
        # (edge, column) pairs each needed pair's exact value reads: a chance node's every
        # outcome the column's deal can draw, a decision's children within the tolerance.
        taken: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
        # A free node (no choice below: :class:`~loveformal.solver.levels._Dag`) with no pooled
        # draw below has its exact value already, the pooled game's expectation.
        known = dag.free & ~self.depends
        for level in reversed(dag.levels[1:]):
            rows = need[level]
            live = rows.any(axis=1) & ~known[level]
            level, rows = level[live], rows[live]
            count = nlab[level]
            edges, _ = _edges_of(level, nlab, start)
            kids = child[edges]
            at = np.repeat(values[level], count, axis=0)
            tolerance = TOLERANCE * np.maximum(1.0, np.abs(at))
            near = np.abs(values[kids] - at) <= tolerance
            drawable = (self.weights(edges) != 0) | (self.drawn[edges] < 0)[:, None]
            chance = np.repeat(kind[level] == CHANCE, count)[:, None]
            take = np.repeat(rows, count, axis=0) & np.where(chance, drawable, near)
            # Column-major: each (node, column)'s edges are consecutive.
            cols, pick = np.nonzero(take.T)
            reached = kids[pick]
            need[reached, np.where(self.depends[reached], cols, 0)] = True
            taken.append((edges[pick], cols))
        # Bottom-up, exactly.
        exact: dict[int, Fraction] = {}
        for x in np.flatnonzero(need[:, 0] & known).tolist():
            u = dag.expect[x]
            assert u is not None
            exact[x * width] = u[0]
        kinds, depends = kind.tolist(), self.depends.tolist()
        firsts = (dag.player == 0).tolist()
        pooled = self.pooled_draw.tolist()
        owners, kids_of, starts = dag.edge_owner.tolist(), child.tolist(), start.tolist()
        draws = dag.pooled_draws()
        drawn, copies = draws.drawn.tolist(), draws.copies.tolist()
        pool_rest = {
            x: int(draws.size[start[x]]) - 1 for x in np.flatnonzero(self.pooled_draw).tolist()
        }
        aside = self.aside.tolist()
        for edges, cols in reversed(taken):
            # Each needed (node, column)'s edges are consecutive: a decision's children's
            # values, or a chance node's weighted values as numerators and denominators
            # (summed over a common denominator, one normalisation per node).
            key, x, j = -1, -1, -1
            terms: list[Fraction] = []
            nums: list[int] = []
            dens: list[int] = []
            for edge, column in zip(edges.tolist(), cols.tolist(), strict=True):
                owner = owners[edge]
                if owner != x or column != j:
                    if key >= 0:
                        exact[key] = _combine(terms, nums, dens, firsts[x], pool_rest.get(x))
                    x, j, key = owner, column, owner * width + column
                    terms, nums, dens = [], [], []
                kid = kids_of[edge]
                v = exact[kid * width + (column if depends[kid] else 0)]
                if kinds[x] != CHANCE:
                    terms.append(v)
                elif pooled[x]:
                    nums.append((copies[edge] - (drawn[edge] == aside[column])) * v.numerator)
                    dens.append(v.denominator)
                else:
                    probs = entries[x].probs
                    assert probs is not None
                    p = probs[edge - starts[x]]
                    nums.append(p.numerator * v.numerator)
                    dens.append(p.denominator * v.denominator)
            if key >= 0:
                exact[key] = _combine(terms, nums, dens, firsts[x], pool_rest.get(x))
        out: list[tuple[Fraction, dict[Hashable, Fraction]]] = []
        for d, (x, j) in zip(deals, asked, strict=True):
            e = d.entry
            per: dict[Hashable, Fraction] = {}
            if kind[x] == DECISION:
                per = {
                    label: exact[kid.index * width + self.col(kid.index, j)]
                    for label, kid in zip(e.labels, e.children, strict=True)
                }
            out.append((exact[x * width + self.col(x, j)], per))
        return out


def _combine(
    terms: list[Fraction], nums: list[int], dens: list[int], first: bool, rest: int | None
) -> Fraction:
    """A node's exact value: at a decision (``terms``, its candidates' values) the best of
    them for its player (``first``: player 0); at a chance node ``Σ nums / dens``, divided
    by ``rest`` at a pooled draw (whose weights are the drawn cards' copies in the pool; the
    pile is the pool less the set-aside card)."""
    if terms:
        return max(terms) if first else min(terms)
    common = math.lcm(*dens)
    total = sum(n * (common // d) for n, d in zip(nums, dens, strict=True))
    return Fraction(total, common * (rest or 1))
