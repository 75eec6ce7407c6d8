"""The turns that lead to a two-player position, read off its discard piles and deck size.

A position written without its moves (the notation) keeps each seat's discard pile in order,
the seat to move and the deck's size. In a two-player round the turns alternate, and every
turn leaves its mark there: the turn's draw takes the deck's top card, the card played goes
on its player's pile, a Prince puts its target's discarded card on the target's pile (the
card right after the Prince on the player's own pile when it chose itself) and the target
draws a replacement, a Chancellor draws two cards and puts two back under the deck
(rules.md, the Chancellor, R10; under ``chancellor_short_deck = no_effect_below_two``,
nothing with one card left, D27). Nothing else moves a card between the piles and the deck
while both seats are in (a Guard's hit, a lost Baron comparison or a discarded Princess
would have ended the round).

:func:`position_returns` replays every order of turns the piles allow — which seat started,
and for each Prince whom it chose — and keeps those that end where the position is: each
pile used up, the seat to move on turn (having drawn, at its decision), the deck at its
size and the other seat protected or not as the position says. For each, it follows the
deck as a count of cards never returned above a list of the returned ones (returns go under
everything, draws take from the top), and reports which seat put each returned card still
in the deck there, and whose return the seat to move has just drawn (that seat knows it).
A Chancellor on a pile is thus told apart from one a Prince discarded (which returns
nothing), and when both seats played one, whose cards lie lowest.

Soundness is a one-way guarantee checked on random rounds (``tests/test_turn_history.py``):
the round actually played is always among the orders replayed, so its account of the
returns is always among those reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from loveformal.cards import Card
from loveformal.ruleset import Ruleset
from loveformal.state import Phase, State

__all__ = ["Account", "kept_accounts", "position_returns", "public_returns"]


class Account(NamedTuple):
    """What one order of turns says of the Chancellor's returns at the position."""

    returned: tuple[int, ...]
    """The seat that returned each returned card still in the deck, top to bottom."""
    drawn: int | None
    """At the seat to move's decision: the seat that returned the card it has just drawn
    (``None``: not a returned card, or at a turn's draw)."""
    other_drew: int | None = None
    """The seat that returned the card the other seat drew at the start of its last turn
    (``None``: not a returned card, or it has had no turn)."""
    mover_drew: int | None = None
    """The seat that returned the card the seat to move drew at the start of its turn
    before this one (``None``: not a returned card, or it has had no such turn)."""


class _Deck(NamedTuple):
    """The deck as a replay follows it: cards never returned on top, then the seat that
    returned each card below them (top to bottom)."""

    above: int
    returned: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.above + len(self.returned)

    @property
    def top_returner(self) -> int | None:
        """The seat that returned the top card (``None``: a card never returned)."""
        return self.returned[0] if self.returned and not self.above else None

    def draw(self, count: int) -> _Deck:
        """The deck after ``count`` cards are drawn from its top."""
        from_above = min(count, self.above)
        return _Deck(self.above - from_above, self.returned[count - from_above :])


def position_returns(
    rules: Ruleset,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
    deck_size: int,
    protected: Sequence[bool] = (False, False),
) -> frozenset[Account] | None:
    """Who returned the Chancellor's cards still in the deck of a two-player position, and
    the card the seat to move has just drawn, read off its discard piles (module
    docstring): one :class:`Account` per distinct account the orders of turns allow.
    ``None`` when the piles cannot be read as alternate turns (not two players both in the
    round at a turn's draw or decision); an empty set when no order of turns fits the piles,
    the deck's size and whether the other seat is ``protected`` by a Handmaid (a Handmaid a
    Prince made it discard protects nothing)."""
    if len(discards) != 2 or any(out) or phase not in (Phase.PLAY, Phase.TURN_DRAW):
        return None
    dealt = rules.deck(2).size - 1 - rules.options.two_player_face_up - 2
    short_deck = rules.options.chancellor_short_deck != "no_effect_below_two"
    untargetable = rules.options.handmaid == "untargetable"
    ends = (len(discards[0]), len(discards[1]))
    drawn = phase is Phase.PLAY
    found: set[Account] = set()
    # A frame: the plays used from each pile, the seat whose turn starts, the deck, which
    # seats are protected by a Handmaid, and whose return each seat's last turn drew.
    Frame = tuple[tuple[int, int], int, _Deck, tuple[bool, bool], tuple[int | None, ...]]
    stack: list[Frame] = [
        ((0, 0), starter, _Deck(dealt, ()), (False, False), (None, None)) for starter in (0, 1)
    ]
    while stack:
        used, mover, deck, shielded, drew = stack.pop()
        if used == ends and mover == turn:
            if protected[1 - turn] != shielded[1 - turn]:
                continue
            earlier = (drew[1 - turn], drew[turn])
            if not drawn and deck.size == deck_size:
                found.add(Account(deck.returned, None, *earlier))
            elif drawn and deck.size == deck_size + 1:
                found.add(Account(deck.draw(1).returned, deck.top_returner, *earlier))
            continue
        if deck.size == 0 or used[mover] == ends[mover]:
            continue  # the round ended with the deck, or the mover's pile has no play left
        drew = (deck.top_returner, drew[1]) if mover == 0 else (drew[0], deck.top_returner)
        deck = deck.draw(1)  # the turn's draw
        shield = (False, shielded[1]) if mover == 0 else (shielded[0], False)
        other = 1 - mover
        card = discards[mover][used[mover]]
        after_play = (used[0] + (mover == 0), used[1] + (mover == 1))
        nexts: list[tuple[tuple[int, int], _Deck, tuple[bool, bool]]] = []
        if card is Card.PRINCE:
            for target in (mover, other):
                if target == other and shield[other]:
                    if not untargetable:  # chosen anyway, to no effect (D26)
                        nexts.append((after_play, deck, shield))
                    continue
                at = after_play[target]
                if at == ends[target] or discards[target][at] is Card.PRINCESS:
                    continue  # a discarded Princess would have ended the round
                moved = (at + 1, after_play[1]) if target == 0 else (after_play[0], at + 1)
                nexts.append((moved, deck.draw(1) if deck.size else deck, shield))
        elif card is Card.CHANCELLOR:
            count = min(2, deck.size) if deck.size != 1 or short_deck else 0
            taken = deck.draw(count)
            back = _Deck(taken.above, taken.returned + (mover,) * count)
            nexts.append((after_play, back, shield))
        elif card is Card.PRINCESS:
            continue  # playing her is losing the round
        elif card is Card.HANDMAID:
            guarded = (True, shield[1]) if mover == 0 else (shield[0], True)
            nexts.append((after_play, deck, guarded))
        else:
            nexts.append((after_play, deck, shield))
        # The round ends once a turn leaves the deck empty.
        stack.extend((u, other, d, p, drew) for u, d, p in nexts if d.size)
    return frozenset(found)


def public_returns(state: State) -> frozenset[Account] | None:
    """:func:`position_returns` of ``state``'s piles (its log, if any, is not read)."""
    return position_returns(
        state.rules,
        state.phase,
        state.turn,
        tuple(s.discards for s in state.seats),
        tuple(s.out for s in state.seats),
        state.pile.size,
        tuple(s.protected for s in state.seats),
    )


def kept_accounts(state: State) -> frozenset[Account] | None:
    """The accounts of :func:`public_returns` that fit what ``state``'s deck shows: the cards
    listed in known order below unseen ones (its ``bottom``) are all returns; a wholly known
    deck is explained as returns as far as any account goes (only a return makes a card's
    place known), so the accounts with the most returns are kept."""
    accounts = public_returns(state)
    if not accounts:
        return accounts
    pile = state.pile
    if pile.unseen:
        return frozenset(a for a in accounts if len(a.returned) >= len(pile.bottom))
    most = max(len(a.returned) for a in accounts)
    return frozenset(a for a in accounts if len(a.returned) == most)
