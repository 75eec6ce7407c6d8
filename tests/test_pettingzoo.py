"""The PettingZoo AEC environment."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo env needs the 'pettingzoo' extra")

from pettingzoo.test import api_test

from loveformal.engine import legal_actions, new_match
from loveformal.integrations.pettingzoo import action_table, env
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step
from loveformal.state import CHANCE_PHASES


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("z2019", 3), ("premium", 5)])
def test_api(preset: str, players: int) -> None:
    api_test(env(preset, players), num_cycles=200)


def test_api_single_rounds() -> None:
    api_test(env("classic", 4, rounds=True), num_cycles=100)


@pytest.mark.parametrize("preset", preset_names())
def test_action_table_covers_every_legal_decision(preset: str) -> None:
    rules = make_ruleset(preset)
    rng = random.Random(0)
    for players in range(rules.min_players, rules.max_players + 1):
        table = set(action_table(rules, players))
        assert len(table) == len(action_table(rules, players))
        state = new_match(rules, players)
        for _ in range(300):
            if state.game_over:
                break
            if state.phase not in CHANCE_PHASES:
                missing = [a for a in legal_actions(state) if a not in table]
                assert not missing, missing
            state, _ = random_step(state, rng)


def test_masks_and_rewards_in_a_random_episode() -> None:
    e = env("classic", 2)
    e.reset(seed=3)
    rng = random.Random(3)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        assert len(legal) > 0
        e.step(int(rng.choice(list(legal))))
    assert sorted(total.values()) == [-1.0, 1.0]
