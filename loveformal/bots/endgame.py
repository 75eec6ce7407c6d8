"""A bot that plays the exact two-player endgame equilibrium late in a round.

:class:`EndgameBot` acts when its observation shows a two-player game with both seats still
in the round and at most ``max_cards`` cards in the draw pile. It then builds one world
consistent with its observation (:func:`~loveformal.bots.worlds.sample_world`) and solves
it with :func:`~loveformal.solver.analysis.solve_position` (sequence-form LP, exact
certificate). The solver re-deals every unseen card at its root from public information and
the seats' knowledge recorded in the log, so the answer does not depend on which world was
sampled. The bot then draws one of the equilibrium actions for its actual hand according to
their probabilities.

Approximation: the sampled world's log is the observation's events, so private knowledge
that the observing seat cannot see (for example what the opponent learned with a Priest
about a third card, or events hidden from this seat) is not carried into the solve and is
treated as unknown to whoever holds it.

In every other case — more cards in the pile, a game of three or more players, a position
the solver refuses (too many histories, a pending draw, not this seat's decision, ...) —
the ``fallback`` bot decides.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from loveformal.actions import Action
from loveformal.bots.base import Bot
from loveformal.bots.heuristic import HeuristicBot
from loveformal.bots.worlds import sample_world
from loveformal.errors import LoveformalError
from loveformal.observation import Observation
from loveformal.solver.analysis import solve_position
from loveformal.state import CHANCE_PHASES

__all__ = ["DEFAULT_MAX_CARDS", "DEFAULT_MAX_NODES", "EndgameBot", "endgame_choices"]

DEFAULT_MAX_CARDS = 2
DEFAULT_MAX_NODES = 200_000


def applies(obs: Observation, max_cards: int) -> bool:
    """Whether the observation is a two-player endgame small enough to try the solver."""
    return (
        obs.players == 2
        and sum(1 for out in obs.out if not out) == 2
        and obs.pile_size <= max_cards
        and obs.phase not in CHANCE_PHASES
    )


def endgame_choices(
    obs: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> list[tuple[Action, float]] | None:
    """The equilibrium actions (among ``legal``) with their probabilities for the observing
    seat, or None when the solver cannot answer (it raised, or gave no action table)."""
    try:
        world = sample_world(obs, rng)
        result = solve_position(world, seat=obs.seat, max_nodes=max_nodes, pimc=False)
    except (LoveformalError, ValueError):
        return None
    out: list[tuple[Action, float]] = []
    for a in result.actions:
        if a.probability > 0 and a.action in legal:
            out.append((legal[legal.index(a.action)], a.probability))
    return out or None


class EndgameBot:
    """Exact equilibrium play in small two-player endgames (see the module docstring)."""

    def __init__(
        self,
        max_cards: int = DEFAULT_MAX_CARDS,
        max_nodes: int = DEFAULT_MAX_NODES,
        fallback: Bot | None = None,
    ) -> None:
        if max_cards < 0:
            raise ValueError("max_cards must be >= 0")
        self.max_cards = max_cards
        self.max_nodes = max_nodes
        self.fallback: Bot = fallback if fallback is not None else HeuristicBot()
        self.name = "endgame" if max_cards == DEFAULT_MAX_CARDS else f"endgame:{max_cards}"
        self.solved = 0
        """How many decisions were taken by the solver (the rest went to the fallback)."""

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        if applies(obs, self.max_cards):
            choices = endgame_choices(obs, legal, rng, max_nodes=self.max_nodes)
            if choices is not None:
                self.solved += 1
                r = rng.random() * sum(p for _, p in choices)
                for action, p in choices:
                    r -= p
                    if r < 0:
                        return action
                return choices[-1][0]
        return self.fallback.act(obs, legal, rng)
