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

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from loveformal.actions import Draw
from loveformal.cards import Card

from .efg import CHANCE, TERMINAL, Game
from .endgame import pool_copies

if TYPE_CHECKING:
    from .endgame import _Entry

_N = TypeVar("_N", float, Fraction)

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


def pooled_minimax(deals: Sequence[PoolDeal]) -> list[tuple[Fraction, dict[Hashable, Fraction]]]:
    """Per deal: its perfect-information minimax value (player 0's utility) and, when its
    node is a decision, each action's (the child's value), computed on the engine's memoised
    nodes of a build whose deals share nodes by pool
    (:attr:`~loveformal.solver.endgame.Reductions.pool_aside`).

    The determinized player knows the deal, set-aside card included, so the values are
    those of the deal's own game: at a pooled node (one whose set-aside card and unseen
    pile cards are one pool of ``m`` cards, :func:`~loveformal.solver.endgame.pool_copies`)
    a draw takes card ``c`` with probability
    ``(n(c) − [c = a]) / (m − 1)`` given the deal's set-aside card ``a`` — the pile is the
    pool without ``a`` — and leads to the pooled child, where ``a`` is still set aside. The
    pooled game's own tree cannot say this (its histories do not know ``a``), hence this pass
    over the nodes, keyed on (node, set-aside card). As :func:`minimax_values`: floats
    first, then exact values only where a choice can depend on them. Every action of the
    engine's nodes counts (no dominance), which is what the reduced game's minimax is too.
    """
    # Per node (by identity): pooled or not; at a pooled draw from the unseen cards, the
    # pool's size and per outcome (card, its copies in the pool, child); at another chance
    # node its probabilities as floats.
    Info = tuple[bool, int, list[tuple[Card, int, "_Entry"]] | None, list[float] | None]
    infos: dict[int, Info] = {}
    as_floats: dict[int, list[float]] = {}
    memo_clears: list[Callable[[], None]] = []

    def info(e: _Entry) -> Info:
        got = infos.get(id(e))
        if got is None:
            pool = pool_copies(e.state)
            is_pooled = pool is not None
            size, rows, probs = 0, None, None
            if e.kind == CHANCE:
                if pool is not None and not e.state.pile.top:
                    size = sum(pool.values())
                    cards = (cast(Draw, label).card for label in e.labels)
                    rows = [(c, pool[c], kid) for c, kid in zip(cards, e.children, strict=True)]
                else:
                    assert e.probs is not None
                    probs = as_floats.get(id(e.probs))
                    if probs is None:
                        probs = as_floats[id(e.probs)] = [float(p) for p in e.probs]
            got = infos[id(e)] = (is_pooled, size, rows, probs)
        return got

    def values(
        zero: _N,
        number: Callable[[Fraction], _N],
        probabilities: Callable[[_Entry, list[float]], Sequence[_N]],
        decide: Callable[[_Entry, Card | None], _N],
    ) -> Callable[[_Entry, Card | None], _N]:
        """One pass (floats, or exact): a node's value given the deal's set-aside card,
        memoised on (node, card), on (node, None) where the node is not pooled."""
        memo: dict[tuple[int, Card | None], _N] = {}
        memo_clears.append(memo.clear)

        def value(e: _Entry, a: Card | None) -> _N:
            asked = (id(e), a)
            found = memo.get(asked)
            if found is not None:
                return found
            is_pooled, size, rows, probs = info(e)
            if not is_pooled and a is not None:  # the value does not depend on ``a``
                found = memo[asked] = value(e, None)
                return found
            if e.kind == TERMINAL:
                assert e.exact is not None
                v = number(e.exact[0])
            elif rows is not None:  # a pooled draw: the pile is the pool without ``a``
                total = zero
                for card, n, kid in rows:
                    if card is a:
                        n -= 1
                    if n:
                        total += n * value(kid, a)
                v = total / (size - 1)
            elif probs is not None:
                kids = zip(probabilities(e, probs), e.children, strict=True)
                v = sum((p * value(kid, a) for p, kid in kids), zero)
            else:
                v = decide(e, a)
            memo[asked] = v
            return v

        return value

    def best_float(e: _Entry, a: Card | None) -> float:
        kids = [fval(kid, a) for kid in e.children]
        return max(kids) if e.player == 0 else min(kids)

    def best_exact(e: _Entry, a: Card | None) -> Fraction:
        best = fval(e, a)
        tolerance = TOLERANCE * max(1.0, abs(best))
        near = [xval(c, a) for c in e.children if abs(fval(c, a) - best) <= tolerance]
        return max(near) if e.player == 0 else min(near)

    def exact_probs(e: _Entry, _: list[float]) -> Sequence[Fraction]:
        assert e.probs is not None
        return e.probs

    fval = values(0.0, float, lambda _, probs: probs, best_float)
    xval = values(Fraction(0), Fraction, exact_probs, best_exact)

    out: list[tuple[Fraction, dict[Hashable, Fraction]]] = []
    try:
        for d in deals:
            e = d.entry
            per: dict[Hashable, Fraction] = {}
            if e.kind != TERMINAL and e.kind != CHANCE:
                per = {
                    label: xval(c, d.aside) for label, c in zip(e.labels, e.children, strict=True)
                }
            out.append((xval(e, d.aside), per))
    finally:
        # The passes refer to one another and to themselves (closures): a cycle, which
        # without this would keep every node in ``infos`` until the collector runs.
        infos.clear()
        as_floats.clear()
        for clear in memo_clears:
            clear()
    return out
