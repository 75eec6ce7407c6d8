"""Any Love Letter position as an OpenSpiel game (``pip install 'loveformal[openspiel]'``).

    from loveformal.integrations.openspiel import load_game
    game = load_game("classic 2p | P1 Guard,Guard d:Priest,Baron,Prince,Handmaid t0 | ...")
    from open_spiel.python.algorithms import sequence_form_lp
    v0, v1, pi0, pi1 = sequence_form_lp.solve_zero_sum_game(game)

The game is the one :func:`loveformal.solver.analysis.solve_position` solves: the rest of the
round from the position, every card that is not public dealt afresh at a root chance node.

* **Root**: a chance node over :func:`loveformal.solver.endgame.enumerate_deals` of the
  position — the same consistent deals with the same weights as the solver's root (outcome
  ``i`` is deal ``i``; the probabilities are the exact weights rounded to floats).
* **Below the root** the engine itself drives the game: :func:`~loveformal.engine.apply`,
  :func:`~loveformal.engine.legal_actions` (or the solver's
  :func:`~loveformal.solver.endgame.decision_actions` with ``merge_dead_guesses``) and
  :func:`~loveformal.engine.chance_outcomes` (the engine's exact probabilities as floats;
  a draw of card kind ``k`` is outcome ``k``'s index in the deck's kinds). The game ends with
  the round; utilities are :func:`~loveformal.solver.endgame.terminal_utility` (``"round"``:
  ±1 for two players, 1 per round winner with more; ``"tokens"``: tokens gained).
* **Players** are the seats (``P1`` is player 0). Two seats: zero-sum; more: general-sum.
* **Actions**: ids index :func:`action_table` — every decision the ruleset allows with this
  number of players, in a fixed order (``num_distinct_actions`` is its length), so an id means
  the same action in every position of that ruleset and player count.
* **Information states** (perfect recall): before the deal a constant per player; then
  :func:`loveformal.observation.information_state_string` — the seat's view of the position
  plus every event of the round as the seat saw it (its own actions included). Two histories
  get the same string exactly when their observation keys
  (``observation(state, seat).key``, the solver's information-set keys) are equal. The
  observation string (no recall) is the first line only: the seat's current view.

Registered as ``loveletter_endgame`` with parameters ``position`` (the notation of
:mod:`loveformal.notation`; OpenSpiel's game strings cannot hold ``, = ( ) %``, so
:func:`encode_position` percent-escapes them and the game decodes them), ``seat`` (the solving
seat, 0-based; -1: the seat to act), ``utility`` (``"round"`` or ``"tokens"``) and
``merge_dead_guesses`` (the solver's pruning of never-hitting guesses; the default ``False``
keeps every legal action). A position with an event log (a state reached by play) carries
private knowledge the notation cannot write: :func:`load_game` builds its game directly from
the state, and that game cannot be re-created from its string. So does a game whose root
deals are weighted by a user's prior (``load_game(..., prior=...)``). Whose private
knowledge restricts the root deals follows ``solve_position`` (``load_game(...,
knowledge=...)``): every seat's for two players, the solving seat's alone for more.

:func:`tabular_policy` turns the solver's behaviour strategies (keyed by observation keys and
engine actions) into an OpenSpiel ``TabularPolicy`` of the same game.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, cast
from urllib.parse import unquote

import pyspiel

from loveformal.actions import Action, Decision, Draw
from loveformal.cards import Card
from loveformal.engine import apply, chance_outcomes, current_player
from loveformal.errors import MalformedInput
from loveformal.integrations.action_ids import action_table
from loveformal.notation import format_observation, format_position, parse_position
from loveformal.observation import event_text, information_state_string, observation
from loveformal.seats import seat_name
from loveformal.solver.endgame import (
    UTILITIES,
    Deal,
    Prior,
    Utility,
    deal_state,
    decision_actions,
    enumerate_deals,
    terminal_utility,
)
from loveformal.state import CHANCE_PHASES, Phase, State

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "KNOWLEDGE",
    "Knowledge",
    "LoveLetterEndgame",
    "LoveLetterEndgameState",
    "action_table",
    "encode_position",
    "engine_state",
    "load_game",
    "tabular_policy",
]

GAME_NAME = "loveletter_endgame"

Knowledge = Literal["all", "seat"]
"""Whose private knowledge restricts the root deals: ``"all"`` — every seat's (the deals
consistent with everything any seat has seen: the two-player equilibrium of
``solve_position``); ``"seat"`` — the solving seat's alone (``enumerate_deals(knower=seat)``:
a best response, which must not know what only other seats saw)."""
KNOWLEDGE: tuple[Knowledge, ...] = ("all", "seat")

DEFAULT_POSITION = (
    "classic 2p | P1 Guard,Guard d:Priest,Baron,Prince,Handmaid t0 | "
    "P2 Guard d:Priest,Baron,Prince,Handmaid t0 prot | deck Princess | aside Guard | "
    "up King,Countess,Guard | play P1"
)
"""The position loaded when none is given (a classic endgame with one card left)."""

_ESCAPES = {"%": "%25", ",": "%2C", "=": "%3D", "(": "%28", ")": "%29"}
_TERMINAL_PHASES = (Phase.ROUND_OVER, Phase.GAME_OVER)
_CHANCE = 0
_DECISION = 1
_TERMINAL = 2
_MAX_STEPS_PER_CARD = 8
"""Bound on the actions per card leaving play (draw, play, redraw, two Chancellor draws and
its return, a Bishop's redraw choice), for ``max_game_length``."""


def encode_position(text: str) -> str:
    """``text`` with the characters OpenSpiel's game strings cannot hold percent-escaped."""
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _type(players: int, *, registered: bool = False) -> Any:
    two = players == 2
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Love Letter endgame (loveformal)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if two and not registered
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6 if registered else players,
        min_num_players=2 if registered else players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={
            "position": encode_position(DEFAULT_POSITION),
            "seat": -1,
            "utility": "round",
            "merge_dead_guesses": False,
        },
    )


GAME_TYPE = _type(2, registered=True)
"""The registered type: 2–6 players, general-sum. A loaded game's own type has its exact
player count and is zero-sum with two players."""


# ----------------------------------------------------------------------------- the tree


class EndgameTree:
    """The game's histories, expanded lazily and shared by all states of one game (a state
    is a pointer into it, so cloning a state copies nothing)."""

    def __init__(
        self,
        root: State,
        utility: Utility,
        merge: bool,
        token: str | None,
        prior: Prior | None = None,
        knower: int | None = None,
    ) -> None:
        self.root_state = root
        self.utility: Utility = utility
        self.merge = merge
        self.token = token
        """The game string that re-creates this tree (None for a position with a log or a
        game with a prior)."""
        self.knower = knower
        """The seat whose knowledge alone restricts the root deals (None: every seat's)."""
        self.deals: tuple[Deal, ...] = tuple(enumerate_deals(root, prior=prior, knower=knower))
        total = sum((d.weight for d in self.deals), Fraction(0))
        self.deal_probs: tuple[Fraction, ...] = tuple(d.weight / total for d in self.deals)
        self.players = root.players
        self.table = action_table(root.rules, root.players)
        self.index: dict[Action, int] = {a: i for i, a in enumerate(self.table)}
        self.kinds: tuple[Card, ...] = tuple(root.rules.deck(root.players).kinds)
        self.kind_index = {c: i for i, c in enumerate(self.kinds)}
        self._moves: dict[tuple[State, Hashable], State] = {}
        self.root = _Node(self, None, ())

    def apply(self, state: State, action: Action) -> State:
        """:func:`~loveformal.engine.apply`, memoised on the state without its log (the engine
        never reads the log, only appends to it; the solver's builder relies on the same)."""
        bare = state._replace(log=()) if state.log else state
        move = (bare, action)
        after = self._moves.get(move)
        if after is None:
            after = self._moves[move] = apply(bare, action)
        return after._replace(log=state.log + after.log) if state.log else after

    def draw_id(self, outcome: object) -> int:
        """The id of a chance outcome below the root: the drawn card's kind index."""
        if not isinstance(outcome, Draw):
            raise ValueError(f"unexpected chance outcome {outcome!r} before the round's end")
        return self.kind_index[outcome.card]

    def float_probs(self, probs: Sequence[Fraction]) -> list[float]:
        """Probabilities as floats (overridable: the tests plant a wrong one)."""
        return [float(p) for p in probs]

    def info_text(self, node: _Node, player: int) -> str:
        """The perfect-recall information-state string of ``player`` at ``node``."""
        if node.state is None:
            return f"{seat_name(player)}: before the deal"
        return information_state_string(node.state, player)

    def observation_text(self, node: _Node, player: int) -> str:
        """The observation string (the seat's current view, no recall)."""
        if node.state is None:
            return f"{seat_name(player)}: before the deal"
        return format_observation(observation(node.state, player))

    def walk(self) -> Iterator[_Node]:
        """Every node, depth first (expanding the whole tree)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.child(a) for a in reversed(node.actions))


class _Node:
    """One history: the engine state (None before the deal) and its outgoing actions."""

    __slots__ = (
        "_children",
        "_info",
        "_obs",
        "actions",
        "kind",
        "labels",
        "path",
        "player",
        "probs",
        "returns",
        "state",
        "tree",
    )

    def __init__(self, tree: EndgameTree, state: State | None, path: tuple[int, ...]) -> None:
        self.tree = tree
        self.state = state
        self.path = path
        self.player = -1
        self.labels: dict[int, Hashable] = {}
        self.probs: list[float] = []
        self.returns: list[float] = [0.0] * tree.players
        self._children: dict[int, _Node] = {}
        self._info: dict[int, str] = {}
        self._obs: dict[int, str] = {}
        if state is None:
            self.kind = _CHANCE
            self.labels = dict(enumerate(tree.deals))
            self.probs = tree.float_probs(tree.deal_probs)
        elif state.phase in _TERMINAL_PHASES:
            self.kind = _TERMINAL
            self.returns = [
                float(u) for u in terminal_utility(state, tree.root_state, tree.utility)
            ]
        elif state.phase in CHANCE_PHASES:
            self.kind = _CHANCE
            outs = sorted((tree.draw_id(o), o, p) for o, p in chance_outcomes(state))
            self.labels = {i: o for i, o, _ in outs}
            self.probs = tree.float_probs([p for _, _, p in outs])
        else:
            self.kind = _DECISION
            self.player = current_player(state)
            self.labels = {tree.index[a]: a for a in decision_actions(state, tree.merge)}
            self.labels = dict(sorted(self.labels.items()))
        self.actions: list[int] = list(self.labels)

    def child(self, action: int) -> _Node:
        found = self._children.get(action)
        if found is None:
            label = self.labels.get(action)
            if label is None:
                raise ValueError(f"action {action} is not legal here (legal: {self.actions})")
            if self.state is None:
                state = deal_state(self.tree.root_state, cast(Deal, label))
            else:
                state = self.tree.apply(self.state, cast(Action, label))
            found = self._children[action] = _Node(self.tree, state, (*self.path, action))
        return found

    def info(self, player: int) -> str:
        text = self._info.get(player)
        if text is None:
            text = self._info[player] = self.tree.info_text(self, player)
        return text

    def observation(self, player: int) -> str:
        text = self._obs.get(player)
        if text is None:
            text = self._obs[player] = self.tree.observation_text(self, player)
        return text

    def __deepcopy__(self, memo: dict[int, object]) -> _Node:
        return self  # immutable once built: OpenSpiel's Clone deep-copies a state's __dict__

    def __reduce__(self) -> tuple[object, ...]:
        if self.tree.token is None:
            raise _pickle_error()
        return (_restore, (self.tree.token, self.path))


def _pickle_error() -> TypeError:
    return TypeError(
        "a game built from a state with an event log, or with a prior, cannot be serialized "
        "(the notation cannot carry what the seats saw, nor a function); build it from a "
        "position string without a prior instead"
    )


_TREES: weakref.WeakValueDictionary[str, EndgameTree] = weakref.WeakValueDictionary()
"""Trees of the games loaded from strings, by game string (for OpenSpiel's deserialization)."""


def _restore(token: str, path: tuple[int, ...]) -> _Node:
    tree = _TREES.get(token)
    if tree is None:
        game = pyspiel.load_game(token)
        tree = game.tree
    node = tree.root
    for a in path:
        node = node.child(a)
    return node


# ----------------------------------------------------------------------------- OpenSpiel


class _Observer:
    """OpenSpiel's observer interface: strings only (no tensors)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, object] = {}

    def set_from(self, state: LoveLetterEndgameState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: LoveLetterEndgameState, player: int) -> str:
        node = state.node
        return node.info(player) if self.perfect_recall else node.observation(player)


class LoveLetterEndgame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped (Any)
    """The rest of the round from a position, as an OpenSpiel game (see the module docstring).

    Build it with :func:`load_game` or ``pyspiel.load_game("loveletter_endgame", {...})``."""

    tree_class: type[EndgameTree] = EndgameTree
    """The tree implementation (a subclass may override it; only games of the base tree are
    shared between equal game strings and serializable)."""

    def __init__(
        self,
        params: Mapping[str, Any] | None = None,
        *,
        state: State | None = None,
        prior: Prior | None = None,
        knowledge: Knowledge | None = None,
    ) -> None:
        given = dict(params or {})
        text_utility = str(given.get("utility", "round"))
        if text_utility not in UTILITIES:
            raise MalformedInput(f"unknown utility {text_utility!r} (expected one of {UTILITIES})")
        utility: Utility = "round" if text_utility == "round" else "tokens"
        merge = bool(given.get("merge_dead_guesses", False))
        if state is None:
            state = parse_position(unquote(str(given.get("position", DEFAULT_POSITION))))
        text = format_position(state)
        seat = int(given.get("seat", -1))
        if seat < 0:
            actor = current_player(state)
            seat = actor if actor >= 0 else state.turn
        if not 0 <= seat < state.players:
            raise MalformedInput(f"there is no seat {seat_name(seat)} (P1..P{state.players})")
        if state.seats[seat].out:
            raise MalformedInput(f"{seat_name(seat)} is out of the round: nothing to solve for it")
        canonical = {
            "position": encode_position(text),
            "seat": seat,
            "utility": utility,
            "merge_dead_guesses": merge,
        }
        players = state.players
        if knowledge is None:
            knowledge = "all" if players == 2 else "seat"
        if knowledge not in KNOWLEDGE:
            raise MalformedInput(
                f"unknown knowledge {knowledge!r} (expected one of {', '.join(KNOWLEDGE)})"
            )
        knower = seat if knowledge == "seat" else None
        token = None if state.log or prior is not None else _game_string(canonical)
        cacheable = token is not None and type(self).tree_class is EndgameTree
        tree = _TREES.get(token) if cacheable and token is not None else None
        if tree is None:
            tree = type(self).tree_class(state, utility, merge, token, prior, knower)
            if cacheable and token is not None:
                _TREES[token] = tree
        bound = 1 if utility == "round" else state.rules.options.tokens_for(players) + 2
        in_play = sum(len(s.hand) for s in state.seats) + state.pile.size + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=len(tree.table),
            max_chance_outcomes=max(len(tree.deals), len(tree.kinds)),
            num_players=players,
            min_utility=-float(bound) if players == 2 else 0.0,
            max_utility=float(bound),
            utility_sum=0.0 if players == 2 else None,
            max_game_length=1 + _MAX_STEPS_PER_CARD * in_play,
        )
        super().__init__(_type(players), info, canonical)
        self.tree = tree
        self.seat = seat
        """The solving seat (0-based), as ``solve_position``'s ``seat``."""

    @property
    def position(self) -> State:
        """The position the game was built from."""
        return self.tree.root_state

    @property
    def deals(self) -> tuple[Deal, ...]:
        """The root's outcomes (outcome ``i`` is ``deals[i]``)."""
        return self.tree.deals

    @property
    def deal_probabilities(self) -> tuple[Fraction, ...]:
        """The root's exact probabilities (the weights normalised)."""
        return self.tree.deal_probs

    @property
    def actions(self) -> tuple[Decision, ...]:
        """The action table: id ``i`` is ``actions[i]``."""
        return self.tree.table

    def action_id(self, action: Action) -> int:
        """The id of a decision; :class:`MalformedInput` (a ``ValueError``) if the ruleset has
        no such decision."""
        try:
            return self.tree.index[action]
        except (KeyError, TypeError):
            raise MalformedInput(f"{action!r} is not a decision of this game's ruleset") from None

    def new_initial_state(self) -> LoveLetterEndgameState:
        return LoveLetterEndgameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "only the observing seat's own view (public and its private information) "
                "is available"
            )
        return _Observer(bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


def _game_string(params: Mapping[str, Any]) -> str:
    def text(v: object) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    inner = ",".join(f"{k}={text(params[k])}" for k in sorted(params))
    return f"{GAME_NAME}({inner})"


class LoveLetterEndgameState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A history of :class:`LoveLetterEndgame` (a pointer into its tree)."""

    def __init__(self, game: LoveLetterEndgame) -> None:
        super().__init__(game)
        self.node: _Node = game.tree.root

    @property
    def engine_state(self) -> State | None:
        """The engine state here (None before the deal)."""
        return self.node.state

    def current_player(self) -> int:
        kind = self.node.kind
        if kind == _TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if kind == _CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self.node.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.node.actions) if player == self.node.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self.node
        if node.kind != _CHANCE:
            return []
        return list(zip(node.actions, node.probs, strict=True))

    def _apply_action(self, action: int) -> None:
        self.node = self.node.child(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        node = self.node
        tree = node.tree
        if player == pyspiel.PlayerId.CHANCE:
            if node.state is None and 0 <= action < len(tree.deals):
                return f"deal {action}: {tree.deals[action].label()}"
            if 0 <= action < len(tree.kinds):
                return f"draw {tree.kinds[action].title}"
            return f"chance outcome {action}"
        if 0 <= action < len(tree.table):
            return str(tree.table[action])
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.node.kind == _TERMINAL

    def returns(self) -> list[float]:
        return list(self.node.returns)

    def __str__(self) -> str:
        state = self.node.state
        if state is None:
            root = self.node.tree.root_state
            return f"before the deal ({len(self.node.tree.deals)} deals) | {format_position(root)}"
        lines = [format_position(state)]
        lines.extend(f"{i}. {event_text(e)}" for i, e in enumerate(state.log, 1))
        return "\n".join(lines)


pyspiel.register_game(GAME_TYPE, LoveLetterEndgame)


# ----------------------------------------------------------------------------- helpers


def load_game(
    position: str | State,
    *,
    seat: int | None = None,
    utility: Utility = "round",
    merge_dead_guesses: bool = False,
    prior: Prior | None = None,
    knowledge: Knowledge | None = None,
) -> LoveLetterEndgame:
    """The game of ``position`` (notation text or a :class:`State`) for ``seat`` (default:
    the seat to act), its root weighted by ``prior`` when given (the solver's
    :data:`~loveformal.solver.endgame.Prior`). A state with an event log, or a game with a
    prior, is built directly (its game has no game string that re-creates it); any other goes
    through ``pyspiel.load_game``.

    ``knowledge`` (:data:`Knowledge`) says whose private knowledge restricts the root deals;
    the default is ``solve_position``'s: ``"all"`` for two players (the equilibrium),
    ``"seat"`` for more (a best response). Pass ``"seat"`` to match a two-player
    ``solve_position(..., opponents=...)``. Only a state with a log carries private
    knowledge; without one both give the same game."""
    if not isinstance(position, str | State):
        raise MalformedInput(
            f"position: expected notation text or a State, got {type(position).__name__}"
        )
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise MalformedInput(f"seat: expected a seat number 0..n-1 or None, got {seat!r}")
    params: dict[str, Any] = {
        "seat": -1 if seat is None else seat,
        "utility": utility,
        "merge_dead_guesses": merge_dead_guesses,
    }
    if knowledge is not None and knowledge not in KNOWLEDGE:
        raise MalformedInput(
            f"knowledge: expected one of {', '.join(KNOWLEDGE)} or None, got {knowledge!r}"
        )
    if (isinstance(position, State) and position.log) or prior is not None:
        state = parse_position(position) if isinstance(position, str) else position
        return LoveLetterEndgame(params, state=state, prior=prior, knowledge=knowledge)
    text = position if isinstance(position, str) else format_position(position)
    params["position"] = encode_position(text)
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, LoveLetterEndgame)
    return game


def engine_state(state: Any) -> State | None:
    """The engine state of an OpenSpiel state of a :class:`LoveLetterEndgame` (None before
    the deal)."""
    if not isinstance(state, LoveLetterEndgameState):
        raise TypeError(f"not a state of {GAME_NAME}: {type(state).__name__}")
    return state.engine_state


def tabular_policy(
    game: LoveLetterEndgame,
    strategies: Sequence[Mapping[Hashable, Mapping[Hashable, float | Fraction]]],
    *,
    players: Sequence[int] | None = None,
) -> Any:
    """The solver's behaviour strategies as an OpenSpiel ``TabularPolicy`` of ``game``.

    ``strategies[p]`` maps player ``p``'s information-set keys (``observation(state,
    p).key``, as :mod:`loveformal.solver` keys its infosets) to ``{engine action:
    probability}``; actions it leaves out get probability 0. Build ``game`` with the
    solver's ``merge_dead_guesses`` (``True`` for :func:`~loveformal.solver.analysis.
    solve_position`'s equilibria): an information set the strategy does not cover raises
    ``KeyError``. The whole tree is expanded."""
    from open_spiel.python import policy as policy_lib

    chosen = list(range(game.num_players())) if players is None else list(players)
    tab = policy_lib.TabularPolicy(game, players=chosen)
    done: set[str] = set()
    for node in game.tree.walk():
        p = node.player
        if node.kind != _DECISION or p not in chosen:
            continue
        text = node.info(p)
        if text in done:
            continue
        done.add(text)
        assert node.state is not None
        key = observation(node.state, p).key
        probs = strategies[p].get(key)
        if probs is None:
            raise KeyError(
                f"the strategy of {seat_name(p)} has no information set for this view:\n{text}"
            )
        row = tab.policy_for_key(text)
        row[:] = 0.0
        for a, label in node.labels.items():
            row[a] = float(probs.get(label, 0.0))
        total = float(row.sum())
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise ValueError(
                f"the strategy of {seat_name(p)} sums to {total} over the legal actions at:\n{text}"
            )
    return tab
