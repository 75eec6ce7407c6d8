"""The reduced endgame builder: the same game as :func:`~loveformal.solver.endgame.build_endgame`,
with every part that cannot change the value or anyone's equilibrium payoff left out.

The builder first lets the engine expand the whole endgame once per distinct *log-less* state
(the memoised nodes of :class:`~loveformal.solver.endgame._TreeWalker`, a DAG far smaller than
the tree) and summarises every DAG node bottom-up: the least and greatest utility of player 0
over the terminals below it, whether anyone still has a choice below it, and, when nobody has,
its exact expected utilities and win probabilities. It then unfolds the tree **one engine step
at a time** (breadth first, with numpy over whole levels): every node of an information set
lies on the same level (the seat saw one event sequence, and every step leaves a public
trace), so each level's information sets are complete before any of their children are made.
That is what lets a decision about an information set — which actions to keep — be taken
once, for all of its histories, before expanding them. Three reductions
(:class:`~loveformal.solver.endgame.Reductions`), each provably value-preserving:

* **dominance** — at an information set ``I`` of player ``p``, action ``b`` is dropped when a
  kept action ``a`` satisfies ``lo_p(h, a) ≥ hi_p(h, b)`` at *every* history ``h ∈ I``, where
  ``lo_p`` / ``hi_p`` are the least / greatest utility of ``p`` over the terminals below (the
  exact expectation where nobody has a choice left below). Then, whatever the opponent's
  strategy ``τ``, moving ``b``'s probability to ``a`` cannot lower ``p``'s payoff at any
  history of ``I`` and changes nothing elsewhere (``τ`` is a function of the opponent's
  information sets, whatever histories they hold), so ``p``'s max-min value — and by the
  minimax theorem the game value — is unchanged; a profile that is an equilibrium of the
  reduced game stays one of the full game (``p`` gains nothing by deviating to ``b``: every
  outcome below ``b`` is at most every outcome below ``a``). Typical cases: a Guard naming
  the card the seat knows the target holds (a sure win makes everything else dominated); the
  Princess discarded (a sure loss); at the last turn, keeping the card that wins every
  showdown. Ties (``a`` and ``b`` with the same constant outcome) keep the first action.
  Removals are iterated: deeper information sets are judged on the histories that remain.
  The seat-to-move's own root information sets (the histories just below the deal) keep every
  action, so the solver can still report each one's value;
* **splice** — a decision with one action left (forced, or made so by dominance) and a chance
  node with one outcome make no node: the child hangs from the nearest kept ancestor. A forced
  information set has no sequence worth the name (``x(I, a) = x(parent)``);
* **collapse** — a subtree in which nobody has a choice (chance nodes and forced moves only)
  becomes one terminal carrying its exact expected utilities (and its expected round-win
  indicators, for the win probabilities).

A fourth, :attr:`~loveformal.solver.endgame.Reductions.pool_aside`, is made before this
module: the deals that differ only in their set-aside card are one root outcome, drawing from
the set-aside card and the pile together (:func:`~loveformal.solver.endgame.pool_deals` has
the proof), so the engine's nodes arrive here pooled; only the full tree's size
(:func:`_full_histories`) tells the deals apart.

A fifth, :attr:`~loveformal.solver.endgame.Reductions.discard_orders`, shrinks only the DAG:
states that differ only in the order of their discard piles are one engine node (no rule reads
the order, :meth:`~loveformal.solver.endgame._TreeWalker.canonical_seats`), whose public view
holds the piles in card order. The histories, and the information sets, are unchanged: the
piles' cards go on them by public events, so a seat's event sequence fixes their order, and
each information set's key gets it back from its events (``piles_after`` in
:func:`build_levels`, with :func:`~loveformal.solver.endgame.replayed_discards`). On classic
with 5 cards left, seed 5008, the engine expands 88 k nodes instead of 281 k.

The public-card dead-guess merge (:func:`~loveformal.solver.endgame.decision_actions`) is
applied as before. Merging guesses that are dead only by the *guesser's* private knowledge (it
holds the last copy) is **not** value-preserving — the guess is public, so it can bluff — and
is not done (tests/solver/test_reductions.py shows a position whose value it changes).

Information-set keys are the observation keys (perfect recall), built once per information set
from interned per-seat event sequences exactly as the tree walker builds them; every key of the
reduced game is a key of the full game. The numbering is breadth first (a topological order);
infosets are numbered by their first node.

**Refusing a game too large.** The unfolding stops with ``too_large`` as soon as the histories
it has made and a lower bound on those its pending level will make (:func:`_least_below`, read
off the DAG once) pass ``max_nodes``. Below the deals the bound is loose (it counts, at each
engine node, only the actions that no other action dominates there: up to 20 times under
the real size), and it tightens as the levels are made with their information sets' real
choices, so a game too large is often refused after a few levels instead of near its last.
The refusals are the same as without the bound: it never passes the real size, and at the last
level, every node of it a history, it is the count itself. The full tree's size, which only
the report needs, is counted after the unfolding.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from loveformal.actions import Draw
from loveformal.cards import Card
from loveformal.events import Event, EventKind
from loveformal.knowledge import knows_bottom

from .efg import (
    CHANCE,
    DECISION,
    TERMINAL,
    Game,
    InfosetSpec,
    Shared,
    block_offsets,
    group_by_identity,
    shared_by_identity,
    sorted_unique,
    tree_game,
)
from .endgame import _DISCARDS, pool_copies, replayed_discards

if TYPE_CHECKING:
    from .endgame import Reductions, _Entry, _TreeWalker

__all__ = ["LazyTable", "LevelBuild", "build_levels"]

I64 = npt.NDArray[np.int64]
_RETURNED = EventKind.RETURNED
_TERMINAL_KEY = "terminal"


class LazyTable(Mapping[tuple[int, Hashable], Hashable]):
    """A read-only mapping computed on first use (its keys are costly to build and hash)."""

    def __init__(self, make: Callable[[], dict[tuple[int, Hashable], Hashable]]) -> None:
        self._make: Callable[[], dict[tuple[int, Hashable], Hashable]] | None = make
        self._table: dict[tuple[int, Hashable], Hashable] = {}

    def _get(self) -> dict[tuple[int, Hashable], Hashable]:
        if self._make is not None:
            self._table = self._make()
            self._make = None
        return self._table

    def __getitem__(self, key: tuple[int, Hashable]) -> Hashable:
        return self._get()[key]

    def __iter__(self) -> Iterator[tuple[int, Hashable]]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


@dataclass(frozen=True)
class LevelBuild:
    """What :func:`build_levels` made."""

    game: Game
    full_histories: int
    """Histories of the unreduced tree (same deals, same dead-guess merge)."""
    forced: Mapping[tuple[int, Hashable], Hashable]
    """(player, infoset key) -> the one action kept, for information sets that had several
    actions and were left with one by dominance (they make no node)."""
    dominated: int
    """Actions dropped by dominance (summed over information sets)."""
    dag: _Dag = field(repr=False, compare=False)
    """The engine's memoised nodes as arrays (the determinized pass reads them)."""


_INDEX = operator.attrgetter("index")
"""An engine node's number in the DAG (:attr:`_Entry.index`)."""


class PooledDraws(NamedTuple):
    """Per DAG edge, what a pooled draw takes (:func:`~loveformal.solver.endgame.pool_copies`:
    a draw from the unseen cards at a node whose set-aside card is pooled with them)."""

    drawn: I64
    """The card drawn (its index); -1 on every other edge."""
    copies: I64
    """The drawn card's copies in the pool; 0 on every other edge."""
    size: I64
    """The pool's size (the set-aside card and the pile's unseen cards); 0 elsewhere."""


class _Dag:
    """The memoised engine nodes as arrays, with the bottom-up summaries (see the module
    docstring). Entries are numbered in the walker's memo order, children first."""

    def __init__(self, walker: _TreeWalker, players: int) -> None:
        entries: list[_Entry] = list(walker.memo.values())
        if not entries:
            raise AssertionError("the reduced build has no engine node to build from")
        for i, e in enumerate(entries):
            e.index = i
        n = len(entries)
        self.entries = entries
        # The entries' fields, read in one pass.
        fields = operator.attrgetter("kind", "player", "pub", "labels", "children", "chunks")
        kinds, movers, pubs, labels, children, chunks = zip(*map(fields, entries), strict=True)
        self.kind = np.array(kinds, dtype=np.int8)
        self.player = np.array(movers, dtype=np.int64)
        self.pub = np.maximum(np.array(pubs, dtype=np.int64), 0)
        nlab = np.fromiter(map(len, labels), dtype=np.int64, count=n)
        self.nlab = nlab
        self.start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(nlab, out=self.start[1:])
        n_edges = int(nlab.sum())
        self.child = np.fromiter(
            map(_INDEX, itertools.chain.from_iterable(children)), dtype=np.int64, count=n_edges
        )
        flat_chunks = itertools.chain.from_iterable(itertools.chain.from_iterable(chunks))
        self.chunk = np.fromiter(flat_chunks, dtype=np.int64, count=n_edges * players).reshape(
            -1, players
        )
        self.edge_owner = np.repeat(np.arange(n, dtype=np.int64), nlab)
        # Label tuples, interned (every node of an infoset must list the same actions): by
        # identity first, then the distinct objects by value.
        first, group = group_by_identity(labels)
        label_ids: dict[tuple[Hashable, ...], int] = {}
        interned = np.fromiter(
            (label_ids.setdefault(labels[i], len(label_ids)) for i in first.tolist()),
            dtype=np.int64,
            count=int(first.shape[0]),
        )
        self.label_id = interned[group]
        if not np.array_equal(nlab == 0, self.kind == TERMINAL):
            bad = int(np.flatnonzero((nlab == 0) != (self.kind == TERMINAL))[0])
            raise AssertionError(
                f"engine node {bad} of the endgame has no outcome or action but is not a "
                "terminal, or is a terminal with some"
            )
        self._summaries(entries, players)
        self._pooled_draws: PooledDraws | None = None

    def pooled_draws(self) -> PooledDraws:
        """The pooled draws' edges (made on first use: only pooled builds read them)."""
        if self._pooled_draws is None:
            self._pooled_draws = self._find_pooled_draws()
        return self._pooled_draws

    def _find_pooled_draws(self) -> PooledDraws:
        n_edges = int(self.child.shape[0])
        nodes: list[int] = []
        drawn: list[int] = []
        copies: list[int] = []
        sizes: list[int] = []
        # Per (labels, unseen cards, set-aside card): the drawn cards, their copies, the size.
        rows: dict[tuple[object, object, object], tuple[list[int], list[int], int]] = {}
        for i in np.flatnonzero(self.kind == CHANCE).tolist():
            state = self.entries[i].state
            unseen, aside = state.pile.unseen, state.set_aside
            if state.pile.top:
                continue
            labels = self.entries[i].labels
            row = rows.get((labels, unseen, aside))
            if row is None:
                pool = pool_copies(state)
                if pool is None:
                    continue
                cards = [cast(Draw, label).card for label in labels]
                row = rows[(labels, unseen, aside)] = (
                    [c.index for c in cards],
                    [pool[c] for c in cards],
                    pool.total(),
                )
            nodes.append(i)
            drawn.extend(row[0])
            copies.extend(row[1])
            sizes.append(row[2])
        at = np.array(nodes, dtype=np.int64)
        edges = _edges_of(at, self.nlab, self.start)[0]
        out = PooledDraws(
            np.full(n_edges, -1, dtype=np.int64),
            np.zeros(n_edges, dtype=np.int64),
            np.zeros(n_edges, dtype=np.int64),
        )
        out.drawn[edges] = drawn
        out.copies[edges] = copies
        out.size[edges] = np.repeat(np.array(sizes, dtype=np.int64), self.nlab[at])
        return out

    def _summaries(self, entries: list[_Entry], players: int) -> None:
        n = len(entries)
        kind, nlab, start, child = self.kind, self.nlab, self.start, self.child
        height = _heights(nlab, start, child)
        levels = self.levels = _by_height(height)
        # Free subtrees (nobody has a choice below), level by level: a terminal; a chance node
        # whose outcomes are all free; a decision with one action whose child is free.
        free = np.zeros(n, dtype=bool)
        free[levels[0]] = True
        for nodes in levels[1:]:
            edges, seg = _edges_of(nodes, nlab, start)
            kid_free = free[child[edges]]
            all_free = np.logical_and.reduceat(kid_free, seg)
            k = kind[nodes]
            free[nodes] = np.where(k == CHANCE, all_free, (nlab[nodes] == 1) & all_free)
        # Their exact expected utilities and win indicators (children first: memo order).
        expect: list[tuple[Fraction, ...] | None] = [None] * n
        win: list[tuple[Fraction, ...] | None] = [None] * n
        as_fractions: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
        mixed: dict[tuple[int, ...], tuple[tuple[Fraction, ...], tuple[Fraction, ...]]] = {}
        for i in np.flatnonzero(free).tolist():
            e = entries[i]
            if e.kind == TERMINAL:
                assert e.exact is not None
                expect[i] = e.exact
                w = as_fractions.get(e.win)
                if w is None:
                    w = as_fractions[e.win] = tuple(Fraction(x) for x in e.win)
                win[i] = w
                continue
            kids = [c.index for c in e.children]
            if e.kind == CHANCE:
                assert e.probs is not None
                values = [expect[c] for c in kids]
                wins = [win[c] for c in kids]
                # One mixture per distinct (probabilities, children's tuples), by identity:
                # every tuple keyed on stays alive in ``expect``, ``win`` or the entries.
                key = (id(e.probs), *map(id, values), *map(id, wins))
                got = mixed.get(key)
                if got is None:
                    got = mixed[key] = (
                        _mix(e.probs, values, players),
                        _mix(e.probs, wins, players),
                    )
                expect[i], win[i] = got
            else:
                expect[i], win[i] = expect[kids[0]], win[kids[0]]
        # Every utility compared below, ranked: the comparisons are then exact integer ones.
        ranks = _Ranks(expect, free)
        # Player 0's least and greatest utility over the terminals below each node, as ranks.
        lo = np.zeros(n, dtype=np.int64)
        lo[levels[0]] = [ranks.of(expect[i], 0) for i in levels[0].tolist()]
        hi = lo.copy()
        for nodes in levels[1:]:
            edges, seg = _edges_of(nodes, nlab, start)
            lo[nodes] = np.minimum.reduceat(lo[child[edges]], seg)
            hi[nodes] = np.maximum.reduceat(hi[child[edges]], seg)
        # The mover's bounds below each action of every real choice (exact where free).
        choice = np.flatnonzero((kind == DECISION) & (nlab > 1))
        edges, _ = _edges_of(choice, nlab, start)
        below = child[edges]
        mover = np.repeat(self.player[choice], nlab[choice])
        low = np.where(mover == 0, lo[below], ranks.negated[hi[below]])
        high = np.where(mover == 0, hi[below], ranks.negated[lo[below]])
        exact = np.flatnonzero(free[below])
        if exact.size:
            at = [
                ranks.of(expect[c], m)
                for c, m in zip(below[exact].tolist(), mover[exact].tolist(), strict=True)
            ]
            low[exact] = high[exact] = at
        masks = _domination_masks(low, high, nlab[choice])
        self.free = free
        self.expect = expect
        self.win = win
        # Interned domination masks: ``dom_id[i]`` indexes ``dom_masks`` (-1: none).
        interned: dict[tuple[int, ...], int] = {}
        self.dom_id = np.full(n, -1, dtype=np.int64)
        for i, d in zip(choice.tolist(), masks, strict=True):
            if d is not None:
                self.dom_id[i] = interned.setdefault(d, len(interned))
        self.dom_masks: list[tuple[int, ...]] = list(interned)
        self.has_dom = self.dom_id >= 0


def _full_histories(
    dag: _Dag,
    walker: _TreeWalker,
    entries: Sequence[_Entry],
    asides: Sequence[Sequence[Card | None]],
) -> int:
    """The histories of the full tree, one root outcome per deal, when the engine's nodes are
    pooled (:attr:`~loveformal.solver.endgame._TreeWalker.pool_aside`): ``asides[g]`` lists
    the set-aside card of each deal of root outcome ``g`` (``entries[g]``). Below a pooled
    draw a deal whose set-aside card is ``a`` cannot draw the pool's last copy of ``a``, so
    each such card's count leaves those edges out, bottom-up in numpy."""
    nlab, start, child = dag.nlab, dag.start, dag.child
    draws = dag.pooled_draws()
    drawn = draws.drawn  # the card (index) a pooled draw takes
    last = draws.copies == 1  # ... when it is the pool's last copy of it
    sizes: dict[Card, I64] = {}

    def size_of(aside: Card) -> I64:
        found = sizes.get(aside)
        if found is None:
            keep = ~((drawn == aside.index) & last)
            found = sizes[aside] = np.ones(len(dag.entries), dtype=np.int64)
            for nodes in dag.levels[1:]:
                edges, seg = _edges_of(nodes, nlab, start)
                found[nodes] = 1 + np.add.reduceat(found[child[edges]] * keep[edges], seg)
        return found

    full = 1
    for e, cards in zip(entries, asides, strict=True):
        for aside in cards:
            full += walker.count(e) if aside is None else int(size_of(aside)[e.index])
    return full


def _least_below(dag: _Dag, reductions: Reductions) -> I64:
    """Per engine node, a lower bound on the histories that :func:`build_levels` materialises
    in the subtree of a history at that node below the deals, read off the engine's nodes
    bottom-up (so the unfolding can refuse a game too large before it has built most of it):

    - a terminal is one history, and so is a free subtree (``collapse``);
    - a chance node counts itself unless it has one outcome (``splice``), and all its
      outcomes;
    - a decision keeps every action that no other action dominates *at this node*: dominance
      drops an action only where another dominates it at every history of its information
      set (:func:`_kept_actions`: the AND of the masks only clears bits), so such an action
      is never dropped; and it keeps one action at least, so its least child bounds it too.
      It counts itself where it keeps two such actions (only a decision left with one action
      is spliced).

    Every node counts at least 1."""
    n = len(dag.entries)
    kind, nlab, start, child = dag.kind, dag.nlab, dag.start, dag.child
    # Per edge of a decision: no other action dominates it at that node.
    undominated = np.ones(int(child.shape[0]), dtype=bool)
    if reductions.dominance:
        nodes = np.flatnonzero(dag.has_dom)
        if nodes.size:
            flags = [tuple(m == 0 for m in mask) for mask in dag.dom_masks]
            edges, _ = _edges_of(nodes, nlab, start)
            undominated[edges] = np.fromiter(
                itertools.chain.from_iterable(flags[d] for d in dag.dom_id[nodes].tolist()),
                dtype=bool,
                count=int(edges.shape[0]),
            )
    least = np.ones(n, dtype=np.int64)
    for nodes in dag.levels[1:]:
        edges, seg = _edges_of(nodes, nlab, start)
        below = least[child[edges]]
        keeps = undominated[edges]
        chance = kind[nodes] == CHANCE
        if reductions.splice:
            itself = np.where(chance, nlab[nodes] > 1, np.add.reduceat(keeps, seg) > 1)
        else:
            itself = np.ones(nodes.shape[0], dtype=bool)
        kept = np.maximum(
            np.add.reduceat(np.where(keeps, below, 0), seg), np.minimum.reduceat(below, seg)
        )
        least[nodes] = itself + np.where(chance, np.add.reduceat(below, seg), kept)
        if reductions.collapse:
            least[nodes[dag.free[nodes]]] = 1
    return least


def _least_at_top(dag: _Dag, ent: I64, least: I64, reductions: Reductions) -> int:
    """:func:`_least_below` summed over the deals' engine nodes ``ent`` (the first level),
    where :func:`build_levels` drops, splices and collapses no decision."""
    kind, nlab = dag.kind[ent], dag.nlab[ent]
    edges, seg = _edges_of(ent, dag.nlab, dag.start)
    below = np.zeros(ent.shape[0], dtype=np.int64)
    inner = nlab > 0
    if edges.size:
        below[inner] = np.add.reduceat(least[dag.child[edges]], seg[inner])
    itself = np.ones(ent.shape[0], dtype=np.int64)
    if reductions.splice:
        itself[(kind == CHANCE) & (nlab == 1)] = 0
    out = itself + below
    if reductions.collapse:
        out[(kind == CHANCE) & dag.free[ent]] = 1
    return int(out.sum())


class _Ranks:
    """The exact utilities that the summaries compare — player 0's at every terminal, and each
    player's expectation at every free node — and their negations, numbered in increasing
    order, so that comparing ranks is comparing the exact values."""

    def __init__(
        self, expect: Sequence[tuple[Fraction, ...] | None], free: npt.NDArray[np.bool_]
    ) -> None:
        # Many nodes share one tuple (terminal utilities are interned): rank each tuple once.
        self._tuples: dict[int, tuple[Fraction, ...]] = {}
        for i in np.flatnonzero(free).tolist():
            u = expect[i]
            assert u is not None
            self._tuples.setdefault(id(u), u)
        values = {v for u in self._tuples.values() for v in u}
        values.update([-v for v in values])
        ordered = sorted(values)
        rank = {v: r for r, v in enumerate(ordered)}
        self.negated = np.array([rank[-v] for v in ordered], dtype=np.int64)
        """``negated[r]`` is the rank of ``-v`` for the value ``v`` of rank ``r``."""
        self._ranks = {key: tuple(rank[v] for v in u) for key, u in self._tuples.items()}

    def of(self, utilities: tuple[Fraction, ...] | None, player: int) -> int:
        """The rank of ``utilities[player]`` (``utilities``: the expectation of a free node,
        by identity)."""
        return self._ranks[id(utilities)][player]


def _heights(nlab: I64, start: I64, child: I64) -> I64:
    """Per DAG node, the longest path down to a terminal (0 at terminals)."""
    height = np.zeros(nlab.shape[0], dtype=np.int64)
    inner = np.flatnonzero(nlab > 0)
    if inner.size == 0:
        return height
    seg = start[inner]  # terminals have no edges: the inner nodes' edges tile ``child``
    for _ in range(inner.shape[0] + 1):  # a DAG's heights settle within its node count
        below = np.maximum.reduceat(height[child], seg) + 1
        if np.array_equal(below, height[inner]):
            return height
        height[inner] = below
    raise AssertionError("the endgame's engine nodes have a cycle")


def _by_height(height: I64) -> list[I64]:
    """The nodes of each height, in increasing order (index ``h``: height ``h``)."""
    order = np.argsort(height, kind="stable")
    bounds = np.searchsorted(height[order], np.arange(int(height.max(initial=0)) + 2))
    return [order[bounds[h] : bounds[h + 1]] for h in range(bounds.shape[0] - 1)]


def _edges_of(nodes: I64, nlab: I64, start: I64) -> tuple[I64, I64]:
    """The edges of ``nodes`` (each node's in order, node after node) and where each node's
    run begins (for ``reduceat``)."""
    count = nlab[nodes]
    return np.repeat(start[nodes], count) + block_offsets(count), np.cumsum(count) - count


DENSE_PAIRS = 6
""":func:`_pair_ids` marks pairs in a dense table when it has at most this many slots per
pair, else sorts them (the table's prefix sum costs about as much as sorting ~6 times fewer
pairs)."""


def _pair_ids(first: I64, second: I64) -> tuple[I64, I64, I64]:
    """The distinct pairs ``(first[i], second[i])`` in increasing order (as two arrays) and
    each pair's index among them: ``np.unique`` of the pairs, without sorting them when their
    span is small (one level's seen-event ids are consecutive, its chunks few)."""
    if first.size == 0:
        return first.copy(), second.copy(), np.zeros(0, dtype=np.int64)
    lo = int(first.min())
    span = int(first.max()) - lo + 1
    present = np.zeros(int(second.max()) + 1, dtype=bool)
    present[second] = True
    values = np.flatnonzero(present)
    m = int(values.shape[0])
    if span * m > DENSE_PAIRS * first.size or span * m >= 2**31:
        width = int(second.max()) + 1
        uniq, _, inv = sorted_unique(first * width + second)
        return uniq // width, uniq % width, inv
    code = np.cumsum(present) - 1  # each second value's rank among those present
    key = (first - lo) * m + code[second]
    mark = np.zeros(span * m, dtype=bool)
    mark[key] = True
    uniq = np.flatnonzero(mark)
    index = np.cumsum(mark, dtype=np.int32) - 1  # each marked slot's position in ``uniq``
    return lo + uniq // m, values[uniq % m], index[key].astype(np.int64)


MASK_BLOCK = 1 << 22
"""Comparisons (node × action × action) made at once by :func:`_domination_masks`."""


def _domination_masks(low: I64, high: I64, counts: I64) -> list[tuple[int, ...] | None]:
    """Per node (its actions are ``counts[j]`` consecutive entries of ``low``/``high``, the
    ranks of the mover's least and greatest utility below each), per action ``b``, the bit
    mask of the actions ``a != b`` with ``low[a] >= high[b]`` (None when no action has any)."""
    out: list[tuple[int, ...] | None] = [None] * counts.shape[0]
    offsets = np.cumsum(counts) - counts
    for m in np.unique(counts).tolist():
        every = np.flatnonzero(counts == m)
        step = max(1, MASK_BLOCK // (m * m))
        ramp = np.arange(m)
        for s in range(0, every.shape[0], step):
            rows = every[s : s + step]
            at = offsets[rows][:, None] + ramp
            dom = low[at][:, :, None] >= high[at][:, None, :]  # [node, a, b]: a dominates b
            dom[:, ramp, ramp] = False
            some = np.flatnonzero(dom.any(axis=(1, 2)))
            if m <= 62:
                bits = (dom[some].astype(np.int64) << ramp[None, :, None]).sum(axis=1)
                for j, row in zip(rows[some].tolist(), bits.tolist(), strict=True):
                    out[j] = tuple(row)
            else:  # masks wider than an int64
                for j, d in zip(rows[some].tolist(), dom[some], strict=True):
                    out[j] = tuple(sum(1 << a for a in np.flatnonzero(col).tolist()) for col in d.T)
    return out


def _mix(
    probs: Sequence[Fraction], values: Sequence[tuple[Fraction, ...] | None], width: int
) -> tuple[Fraction, ...]:
    acc = [Fraction(0)] * width
    for p, v in zip(probs, values, strict=True):
        assert v is not None
        for j in range(width):
            acc[j] += p * v[j]
    return tuple(acc)


def _kept_actions(masks: Sequence[tuple[int, ...]], count: int) -> list[int]:
    """The actions left after dropping each action dominated (at every node: the AND of the
    nodes' masks) by another, ties (mutual dominance) keeping the earlier action.

    ``masks[k][b]`` has bit ``a`` set when action ``a`` dominates ``b`` at node ``k``. The
    relation is transitive, so every dropped action is dominated by a kept one."""
    both = list(masks[0])
    for m in masks[1:]:
        both = [x & y for x, y in zip(both, m, strict=True)]
    kept = []
    for b in range(count):
        dominators = both[b]
        if not dominators:
            kept.append(b)
            continue
        # ``a`` drops ``b`` unless ``b`` dominates ``a`` too (a tie) and ``b`` comes first.
        dropped = False
        a = 0
        while dominators:
            if dominators & 1 and not (both[a] >> b & 1 and b < a):
                dropped = True
                break
            dominators >>= 1
            a += 1
        if not dropped:
            kept.append(b)
    return kept


class _Kept:
    """The kept-action tuples that dominance leaves, interned: a *variant* is an index into
    them (-1 where every action is kept). Information sets are judged on the distinct
    domination masks of their histories' engine nodes, once per distinct combination."""

    def __init__(self, dag: _Dag) -> None:
        self.dag = dag
        self.kept: list[tuple[int, ...]] = []
        self.index: dict[tuple[int, ...], int] = {}
        self.judged: dict[tuple[int, tuple[int, ...]], int] = {}
        self.named: dict[tuple[int, int], tuple[Hashable, ...]] = {}
        self._table: I64 | None = None

    def variants(self, group: I64, d_ent: I64, counts: I64, n_groups: int) -> I64:
        """Per information set (``group`` of each decision node, whose engine node is
        ``d_ent``; ``counts`` actions per group): its variant."""
        dag = self.dag
        out = np.full(n_groups, -1, dtype=np.int64)
        undominated = np.bincount(group[~dag.has_dom[d_ent]], minlength=n_groups)
        sel = (undominated == 0)[group]
        if not np.any(sel):
            return out
        n_dom = max(1, len(dag.dom_masks))
        pairs = sorted_unique(group[sel] * n_dom + dag.dom_id[d_ent[sel]])[0]
        pg = pairs // n_dom
        mask_of = pairs % n_dom
        starts = np.flatnonzero(np.concatenate(([True], pg[1:] != pg[:-1])))
        ends = np.append(starts[1:], pg.shape[0])
        groups = pg[starts]
        # Most groups see one distinct mask: judged once per distinct (actions, mask).
        one = ends - starts == 1
        if np.any(one):
            g_one = groups[one]
            code = counts[g_one] * n_dom + mask_of[starts[one]]
            distinct, _, which = sorted_unique(code)
            count_of, mask = divmod(distinct, n_dom)
            judged = np.array(
                [
                    self._judge(c, (m,))
                    for c, m in zip(count_of.tolist(), mask.tolist(), strict=True)
                ],
                dtype=np.int64,
            )
            out[g_one] = judged[which.reshape(-1)]
        masks = mask_of.tolist()
        many = ~one
        for g, a, b, c in zip(
            groups[many].tolist(),
            starts[many].tolist(),
            ends[many].tolist(),
            counts[groups[many]].tolist(),
            strict=True,
        ):
            out[g] = self._judge(c, tuple(masks[a:b]))
        return out

    def _judge(self, count: int, masks: tuple[int, ...]) -> int:
        """The variant of an information set with ``count`` actions whose histories' engine
        nodes have the interned domination masks ``masks``."""
        key = (count, masks)
        v = self.judged.get(key)
        if v is None:
            kept = _kept_actions([self.dag.dom_masks[m] for m in masks], count)
            v = self.judged[key] = -1 if len(kept) == count else self._intern(tuple(kept))
        return v

    def _intern(self, kept: tuple[int, ...]) -> int:
        v = self.index.get(kept)
        if v is None:
            v = self.index[kept] = len(self.kept)
            self.kept.append(kept)
            self._table = None
        return v

    @property
    def length(self) -> I64:
        """Per variant, how many actions it keeps."""
        return np.fromiter(map(len, self.kept), dtype=np.int64, count=len(self.kept))

    @property
    def table(self) -> I64:
        """``table[v, r]``: the ``r``-th kept action of variant ``v``."""
        if self._table is None:
            width = max(map(len, self.kept), default=1)
            table = np.zeros((max(1, len(self.kept)), width), dtype=np.int64)
            for v, kept in enumerate(self.kept):
                table[v, : len(kept)] = kept
            self._table = table
        return self._table

    def labels(self, labels: tuple[Hashable, ...], variant: int) -> tuple[Hashable, ...]:
        """The action labels an information set keeps (one tuple per distinct labels)."""
        if variant < 0:
            return labels
        key = (id(labels), variant)
        found = self.named.get(key)
        if found is None:
            found = self.named[key] = tuple(labels[a] for a in self.kept[variant])
        return found


class _Grow:
    """A growable int64 array (amortised doubling)."""

    def __init__(self, first: int) -> None:
        self.data = np.full(1024, first, dtype=np.int64)
        self.size = 1

    def extend(self, values: I64) -> None:
        need = self.size + int(values.shape[0])
        if need > self.data.shape[0]:
            grown = np.empty(max(need, 2 * self.data.shape[0]), dtype=np.int64)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size : need] = values
        self.size = need


class _Tree:
    """The materialised nodes, appended level by level."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.kind: list[I64] = []
        self.entry: list[I64] = []
        self.parent: list[I64] = []
        self.action: list[I64] = []
        self.own: list[I64] = []
        self.infoset: list[I64] = []
        self.size = 0

    def add(self, kind: I64, entry: I64, parent: I64, action: I64, own: I64, info: I64) -> None:
        self.kind.append(kind)
        self.entry.append(entry)
        self.parent.append(parent)
        self.action.append(action)
        self.own.append(own)
        self.infoset.append(info)
        self.size += int(kind.shape[0])


def build_levels(
    walker: _TreeWalker,
    deal_entries: Sequence[_Entry],
    deal_labels: tuple[Hashable, ...],
    deal_probs: tuple[Fraction, ...],
    reductions: Reductions,
    max_nodes: int,
    too_large: Callable[[], Exception],
    progress: Callable[[int], None] | None = None,
    root_logs: Sequence[tuple[Event, ...]] = (),
    deal_asides: Sequence[Sequence[Card | None]] | None = None,
) -> LevelBuild:
    """Build the reduced game below a root chance node over ``deal_entries`` (see the module
    docstring). ``walker`` must already hold every engine node below the deals.
    ``root_logs`` (empty, or one per deal) are the deals' own logs
    (:func:`~loveformal.solver.endgame.deal_state`: a Chancellor's returns), which begin the
    seats' seen events. ``deal_asides``: for pooled engine nodes, the set-aside card of each
    deal of each root outcome (None for a deal whose node is not pooled), which the full
    tree's size counts apart."""
    players = walker.players
    if players != 2:
        raise ValueError("the reduced builder is for two-player zero-sum endgames")
    dag = _Dag(walker, players)
    n_pub = max(1, len(walker.pub_views))
    # Interned seen-event sequences: per seat what it saw (one id space for all seats).
    seen_parent = _Grow(-1)
    seen_chunk = _Grow(-1)
    # A deal's own log is one chunk of seen events before the first edge (for every deal).
    root_chunks = [walker.chunks_of(log) for log in root_logs] if any(root_logs) else []
    depth = 1 if root_chunks else 0
    # Of a history's full event sequence, only its Chancellor's returns are needed
    # (knows_bottom counts every seat's returned cards): per history, the id of its returns so
    # far (``rid``), equal sequences of returns one id. A return is public (its cards hidden
    # from the other seat), so a history has returns iff every seat saw some.
    chunk_returns = np.fromiter(
        (any(ev.kind is _RETURNED for ev in evs) for evs in walker.chunk_events),
        dtype=bool,
        count=len(walker.chunk_events),
    )
    any_returns = bool(chunk_returns.any())
    tree = _Tree(players)
    # The root.
    zero_own = np.zeros((1, players), dtype=np.int64)
    minus = np.full(1, -1, dtype=np.int64)
    tree.add(np.full(1, int(CHANCE), dtype=np.int64), minus, minus, minus, zero_own, minus)
    specs: list[InfosetSpec] = []
    labels_of_infoset: list[tuple[Hashable, ...]] = []
    next_sequence = [1] * players
    unique_keys: dict[tuple[object, ...], int] = {}
    # Dominance-forced information sets: their keys are built (and checked unique) only when
    # the forced table is first read (:func:`~loveformal.solver.endgame.extend_strategy`).
    forced_levels: list[tuple[int, I64, I64, I64, I64, I64]] = []
    dominated = 0
    kept = _Kept(dag)

    chunk_eids: dict[int, tuple[int, ...]] = {}

    def event_ids(chunk: int) -> tuple[int, ...]:
        found = chunk_eids.get(chunk)
        if found is None:
            found = chunk_eids[chunk] = tuple(
                walker.event_id(ev) for ev in walker.chunk_events[chunk]
            )
        return found

    def chains(sids: I64, length: int) -> list[list[int]]:
        """The chunk ids of each seen-event sequence (all of ``length`` chunks), oldest
        first."""
        rows = np.empty((sids.shape[0], length), dtype=np.int64)
        cur = sids.copy()
        for d in range(length - 1, -1, -1):
            rows[:, d] = seen_chunk.data[cur]
            cur = seen_parent.data[cur]
        if np.any(cur != 0):
            raise AssertionError("seen-event sequences of one level differ in length")
        out: list[list[int]] = rows.tolist()
        return out

    # Chancellor returns (all that knows_bottom reads of a log, with the pile's size) by id;
    # id 0 is none. ``returned_after``: the id after an edge, per (id before, DAG edge).
    returns_of: list[tuple[Event, ...]] = [()]
    returns_id: dict[tuple[Event, ...], int] = {(): 0}
    returned_after: dict[tuple[int, int], int] = {}
    bottoms: dict[tuple[int, int, int], tuple[object, ...]] = {}

    def returns_with(rid: int, events: tuple[Event, ...]) -> int:
        """The id of the returns ``rid`` followed by those among ``events``."""
        more = tuple([ev for ev in events if ev.kind is _RETURNED])
        if not more:
            return rid
        got = returns_of[rid] + more
        found = returns_id.get(got)
        if found is None:
            found = returns_id[got] = len(returns_of)
            returns_of.append(got)
        return found

    def returned_after_edge(rid: int, edge: int) -> int:
        found = returned_after.get((rid, edge))
        if found is None:
            owner = dag.entries[int(dag.edge_owner[edge])]
            events = owner.events[edge - int(dag.start[owner.index])]
            found = returned_after[(rid, edge)] = returns_with(rid, events)
        return found

    def known_bottom(e: _Entry, p: int, rid: int) -> tuple[object, ...]:
        """``knows_bottom`` of the history's state (its full log: the returns are enough)."""
        key = (rid, e.state.pile.size, p)
        found = bottoms.get(key)
        if found is None:
            found = bottoms[key] = knows_bottom(e.state._replace(log=returns_of[rid]), p) or ()
        return found

    chunk_events = walker.chunk_events

    # What each chunk of seen events puts on the discard piles (by chunk id; the piles are
    # public, so any seat's chunk says it), for keys whose views hold the piles in card order
    # (``walker.sorted_discards``). The deal's own log (``depth``) adds nothing to them.
    root_piles = tuple(seat.discards for seat in walker.root.seats)
    no_piles: tuple[tuple[Card, ...], ...] = ((),) * players
    put_on_piles: dict[int, tuple[tuple[Card, ...], ...] | None] = {}

    def piles_after(chain: list[int]) -> tuple[tuple[Card, ...], ...]:
        piles = root_piles
        for c in chain[depth:]:
            if c in put_on_piles:
                added = put_on_piles[c]
            else:
                added = replayed_discards(no_piles, chunk_events[c])
                added = put_on_piles[c] = None if added == no_piles else added
            if added is not None:
                piles = tuple([a + b for a, b in zip(piles, added, strict=True)])
        return piles

    def key_parts(
        e: _Entry, p: int, chain: list[int], rid: int
    ) -> tuple[tuple[object, ...], tuple[object, ...], tuple[tuple[Card, ...], ...] | None]:
        """The parts of the observation key: (events, known bottom, and the discard piles
        when the views hold them in card order); checks that no other group of histories has
        the same key."""
        events = tuple(itertools.chain.from_iterable([chunk_events[c] for c in chain]))
        piles = piles_after(chain) if walker.sorted_discards else None
        bottom: tuple[object, ...] = ()
        if rid:  # the history has returns (so ``events`` holds them, cards hidden or not)
            bottom = known_bottom(e, p, rid)
        ids = tuple(itertools.chain.from_iterable([event_ids(c) for c in chain]))
        unique = (e.pub, bottom, ids)
        if unique in unique_keys:
            raise AssertionError(
                f"two groups of histories of player {p} share one observation key "
                f"(information set {unique_keys[unique]})"
            )
        unique_keys[unique] = len(unique_keys)
        return (events, bottom, piles)

    from .endgame import InfosetKey

    def infoset_key(
        e: _Entry,
        events: tuple[object, ...],
        bottom: tuple[object, ...],
        piles: tuple[tuple[Card, ...], ...] | None,
    ) -> Hashable:
        head, tail = walker.pub_views[e.pub]
        if piles is not None:  # the view's piles are in card order: their order replayed
            head = (*head[:_DISCARDS], piles, *head[_DISCARDS + 1 :])
        return InfosetKey((*head, bottom, *tail, events))

    # Level 1: the deals.
    n = len(deal_entries)
    ent = np.fromiter((e.index for e in deal_entries), dtype=np.int64, count=n)
    seen = np.zeros((n, players), dtype=np.int64)
    own = np.zeros((n, players), dtype=np.int64)
    par = np.zeros(n, dtype=np.int64)
    act = np.arange(n, dtype=np.int64)
    rid = np.zeros(n, dtype=np.int64)
    if root_chunks:
        chunk0 = np.array(root_chunks, dtype=np.int64).reshape(-1)
        parents, chunks, inv = _pair_ids(np.zeros_like(chunk0), chunk0)
        base = seen_parent.size
        seen_parent.extend(parents)
        seen_chunk.extend(chunks)
        seen = (base + inv).reshape(n, players)
        rid = np.fromiter((returns_with(0, log) for log in root_logs), dtype=np.int64, count=n)
    # The unfolding refuses as soon as the histories it has made and the least that the
    # pending level makes (:func:`_least_below`) pass ``max_nodes`` (see the module
    # docstring): the refusals it would reach anyway at the last level, only sooner.
    least = _least_below(dag, reductions)
    level = 1
    while n:
        pending = _least_at_top(dag, ent, least, reductions) if level == 1 else least[ent].sum()
        if tree.size + int(pending) > max_nodes:
            raise too_large()
        kind = dag.kind[ent]
        top = level == 1
        if reductions.collapse:
            coll = dag.free[ent] & (kind != TERMINAL)
            if top:
                coll &= kind != DECISION
        else:
            coll = np.zeros(n, dtype=bool)
        term = (kind == TERMINAL) | coll
        chance = (kind == CHANCE) & ~coll
        dec = (kind == DECISION) & ~coll
        nlab = dag.nlab[ent]
        splice = np.zeros(n, dtype=bool)
        if reductions.splice:
            splice |= chance & (nlab == 1)
        # Information sets of this level.
        di = np.flatnonzero(dec)
        d_ent = ent[di]
        d_player = dag.player[d_ent]
        d_sid = seen[di, d_player]
        ident = d_sid * n_pub + dag.pub[d_ent]
        _, first_idx, group = sorted_unique(ident)
        n_groups = int(first_idx.shape[0])
        # Renumber groups by first occurrence (infosets are numbered by their first node).
        rank = np.empty(n_groups, dtype=np.int64)
        rank[np.argsort(first_idx, kind="stable")] = np.arange(n_groups)
        group = rank[group]
        first_node = np.empty(n_groups, dtype=np.int64)
        first_node[rank] = first_idx
        g_ent = d_ent[first_node]
        g_player = d_player[first_node]
        # Every node of an infoset lists the same actions.
        lab = dag.label_id[d_ent]
        if np.any(lab != lab[first_node][group]):
            bad = int(np.flatnonzero(lab != lab[first_node][group])[0])
            raise ValueError(
                f"an information set of player {int(d_player[bad])} offers different actions "
                "at different histories"
            )
        counts = dag.nlab[g_ent]
        # Dominance: ``variant[g]`` indexes the kept-action tuple of group ``g`` (-1: all kept).
        variant = np.full(n_groups, -1, dtype=np.int64)
        if reductions.dominance and not top and n_groups:
            variant = kept.variants(group, d_ent, counts, n_groups)
        has_variant = variant >= 0
        kept_count = counts.copy()
        if np.any(has_variant):
            kept_count[has_variant] = kept.length[variant[has_variant]]
        dominated += int((counts - kept_count).sum())
        g_forced = kept_count == 1
        if not reductions.splice or top:
            g_forced[:] = False
        splice[di] = g_forced[group]
        # Materialise this level's nodes.
        mat = term | chance | dec
        mat &= ~splice
        mat_idx = np.flatnonzero(mat)
        ids = np.full(n, -1, dtype=np.int64)
        ids[mat_idx] = tree.size + np.arange(mat_idx.shape[0])
        # Infosets of the materialised groups, in order of first node.
        g_info = np.full(n_groups, -1, dtype=np.int64)
        g_first_seq = np.zeros(n_groups, dtype=np.int64)
        g_nodes = di[first_node]
        g_sid = seen[g_nodes, g_player]
        g_rid = rid[g_nodes]
        # Forced groups that had a choice: their keys are built lazily (``forced_table``).
        lazy = np.flatnonzero(g_forced & (counts > 1))
        if lazy.size:
            forced_levels.append(
                (
                    level - 1 + depth,
                    g_ent[lazy],
                    g_player[lazy],
                    g_sid[lazy],
                    g_rid[lazy],
                    variant[lazy],
                )
            )
        live = np.flatnonzero(~g_forced)
        live_chain = chains(g_sid[live], level - 1 + depth)
        for j, g in enumerate(live.tolist()):
            x = int(g_ent[g])
            e = dag.entries[x]
            p = int(g_player[g])
            labels = kept.labels(e.labels, int(variant[g]))
            key = infoset_key(e, *key_parts(e, p, live_chain[j], int(g_rid[g])))
            g_info[g] = len(specs)
            g_first_seq[g] = next_sequence[p]
            specs.append(InfosetSpec(p, key, labels, int(own[g_nodes[g], p]), next_sequence[p]))
            labels_of_infoset.append(labels)
            next_sequence[p] += len(labels)
        # Perfect recall: every node of an infoset has the acting seat's sequence of its
        # first node (checked again by tree_game).
        if di.size and np.any(own[di, d_player] != own[di[first_node[group]], d_player]):
            raise ValueError("an information set violates perfect recall")
        info_of_node = np.full(n, -1, dtype=np.int64)
        info_of_node[di] = g_info[group]
        node_kind = np.where(term, int(TERMINAL), kind.astype(np.int64))
        tree.add(
            node_kind[mat_idx],
            ent[mat_idx],
            par[mat_idx],
            act[mat_idx],
            own[mat_idx],
            info_of_node[mat_idx],
        )
        # Children.
        expand = chance | dec
        node_group = np.full(n, -1, dtype=np.int64)
        node_group[di] = group
        per_node = np.where(chance, nlab, 0)
        per_node[di] = kept_count[group]
        per_node[~expand] = 0
        src = np.flatnonzero(per_node)
        cnt = per_node[src]
        total = int(cnt.sum())
        if total == 0:
            break
        rep = np.repeat(src, cnt)
        r = block_offsets(cnt)
        local = r.copy()
        rep_group = node_group[rep]
        is_dec = rep_group >= 0
        if np.any(is_dec):
            rows = np.flatnonzero(is_dec)
            v = variant[rep_group[rows]]
            moved = v >= 0
            local[rows[moved]] = kept.table[v[moved], r[rows[moved]]]
        edge = dag.start[ent[rep]] + local
        child_ent = dag.child[edge]
        rep_mat = mat[rep]
        child_par = np.where(rep_mat, ids[rep], par[rep])
        child_act = np.where(rep_mat, r, act[rep])
        child_own = own[rep].copy()
        dec_mat = is_dec & rep_mat
        if np.any(dec_mat):
            rows = np.flatnonzero(dec_mat)
            pl = dag.player[ent[rep[rows]]]
            child_own[rows, pl] = g_first_seq[rep_group[rows]] + r[rows]
        # Seen-event ids (one id space for all seats) and full-event ids.
        parents, chunks, inv = _pair_ids(seen[rep].reshape(-1), dag.chunk[edge].reshape(-1))
        base = seen_parent.size
        seen_parent.extend(parents)
        seen_chunk.extend(chunks)
        child_seen = (base + inv).reshape(total, players)
        child_rid = rid[rep]
        if any_returns:
            rows = np.flatnonzero(chunk_returns[dag.chunk[edge]].any(axis=1))
            if rows.size:
                r_ids, r_edges, rinv = _pair_ids(child_rid[rows], edge[rows])
                after = [
                    returned_after_edge(a, b)
                    for a, b in zip(r_ids.tolist(), r_edges.tolist(), strict=True)
                ]
                child_rid[rows] = np.array(after, dtype=np.int64)[rinv]
        rid = child_rid
        ent, seen, own, par, act = child_ent, child_seen, child_own, child_par, child_act
        n = total
        level += 1
        if progress is not None:
            progress(tree.size)
    game = _freeze(tree, dag, specs, labels_of_infoset, deal_labels, deal_probs, players)

    def forced_table() -> dict[tuple[int, Hashable], Hashable]:
        out: dict[tuple[int, Hashable], Hashable] = {}
        for length, ents, seats, sids, rids, variants in forced_levels:
            rows = zip(
                ents.tolist(),
                seats.tolist(),
                chains(sids, length),
                rids.tolist(),
                variants.tolist(),
                strict=True,
            )
            for x, p, chain, f, v in rows:
                e = dag.entries[x]
                key = infoset_key(e, *key_parts(e, p, chain, f))
                out[(p, key)] = kept.labels(e.labels, v)[0]
        return out

    # The full tree's size, for the report (after the unfolding: a refusal needs none of it).
    if deal_asides is None:
        full = 1 + sum(walker.count(e) for e in deal_entries)
    else:
        full = _full_histories(dag, walker, deal_entries, deal_asides)
    return LevelBuild(
        game=game,
        full_histories=full,
        forced=LazyTable(forced_table),
        dominated=dominated,
        dag=dag,
    )


def _freeze(
    tree: _Tree,
    dag: _Dag,
    specs: list[InfosetSpec],
    labels_of_infoset: list[tuple[Hashable, ...]],
    deal_labels: tuple[Hashable, ...],
    deal_probs: tuple[Fraction, ...],
    players: int,
) -> Game:
    kind = np.concatenate(tree.kind)
    entry = np.concatenate(tree.entry)
    parent = np.concatenate(tree.parent)
    action = np.concatenate(tree.action)
    own = np.concatenate(tree.own).reshape(-1, players)
    infoset = np.concatenate(tree.infoset)
    n = int(kind.shape[0])
    player = np.full(n, -1, dtype=np.int64)
    node_key = np.empty(n, dtype=object)
    # Labels, probabilities and utilities go to tree_game as the few tuples the nodes share
    # (:class:`~loveformal.solver.efg.Shared`), each node an index into them.
    # Terminals: the expected utilities and win indicators of their engine node. Their keys
    # carry the win indicators, one key tuple per distinct indicator tuple, shared: a key
    # per terminal was over a million tuples on the big endgames, for the collector to
    # traverse.
    terminals = np.flatnonzero(kind == TERMINAL)
    t_ent = entry[terminals]
    expect, win = _objects(dag.expect), _objects(dag.win)
    used = np.unique(t_ent)
    used_expect = expect[used].tolist()
    used_win = win[used].tolist()
    if any(u is None for u in used_expect) or any(w is None for w in used_win):
        raise AssertionError("a terminal of the reduced game has no expected utility")
    utility = shared_by_identity(used_expect, _at_entries(used, t_ent, terminals, n))
    # By identity first (hashing tuples of Fractions is slow), then by value over those few.
    first, group = group_by_identity(used_win)
    by_value: dict[object, tuple[str, object]] = {}
    shared = [
        by_value.setdefault(used_win[i], (_TERMINAL_KEY, used_win[i])) for i in first.tolist()
    ]
    keys = np.empty(win.shape[0], dtype=object)
    keys[used] = _objects(shared)[group]
    node_key[terminals] = keys[t_ent]
    # Chance nodes below the root: their engine node's outcomes.
    chance = np.flatnonzero(kind == CHANCE)
    chance = chance[chance > 0]
    c_ent = entry[chance]
    c_used = np.unique(c_ent)
    c_entries = [dag.entries[x] for x in c_used.tolist()]
    at_chance = _at_entries(c_used, c_ent, chance, n)
    chance_labels = shared_by_identity([e.labels for e in c_entries], at_chance)
    chance_probs = shared_by_identity([e.probs for e in c_entries], at_chance)
    del at_chance, c_entries
    # The root's deal, first; then the chance nodes' tuples; then the information sets'
    # (every node's labels set below: tree_game refuses a node left at -1).
    prob = chance_probs.index
    prob[chance] += 1
    prob[0] = 0
    label = chance_labels.index
    label[chance] += 1
    label[0] = 0
    n_chance = len(chance_labels.values)
    # Decisions: their information set's actions, and the acting seat.
    decisions = np.flatnonzero(kind == DECISION)
    label[decisions] = 1 + n_chance + infoset[decisions]
    label[terminals] = 1 + n_chance + len(labels_of_infoset)  # no actions
    player[decisions] = dag.player[entry[decisions]]
    return tree_game(
        players,
        kind=kind,
        player=player,
        infoset=infoset,
        parent=parent,
        action=action,
        labels=Shared([deal_labels, *chance_labels.values, *labels_of_infoset, ()], label),
        probs=Shared([deal_probs, *chance_probs.values], prob),
        utility=utility,
        node_key=node_key.tolist(),
        own_sequence=own,
        infosets=specs,
    )


def _at_entries(used: I64, entries: I64, nodes: I64, n: int) -> npt.NDArray[np.int32]:
    """Per node of the game: at ``nodes``, the position of its engine node (``entries``) in
    ``used`` (sorted engine node numbers); -1 elsewhere."""
    index = np.full(n, -1, dtype=np.int32)
    index[nodes] = np.searchsorted(used, entries)
    return index


def _objects(items: Sequence[object]) -> npt.NDArray[np.object_]:
    """A 1-D object array of ``items`` (tuples stay elements, not rows)."""
    return np.fromiter(items, dtype=object, count=len(items))
