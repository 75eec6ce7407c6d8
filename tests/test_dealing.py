"""Seeded deals (:mod:`loveformal.dealing`): the shuffle is exactly uniform."""

from __future__ import annotations

import random
from itertools import permutations
from math import factorial

from loveformal.cards import Card
from loveformal.dealing import permutation


class _Counting(random.Random):
    """A generator whose ``randrange(n)`` returns 0, 1, 2, … in turn (each value once)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.next = 0

    def randrange(self, *args: object, **kwargs: object) -> int:
        value = self.next
        self.next += 1
        return value


def test_permutation_maps_each_draw_to_a_distinct_order() -> None:
    """The Lehmer code is a bijection from ``[0, n!)`` to the orders of ``n`` cards, so one
    uniform draw gives every order probability exactly ``1/n!``."""
    cards = (Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID, Card.PRINCE)
    rng = _Counting()
    orders = [permutation(cards, rng) for _ in range(factorial(len(cards)))]
    assert set(orders) == set(permutations(cards))


def test_permutation_keeps_the_cards() -> None:
    cards = (Card.GUARD,) * 5 + (Card.PRINCESS, Card.KING)
    order = permutation(cards, random.Random(3))
    assert sorted(order, key=lambda c: c.index) == sorted(cards, key=lambda c: c.index)
