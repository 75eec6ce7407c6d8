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

The public-card dead-guess merge (:func:`~loveformal.solver.endgame.decision_actions`) is
applied as before. Merging guesses that are dead only by the *guesser's* private knowledge (it
holds the last copy) is **not** value-preserving — the guess is public, so it can bluff — and
is not done (tests/solver/test_reductions.py shows a position whose value it changes).

Information-set keys are the observation keys (perfect recall), built once per information set
from interned per-seat event sequences exactly as the tree walker builds them; every key of the
reduced game is a key of the full game. The numbering is breadth first (a topological order);
infosets are numbered by their first node.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from loveformal.events import Event, EventKind
from loveformal.knowledge import knows_bottom

from .efg import CHANCE, DECISION, TERMINAL, Game, InfosetSpec, tree_game

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


class _Dag:
    """The memoised engine nodes as arrays, with the bottom-up summaries (see the module
    docstring). Entries are numbered in the walker's memo order, children first."""

    def __init__(self, walker: _TreeWalker, players: int) -> None:
        entries: list[_Entry] = list(walker.memo.values())
        for i, e in enumerate(entries):
            e.index = i
        n = len(entries)
        self.entries = entries
        self.kind = np.fromiter((e.kind for e in entries), dtype=np.int8, count=n)
        self.player = np.fromiter((e.player for e in entries), dtype=np.int64, count=n)
        self.pub = np.fromiter((max(e.pub, 0) for e in entries), dtype=np.int64, count=n)
        nlab = np.fromiter((len(e.labels) for e in entries), dtype=np.int64, count=n)
        self.nlab = nlab
        self.start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(nlab, out=self.start[1:])
        self.child = np.fromiter(
            (c.index for e in entries for c in e.children), dtype=np.int64, count=int(nlab.sum())
        )
        self.chunk = np.array([ch for e in entries for ch in e.chunks], dtype=np.int64).reshape(
            -1, players
        )
        self.edge_owner = np.repeat(np.arange(n, dtype=np.int64), nlab)
        # Label tuples, interned (every node of an infoset must list the same actions).
        label_ids: dict[tuple[Hashable, ...], int] = {}
        self.label_id = np.fromiter(
            (label_ids.setdefault(e.labels, len(label_ids)) for e in entries),
            dtype=np.int64,
            count=n,
        )
        self._summaries(entries, players)

    def _summaries(self, entries: list[_Entry], players: int) -> None:
        n = len(entries)
        # Bounds of player 0's utility; plain ints where the utilities are integers (fast
        # comparisons), Fractions otherwise.
        lo: list[Fraction | int] = [0] * n
        hi: list[Fraction | int] = [0] * n
        free = [False] * n
        expect: list[tuple[Fraction, ...] | None] = [None] * n
        win: list[tuple[Fraction, ...] | None] = [None] * n
        dom: list[tuple[int, ...] | None] = [None] * n
        for i, e in enumerate(entries):
            if e.kind == TERMINAL:
                assert e.exact is not None
                u0 = e.exact[0]
                lo[i] = hi[i] = u0.numerator if u0.denominator == 1 else u0
                free[i] = True
                expect[i] = e.exact
                win[i] = tuple(Fraction(w) for w in e.win)
                continue
            kids = [c.index for c in e.children]
            lo[i] = min([lo[c] for c in kids])
            hi[i] = max([hi[c] for c in kids])
            if e.kind == CHANCE:
                if all([free[c] for c in kids]):
                    free[i] = True
                    assert e.probs is not None
                    expect[i] = _mix(e.probs, [expect[c] for c in kids], players)
                    win[i] = _mix(e.probs, [win[c] for c in kids], players)
                continue
            if len(kids) == 1:
                free[i] = free[kids[0]]
                expect[i], win[i] = expect[kids[0]], win[kids[0]]
                continue
            # A real choice: which actions dominate which, at this node, for the mover.
            low: list[Fraction | int] = []
            high: list[Fraction | int] = []
            mover = e.player
            for c in kids:
                ex = expect[c]
                if ex is not None:
                    v = ex[mover]
                    low.append(v)
                    high.append(v)
                elif mover == 0:
                    low.append(lo[c])
                    high.append(hi[c])
                else:
                    low.append(-hi[c])
                    high.append(-lo[c])
            top = max(low)
            masks = tuple(
                0 if hb > top else sum(1 << a for a, la in enumerate(low) if a != b and la >= hb)
                for b, hb in enumerate(high)
            )
            if any(masks):
                dom[i] = masks
        self.free = np.array(free, dtype=bool)
        self.expect = expect
        self.win = win
        self.dom = dom
        self.has_dom = np.array([d is not None for d in dom], dtype=bool)


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

    def __getitem__(self, i: int) -> int:
        return int(self.data[i])


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
) -> LevelBuild:
    """Build the reduced game below a root chance node over ``deal_entries`` (see the module
    docstring). ``walker`` must already hold every engine node below the deals."""
    players = walker.players
    if players != 2:
        raise ValueError("the reduced builder is for two-player zero-sum endgames")
    dag = _Dag(walker, players)
    full = 1 + sum(walker.count(e) for e in deal_entries)
    n_chunks = max(1, len(walker.chunk_events))
    n_edges = max(1, int(dag.child.shape[0]))
    n_pub = max(1, len(walker.pub_views))
    # Interned event sequences: per seat what it saw (shared id space), and everything.
    seen_parent = _Grow(-1)
    seen_chunk = _Grow(-1)
    full_parent = _Grow(-1)
    full_edge = _Grow(-1)
    # The full event sequence of a history is only needed for the Chancellor's returns
    # (knows_bottom counts every seat's returned cards).
    need_full = any(ev.kind is _RETURNED for evs in walker.chunk_events for ev in evs)
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
    forced_parts: list[tuple[int, _Entry, list[int], int, Hashable]] = []
    dominated = 0

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

    def full_log(fid: int) -> tuple[Event, ...]:
        parts: list[tuple[Event, ...]] = []
        while fid > 0:
            edge = full_edge[fid]
            owner = dag.entries[int(dag.edge_owner[edge])]
            parts.append(owner.events[edge - int(dag.start[owner.index])])
            fid = full_parent[fid]
        return tuple(ev for part in reversed(parts) for ev in part)

    chunk_events = walker.chunk_events

    def key_parts(
        e: _Entry, p: int, chain: list[int], fid: int
    ) -> tuple[tuple[object, ...], tuple[object, ...]]:
        """The parts of the observation key: (events, known bottom); checks that no other
        group of histories has the same key."""
        events = tuple(itertools.chain.from_iterable([chunk_events[c] for c in chain]))
        bottom: tuple[object, ...] = ()
        if any(ev.kind is _RETURNED for ev in events):
            bottom = knows_bottom(e.state._replace(log=full_log(fid)), p) or ()
        ids = tuple(itertools.chain.from_iterable([event_ids(c) for c in chain]))
        unique = (e.pub, bottom, ids)
        if unique in unique_keys:
            raise AssertionError(
                f"two groups of histories of player {p} share one observation key "
                f"(information set {unique_keys[unique]})"
            )
        unique_keys[unique] = len(unique_keys)
        return (events, bottom)

    def infoset_key(e: _Entry, events: tuple[object, ...], bottom: tuple[object, ...]) -> Hashable:
        from .endgame import InfosetKey

        head, tail = walker.pub_views[e.pub]
        return InfosetKey((*head, bottom, *tail, events))

    # Level 1: the deals.
    n = len(deal_entries)
    ent = np.fromiter((e.index for e in deal_entries), dtype=np.int64, count=n)
    seen = np.zeros((n, players), dtype=np.int64)
    own = np.zeros((n, players), dtype=np.int64)
    par = np.zeros(n, dtype=np.int64)
    act = np.arange(n, dtype=np.int64)
    fid = np.zeros(n, dtype=np.int64)
    level = 1
    while n:
        if tree.size + n > max_nodes:
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
        _, first_idx, group = np.unique(ident, return_index=True, return_inverse=True)
        group = group.reshape(-1)
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
        kept_lists: list[list[int] | None] = [None] * n_groups
        if reductions.dominance and not top and n_groups:
            all_dom = np.ones(n_groups, dtype=bool)
            np.logical_and.at(all_dom, group, dag.has_dom[d_ent])
            candidates = np.flatnonzero(all_dom)
            if candidates.size:
                pairs = np.unique(np.stack([group, d_ent], axis=1)[all_dom[group]], axis=0)
                bounds = np.searchsorted(pairs[:, 0], candidates)
                bounds = np.append(bounds, pairs.shape[0])
                for j, g in enumerate(candidates.tolist()):
                    masks = [dag.dom[x] for x in pairs[bounds[j] : bounds[j + 1], 1].tolist()]
                    kept = _kept_actions([m for m in masks if m is not None], int(counts[g]))
                    if len(kept) < int(counts[g]):
                        kept_lists[g] = kept
        kept_count = counts.copy()
        for g, kl in enumerate(kept_lists):
            if kl is not None:
                kept_count[g] = len(kl)
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
        g_chain = chains(seen[g_nodes, g_player], level - 1)
        for g in range(n_groups):
            x = int(g_ent[g])
            e = dag.entries[x]
            p = int(g_player[g])
            node = int(di[first_node[g]])
            kl = kept_lists[g]
            labels = e.labels if kl is None else tuple(e.labels[a] for a in kl)
            if kl is not None:
                dominated += int(counts[g]) - len(kl)
            if g_forced[g]:
                if int(counts[g]) > 1:
                    forced_parts.append((p, e, g_chain[g], int(fid[node]), labels[0]))
                continue
            key = infoset_key(e, *key_parts(e, p, g_chain[g], int(fid[node])))
            g_info[g] = len(specs)
            g_first_seq[g] = next_sequence[p]
            specs.append(InfosetSpec(p, key, labels, int(own[node, p]), next_sequence[p]))
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
        offset = np.repeat(np.cumsum(cnt) - cnt, cnt)
        r = np.arange(total, dtype=np.int64) - offset
        local = r.copy()
        rep_group = node_group[rep]
        is_dec = rep_group >= 0
        if np.any(is_dec):
            flat: list[int] = []
            starts = np.zeros(n_groups + 1, dtype=np.int64)
            for g in range(n_groups):
                kl = kept_lists[g]
                flat.extend(range(int(counts[g])) if kl is None else kl)
                starts[g + 1] = len(flat)
            flat_arr = np.array(flat, dtype=np.int64)
            local[is_dec] = flat_arr[starts[rep_group[is_dec]] + r[is_dec]]
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
        keys = seen[rep] * n_chunks + dag.chunk[edge]
        uniq, inv = np.unique(keys.reshape(-1), return_inverse=True)
        base = seen_parent.size
        seen_parent.extend(uniq // n_chunks)
        seen_chunk.extend(uniq % n_chunks)
        child_seen = (base + inv.reshape(-1)).reshape(total, players)
        if need_full:
            funiq, finv = np.unique(fid[rep] * n_edges + edge, return_inverse=True)
            fbase = full_parent.size
            full_parent.extend(funiq // n_edges)
            full_edge.extend(funiq % n_edges)
            fid = fbase + finv.reshape(-1)
        else:
            fid = np.zeros(total, dtype=np.int64)
        ent, seen, own, par, act = child_ent, child_seen, child_own, child_par, child_act
        n = total
        level += 1
        if progress is not None:
            progress(tree.size)
    game = _freeze(tree, dag, specs, labels_of_infoset, deal_labels, deal_probs, players)

    def forced_table() -> dict[tuple[int, Hashable], Hashable]:
        return {
            (p, infoset_key(e, *key_parts(e, p, chain, f))): a for p, e, chain, f, a in forced_parts
        }

    return LevelBuild(
        game=game, full_histories=full, forced=LazyTable(forced_table), dominated=dominated
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
    entries = dag.entries
    labels: list[tuple[Hashable, ...]] = [()] * n
    probs: list[tuple[Fraction, ...] | None] = [None] * n
    utility: list[tuple[Fraction, ...] | None] = [None] * n
    node_key: list[Hashable] = [None] * n
    player = np.full(n, -1, dtype=np.int64)
    labels[0] = deal_labels
    probs[0] = deal_probs
    # Terminals: the expected utilities and win indicators of their engine node, numbered in
    # node order (node keys are unique).
    terminals = np.flatnonzero(kind == TERMINAL)
    t_ent = entry[terminals].tolist()
    expect, win = dag.expect, dag.win
    if any(expect[x] is None or win[x] is None for x in set(t_ent)):
        raise AssertionError("a terminal of the reduced game has no expected utility")
    for count, (i, x) in enumerate(zip(terminals.tolist(), t_ent, strict=True), 1):
        utility[i] = expect[x]
        node_key[i] = (_TERMINAL_KEY, count, win[x])
    # Chance nodes below the root: their engine node's outcomes.
    chance = np.flatnonzero(kind == CHANCE)
    chance = chance[chance > 0]
    for i, x in zip(chance.tolist(), entry[chance].tolist(), strict=True):
        e = entries[x]
        labels[i] = e.labels
        probs[i] = e.probs
    # Decisions: their information set's actions, and the acting seat.
    decisions = np.flatnonzero(kind == DECISION)
    for i, j in zip(decisions.tolist(), infoset[decisions].tolist(), strict=True):
        labels[i] = labels_of_infoset[j]
    player[decisions] = dag.player[entry[decisions]]
    return tree_game(
        players,
        kind=kind,
        player=player,
        infoset=infoset,
        parent=parent,
        action=action,
        labels=labels,
        probs=probs,
        utility=utility,
        node_key=node_key,
        own_sequence=own,
        infosets=specs,
    )
