"""Resolving a round's set-up from an explicit deck order (scenarios, replays, seeded play).

:func:`deal` validates a user's deal, then resolves the engine's own chance outcomes —
set-aside card, face-up cards, one card per seat — in that order with
:func:`loveformal.engine.deal_in_order` (their composition, tested equal to applying each
outcome with :func:`loveformal.engine.apply`), and fixes the order of the rest of the draw
pile. A deal that does not fit the ruleset is an :class:`IllegalAction` and leaves
nothing changed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from math import factorial

from loveformal.actions import STARTER_OF, Starter
from loveformal.cards import Card, sort_cards
from loveformal.engine import (
    _deal_in_order,  # the unchecked composition: cards from the pile
    apply,
    deal_in_order,
    face_up_count,
)
from loveformal.errors import IllegalAction
from loveformal.seats import seat_name
from loveformal.state import DEAL, ROUND_OVER, Phase, State


def _cards(cards: Sequence[Card]) -> str:
    return ", ".join(c.title for c in cards) or "nothing"


def deal(
    state: State,
    *,
    set_aside: Card,
    hands: Mapping[int, Card],
    deck: Sequence[Card],
    face_up: Sequence[Card] = (),
    starter: int | None = None,
) -> State:
    """Deal a round in the given order: ``deck`` is the draw pile after the deal, top first.

    Allowed at a new match or after a round has ended (not after the match). ``starter`` picks
    the starting seat when it is chosen at random among tied winners (it must be one of them);
    otherwise it may be given and must equal the rules' starter. Together the cards must be
    exactly the ruleset's deck for the player count.
    """
    if state.phase is Phase.ROUND_OVER:
        cands = state.next_starters
        if starter is None:
            if len(cands) != 1:
                names = ", ".join(seat_name(s) for s in cands)
                raise IllegalAction(f"the next starter is chosen among {names}: give `turn`")
            starter = cands[0]
        elif starter not in cands:
            names = ", ".join(seat_name(s) for s in cands)
            raise IllegalAction(f"{seat_name(starter)} cannot start the next round (only {names})")
        state = apply(state, Starter(starter))
    elif state.phase is Phase.DEAL and state.set_aside is None:
        if starter is not None and starter != state.starter:
            raise IllegalAction(
                f"{seat_name(state.starter)} starts this round, not {seat_name(starter)}"
            )
    else:
        raise IllegalAction("a deal is allowed only at a new match or after a round has ended")

    players = state.players
    want_face_up = face_up_count(state)
    if len(face_up) != want_face_up:
        raise IllegalAction(
            f"the deal must remove {want_face_up} cards face up with {players} players, "
            f"not {len(face_up)}"
        )
    missing = [seat_name(s) for s in range(players) if s not in hands]
    if missing or len(hands) != players:
        raise IllegalAction(f"the deal must give one card to every seat (missing: {missing})")
    full = Counter(state.rules.deck(players).cards())
    given = Counter([set_aside, *face_up, *hands.values(), *deck])
    if given != full:
        extra = sort_cards((given - full).elements())
        lacking = sort_cards((full - given).elements())
        raise IllegalAction(
            f"the deal must use exactly the {state.rules.preset} deck for {players} players: "
            f"extra {_cards(extra)}; missing {_cards(lacking)}"
        )
    order = [set_aside, *face_up]
    order += [hands[(state.starter + k) % players] for k in range(players)]
    return deal_in_order(state, (*order, *deck))


def shuffled_deal(state: State, rng: random.Random) -> State:
    """Deal the round from a uniformly shuffled deck (a seeded alternative to sampling each
    chance node; the resulting distribution over deals is the same).

    At a round's end the next starter is drawn first, uniformly among ``next_starters``."""
    phase = state.phase
    if phase is ROUND_OVER:
        cands = state.next_starters
        state = apply(state, STARTER_OF[cands[rng.randrange(len(cands))]])
    elif phase is not DEAL or state.set_aside is not None:
        raise IllegalAction("a deal is allowed only at a new match or after a round has ended")
    return _deal_in_order(state, permutation(state.pile.cards(), rng))


def permutation(cards: Sequence[Card], rng: random.Random) -> tuple[Card, ...]:
    """A uniformly random order of ``cards``, from a single draw of ``rng``.

    One integer ``r`` uniform in ``[0, n!)`` is read as its mixed-radix digits
    ``r mod n, (r div n) mod (n-1), …``; the digits are independent and uniform, so picking
    the card at each digit's position from the cards left gives each of the ``n!`` orders
    probability exactly ``1/n!`` (the Lehmer code). One call to the generator instead of
    ``n - 1``.
    """
    pool = list(cards)
    n = len(pool)
    r = rng.randrange(factorial(n))
    order: list[Card] = []
    for left in range(n, 0, -1):
        order.append(pool.pop(r % left))
        r //= left
    return tuple(order)
