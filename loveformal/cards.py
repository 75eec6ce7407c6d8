"""The card kinds of every edition.

A :class:`Card` names a *kind* of card (all copies of a kind are interchangeable); its value
depends on the edition and is looked up in the ruleset (``rules.value(card)``), never here.
The values, counts, texts and sources of each edition live in ``specs/editions/*.toml``.
"""

from __future__ import annotations

from enum import IntEnum


class Card(IntEnum):
    """A kind of card. The integer is an identifier only, not the card's value."""

    GUARD = 0
    PRIEST = 1
    BARON = 2
    HANDMAID = 3
    PRINCE = 4
    KING = 5
    COUNTESS = 6
    PRINCESS = 7
    CHANCELLOR = 8
    SPY = 9
    BISHOP = 10
    DOWAGER_QUEEN = 11
    CONSTABLE = 12
    COUNT = 13
    SYCOPHANT = 14
    BARONESS = 15
    CARDINAL = 16
    JESTER = 17
    ASSASSIN = 18

    @property
    def title(self) -> str:
        """The card's English name as printed, e.g. ``"Dowager Queen"``."""
        return _TITLES[self]

    def __str__(self) -> str:
        return _TITLES[self]

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named ``text`` (English name, case-insensitive; ``_`` or ``-`` for spaces).

        Raises :class:`KeyError` with the list of known names when nothing matches.
        """
        key = " ".join(text.replace("_", " ").replace("-", " ").split()).lower()
        card = _BY_NAME.get(key)
        if card is None:
            known = ", ".join(_TITLES[c] for c in cls)
            raise KeyError(f"unknown card {text!r} (known cards: {known})")
        return card


_TITLES: dict[Card, str] = {c: c.name.replace("_", " ").title() for c in Card}
_BY_NAME: dict[str, Card] = {t.lower(): c for c, t in _TITLES.items()}

ALL_CARDS: tuple[Card, ...] = tuple(Card)
