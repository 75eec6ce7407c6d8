"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration draws a world consistent with the bot's observation
(:class:`~loveformal.bots.worlds.WorldSampler`: the set-aside card and every other unseen
card sampled, never read from the real state), then walks one shared tree with UCB1 using
*availability* counts (an action is a candidate only in the worlds where it is legal),
expands one node, finishes the round with uniformly random play driven by the engine, and
backs up each node's reward for the seat that chose it (1 for a round win, shared among
tied winners; a match ended by a bonus token counts for the match winners).

The tree branches on decisions only; chance outcomes and other seats' Chancellor returns
(hidden from the observer) are merged. Searches stop at the end of the current round.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from loveformal.actions import Action, ChancellorReturn
from loveformal.bots.worlds import WorldSampler
from loveformal.engine import apply, current_player, legal_actions
from loveformal.observation import Observation
from loveformal.sampling import sample_chance
from loveformal.state import CHANCE_PHASES, State

__all__ = ["DEFAULT_ITERATIONS", "ISMCTSBot", "round_rewards"]

DEFAULT_ITERATIONS = 200
MAX_ROLLOUT_STEPS = 10_000


class _Node:
    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        """The seat that chose the action leading here (rewards are from its side)."""
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def round_rewards(state: State) -> tuple[float, ...]:
    """Per seat: its share of the round's win (or of the match's, when a bonus token ended
    it before the round was decided)."""
    winners = state.round_winners or state.game_winners
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if i in winners else 0.0 for i in range(state.players))


def _key(action: Action, player: int, me: int) -> Hashable:
    if isinstance(action, ChancellorReturn) and player != me:
        return ("chancellor-return", player)  # the observer cannot tell them apart
    return action


def _settle_chance(state: State, rng: random.Random) -> State:
    while state.phase in CHANCE_PHASES and not state.round_over:
        state = apply(state, sample_chance(state, rng))
    return state


class ISMCTSBot:
    """ISMCTS with ``iterations`` sampled worlds per decision and exploration ``c``."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, c: float = 0.7) -> None:
        if iterations < 1:
            raise ValueError("ISMCTS needs at least one iteration")
        self.iterations = iterations
        self.c = c
        self.name = f"ismcts:{iterations}"

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        sampler = WorldSampler(obs)
        root = _Node(obs.seat)
        for _ in range(self.iterations):
            self._iterate(root, sampler.sample(rng), obs.seat, rng)
        best: Action = legal[0]
        best_visits = -1
        for a in legal:
            child = root.children.get(_key(a, obs.seat, obs.seat))
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = a, visits
        return best

    def _iterate(self, root: _Node, state: State, me: int, rng: random.Random) -> None:
        node = root
        path = [root]
        expanded = False
        while not expanded:
            state = _settle_chance(state, rng)
            if state.round_over:
                break
            player = current_player(state)
            actions = legal_actions(state)
            untried: list[tuple[Action, Hashable]] = []
            for a in actions:
                k = _key(a, player, me)
                child = node.children.get(k)
                if child is None:
                    untried.append((a, k))
                else:
                    child.avail += 1
            if untried:
                action, k = untried[rng.randrange(len(untried))]
                child = _Node(player)
                child.avail = 1
                node.children[k] = child
                expanded = True
            else:
                log_c = self.c
                best_score = -math.inf
                action = actions[0]
                child = node
                for a in actions:
                    ch = node.children[_key(a, player, me)]
                    score = ch.total / ch.visits + log_c * math.sqrt(
                        math.log(max(ch.avail, 1)) / ch.visits
                    )
                    if score > best_score:
                        best_score, action, child = score, a, ch
            state = apply(state, action)
            node = child
            path.append(node)
        steps = 0
        while not state.round_over and steps < MAX_ROLLOUT_STEPS:
            steps += 1
            if state.phase in CHANCE_PHASES:
                state = apply(state, sample_chance(state, rng))
            else:
                actions = legal_actions(state)
                state = apply(state, actions[rng.randrange(len(actions))])
        rewards = round_rewards(state)
        for n in path:
            n.visits += 1
            n.total += rewards[n.player]
