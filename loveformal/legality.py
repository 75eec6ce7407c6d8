"""Why a play is illegal, in the game's words: the checks behind
:func:`loveformal.engine.apply` for the seat in turn's :class:`~loveformal.actions.Play`.

Built on the same predicates as :func:`loveformal.engine.legal_actions`
(:mod:`loveformal.targets`), so the two cannot drift apart; the legality tests check that
``apply`` accepts exactly ``legal_actions`` and that every rejection is explained.
"""

from __future__ import annotations

from loveformal import cards as G
from loveformal.actions import Play, guess_text
from loveformal.cards import Card
from loveformal.seats import seat_name
from loveformal.state import State
from loveformal.targets import (
    GUESSING,
    MULTI_TARGET,
    SINGLE_TARGET,
    choosable,
    countess_forced,
    guesses,
    may_choose_self,
    single_targets,
    target_sets,
)


def _why_not_target(state: State, card: Card, target: int) -> str:
    """Why ``card`` may not choose ``target`` now (for error messages)."""
    if not 0 <= target < state.players:
        return f"there is no seat {seat_name(target)} (seats are P1..P{state.players})"
    seat = state.seats[target]
    if seat.out:
        return f"{seat_name(target)} is out of the round"
    if target == state.turn and not may_choose_self(state.rules, card):
        return f"the {card.title} must choose another player"
    if seat.protected and target != state.turn:
        return f"{seat_name(target)} is protected by the Handmaid"
    if state.sycophant is not None:
        return f"the Sycophant's mark: the {card.title} must choose {seat_name(state.sycophant)}"
    return f"the {card.title} cannot choose {seat_name(target)}"


def _no_effect_reason(state: State, card: Card) -> str:
    if state.sycophant is not None and choosable(state, card):
        return (
            f"the {card.title} is played with no effect: it cannot choose "
            f"{seat_name(state.sycophant)}, whom the Sycophant marked"
        )
    return f"the {card.title} is played with no effect: no player can be chosen"


def explain_play(state: State, play: Play) -> str | None:
    """Why ``play`` is illegal now, in the game's words; ``None`` if it is legal."""
    actor = state.turn
    hand = state.seats[actor].hand
    card = play.card
    if not isinstance(card, Card):
        return f"{card!r} is not a card"
    who = seat_name(actor)
    if card not in hand:
        held = ", ".join(c.title for c in hand) or "nothing"
        return f"{who} does not hold the {card.title} (hand: {held})"
    forcing = countess_forced(hand)
    if forcing is not None and card is not G.COUNTESS:
        return f"the Countess must be played while holding the {forcing.title}"
    if card in SINGLE_TARGET:
        if play.targets or play.look is not None:
            return f"the {card.title} chooses one player (give `target`, not `targets`/`look`)"
        allowed = single_targets(state, card)
        if not allowed:
            if play.target is not None or play.guess is not None:
                return _no_effect_reason(state, card)
            return None
        if play.target is None:
            names = ", ".join(seat_name(t) for t in allowed)
            return f"the {card.title} must choose a player: one of {names}"
        if play.target not in allowed:
            return _why_not_target(state, card, play.target)
        if card in GUESSING:
            return _explain_guess(state, card, play.guess)
        if play.guess is not None:
            return f"the {card.title} does not name a card"
        return None
    if card in MULTI_TARGET:
        if play.target is not None or play.guess is not None:
            return f"the {card.title} chooses with `targets` and names nothing"
        sets = target_sets(state, card)
        if not sets:
            if play.targets or play.look is not None:
                return _no_effect_reason(state, card)
            return None
        chosen = play.targets
        if list(chosen) != sorted(set(chosen)):
            return f"list the {card.title}'s chosen seats once each, in seat order"
        if chosen not in sets:
            for t in chosen:
                if t not in choosable(state, card):
                    return _why_not_target(state, card, t)
            sizes = sorted({len(s) for s in sets})
            if len(chosen) not in sizes:
                how = " or ".join(str(k) for k in sizes)
                return f"the {card.title} must choose {how} players, not {len(chosen)}"
            return _why_not_target(state, card, chosen[0])
        if play.look is not None:
            if card is not G.CARDINAL:
                return "only the Cardinal looks at a swapped hand"
            if play.look not in chosen:
                return f"the Cardinal may look only at {' or '.join(map(seat_name, chosen))}"
        return None
    if play.target is not None or play.targets or play.guess is not None or play.look is not None:
        return f"the {card.title} chooses no player and names nothing"
    return None


def _explain_guess(state: State, card: Card, guess: object) -> str | None:
    names = guesses(state.rules, state.players)
    mode = state.rules.options.guard_guess
    if guess is None:
        return f"the {card.title} must name a {'card' if mode == 'name' else 'number'}"
    if mode == "name":
        if not isinstance(guess, Card):
            return f"the {card.title} names a card here (guard_guess = name), not {guess!r}"
        if guess is G.GUARD:
            return f"the {card.title} cannot name the Guard"
        if guess not in names:
            return f"there is no {guess.title} in this deck"
        return None
    if isinstance(guess, Card) or not isinstance(guess, int):
        shown = guess.title if isinstance(guess, Card) else repr(guess)
        return f"the {card.title} names a number here (guard_guess = number), not {shown}"
    if guess == 1:
        return f"the {card.title} cannot name 1"
    if guess not in names:
        allowed = ", ".join(guess_text(g) for g in names)
        return f"no card in this deck has the value {guess} (allowed: {allowed})"
    return None
