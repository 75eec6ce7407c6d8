"""Resolving chance outside the rules: a seeded sampler and random play."""

from __future__ import annotations

import random

from loveformal.actions import Action, ChanceOutcome, Draw, Starter
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
    pile = state.pile
    if pile.top:
        return Draw(pile.top[0])
    if pile.unseen:
        return Draw(pile.unseen[rng.randrange(len(pile.unseen))])
    draws = next_draws(pile)
    return Draw(draws[0][0])


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
        state = apply(state, Draw(draws[0][0]))
    return state


_SETTLED = frozenset({REDRAW, CHANCELLOR_DRAW})
