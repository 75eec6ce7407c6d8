"""The exact endgame bot: legal play late in two-player rounds, forced wins, blindness,
fallback, the registry and ``simulate``."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from typer.testing import CliRunner

from loveformal.actions import Action, Play
from loveformal.bots.base import decide
from loveformal.bots.endgame import EndgameBot
from loveformal.bots.heuristic import HeuristicBot
from loveformal.bots.registry import make_bot
from loveformal.cards import Card
from loveformal.cli import app
from loveformal.engine import apply, current_player, new_match
from loveformal.errors import MalformedInput
from loveformal.observation import Observation
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step, settle
from loveformal.state import CHANCE_PHASES, State
from tests.bots.helpers import assert_blind, twin
from tests.support import play, pos


class CountingBot:
    """A fallback that records how often it was asked."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls += 1
        return HeuristicBot().act(obs, legal, rng)


def late_states(preset: str, games: int, seed: int, max_pile: int = 2) -> list[State]:
    """Two-player decision states with both seats in and at most ``max_pile`` cards left."""
    rng = random.Random(seed)
    out: list[State] = []
    for _ in range(games):
        state = new_match(make_ruleset(preset), 2, starter=rng.randrange(2))
        while not state.round_over:
            if (
                state.phase not in CHANCE_PHASES
                and state.pile.size <= max_pile
                and not any(s.out for s in state.seats)
            ):
                out.append(state)
            state, _ = random_step(state, rng)
    return out


@pytest.mark.parametrize("preset", ["classic", "z2019"])
def test_legal_moves_in_late_two_player_rounds(preset: str) -> None:
    states = late_states(preset, games=30, seed=5)
    assert len(states) >= 10
    bot = EndgameBot()
    rng = random.Random(1)
    for s in states:
        decide(s, bot, rng)  # raises on an illegal action
    assert bot.solved >= len(states) // 2  # most of them went through the solver


def _known_princess(mine: str) -> State:
    """Classic, two players: P1 saw P2's Princess with a Priest, P2 missed with a Guard, P1
    drew the last card. P1 holds ``mine`` + Prince, the pile is empty."""
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ("Priest", mine), "P2": ("Princess",)},
        deck=("Guard", "Prince"),
        set_aside="Countess",
        face_up=("Guard", "Guard", "Handmaid"),
        discards={  # piles that fit alternating turns (P2's Prince made P1 discard once)
            "P1": ("Guard", "Guard" if mine != "Guard" else "Baron", "King", "Handmaid"),
            "P2": ("Priest", "Prince", "Baron"),
        },
    )
    s = play(s, "Priest", "P2")
    s = play(s, "Guard", "P1", guess="King")
    s = settle(s, turn_draw=True)
    assert current_player(s) == 0 and s.pile.size == 0
    assert sorted(c.title for c in s.seats[0].hand) == sorted([mine, "Prince"])
    return s


def test_plays_the_only_winning_move() -> None:
    s = _known_princess("Baron")  # Baron loses to the Princess: only Prince on P2 wins
    bot = EndgameBot(fallback=CountingBot())
    for seed in range(5):
        action = decide(s, bot, random.Random(seed))
        assert action == Play(Card.PRINCE, target=1)
        assert apply(s, action).round_winners == (0,)
    assert bot.solved == 5


def test_plays_a_winning_move_with_guard_and_prince() -> None:
    s = _known_princess("Guard")  # Prince on P2, or Guard naming the Princess
    for seed in range(5):
        action = decide(s, EndgameBot(), random.Random(seed))
        assert isinstance(action, Play) and action.target == 1
        assert action.card is Card.PRINCE or action.guess is Card.PRINCESS
        assert settle(apply(s, action)).round_winners == (0,)


def test_blind() -> None:
    bot = EndgameBot()
    rng = random.Random(3)
    for preset in ("classic", "z2019"):
        for s in late_states(preset, games=3, seed=9)[:6]:
            assert_blind(bot, s, twin(s, rng), seeds=range(2))
    s = _known_princess("Baron")
    assert_blind(bot, s, twin(s, rng), seeds=range(2))


def test_falls_back_with_three_players() -> None:
    fallback = CountingBot()
    bot = EndgameBot(fallback=fallback)
    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ("Guard", "Baron"), "P2": ("Priest",), "P3": ("King",)},
        deck=("Guard",),
        set_aside="Princess",
        discards={
            "P1": ("Guard", "Guard", "Handmaid"),
            "P2": ("Guard", "Priest", "Prince"),
            "P3": ("Handmaid", "Baron", "Prince", "Countess"),
        },
    )
    decide(s, bot, random.Random(0))
    assert fallback.calls == 1 and bot.solved == 0


def test_falls_back_early_in_the_round() -> None:
    fallback = CountingBot()
    bot = EndgameBot(fallback=fallback)
    s = new_match(make_ruleset("classic"), 2, starter=0)
    rng = random.Random(0)
    while s.phase in CHANCE_PHASES:
        s, _ = random_step(s, rng)
    decide(s, bot, rng)
    assert fallback.calls == 1 and bot.solved == 0


def test_registry() -> None:
    assert make_bot("endgame").name == "endgame"
    bot = make_bot("Endgame:3")
    assert isinstance(bot, EndgameBot) and bot.max_cards == 3 and bot.name == "endgame:3"
    with pytest.raises(MalformedInput):
        make_bot("endgame:x")


def test_simulate_runs() -> None:
    result = CliRunner().invoke(app, ["simulate", "--bots", "endgame,random", "--games", "5"])
    assert result.exit_code == 0, result.output


def test_play_hint_uses_the_solver_late_and_the_heuristic_early() -> None:
    from loveformal.engine import legal_actions
    from loveformal.observation import observation
    from loveformal.play import _hint

    s = _known_princess("Baron")
    hint, source = _hint(observation(s, 0), legal_actions(s))
    assert (hint, source) == (Play(Card.PRINCE, target=1), "exact endgame solver")
    early = new_match(make_ruleset("classic"), 2, starter=0)
    rng = random.Random(0)
    while early.phase in CHANCE_PHASES:
        early, _ = random_step(early, rng)
    legal = legal_actions(early)
    hint, source = _hint(observation(early, current_player(early)), legal)
    assert source == "heuristic" and hint in legal
