"""Extensive-form games, built once and frozen into arrays.

A game is a rooted directed acyclic graph of *nodes* of three kinds:

* **chance** — outcomes ``(label, probability, child)`` with exact ``Fraction`` probabilities,
  each > 0, summing to exactly 1, labels distinct. Identical outcomes should be merged by the
  caller into one outcome carrying the summed probability;
* **decision** — an acting ``player`` (0-based), an information-set key (any hashable; keys
  are namespaced per player, so players 0 and 1 may both use the key ``"x"``), and labelled
  actions ``(label, child)``. Every node of an information set must offer the same *set* of
  labels; the order of the first node seen is the infoset's canonical order and the children
  of later nodes are re-ordered to match;
* **terminal** — one exact utility per player.

Building is bottom-up: :class:`GameBuilder` methods create a node from already created
children and return its id; :meth:`GameBuilder.build` freezes the part reachable from a root
into a :class:`Game`. A recursive walk of any rules engine fits this directly::

    def walk(state):
        if is_terminal(state): return b.terminal(returns(state))
        if is chance: return b.chance([(o, p, walk(apply(state, o))) for o, p in outcomes])
        return b.decision(player, infoset_key, [(a, walk(apply(state, a))) for a in actions])

**Transpositions (DAG sharing).** A node may be the child of several parents: pass the same
child id twice, or give nodes a ``key`` and ask :meth:`GameBuilder.find` before expanding a
state again (creating a node under an existing key returns the existing id when the content
is identical and raises ``ValueError`` otherwise). Sharing is only sound for the sequence form
if every path to a shared node carries the same *own action sequence* for every player, so
:meth:`GameBuilder.build` checks exactly that and raises ``ValueError`` otherwise. In practice
this permits merging histories that differ only in chance events (e.g. two dealing orders that
reach the same state), not histories in which some player acted differently — those reach
different sequence-form leaves even when the resulting positions coincide.

**Sequences and perfect recall.** Player ``p``'s sequences are the empty sequence (index 0)
plus one sequence per (infoset of ``p``, action), numbered ``infoset.first_sequence + a``.
The *own sequence* of ``p`` at a node is the last (infoset, action) of ``p`` on the path to it.
The game has perfect recall iff all nodes of each infoset share the acting player's own
sequence (which is then the infoset's ``parent_sequence``); by induction this fixes each
player's entire own history of (infoset, action) pairs, and it also excludes absent-mindedness
(an infoset met twice on one path). ``build`` checks this and raises ``ValueError`` naming the
infoset and the two conflicting sequences.

**Numbering.** In a built game node 0 is the root and every parent has a smaller id than its
children (a topological order); infosets are numbered by their first node in that order, so
the infoset owning a sequence always has a smaller index than the infosets that follow it.
Edges are stored in CSR form: the edges of node ``n`` are ``child_start[n]:child_start[n+1]``,
in action (or outcome) order.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "CHANCE",
    "DECISION",
    "TERMINAL",
    "Game",
    "GameBuilder",
    "GameSizes",
    "Infoset",
    "InfosetSpec",
    "NodeKind",
    "Shared",
    "gc_paused",
    "tree_game",
]


class NodeKind(IntEnum):
    """The kind of a node, as stored in :attr:`Game.kind`."""

    CHANCE = 0
    DECISION = 1
    TERMINAL = 2


CHANCE = NodeKind.CHANCE
DECISION = NodeKind.DECISION
TERMINAL = NodeKind.TERMINAL

IntArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]


def _exact(value: object, what: str) -> Fraction:
    """An exact rational from an ``int`` or ``Fraction``; floats are refused (not exact)."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"{what} must be an int or fractions.Fraction, got {value!r}")
    return Fraction(value)


@dataclass(frozen=True, eq=False)
class Infoset:
    """One information set of a built :class:`Game`."""

    index: int
    """Position in :attr:`Game.infosets` (global over all players)."""
    player: int
    """The acting player."""
    key: Hashable
    """The caller's key (unique per player)."""
    actions: tuple[Hashable, ...]
    """Action labels in canonical order; action index ``a`` is ``actions[a]``."""
    nodes: tuple[int, ...]
    """The decision nodes in this infoset, ascending."""
    parent_sequence: int
    """The acting player's own sequence at every node of the infoset (0 = empty)."""
    first_sequence: int
    """Sequence index of action 0; action ``a`` is sequence ``first_sequence + a``."""


@dataclass(frozen=True)
class GameSizes:
    """Size figures of a built game."""

    nodes: int
    """Histories (nodes of the DAG; shared subtrees count once)."""
    terminals: int
    edges: int
    infosets: tuple[int, ...]
    """Per player."""
    sequences: tuple[int, ...]
    """Per player, including the empty sequence."""
    deals: int
    """Chance outcomes at the root (1 when the root is not a chance node)."""


@dataclass(frozen=True, eq=False)
class Game:
    """A frozen extensive-form game (see the module docstring for the conventions).

    All arrays are read-only. Node arrays have length :attr:`num_nodes`; edge arrays have
    length :attr:`num_edges`.
    """

    num_players: int
    kind: npt.NDArray[np.int8]
    """:class:`NodeKind` per node."""
    player: IntArray
    """Acting player at decision nodes, -1 elsewhere."""
    infoset: IntArray
    """Index into :attr:`infosets` at decision nodes, -1 elsewhere."""
    parent: IntArray
    """First parent (smallest id) per node; -1 at the root."""
    action: IntArray
    """Action / outcome index on the edge from :attr:`parent`; -1 at the root."""
    num_parents: IntArray
    """In-degree per node (> 1 only where subtrees are shared)."""
    child_start: npt.NDArray[np.int64]
    """CSR offsets: the edges of node ``n`` are ``child_start[n]:child_start[n + 1]``."""
    edge_child: IntArray
    edge_label: tuple[Hashable, ...]
    """Action label (decision) or outcome label (chance) per edge."""
    edge_prob: FloatArray
    """Chance probability per edge as float; NaN on decision edges."""
    edge_prob_exact: tuple[Fraction | None, ...]
    """Chance probability per edge, exact; None on decision edges."""
    utility: FloatArray
    """Shape (num_nodes, num_players); zero at non-terminal nodes."""
    utility_exact: tuple[tuple[Fraction, ...] | None, ...]
    """Exact utilities per node; None at non-terminal nodes."""
    infosets: tuple[Infoset, ...]
    own_sequence: IntArray
    """Shape (num_nodes, num_players): each player's own sequence at each node."""
    sequence_infoset: tuple[IntArray, ...]
    """Per player: owning infoset of each sequence (-1 for the empty sequence)."""
    sequence_action: tuple[IntArray, ...]
    """Per player: action index of each sequence (-1 for the empty sequence)."""
    node_key: tuple[Hashable, ...]
    """The builder key of each node (None where none was given). In a
    :class:`GameBuilder`'s game a key names one node; :func:`tree_game` takes the keys as
    given, and they may repeat (the endgame's terminals share one key per win indicator)."""

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.edge_child.shape[0])

    def edges(self, node: int) -> range:
        """Edge indices of ``node``, in action / outcome order."""
        return range(int(self.child_start[node]), int(self.child_start[node + 1]))

    def children(self, node: int) -> list[int]:
        return [int(self.edge_child[e]) for e in self.edges(node)]

    def infosets_of(self, player: int) -> tuple[Infoset, ...]:
        """Player ``player``'s infosets, in index order."""
        return tuple(i for i in self.infosets if i.player == player)

    def infoset_index(self, player: int, key: Hashable) -> int:
        """Index of player ``player``'s infoset with key ``key``; ``KeyError`` if absent."""
        found = self._lookup.get((player, key))
        if found is None:
            raise KeyError(f"player {player} has no information set {key!r}")
        return found

    @property
    def _lookup(self) -> dict[tuple[int, Hashable], int]:
        cache: dict[tuple[int, Hashable], int] | None = self.__dict__.get("_lookup_cache")
        if cache is None:
            cache = {(i.player, i.key): i.index for i in self.infosets}
            object.__setattr__(self, "_lookup_cache", cache)
        return cache

    def num_sequences(self, player: int) -> int:
        return int(self.sequence_infoset[player].shape[0])

    def describe_sequence(self, player: int, sequence: int) -> str:
        """Human-readable name of a sequence: ``∅`` or ``infoset-key:action``."""
        if sequence == 0:
            return "∅"
        info = self.infosets[int(self.sequence_infoset[player][sequence])]
        action = info.actions[int(self.sequence_action[player][sequence])]
        return f"{info.key!r}:{action!r}"

    def sizes(self) -> GameSizes:
        root_deals = len(self.edges(0)) if self.kind[0] == CHANCE else 1
        return GameSizes(
            nodes=self.num_nodes,
            terminals=int(np.count_nonzero(self.kind == TERMINAL)),
            edges=self.num_edges,
            infosets=tuple(len(self.infosets_of(p)) for p in range(self.num_players)),
            sequences=tuple(self.num_sequences(p) for p in range(self.num_players)),
            deals=root_deals,
        )

    def is_zero_sum(self) -> bool:
        """Exactly zero-sum at every terminal."""
        cached: bool | None = self.__dict__.get("_zero_sum_cache")
        if cached is None:
            # Builders share one tuple among the terminals with the same utilities: check
            # each distinct object once (summing Fractions at every terminal is slow).
            utilities = self.utility_exact
            held = [utilities[n] for n in np.flatnonzero(self.kind == TERMINAL).tolist()]
            first, _ = group_by_identity(held)
            cached = all(_sums_to_zero(u) for u in map(held.__getitem__, first.tolist()) if u)
            object.__setattr__(self, "_zero_sum_cache", cached)
        return cached

    def depths(self) -> npt.NDArray[np.int64]:
        """Per node of a tree: how many ancestors it has (computed once; read-only)."""
        cached: npt.NDArray[np.int64] | None = self.__dict__.get("_depth_cache")
        if cached is None:
            cached = node_depths(self.parent)
            cached.flags.writeable = False
            object.__setattr__(self, "_depth_cache", cached)
        return cached

    def levels(self) -> list[npt.NDArray[np.intp]]:
        """Per depth, root first: the nodes of a tree at that depth, in increasing order
        (computed once)."""
        cached: list[npt.NDArray[np.intp]] | None = self.__dict__.get("_levels_cache")
        if cached is None:
            depth = self.depths()
            order = stable_order(depth)
            cached = np.split(order, np.flatnonzero(np.diff(depth[order])) + 1)
            object.__setattr__(self, "_levels_cache", cached)
        return cached

    def is_tree(self) -> bool:
        """No shared subtrees: every node but the root has exactly one parent."""
        return bool(np.all(self.num_parents[1:] == 1))

    def _into_prob(self) -> FloatArray:
        """Per node: the chance probability of the edge into it (1 after decisions / root)."""
        into = np.ones(self.num_nodes, dtype=np.float64)
        chance_edges = ~np.isnan(self.edge_prob)
        into[self.edge_child[chance_edges]] = self.edge_prob[chance_edges]
        return into

    def chance_reach(self) -> FloatArray:
        """Per node: total probability of the chance events on the paths to it (float)."""
        if self.is_tree():
            return path_product(self.parent, self._into_prob())
        reach = np.zeros(self.num_nodes, dtype=np.float64)
        reach[0] = 1.0
        kinds = self.kind.tolist()
        starts = self.child_start.tolist()
        children = self.edge_child.tolist()
        probs = self.edge_prob.tolist()
        out = reach.tolist()
        for n in range(self.num_nodes):
            r = out[n]
            chance = kinds[n] == CHANCE
            for e in range(starts[n], starts[n + 1]):
                out[children[e]] += r * probs[e] if chance else r
        return np.asarray(out, dtype=np.float64)

    def chance_reach_exact(self) -> list[Fraction]:
        """As :meth:`chance_reach`, in exact arithmetic."""
        out = [Fraction(0)] * self.num_nodes
        out[0] = Fraction(1)
        starts = self.child_start.tolist()
        children = self.edge_child.tolist()
        for n in range(self.num_nodes):
            r = out[n]
            for e in range(starts[n], starts[n + 1]):
                p = self.edge_prob_exact[e]
                out[children[e]] += r if p is None else r * p
        return out


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (restoring its state on exit). A built game holds
    millions of small objects, created while the builder had the collector paused; the
    collections that allocation then triggers traverse all of them, for nothing (none of it is
    cyclic garbage) — seconds on the big endgames. The solver and the certificate run with the
    collector paused."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def path_accumulate(
    parent: npt.NDArray[np.integer[Any]],
    values: npt.NDArray[Any],
    combine: Callable[[npt.NDArray[Any], npt.NDArray[Any]], npt.NDArray[Any]],
) -> npt.NDArray[Any]:
    """Per node of a tree (``parent[n]``, -1 at the root): ``values`` combined over the node
    and all its ancestors, by an associative ``combine`` (pointer jumping: ``log2(depth)``
    vectorised rounds; ``values`` itself is not changed)."""
    out = values.copy()
    anc = parent.astype(np.int64, copy=True)
    while True:
        live = np.flatnonzero(anc >= 0)
        if live.size == 0:
            return out
        up = anc[live]
        out[live] = combine(out[live], out[up])
        anc[live] = anc[up]


def stable_order(keys: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """``np.argsort(keys, kind="stable")`` for keys ≥ 0 (depths): as 16-bit keys when they
    fit, which numpy sorts by counting (linear time), else as they are."""
    if keys.size and int(keys.max()) < 1 << 16:
        return np.argsort(keys.astype(np.uint16), kind="stable")
    return np.argsort(keys, kind="stable")


def down_product(game: Game, values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Per node of a tree game: the product of ``values`` over the node and its ancestors,
    one depth level at a time from the root (``values`` itself is not changed). Exact for
    integers, as :func:`path_accumulate` with ``np.multiply`` is."""
    out = values.copy()
    for level in game.levels()[1:]:
        out[level] = out[level] * out[game.parent[level]]
    return out


def node_depths(parent: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """Per node of a tree: how many ancestors it has."""
    return path_accumulate(parent, (parent >= 0).astype(np.int64), np.add)


def block_offsets(count: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``0, 1, …, count[0] − 1, 0, 1, …, count[1] − 1, …``: each position's offset inside
    consecutive blocks of the given sizes."""
    return np.arange(int(count.sum()), dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)


def path_product(parent: npt.NDArray[np.int32], values: FloatArray) -> FloatArray:
    """Per node of a tree: the product of ``values`` over the node and all its ancestors."""
    return path_accumulate(parent, values.astype(np.float64), np.multiply)


@dataclass(frozen=True)
class _Node:
    kind: NodeKind
    player: int
    infoset: Hashable
    labels: tuple[Hashable, ...]
    children: tuple[int, ...]
    probs: tuple[Fraction, ...]
    utility: tuple[Fraction, ...]
    key: Hashable


class GameBuilder:
    """Bottom-up builder of a :class:`Game` (see the module docstring)."""

    def __init__(self, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players < 1:
            raise ValueError(f"num_players must be a positive int, got {num_players!r}")
        self.num_players = num_players
        self._nodes: list[_Node] = []
        self._keys: dict[Hashable, int] = {}
        self._actions: dict[tuple[int, Hashable], tuple[Hashable, ...]] = {}

    def __len__(self) -> int:
        """Nodes created so far (reachable or not)."""
        return len(self._nodes)

    def find(self, key: Hashable) -> int | None:
        """The id of the node created under ``key``, or None."""
        return self._keys.get(key)

    def terminal(self, utilities: Sequence[Fraction | int], *, key: Hashable = None) -> int:
        """A terminal node with one exact utility per player."""
        if len(utilities) != self.num_players:
            raise ValueError(
                f"terminal needs {self.num_players} utilities (one per player), "
                f"got {len(utilities)}: {utilities!r}"
            )
        utility = tuple(_exact(u, f"utility of player {i}") for i, u in enumerate(utilities))
        return self._add(_Node(TERMINAL, -1, None, (), (), (), utility, key))

    def chance(
        self, outcomes: Sequence[tuple[Hashable, Fraction | int, int]], *, key: Hashable = None
    ) -> int:
        """A chance node from ``(label, probability, child)`` outcomes."""
        if not outcomes:
            raise ValueError("a chance node needs at least one outcome")
        labels = tuple(label for label, _, _ in outcomes)
        self._distinct(labels, "chance outcome")
        probs = tuple(_exact(p, f"probability of outcome {lab!r}") for lab, p, _ in outcomes)
        for label, p in zip(labels, probs, strict=True):
            if p <= 0:
                raise ValueError(f"chance outcome {label!r} has probability {p} (must be > 0)")
        total = sum(probs, Fraction(0))
        if total != 1:
            raise ValueError(f"chance probabilities sum to {total}, not 1 (outcomes {labels!r})")
        children = tuple(self._child(c) for _, _, c in outcomes)
        return self._add(_Node(CHANCE, -1, None, labels, children, probs, (), key))

    def decision(
        self,
        player: int,
        infoset: Hashable,
        actions: Sequence[tuple[Hashable, int]],
        *,
        key: Hashable = None,
    ) -> int:
        """A decision node of ``player`` in information set ``infoset``."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError(f"player must be an int, got {player!r}")
        if not 0 <= player < self.num_players:
            raise ValueError(f"player {player} out of range 0..{self.num_players - 1}")
        if not actions:
            raise ValueError(f"decision node in infoset {infoset!r} needs at least one action")
        labels = tuple(label for label, _ in actions)
        if len(set(labels)) != len(labels):
            self._distinct(labels, f"action in infoset {infoset!r}")
        children = tuple(self._child(c) for _, c in actions)
        canonical = self._actions.setdefault((player, infoset), labels)
        if canonical != labels:
            if set(canonical) != set(labels):
                raise ValueError(
                    f"information set {infoset!r} of player {player} has actions "
                    f"{list(canonical)!r} at one node and {list(labels)!r} at another"
                )
            by_label = dict(zip(labels, children, strict=True))
            labels, children = canonical, tuple(by_label[a] for a in canonical)
        return self._add(_Node(DECISION, player, infoset, labels, children, (), (), key))

    def _distinct(self, labels: tuple[Hashable, ...], what: str) -> None:
        if len(set(labels)) != len(labels):
            dupes = sorted({repr(x) for x in labels if labels.count(x) > 1})
            raise ValueError(f"duplicate {what} labels: {', '.join(dupes)}")

    def _child(self, child: int) -> int:
        if isinstance(child, bool) or not isinstance(child, int):
            raise TypeError(f"child must be a node id (int) from this builder, got {child!r}")
        if not 0 <= child < len(self._nodes):
            raise ValueError(f"child {child} is not a node of this builder")
        return child

    def _add(self, node: _Node) -> int:
        if node.key is not None:
            existing = self._keys.get(node.key)
            if existing is not None:
                if self._nodes[existing] != node:
                    raise ValueError(
                        f"node key {node.key!r} already names a different node ({existing})"
                    )
                return existing
            self._keys[node.key] = len(self._nodes)
        self._nodes.append(node)
        return len(self._nodes) - 1

    def build(self, root: int) -> Game:
        """Freeze the game reachable from ``root``; checks perfect recall and sharing."""
        root = self._child(root)
        reachable = [False] * len(self._nodes)
        reachable[root] = True
        # Children always have smaller builder ids than their parents, so one descending
        # sweep marks everything reachable and the descending order is topological.
        for i in range(root, -1, -1):
            if reachable[i]:
                for c in self._nodes[i].children:
                    reachable[c] = True
        order = [i for i in range(root, -1, -1) if reachable[i]]
        new_id = {old: new for new, old in enumerate(order)}
        nodes = [self._nodes[old] for old in order]
        n_nodes, n_players = len(nodes), self.num_players

        infoset = [-1] * n_nodes
        parent = [-1] * n_nodes
        action = [-1] * n_nodes
        num_parents = [0] * n_nodes
        child_start = [0] * (n_nodes + 1)
        edge_child: list[int] = []
        edge_label: list[Hashable] = []
        edge_prob_exact: list[Fraction | None] = []
        utility_exact: list[tuple[Fraction, ...] | None] = [None] * n_nodes
        own: list[tuple[int, ...]] = [()] * n_nodes
        own[0] = (0,) * n_players

        info_index: dict[tuple[int, Hashable], int] = {}
        info_player: list[int] = []
        info_key: list[Hashable] = []
        info_nodes: list[list[int]] = []
        info_parent: list[int] = []
        info_first: list[int] = []
        seq_infoset: list[list[int]] = [[-1] for _ in range(n_players)]
        seq_action: list[list[int]] = [[-1] for _ in range(n_players)]

        def describe(p: int, seq: int) -> str:
            if seq == 0:
                return "∅ (no action yet)"
            i = seq_infoset[p][seq]
            label = self._actions[(p, info_key[i])][seq_action[p][seq]]
            return f"{info_key[i]!r}:{label!r}"

        for n, nd in enumerate(nodes):
            child_start[n] = len(edge_child)
            seqs = own[n]
            if nd.kind == TERMINAL:
                utility_exact[n] = nd.utility
                continue
            acting = -1
            first = 0
            if nd.kind == DECISION:
                acting = nd.player
                ident = (nd.player, nd.infoset)
                idx = info_index.get(ident)
                if idx is None:
                    idx = len(info_player)
                    info_index[ident] = idx
                    info_player.append(nd.player)
                    info_key.append(nd.infoset)
                    info_nodes.append([])
                    info_parent.append(seqs[acting])
                    info_first.append(len(seq_infoset[acting]))
                    seq_infoset[acting].extend([idx] * len(nd.labels))
                    seq_action[acting].extend(range(len(nd.labels)))
                elif info_parent[idx] != seqs[acting]:
                    other = info_nodes[idx][0]
                    raise ValueError(
                        f"information set {nd.infoset!r} of player {acting} violates perfect "
                        f"recall: node {other} is reached after the player's own sequence "
                        f"{describe(acting, info_parent[idx])} "
                        f"but node {n} after "
                        f"{describe(acting, seqs[acting])}"
                    )
                infoset[n] = idx
                info_nodes[idx].append(n)
                first = info_first[idx]
            for a, (label, old_child) in enumerate(zip(nd.labels, nd.children, strict=True)):
                c = new_id[old_child]
                edge_child.append(c)
                edge_label.append(label)
                edge_prob_exact.append(nd.probs[a] if nd.kind == CHANCE else None)
                child_seqs = seqs
                if acting >= 0:
                    child_seqs = (*seqs[:acting], first + a, *seqs[acting + 1 :])
                if num_parents[c] == 0:
                    parent[c], action[c] = n, a
                    own[c] = child_seqs
                elif own[c] != child_seqs:
                    p = next(i for i in range(n_players) if own[c][i] != child_seqs[i])
                    raise ValueError(
                        f"shared node {c} (key {nodes[c].key!r}) is reached with different "
                        f"own sequences of player {p}: "
                        f"{describe(p, own[c][p])} via node "
                        f"{parent[c]} and "
                        f"{describe(p, child_seqs[p])} via "
                        f"node {n}; only histories that differ in chance events may be merged"
                    )
                num_parents[c] += 1
        child_start[n_nodes] = len(edge_child)

        infosets = tuple(
            Infoset(
                index=i,
                player=info_player[i],
                key=info_key[i],
                actions=self._actions[(info_player[i], info_key[i])],
                nodes=tuple(info_nodes[i]),
                parent_sequence=info_parent[i],
                first_sequence=info_first[i],
            )
            for i in range(len(info_player))
        )
        edge_prob = np.array(
            [np.nan if p is None else float(p) for p in edge_prob_exact], dtype=np.float64
        )
        utility = np.zeros((n_nodes, n_players), dtype=np.float64)
        for n, u in enumerate(utility_exact):
            if u is not None:
                utility[n] = [float(x) for x in u]
        kind = np.array([int(nd.kind) for nd in nodes], dtype=np.int8)
        player = np.array([nd.player for nd in nodes], dtype=np.int32)
        infoset_arr = np.array(infoset, dtype=np.int32)
        parent_arr = np.array(parent, dtype=np.int32)
        action_arr = np.array(action, dtype=np.int32)
        num_parents_arr = np.array(num_parents, dtype=np.int32)
        child_start_arr = np.array(child_start, dtype=np.int64)
        edges = np.array(edge_child, dtype=np.int32)
        own_arr = np.array(own, dtype=np.int32).reshape(n_nodes, n_players)
        arrays: list[npt.NDArray[np.generic]] = [
            kind,
            player,
            infoset_arr,
            parent_arr,
            action_arr,
            num_parents_arr,
            child_start_arr,
            edges,
            edge_prob,
            utility,
            own_arr,
        ]
        seq_inf = tuple(np.array(s, dtype=np.int32) for s in seq_infoset)
        seq_act = tuple(np.array(s, dtype=np.int32) for s in seq_action)
        for arr in [*arrays, *seq_inf, *seq_act]:
            arr.flags.writeable = False
        return Game(
            num_players=n_players,
            kind=kind,
            player=player,
            infoset=infoset_arr,
            parent=parent_arr,
            action=action_arr,
            num_parents=num_parents_arr,
            child_start=child_start_arr,
            edge_child=edges,
            edge_label=tuple(edge_label),
            edge_prob=edge_prob,
            edge_prob_exact=tuple(edge_prob_exact),
            utility=utility,
            utility_exact=tuple(utility_exact),
            infosets=infosets,
            own_sequence=own_arr,
            sequence_infoset=seq_inf,
            sequence_action=seq_act,
            node_key=tuple(nd.key for nd in nodes),
        )


@dataclass(frozen=True)
class InfosetSpec:
    """One information set as declared to :func:`tree_game` (indices are global)."""

    player: int
    key: Hashable
    actions: tuple[Hashable, ...]
    parent_sequence: int
    first_sequence: int


@dataclass(frozen=True, eq=False)
class Shared:
    """A per-node field of :func:`tree_game` given as the few objects its nodes share (the
    fast path of big builders, whose millions of nodes hold a few thousand label, probability
    and utility tuples): node ``n`` holds ``values[index[n]]``, or nothing (None; no labels)
    where ``index[n]`` is -1."""

    values: Sequence[Any]
    index: npt.NDArray[np.integer[Any]]


def shared_by_identity(values: Sequence[Any], index: npt.NDArray[np.integer[Any]]) -> Shared:
    """``Shared(values, index)`` (``index``: -1 or a position in ``values``) with the equal
    objects among ``values`` (by identity) merged into one, so that :func:`tree_game` checks
    each once. The index keeps its integer type."""
    if index.size and (int(index.min()) < -1 or int(index.max()) >= len(values)):
        raise ValueError(f"shared_by_identity: an index outside -1..{len(values) - 1}")
    first, group = group_by_identity(values)
    merged = np.full(index.shape, -1, dtype=index.dtype)
    held = index >= 0
    merged[held] = group[index[held]]
    return Shared([values[i] for i in first.tolist()], merged)


def _shared(
    field: str,
    given: Sequence[Any] | Shared,
    n_nodes: int,
    nodes: npt.NDArray[np.intp] | None = None,
) -> tuple[list[Any], npt.NDArray[np.integer[Any]]]:
    """``given`` as its distinct objects and, per node, the index of its own among them (-1:
    None). A :class:`Shared` is taken as declared (its index's integer type kept), its
    indices checked; a per-node sequence is grouped by identity, at ``nodes`` only if given
    (the other nodes' entries unread, -1)."""
    index: npt.NDArray[np.integer[Any]]
    if isinstance(given, Shared):
        values = list(given.values)
        index = np.asarray(given.index)
        if not np.issubdtype(index.dtype, np.integer):
            raise ValueError(f"tree_game: the {field} index must be integers, not {index.dtype}")
        if index.shape != (n_nodes,):
            raise ValueError(f"tree_game: one {field} index per node")
        if index.size and (int(index.min()) < -1 or int(index.max()) >= len(values)):
            raise ValueError(f"tree_game: a {field} index outside its {len(values)} values")
        if any(v is None for v in values):
            index = index.copy()  # None is remapped to -1 below
    else:
        if len(given) != n_nodes:
            raise ValueError(f"tree_game: one {field} entry (or None) per node")
        at = given if nodes is None else [given[n] for n in nodes.tolist()]
        grouped = shared_by_identity(at, np.arange(len(at), dtype=np.int64))
        values = list(grouped.values)
        if nodes is None:
            index = grouped.index
        else:
            index = np.full(n_nodes, -1, dtype=np.int64)
            index[nodes] = grouped.index
    for i, v in enumerate(values):
        if v is None:
            index[index == i] = -1
    return values, index


def _sums_to_zero(u: tuple[Fraction, ...]) -> bool:
    """``sum(u) == 0``; for two Fractions (kept in lowest terms, denominator positive) without
    adding them."""
    if len(u) == 2:
        a, b = u
        return a.numerator == -b.numerator and a.denominator == b.denominator
    return sum(u) == 0


def sorted_unique(
    key: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """``np.unique(key, return_index=True, return_inverse=True)``: the distinct keys in
    increasing order, where each first occurs, and each key's index among them. By a least
    significant digit radix sort of ``key`` less its least value: numpy sorts 16-bit digits
    stably by counting, in linear time, where ``np.unique`` sorts the whole 64-bit keys (about
    2.5 times slower on the reduced build's (seen events, chunk) pairs: 0.31 against 0.75 s
    over classic k = 5 seed 5008's)."""
    if key.size == 0:
        return key.copy(), np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    low = int(key.min())
    top = int(key.max()) - low
    if top >= 2**63:  # the offsets would overflow
        uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        return uniq, first, inverse.reshape(-1)
    offset = key - low if low else key
    order: npt.NDArray[np.intp] | None = None
    shift = 0
    while order is None or top >> shift:
        digit = ((offset >> shift) & 0xFFFF).astype(np.uint16)
        if order is None:
            order = np.argsort(digit, kind="stable")
        else:
            order = order[np.argsort(digit[order], kind="stable")]
        shift += 16
    ordered = key[order]
    new = np.empty(ordered.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(ordered.shape[0], dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], order[new], inverse


def group_by_identity(items: Sequence[object]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Group ``items`` by object identity (builders share one tuple among many nodes): the
    position of each group's first item, and each item's group."""
    ids = np.fromiter(map(id, items), dtype=np.uint64, count=len(items))
    _, first, inverse = sorted_unique(ids.view(np.int64))
    return first, inverse


LABEL_BLOCK = 1 << 18
"""Nodes whose edge labels :func:`tree_game` gathers at once."""


def tree_game(
    num_players: int,
    *,
    kind: Sequence[int] | npt.NDArray[np.integer[Any]],
    player: Sequence[int] | npt.NDArray[np.integer[Any]],
    infoset: Sequence[int] | npt.NDArray[np.integer[Any]],
    parent: Sequence[int] | npt.NDArray[np.integer[Any]],
    action: Sequence[int] | npt.NDArray[np.integer[Any]],
    labels: Sequence[tuple[Hashable, ...]] | Shared,
    probs: Sequence[tuple[Fraction, ...] | None] | Shared,
    utility: Sequence[tuple[Fraction, ...] | None] | Shared,
    node_key: Sequence[Hashable],
    own_sequence: Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]],
    infosets: Sequence[InfosetSpec],
) -> Game:
    """Freeze a game *tree* given as flat per-node lists (the fast path of big builders).

    Node ``n`` has parent ``parent[n]`` (-1 for the root, node 0) and is reached by edge
    ``action[n]`` of it; nodes must be numbered in a topological order (parent first). Node
    ``n`` offers ``labels[n]`` (edge labels, in order; decision nodes list their infoset's
    actions in its canonical order), ``probs[n]`` (chance nodes) and ``utility[n]``
    (terminals, exact). The caller declares each decision node's infoset index, every node's
    own sequences and the infosets (numbered by first node, sequences numbered per player in
    that order) — exactly what :meth:`GameBuilder.build` computes for the same tree. All of
    it is checked, vectorised where it matters: the tree shape (the children of each node are
    exactly its edges ``0..len(labels)-1``), chance probabilities (> 0, summing to 1), the own
    sequences (the child of edge ``a`` of a decision node in infoset ``I`` has the acting
    player's sequence ``first(I) + a``; other edges keep the parent's) and perfect recall
    (every node of an infoset has its ``parent_sequence``). Raises ``ValueError`` on a
    mismatch. ``labels``, ``probs`` and ``utility`` may be given as :class:`Shared` objects
    instead of per node; the game is the same, and each distinct object is checked once
    either way.
    """
    n_nodes = len(kind)
    n_players = num_players
    kind_arr = np.asarray(kind, dtype=np.int8)
    player_arr = np.asarray(player, dtype=np.int32)
    infoset_arr = np.asarray(infoset, dtype=np.int32)
    parent_arr = np.asarray(parent, dtype=np.int32)
    action_arr = np.asarray(action, dtype=np.int32)
    own_arr = np.asarray(own_sequence, dtype=np.int32).reshape(n_nodes, n_players)
    if n_nodes == 0 or parent_arr[0] != -1 or np.any(parent_arr[1:] < 0):
        raise ValueError("tree_game needs a tree rooted at node 0")
    if np.any(parent_arr[1:] >= np.arange(1, n_nodes)):
        raise ValueError("tree_game: every parent must come before its children")
    decides = player_arr[kind_arr == DECISION]
    if any(not 0 <= spec.player < n_players for spec in infosets) or np.any(
        (decides < 0) | (decides >= n_players)
    ):
        raise ValueError(f"tree_game: a decision's player must be 0..{n_players - 1}")
    label_values, label_index = _shared("labels", labels, n_nodes)
    if np.any(label_index < 0):
        bad = int(np.flatnonzero(label_index < 0)[0])
        raise ValueError(f"tree_game: node {bad} has no labels (a terminal's are ())")
    label_values = [() if v is None else v for v in label_values]  # None: no node's (above)
    label_len = np.fromiter(map(len, label_values), dtype=np.int64, count=len(label_values))
    counts = label_len[label_index]
    child_start = np.zeros(n_nodes + 1, dtype=np.int64)
    np.cumsum(counts, out=child_start[1:])
    n_edges = int(child_start[-1])
    if n_edges != n_nodes - 1:
        raise ValueError("tree_game: one child per edge label")
    # Edges in (parent, action) order; each must be the next action of its parent: every
    # node but the root fills the slot of its action among its parent's edges, and the
    # slots are filled exactly once (as many nodes as edges), without sorting.
    child_par = parent_arr[1:].astype(np.int64)
    child_act = action_arr[1:].astype(np.int64)
    if np.any(child_act < 0) or np.any(child_act >= counts[child_par]):
        raise ValueError("tree_game: the children of a node must be its edges 0..k-1")
    slot = child_start[child_par] + child_act
    filled = np.zeros(n_edges, dtype=bool)
    filled[slot] = True
    if not filled.all():
        raise ValueError("tree_game: the children of a node must be its edges 0..k-1")
    edges = np.empty(n_edges, dtype=np.int32)
    edges[slot] = np.arange(1, n_nodes, dtype=np.int32)
    # Chance probabilities: each distinct tuple checked once and laid out once in ``flat``;
    # then every chance node's edges are filled from its tuple's slice, all at once.
    chance_at = np.flatnonzero(kind_arr == CHANCE)
    chance_nodes = chance_at.tolist()
    prob_values, prob_index = _shared("probs", probs, n_nodes, chance_at)

    def probs_at(node: int) -> object:
        return None if prob_index[node] < 0 else prob_values[int(prob_index[node])]

    used_prob_rows, _, node_group = sorted_unique(prob_index[chance_at].astype(np.int64))
    flat: list[Fraction] = []
    offsets: list[int] = []
    sizes: list[int] = []
    bad_groups: list[int] = []
    for g, v in enumerate(used_prob_rows.tolist()):
        ps = None if v < 0 else prob_values[v]
        if ps is None or sum(ps) != 1 or min(ps) <= 0:
            bad_groups.append(g)
            ps = ()
        offsets.append(len(flat))
        sizes.append(len(ps))
        flat.extend(ps)
    if bad_groups:  # name the first such node
        bad = chance_nodes[int(np.flatnonzero(np.isin(node_group, bad_groups))[0])]
        raise ValueError(f"tree_game: chance node {bad} has probabilities {probs_at(bad)!r}")
    holders = np.array(chance_nodes, dtype=np.int64)
    ng = node_group.astype(np.int64)
    k = np.array(sizes, dtype=np.int64)[ng]
    wrong = np.flatnonzero(counts[holders] != k)
    if wrong.size:
        bad = int(holders[wrong[0]])
        raise ValueError(f"tree_game: chance node {bad} has probabilities {probs_at(bad)!r}")
    ramp = block_offsets(k)
    slots = np.repeat(child_start[holders], k) + ramp
    source = np.repeat(np.array(offsets, dtype=np.int64)[ng], k) + ramp
    edge_prob = np.full(n_edges, np.nan, dtype=np.float64)
    edge_prob[slots] = np.array([float(p) for p in flat], dtype=np.float64)[source]
    flat_exact = np.empty(len(flat), dtype=object)
    flat_exact[:] = flat
    exact_arr = np.full(n_edges, None, dtype=object)
    exact_arr[slots] = flat_exact[source]
    edge_prob_exact: tuple[Fraction | None, ...] = tuple(exact_arr.tolist())
    # Own sequences and perfect recall.
    n_inf = len(infosets)
    info_player = np.array([i.player for i in infosets], dtype=np.int32).reshape(n_inf)
    info_first = np.array([i.first_sequence for i in infosets], dtype=np.int64).reshape(n_inf)
    info_parent = np.array([i.parent_sequence for i in infosets], dtype=np.int64).reshape(n_inf)
    if not np.array_equal(own_arr[0], np.zeros(n_players, dtype=np.int32)):
        raise ValueError("tree_game: the root's own sequences must be empty")
    expected = own_arr[parent_arr[1:]].copy()
    par = parent_arr[1:]
    dec = kind_arr[par] == DECISION
    rows = np.flatnonzero(dec)
    acting = player_arr[par[rows]]
    expected[rows, acting] = info_first[infoset_arr[par[rows]]] + action_arr[1:][rows]
    if not np.array_equal(expected, own_arr[1:]):
        bad = int(np.flatnonzero(np.any(expected != own_arr[1:], axis=1))[0]) + 1
        raise ValueError(f"tree_game: node {bad} has the wrong own sequences")
    decisions = np.flatnonzero(kind_arr == DECISION)
    d_inf = infoset_arr[decisions]
    if np.any(info_player[d_inf] != player_arr[decisions]):
        raise ValueError("tree_game: a node's player differs from its infoset's")
    mine = own_arr[decisions, player_arr[decisions]]
    wrong = np.flatnonzero(mine != info_parent[d_inf])
    if wrong.size:
        n = int(decisions[wrong[0]])
        info = infosets[int(infoset_arr[n])]
        raise ValueError(
            f"information set {info.key!r} of player {info.player} violates perfect recall "
            f"(node {n} has own sequence {int(mine[wrong[0]])}, the infoset "
            f"{info.parent_sequence})"
        )
    # Infosets: nodes, labels and sequence numbering (per player, infosets in order, each
    # numbered from one past the last sequence of the player's previous one).
    n_actions = np.fromiter((len(i.actions) for i in infosets), dtype=np.int64, count=n_inf)
    seq_inf_arrays: list[npt.NDArray[np.int32]] = []
    seq_act_arrays: list[npt.NDArray[np.int32]] = []
    first_wrong = n_inf
    minus_one = np.full(1, -1, dtype=np.int32)
    for p in range(n_players):
        mine_idx = np.flatnonzero(info_player == p)
        size = n_actions[mine_idx]
        numbered = 1 + np.cumsum(size) - size
        wrong = np.flatnonzero(info_first[mine_idx] != numbered)
        if wrong.size:
            first_wrong = min(first_wrong, int(mine_idx[wrong[0]]))
        seq_inf_arrays.append(
            np.concatenate((minus_one, np.repeat(mine_idx, size)), dtype=np.int32)
        )
        seq_act_arrays.append(np.concatenate((minus_one, block_offsets(size)), dtype=np.int32))
    if first_wrong < n_inf:
        raise ValueError(f"tree_game: infoset {first_wrong} has the wrong first sequence")
    by_infoset = np.argsort(d_inf, kind="stable")
    bounds = np.searchsorted(d_inf[by_infoset], np.arange(n_inf + 1))
    sorted_nodes = decisions[by_infoset].tolist()
    # Every infoset has a node, and infosets are numbered by their first node (the first
    # failing infoset, in order, names the error).
    empty = np.flatnonzero(bounds[1:] == bounds[:-1])
    checked = int(empty[0]) if empty.size else n_inf
    firsts = decisions[by_infoset][bounds[:checked]] if checked else decisions[:0]
    unordered = np.flatnonzero(firsts[1:] < firsts[:-1])
    if unordered.size:
        raise ValueError("tree_game: infosets must be numbered by their first node")
    if checked < n_inf:
        raise ValueError(f"tree_game: infoset {checked} has no node")
    infos: list[Infoset] = []
    new_infoset = object.__new__
    for idx, spec, lo, hi in zip(
        range(n_inf), infosets, bounds[:-1].tolist(), bounds[1:].tolist(), strict=True
    ):
        # ``Infoset(...)`` field by field, without the frozen dataclass's ``__setattr__``s.
        made: Infoset = new_infoset(Infoset)
        made.__dict__.update(
            index=idx,
            player=spec.player,
            key=spec.key,
            actions=spec.actions,
            nodes=tuple(sorted_nodes[lo:hi]),
            parent_sequence=spec.parent_sequence,
            first_sequence=spec.first_sequence,
        )
        infos.append(made)
    # Each decision lists its infoset's actions: compared by identity (builders share the
    # tuple), by value where the objects differ.
    value_id = np.fromiter(map(id, label_values), dtype=np.uint64, count=len(label_values))
    label_id = value_id[label_index[decisions]]
    declared_id = np.fromiter((id(i.actions) for i in infosets), dtype=np.uint64, count=n_inf)
    for n in decisions[label_id != declared_id[d_inf]].tolist():
        if label_values[int(label_index[n])] != infosets[int(infoset_arr[n])].actions:
            raise ValueError(f"tree_game: node {n} lists its infoset's actions out of order")
    # Utilities (checked and converted once per distinct tuple).
    terminals = kind_arr == TERMINAL
    if np.any(counts[terminals] != 0) or np.any(counts[~terminals] == 0):
        raise ValueError("tree_game: terminals have no children, other nodes have some")
    table: list[list[float]] = [[0.0] * n_players]
    row_of = np.zeros(n_nodes, dtype=np.int64)
    # Grouped (builders share one tuple among many terminals), each tuple checked once.
    util_values, util_index = _shared("utility", utility, n_nodes)
    held_utility = util_index >= 0
    terminal_nodes = np.flatnonzero(terminals)
    if np.any(held_utility != terminals):
        bad = int(np.flatnonzero(held_utility != terminals)[0])
        if terminals[bad]:
            raise ValueError(f"tree_game: terminal {bad} has no utility")
        raise ValueError("tree_game: only terminals have utilities")
    held_values = np.fromiter([*util_values, None], dtype=object, count=len(util_values) + 1)
    utility_exact: tuple[tuple[Fraction, ...] | None, ...] = tuple(held_values[util_index].tolist())
    used_rows, _, row_group = sorted_unique(util_index[terminal_nodes].astype(np.int64))
    bad_rows: list[int] = []
    for g, v in enumerate(used_rows.tolist()):
        u = util_values[v]
        if u is None or len(u) != n_players or not all(type(x) is Fraction for x in u):
            bad_rows.append(g)
            u = (Fraction(0),) * n_players
        table.append([float(x) for x in u])
    if bad_rows:  # name the first such terminal
        at = int(np.flatnonzero(np.isin(row_group, bad_rows))[0])
        bad = int(terminal_nodes[at])
        if utility_exact[bad] is None:
            raise ValueError(f"tree_game: terminal {bad} has no utility")
        raise ValueError(f"tree_game: node {bad} has a bad utility {utility_exact[bad]!r}")
    row_of[terminal_nodes] = 1 + row_group
    utility_arr = np.asarray(table, dtype=np.float64)[row_of]
    # Edge labels in edge order (node by node), gathered from the distinct label tuples a
    # block of nodes at a time (bounding the index arrays this takes).
    flat_labels = np.fromiter(
        itertools.chain.from_iterable(label_values), dtype=object, count=int(label_len.sum())
    )
    value_start = np.cumsum(label_len) - label_len
    blocks: list[list[Hashable]] = []
    for lo in range(0, n_nodes, LABEL_BLOCK):
        block = counts[lo : lo + LABEL_BLOCK]
        starts = np.repeat(value_start[label_index[lo : lo + LABEL_BLOCK]], block)
        blocks.append(flat_labels[starts + block_offsets(block)].tolist())
    edge_label = tuple(itertools.chain.from_iterable(blocks))
    del blocks
    num_parents = np.ones(n_nodes, dtype=np.int32)
    num_parents[0] = 0
    seq_inf = tuple(seq_inf_arrays)
    seq_act = tuple(seq_act_arrays)
    arrays: list[npt.NDArray[np.generic]] = [
        kind_arr,
        player_arr,
        infoset_arr,
        parent_arr,
        action_arr,
        num_parents,
        child_start,
        edges,
        edge_prob,
        utility_arr,
        own_arr,
        *seq_inf,
        *seq_act,
    ]
    for arr in arrays:
        arr.flags.writeable = False
    game = Game(
        num_players=n_players,
        kind=kind_arr,
        player=player_arr,
        infoset=infoset_arr,
        parent=parent_arr,
        action=action_arr,
        num_parents=num_parents,
        child_start=child_start,
        edge_child=edges,
        edge_label=edge_label,
        edge_prob=edge_prob,
        edge_prob_exact=edge_prob_exact,
        utility=utility_arr,
        utility_exact=utility_exact,
        infosets=tuple(infos),
        own_sequence=own_arr,
        sequence_infoset=seq_inf,
        sequence_action=seq_act,
        node_key=tuple(node_key),
    )
    return game
