"""Who a card may choose, what a Guard or Bishop may name, and which cards may be played.

These predicates are the one source of legality: :func:`loveformal.engine.legal_actions`
enumerates them and :func:`loveformal.engine.apply` checks an action against them.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from loveformal import cards as G
from loveformal.actions import Guess
from loveformal.cards import Card, sort_cards
from loveformal.ruleset import Ruleset
from loveformal.state import State

SINGLE_TARGET: frozenset[Card] = frozenset(
    {G.GUARD, G.PRIEST, G.BARON, G.PRINCE, G.KING, G.BISHOP, G.DOWAGER_QUEEN, G.JESTER,
     G.SYCOPHANT}
)  # fmt: skip
"""Cards that choose one player."""
MULTI_TARGET: frozenset[Card] = frozenset({G.BARONESS, G.CARDINAL})
"""Cards that choose a set of players (given as ``targets``)."""
GUESSING: frozenset[Card] = frozenset({G.GUARD, G.BISHOP})
"""Cards that name a card or number."""
CHOOSES_PLAYERS: frozenset[Card] = SINGLE_TARGET | MULTI_TARGET
"""Cards whose effect chooses players: the ones the Sycophant's mark constrains."""
ALWAYS_MAY_CHOOSE_SELF: frozenset[Card] = frozenset({G.PRINCE, G.SYCOPHANT, G.CARDINAL})
"""Cards whose text lets their player choose themselves (Prince, Sycophant, Cardinal)."""


def may_choose_self(rules: Ruleset, card: Card) -> bool:
    """Whether ``card`` may choose its own player under ``rules``.

    The Prince, Sycophant and Cardinal always may; the Guard under ``guard_self_target``
    (D5) and the Jester under ``jester_self`` (D15); no other card.
    """
    if card in ALWAYS_MAY_CHOOSE_SELF:
        return True
    if card is G.GUARD:
        return rules.options.guard_self_target
    if card is G.JESTER:
        return rules.options.jester_self
    return False


def choosable(state: State, card: Card) -> tuple[int, ...]:
    """Seats that ``card``, played by the seat in turn, may choose, ignoring the Sycophant.

    A seat that is out can never be chosen. Under ``handmaid = untargetable`` (the official
    rule) a protected seat other than the player cannot be chosen; under
    ``targetable_no_effect`` it can, and the effect then does nothing to it (D26).
    """
    actor = state.turn
    untargetable = state.rules.options.handmaid == "untargetable"
    self_ok = may_choose_self(state.rules, card)
    out: list[int] = []
    for i, seat in enumerate(state.seats):
        if seat.out:
            continue
        if i == actor:
            if self_ok:
                out.append(i)
        elif not (seat.protected and untargetable):
            out.append(i)
    return tuple(out)


def sycophant_blocks(state: State, card: Card, candidates: tuple[int, ...]) -> bool | None:
    """How the Sycophant's mark bears on ``card``.

    Returns ``None`` when there is no mark to honour (no mark, the card chooses no players, or
    the mark is waived), ``False`` when the marked seat can be chosen (so every choice must
    include it), and ``True`` when it cannot be chosen: the card is then played with no
    effect (R20, D14: the Premium text; under ``sycophant_conflict = waived`` the constraint
    is dropped when the marked seat is the card's own player and the card cannot choose them).
    """
    marked = state.sycophant
    if marked is None or card not in CHOOSES_PLAYERS:
        return None
    if marked in candidates:
        return False
    if (
        marked == state.turn
        and state.rules.options.sycophant_conflict == "waived"
        and not may_choose_self(state.rules, card)
    ):
        return None
    return True


def single_targets(state: State, card: Card) -> tuple[int, ...]:
    """The seats a one-target card may choose now; empty: it is played with no effect.

    Every card that must choose another player has no effect when all other players still in
    the round are protected (R9); the Prince can always choose its own player (R3).
    """
    candidates = choosable(state, card)
    blocked = sycophant_blocks(state, card, candidates)
    if blocked is None:
        return candidates
    if blocked:
        return ()
    marked = state.sycophant
    assert marked is not None
    return (marked,)


def target_sets(state: State, card: Card) -> tuple[tuple[int, ...], ...]:
    """The seat sets the Baroness or Cardinal may choose now, each in seat order.

    Baroness: 1 or 2 other players (R21), or exactly 2 when ``baroness_targets = two`` and
    two can be chosen (D13). Cardinal: exactly 2 players, its own player allowed; with fewer
    than 2 choosable the card has no effect (R22). Empty: played with no effect.
    """
    candidates = choosable(state, card)
    if card is G.CARDINAL:
        sizes: tuple[int, ...] = (2,)
    elif state.rules.options.baroness_targets == "two" and len(candidates) >= 2:
        sizes = (2,)
    else:
        sizes = (1, 2)
    sets = [c for k in sizes for c in combinations(candidates, k)]
    blocked = sycophant_blocks(state, card, candidates)
    if blocked:
        return ()
    if blocked is False:
        sets = [c for c in sets if state.sycophant in c]
    return tuple(sets)


@cache
def guesses(rules: Ruleset, players: int) -> tuple[Guess, ...]:
    """What a Guard (or Bishop) may name with this deck.

    ``guard_guess = name``: any card of the deck other than the Guard (R5). ``number``: any
    value a card of the deck has, other than 1 (R5, D6, D10). A guess may name a card whose
    copies are all visible: it is legal and cannot hit.
    """
    deck = rules.deck(players)
    if rules.options.guard_guess == "name":
        return tuple(c for c in deck.kinds if c is not G.GUARD)
    return tuple(sorted({rules.value(c) for c in deck.kinds} - {1}))


def countess_forced(hand: tuple[Card, ...]) -> Card | None:
    """The card that forces the Countess, if the hand holds the Countess with it (R4)."""
    if G.COUNTESS in hand:
        if G.KING in hand:
            return G.KING
        if G.PRINCE in hand:
            return G.PRINCE
    return None


def playable(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played on one's own turn (distinct, sorted).

    Holding the Countess with the King or a Prince, only the Countess may be played — even if
    the King or Prince would have no legal target (R4). The Countess may always be played.
    """
    if countess_forced(hand) is not None:
        return (G.COUNTESS,)
    return sort_cards(set(hand))


def guess_hits(rules: Ruleset, guess: Guess, held: Card) -> bool:
    """Whether ``guess`` names the card ``held``: by name, or by value (``number``)."""
    if rules.options.guard_guess == "name":
        return guess is held
    return rules.value(held) == guess
