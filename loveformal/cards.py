"""The card kinds of every edition.

A :class:`Card` names a *kind* of card (all copies of a kind are interchangeable); its value
depends on the edition and is looked up in the ruleset (``rules.value(card)``), never here.
The values, counts, texts and sources of each edition live in ``specs/editions/*.toml``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from operator import attrgetter
from typing import Final


class Card(Enum):
    """A kind of card, named by its printed English name (``Card.GUARD.value == "Guard"``).

    Deliberately *not* an ``int``: a card must never compare equal to a number (a Guard guess
    is a card under ``guard_guess = name`` and a number under ``number``). Cards have no
    ``<``: sort them with :func:`sort_cards` (or ``key=card_order``), in the order below.
    (Comparison methods written in Python would slow down every ``==`` and ``in`` on cards.)
    """

    GUARD = "Guard"
    PRIEST = "Priest"
    BARON = "Baron"
    HANDMAID = "Handmaid"
    PRINCE = "Prince"
    KING = "King"
    COUNTESS = "Countess"
    PRINCESS = "Princess"
    CHANCELLOR = "Chancellor"
    SPY = "Spy"
    BISHOP = "Bishop"
    DOWAGER_QUEEN = "Dowager Queen"
    CONSTABLE = "Constable"
    COUNT = "Count"
    SYCOPHANT = "Sycophant"
    BARONESS = "Baroness"
    CARDINAL = "Cardinal"
    JESTER = "Jester"
    ASSASSIN = "Assassin"

    index: int
    """Position in the list above: an identifier for tables and sorting, not the card's value."""
    _title: str

    def __init__(self, title: str) -> None:
        self.index = len(type(self).__members__)
        self._title = title

    # Members are singletons: identity hashing is correct and cheaper than Enum's default.
    __hash__ = object.__hash__

    @property
    def title(self) -> str:
        """The card's English name as printed, e.g. ``"Dowager Queen"``."""
        return self._title

    def __str__(self) -> str:
        return self._title

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named ``text`` (English name, case-insensitive; ``_`` or ``-`` for spaces).

        Raises :class:`KeyError` with the list of known names when nothing matches.
        """
        key = " ".join(text.replace("_", " ").replace("-", " ").split()).lower()
        card = _BY_NAME.get(key)
        if card is None:
            known = ", ".join(c.value for c in cls)
            raise KeyError(f"unknown card {text!r} (known cards: {known})")
        return card


_BY_NAME: dict[str, Card] = {c.value.lower(): c for c in Card}

ALL_CARDS: tuple[Card, ...] = tuple(Card)

# Each card as a module constant: ``cards.GUARD`` reads faster than ``Card.GUARD`` (a
# metaclass lookup in CPython 3.11); hot code does ``from loveformal import cards as G``.
GUARD: Final = Card.GUARD
PRIEST: Final = Card.PRIEST
BARON: Final = Card.BARON
HANDMAID: Final = Card.HANDMAID
PRINCE: Final = Card.PRINCE
KING: Final = Card.KING
COUNTESS: Final = Card.COUNTESS
PRINCESS: Final = Card.PRINCESS
CHANCELLOR: Final = Card.CHANCELLOR
SPY: Final = Card.SPY
BISHOP: Final = Card.BISHOP
DOWAGER_QUEEN: Final = Card.DOWAGER_QUEEN
CONSTABLE: Final = Card.CONSTABLE
COUNT: Final = Card.COUNT
SYCOPHANT: Final = Card.SYCOPHANT
BARONESS: Final = Card.BARONESS
CARDINAL: Final = Card.CARDINAL
JESTER: Final = Card.JESTER
ASSASSIN: Final = Card.ASSASSIN

card_order = attrgetter("index")
"""Sort key for cards: their order in :class:`Card`."""


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards sorted in :class:`Card` order."""
    return tuple(sorted(cards, key=card_order))
