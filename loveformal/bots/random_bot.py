"""The uniformly random bot."""

from __future__ import annotations

import random
from collections.abc import Sequence

from loveformal.actions import Action
from loveformal.observation import Observation

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]
