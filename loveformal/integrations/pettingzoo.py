"""A PettingZoo AEC environment (``pip install 'loveformal[pettingzoo]'``).

    from loveformal.integrations.pettingzoo import env
    e = env(preset="classic", players=2)          # whole matches; rounds=True: single rounds
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        mask = obs["action_mask"]
        e.step(None if term or trunc else int(mask.nonzero()[0][0]))

* **Actions**: one fixed :class:`~gymnasium.spaces.Discrete` space per ruleset and player
  count (:func:`action_table`): every ``Play(card, target, guess)``, ``Play(card, targets,
  look)`` and target-less ``Play(card)`` for the deck's cards, plus every Chancellor
  decision (keep, bottom order) when the deck has a Chancellor and the Bishop's redraw
  choice when it has a Bishop. ``action_mask`` marks the legal ones
  (:func:`loveformal.engine.legal_actions`); other agents get an all-zero mask.
* **Observations** are built from :func:`loveformal.observation.observation` only (never the
  hidden state), seats rotated so that the observer comes first (:func:`encode`).
* Chance (shuffles, draws) is resolved inside the environment from the ``reset`` seed.
  At the end the match winners get reward +1 and the others -1 (with ``rounds=True``: the
  round's winners).
"""

from __future__ import annotations

import operator
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from loveformal.actions import Action
from loveformal.cards import Card
from loveformal.engine import apply, current_player, legal_actions, new_match
from loveformal.errors import MalformedInput
from loveformal.integrations.action_ids import action_table
from loveformal.literals import echo
from loveformal.observation import Observation, observation
from loveformal.rulebook import make_ruleset
from loveformal.ruleset import Ruleset
from loveformal.sampling import sample_chance
from loveformal.state import CHANCE_PHASES, Phase, State

__all__ = ["LoveLetterEnv", "action_table", "encode", "env", "observation_size"]

_PHASES = tuple(Phase)


def observation_size(rules: Ruleset, players: int) -> int:
    """The length of :func:`encode`'s vector."""
    k = len(rules.deck(players).kinds)
    return 3 * k + players * (2 * k + 5) + 2 + len(_PHASES) + 5 * players + 2


def encode(obs: Observation) -> NDArray[np.float32]:
    """The observation as a flat vector (seats rotated: the observer first):

    own hand, unseen and face-up counts per card kind; per seat its discard counts, out,
    protected, spied, tokens, hand size and the counts of its cards the observer knows; the
    pile size and whether the set-aside card is there; the phase (one-hot); the seat to act,
    the pending seat, the Sycophant's mark and the Jester's bet (one-hot, relative)."""
    from loveformal.bots.worlds import unseen_cards

    kinds = obs.rules.deck(obs.players).kinds
    index = {c: i for i, c in enumerate(kinds)}
    k, n, me = len(kinds), obs.players, obs.seat
    v = np.zeros(observation_size(obs.rules, n), dtype=np.float32)

    def counts(at: int, cards: tuple[Card, ...] | list[Card]) -> None:
        for c in cards:
            v[at + index[c]] += 1

    counts(0, obs.hand)
    for c, m in unseen_cards(obs).items():
        v[k + index[c]] = m
    counts(2 * k, obs.face_up)
    at = 3 * k
    for j in range(n):
        s = (me + j) % n
        counts(at, obs.discards[s])
        v[at + k : at + k + 5] = (
            obs.out[s],
            obs.protected[s],
            obs.spied[s],
            obs.tokens[s],
            obs.hand_sizes[s],
        )
        counts(at + k + 5, obs.known[s])
        at += 2 * k + 5
    v[at] = obs.pile_size
    v[at + 1] = obs.set_aside_present
    at += 2
    v[at + _PHASES.index(obs.phase)] = 1
    at += len(_PHASES)
    for who in (
        obs.turn,
        obs.pending_seat,
        obs.sycophant,
        obs.jester[0] if obs.jester else None,
        obs.jester[1] if obs.jester else None,
    ):
        if who is not None:
            v[at + (who - me) % n] = 1
        at += n
    v[at] = float(obs.round)
    v[at + 1] = float(max(obs.tokens))
    return v


class LoveLetterEnv(AECEnv):  # type: ignore[misc]  # AECEnv is untyped (Any)
    """Love Letter as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "loveletter_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "classic",
        players: int = 2,
        *,
        rounds: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = make_ruleset(preset)
        if not isinstance(players, int) or isinstance(players, bool):
            raise MalformedInput(f"players: expected a whole number, got {echo(players)}")
        lo, hi = self.rules.min_players, self.rules.max_players
        if not lo <= players <= hi:
            raise MalformedInput(f"players: {preset} is played by {lo} to {hi}, got {players}")
        self.players = players
        self.rounds = rounds
        self.render_mode = render_mode
        self.actions = action_table(self.rules, players)
        self.action_ids: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = observation_size(self.rules, players)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1000.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self._rng = random.Random()
        self._state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_value(self) -> State:
        """The current engine state (for tools, not for agents)."""
        assert self._state is not None, "call reset() first"
        return self._state

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise MalformedInput(
                f"unknown agent {echo(agent)} (agents: {', '.join(self.possible_agents)})"
            )
        return self.possible_agents.index(agent)

    def _advance(self, state: State) -> State:
        while state.phase in CHANCE_PHASES:
            if state.round_over and self.rounds:
                break
            state = apply(state, sample_chance(state, self._rng))
        return state

    def _over(self, state: State) -> bool:
        return state.game_over or (self.rounds and state.round_over)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        starter = self._rng.randrange(self.players)
        self._state = self._advance(new_match(self.rules, self.players, starter=starter))
        self.agent_selection = self.possible_agents[current_player(self._state)]

    def _mask(self, state: State, seat: int) -> NDArray[np.int8]:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        if not self._over(state) and current_player(state) == seat:
            for a in legal_actions(state):
                mask[self.action_ids[a]] = 1
        return mask

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        state = self.state_value
        seat = self._seat(agent)
        return {
            "observation": encode(observation(state, seat)),
            "action_mask": self._mask(state, seat),
        }

    def step(self, action: int | None) -> None:
        if not hasattr(self, "agent_selection"):
            raise MalformedInput("step() before reset(): call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_value
        try:  # an integer (NumPy's too), never a float or a string read as one
            index = -1 if action is None else operator.index(action)
        except TypeError:
            index = -1
        if not 0 <= index < len(self.actions):
            raise MalformedInput(
                f"action {echo(action)} is not an action id (an integer 0..{len(self.actions) - 1})"
            )
        chosen = self.actions[index]
        if chosen not in legal_actions(state):
            raise MalformedInput(f"action {index} ({chosen}) is not legal now (see action_mask)")
        self._cumulative_rewards[agent] = 0.0
        state = self._advance(apply(state, chosen))
        self._state = state
        self.rewards = {a: 0.0 for a in self.agents}
        if self._over(state):
            winners = state.game_winners if state.game_over else state.round_winners
            for a in self.agents:
                self.rewards[a] = 1.0 if self._seat(a) in winners else -1.0
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[current_player(state)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._state is None:
            return None
        from loveformal.notation import format_position

        return format_position(self._state)

    def close(self) -> None:
        pass


def env(preset: str = "classic", players: int = 2, **kwargs: Any) -> LoveLetterEnv:
    """A new :class:`LoveLetterEnv`."""
    return LoveLetterEnv(preset, players, **kwargs)
