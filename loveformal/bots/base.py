"""The bot protocol, and the one place where a bot is given what its seat may see."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from loveformal.actions import Action
from loveformal.engine import current_player, legal_actions
from loveformal.observation import Observation, observation
from loveformal.state import State

__all__ = ["Bot", "decide"]


@runtime_checkable
class Bot(Protocol):
    """A player. It receives only the observation of its seat and that seat's legal actions
    (never the :class:`~loveformal.state.State`), and returns one of ``legal``."""

    name: str

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action: ...


def decide(state: State, bot: Bot, rng: random.Random) -> Action:
    """The action ``bot`` takes for the seat to act in ``state`` (a decision node).

    The bot is shown :func:`~loveformal.observation.observation` of its seat and the legal
    actions, nothing else. An answer that is not legal raises :class:`ValueError`."""
    seat = current_player(state)
    if seat < 0:
        raise ValueError("no seat decides at a chance node or after the match")
    legal = legal_actions(state)
    action = bot.act(observation(state, seat), legal, rng)
    if action not in legal:
        raise ValueError(f"bot {bot.name!r} chose an illegal action: {action}")
    return action
