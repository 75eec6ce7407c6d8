"""The reduced full rounds of the public CFR project, solved from the deal.

jackie-scholl/love-letter-AI (2-player Classic, counterfactual regret minimisation) studies
"reduced versions of the game where more than three cards are set face up at the beginning":
the **N-card version** keeps ``N`` of the 16 cards in play — one in each hand, one set aside
face down, ``N − 3`` in the draw pile — and places the other ``16 − N`` face up. Its 4-card
version is "the simplest possible reduction that still involves choices"; larger ones "up to
7 cards" use "a fixed set of cards that are set aside face-up at the beginning".

**The face-up cards** are the project's own fixed choice (``AI.getStandardVisibleDiscard``):
the deck in its enum order (Princess, Countess, King, Prince ×2, Handmaid ×2, Baron ×2,
Priest ×2, Guard ×5 — Guava's ``ImmutableMultiset.asList`` of the enum's copies), shuffled by
``java.util.Collections.shuffle(list, new java.util.Random(0))``, and its first ``16 − N``
cards face up. :class:`JavaRandom` and :func:`java_shuffle` reproduce the two JDK
algorithms exactly (documented in the JDK's ``java.util.Random`` and ``Collections.shuffle``;
the tests compare with the output of a real JVM). This gives, for instance, the 4-card
version Baron + Guard ×3 in play and the 7-card version Countess, King, Baron, Guard ×4 (both
Princes face up — as the project notes, its larger versions "require certain cards, such as the
Princes, to be set aside"). Any other face-up set can be passed explicitly.

**The position** is the state before Player 1's first draw, built with the engine's public
:func:`loveformal.position.position` (a legal 2-player position with no face-up card) and then
the face-up cards placed in :attr:`State.face_up` (``position`` accepts at most the ruleset's
``two_player_face_up`` = 3 face-up cards, and that option admits only 3 or 0; the engine reads
the face-up cards only while dealing and under ``prince_empty_deck = top_removed``, which
Classic does not use). The solver deals every hidden card at its root
(:func:`loveformal.solver.endgame.enumerate_deals`): nobody knows anything yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from loveformal.cards import Card, sort_cards
from loveformal.errors import MalformedInput
from loveformal.position import position
from loveformal.rulebook import make_ruleset
from loveformal.state import State

__all__ = [
    "CFR_DECK_ORDER",
    "JavaRandom",
    "cfr_face_up",
    "java_shuffle",
    "reduced_round",
]

CFR_DECK_ORDER: tuple[Card, ...] = (
    Card.PRINCESS,
    Card.COUNTESS,
    Card.KING,
    *(Card.PRINCE,) * 2,
    *(Card.HANDMAID,) * 2,
    *(Card.BARON,) * 2,
    *(Card.PRIEST,) * 2,
    *(Card.GUARD,) * 5,
)
"""The CFR project's ``Card.defaultDeckList()``: its enum order, each card's copies together."""

T = TypeVar("T")
_MULTIPLIER = 0x5DEECE66D
_MASK = (1 << 48) - 1


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator of the JDK."""

    def __init__(self, seed: int) -> None:
        self.seed = (seed ^ _MULTIPLIER) & _MASK

    def next(self, bits: int) -> int:
        """``next(bits)``: the top ``bits`` bits of the new seed, as a signed 32-bit int."""
        self.seed = (self.seed * _MULTIPLIER + 0xB) & _MASK
        value = self.seed >> (48 - bits)
        return value - (1 << 32) if value >= 1 << 31 else value

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (no bound) or ``nextInt(bound)``, the JDK's rejection sampling."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:  # a power of two
            return (bound * self.next(31)) >> 31
        while True:
            bits = self.next(31)
            value = bits % bound
            # Java's int overflow test ``bits - val + (bound - 1) < 0``.
            if bits - value + (bound - 1) < 1 << 31:
                return value


def java_shuffle(items: Sequence[T], seed: int) -> list[T]:
    """``Collections.shuffle(list, new Random(seed))`` on a random-access list."""
    out = list(items)
    rnd = JavaRandom(seed)
    for i in range(len(out), 1, -1):
        j = rnd.next_int(i)
        out[i - 1], out[j] = out[j], out[i - 1]
    return out


def cfr_face_up(cards: int) -> tuple[Card, ...]:
    """The face-up cards of the CFR project's ``cards``-card version (``16 − cards`` of them,
    in its shuffled order)."""
    if not 4 <= cards <= 13:
        raise MalformedInput(f"the reduced rounds keep 4 to 13 cards in play, not {cards}")
    return tuple(java_shuffle(CFR_DECK_ORDER, 0)[: 16 - cards])


def reduced_round(
    cards: int, *, face_up: Sequence[Card] | None = None, preset: str = "classic"
) -> State:
    """The ``cards``-card reduced round before Player 1's first draw (see the module
    docstring): ``16 − cards`` face up (default :func:`cfr_face_up`), one card per hand, one
    set aside, ``cards − 3`` in the draw pile (which cards go where is immaterial: the solver
    deals them all at its root)."""
    rules = make_ruleset(preset)
    deck = Counter(rules.deck(2).cards())
    up = tuple(face_up) if face_up is not None else cfr_face_up(cards)
    if not 4 <= cards <= sum(deck.values()):
        raise MalformedInput(f"the reduced rounds keep 4 or more cards in play, not {cards}")
    if len(up) != sum(deck.values()) - cards:
        raise MalformedInput(
            f"the {cards}-card version has {sum(deck.values()) - cards} cards face up, "
            f"not {len(up)}"
        )
    extra = Counter(up) - deck
    if extra:
        raise MalformedInput(
            "face_up: more copies than the deck holds: "
            + ", ".join(c.title for c in sort_cards(extra.elements()))
        )
    rest = sort_cards((deck - Counter(up)).elements())
    state = position(
        rules,
        players=2,
        turn=0,
        hands={0: [rest[0]], 1: [rest[1]]},
        deck=list(rest[3:]),
        set_aside=rest[2],
        drawn=False,
    )
    return state._replace(face_up=up)
