"""Resolving chance outside the rules: a seeded sampler and random play."""

from __future__ import annotations

import random

from loveformal.actions import DRAW_OF, Action, ChanceOutcome, Starter
from loveformal.engine import apply, legal_actions, next_draws
from loveformal.state import (
    CHANCE_PHASES,
    CHANCELLOR_DRAW,
    REDRAW,
    ROUND_OVER,
    TURN_DRAW,
    State,
)


def sample_chance(state: State, rng: random.Random) -> ChanceOutcome:
    """One outcome of the chance node ``state``, drawn with its exact probability.

    Each unseen card instance is equally likely (so a kind with ``k`` copies has weight ``k``).
    """
    if state.phase is ROUND_OVER:
        return Starter(state.next_starters[rng.randrange(len(state.next_starters))])
    top, unseen, bottom = state.pile
    if top:
        return DRAW_OF[top[0]]
    if unseen:
        return DRAW_OF[unseen[rng.randrange(len(unseen))]]
    return DRAW_OF[bottom[0]]


def random_step(state: State, rng: random.Random) -> tuple[State, Action]:
    """One step of uniformly random play (chance sampled with its probabilities)."""
    if state.phase in CHANCE_PHASES:
        action: Action = sample_chance(state, rng)
    else:
        actions = legal_actions(state)
        action = actions[rng.randrange(len(actions))]
    return apply(state, action), action


def settle(state: State, *, turn_draw: bool = False) -> State:
    """Apply every chance node whose outcome is certain (a draw from a known-order pile) —
    mid-effect redraws and the Chancellor's draws, and with ``turn_draw`` also the next turn's
    draw. Stops at a decision, an uncertain chance node, the end of a round or the match."""
    while state.phase in _SETTLED or (turn_draw and state.phase is TURN_DRAW):
        draws = next_draws(state.pile)
        if len(draws) != 1:
            break
        state = apply(state, DRAW_OF[draws[0][0]])
    return state


_SETTLED = frozenset({REDRAW, CHANCELLOR_DRAW})
