"""Generic conformance of every preset at every player count.

Seeded random playouts of whole matches check every invariant of
:mod:`loveformal.testing.invariants` at every step; then the round set-up (deal sizes, rules.md
§1), exact chance probabilities, absorbing terminal states, the match ending exactly at the
threshold (R15, rules.md §8) and the next round's starter (the round winner, or one of the
tied winners: rules.md §1.2, §1.3, §8).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from loveformal.actions import Action, Draw, Play, Starter
from loveformal.engine import (
    TERMINAL,
    apply,
    chance_outcomes,
    current_player,
    deal_in_order,
    is_terminal,
    legal_actions,
    new_match,
)
from loveformal.errors import IllegalAction, LoveformalError, MalformedInput
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step
from loveformal.state import DrawPile, Phase, Seat, State
from loveformal.testing.invariants import (
    check_state,
    check_transition,
    snapshot,
    terminal_absorbing,
    threshold,
)

CONFIGS: tuple[tuple[str, int], ...] = tuple(
    (preset, n)
    for preset in preset_names()
    for n in range(make_ruleset(preset).min_players, make_ruleset(preset).max_players + 1)
)
SEEDS = (1, 2, 3)
MAX_STEPS = 20_000


def _id(config: tuple[str, int]) -> str:
    return f"{config[0]}-{config[1]}p"


@dataclass
class Playout:
    """What one seeded match went through."""

    final: State
    steps: int
    dealt: list[State] = field(default_factory=list)
    """The state right after each round's deal (its first TURN_DRAW)."""
    round_ends: list[State] = field(default_factory=list)
    """Each ROUND_OVER state."""
    starts: list[tuple[State, Starter, State]] = field(default_factory=list)
    """Each ``Starter`` outcome with the states before and after."""
    before_end: State | None = None
    """The state just before GAME_OVER."""


_CACHE: dict[tuple[str, int, int], Playout] = {}


def playout(preset: str, players: int, seed: int) -> Playout:
    """A whole seeded random match, every step checked with ``check_transition``."""
    key = (preset, players, seed)
    if key in _CACHE:
        return _CACHE[key]
    rng = random.Random(seed)
    state = new_match(make_ruleset(preset), players, starter=seed % players)
    assert check_state(state) == []
    result = Playout(final=state, steps=0)
    for step in range(MAX_STEPS):
        if state.phase is Phase.GAME_OVER:
            break
        before_copy = snapshot(state)
        after, action = random_step(state, rng)
        violations = check_transition(state, action, after, before_copy=before_copy)
        assert violations == [], f"step {step}: {state.phase.value} --{action}--> {violations}"
        if state.phase is Phase.DEAL and after.phase is Phase.TURN_DRAW:
            result.dealt.append(after)
        if after.phase is Phase.ROUND_OVER:
            result.round_ends.append(after)
        if isinstance(action, Starter):
            result.starts.append((state, action, after))
        if after.phase is Phase.GAME_OVER:
            result.before_end = state
        state = after
    else:
        pytest.fail(f"{preset} {players}p seed {seed}: no match end in {MAX_STEPS} steps")
    result.final = state
    result.steps = step
    _CACHE[key] = result
    return result


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_every_invariant(config: tuple[str, int], seed: int) -> None:
    preset, players = config
    result = playout(preset, players, seed)
    assert result.final.phase is Phase.GAME_OVER
    assert result.dealt, "no round was dealt"
    assert len(result.dealt) == len(result.round_ends) + 1  # the last round ends the match


# --------------------------------------------------------------------------- the deal

DECK_AFTER_DEAL: dict[tuple[str, int], int] = {
    # rules.md §1.2 (classic), §1.3 (premium 5–8p), §1.4 (z2019)
    ("classic", 2): 10,
    ("classic", 3): 12,
    ("classic", 4): 11,
    ("premium", 2): 10,
    ("premium", 3): 12,
    ("premium", 4): 11,
    ("premium", 5): 26,
    ("premium", 6): 25,
    ("premium", 7): 24,
    ("premium", 8): 23,
    ("z2019", 2): 15,
    ("z2019", 3): 17,
    ("z2019", 4): 16,
    ("z2019", 5): 15,
    ("z2019", 6): 14,
}


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_deal_sizes(config: tuple[str, int]) -> None:
    preset, players = config
    rules = make_ruleset(preset)
    face_up = rules.options.two_player_face_up if players == 2 else 0
    expected = rules.deck(players).size - 1 - face_up - players
    if config in DECK_AFTER_DEAL:
        assert expected == DECK_AFTER_DEAL[config]
    for seed in SEEDS:
        for dealt in playout(preset, players, seed).dealt:
            assert dealt.pile.size == expected
            assert dealt.set_aside is not None
            assert len(dealt.face_up) == face_up
            assert all(len(s.hand) == 1 and not s.discards for s in dealt.seats)
            assert not any(s.out or s.protected or s.spied for s in dealt.seats)
            assert dealt.turn == dealt.starter
            assert dealt.phase is Phase.TURN_DRAW


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_first_deal_probabilities_are_exact(config: tuple[str, int]) -> None:
    preset, players = config
    rules = make_ruleset(preset)
    state = new_match(rules, players)
    deck = rules.deck(players)
    outcomes = dict(chance_outcomes(state))
    assert outcomes == {Draw(c): Fraction(n, deck.size) for c, n in deck.counts}
    assert sum(outcomes.values()) == 1
    assert all(isinstance(p, Fraction) for p in outcomes.values())
    assert set(legal_actions(state)) == set(outcomes)
    # After one Guard is set aside, the next card's odds follow the remaining copies.
    after = apply(state, Draw(deck.kinds[0]))
    remaining = Counter(deck.cards())
    remaining[deck.kinds[0]] -= 1
    total = deck.size - 1
    assert dict(chance_outcomes(after)) == {
        Draw(c): Fraction(n, total) for c, n in remaining.items() if n
    }


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_first_round_starter_is_a_parameter(config: tuple[str, int]) -> None:
    preset, players = config
    rules = make_ruleset(preset)
    rng = random.Random(7)
    for starter in range(players):
        state = new_match(rules, players, starter=starter)
        while state.phase is Phase.DEAL:
            state, _ = random_step(state, rng)
        assert state.phase is Phase.TURN_DRAW
        assert state.turn == starter == state.starter
    with pytest.raises(MalformedInput):
        new_match(rules, players, starter=players)


def test_unsupported_player_counts_are_rejected() -> None:
    for preset in preset_names():
        rules = make_ruleset(preset)
        for n in (rules.min_players - 1, rules.max_players + 1):
            with pytest.raises(MalformedInput):
                new_match(rules, n)


# --------------------------------------------------------------------------- match end

THRESHOLDS: dict[str, dict[int, int]] = {
    # rules.md §8, tokens_to_win
    "classic": {2: 7, 3: 5, 4: 4},
    "premium": {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4},
    "z2019": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
    "z2019-classic": {2: 6, 3: 5, 4: 4},
    "bga-help": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3, 7: 3, 8: 3},
    "cn-wiki": {2: 7, 3: 5, 4: 4, 5: 4, 6: 3, 7: 3, 8: 3},
}


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_match_ends_exactly_at_the_threshold(config: tuple[str, int]) -> None:
    preset, players = config
    goal = THRESHOLDS[preset][players]
    for seed in SEEDS:
        result = playout(preset, players, seed)
        final = result.final
        assert threshold(final) == goal
        tokens = [s.tokens for s in final.seats]
        assert max(tokens) >= goal
        assert final.game_winners
        assert all(tokens[w] >= goal for w in final.game_winners)
        if final.rules.options.simultaneous_win == "all_win":
            assert set(final.game_winners) == {i for i, t in enumerate(tokens) if t >= goal}
        else:
            assert len(final.game_winners) == 1
        # Every earlier state of the match had every seat below the threshold.
        assert result.before_end is not None
        assert all(s.tokens < goal for s in result.before_end.seats)
        for ended in result.round_ends:
            assert all(s.tokens < goal for s in ended.seats)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_terminal_state_is_absorbing(config: tuple[str, int]) -> None:
    preset, players = config
    final = playout(preset, players, SEEDS[0]).final
    assert terminal_absorbing(final) == []
    assert legal_actions(final) == ()
    assert chance_outcomes(final) == ()
    assert current_player(final) == TERMINAL
    probes: list[Action] = [Draw(c) for c in final.rules.deck(players).kinds]
    probes += [Starter(i) for i in range(players)]
    probes += [Play(c) for c in final.rules.deck(players).kinds]
    for probe in probes:
        with pytest.raises(LoveformalError):
            apply(final, probe)


# --------------------------------------------------------------------------- next round


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_next_round_starter_is_the_round_winner(config: tuple[str, int]) -> None:
    preset, players = config
    seen = 0
    for seed in SEEDS:
        result = playout(preset, players, seed)
        for ended in result.round_ends:
            winners = ended.round_winners
            residual_nobody = ended.rules.options.residual_tie == "nobody"
            if winners:
                assert set(ended.next_starters) == set(winners)
            else:
                assert residual_nobody, "a round without winners needs residual_tie = nobody"
                assert len(ended.next_starters) >= 2
            for w in winners:
                assert not ended.seats[w].out
            probs = dict(chance_outcomes(ended))
            k = len(ended.next_starters)
            assert probs == {Starter(s): Fraction(1, k) for s in ended.next_starters}
        for before, action, after in result.starts:
            assert action.seat in before.next_starters
            assert after.phase is Phase.DEAL
            assert after.starter == action.seat == after.turn
            assert after.round == before.round + 1
            assert [s.tokens for s in after.seats] == [s.tokens for s in before.seats]
            assert all(not s.hand and not s.discards and not s.out for s in after.seats)
            seen += 1
    assert seen or all(len(playout(preset, players, s).round_ends) == 0 for s in SEEDS)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_deal_in_order_is_the_composition_of_the_deal_chance_outcomes(
    config: tuple[str, int],
) -> None:
    """:func:`deal_in_order` (used by seeded play and scenario deals) gives exactly the state
    that applying each dealt card's chance outcome in turn gives, with the rest of the pile in
    the order chosen — at a new match and after a round has ended."""
    preset, players = config
    rng = random.Random(7)
    state = new_match(make_ruleset(preset), players, starter=players - 1)
    for _ in range(3):
        order = list(state.pile.cards())
        rng.shuffle(order)
        stepwise = state
        dealt = 1 + (make_ruleset(preset).options.two_player_face_up if players == 2 else 0)
        for card in order[: dealt + players]:
            stepwise = apply(stepwise, Draw(card))
        stepwise = stepwise._replace(pile=DrawPile.ordered(tuple(order[dealt + players :])))
        fast = deal_in_order(state, tuple(order))
        assert fast == stepwise
        assert fast.log == stepwise.log
        # play the round out, then deal the next one from the chosen starter
        state = fast
        while state.phase is not Phase.ROUND_OVER and not is_terminal(state):
            state, _ = random_step(state, rng)
        if is_terminal(state):
            break
        state = apply(state, Starter(state.next_starters[0]))


def test_deal_in_order_refuses_a_dealt_round_and_a_wrong_deck() -> None:
    rules = make_ruleset("classic")
    state = new_match(rules, 2)
    cards = state.pile.cards()
    with pytest.raises(IllegalAction, match="exactly the round's deck"):
        deal_in_order(state, cards[:-1])
    with pytest.raises(IllegalAction, match="exactly the round's deck"):
        deal_in_order(state, (*cards[:-1], cards[0]))
    dealt = deal_in_order(state, cards)
    with pytest.raises(IllegalAction, match="before the round's first card"):
        deal_in_order(dealt, cards)


def test_the_next_round_keeps_only_tokens_and_the_match() -> None:
    """After ``Starter(seat)`` every field of the state is the new round's (R8: protection and
    all marks end with the round): only the rules, the seats' tokens and the round number
    carry over."""
    rng = random.Random(3)
    state = new_match(make_ruleset("premium"), 5)
    while state.phase is not Phase.ROUND_OVER:
        state, _ = random_step(state, rng)
    state = state._replace(sycophant=1, jester=(0, 2), pending_seat=3, chancellor_draws=1)
    starter = state.next_starters[0]
    after = apply(state, Starter(starter))
    fresh = new_match(state.rules, 5, starter=starter)
    tokens = tuple(s.tokens for s in state.seats)
    assert after == fresh._replace(
        seats=tuple(Seat(tokens=t) for t in tokens), round=state.round + 1
    )
