"""Building a mid-round position from a description (scenarios, tests, the command line).

:func:`position` checks that the description can exist under the ruleset and raises
:class:`~loveformal.errors.MalformedInput` naming what is wrong otherwise. Cards of the deck
that the description does not mention are out of play (``rules.md`` §5 "Unlisted cards").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from loveformal.cards import Card, sort_cards
from loveformal.errors import MalformedInput
from loveformal.ruleset import Ruleset
from loveformal.seats import seat_name
from loveformal.state import DrawPile, Phase, Seat, State


def _seats(
    name: str, seats: Iterable[int], players: int, *, allow: Iterable[int] = ()
) -> tuple[int, ...]:
    out = tuple(seats)
    for s in out:
        if not 0 <= s < players:
            raise MalformedInput(f"{name}: there is no seat {seat_name(s)} (P1..P{players})")
    if len(set(out)) != len(out):
        raise MalformedInput(f"{name}: a seat is listed twice")
    return out


def face_up_limit(rules: Ruleset, players: int) -> int:
    """How many cards the deal removes face up (never more are face up later: R2, D16)."""
    return rules.options.two_player_face_up if players == 2 else 0


def where(card: Card, places: Iterable[tuple[str, Iterable[Card]]]) -> str:
    """Where the copies of ``card`` are: ``"P1's discard pile 4, face up 1"`` (places in the
    order given, those without a copy left out)."""
    counts = ((name, sum(1 for c in cards if c is card)) for name, cards in places)
    return ", ".join(f"{name} {n}" for name, n in counts if n)


def position(
    rules: Ruleset,
    *,
    players: int,
    turn: int,
    hands: Mapping[int, Sequence[Card]],
    deck: Sequence[Card],
    set_aside: Card | None,
    face_up: Sequence[Card] = (),
    discards: Mapping[int, Sequence[Card]] | None = None,
    protected: Iterable[int] = (),
    out: Iterable[int] = (),
    tokens: Mapping[int, int] | None = None,
    sycophant: int | None = None,
    jester: tuple[int, int] | None = None,
    spied: Iterable[int] | None = None,
    drawn: bool = True,
    round: int = 1,
    starter: int | None = None,
) -> State:
    """A position in the middle of a round, at ``turn``'s decision (``drawn``) or just before
    its draw (not ``drawn``). ``deck`` is the draw pile, top first, in known order.

    Raises :class:`MalformedInput` if the position cannot exist: a seat or card the ruleset
    does not have, more copies of a card than the deck holds, a seat with the wrong number of
    cards, an out seat holding cards, a seat still in with the Princess on its discard pile, a
    protected seat whose turn it is, and so on.
    """
    try:
        full = rules.deck(players)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None
    discards = discards or {}
    tokens = tokens or {}
    out_seats = set(_seats("out", out, players))
    prot = set(_seats("protected", protected, players))
    if not 0 <= turn < players:
        raise MalformedInput(f"turn: there is no seat {seat_name(turn)} (P1..P{players})")
    for name, table in (("hands", hands), ("discards", discards), ("tokens", tokens)):
        _seats(name, table.keys(), players)

    used: Counter[Card] = Counter(deck)
    used.update(face_up)
    if set_aside is not None:
        used[set_aside] += 1
    for cards in (*hands.values(), *discards.values()):
        used.update(cards)
    for card, n in sorted(used.items(), key=lambda cn: cn[0].index):
        have = full.count(card)
        if have == 0:
            raise MalformedInput(f"the {rules.preset} deck for {players} players has no {card}")
        if n > have:
            places = [("the draw pile", deck), ("face up", face_up)]
            places.append(("set aside", () if set_aside is None else (set_aside,)))
            places += [(f"{seat_name(s)}'s hand", c) for s, c in sorted(hands.items())]
            places += [(f"{seat_name(s)}'s discard pile", c) for s, c in sorted(discards.items())]
            raise MalformedInput(
                f"{card} appears {n} times ({where(card, places)}), but the {rules.preset} "
                f"deck for {players} players holds {have}"
            )

    if turn in out_seats:
        raise MalformedInput(f"turn: {seat_name(turn)} is out of the round")
    if turn in prot:
        raise MalformedInput(
            f"protected: {seat_name(turn)} cannot be protected on its own turn "
            "(the Handmaid's protection ends at the start of its player's turn)"
        )
    for s in prot & out_seats:
        raise MalformedInput(f"protected: {seat_name(s)} is out of the round")
    if len(out_seats) >= players - 1:
        raise MalformedInput("out: at least two seats must still be in the round")
    if not drawn and not deck:
        raise MalformedInput(
            "deck: the turn starts with a draw, but the deck is empty (the round would have "
            "ended at the end of the previous turn)"
        )
    limit = face_up_limit(rules, players)
    if len(face_up) > limit:
        raise MalformedInput(
            f"face_up: {len(face_up)} card{'' if len(face_up) == 1 else 's'}, but the ruleset "
            f"removes {limit} face up with {players} players"
        )

    markers = (
        ("sycophant", sycophant is not None, Card.SYCOPHANT),
        ("jester", jester is not None, Card.JESTER),
        ("spied", bool(spied), Card.SPY),
    )
    for marker, given, card in markers:
        if given and full.count(card) == 0:  # only that card's play sets the marker
            raise MalformedInput(
                f"{marker}: the {rules.preset} deck for {players} players has no {card}"
            )
    # A marker's card was played: it is in a discard pile (or unlisted), not in play.
    in_play: Counter[Card] = Counter(deck)
    in_play.update(face_up)
    if set_aside is not None:
        in_play[set_aside] += 1
    for cards in hands.values():
        in_play.update(cards)
    free = {c: full.count(c) - in_play[c] for c in (Card.SYCOPHANT, Card.JESTER, Card.SPY)}
    if jester is not None:
        others = sum(
            list(cards).count(Card.JESTER) for i, cards in discards.items() if i != jester[0]
        )
        if free[Card.JESTER] - others < 1:
            raise MalformedInput(
                f"jester: {seat_name(jester[0])} has played a Jester, but every Jester of the "
                "deck is elsewhere (in a hand, the deck, aside, face up or another discard pile)"
            )
    if sycophant is not None and free[Card.SYCOPHANT] < 1:
        raise MalformedInput(
            "sycophant: a Sycophant has been played, but every Sycophant of the deck is still "
            "in play (in a hand, the deck, aside or face up)"
        )
    with_spy = {i for i, cards in discards.items() if Card.SPY in cards}
    n_spied = len(set(spied or ()) | with_spy)
    # Each seat flagged without a Spy in its own pile needs one more Spy out of play than
    # the Spies the discard piles hold (never fewer than the seats that played one).
    needed = sum(cards.count(Card.SPY) for cards in discards.values())
    needed += len(set(spied or ()) - with_spy)
    if needed > free[Card.SPY]:
        n_out = max(free[Card.SPY], 0)
        raise MalformedInput(
            f"spied: {n_spied} seats have played or discarded a Spy, which takes {needed} "
            f"Spies out of play with those in the discard piles, but only {n_out} of the "
            f"deck's Spies {'is' if n_out == 1 else 'are'} out of play"
        )

    seats: list[Seat] = []
    goal = rules.options.tokens_for(players)
    spied_set = set(_seats("spied", spied, players)) if spied is not None else set()
    for i in range(players):
        hand = sort_cards(hands.get(i, ()))
        pile = tuple(discards.get(i, ()))
        if i in out_seats:
            if hand:
                raise MalformedInput(f"hands: {seat_name(i)} is out of the round but holds cards")
        else:
            if i not in hands:
                raise MalformedInput(f"hands: {seat_name(i)} is in the round and must be listed")
            want = 2 if (i == turn and drawn) else 1
            if len(hand) != want:
                raise MalformedInput(
                    f"hands: {seat_name(i)} holds {len(hand)} card{'' if len(hand) == 1 else 's'}; "
                    f"it must hold {want}" + (" (its turn, after the draw)" if want == 2 else "")
                )
        n_tokens = tokens.get(i, 0)
        if n_tokens < 0:
            raise MalformedInput(f"tokens: {seat_name(i)} has a negative number of tokens")
        if n_tokens >= goal:
            raise MalformedInput(
                f"tokens: {seat_name(i)} has {n_tokens} tokens; the match ends at {goal}"
            )
        has_spy = Card.SPY in pile
        if spied is not None and has_spy and i not in spied_set:
            raise MalformedInput(
                f"spied: {seat_name(i)} has a Spy in its discard pile and must be listed"
            )
        if Card.PRINCESS in pile and i not in out_seats:
            raise MalformedInput(
                f"discards: {seat_name(i)} has discarded the Princess but is still in the "
                "round (whoever plays or discards the Princess is out at once)"
            )
        seats.append(
            Seat(hand, pile, i in out_seats, i in prot, n_tokens, has_spy or i in spied_set)
        )

    if sycophant is not None:
        _seats("sycophant", (sycophant,), players)
        if sycophant in out_seats:
            raise MalformedInput(f"sycophant: {seat_name(sycophant)} is out of the round")
    if jester is not None:
        for who in jester:
            _seats("jester", (who,), players)
        if jester[0] == jester[1] and not rules.options.jester_self:
            raise MalformedInput("jester: a Jester's player cannot bet on itself here")
    if round < 1:
        raise MalformedInput("round: rounds are numbered from 1")

    return State(
        rules=rules,
        players=players,
        seats=tuple(seats),
        pile=DrawPile.ordered(tuple(deck)),
        set_aside=set_aside,
        face_up=tuple(face_up),
        phase=Phase.PLAY if drawn else Phase.TURN_DRAW,
        turn=turn,
        sycophant=sycophant,
        jester=jester,
        round=round,
        starter=turn if starter is None else starter,
    )
