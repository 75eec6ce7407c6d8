"""The turns read off a two-player position's discard piles (``loveformal.turn_history``):
who returned the Chancellor's cards still in the deck, checked against the rounds played."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from types import SimpleNamespace

import pytest

from loveformal import knowledge as knowledge_module
from loveformal import turn_history
from loveformal.cards import Card
from loveformal.engine import new_match
from loveformal.errors import MalformedInput
from loveformal.events import EventKind
from loveformal.knowledge import (
    _Returns,
    public_drawn_return,
    public_return_drawn_earlier,
    public_return_drawn_last,
)
from loveformal.notation import format_position, parse_position, position_of
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step
from loveformal.solver import endgame as endgame_module
from loveformal.solver.endgame import returned_tail
from loveformal.state import Phase, State
from loveformal.turn_history import Account, position_returns, public_returns

Reading = Callable[[State], frozenset[Account] | None]

# The 2019 edition has the Chancellor; the options that change what a turn does to the piles
# (a Prince on a protected seat to no effect, D26; no Chancellor draw with one card left, D27).
RULESETS = (
    ("z2019", None),
    ("z2019", {"handmaid": "targetable_no_effect", "chancellor_short_deck": "no_effect_below_two"}),
)


def _turn_states(games: int, seed: int) -> Iterator[State]:
    """Every state at a turn's draw or decision of ``games`` random two-player rounds of each
    ruleset of :data:`RULESETS`, both seats still in."""
    rng = random.Random(seed)
    for preset, options in RULESETS:
        rules = make_ruleset(preset, options)
        for _ in range(games):
            s = new_match(rules, 2)
            while not s.round_over:
                s, _ = random_step(s, rng)
                if s.phase in (Phase.PLAY, Phase.TURN_DRAW) and not any(x.out for x in s.seats):
                    yield s


def _returners(s: State) -> list[int | None]:
    """Per event of ``s.log``: the seat whose Chancellor return the event drew (``None``:
    none, or not a draw)."""
    took: list[int | None] = [None] * len(s.log)
    for returner in (0, 1):
        replay = _Returns(s, returner)
        for i, e in enumerate(s.log):
            if replay.step(e) is not None:
                took[i] = returner
    return took


def _turn_draw(s: State, seat: int, now: bool = False) -> int | None:
    """The index in ``s.log`` of the draw that started ``seat``'s last completed turn (its
    last draw before its last play: a Chancellor's draws and a Prince's redraw come after a
    play), or with ``now`` the seat to move's draw this turn (its last draw)."""
    events = s.log
    plays = [i for i, e in enumerate(events) if e.kind is EventKind.PLAYED and e.seat == seat]
    end = len(events) if now else (plays or [0])[-1]
    draws = [i for i in range(end) if events[i].kind is EventKind.DREW and events[i].seat == seat]
    return draws[-1] if draws else None


def _actual(s: State) -> Account:
    """What the log says: who returned each card still in the deck, whose return (if any)
    the seat to move's draw this turn took (at its decision), the other seat's last turn's
    draw, and the seat to move's turn's before this one."""
    _, seats = returned_tail(s)
    took = _returners(s)

    def returner(at: int | None) -> int | None:
        return None if at is None else took[at]

    now = _turn_draw(s, s.turn, now=True) if s.phase is Phase.PLAY else None
    return Account(
        seats,
        returner(now),
        returner(_turn_draw(s, 1 - s.turn)),
        returner(_turn_draw(s, s.turn)),
    )


def _first_unsound(reading: Reading, games: int, seed: int, counts: Counter[str]) -> str | None:
    """The first state whose actual account (:func:`_actual`, from its log) is not among the
    accounts ``reading`` gives of its discard piles; ``counts`` tallies the states read."""
    for s in _turn_states(games, seed):
        accounts = reading(s)
        assert accounts is not None  # two seats in, at a turn
        actual = _actual(s)
        if actual not in accounts:
            return f"{actual} not in {sorted(accounts)}: {format_position(position_of(s))}"
        counts["read"] += 1
        counts["one account"] += len(accounts) == 1
        counts["returns"] += bool(actual.returned)
        counts["both seats' returns"] += len(set(actual.returned)) == 2
        counts["drew the other's return"] += actual.drawn == 1 - s.turn
    return None


def test_the_round_played_is_among_the_orders_of_turns_its_piles_fit() -> None:
    counts: Counter[str] = Counter()
    assert _first_unsound(public_returns, 150, 1, counts) is None
    assert counts["returns"] >= 800 and counts["both seats' returns"] >= 30, counts
    assert counts["drew the other's return"] >= 15, counts
    # Not vacuous: all but a few states have one account (every account possible would pass
    # the check above).
    assert counts["one account"] >= 0.97 * counts["read"], counts


def test_a_reading_that_swaps_the_returning_seats_is_caught() -> None:
    def swapped(s: State) -> frozenset[Account] | None:
        got = public_returns(s)
        return (
            None
            if got is None
            else frozenset(a._replace(returned=tuple(1 - i for i in a.returned)) for a in got)
        )

    assert _first_unsound(swapped, 60, 1, Counter()) is not None


def test_a_reading_that_never_sees_a_drawn_return_is_caught() -> None:
    def blind(s: State) -> frozenset[Account] | None:
        got = public_returns(s)
        return None if got is None else frozenset(a._replace(drawn=None) for a in got)

    assert _first_unsound(blind, 150, 1, Counter()) is not None


def test_a_reading_that_takes_every_prince_as_a_plain_play_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the Prince's discard a Chancellor it made a seat discard counts as played,
    and the turns slip."""
    cards = SimpleNamespace(**{c.name: c for c in Card})
    cards.PRINCE = object()
    monkeypatch.setattr(turn_history, "Card", cards)
    assert _first_unsound(public_returns, 60, 1, Counter()) is not None


def test_the_solver_reads_the_returns_of_a_position_without_its_moves_as_its_log_says() -> None:
    """End to end: the notation drops the log, and the solver's returned tail (cards and
    seats), and whether the other seat knows the card the seat to move has just drawn, are
    the log's in every position it does not refuse."""
    counts: Counter[str] = Counter()
    for s in _turn_states(40, 2):
        p = parse_position(format_position(position_of(s)))
        try:
            got = returned_tail(p)
            endgame_module._check_drawn_return(p)
        except MalformedInput as exc:
            assert "more than one order of turns" in str(exc)
            counts["refused"] += 1
            continue
        assert got == returned_tail(s), format_position(position_of(s))
        counts["same"] += 1
        counts["both"] += len(set(got[1])) == 2
        # What the other seat knows of the card the seat to move has just drawn (on the last
        # turn, where it changes nothing, orders that disagree on it are not refused).
        drawn = _actual(s).drawn == 1 - s.turn
        read = public_drawn_return(p) is not None
        assert read == drawn or (not read and not p.pile.size), format_position(position_of(s))
        counts["drawn"] += read
    assert counts["both"] >= 5 and counts["drawn"] >= 5, counts
    assert counts["refused"] <= 0.01 * counts["same"], counts


def test_no_reading_without_two_seats_in_at_a_turn() -> None:
    rules = make_ruleset("z2019")
    piles = ((Card.GUARD,), (Card.CHANCELLOR,))
    assert position_returns(rules, Phase.PLAY, 0, piles, (False, True), 5) is None
    assert position_returns(rules, Phase.CHANCELLOR_DRAW, 0, piles, (False, False), 5) is None
    three = (*piles, ())
    assert position_returns(rules, Phase.PLAY, 0, three, (False,) * 3, 5) is None


def test_a_deck_size_no_order_of_turns_reaches_has_no_account() -> None:
    rules = make_ruleset("z2019")
    piles = ((Card.GUARD,), (Card.CHANCELLOR,))
    # Dealt: 21 - 1 set aside - 3 face up - 2 = 15; P1, P2, then P1 drew: 12 left.
    both_in = (False, False)
    p2s = frozenset({Account((1, 1), None)})
    assert position_returns(rules, Phase.PLAY, 0, piles, both_in, 12) == p2s
    assert position_returns(rules, Phase.PLAY, 0, piles, both_in, 11) == frozenset()
    assert position_returns(rules, Phase.TURN_DRAW, 0, piles, both_in, 13) == p2s


def _first_false_drawn_return(
    reading: Callable[[State], bool], last: bool, games: int, seed: int, counts: Counter[str]
) -> str | None:
    """The first state where ``reading`` of its piles (written without the log) says a seat
    knows the card the other drew at the start of a turn, its Chancellor return — with
    ``last`` (:func:`~loveformal.knowledge.public_return_drawn_last`) the seat to move knows
    the card the other seat drew at its last turn, without
    (:func:`~loveformal.knowledge.public_return_drawn_earlier`) the other seat knows the card
    the seat to move drew at its turn before this one — and the log disagrees: that draw was
    not the knowing seat's return, or the drawer neither holds that card nor has it on top
    of its pile (its one play since)."""
    for s in _turn_states(games, seed):
        p = parse_position(format_position(position_of(s)))
        if not reading(p):
            continue
        knower, drawer = (s.turn, 1 - s.turn) if last else (1 - s.turn, s.turn)
        at = _turn_draw(s, drawer)
        where = format_position(position_of(s))
        if at is None or _returners(s)[at] != knower:
            return f"not {knower}'s return: {where}"
        drew = s.log[at].card
        held = drew in s.seats[drawer].hand
        if not held and drew is not s.seats[drawer].discards[-1]:
            return f"{drew} neither held nor played: {where}"
        counts["held" if held else "played"] += 1
    return None


def test_the_return_the_other_seat_drew_last_is_read_off_the_piles() -> None:
    counts: Counter[str] = Counter()
    assert _first_false_drawn_return(public_return_drawn_last, True, 400, 3, counts) is None
    assert min(counts["held"], counts["played"]) >= 10, counts


def test_the_return_the_seat_to_move_drew_before_is_read_off_the_piles() -> None:
    counts: Counter[str] = Counter()
    assert _first_false_drawn_return(public_return_drawn_earlier, False, 400, 3, counts) is None
    assert counts["held"] + counts["played"] >= 3, counts


@pytest.mark.parametrize(
    ("reading", "last", "field"),
    [
        (public_return_drawn_last, True, "other_drew"),
        (public_return_drawn_earlier, False, "mover_drew"),
    ],
)
def test_a_drawn_return_read_whoever_returned_it_is_caught(
    monkeypatch: pytest.MonkeyPatch, reading: Callable[[State], bool], last: bool, field: str
) -> None:
    """A planted bug: any return the drawer drew taken as the knowing seat's (its own return
    shows the other seat nothing)."""
    kept = turn_history.kept_accounts

    def careless(state: State) -> frozenset[Account] | None:
        got = kept(state)
        if got is None:
            return None
        knower = state.turn if last else 1 - state.turn

        def planted(a: Account) -> Account:
            if getattr(a, field) is None:
                return a
            if field == "other_drew":
                return a._replace(other_drew=knower)
            return a._replace(mover_drew=knower)

        return frozenset(planted(a) for a in got)

    monkeypatch.setattr(knowledge_module, "kept_accounts", careless)
    assert _first_false_drawn_return(reading, last, 400, 3, Counter()) is not None
