"""Actions: the decisions of the seats, and the outcomes of chance.

Seats are numbered from 0 (``P1``). A guess is a :class:`Card` under
``guard_guess = "name"`` and a plain ``int`` (a value) under ``guard_guess = "number"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from loveformal.cards import Card
from loveformal.literals import echo
from loveformal.seats import seat_name

Guess = Card | int
"""A Guard's or Bishop's guess: a card (by name) or a number, depending on ``guard_guess``."""


def guess_text(guess: Guess) -> str:
    return guess.title if isinstance(guess, Card) else str(guess)


@dataclass(frozen=True, slots=True)
class Play:
    """The seat in turn plays ``card`` from its hand.

    ``target`` is the chosen seat for cards that choose one player; ``targets`` the chosen
    seats, in seat order, for the Baroness and the Cardinal. A card played with no effect
    (every seat it could choose is protected or out) has neither.
    """

    card: Card
    target: int | None = None
    targets: tuple[int, ...] = ()
    guess: Guess | None = None
    look: int | None = None
    """Cardinal: the swapped seat whose (new) hand its player looks at, or ``None``."""

    def __str__(self) -> str:
        parts = [f"play {self.card.title}"]
        if self.target is not None:
            parts.append(f"on {seat_name(self.target)}")
        if self.targets:
            parts.append("on " + " and ".join(seat_name(t) for t in self.targets))
        if self.guess is not None:
            parts.append(f"guessing {guess_text(self.guess)}")
        if self.look is not None:
            parts.append(f"looking at {seat_name(self.look)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class ChancellorReturn:
    """The Chancellor's player keeps ``keep`` and puts ``bottom`` under the draw pile, in
    order: the last card listed ends at the very bottom."""

    keep: Card
    bottom: tuple[Card, ...]

    def __str__(self) -> str:
        order = ", ".join(c.title for c in self.bottom)
        return f"keep {self.keep.title}, return {order} to the bottom"


@dataclass(frozen=True, slots=True)
class BishopRedraw:
    """The Bishop's target, after a hit, discards its card and draws (``True``) or keeps it."""

    redraw: bool

    def __str__(self) -> str:
        return "discard and redraw" if self.redraw else "keep the card"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the next card taken from the draw pile (or removed during the deal) is ``card``."""

    card: Card

    def __str__(self) -> str:
        return f"chance: {self.card.title}"


@dataclass(frozen=True, slots=True)
class Starter:
    """Chance: ``seat`` starts the next round (chosen at random among tied winners)."""

    seat: int

    def __str__(self) -> str:
        return f"chance: {seat_name(self.seat)} starts the next round"


DRAW_OF: dict[Card, Draw] = {card: Draw(card) for card in Card}
"""One shared :class:`Draw` per card (values are immutable and compare by value: samplers and
chance listings reuse these instead of building a new one per draw)."""

STARTER_OF: tuple[Starter, ...] = tuple(Starter(seat) for seat in range(8))
"""One shared :class:`Starter` per seat (at most 8 players)."""


Decision = Play | ChancellorReturn | BishopRedraw
ChanceOutcome = Draw | Starter
Action = Decision | ChanceOutcome


def _seat_ok(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _what(value: object) -> str:
    return f"{type(value).__name__} {echo(value)}"


def malformed(action: object) -> str | None:
    """Why ``action`` is not a well-formed action of this module (a field of the wrong type),
    or ``None``. Seats are ``int`` (not ``bool``: ``True == 1`` would name P2), cards are
    :class:`Card`, card lists are tuples. Checked before legality, so that a wrong type is
    named rather than failing inside a rule, or being read as something else."""
    if isinstance(action, Play):
        if not isinstance(action.card, Card):
            return f"Play.card: expected a Card, got {_what(action.card)}"
        for name in ("target", "look"):
            value = getattr(action, name)
            if value is not None and not _seat_ok(value):
                return f"Play.{name}: expected a seat number (int) or None, got {_what(value)}"
        if not isinstance(action.targets, tuple) or not all(map(_seat_ok, action.targets)):
            return (
                f"Play.targets: expected a tuple of seat numbers (int), got {_what(action.targets)}"
            )
        guess = action.guess
        if guess is not None and not isinstance(guess, Card) and not _seat_ok(guess):
            return f"Play.guess: expected a Card, a number (int) or None, got {_what(guess)}"
    elif isinstance(action, ChancellorReturn):
        if not isinstance(action.keep, Card):
            return f"ChancellorReturn.keep: expected a Card, got {_what(action.keep)}"
        bottom = action.bottom
        if not isinstance(bottom, tuple) or not all(isinstance(c, Card) for c in bottom):
            return f"ChancellorReturn.bottom: expected a tuple of Cards, got {_what(bottom)}"
    elif isinstance(action, BishopRedraw):
        if not isinstance(action.redraw, bool):
            return f"BishopRedraw.redraw: expected True or False, got {_what(action.redraw)}"
    elif isinstance(action, Draw):
        if not isinstance(action.card, Card):
            return f"Draw.card: expected a Card, got {_what(action.card)}"
    elif isinstance(action, Starter):
        if not _seat_ok(action.seat):
            return f"Starter.seat: expected a seat number (int), got {_what(action.seat)}"
    else:
        return (
            "expected an action (Play, ChancellorReturn, BishopRedraw, Draw or Starter), "
            f"got {_what(action)}"
        )
    return None
