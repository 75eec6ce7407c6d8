"""Bots: legality, blindness (a bot never sees what its seat cannot), heuristic behaviour."""

from __future__ import annotations

import inspect
import random
from collections.abc import Sequence

import pytest

from loveformal.actions import Action, Play
from loveformal.bots import make_bot
from loveformal.bots.base import decide
from loveformal.bots.heuristic import HeuristicBot, exposed
from loveformal.bots.ismcts import ISMCTSBot
from loveformal.bots.random_bot import RandomBot
from loveformal.bots.worlds import excluded_cards, unseen_cards
from loveformal.cards import Card
from loveformal.engine import apply, current_player
from loveformal.errors import MalformedInput
from loveformal.observation import Observation, observation
from loveformal.sampling import sample_chance
from loveformal.state import CHANCE_PHASES, State
from tests.bots.helpers import LeakError, assert_blind, decision_states, twin
from tests.support import pos

BOTS = [RandomBot(), HeuristicBot(), ISMCTSBot(12)]


class PeekingBot:
    """A planted leak: plays like the heuristic, but reads the set-aside card from the
    caller's frame (a hidden channel) and lets it change its choice."""

    name = "peeking"

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        frame = inspect.currentframe()
        state = frame.f_back.f_locals.get("state") if frame and frame.f_back else None
        if isinstance(state, State) and state.set_aside is not None:
            return legal[state.set_aside.index % len(legal)]
        return HeuristicBot().act(obs, legal, rng)


def _pair() -> tuple[State, State]:
    face_up = ("Handmaid", "Priest", "Baron")
    a = pos(
        hands={"P1": ("Guard", "Baron"), "P2": ("King",)},
        deck=("Guard", "Guard", "Prince"),
        set_aside="Princess",
        turn="P1",
        face_up=face_up,
    )
    b = pos(
        hands={"P1": ("Guard", "Baron"), "P2": ("Prince",)},
        deck=("Prince", "Guard", "Guard"),
        set_aside="King",
        turn="P1",
        face_up=face_up,
    )
    return a, b


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_bots_are_blind_on_a_built_pair(bot: RandomBot) -> None:
    a, b = _pair()
    assert_blind(bot, a, b)


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("z2019", 3), ("premium", 5)])
def test_bots_are_blind_in_played_positions(bot: RandomBot, preset: str, players: int) -> None:
    rng = random.Random(7)
    states = decision_states(preset, players, games=3, seed=11)[:10]
    assert states
    for s in states:
        assert_blind(bot, s, twin(s, rng), seeds=range(2))


def test_a_planted_leak_is_caught() -> None:
    a, b = _pair()
    with pytest.raises(LeakError):
        assert_blind(PeekingBot(), a, b)


@pytest.mark.parametrize("name", ["random", "heuristic", "ismcts:8"])
@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("z2019", 2), ("premium", 6)])
def test_bots_play_legal_moves_to_the_end_of_a_round(name: str, preset: str, players: int) -> None:
    from loveformal.engine import new_match
    from loveformal.rulebook import make_ruleset

    bot = make_bot(name)
    rng = random.Random(3)
    state = new_match(make_ruleset(preset), players)
    while not state.round_over:
        if state.phase in CHANCE_PHASES:
            state = apply(state, sample_chance(state, rng))
        else:
            state = apply(state, decide(state, bot, rng))  # decide checks legality


def test_registry() -> None:
    assert make_bot("ismcts:5").name == "ismcts:5"
    assert make_bot("Heuristic").name == "heuristic"
    for bad in ("nobody", "ismcts:0", "random:3"):
        with pytest.raises(MalformedInput):
            make_bot(bad)


def _choice(state: State) -> Action:
    return decide(state, HeuristicBot(), random.Random(0))


def test_heuristic_never_plays_the_princess_when_it_can_avoid_it() -> None:
    s = pos(hands={"P1": ("Princess", "Guard"), "P2": ("King",)}, turn="P1", deck=("Guard",))
    assert isinstance(a := _choice(s), Play) and a.card is Card.GUARD


def test_heuristic_guesses_the_card_it_knows() -> None:
    # P1 sees P2's Countess with the Priest; P2 plays a Guard (missing); P1 then guards it.
    s = pos(
        hands={"P1": ("Priest", "Handmaid"), "P2": ("Countess",)},
        turn="P1",
        deck=("Guard", "Guard", "Baron", "Baron"),
        set_aside="Princess",
    )
    s = apply(s, Play(Card.PRIEST, target=1))
    s = apply(s, sample_chance(s, random.Random(0)))  # P2 draws a Guard
    s = apply(s, Play(Card.GUARD, target=0, guess=Card.PRIEST))
    s = apply(s, sample_chance(s, random.Random(0)))  # P1 draws a Guard
    assert observation(s, 0).known[1] == (Card.COUNTESS,)
    assert _choice(s) == Play(Card.GUARD, target=1, guess=Card.COUNTESS)


def test_heuristic_barons_when_its_card_is_higher() -> None:
    s = pos(
        hands={"P1": ("Priest", "Baron"), "P2": ("Guard",)},
        turn="P1",
        deck=("Priest", "Handmaid", "Guard"),
        set_aside="Princess",
    )
    s = apply(s, Play(Card.PRIEST, target=1))  # P1 sees the Guard
    s = apply(s, sample_chance(s, random.Random(0)))  # P2 draws a Priest
    s = apply(s, Play(Card.PRIEST, target=0))  # P2 sees the Baron, keeps its Guard
    s = apply(s, sample_chance(s, random.Random(0)))  # P1: Baron + Handmaid
    assert observation(s, 0).known[1] == (Card.GUARD,)
    assert _choice(s) == Play(Card.BARON, target=1)


def test_heuristic_never_guesses_an_impossible_card() -> None:
    states = decision_states("classic", 3, games=20, seed=5)
    checked = 0
    for s in states:
        seat = current_player(s)
        obs = observation(s, seat)
        a = _choice(s)
        if isinstance(a, Play) and a.card is Card.GUARD and a.target is not None:
            assert isinstance(a.guess, Card)
            unseen = unseen_cards(obs)
            bad = excluded_cards(obs).get(a.target, frozenset())
            possible = [c for c, n in unseen.items() if n and c not in bad]
            known = obs.known[a.target]
            if known:
                assert a.guess in known
            elif [c for c in possible if c is not Card.GUARD]:
                assert a.guess in possible, (a, unseen)
            checked += 1
    assert checked >= 3


def test_heuristic_prefers_the_handmaid_when_its_card_is_known() -> None:
    s = pos(
        hands={"P1": ("Guard", "Handmaid"), "P2": ("Priest",)},
        turn="P1",
        deck=("Countess", "King", "Guard"),
        set_aside="Baron",
    )
    s = apply(s, Play(Card.GUARD, target=1, guess=Card.BARON))  # misses
    s = apply(s, sample_chance(s, random.Random(0)))  # P2 draws the Countess
    s = apply(s, Play(Card.PRIEST, target=0))  # P2 sees P1's Handmaid
    s = apply(s, sample_chance(s, random.Random(0)))  # P1: Handmaid + King
    assert exposed(observation(s, 0))
    assert _choice(s) == Play(Card.HANDMAID)
    fresh = pos(hands={"P1": ("Handmaid", "King"), "P2": ("Countess",)}, turn="P1", deck=("Guard",))
    assert not exposed(observation(fresh, 0))
