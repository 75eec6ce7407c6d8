"""Events in plain words, as a seat saw them (the ``play`` log and replays).

:func:`narrate` turns one event into a sentence. Pass the event in the form the reader saw
(``Event.public()`` when the reader was not in ``visible_to``), so hidden cards never appear.
"""

from __future__ import annotations

from loveformal import events as K
from loveformal.actions import guess_text
from loveformal.cards import Card
from loveformal.events import Event
from loveformal.seats import seat_name


def _cards(cards: tuple[Card, ...]) -> str:
    return ", ".join(c.title for c in cards)


def _seat(seat: int | None) -> str:
    return "?" if seat is None else seat_name(seat)


def narrate(event: Event) -> str:
    """One sentence for ``event`` (hidden cards stay hidden: only what the event holds)."""
    who, other, card, note = _seat(event.seat), _seat(event.other), event.card, event.note
    kind = event.kind
    if kind is K.SET_ASIDE:
        return "A card is set aside face down."
    if kind is K.FACE_UP:
        return f"{card} is removed face up."
    if kind is K.DEALT:
        return f"{who} is dealt {card}." if card else f"{who} is dealt a card."
    if kind is K.DREW:
        source = f" ({note})" if note else ""
        return f"{who} draws {card}{source}." if card else f"{who} draws a card{source}."
    if kind is K.PLAYED:
        text = f"{who} plays the {card}"
        if event.other is not None:
            text += f" on {other}"
        if note:
            text += f" ({note})"
        if event.guess is not None:
            text += f", naming {guess_text(event.guess)}"
        return text + "."
    if kind is K.NO_EFFECT:
        if note == "Guard missed" or note == "Bishop missed":
            return f"{note.split()[0]} misses: {other} does not hold that card."
        return f"It has no effect ({note})."
    if kind is K.SAW:
        if note:  # knowledge a solver's deal carries from before its position
            shown = ", ".join(str(c) for c in event.cards or (card,)) if card else "something"
            return f"{who} knows {other}'s hand holds {shown} ({note})."
        if card is None:
            return f"{who} looks at {other}'s hand."
        return f"{who} looks at {other}'s hand: {card}."
    if kind is K.COMPARED:
        if not event.cards:
            return f"{who} and {other} compare hands in secret."
        mine, theirs = event.cards
        return f"{who} and {other} compare hands: {who} {mine}, {other} {theirs}."
    if kind is K.SWAPPED:
        if not event.cards:
            return f"{who} and {other} trade hands."
        half = len(event.cards) // 2
        gave, got = event.cards[:half], event.cards[half:]
        return f"{who} and {other} trade hands: {who} gives {_cards(gave)} for {_cards(got)}."
    if kind is K.DISCARDED:
        why = f" ({note})" if note else ""
        return f"{who} discards {_cards(event.cards) or 'a card'} without effect{why}."
    if kind is K.KNOCKED_OUT:
        shown = f", revealing {_cards(event.cards)}" if event.cards else ""
        return f"{who} is out of the round ({note}){shown}."
    if kind is K.PROTECTED:
        return f"{who} is protected by the Handmaid until the start of their next turn."
    if kind is K.MARKED:
        return f"{who}'s Sycophant marks {other}: the next card that chooses must choose them."
    if kind is K.BET:
        return f"{who} bets with the Jester that {other} wins the round."
    if kind is K.REVEALED:
        return f"{who} reveals {card} ({note})."
    if kind is K.RETURNED:
        if event.cards:
            return f"{who} puts {_cards(event.cards)} at the bottom of the deck, in that order."
        return f"{who} puts {note or 'cards'} at the bottom of the deck."
    if kind is K.REDRAW_CHOICE:
        if note == "redraw":
            return f"{who} chooses to discard and redraw."
        return f"{who} keeps the card."
    if kind is K.TOKEN:
        return f"{who} gains a token of affection ({note})."
    if kind is K.SHOWDOWN:
        return f"The deck is empty: showdown ({_cards(event.cards)} revealed)."
    if kind is K.ROUND_WON:
        return f"{who} wins the round."
    if kind is K.GAME_WON:
        return f"{who} wins the match!"
    return f"{kind.value}: {who}"  # pragma: no cover - every kind is handled above
