"""Solving a Love Letter position: :func:`solve_position`.

The game is the rest of the round from the position, with every unseen card dealt afresh at a
root chance node (:mod:`loveformal.solver.endgame` defines the deals, the tree and the
utilities exactly).

**Two players, no opponent model** (the default): the sequence-form LP (HiGHS) gives the game
value and a Nash equilibrium; :func:`~loveformal.solver.certify.certify` then rounds the
equilibrium to rationals and recomputes both best responses exactly; on the larger games
the LP's exact vertex (:mod:`loveformal.solver.vertex`) is certified first, and on small ones
when the floats leave a bracket (``_certificate`` has the order). When the vertex closes the
bracket (it does on every benchmark endgame), the equilibrium reported (its certificate and
the action table's probabilities) is the vertex's. The result carries:

* ``value`` — the game value for the solving seat: the expected utility at the root (over
  all deals) under equilibrium; ``bracket`` the exact interval
  ``[−BR_opp(σ_seat), BR_seat(σ_opp)]`` that contains it; ``value_float`` the float of
  ``value`` when it is known, else of the bracket's midpoint (never the LP's own float,
  which can lie a rounding error outside the bracket); ``exploitability`` the exact mean
  best-response gain of the rounded profile (half the bracket's width);
* ``actions`` — for the seat's *actual* hand (its information set at the root, when it is
  the seat to decide): each action's equilibrium probability and its value against the
  equilibrium opponent, ``W(I, a) / Σ_{h∈I} π(h)`` — the expected utility of taking ``a``
  here and best responding afterwards, conditioned on the seat's information; ``win`` is the
  probability of winning the round on that line (a shared win counts as a win);
* ``pimc`` — the determinized answer: every deal solved as if all cards were face up
  (:mod:`loveformal.solver.pimc`), the root average and, per action, the average over the
  deals of the seat's information set.

**Three or more players** (or two players with ``opponents=``): an exact best response of the
seat (expectimax over its information sets, :func:`~loveformal.solver.expectimax.best_response`)
against declared opponent models: ``"random"`` (uniform over the legal actions),
``"heuristic"`` (:mod:`loveformal.bots.heuristic`: uniform over its top-scored actions), a
function of what the opponent sees (:class:`ObservationModel`), or per seat any of these or a
policy over the tree's information sets (infoset key -> {action: probability}). ``value`` is
the best-response value; ``actions`` give each action's value with best play afterwards;
``probability`` is 1 for the best response's action. No exploitability: it is not an
equilibrium. The root deals are those the seat cannot rule out from what it has seen
(``enumerate_deals(knower=seat)``): what only other seats saw does not restrict them, and
each deal carries what they know of its hands for their models to act on (a seat whose
Priest saw a hand knows the card that deal puts there). With two players the root value
then averages over hands the opponent may know to be impossible; the action values are for
the seat's actual hand and its opponent's knowledge of it.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, SupportsIndex, cast

import numpy as np
import numpy.typing as npt

from loveformal.actions import Action
from loveformal.cards import Card, sort_cards
from loveformal.engine import current_player, legal_actions
from loveformal.errors import MalformedInput
from loveformal.events import EventKind
from loveformal.knowledge import (
    public_earlier_play,
    public_last_play,
    public_return_drawn_earlier,
    public_return_drawn_last,
    public_tie,
)
from loveformal.literals import echo
from loveformal.notation import format_position
from loveformal.observation import Observation, observation
from loveformal.seats import seat_name
from loveformal.state import CHANCE_PHASES, State
from loveformal.turn_history import public_returns

from .certify import Certificate, certify, certify_plans
from .efg import (
    CHANCE,
    DECISION,
    TERMINAL,
    Game,
    Infoset,
    gc_paused,
    group_by_identity,
    stable_order,
)
from .endgame import (
    DEFAULT_MAX_NODES,
    Endgame,
    Prior,
    Progress,
    Reductions,
    UnknownLastPlay,
    UnknownOlderCard,
    Utility,
    accepts,
    actual_deal,
    build_endgame,
    check_knew,
    check_older,
    deal_state,
    enumerate_deals,
    equivalent_actions,
    pile_sights,
    returned_tail,
    terminal_winners,
)
from .expectimax import Policy, best_response_and_profile, refuse_coroutine, user_weights
from .oracle import StepProgress
from .pimc import minimax_values
from .seqform import Solution, solve

__all__ = [
    "MODELS",
    "ActionResult",
    "EndgameResult",
    "EndgameSizes",
    "ObservationModel",
    "OpponentModel",
    "Opponents",
    "solve_position",
]

OpponentModel = Literal["random", "heuristic"]
MODELS: tuple[OpponentModel, ...] = ("random", "heuristic")


@dataclass(frozen=True)
class ObservationModel:
    """An opponent model given as a function of what the opponent sees.

    ``choose(observation, legal)`` is called once per information set of the opponent, with
    its :class:`~loveformal.observation.Observation` (the same for every history of the set:
    the sets are keyed on it) and its legal actions there. It returns either one action,
    played with probability 1, or a mapping from actions to probabilities (numbers ≥ 0, as
    :func:`~loveformal.solver.expectimax.user_weights` reads them; legal actions left out get
    0, an action that is not legal here may only get 0; weights that do not sum to 1 are
    normalised). An action may be given as the engine action or as its text, as ``loveformal
    solve`` prints it (``play Guard on P1 guessing Priest``; case and spacing ignored).
    Anything else, or an exception inside ``choose``, is a
    :class:`~loveformal.errors.MalformedInput` naming ``name``, the seat and its hand."""

    name: str
    """How the report names the model (``loveformal solve`` uses the ``--opponents`` text)."""
    choose: Callable[[Observation, tuple[Action, ...]], Any]


Opponents = (
    OpponentModel | ObservationModel | Mapping[int, "OpponentModel | ObservationModel | Policy"]
)
"""Opponent models for a best response: one model for every other seat, or one per seat
(seat index -> a model name, an :class:`ObservationModel`, or a
:data:`~loveformal.solver.expectimax.Policy` over the tree's information sets)."""


@dataclass(frozen=True)
class ActionResult:
    """One action of the solving seat at the root."""

    action: Hashable
    """The engine action (:class:`~loveformal.actions.Play`, ...)."""
    probability: float
    """Equilibrium probability (or 1/0 for the best response against models)."""
    value: Fraction
    """Expected utility for the seat after this action, best play afterwards, exact: against
    the equilibrium opponent (or the declared models). Only the game value is the same in
    every equilibrium: where the opponent has several equilibrium strategies, another
    equilibrium (say of the full tree rather than the reduced game) can value the seat's
    actual hand otherwise, the actions it plays included (an opponent indifferent between
    two guesses can shift value between the hands it cannot tell apart). Within one
    equilibrium an action it does not play never has a higher value than the actions it
    plays."""
    win: float
    """Probability of winning the round on this line."""
    pimc: Fraction | None
    """Determinized value of the action (two players), else None."""
    equivalent_to: Hashable | None = None
    """For a guess merged with an equivalent one (it names a card whose copies are all
    public, so it never hits): the kept guess, whose value and win probability it shares
    (its probability is 0: the equilibrium plays the kept one). None otherwise."""

    @property
    def text(self) -> str:
        return str(self.action)


@dataclass(frozen=True)
class EndgameSizes:
    deals: int
    histories: int
    """Histories of the game solved (the reduced game when reductions are on)."""
    terminals: int
    infosets: tuple[int, ...]
    sequences: tuple[int, ...]
    full_histories: int = 0
    """Histories of the full (unreduced) tree of the same endgame."""


@dataclass(frozen=True)
class EndgameResult:
    """What :func:`solve_position` found (see the module docstring)."""

    position: str
    seat: int
    players: int
    preset: str
    method: str
    utility: Utility
    opponents: str | None
    value: Fraction | None
    """Exact value when known exactly (a best response, or a one-point bracket), else None."""
    value_float: float
    """``float(value)``, or of the bracket's midpoint when the value is not pinned down."""
    bracket: tuple[Fraction, Fraction] | None
    exploitability: Fraction | None
    actions: tuple[ActionResult, ...]
    pimc: Fraction | None
    sizes: EndgameSizes
    seconds: dict[str, float]
    notes: tuple[str, ...]
    game: Game = field(repr=False, compare=False)
    prior: str | None = None
    """The prior over the root deals, by name (its function's qualified name; ``loveformal
    solve`` gives its ``--prior`` text), or None for every arrangement equally likely."""

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""

        def frac(x: Fraction | None) -> str | None:
            return None if x is None else str(x)

        def sizes() -> dict[str, Any]:
            return {
                "deals": self.sizes.deals,
                "histories": self.sizes.histories,
                "full_histories": self.sizes.full_histories,
                "terminals": self.sizes.terminals,
                "infosets": list(self.sizes.infosets),
                "sequences": list(self.sizes.sequences),
            }

        return {
            "position": self.position,
            "seat": seat_name(self.seat),
            "players": self.players,
            "preset": self.preset,
            "method": self.method,
            "utility": self.utility,
            "opponents": self.opponents,
            "prior": self.prior,
            "value": self.value_float,
            "value_exact": frac(self.value),
            "bracket": None if self.bracket is None else [str(b) for b in self.bracket],
            "exploitability": (None if self.exploitability is None else float(self.exploitability)),
            "exploitability_exact": frac(self.exploitability),
            "actions": [
                {
                    "action": a.text,
                    "probability": a.probability,
                    "value": float(a.value),
                    "value_exact": str(a.value),
                    "win": a.win,
                    "pimc": None if a.pimc is None else float(a.pimc),
                    "equivalent_to": None if a.equivalent_to is None else str(a.equivalent_to),
                }
                for a in self.actions
            ],
            "pimc": None if self.pimc is None else float(self.pimc),
            "pimc_exact": frac(self.pimc),
            **sizes(),
            "sizes": sizes(),  # the same figures again, together (no list shared)
            "seconds": {k: round(v, 4) for k, v in self.seconds.items()},
            "notes": list(self.notes),
        }


# ----------------------------------------------------------------------------- helpers


def _decides_at_root(state: State, seat: int) -> bool:
    return state.phase not in CHANCE_PHASES and current_player(state) == seat


def _returns_note(state: State) -> list[str]:
    """A note on whose Chancellor returns the known cards of a position's deck are, when the
    position comes without its moves (read off the discard piles); or that a deck written
    wholly in known order, which no return explains, is dealt as unseen
    (:func:`~loveformal.solver.endgame.returned_tail`)."""
    if any(e.kind is EventKind.PLAYED for e in state.log):
        return []
    cards, seats = returned_tail(state)
    pile = state.pile
    chancellors = any(Card.CHANCELLOR in seat.discards for seat in state.seats)
    if not cards and not pile.unseen and len(pile.top) > 1 and not chancellors:
        return [
            f"the deck is written in a known order ({', '.join(c.title for c in pile.top)}, "
            "top first), but no Chancellor was played, so no seat can have seen it: its "
            "cards are dealt as unseen, known to neither seat, in every order"
        ]
    if not cards:
        return []
    by = sorted(set(seats))
    whose = " and ".join(seat_name(i) for i in by)
    names = ", ".join(c.title for c in cards)
    if len(by) > 1:
        names = ", ".join(f"{c.title} ({seat_name(i)})" for c, i in zip(cards, seats, strict=True))
    what = (
        f"card {names} is {whose}'s Chancellor return"
        if len(cards) == 1
        else f"cards {names} (top to bottom) are {whose}'s Chancellor returns"
    )
    how = (
        "in every order of turns the discard piles fit"
        if public_returns(state) is not None
        else f"{whose} alone has played a Chancellor"
    )
    return [
        f"the deck's known {what} ({how}): each deal deals "
        + ("it" if len(cards) == 1 else "them")
        + " afresh, and only the seat that returned a card knows it"
    ]


def _root_infoset(
    eg: Endgame,
    seat: int,
    prior: bool,
    older: Card | None = None,
    knew: Card | None = None,
    shown: Card | None = None,
) -> Infoset | None:
    """The seat's information set at the root for its actual hand, if it decides there (and,
    with a ``prior``, if the prior leaves its actual hand possible); ``older``, ``knew``,
    ``shown``: see :func:`~loveformal.solver.endgame.actual_deal`, which raises
    :class:`~loveformal.solver.endgame.UnknownOlderCard` if it is needed and missing."""
    state = eg.root
    if not _decides_at_root(state, seat):
        return None
    actual = deal_state(state, actual_deal(state, eg.knower, older, knew, shown))
    key = observation(actual, seat).key
    # A scan by equality, not ``Game.infoset_index``: its table hashes every infoset key (the
    # events' enum fields are slow to hash), and the root's infosets are numbered first.
    found = next((i for i in eg.game.infosets if i.player == seat and i.key == key), None)
    if found is None and not (prior and _consistent(state)):
        raise MalformedInput(
            "the position's own deal is not among the consistent deals (its hands contradict "
            "what a seat knows)"
        )
    return found


def _consistent(state: State) -> bool:
    """Whether the position's own deal is among its consistent deals (without a prior)."""
    actual = actual_deal(state)
    own = (tuple(sort_cards(h) for h in actual.hands), actual.set_aside, actual.pile, actual.bottom)
    return any((d.hands, d.set_aside, d.pile, d.bottom) == own for d in enumerate_deals(state))


def _root_probs(game: Game) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for e in game.edges(0):
        p = game.edge_prob_exact[e]
        assert p is not None
        child = int(game.edge_child[e])
        out[child] = out.get(child, Fraction(0)) + p
    return out


def _float_values(
    game: Game,
    seat: int,
    table: Sequence[Sequence[float] | None],
    payoff: Sequence[float] | npt.NDArray[np.float64],
    below: npt.NDArray[np.bool_] | None = None,
) -> Any:
    """Bottom-up expected ``payoff`` per node (floats) under a full per-infoset table. With
    ``below`` (on a tree: a node set closed under children, outside which ``payoff`` is 0),
    only those nodes' values are computed (the rest are 0), and only their information sets'
    rows are read."""
    if game.is_tree():
        return _tree_float_values(game, table, np.asarray(payoff, dtype=np.float64), below)
    values = [0.0] * game.num_nodes
    kinds = game.kind.tolist()
    infos = game.infoset.tolist()
    starts = game.child_start.tolist()
    children = game.edge_child.tolist()
    probs = game.edge_prob.tolist()
    for n in range(game.num_nodes - 1, -1, -1):
        k = kinds[n]
        if k == TERMINAL:
            values[n] = payoff[n]
            continue
        lo, hi = starts[n], starts[n + 1]
        if k == CHANCE:
            values[n] = sum(probs[e] * values[children[e]] for e in range(lo, hi))
        else:
            row = table[infos[n]]
            assert row is not None
            values[n] = sum(
                w * values[children[e]] for w, e in zip(row, range(lo, hi), strict=True)
            )
    return values


def _tree_float_values(
    game: Game,
    table: Sequence[Sequence[float] | None],
    payoff: npt.NDArray[np.float64],
    below: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.float64]:
    """:func:`_float_values` on a tree, vectorised one depth level at a time."""
    n = game.num_nodes
    counts = np.diff(game.child_start)
    owner = np.repeat(np.arange(n), counts)
    index = np.arange(game.num_edges) - game.child_start[owner]
    sizes = [len(i.actions) for i in game.infosets]
    offset = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offset[1:])
    flat = np.zeros(int(offset[-1]) + 1, dtype=np.float64)
    for i, row in enumerate(table):
        if row is not None:
            flat[offset[i] : offset[i + 1]] = row
    weight = game.edge_prob.copy()
    dec = np.isnan(weight)
    weight[dec] = flat[offset[game.infoset[owner[dec]]] + index[dec]]
    depth = game.depths()
    values: npt.NDArray[np.float64] = np.where(game.kind == TERMINAL, payoff, 0.0)
    edge_depth = depth[owner]
    by_depth = stable_order(int(depth.max(initial=0)) - edge_depth)  # deepest first
    if below is not None:
        by_depth = by_depth[below[owner[by_depth]]]
    bounds = np.flatnonzero(np.diff(edge_depth[by_depth])) + 1
    for group in np.split(by_depth, bounds):
        np.add.at(values, owner[group], weight[group] * values[game.edge_child[group]])
    return values


def _below(game: Game, roots: Sequence[int]) -> npt.NDArray[np.bool_]:
    """Per node: whether it is one of ``roots`` or below one (every node unless the game is
    a tree)."""
    if not game.is_tree():
        return np.ones(game.num_nodes, dtype=bool)
    mask = np.zeros(game.num_nodes, dtype=bool)
    mask[list(roots)] = True
    for level in game.levels()[1:]:
        mask[level] |= mask[game.parent[level]]
    return mask


def _action_wins(
    game: Game,
    seat: int,
    info: Infoset,
    own_choice: Callable[[Infoset], Hashable],
    other_probs: Callable[[Infoset], list[float]],
) -> Any:
    """Per node: ``seat``'s win probability (floats) when it plays ``own_choice`` at its
    information sets and the others play ``other_probs``, valued only below its root
    decisions ``info.nodes`` (elsewhere nothing is won, and 0 is given). Only the rows of
    the information sets there are filled."""
    below = _below(game, info.nodes)
    needed = np.unique(game.infoset[below & (game.kind == DECISION)])
    table: list[list[float] | None] = [None] * len(game.infosets)
    for i in map(game.infosets.__getitem__, needed.tolist()):
        if i.player == seat:
            choice = own_choice(i)
            table[i.index] = [1.0 if a == choice else 0.0 for a in i.actions]
        else:
            table[i.index] = other_probs(i)
    return _float_values(game, seat, table, _win_payoff(game, seat, info.nodes, below), below)


def _held(probs: tuple[Fraction, ...] | None) -> tuple[Fraction, ...]:
    """An exact profile's row of another seat's information set (always held)."""
    assert probs is not None
    return probs


def _win_payoff(
    game: Game,
    seat: int,
    roots: Sequence[int] | None = None,
    below: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.float64]:
    """Per node: ``seat``'s round-win indicator at terminals (an expectation at collapsed
    subtrees) — only below ``roots`` if given (``below``: their :func:`_below`, if already
    known) —, else 0. Terminals of one engine node share the indicator tuple, so each
    distinct tuple is converted to a float once."""
    out = np.zeros(game.num_nodes, dtype=np.float64)
    if below is None and roots is not None:
        below = _below(game, roots)
    terminals = np.flatnonzero((game.kind == TERMINAL) & (below if below is not None else True))
    if terminals.size == 0:
        return out
    winners = [terminal_winners(game, n) for n in terminals.tolist()]
    first, group = group_by_identity(winners)
    floats = [0.0 if w is None else float(w[seat]) for w in map(winners.__getitem__, first)]
    out[terminals] = np.array(floats, dtype=np.float64)[group]
    return out


def _per_action(
    game: Game,
    info: Infoset,
    node_values: Sequence[Any] | Mapping[int, Any],
    root_p: Mapping[int, Fraction],
) -> list[Any]:
    """Per action of ``info`` (whose nodes are root deals): the deal-weighted average of the
    value of the action's child."""
    total = sum((root_p[h] for h in info.nodes), Fraction(0))
    out: list[Any] = []
    for a in range(len(info.actions)):
        acc: Any = 0
        for h in info.nodes:
            child = int(game.edge_child[int(game.child_start[h]) + a])
            acc += root_p[h] * node_values[child]
        out.append(acc / total)
    return out


def _pooled_pimc(eg: Endgame, info: Infoset | None) -> tuple[Fraction, list[Fraction] | None]:
    """The determinized value (player 0's utility) of a pooled build, and per action of
    ``info`` (whose nodes are root outcomes) the deal-weighted average of the action's
    value, from the deals' own values (:attr:`~loveformal.solver.endgame.Endgame.determinized`:
    a root outcome of the pooled game holds several deals, which the determinized player
    tells apart)."""
    assert eg.determinized is not None and eg.groups is not None
    total = sum((d.weight for d in eg.deals), Fraction(0))
    value = sum(
        (d.weight * v for d, (v, _) in zip(eg.deals, eg.determinized, strict=True)), Fraction(0)
    )
    if info is None:
        return value / total, None
    game = eg.game
    nodes = set(info.nodes)
    acc = dict.fromkeys(info.actions, Fraction(0))
    reach = Fraction(0)
    for e, members in zip(game.edges(0), eg.groups, strict=True):
        if int(game.edge_child[e]) not in nodes:
            continue
        for i in members:
            w = eg.deals[i].weight
            reach += w
            per = eg.determinized[i][1]
            for label in info.actions:
                acc[label] += w * per[label]
    return value / total, [acc[label] / reach for label in info.actions]


def _model_policy(
    eg: Endgame, player: int, model: OpponentModel | ObservationModel
) -> dict[Hashable, dict[Hashable, Fraction]]:
    out: dict[Hashable, dict[Hashable, Fraction]] = {}
    for info in eg.game.infosets_of(player):
        acts = info.actions
        if model == "random":
            out[info.key] = {a: Fraction(1, len(acts)) for a in acts}
            continue
        state = eg.representatives[(player, info.key)]
        if isinstance(model, ObservationModel):
            out[info.key] = _observed_choice(model, player, state, acts)
            continue
        from loveformal.bots.heuristic import score_actions

        scores = score_actions(observation(state, player), [_as_action(a) for a in acts])
        best = max(scores)
        chosen = [a for a, s in zip(acts, scores, strict=True) if s >= best - 1e-9]
        out[info.key] = {a: Fraction(1, len(chosen)) for a in chosen}
    return out


def _observed_choice(
    model: ObservationModel, player: int, state: State, labels: tuple[Hashable, ...]
) -> dict[Hashable, Fraction]:
    """The model's probabilities at one information set, exact (see :class:`ObservationModel`)."""
    legal = tuple(_as_action(a) for a in labels)
    obs = observation(state, player)
    hand = ", ".join(c.title for c in obs.hand)
    where = f"opponent model {model.name} for {seat_name(player)} holding {hand}"
    try:
        answer = model.choose(obs, legal)
    except (Exception, SystemExit) as exc:  # the user's code: reported, never a traceback
        raise MalformedInput(f"{where}: raised {type(exc).__name__}: {_text(exc)}") from None
    refuse_coroutine(answer, where)
    by_text = {_action_text(a): a for a in legal}
    known = "; ".join(str(a) for a in legal)

    def resolve(item: object) -> Action | None:
        if isinstance(item, str):
            return by_text.get(_action_text(item))
        # By type first: the user's object's own __eq__ is never called.
        return next((a for a in legal if type(a) is type(item) and a == item), None)

    def illegal(item: object) -> MalformedInput:
        return MalformedInput(f"{where}: {echo(item)} is not a legal action (legal: {known})")

    if not isinstance(answer, Mapping):
        action = resolve(answer)
        if action is None:
            raise illegal(answer)
        return {action: Fraction(1)}
    weights: dict[Hashable, Fraction] = {}
    try:
        entries = [(item, p) for item, p in answer.items()]
    except Exception as exc:  # the user's mapping type: reported, never a traceback
        raise MalformedInput(
            f"{where}: its answer (a {type(answer).__name__}) cannot be read as action -> "
            f"probability ({type(exc).__name__}: {echo(str(exc))})"
        ) from None
    actions = [resolve(item) for item, _ in entries]
    read = user_weights(
        [p for _, p in entries],
        [
            f"{where}: probability of {action or echo(item)}"
            for action, (item, _) in zip(actions, entries, strict=True)
        ],
    )
    for action, (item, _), q in zip(actions, entries, read, strict=True):
        if action is None:
            if q == 0:
                continue  # an action that is not legal here, given probability 0: harmless
            raise illegal(item)
        if action in weights:
            raise MalformedInput(f"{where}: {action} is given twice")
        weights[action] = q
    total = sum(weights.values(), Fraction(0))
    if total == 0:
        raise MalformedInput(f"{where}: every probability is 0 (legal: {known})")
    return {a: weights.get(a, Fraction(0)) / total for a in legal}


def _text(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:  # an exception whose __str__ raises
        return "(its message cannot be shown)"


def _action_text(action: object) -> str:
    return " ".join(str(action).lower().split())


def _check_opponents(opponents: Opponents, seat: int, state: State) -> tuple[Opponents, list[str]]:
    """Refuse unknown model names and seats before anything is built; drop a model given for
    the seat solved for (with a note), so that one set of models serves every ``seat``."""

    def check(model: object, where: str) -> None:
        if not isinstance(model, str | ObservationModel | Mapping) and not callable(model):
            raise MalformedInput(
                f"opponent models: {where}{model!r} is not a model (a name, an "
                "ObservationModel, or per seat a policy over information-set keys)"
            )
        if isinstance(model, str) and model not in MODELS:
            raise MalformedInput(
                f"{where}unknown opponent model {model!r} (expected one of {', '.join(MODELS)})"
            )
        if callable(model) and accepts(model, 1) is False:
            raise MalformedInput(
                f"{where}a policy function is called with an information-set key; wrap a "
                "function of (observation, legal) in ObservationModel(name, function)"
            )

    if not isinstance(opponents, Mapping):
        if callable(opponents):
            raise MalformedInput(
                "opponent models: a function is a model only as ObservationModel(name, "
                "function) (called with the observation and the legal actions), or per seat "
                "as a policy over information-set keys"
            )
        check(opponents, "")
        return opponents, []
    notes: list[str] = []
    kept: dict[int, OpponentModel | ObservationModel | Policy] = {}
    seen: set[int] = set()
    for key, model in opponents.items():
        p = _seat_index(key)
        if p is None or not 0 <= p < state.players:
            raise MalformedInput(
                f"opponent models: there is no seat {key!r} (seats are 0..{state.players - 1}, "
                f"P1..P{state.players})"
            )
        if p in seen:
            raise MalformedInput(f"opponent models: {seat_name(p)} is given twice")
        seen.add(p)
        check(model, f"{seat_name(p)}: ")
        if p == seat:
            notes.append(
                f"the opponent model given for {seat_name(p)} is not used: it is the seat "
                "solved for"
            )
            continue
        kept[p] = model
    missing = [
        seat_name(p)
        for p in range(state.players)
        if p != seat and p not in kept and not state.seats[p].out
    ]
    if missing:
        raise MalformedInput(f"opponent models: none given for {', '.join(missing)}")
    return kept, notes


def _seat_index(key: object) -> int | None:
    """A seat index given as an integer of any kind (not a bool), else None."""
    if isinstance(key, bool | np.bool_) or not isinstance(key, SupportsIndex):
        return None
    return operator.index(key)


def opponents_text(opponents: Opponents) -> str:
    """How the report names ``opponents``."""
    if isinstance(opponents, str):
        return opponents
    if isinstance(opponents, ObservationModel):
        return opponents.name
    parts = []
    for p in sorted(opponents):
        model = opponents[p]
        name = (
            model
            if isinstance(model, str)
            else model.name
            if isinstance(model, ObservationModel)
            else "user policy"
        )
        parts.append(f"{seat_name(p)}: {name}")
    return ", ".join(parts)


def _as_action(label: Hashable) -> Action:
    return cast(Action, label)  # the tree builder labels decision edges with engine actions


# ----------------------------------------------------------------------------- the solver


def solve_position(
    state: State,
    *,
    seat: int | None = None,
    utility: Utility = "round",
    opponents: Opponents | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    prior: Prior | None = None,
    pimc: bool = True,
    progress: Progress | None = None,
    reduce: bool | Reductions = False,
    lp_progress: StepProgress | None = None,
    older: Card | None = None,
    knew: Card | None = None,
    shown: Card | None = None,
) -> EndgameResult:
    """Solve the rest of the round from ``state`` for ``seat`` (default: the seat to act).

    Two players without ``opponents``: equilibrium (LP + exact certificate), on the full tree
    (its strategies cover every information set), or with ``reduce=True`` (what ``loveformal
    solve`` does) on the reduced game of :mod:`loveformal.solver.levels` — dominated actions,
    forced moves and choice-free subtrees left out, and the deals that differ only in their
    set-aside card one root outcome: the same value and the same actions, and its
    equilibrium extends to one of the full tree
    (:func:`~loveformal.solver.endgame.extend_strategy`); a
    :class:`~loveformal.solver.endgame.Reductions` chooses the reductions. Otherwise an
    exact best response against ``opponents`` (default ``"random"`` with three or more
    players), always on the full tree. Raises
    :class:`~loveformal.errors.MalformedInput` for a position that cannot be solved and
    :class:`~loveformal.solver.endgame.EndgameTooLarge` above ``max_nodes`` histories.
    ``progress`` hears of the build, ``lp_progress`` of each restricted LP of the equilibrium
    (:func:`~loveformal.solver.seqform.solve`). Runs with the garbage collector paused
    (:func:`~loveformal.solver.efg.gc_paused`).

    ``older`` is the seat to move's card from before its draw, which its information set at
    the root needs when the discard piles show that another seat saw it or was handed it (a
    Priest's look, a King's swap) and its two cards differ: without it there is no action
    table, only the value (a note says so). ``knew`` is the other seat's card that the seat
    to move knew from its own last play, which its information set needs when the discard
    piles show that play (a Priest, Baron or King two turns back,
    :func:`~loveformal.knowledge.public_last_play`) and the other seat's card and the card it
    played since differ; after a Baron or King ``older`` is needed too. ``shown`` is the
    seat to move's card that the other seat knew from its play before its last (a Priest,
    Baron or King under its top discard, :func:`~loveformal.knowledge.public_earlier_play`),
    needed when that card and the seat to move's top discard differ (and ``knew`` after a
    Baron or King).
    """
    with gc_paused():
        return _solve_position(
            state,
            seat,
            utility,
            opponents,
            max_nodes,
            prior,
            pimc,
            progress,
            reduce,
            lp_progress,
            older,
            knew,
            shown,
        )


def _solve_position(
    state: State,
    seat: int | None,
    utility: Utility,
    opponents: Opponents | None,
    max_nodes: int,
    prior: Prior | None,
    pimc: bool,
    progress: Progress | None,
    reduce: bool | Reductions,
    lp_progress: StepProgress | None,
    older: Card | None,
    knew: Card | None,
    shown: Card | None,
) -> EndgameResult:
    t0 = time.perf_counter()
    players = state.players
    if seat is None:
        actor = current_player(state)
        seat = actor if actor >= 0 else state.turn
    if not 0 <= seat < players:
        raise MalformedInput(f"there is no seat {seat_name(seat)} (P1..P{players})")
    if state.seats[seat].out:
        raise MalformedInput(f"{seat_name(seat)} is out of the round: nothing to solve for it")
    check_older(state, older)  # before the build, not after it
    check_knew(state, knew, shown, older)
    equilibrium = players == 2 and opponents is None
    if not equilibrium and opponents is None:
        opponents = "random"
    model_notes: list[str] = []
    if opponents is not None:
        opponents, model_notes = _check_opponents(opponents, seat, state)
    eg = build_endgame(
        state,
        utility=utility,
        max_nodes=max_nodes,
        prior=prior,
        merge_dead_guesses=equilibrium,
        progress=progress,
        reduce=equilibrium and reduce,
        knower=None if equilibrium else seat,
        determinize=equilibrium and pimc,
    )
    game = eg.game
    seconds = {"build": eg.build_seconds}
    gs = game.sizes()
    sizes = EndgameSizes(
        len(eg.deals), gs.nodes, gs.terminals, gs.infosets, gs.sequences, eg.full_histories
    )
    notes: list[str] = list(model_notes)
    older_unknown = False
    try:
        info = _root_infoset(eg, seat, prior is not None, older, knew, shown)
    except UnknownLastPlay as exc:
        info, older_unknown = None, True
        notes.append(
            f"{exc}: no action table (give them for its table); the game value does not "
            "depend on them"
        )
    except UnknownOlderCard as exc:
        info, older_unknown = None, True
        notes.append(
            f"{exc}: no action table (its information set is one of two; give the card it "
            "held before its draw, --older CARD, for its table); the game value does not "
            "depend on it"
        )
    root_p = _root_probs(game)
    if info is None and not older_unknown and _decides_at_root(state, seat):
        notes.append(
            f"the prior gives {seat_name(seat)}'s actual hand "
            f"({', '.join(c.title for c in state.seats[seat].hand)}) probability 0: no action "
            "table (the game value is still the prior's)"
        )
    elif info is None and not older_unknown:
        notes.append(
            f"{seat_name(seat)} does not decide at the root (the next step is "
            + ("a draw" if state.phase in CHANCE_PHASES else f"{seat_name(state.turn)}'s")
            + "): no action table"
        )
    if prior is not None:
        notes.append(
            "the root deals are weighted by the given prior, not by their numbers of card "
            "arrangements; every seat is taken to know the prior"
        )
    seen = sorted(
        {
            (e.seat, e.other)
            for d in eg.deals
            for e in d.seen
            if e.kind is EventKind.SAW
            and e.seat is not None
            and e.other is not None
            and e.seat != eg.knower  # its own (its last play's look): not another's
        }
    )
    tie = public_tie(state)
    for b, a in () if tie is None else (tie,):
        notes.append(
            f"the discard piles show a Baron's tie ({seat_name(a)}'s Baron on "
            f"{seat_name(b)}): each deal gives {seat_name(b)} an older card of the value of "
            f"{seat_name(a)}'s card, and both seats know both cards"
        )
    notes.extend(_returns_note(state))
    last = public_last_play(state)
    if last is not None:
        mover, other = state.turn, 1 - state.turn
        learnt = {
            Card.PRIEST: "saw",
            Card.BARON: "tied with (a Baron's tie: each saw the other's card)",
            Card.KING: "handed over (a King's swap: each knows the card it handed over)",
        }[last]
        notes.append(
            f"the discard piles show {seat_name(mover)}'s {last.title} on "
            f"{seat_name(other)} two turns back, then {seat_name(other)}'s "
            f"{state.seats[other].discards[-1].title}: {seat_name(mover)} knows the card it "
            f"{learnt}, which {seat_name(other)} still holds or has played since; each deal "
            "carries both histories, each order of the cards alike"
        )
    if last is None and public_return_drawn_last(state):
        mover, other = state.turn, 1 - state.turn
        notes.append(
            f"the discard piles show that {seat_name(other)} drew {seat_name(mover)}'s "
            f"Chancellor return at the start of its last turn, then played its "
            f"{state.seats[other].discards[-1].title}: {seat_name(mover)} knows that card, "
            f"which {seat_name(other)} still holds or has played since; each deal carries "
            "both histories, each order of the cards alike"
        )
    earlier = public_earlier_play(state)
    if earlier is not None:
        mover, other = state.turn, 1 - state.turn
        learnt = {
            Card.PRIEST: f"{seat_name(other)} knows the card of {seat_name(mover)} it saw",
            Card.BARON: "each knows the other's card (a Baron's tie)",
            Card.KING: "each knows the card it handed over (a King's swap)",
        }[earlier]
        notes.append(
            f"the discard piles show {seat_name(other)}'s {earlier.title} on "
            f"{seat_name(mover)} three turns back, then {seat_name(mover)}'s "
            f"{state.seats[mover].discards[-1].title} and {seat_name(other)}'s "
            f"{state.seats[other].discards[-1].title}: {learnt}, each card still held or "
            "played since; each deal carries every such history, each order of the cards "
            "alike"
        )
    if earlier is None and public_return_drawn_earlier(state):
        mover, other = state.turn, 1 - state.turn
        notes.append(
            f"the discard piles show that {seat_name(mover)} drew {seat_name(other)}'s "
            "Chancellor return at the start of its turn before this one, then played its "
            f"{state.seats[mover].discards[-1].title}, and {seat_name(other)} its "
            f"{state.seats[other].discards[-1].title}: {seat_name(other)} knows that card, "
            f"which {seat_name(mover)} still holds or has played since; each deal carries "
            "both histories, each order of the cards alike"
        )
    piles_seen = pile_sights(state) if eg.knower is None else {}
    for b, sights in piles_seen.items():
        for sight in sights:
            a = sight.observer
            if not sight.older:
                notes.append(
                    f"the discard piles show that {seat_name(a)} knows the card "
                    f"{seat_name(b)} has just drawn ({seat_name(a)}'s Chancellor return, in "
                    "every order of turns the piles fit): each deal carries that knowledge, as "
                    "its cards make it"
                )
                continue
            player = a if b == state.turn else b  # the other seat, whose Priest or King it was
            notes.append(
                f"the discard piles show that {seat_name(a)} knows {seat_name(b)}'s card from "
                f"before its draw ({seat_name(player)}'s "
                f"{state.seats[player].discards[-1].title}): each deal carries that "
                "knowledge, as its cards make it"
            )
    if seen and eg.knower is not None:
        notes.append(
            f"the deals are those {seat_name(seat)} cannot rule out; each carries what the "
            "others knew of the hands before the position, as that deal makes it, and the "
            "models act on it ("
            + ", ".join(f"{seat_name(a)} of {seat_name(b)}'s" for a, b in seen)
            + ")"
        )
    if eg.merge_dead_guesses:
        notes.append(
            "guesses naming a card whose copies are all public never hit and are equivalent: "
            "the solver keeps the first per target; the others share its value (probability 0)"
        )
    if eg.reductions is not None:
        notes.append(
            f"reduced game: {gs.nodes:,} of {eg.full_histories:,} histories (left out: "
            f"{eg.dominated:,} dominated actions, forced moves, choice-free subtrees; same "
            "value, and its equilibrium is one of the full game)"
        )
    if eg.groups is not None and len(eg.groups) < len(eg.deals):
        notes.append(
            f"the {len(eg.deals):,} deals are {len(eg.groups):,} root outcomes: deals that "
            "differ only in which card of the set-aside card and the unseen pile is set aside "
            "are one, whose draws come from those cards together (nobody sees the set-aside "
            "card before it is drawn, so this is the same game)"
        )
    if info is not None:
        notes.append(
            f"the game value averages over every hand {seat_name(seat)} could hold (its own "
            "hand is dealt at the root, so that no seat is assumed to know it); the action "
            "values are for its actual hand"
        )
    if equilibrium:
        result = _equilibrium(
            eg, seat, info, root_p, seconds, pimc, lp_progress, older, knew, shown
        )
        method = "sequence-form LP (HiGHS) + exact certificate"
        opp_text = None
        if result[4]:
            notes.append(
                "the action values are against this equilibrium's opponent: only the game "
                "value is the same in every equilibrium, and where the opponent has several "
                "equilibrium strategies another equilibrium can value this hand's actions "
                "otherwise (an action of probability 0 is never valued above the actions "
                "played in the same equilibrium)"
            )
    else:
        assert opponents is not None
        result = _against_models(eg, seat, info, root_p, opponents)
        opp_text = opponents_text(opponents)
        method = f"exact best response against {opp_text}" + (
            " opponents" if isinstance(opponents, str) else ""
        )
        seconds["best_response"] = time.perf_counter() - t0 - eg.build_seconds
    value, value_float, bracket, exploit, actions, pimc_value = result
    seconds["total"] = time.perf_counter() - t0
    return EndgameResult(
        position=format_position(state),
        seat=seat,
        players=players,
        preset=state.rules.preset,
        method=method,
        utility=utility,
        opponents=opp_text,
        prior=None if prior is None else getattr(prior, "__qualname__", None) or repr(prior),
        value=value,
        value_float=value_float,
        bracket=bracket,
        exploitability=exploit,
        actions=tuple(actions),
        pimc=pimc_value,
        sizes=sizes,
        seconds=seconds,
        notes=tuple(notes),
        game=game,
    )


_Outcome = tuple[
    Fraction | None,
    float,
    tuple[Fraction, Fraction] | None,
    Fraction | None,
    list[ActionResult],
    Fraction | None,
]


def _certificate(game: Game, sol: Solution, seconds: dict[str, float]) -> tuple[Certificate, bool]:
    """The certificate reported, and whether it is the LP's exact vertex's
    (:mod:`~loveformal.solver.vertex`) rather than the floats' (``seconds`` gets ``vertex``
    and ``certify``). When the last restricted LP's basis is at hand
    (:attr:`~loveformal.solver.seqform.Solution.vertex_cheap`), the vertex comes first: its
    certificate, from integer plans, costs about what the floats' does, and it closes the
    bracket where theirs may not. Otherwise (small games, solved whole, or the restricted
    loop gave up) finding it means solving the whole LP again, so the floats come first and
    the vertex only if they leave a bracket. The first certificate that closes the bracket is
    reported; if none does, the floats'."""

    def by_vertex() -> Certificate | None:
        if sol.vertex is None:
            return None
        t = time.perf_counter()
        plans = sol.vertex()
        seconds["vertex"] = time.perf_counter() - t
        t = time.perf_counter()
        got = certify_plans(game, plans) if plans is not None else None
        seconds["certify"] = seconds.get("certify", 0.0) + time.perf_counter() - t
        return got

    def by_floats() -> Certificate:
        t = time.perf_counter()
        got = certify(game, sol.strategies)
        seconds["certify"] = seconds.get("certify", 0.0) + time.perf_counter() - t
        return got

    if sol.vertex_cheap:
        vertex = by_vertex()
        if vertex is not None and _closed(vertex.value_bracket):
            return vertex, True
        return by_floats(), False
    floats = by_floats()
    if _closed(floats.value_bracket):
        return floats, False
    vertex = by_vertex()
    if vertex is not None and _closed(vertex.value_bracket):
        return vertex, True
    return floats, False


def _closed(bracket: tuple[Fraction, Fraction] | None) -> bool:
    return bracket is not None and bracket[0] == bracket[1]


def _equilibrium(
    eg: Endgame,
    seat: int,
    info: Infoset | None,
    root_p: Mapping[int, Fraction],
    seconds: dict[str, float],
    with_pimc: bool,
    lp_progress: StepProgress | None,
    older: Card | None,
    knew: Card | None,
    shown: Card | None,
) -> _Outcome:
    game = eg.game
    sign = 1 if seat == 0 else -1
    t = time.perf_counter()
    sol = solve(game, on_step=lp_progress)
    seconds["lp"] = time.perf_counter() - t
    cert, exact = _certificate(game, sol, seconds)
    played: Mapping[Hashable, Mapping[Hashable, float | Fraction]] = (
        cert.profile[seat] if exact else sol.strategies[seat]
    )
    assert cert.value_bracket is not None
    lo, hi = cert.value_bracket
    bracket = (lo, hi) if seat == 0 else (-hi, -lo)
    value = bracket[0] if bracket[0] == bracket[1] else None
    pimc_value: Fraction | None = None
    piv: dict[int, Fraction] | None = None
    pim: list[Fraction] | None = None
    if with_pimc and eg.determinized is not None:
        t = time.perf_counter()
        value0, pim = _pooled_pimc(eg, info)
        pimc_value = sign * value0
        seconds["pimc"] = eg.determinized_seconds + time.perf_counter() - t
    elif with_pimc:
        t = time.perf_counter()
        wanted = [0]
        if info is not None:  # the children of the seat's root decisions (per action)
            for h in info.nodes:
                wanted.extend(game.edge_child[game.child_start[h] : game.child_start[h + 1]])
        piv = minimax_values(game, map(int, wanted))
        pimc_value = sign * piv[0]
        seconds["pimc"] = time.perf_counter() - t
    actions: list[ActionResult] = []
    if info is not None:
        response = cert.responses[seat]
        opp_profile = cert.profile[1 - seat]
        wins = _action_wins(
            game,
            seat,
            info,
            lambda i: response.strategy[i.key],
            lambda i: [float(opp_profile[i.key][a]) for a in i.actions],
        )
        win_per = _per_action(game, info, wins, root_p)
        reach = sum((root_p[h] for h in info.nodes), Fraction(0))
        cf = response.action_values[info.key]
        if piv is not None:
            pim = _per_action(game, info, piv, root_p)
        eq = played[info.key]
        for a, label in enumerate(info.actions):
            actions.append(
                ActionResult(
                    action=label,
                    probability=float(eq[label]),
                    value=cf[a] / reach,
                    win=float(win_per[a]),
                    pimc=None if pim is None else sign * pim[a],
                )
            )
        actions = _with_equivalents(eg, actions, older, knew, shown)
    # The certified figure, not the LP's float (which can lie 1e-16 outside the bracket).
    value_float = float(value if value is not None else (bracket[0] + bracket[1]) / 2)
    return value, value_float, bracket, cert.exploitability, actions, pimc_value


def _with_equivalents(
    eg: Endgame,
    actions: list[ActionResult],
    older: Card | None,
    knew: Card | None,
    shown: Card | None,
) -> list[ActionResult]:
    """Every legal action of the seat's actual position, in the engine's order: the merged
    (equivalent) guesses take their kept guess's value, win probability and PIMC value."""
    actual = deal_state(eg.root, actual_deal(eg.root, eg.knower, older, knew, shown))
    merged = equivalent_actions(actual)
    if not merged:
        return actions
    by_label = {a.action: a for a in actions}
    out: list[ActionResult] = []
    for label in legal_actions(actual):
        found = by_label.get(label)
        if found is not None:
            out.append(found)
            continue
        rep = by_label[merged[label]]
        out.append(
            ActionResult(
                action=label,
                probability=0.0,
                value=rep.value,
                win=rep.win,
                pimc=rep.pimc,
                equivalent_to=rep.action,
            )
        )
    return out


def _against_models(
    eg: Endgame,
    seat: int,
    info: Infoset | None,
    root_p: Mapping[int, Fraction],
    opponents: Opponents,
) -> _Outcome:
    game = eg.game
    policies: dict[int, Policy] = {}
    for p in range(game.num_players):
        if p == seat:
            continue
        model = opponents.get(p) if isinstance(opponents, Mapping) else opponents
        if isinstance(model, str | ObservationModel):
            policies[p] = _model_policy(eg, p, model)
        elif model is not None:
            policies[p] = model
        elif not eg.game.infosets_of(p):
            policies[p] = {}  # a seat out of the round decides nothing
        else:
            raise MalformedInput(f"no opponent model given for {seat_name(p)}")
    br, exact = best_response_and_profile(game, seat, policies)
    actions: list[ActionResult] = []
    if info is not None:
        # The others' rows from the exact profile the best response was computed against.
        wins = _action_wins(
            game,
            seat,
            info,
            lambda i: br.strategy[i.key],
            lambda i: [float(x) for x in _held(exact[i.index])],
        )
        win_per = _per_action(game, info, wins, root_p)
        reach = sum((root_p[h] for h in info.nodes), Fraction(0))
        cf = br.action_values[info.key]
        for a, label in enumerate(info.actions):
            actions.append(
                ActionResult(
                    action=label,
                    probability=1.0 if label == br.strategy[info.key] else 0.0,
                    value=cf[a] / reach,
                    win=float(win_per[a]),
                    pimc=None,
                )
            )
    return br.value, float(br.value), None, None, actions, None
