"""Test helpers for bots: equal-observation twins and the "a bot never sees what its seat
cannot" check."""

from __future__ import annotations

import random
from collections.abc import Iterable

from loveformal.bots.base import Bot, decide
from loveformal.bots.worlds import sample_world
from loveformal.engine import current_player, is_terminal, new_match
from loveformal.observation import observation
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step
from loveformal.state import CHANCE_PHASES, State


class LeakError(AssertionError):
    """A bot acted differently on two states its seat cannot tell apart."""


def assert_blind(bot: Bot, a: State, b: State, seeds: Iterable[int] = range(4)) -> None:
    """``a`` and ``b`` must have equal observation keys for the seat to act; ``bot`` must then
    act identically on both under every seed (it is called through the normal driver,
    :func:`loveformal.bots.base.decide`, so a bot reading a hidden channel is exposed)."""
    seat = current_player(a)
    assert seat >= 0 and current_player(b) == seat
    assert observation(a, seat).key == observation(b, seat).key, "not an equal-observation pair"
    for seed in seeds:
        x = decide(a, bot, random.Random(seed))
        y = decide(b, bot, random.Random(seed))
        if x != y:
            raise LeakError(f"{bot.name}: {x} on one state, {y} on its twin (seed {seed})")


def decision_states(preset: str, players: int, games: int, seed: int) -> list[State]:
    """Decision states met in random play (a few per game)."""
    rng = random.Random(seed)
    out: list[State] = []
    for _ in range(games):
        state = new_match(make_ruleset(preset), players, starter=rng.randrange(players))
        steps = 0
        while not is_terminal(state) and state.round < 2 and steps < 400:
            steps += 1
            if state.phase not in CHANCE_PHASES and rng.random() < 0.3:
                out.append(state)
            state, _ = random_step(state, rng)
    return out


def twin(state: State, rng: random.Random) -> State:
    """A state the seat to act cannot tell from ``state`` (hidden cards redealt)."""
    return sample_world(observation(state, current_player(state)), rng)
