"""Reusable invariant checks for the engine: pure functions returning violation messages.

Every check returns a list of human-readable messages; an empty list means the property holds.
State properties take one :class:`~loveformal.state.State`; transition properties take the
state before, the action, and the state after (or a deep copy of the state taken before).

* :func:`check_state` runs every state property; :func:`check_transition` runs every
  transition property (and the state properties of the state after).
* :data:`INVARIANTS` names every property; :data:`STATE_CHECKS` and
  :data:`TRANSITION_CHECKS` map those names to their functions.

Positions written by hand (:func:`loveformal.position.position`) may leave cards of the deck
out of play; pass ``partial=True`` to :func:`check_state` (or :func:`card_conservation`,
:func:`one_princess`) for them: zones must then hold *at most* the deck's copies.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Final

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Draw, Play, Starter
from loveformal.cards import Card
from loveformal.engine import (
    CHANCE,
    TERMINAL,
    apply,
    chance_outcomes,
    current_player,
    explain,
    legal_actions,
)
from loveformal.errors import IllegalAction, LoveformalError, OutOfTurn
from loveformal.seats import seat_name
from loveformal.state import CHANCE_PHASES, Phase, State

__all__ = [
    "INVARIANTS",
    "STATE_CHECKS",
    "TRANSITION_CHECKS",
    "action_legal",
    "candidate_actions",
    "card_conservation",
    "chance_probabilities",
    "check_state",
    "check_transition",
    "chosen_seats_legal",
    "deterministic",
    "hand_sizes",
    "input_unchanged",
    "legal_actions_apply",
    "legal_actions_chosen_seats",
    "match_end_at_threshold",
    "one_princess",
    "out_seats_consistent",
    "player_to_act",
    "protection_expires",
    "rejection_explained",
    "round_progress",
    "snapshot",
    "terminal_absorbing",
    "threshold",
    "tokens_monotone",
    "turns_left_bound",
    "zone_cards",
]

_MID_TURN: Final = frozenset(
    {Phase.PLAY, Phase.REDRAW, Phase.CHANCELLOR_DRAW, Phase.CHANCELLOR, Phase.BISHOP_REDRAW}
)
_ALWAYS_SELF: Final = frozenset({Card.PRINCE, Card.SYCOPHANT, Card.CARDINAL})


# --------------------------------------------------------------------------- helpers


def zone_cards(state: State) -> Counter[Card]:
    """Every card in some zone: draw pile, set-aside, face-up, hands and discard piles."""
    zones: Counter[Card] = Counter(state.pile.cards())
    if state.set_aside is not None:
        zones[state.set_aside] += 1
    zones.update(state.face_up)
    for seat in state.seats:
        zones.update(seat.hand)
        zones.update(seat.discards)
    return zones


def snapshot(state: State) -> State:
    """A deep copy of ``state`` for :func:`input_unchanged` (the frozen ruleset is shared)."""
    memo: dict[int, object] = {id(state.rules): state.rules}
    return copy.deepcopy(state, memo)


def threshold(state: State) -> int:
    """Tokens needed to win the match of ``state``."""
    return state.rules.options.tokens_for(state.players)


def _fmt(counter: Counter[Card]) -> str:
    return (
        ", ".join(f"{n}×{c.title}" for c, n in sorted(counter.items(), key=lambda cn: cn[0].index))
        or "nothing"
    )


def _may_choose_self(state: State, card: Card) -> bool:
    """Written from the card texts (rules.md R3, R22, D5, D15), independently of targets.py."""
    if card in _ALWAYS_SELF:
        return True
    if card is Card.GUARD:
        return state.rules.options.guard_self_target
    if card is Card.JESTER:
        return state.rules.options.jester_self
    return False


# --------------------------------------------------------------------------- state properties


def card_conservation(state: State, *, partial: bool = False) -> list[str]:
    """Every card of the deck is in exactly one zone.

    The multiset of all zones (draw pile — during the deal, the undealt cards —, set-aside,
    face-up, hands, discard piles) equals the ruleset's deck for the player count. With
    ``partial`` (hand-written positions) the zones hold at most the deck's copies.
    """
    deck = Counter(state.rules.deck(state.players).cards())
    zones = zone_cards(state)
    if partial:
        extra = zones - deck
        if extra:
            return [f"card conservation: more copies than the deck holds: {_fmt(extra)}"]
        return []
    if zones == deck:
        return []
    extra, missing = zones - deck, deck - zones
    return [
        f"card conservation: zones differ from the deck (extra: {_fmt(extra)}; "
        f"missing: {_fmt(missing)})"
    ]


def one_princess(state: State, *, partial: bool = False) -> list[str]:
    """Exactly one Princess is in play, in exactly one zone (the deck holds exactly one)."""
    out: list[str] = []
    in_deck = state.rules.deck(state.players).count(Card.PRINCESS)
    if in_deck != 1:
        out.append(f"one princess: the deck holds {in_deck} Princesses, not 1")
    n = zone_cards(state)[Card.PRINCESS]
    if n > 1 or (n == 0 and not partial):
        out.append(f"one princess: {n} Princesses in the zones")
    return out


def hand_sizes(state: State) -> list[str]:
    """Hand sizes fit the phase.

    DEAL: 0 or 1. Out: 0. Otherwise 1 off turn; the seat in turn holds 1 before its draw, 2 in
    PLAY, 1–2 while the Chancellor draws and 2–3 when it chooses; a seat awaiting a
    replacement draw holds 0. After the round (or match) has ended a seat still in holds 1
    (0 only if it was left with no card to draw).
    """
    out: list[str] = []
    phase = state.phase
    for i, seat in enumerate(state.seats):
        n = len(seat.hand)
        who = seat_name(i)
        if phase is Phase.DEAL:
            allowed: tuple[int, ...] = (0, 1)
        elif seat.out:
            allowed = (0,)
        elif phase is Phase.ROUND_OVER or phase is Phase.GAME_OVER:
            allowed = (0, 1)
        elif phase is Phase.REDRAW and i == state.pending_seat:
            allowed = (0,)
        elif i != state.turn:
            allowed = (1,)
        elif phase is Phase.PLAY:
            allowed = (2,)
        elif phase is Phase.CHANCELLOR:
            allowed = (2, 3)
        elif phase is Phase.CHANCELLOR_DRAW:
            allowed = (1, 2)
        else:
            allowed = (1,)
        if n not in allowed:
            want = " or ".join(map(str, allowed))
            out.append(f"hand sizes: {who} holds {n} cards in phase {phase.value}, not {want}")
    return out


def out_seats_consistent(state: State) -> list[str]:
    """A seat that is out is not protected; the seat to draw, play or choose is not out, nor
    is a seat with a pending draw or decision. (During a replacement draw the seat in turn
    may be out: a Guard that chose the Assassin's holder.)"""
    out: list[str] = []
    for i, seat in enumerate(state.seats):
        if seat.out and seat.protected:
            out.append(f"out seats: {seat_name(i)} is out but protected")
    if state.phase in _MID_TURN or state.phase is Phase.TURN_DRAW:
        if state.phase is not Phase.REDRAW and state.seats[state.turn].out:
            out.append(f"out seats: {seat_name(state.turn)} is out but in turn")
        pending = state.pending_seat
        if pending is not None and state.seats[pending].out:
            out.append(f"out seats: the pending seat {seat_name(pending)} is out")
    return out


def protection_expires(state: State) -> list[str]:
    """Handmaid protection ends at the start of its holder's turn (R8, D25): the seat in turn
    is never protected from its draw to the end of its turn, and nobody is protected during
    the deal."""
    out: list[str] = []
    if state.phase is Phase.DEAL:
        out += [
            f"protection: {seat_name(i)} is protected during the deal"
            for i, s in enumerate(state.seats)
            if s.protected
        ]
    elif (state.phase in _MID_TURN or state.phase is Phase.TURN_DRAW) and state.seats[
        state.turn
    ].protected:
        out.append(f"protection: {seat_name(state.turn)} is still protected in its own turn")
    return out


def player_to_act(state: State) -> list[str]:
    """``current_player`` matches the phase, and only chance nodes have chance outcomes."""
    out: list[str] = []
    who = current_player(state)
    phase = state.phase
    if phase is Phase.GAME_OVER:
        expected = TERMINAL
    elif phase in CHANCE_PHASES:
        expected = CHANCE
    elif phase is Phase.BISHOP_REDRAW:
        expected = state.pending_seat if state.pending_seat is not None else -99
    else:
        expected = state.turn
    if who != expected:
        out.append(f"player to act: current_player is {who} in {phase.value}, not {expected}")
    if phase not in CHANCE_PHASES and chance_outcomes(state):
        out.append(f"player to act: chance outcomes at a decision ({phase.value})")
    return out


def chance_probabilities(state: State) -> list[str]:
    """At a chance node the outcomes are distinct, each a Fraction in (0, 1], summing to
    exactly 1, and they are exactly the legal actions."""
    if state.phase not in CHANCE_PHASES:
        return []
    outcomes = chance_outcomes(state)
    out: list[str] = []
    if not outcomes:
        return [f"chance probabilities: no outcome at a chance node ({state.phase.value})"]
    total = Fraction(0)
    for action, p in outcomes:
        if not isinstance(p, Fraction):
            out.append(f"chance probabilities: {action} has a {type(p).__name__}, not a Fraction")
            continue
        if not 0 < p <= 1:
            out.append(f"chance probabilities: {action} has probability {p}")
        total += p
    if total != 1:
        out.append(f"chance probabilities: the outcomes sum to {total}, not 1")
    actions = [a for a, _ in outcomes]
    if len(set(actions)) != len(actions):
        out.append("chance probabilities: repeated outcomes")
    if tuple(actions) != tuple(legal_actions(state)):
        out.append("chance probabilities: the outcomes are not the legal actions")
    return out


def terminal_absorbing(state: State) -> list[str]:
    """A finished match is absorbing: no legal action, no chance outcome, TERMINAL to act,
    and ``apply`` rejects everything. A match that is not finished has a legal action."""
    actions = legal_actions(state)
    if state.phase is not Phase.GAME_OVER:
        if not actions:
            return [f"terminal absorbing: no legal action in phase {state.phase.value}"]
        return []
    out: list[str] = []
    if actions:
        out.append(f"terminal absorbing: {len(actions)} legal actions after the match")
    if chance_outcomes(state):
        out.append("terminal absorbing: chance outcomes after the match")
    if current_player(state) != TERMINAL:
        out.append(f"terminal absorbing: current_player is {current_player(state)}, not TERMINAL")
    probes: tuple[Action, ...] = (Play(Card.GUARD), Draw(Card.GUARD), Starter(0))
    for probe in probes:
        try:
            apply(state, probe)
        except LoveformalError:
            continue
        out.append(f"terminal absorbing: {probe} was accepted after the match")
    return out


def match_end_at_threshold(state: State) -> list[str]:
    """GAME_OVER exactly when some seat holds the threshold's tokens; the winners are seats
    at the threshold (and some seat won); before the end nobody has won."""
    goal = threshold(state)
    reached = {i for i, s in enumerate(state.seats) if s.tokens >= goal}
    over = state.phase is Phase.GAME_OVER
    out: list[str] = []
    if over and not reached:
        out.append(f"match end: GAME_OVER but no seat has {goal} tokens")
    if not over and reached:
        names = ", ".join(seat_name(i) for i in sorted(reached))
        out.append(f"match end: {names} reached {goal} tokens but the match goes on")
    if over and not state.game_winners:
        out.append("match end: GAME_OVER without winners")
    if not set(state.game_winners) <= reached:
        names = ", ".join(seat_name(i) for i in state.game_winners)
        out.append(f"match end: winners {names} are not all at the threshold {goal}")
    if not over and state.game_winners:
        out.append("match end: game winners before the end of the match")
    return out


def turns_left_bound(state: State) -> int:
    """An upper bound on the turns this round can still take (including one in progress).

    Each turn's draw takes one card and a round ends when the pile is empty at the end of a
    turn; a Chancellor's drawn cards go back to the pile. So: the draw pile, plus the cards a
    Chancellor's player will return, plus one for a turn in progress. It never grows within a
    round and strictly drops across each completed turn (:func:`round_progress`). 0 once the
    round has ended; during the deal, the undealt cards.
    """
    phase = state.phase
    if phase is Phase.ROUND_OVER or phase is Phase.GAME_OVER:
        return 0
    bound = state.pile.size
    if phase in _MID_TURN:
        bound += 1
        if phase is Phase.CHANCELLOR or phase is Phase.CHANCELLOR_DRAW:
            bound += max(0, len(state.seats[state.turn].hand) - 1)
    return bound


def legal_actions_chosen_seats(state: State) -> list[str]:
    """No legal action chooses a seat that may not be chosen (see :func:`chosen_seats_legal`)."""
    out: list[str] = []
    if state.phase is not Phase.PLAY:
        return out
    for action in legal_actions(state):
        out.extend(chosen_seats_legal(state, action))
    return out


def legal_actions_apply(state: State) -> list[str]:
    """Every legal action is explained as legal and applies; the list has no duplicates."""
    out: list[str] = []
    actions = legal_actions(state)
    if len(set(actions)) != len(actions):
        out.append("legal actions apply: the legal actions repeat")
    for action in actions:
        reason = explain(state, action)
        if reason is not None:
            out.append(f"legal actions apply: legal {action} is explained as illegal: {reason}")
            continue
        try:
            apply(state, action)
        except LoveformalError as exc:
            out.append(f"legal actions apply: legal {action} raised {type(exc).__name__}: {exc}")
    return out


# --------------------------------------------------------------------------- transitions


def chosen_seats_legal(before: State, action: Action) -> list[str]:
    """A play chooses only seats that may be chosen: seats in range and still in the round;
    its own player only where the card allows; a protected seat only under
    ``handmaid = targetable_no_effect``; the Cardinal looks only at one of its two seats."""
    if not isinstance(action, Play):
        return []
    chosen = ([action.target] if action.target is not None else []) + list(action.targets)
    out: list[str] = []
    actor = before.turn
    card = action.card
    for t in chosen:
        if not 0 <= t < before.players:
            out.append(f"chosen seats: {action} chooses seat {t}, which does not exist")
            continue
        seat = before.seats[t]
        if seat.out:
            out.append(f"chosen seats: {action} chooses {seat_name(t)}, who is out")
        if t == actor and not _may_choose_self(before, card):
            out.append(f"chosen seats: {action} chooses its own player")
        if (
            t != actor
            and seat.protected
            and before.rules.options.handmaid != "targetable_no_effect"
        ):
            out.append(f"chosen seats: {action} chooses protected {seat_name(t)}")
    if len(set(chosen)) != len(chosen):
        out.append(f"chosen seats: {action} chooses a seat twice")
    if action.look is not None and action.look not in action.targets:
        out.append(f"chosen seats: {action} looks at a seat it did not choose")
    return out


def action_legal(before: State, action: Action) -> list[str]:
    """The action applied was legal: listed by ``legal_actions`` and not explained away."""
    out: list[str] = []
    if action not in legal_actions(before):
        out.append(f"action legal: {action} is not among the legal actions")
    reason = explain(before, action)
    if reason is not None:
        out.append(f"action legal: {action} is explained as illegal: {reason}")
    return out


def rejection_explained(before: State, action: object, *, seat: int | None = None) -> list[str]:
    """``apply`` accepts ``action`` exactly when it is legal; a rejection raises
    IllegalAction/OutOfTurn with a non-empty message equal to ``explain`` (or, for a wrong
    ``seat=``, an OutOfTurn) and leaves the state unchanged."""
    before_copy = snapshot(before)
    legal = action in legal_actions(before)
    reason = explain(before, action)
    out: list[str] = []
    try:
        apply(before, action, seat=seat)  # type: ignore[arg-type]  # probing with any object
    except (IllegalAction, OutOfTurn) as exc:
        msg = str(exc)
        wrong_seat = seat is not None and seat != current_player(before)
        if legal and not wrong_seat:
            out.append(f"rejection: legal {action} was rejected: {msg}")
        if not msg:
            out.append(f"rejection: {action} was rejected with an empty message")
        if wrong_seat:
            if not isinstance(exc, OutOfTurn):
                out.append(f"rejection: a wrong seat= raised {type(exc).__name__}")
        elif msg != reason:
            out.append(f"rejection: message {msg!r} differs from explain {reason!r}")
    except Exception as exc:  # any other exception is itself the violation
        out.append(f"rejection: {action} raised {type(exc).__name__}: {exc}")
    else:
        if not legal:
            out.append(f"rejection: illegal {action} was accepted")
        if reason is not None:
            out.append(f"rejection: accepted {action} is explained as illegal: {reason}")
        if seat is not None and seat != current_player(before):
            out.append(f"rejection: {action} was accepted from the wrong seat {seat}")
    if before_copy != before:
        out.append(f"rejection: trying {action} changed the state")
    return out


def input_unchanged(before_copy: State, before: State) -> list[str]:
    """``apply`` did not change its input: ``before`` still equals the deep copy taken first."""
    if before_copy == before:
        return []
    fields = [f for f in State._fields if getattr(before_copy, f) != getattr(before, f)]
    return [f"input unchanged: apply changed its input ({', '.join(fields)})"]


def deterministic(before: State, action: Action, after: State) -> list[str]:
    """The same state and action give equal results."""
    try:
        again = apply(before, action)
    except LoveformalError as exc:
        return [f"deterministic: re-applying {action} raised {exc}"]
    if again != after:
        fields = [f for f in State._fields if getattr(again, f) != getattr(after, f)]
        return [f"deterministic: re-applying {action} differs in {', '.join(fields)}"]
    return []


def tokens_monotone(before: State, after: State) -> list[str]:
    """Within a match tokens never decrease."""
    out: list[str] = []
    if before.players != after.players:
        return [f"tokens monotone: {before.players} players became {after.players}"]
    for i, (b, a) in enumerate(zip(before.seats, after.seats, strict=True)):
        if a.tokens < b.tokens:
            out.append(f"tokens monotone: {seat_name(i)} went from {b.tokens} to {a.tokens}")
    return out


def round_progress(before: State, after: State) -> list[str]:
    """:func:`turns_left_bound` never grows within a round and strictly drops across each
    completed turn (a move that starts the next seat's turn or ends the round)."""
    if before.phase is Phase.ROUND_OVER or before.phase is Phase.GAME_OVER:
        return []
    if after.round != before.round:
        return [f"round progress: round {before.round} became {after.round} mid-round"]
    b, a = turns_left_bound(before), turns_left_bound(after)
    out: list[str] = []
    if a > b:
        out.append(f"round progress: the turns-left bound grew from {b} to {a}")
    turn_done = before.phase in _MID_TURN and (after.phase is Phase.TURN_DRAW or after.round_over)
    if turn_done and not a < b:
        out.append(f"round progress: a completed turn left the bound at {a} (was {b})")
    if after.phase is Phase.TURN_DRAW and turns_left_bound(after) < 1:
        out.append("round progress: a turn starts with an empty draw pile")
    return out


# --------------------------------------------------------------------------- aggregates


def _state_checks(partial: bool) -> dict[str, Callable[[State], list[str]]]:
    return {
        "card_conservation": lambda s: card_conservation(s, partial=partial),
        "one_princess": lambda s: one_princess(s, partial=partial),
        "hand_sizes": hand_sizes,
        "out_seats_consistent": out_seats_consistent,
        "protection_expires": protection_expires,
        "player_to_act": player_to_act,
        "legal_actions_chosen_seats": legal_actions_chosen_seats,
        "legal_actions_apply": legal_actions_apply,
        "chance_probabilities": chance_probabilities,
        "terminal_absorbing": terminal_absorbing,
        "match_end_at_threshold": match_end_at_threshold,
    }


STATE_CHECKS: Final[dict[str, Callable[[State], list[str]]]] = _state_checks(False)
"""Every state property by name (exact card conservation)."""

TRANSITION_CHECKS: Final[dict[str, Callable[[State, Action, State], list[str]]]] = {
    "action_legal": lambda b, act, a: action_legal(b, act),
    "chosen_seats_legal": lambda b, act, a: chosen_seats_legal(b, act),
    "deterministic": deterministic,
    "tokens_monotone": lambda b, act, a: tokens_monotone(b, a),
    "round_progress": lambda b, act, a: round_progress(b, a),
}
"""Every transition property by name (``input_unchanged`` needs a copy: see
:func:`check_transition`)."""

INVARIANTS: Final[tuple[str, ...]] = (
    *STATE_CHECKS,
    *TRANSITION_CHECKS,
    "input_unchanged",
    "rejection_explained",
)
"""The name of every property (each is also a function of this module)."""


def check_state(state: State, *, partial: bool = False) -> list[str]:
    """Every state property of ``state``; ``partial`` for hand-written positions that leave
    cards out of play."""
    checks = _state_checks(partial) if partial else STATE_CHECKS
    out: list[str] = []
    for check in checks.values():
        out.extend(check(state))
    return out


def check_transition(
    before: State,
    action: Action,
    after: State,
    *,
    before_copy: State | None = None,
    partial: bool = False,
) -> list[str]:
    """Every transition property of ``before --action--> after`` and the state properties of
    ``after``. Give ``before_copy`` (a :func:`copy.deepcopy` of ``before`` taken before
    ``apply``) to also check that ``apply`` left its input unchanged."""
    out: list[str] = []
    if before_copy is not None:
        out.extend(input_unchanged(before_copy, before))
    for check in TRANSITION_CHECKS.values():
        out.extend(check(before, action, after))
    out.extend(check_state(after, partial=partial))
    return out


# --------------------------------------------------------------------------- candidates


def candidate_actions(state: State, *, max_targets: int = 3) -> tuple[Action, ...]:
    """A superset of the legal actions of ``state``, for legality tests.

    Every card kind of the edition × every target (each seat, including the player, seats
    that are out or protected, a seat number out of range, and ``None``) × every guess (each
    card kind, each number from -1 to 10, and ``None``); every card with every set of up to
    ``max_targets`` seats in seat order (plus one unsorted and one repeated set), looking at
    nothing or at each chosen seat or a seat not chosen; every Chancellor keep with every
    order of every selection of the other cards in hand; both Bishop redraw choices; a draw
    of every card kind; every seat (and one out of range) as the next starter.
    """
    from itertools import combinations, permutations

    n = state.players
    kinds = tuple(s.card for s in state.rules.edition.cards)
    seats: tuple[int | None, ...] = (None, *range(n), n)
    guesses: tuple[Card | int | None, ...] = (None, *Card, *range(-1, 11))
    out: list[Action] = []
    for card in kinds:
        for target in seats:
            for guess in guesses:
                out.append(Play(card, target=target, guess=guess))
        sets: list[tuple[int, ...]] = [
            c for k in range(1, max_targets + 1) for c in combinations(range(n), k)
        ]
        sets += [(1, 0), (0, 0)]
        for chosen in sets:
            for look in (None, *dict.fromkeys(chosen), n - 1 if n - 1 not in chosen else 0):
                out.append(Play(card, targets=chosen, look=look))
    hand = state.seats[state.turn].hand
    pool = sorted({*hand, Card.GUARD, Card.PRINCESS}, key=lambda c: c.index)
    for keep in pool:
        for k in range(4):
            for order in set(permutations(hand, k)):
                out.append(ChancellorReturn(keep, tuple(order)))
    out += [BishopRedraw(True), BishopRedraw(False)]
    out += [Draw(c) for c in Card]
    out += [Starter(i) for i in range(-1, n + 1)]
    return tuple(dict.fromkeys(out))
