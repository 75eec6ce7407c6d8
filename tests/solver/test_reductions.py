"""The reduced builder (:mod:`loveformal.solver.levels`) against the full tree.

The strongest check is exact and does not trust the LP: the reduced game's equilibrium,
extended to the full tree (:func:`~loveformal.solver.endgame.extend_strategy`), must have
exactly the same expected values and the same best-response values in the full tree as in the
reduced game (so the same exploitability and value bracket). This holds for each reduction on
its own and for all of them together, on seeded benchmark positions of both editions, on
random positions whose logs carry private knowledge (Priest looks, Baron comparisons, King
swaps, Chancellor returns), and on the CFR reduced rounds. The certified values of the reduced
and full games are compared as well.

The same comparison catches an unsound reduction: merging guesses that are dead only by the
guesser's private knowledge changes the value of a recorded position.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest

from loveformal.actions import Action, Play
from loveformal.cards import Card, sort_cards
from loveformal.engine import legal_actions, new_match
from loveformal.events import EventKind
from loveformal.notation import parse_position
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step
from loveformal.solver import Certificate, certify, solve
from loveformal.solver import levels as levels_module
from loveformal.solver.analysis import solve_position
from loveformal.solver.efg import CHANCE, DECISION, TERMINAL, Game, sorted_unique
from loveformal.solver.endgame import (
    _DISCARDS,
    Endgame,
    EndgameTooLarge,
    Reductions,
    _Entry,
    _public_view,
    _TreeWalker,
    build_endgame,
    extend_strategy,
    replayed_discards,
)
from loveformal.solver.levels import (
    DENSE_PAIRS,
    LevelBuild,
    _Dag,
    _domination_masks,
    _pair_ids,
    _Ranks,
)
from loveformal.solver.rounds import reduced_round
from loveformal.state import CHANCE_PHASES, Phase, State
from tests.solver.test_endgame import D, E
from tests.solver.test_fast_build import bench_position

ALL = Reductions()
NONE = Reductions(
    dominance=False, splice=False, collapse=False, pool_aside=False, discard_orders=False
)
EACH = [
    ALL,
    replace(NONE, dominance=True),
    replace(NONE, splice=True),
    replace(NONE, collapse=True),
    replace(NONE, pool_aside=True),
    replace(NONE, discard_orders=True),
]
BENCH = [
    ("classic", 1, 0),
    ("classic", 1, 1),
    ("classic", 2, 0),
    ("classic", 2, 1),
    ("classic", 3, 0),
    ("z2019", 1, 1),
    ("z2019", 2, 0),
    ("z2019", 2, 1),
    ("z2019", 3, 1),
]


def random_positions(
    count: int, seed: int, max_pile: int = 2, presets: tuple[str, ...] = ("classic", "z2019")
) -> list[State]:
    """Positions reached by random play (their logs carry private knowledge), the presets
    in turn."""
    rng = random.Random(seed)
    out: list[State] = []
    trial = 0
    while len(out) < count:
        preset = presets[trial % len(presets)]
        trial += 1
        s = new_match(make_ruleset(preset), 2)
        k = rng.randint(1, max_pile)
        while not s.round_over and not (s.phase is Phase.PLAY and s.pile.size <= k):
            s, _ = random_step(s, rng)
        if not s.round_over and s.phase not in CHANCE_PHASES:
            out.append(s)
    return out


def check_against_full(state: State, reductions: Reductions) -> tuple[Endgame, Endgame]:
    """Solve the reduced game, extend its equilibrium to the full tree and compare exactly."""
    full = build_endgame(state)
    red = build_endgame(state, reduce=reductions)
    sol = solve(red.game)
    cert_red = certify(red.game, sol.strategies)
    extended = [extend_strategy(red, full.game, p, sol.strategies[p]) for p in (0, 1)]
    cert_full = certify(full.game, extended)
    assert cert_full.expected_values == cert_red.expected_values
    assert cert_full.best_response_values == cert_red.best_response_values
    assert cert_full.value_bracket == cert_red.value_bracket
    # The full game's own equilibrium has the same (LP) value, inside the exact bracket.
    value_full = solve(full.game).value
    assert value_full == pytest.approx(sol.value, abs=1e-9)
    assert cert_red.value_bracket is not None
    lo, hi = cert_red.value_bracket
    assert float(lo) - 1e-9 <= value_full <= float(hi) + 1e-9
    assert red.full_histories == full.game.num_nodes
    assert red.game.num_nodes <= full.game.num_nodes
    return full, red


@pytest.mark.parametrize(("edition", "k", "index"), BENCH)
@pytest.mark.parametrize(
    "reductions",
    EACH,
    ids=["all", "dominance", "splice", "collapse", "pool_aside", "discard_orders"],
)
def test_reduced_equilibrium_is_one_of_the_full_game(
    edition: str, k: int, index: int, reductions: Reductions
) -> None:
    check_against_full(bench_position(edition, k, index), reductions)


def test_reductions_with_private_knowledge_in_the_log() -> None:
    shrunk = 0
    for state in random_positions(14, seed=21):
        full, red = check_against_full(state, ALL)
        shrunk += red.game.num_nodes < full.game.num_nodes
    assert shrunk >= 7


@pytest.mark.parametrize("preset", preset_names())
def test_reductions_under_every_preset(preset: str) -> None:
    """Generic conformance: under each preset's options (its deck, the Chancellor's short
    deck, the Prince on an empty deck, tie-breaks…), positions with zero to two cards left,
    reached by random play with their logs, reduce to games with the full game's exact values
    and best responses. (A run of 3,018 reduced/full two-player pairs over the six presets,
    with zero to three cards left, found no difference: the twenty-third session.)"""
    shrunk = 0
    for state in random_positions(8, seed=23, presets=(preset,)):
        full, red = check_against_full(state, ALL)
        shrunk += red.game.num_nodes < full.game.num_nodes
    assert shrunk >= 4


def test_the_discard_piles_replayed_from_the_events_are_the_engines() -> None:
    """:func:`~loveformal.solver.endgame.replayed_discards` (which puts the piles' order back
    into the keys of a build that merges discard orders) gives every seat's discard pile of
    every state of random rounds under every preset and player count, from the piles of an
    earlier state of the round and the events since; a replay that drops the hands discarded
    without effect or knocked out, or that sorts the piles, fails it."""
    rng = random.Random(41)
    checked = Counter[str]()
    for name in preset_names():
        ruleset = make_ruleset(name)
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            for _ in range(6):
                s = new_match(ruleset, players)
                states = [s]
                while not s.round_over:
                    s, _ = random_step(s, rng)
                    states.append(s)
                for since in states[:: max(1, len(states) // 4)]:
                    before = tuple(seat.discards for seat in since.seats)
                    assert since.log == states[-1].log[: len(since.log)]
                    for later in states[states.index(since) :]:
                        events = later.log[len(since.log) :]
                        piles = tuple(seat.discards for seat in later.seats)
                        assert replayed_discards(before, events) == piles, (name, players)
                        kinds = {ev.kind for ev in events}
                        checked["out"] += EventKind.KNOCKED_OUT in kinds
                        checked["discarded"] += EventKind.DISCARDED in kinds
                        checked["unsorted"] += any(p != sort_cards(p) for p in piles)
    assert min(checked.values()) >= 100, checked


def test_the_public_views_discard_piles_are_where_the_keys_replace_them() -> None:
    """The level build puts the replayed piles at ``_DISCARDS`` of the public view's head:
    that must be where :func:`~loveformal.solver.endgame._public_view` puts the piles (and
    nothing else there holds them)."""
    state = bench_position("classic", 3, 4)
    head, _ = _public_view(state, state.turn)
    piles = tuple(seat.discards for seat in state.seats)
    assert any(piles) and head[_DISCARDS] == piles
    assert [i for i, field in enumerate(head) if field == piles] == [_DISCARDS]


def test_discard_orders_share_engine_nodes_and_leave_the_game_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Classic, 4 cards left (seed 4001): merging the states that differ only in the order
    of their discard piles expands fewer engine nodes, and the game built is the same, node
    for node, information-set keys included."""
    state = bench_position("classic", 4, 1)
    walkers: list[_TreeWalker] = []
    real = levels_module.build_levels

    def spy(walker: _TreeWalker, *args: Any, **kwargs: Any) -> LevelBuild:
        walkers.append(walker)
        return real(walker, *args, **kwargs)

    monkeypatch.setattr(levels_module, "build_levels", spy)
    apart = build_endgame(state, reduce=replace(ALL, discard_orders=False)).game
    merged = build_endgame(state, reduce=ALL).game
    kept, shared = (len(w.memo) for w in walkers)
    assert shared < 0.8 * kept, (shared, kept)
    assert apart.num_nodes == merged.num_nodes
    for name in ("kind", "player", "infoset", "parent", "child_start", "edge_child", "utility"):
        assert np.array_equal(getattr(apart, name), getattr(merged, name)), name
    assert apart.edge_label == merged.edge_label
    assert apart.utility_exact == merged.utility_exact
    assert [(i.player, i.key, i.actions, i.nodes) for i in apart.infosets] == [
        (i.player, i.key, i.actions, i.nodes) for i in merged.infosets
    ]


def test_reduced_cfr_round_from_the_deal() -> None:
    _, red = check_against_full(reduced_round(6), ALL)
    assert red.game.kind[0] == CHANCE and red.dominated > 0


def _infoset_table(game: Game) -> dict[tuple[int, object], tuple[object, ...]]:
    return {(i.player, i.key): i.actions for i in game.infosets}


@pytest.mark.parametrize(("edition", "k", "index"), [("classic", 3, 1), ("z2019", 3, 1)])
def test_reduced_game_shape(edition: str, k: int, index: int) -> None:
    """Every information set of the reduced game is one of the full game (same key, a subset
    of its actions, at least two unless just below the deal); no chance node has one outcome;
    every dropped action is accounted for in ``dominated``."""
    state = bench_position(edition, k, index)
    full = build_endgame(state)
    red = build_endgame(state, reduce=True)
    table = _infoset_table(full.game)
    g = red.game
    top = {int(c) for c in g.children(0)}
    dropped = 0
    for info in g.infosets:
        actions = table[(info.player, info.key)]
        assert set(info.actions) <= set(actions)
        dropped += len(actions) - len(info.actions)
        if not set(info.nodes) <= top:
            assert len(info.actions) >= 2
    for (p, key), kept in red.forced.items():
        assert kept in table[(p, key)] and len(table[(p, key)]) >= 2
        dropped += len(table[(p, key)]) - 1
    assert dropped == red.dominated > 0
    for n in range(g.num_nodes):
        if g.kind[n] == CHANCE:
            assert len(g.edges(n)) >= 2
    assert g.num_nodes < full.game.num_nodes and red.full_histories == full.game.num_nodes
    assert g.is_tree() and int(g.kind[0]) == CHANCE
    assert {int(k) for k in g.kind} <= {int(CHANCE), int(DECISION), int(TERMINAL)}


def test_sure_wins_and_sure_losses_are_kept_and_dropped() -> None:
    """Position D: P1's Guard has no target (P2 is protected); P2 then draws the last card.
    A P2 holding the Princess wins the showdown whatever it plays with its other card, so
    every such information set keeps exactly one action, never the Princess's discard."""
    red = build_endgame(parse_position(D), reduce=True)
    princess = [
        (key, a)
        for (p, key), a in red.forced.items()
        # key[9]: the seat's hand (endgame._public_view, as in Observation.key)
        if p == 1 and isinstance(key, tuple) and Card.PRINCESS in key[9]
    ]
    assert princess
    for _, action in princess:
        assert isinstance(action, Play) and action.card is not Card.PRINCESS
    r = solve_position(parse_position(D), reduce=True)
    assert r.value == Fraction(-4, 5) and r.sizes.histories < r.sizes.full_histories == 24


def test_equivalent_guesses_are_listed_with_their_kept_guess() -> None:
    """E: P1 holds Guard,Guard; guesses of cards whose copies are all public are merged with
    the first such guess, and the table lists every legal action."""
    state = parse_position(E)
    r = solve_position(state, reduce=True)
    full = solve_position(state)
    assert [(a.action, a.value, a.probability) for a in full.actions] == [
        (a.action, a.value, a.probability) for a in r.actions
    ]
    listed = [a.action for a in r.actions]
    legal = list(legal_actions(state))
    assert listed == legal
    by_action = {a.action: a for a in r.actions}
    merged = [a for a in r.actions if a.equivalent_to is not None]
    assert len(merged) == 4
    for a in merged:
        rep = by_action[a.equivalent_to]
        assert a.probability == 0.0 and a.value == rep.value == -1 and a.win == rep.win
        assert rep.equivalent_to is None
    assert sum(a.probability for a in r.actions) == pytest.approx(1.0)
    data = r.to_json()
    assert [set(a) for a in data["actions"]] == [
        {"action", "probability", "value", "value_exact", "win", "pimc", "equivalent_to"}
    ] * len(legal)
    assert [a["equivalent_to"] for a in data["actions"]] == [
        None if a.equivalent_to is None else str(a.equivalent_to) for a in r.actions
    ]
    assert sum(a["equivalent_to"] is not None for a in data["actions"]) == 4


def _private_dead_actions(state: State, merge: bool) -> tuple[Action, ...]:
    """An UNSOUND variant of decision_actions: also merges guesses of cards whose remaining
    copies the guesser holds itself (dead in every history of its information set, but the
    guess is public: the guesser may bluff with it)."""
    actions = legal_actions(state)
    deck = state.rules.deck(state.players)
    public: Counter[Card] = Counter(state.face_up)
    for s in state.seats:
        public.update(s.discards)
    out: list[Action] = []
    kept: set[tuple[object, ...]] = set()
    for a in actions:
        if isinstance(a, Play) and isinstance(a.guess, Card):
            own = Counter(state.seats[state.turn].hand)
            own[a.card] -= 1
            if public[a.guess] + own[a.guess] >= deck.count(a.guess):
                group = (a.card, a.target, a.targets, a.look)
                if group in kept:
                    continue
                kept.add(group)
        out.append(a)
    return tuple(out)


BLUFF = (
    "classic 2p r1 start:P1 | P1 Handmaid d:Guard,Handmaid,Guard t0 | P2 Prince,Countess "
    "d:Prince,Baron,King t0 | deck - / Guard,Baron,Princess | aside Priest | "
    "up Priest,Guard*2 | play P2"
)


def test_merging_privately_dead_guesses_is_not_value_preserving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Why the dead-guess merge uses public cards only: with the guesser's own hand counted
    too, the value of this position changes (−0.10134 → −0.10057)."""
    state = parse_position(BLUFF)
    sound = _certified(build_endgame(state, reduce=True).game)
    import loveformal.solver.endgame as endgame_module

    monkeypatch.setattr(endgame_module, "decision_actions", _private_dead_actions)
    unsound = _certified(build_endgame(state, reduce=True).game)
    assert sound.value_bracket is not None and unsound.value_bracket is not None
    assert sound.exploitability == unsound.exploitability == 0
    assert sound.value_bracket[0] != unsound.value_bracket[0]


def _certified(game: Game) -> Certificate:
    return certify(game, solve(game).strategies)


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "k", "index"), [("z2019", 4, 0), ("classic", 3, 2)])
def test_reductions_on_bigger_endgames(edition: str, k: int, index: int) -> None:
    check_against_full(bench_position(edition, k, index), ALL)


Utilities = tuple[Fraction, ...]
Summary = tuple[Fraction, Fraction, bool, Utilities | None, Utilities | None]


def _definition(dag: _Dag) -> list[tuple[bool, object, object, tuple[int, ...] | None]]:
    """Per DAG node, by the definitions of the module docstring with plain recursion over the
    engine nodes and exact Fractions: (free, expected utilities, win indicators, domination
    masks)."""
    memo: dict[int, Summary] = {}
    masks: dict[int, tuple[int, ...] | None] = {}

    def mix(probs: tuple[Fraction, ...], values: list[Utilities | None]) -> Utilities:
        return tuple(
            sum((p * v[i] for p, v in zip(probs, values, strict=True) if v), Fraction(0))
            for i in (0, 1)
        )

    def summary(e: _Entry) -> Summary:
        if e.index in memo:
            return memo[e.index]
        out: Summary
        if e.kind == TERMINAL:
            assert e.exact is not None
            u = e.exact
            out = (u[0], u[0], True, u, tuple(Fraction(w) for w in e.win))
        else:
            kids = [summary(c) for c in e.children]
            lo, hi = min(k[0] for k in kids), max(k[1] for k in kids)
            if e.kind == CHANCE:
                assert e.probs is not None
                if all(k[2] for k in kids):
                    ex, win = mix(e.probs, [k[3] for k in kids]), mix(e.probs, [k[4] for k in kids])
                    out = (lo, hi, True, ex, win)
                else:
                    out = (lo, hi, False, None, None)
            elif len(kids) == 1:
                out = (lo, hi, kids[0][2], kids[0][3], kids[0][4])
            else:
                p = e.player
                bounds = [
                    (k[3][p], k[3][p])
                    if k[3] is not None
                    else (k[0], k[1])
                    if p == 0
                    else (-k[1], -k[0])
                    for k in kids
                ]
                got = tuple(
                    sum(1 << a for a, (la, _) in enumerate(bounds) if a != b and la >= hb)
                    for b, (_, hb) in enumerate(bounds)
                )
                masks[e.index] = got if any(got) else None
                out = (lo, hi, False, None, None)
        memo[e.index] = out
        return out

    return [(*summary(e)[2:], masks.get(e.index)) for e in dag.entries]


def _spy_dags(monkeypatch: pytest.MonkeyPatch) -> list[_Dag]:
    """The summarised DAGs of the reduced builds that follow, as they are made."""
    dags: list[_Dag] = []
    real_init = _Dag.__init__

    def spy(self: _Dag, walker: _TreeWalker, players: int) -> None:
        real_init(self, walker, players)
        dags.append(self)

    monkeypatch.setattr(_Dag, "__init__", spy)
    return dags


def test_dag_summaries_match_the_definitions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The vectorised bottom-up summaries of the reduced builder (free subtrees, their exact
    expectations, the domination masks from ranked utilities) equal the definitions computed
    by plain recursion, node by node, on benchmark and random positions; among them are
    dominated actions and free subtrees above the terminals."""
    dags = _spy_dags(monkeypatch)
    states = [bench_position("classic", 3, 0), bench_position("z2019", 3, 1)]
    dominated = free_inner = 0
    for state in [*states, *random_positions(6, 11, 3)]:
        dags.clear()
        build_endgame(state, reduce=True)
        (dag,) = dags
        want = _definition(dag)
        got = [
            (
                bool(dag.free[i]),
                dag.expect[i],
                dag.win[i],
                None if dag.dom_id[i] < 0 else dag.dom_masks[int(dag.dom_id[i])],
            )
            for i in range(len(dag.entries))
        ]
        assert got == want
        dominated += sum(m is not None for *_, m in want)
        free_inner += sum(
            w[0] and e.kind != TERMINAL for w, e in zip(want, dag.entries, strict=True)
        )
    assert dominated > 100 and free_inner > 10


def _terminal(u0: int) -> _Entry:
    """A hand-made two-player terminal engine node with utilities ``(u0, -u0)``."""
    e = _Entry(cast(State, None))
    e.kind, e.utility, e.win = int(TERMINAL), (u0, -u0), (int(u0 > 0), int(u0 < 0))
    e.exact = (Fraction(u0), Fraction(-u0))
    return e


def _inner(kind: int, children: tuple[_Entry, ...], labels: tuple[str, ...]) -> _Entry:
    """A hand-made chance node or player 0's decision over ``children``."""
    e = _Entry(cast(State, None))
    e.kind, e.children, e.labels = kind, children, labels
    e.chunks = ((0, 0),) * len(children)
    if kind == DECISION:
        e.player, e.pub = 0, 0
    return e


def _dag_of(entries: list[_Entry]) -> _Dag:
    """The summarised DAG of hand-made engine nodes, listed children first."""
    return _Dag(cast(_TreeWalker, SimpleNamespace(memo=dict(enumerate(entries)))), 2)


def test_free_subtrees_are_compared_by_their_expectation() -> None:
    """A hand-made DAG where only the exact expectations decide: player 0 chooses between two
    chance nodes over the same two terminals, one with odds 3:1 (expectation +1/2) and one
    with odds 1:3 (−1/2). Their bounds ([−1, +1] both) decide nothing; their expectations
    make the first dominate the second."""
    win, loss = _terminal(1), _terminal(-1)
    odds = []
    for p in (Fraction(3, 4), Fraction(1, 4)):
        c = _inner(int(CHANCE), (win, loss), ("w", "l"))
        c.probs = (p, 1 - p)
        odds.append(c)
    root = _inner(int(DECISION), tuple(odds), ("good", "bad"))
    dag = _dag_of([win, loss, *odds, root])
    assert dag.expect[2] == (Fraction(1, 2), Fraction(-1, 2)) and bool(dag.free[2])
    assert dag.dom_masks[int(dag.dom_id[4])] == (0, 0b01)  # "good" dominates "bad"
    assert _definition(dag)[4][3] == (0, 0b01)


def test_a_node_with_no_outcome_that_is_not_a_terminal_is_refused() -> None:
    """The summaries treat the nodes without children as the terminals: an engine node with
    no outcome or action that is not a terminal (an engine bug) is refused, not summarised."""
    win = _terminal(1)
    stuck = _inner(int(CHANCE), (), ())  # no outcomes
    root = _inner(int(DECISION), (win, stuck), ("a", "b"))
    with pytest.raises(AssertionError, match="engine node 1 of the endgame has no outcome"):
        _dag_of([win, stuck, root])


def test_engine_nodes_in_a_cycle_are_refused() -> None:
    """The heights of the engine nodes settle only on a DAG: two nodes that lead to each
    other (an engine bug; a round always moves on) are refused, not looped over."""
    win = _terminal(1)
    loop = _inner(int(CHANCE), (), ("d",))
    back = _inner(int(DECISION), (win, loop), ("a", "b"))
    loop.children, loop.chunks, loop.probs = (back,), ((0, 0),), (Fraction(1),)
    with pytest.raises(AssertionError, match="have a cycle"):
        _dag_of([win, loop, back])


def test_domination_masks_match_the_definition() -> None:
    """The vectorised masks (and the wide path for more than 62 actions) against the
    definition, on random ranks with many ties."""
    rng = random.Random(7)
    for trial in range(300):
        counts = [
            rng.choice([2, 3, 5, 8, 64] if trial % 50 == 0 else [2, 3, 4, 7]) for _ in range(20)
        ]
        low = [rng.randint(0, 5) for _ in range(sum(counts))]
        high = [v + rng.choice([0, 0, 1, 3]) for v in low]
        got = _domination_masks(np.array(low), np.array(high), np.array(counts))
        at = 0
        for j, m in enumerate(counts):
            lo, hi = low[at : at + m], high[at : at + m]
            at += m
            want = tuple(
                sum(1 << a for a in range(m) if a != b and lo[a] >= hi[b]) for b in range(m)
            )
            assert got[j] == (want if any(want) else None)


def test_utilities_closer_than_a_float_are_ranked_apart() -> None:
    """Utilities that no float tells apart get distinct ranks in their exact order, and each
    rank's negation is the rank of the negated value."""
    third = Fraction(1, 3)
    tiny = Fraction(1, 10**18)
    values = [third - tiny, third, third + tiny, Fraction(-1), Fraction(0)]
    assert len({float(v) for v in values}) < len(values)
    expect = [(v, -v) for v in values]
    ranks = _Ranks(expect, np.ones(len(values), dtype=bool))
    order = sorted(range(len(values)), key=lambda i: values[i])
    assert [ranks.of(expect[i], 0) for i in order] == sorted(ranks.of(u, 0) for u in expect)
    assert len({ranks.of(u, 0) for u in expect}) == len(values)
    for u in expect:
        assert ranks.negated[ranks.of(u, 0)] == ranks.of(u, 1)


def test_pair_ids_are_numpys_unique_of_the_pairs() -> None:
    """The distinct (seen sequence, chunk) pairs of a level, by the dense table or by sorting,
    are exactly ``np.unique``'s: the same order and the same inverse."""
    rng = np.random.default_rng(3)
    dense = 0
    for trial in range(200):
        n = int(rng.integers(0, 3000))
        span = int(rng.integers(1, 2000 if trial % 2 else 50))
        first = rng.integers(500, 500 + span, n)
        second = rng.choice(int(rng.integers(1, 400)), n) * 3
        parents, chunks, inverse = _pair_ids(first, second)
        uniq, want = np.unique(first * 10_000 + second, return_inverse=True)
        assert parents.tolist() == (uniq // 10_000).tolist()
        assert chunks.tolist() == (uniq % 10_000).tolist()
        assert inverse.tolist() == want.reshape(-1).tolist()
        m = len(set(second.tolist()))
        dense += n > 0 and span * m <= DENSE_PAIRS * n
    assert 20 < dense < 180  # both paths taken


def test_the_radix_unique_is_numpys_unique() -> None:
    """``sorted_unique`` (the sorting path of ``_pair_ids``, the groupings by identity and of
    the information sets) gives ``np.unique``'s distinct keys, first positions and inverse:
    for spans of one to four 16-bit digits, negative keys, repeats, and a span too wide to
    offset (where it falls back to ``np.unique``)."""
    rng = np.random.default_rng(11)
    digits_seen = set()
    extreme = np.array([2**62, -(2**63), 2**63 - 1, 5, -(2**63), 5], dtype=np.int64)
    for trial in range(301):
        n = int(rng.integers(0, 2000)) if trial % 10 else int(rng.integers(0, 3))
        bits = int(rng.integers(1, 63))
        low = -int(rng.integers(0, 1 << 20)) if trial % 3 == 0 else 0
        pool = low + rng.integers(0, 1 << bits, max(1, n // int(rng.integers(1, 8))))
        key = rng.choice(pool, n) if n else np.zeros(0, dtype=np.int64)
        if trial == 300:
            key = extreme
        uniq, first, inverse = sorted_unique(key)
        want, want_first, want_inverse = np.unique(key, return_index=True, return_inverse=True)
        assert uniq.tolist() == want.tolist()
        assert first.tolist() == want_first.tolist()
        assert inverse.tolist() == want_inverse.reshape(-1).tolist()
        if n and trial < 300:
            span = int(key.max()) - int(key.min())
            digits_seen.add(max(1, (span.bit_length() + 15) // 16))
    assert digits_seen == {1, 2, 3, 4}


# -- The unfolding refuses a game too large early (``levels._least_below``)


def _least_definition(dag: _Dag, reductions: Reductions) -> list[int]:
    """``levels._least_below`` from its docstring, by plain recursion over the engine nodes:
    the least histories the reduced builder materialises below a history at each node."""
    memo: dict[int, int] = {}

    def least(e: _Entry) -> int:
        i = e.index
        if i in memo:
            return memo[i]
        if e.kind == TERMINAL or (reductions.collapse and bool(dag.free[i])):
            out = 1
        else:
            kids = [least(c) for c in e.children]
            if e.kind == CHANCE:
                out = int(not (reductions.splice and len(kids) == 1)) + sum(kids)
            else:
                masks: tuple[int, ...] = (0,) * len(kids)
                if reductions.dominance and dag.dom_id[i] >= 0:
                    masks = dag.dom_masks[int(dag.dom_id[i])]
                kept = [k for k, dominators in zip(kids, masks, strict=True) if not dominators]
                itself = int(not (reductions.splice and len(kept) < 2))
                out = itself + max(sum(kept), min(kids))
        memo[i] = out
        return out

    return [least(e) for e in dag.entries]


def test_least_histories_below_each_engine_node_match_their_definition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The vectorised lower bound the unfolding refuses on equals its definition, node by
    node, under all the reductions, each alone and none, on benchmark and random positions;
    and each of its rules matters somewhere: a decision bounded by its undominated actions
    (more than its least action, less than all of them), one bounded by its least action
    (every action dominated by another: ties), and spliced nodes that count nothing
    themselves."""
    dags = _spy_dags(monkeypatch)
    states = [bench_position("classic", 3, 0), bench_position("z2019", 3, 1)]
    by_undominated = by_least = spliced = 0
    for state in [*states, *random_positions(4, 11, 3)]:
        for reductions in [*EACH, NONE]:
            dags.clear()
            build_endgame(state, reduce=reductions)
            (dag,) = dags
            got = levels_module._least_below(dag, reductions).tolist()
            assert got == _least_definition(dag, reductions)
            for e in dag.entries:
                if e.kind != DECISION or not reductions.dominance or dag.dom_id[e.index] < 0:
                    continue
                if reductions.collapse and dag.free[e.index]:
                    continue
                kids = [got[c.index] for c in e.children]
                masks = dag.dom_masks[int(dag.dom_id[e.index])]
                kept = sum(k for k, m in zip(kids, masks, strict=True) if not m)
                by_undominated += min(kids) < kept < sum(kids)
                by_least += kept < min(kids)
            if reductions.splice:
                spliced += sum(
                    got[i] == sum(got[c.index] for c in e.children)
                    for i, e in enumerate(dag.entries)
                    if e.kind != TERMINAL and not (reductions.collapse and dag.free[i])
                )
    assert by_undominated > 100 and by_least > 10 and spliced > 100


@pytest.mark.parametrize(
    "reductions", [ALL, *EACH[1:4]], ids=["all", "dominance", "splice", "collapse"]
)
def test_the_unfolding_refuses_exactly_the_games_above_max_nodes(
    reductions: Reductions,
) -> None:
    """The early refusal is sound: a reduced game builds at ``max_nodes`` equal to its size
    (no level's bound passes it) and is refused one below, on benchmark and random positions
    (private knowledge in their logs, Chancellor returns) of both editions."""
    states = [bench_position(e, k, i) for e, k, i in BENCH if k >= 2]
    for state in [*states, *random_positions(6, 23, 3)]:
        size = build_endgame(state, reduce=reductions).game.num_nodes
        assert build_endgame(state, reduce=reductions, max_nodes=size).game.num_nodes == size
        with pytest.raises(EndgameTooLarge, match="more than --max-nodes"):
            build_endgame(state, reduce=reductions, max_nodes=size - 1)


def test_a_game_too_large_is_refused_before_its_levels_are_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the deals' bound alone passes ``max_nodes`` the unfolding refuses before it
    materialises a level; the check on each level's own histories alone (the bound left out)
    refused the same game only after building four levels or more."""
    state = bench_position("z2019", 3, 1)
    tops: list[int] = []
    real_top = levels_module._least_at_top

    def spy(*args: Any) -> int:
        tops.append(real_top(*args))
        return tops[-1]

    monkeypatch.setattr(levels_module, "_least_at_top", spy)
    size = build_endgame(state, reduce=True).game.num_nodes
    bound = 1 + tops[-1]  # the root, and the least below the deals
    assert 2 * bound < size  # the deals' bound is loose (3 times under here), but ...
    built: list[int] = []

    def progress(done: int, total: int, histories: int) -> None:
        if histories:
            built.append(histories)

    with pytest.raises(EndgameTooLarge, match="more than --max-nodes"):
        build_endgame(state, reduce=True, max_nodes=bound - 1, progress=progress)
    assert built == []  # ... refused before any level was made
    monkeypatch.setattr(
        levels_module, "_least_below", lambda dag, _: np.ones(len(dag.entries), dtype=np.int64)
    )
    with pytest.raises(EndgameTooLarge, match="more than --max-nodes"):
        build_endgame(state, reduce=True, max_nodes=bound - 1, progress=progress)
    assert len(built) > 3


def test_least_histories_of_a_hand_made_dag() -> None:
    """The bound on a hand-made DAG, by hand. Below the deals: a free chance node counts 1
    (collapsed); a sure win against a loss keeps only the win (it dominates) and is
    spliced, 1; a one-outcome chance node above it is spliced, 1; a choice between those
    two, neither dominating, keeps both and counts itself, 3. At the deals nothing is
    dropped or spliced at a decision, but the free chance node is still one history and the
    one-outcome chance node still spliced: deals on the win, the free chance node, the
    one-outcome node, the choice and the sure win count 1 + 1 + 1 + 3 + 3. Without the
    reductions every node counts itself and all its children."""
    win, loss = _terminal(1), _terminal(-1)
    free = _inner(int(CHANCE), (win, loss), ("w", "l"))
    free.probs = (Fraction(1, 2), Fraction(1, 2))
    sure = _inner(int(DECISION), (win, loss), ("win", "lose"))
    one = _inner(int(CHANCE), (sure,), ("only",))
    one.probs = (Fraction(1),)
    choice = _inner(int(DECISION), (free, one), ("free", "one"))
    dag = _dag_of([win, loss, free, sure, one, choice])
    assert bool(dag.free[2]) and not dag.free[4] and dag.dom_id[5] < 0
    deals = np.array([0, 2, 4, 5, 3], dtype=np.int64)  # win, free, one, choice, sure
    least = levels_module._least_below(dag, ALL)
    assert least.tolist() == [1, 1, 1, 1, 1, 3]
    assert levels_module._least_at_top(dag, deals, least, ALL) == 1 + 1 + 1 + 3 + 3
    least = levels_module._least_below(dag, NONE)
    assert least.tolist() == [1, 1, 3, 3, 4, 8]
    assert levels_module._least_at_top(dag, deals, least, NONE) == 1 + 3 + 4 + 8 + 3
