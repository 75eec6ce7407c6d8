"""Worlds sampled from an observation: consistent with it, and the set-aside card unknown
(anchors.md bug 1: TAG's determinisations kept the true removed card)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from scipy.stats import chisquare

from loveformal.actions import Play
from loveformal.bots import worlds
from loveformal.bots.worlds import WorldSampler, sample_world, unseen_cards
from loveformal.cards import Card
from loveformal.dealing import shuffled_deal
from loveformal.engine import apply, current_player, legal_actions, new_match
from loveformal.knowledge import fits, knowledge_table, knows_bottom, public_exclusions
from loveformal.notation import parse_position
from loveformal.observation import observation
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step, sample_chance
from loveformal.solver.endgame import returned_tail
from loveformal.state import Phase, State
from tests.bots.helpers import decision_states
from tests.support import pos


@pytest.mark.parametrize(
    ("preset", "players"), [("classic", 2), ("classic", 4), ("z2019", 3), ("premium", 6)]
)
def test_sampled_worlds_have_the_same_observation(preset: str, players: int) -> None:
    rng = random.Random(1)
    for s in decision_states(preset, players, games=4, seed=2)[:15]:
        seat = current_player(s)
        obs = observation(s, seat)
        for _ in range(3):
            w = sample_world(obs, rng)
            assert observation(w, seat).key == obs.key
            assert legal_actions(w) == legal_actions(s)  # the seat's own options are the same
            # card conservation: every card of the deck is in exactly one zone
            zones: Counter[Card] = Counter(w.pile.cards())
            zones.update(w.face_up)
            if w.set_aside is not None:
                zones[w.set_aside] += 1
            for seat_ in w.seats:
                zones.update(seat_.hand)
                zones.update(seat_.discards)
            assert zones == Counter(w.rules.deck(w.players).cards())


def test_set_aside_card_is_uniform_over_unseen_cards_not_the_true_one() -> None:
    """Bug 1 (anchors.md): the set-aside card must be sampled like any unseen card."""
    rules = make_ruleset("classic")
    state = shuffled_deal(new_match(rules, 2), random.Random(4))
    state = apply(state, sample_chance(state, random.Random(5)))  # P1 draws
    assert state.phase is Phase.PLAY
    obs = observation(state, 0)
    unseen = unseen_cards(obs)
    total = sum(unseen.values())
    sampler = WorldSampler(obs)
    rng = random.Random(6)
    n = 4000
    got: Counter[Card] = Counter()
    for _ in range(n):
        aside = sampler.sample(rng).set_aside
        assert aside is not None
        got[aside] += 1
    kinds = sorted(unseen, key=lambda c: c.index)
    observed = [got[c] for c in kinds]
    expected = [n * unseen[c] / total for c in kinds]
    assert set(got) <= set(unseen)
    assert chisquare(observed, expected).pvalue > 1e-3
    true = state.set_aside
    assert true is not None
    share = got[true] / n
    assert abs(share - unseen[true] / total) < 0.05  # not 100%: the truth is not used
    assert share < 0.9


def test_a_guard_miss_excludes_the_named_card_while_the_hand_is_unchanged() -> None:
    s = pos(
        hands={"P1": ("Guard", "Handmaid"), "P2": ("Baron",), "P3": ("Baron",)},
        turn="P1",
        deck=("Guard", "Priest", "Guard", "Guard"),
        set_aside="Prince",
    )
    s = apply(s, Play(Card.GUARD, target=2, guess=Card.PRIEST))  # misses P3
    s = apply(s, sample_chance(s, random.Random(0)))  # P2 draws
    obs = observation(s, 1)
    assert unseen_cards(obs)[Card.PRIEST] >= 1
    rng = random.Random(9)
    holds = Counter(sample_world(obs, rng).seats[2].hand[0] for _ in range(300))
    assert Card.PRIEST not in holds
    # P1 (the Guard's player) has the same information.
    assert Card.PRIEST in Counter(
        sample_world(observation(s, 0), rng).seats[1].hand[0] for _ in range(300)
    )


def _states_with_returns_in_the_pile(games: int, seed: int) -> list[State]:
    """2019 two-player decision states with a Chancellor's returns still in the pile."""
    rng = random.Random(seed)
    out: list[State] = []
    for _ in range(games):
        s = new_match(make_ruleset("z2019"), 2)
        while not s.round_over:
            s, _ = random_step(s, rng)
            if s.phase is Phase.PLAY and returned_tail(s)[0]:
                out.append(s)
    return out


def test_worlds_deal_the_other_seats_returns_into_their_places() -> None:
    """A world keeps every return in its place at the bottom, with its seat: the sampled
    seat's own known, another seat's dealt and seen by that seat alone."""
    rng = random.Random(4)
    kinds = Counter[str]()
    for s in _states_with_returns_in_the_pile(games=300, seed=8):
        seat = current_player(s)
        obs = observation(s, seat)
        cards, owners = returned_tail(s)
        w = sample_world(obs, rng)
        assert observation(w, seat).key == obs.key
        w_cards, w_owners = returned_tail(w)
        assert w_owners == owners
        assert [c for c, o in zip(w_cards, owners, strict=True) if o == seat] == [
            c for c, o in zip(cards, owners, strict=True) if o == seat
        ]
        other = 1 - seat
        assert len(knows_bottom(w, other) or ()) == len(knows_bottom(s, other) or ())
        # The seat knows in the world what it knows in the state (the pile replays alike),
        # and what it knows there is held.
        known = knowledge_table(w, seat)
        assert known == knowledge_table(s, seat)
        assert all(not Counter(c) - Counter(w.seats[i].hand) for i, c in known.items())
        kinds[("own" if seat in owners else "") + ("other" if other in owners else "")] += 1
    assert kinds["other"] and kinds["ownother"] and kinds["own"]  # every case was met


def _unfit_worlds(preset: str, players: int, seed: int) -> tuple[int, int]:
    """(worlds sampled, worlds that break what the public events rule out) over seeded
    decision states with something ruled out of another seat's hand."""
    rng = random.Random(seed)
    sampled = unfit = 0
    for s in decision_states(preset, players, games=30, seed=seed):
        seat = current_player(s)
        ruled_out = {i: x for i, x in public_exclusions(s).items() if i != seat}
        if not ruled_out:
            continue
        # Every other seat holds one card when a seat decides (the sampler's weights rely on
        # it: a one-card hand that breaks no constraint is a plain rejection sample).
        assert all(len(s.seats[i].hand) <= 1 for i in range(players) if i != seat)
        sampler = WorldSampler(observation(s, seat))
        for _ in range(20):
            w = sampler.sample(rng)
            sampled += 1
            unfit += not all(fits(w.seats[i].hand, x) for i, x in ruled_out.items())
    return sampled, unfit


@pytest.mark.parametrize(("preset", "players"), [("classic", 3), ("premium", 4), ("z2019", 2)])
def test_worlds_fit_what_the_public_events_rule_out(preset: str, players: int) -> None:
    """A Guard's or Bishop's miss, the Countess rule and a Baron's knock-out hold in every
    sampled world, as in the state it was sampled from (knowledge.public_exclusions)."""
    sampled, unfit = _unfit_worlds(preset, players, 31)
    assert sampled >= 100
    assert unfit == 0


def test_the_fit_check_catches_worlds_blind_to_the_public_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Planted bug: the sampler rules nothing out."""
    monkeypatch.setattr(worlds, "_exclusions", lambda obs: {})
    assert _unfit_worlds("classic", 3, 31)[1] > 0


# Classic, two players, no log: P2's last play was a Prince (no Prince under it), so it kept
# no Countess (R4), and P1's observation says so from the discard piles alone.
_PRINCE_ON_TOP = (
    "classic 2p | P1 Guard,King d:Priest,Baron t0 | P2 Handmaid d:Guard,Prince t0 | "
    "deck Baron,Handmaid,Prince,Countess,Princess | aside Guard | up Guard,Guard,Priest | "
    "play P1"
)


def _countess_worlds(seed: int) -> int:
    s = parse_position(_PRINCE_ON_TOP)
    assert not s.log and public_exclusions(s) == {1: (frozenset({Card.COUNTESS}),)}
    obs = observation(s, 0)
    assert not obs.events
    rng = random.Random(seed)
    sampler = WorldSampler(obs)
    return sum(sampler.sample(rng).seats[1].hand == (Card.COUNTESS,) for _ in range(400))


def test_worlds_of_a_position_without_its_log_fit_its_discard_piles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a log, a sampled world fits what the discard piles alone rule out
    (knowledge.exclusions_from_view, as the solver's deals); planted bug: reading the (empty)
    events only, the Countess comes back in about one world in ten."""
    assert _countess_worlds(5) == 0
    assert worlds.excluded_cards(observation(parse_position(_PRINCE_ON_TOP), 0)) == {
        1: frozenset({Card.COUNTESS})
    }
    from loveformal.knowledge import exclusions_from_events

    def events_only(
        rules: Any, events: Any, phase: Any, turn: Any, discards: Any, out: Any, sizes: Any
    ) -> Any:
        return exclusions_from_events(rules, events, out, sizes)

    monkeypatch.setattr(worlds, "exclusions_from_view", events_only)
    assert _countess_worlds(5) > 10
