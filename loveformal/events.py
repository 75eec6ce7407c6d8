"""Events: what each transition did, and who saw it.

Every transition appends frozen :class:`Event` values to the state's log. ``visible_to`` is
``None`` for a public event, or the seats that saw its private details; everyone else sees
the event's public form (:meth:`Event.public`), which drops the hidden cards.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, NamedTuple

from loveformal.cards import Card


class EventKind(Enum):
    SET_ASIDE = "set_aside"  # the face-down card is removed (nobody sees it)
    FACE_UP = "face_up"  # a card is removed face up (public)
    DEALT = "dealt"  # a seat is dealt its first card (private to it)
    DREW = "drew"  # a seat draws a card (private to it)
    PLAYED = "played"  # a seat plays a card, with its choices (public)
    NO_EFFECT = "no_effect"  # the card had no effect (public)
    SAW = "saw"  # seat looked at other's hand: card (private to seat)
    COMPARED = "compared"  # Baron / Dowager Queen: cards=(seat's, other's) (private to both)
    SWAPPED = "swapped"  # King / Cardinal: cards=(seat's old, other's old) (private to both)
    DISCARDED = "discarded"  # a seat discards a card without its effect (public)
    KNOCKED_OUT = "knocked_out"  # a seat is out of the round (public)
    PROTECTED = "protected"  # Handmaid protection begins (public)
    MARKED = "marked"  # Sycophant: the next card must choose `other` (public)
    BET = "bet"  # Jester: seat bets on other (public)
    REVEALED = "revealed"  # a card shown to everyone (Guard/Bishop hit, Assassin) (public)
    RETURNED = "returned"  # Chancellor: cards put at the bottom, in order (private to seat)
    REDRAW_CHOICE = "redraw_choice"  # Bishop target keeps (card None) or redraws (public)
    TOKEN = "token"  # seat gains a token; `note` says why (public)
    SHOWDOWN = "showdown"  # hands revealed at round end: cards by seat order (public)
    ROUND_WON = "round_won"  # seat wins the round (public)
    GAME_WON = "game_won"  # seat wins the match (public)

    # Members are singletons: identity hashing is correct and cheaper than Enum's default
    # (the solver interns millions of event tuples).
    __hash__ = object.__hash__


class Event(NamedTuple):
    """One thing that happened. Fields not used by a kind stay empty."""

    kind: EventKind
    seat: int | None = None
    other: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    guess: Card | int | None = None
    note: str = ""
    visible_to: tuple[int, ...] | None = None
    """``None``: public. Otherwise the seats that saw the hidden cards."""

    def seen_by(self, seat: int) -> bool:
        return self.visible_to is None or seat in self.visible_to

    def public(self) -> Event:
        """The event as seen by a seat not in ``visible_to``: hidden cards removed."""
        if self.visible_to is None:
            return self
        return Event(self.kind, self.seat, self.other, None, (), None, self.note, ())


def returned_count(event: Event) -> int:
    """How many cards a Chancellor's return (``RETURNED``) put at the bottom of the deck. The
    number is public though the cards are not: the note gives it (``"2 cards"``), in the
    event's public form too; an event without one counts its cards."""
    head = event.note.split(" ", 1)[0]
    if head.isascii() and head.isdigit():
        return int(head)
    return len(event.cards)


def returned_cards(event: Event, seat: int) -> tuple[Card | None, ...]:
    """The cards of a Chancellor's return, top to bottom, as ``seat`` knows them: each card
    it saw, else None; ``returned_count`` of them. An event may hold only its last cards
    (those still in the pile, in a sampled world): the ones before are None."""
    n = returned_count(event)
    cards: tuple[Card, ...] = event.cards if event.seen_by(seat) else ()
    return (None,) * (n - len(cards)) + cards[-n:] if n else ()


# Each kind as a module constant (fast to read in CPython 3.11): hot code does
# ``from loveformal import events as K`` and writes ``K.DREW``.
SET_ASIDE: Final = EventKind.SET_ASIDE
FACE_UP: Final = EventKind.FACE_UP
DEALT: Final = EventKind.DEALT
DREW: Final = EventKind.DREW
PLAYED: Final = EventKind.PLAYED
NO_EFFECT: Final = EventKind.NO_EFFECT
SAW: Final = EventKind.SAW
COMPARED: Final = EventKind.COMPARED
SWAPPED: Final = EventKind.SWAPPED
DISCARDED: Final = EventKind.DISCARDED
KNOCKED_OUT: Final = EventKind.KNOCKED_OUT
PROTECTED: Final = EventKind.PROTECTED
MARKED: Final = EventKind.MARKED
BET: Final = EventKind.BET
REVEALED: Final = EventKind.REVEALED
RETURNED: Final = EventKind.RETURNED
REDRAW_CHOICE: Final = EventKind.REDRAW_CHOICE
TOKEN: Final = EventKind.TOKEN
SHOWDOWN: Final = EventKind.SHOWDOWN
ROUND_WON: Final = EventKind.ROUND_WON
GAME_WON: Final = EventKind.GAME_WON


def make_event(fields: tuple[object, ...]) -> Event:
    """An :class:`Event` from all eight fields in order, without keyword parsing (hot paths)."""
    return tuple.__new__(Event, fields)
