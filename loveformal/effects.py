"""Each card's effect when played: one function per card.

Each function receives the state just after the card went from its player's hand to its
discard pile (the seat in turn is the player), and the validated :class:`Play`. It returns
the state after the effect: with the phase unchanged when the effect is complete (the engine
then ends the turn), or in a pending phase (a redraw, the Chancellor's choice, the Bishop
target's choice), or with the round or match over.

Card texts and sources: ``specs/editions/*.toml``; rulings R1–R25 of ``rules.md`` §2.
"""

from __future__ import annotations

from collections.abc import Callable

from loveformal import cards as G
from loveformal import events as K
from loveformal.actions import Play
from loveformal.cards import Card
from loveformal.events import Event
from loveformal.scoring import award_token, discard_hand, draw_replacement, knock_out
from loveformal.state import BISHOP_REDRAW, CHANCELLOR_DRAW, GAME_OVER, Seat, State
from loveformal.table import evolve, logged, setter, with_seat
from loveformal.targets import guess_hits

Effect = Callable[[State, Play], State]


def _unaffected(state: State, target: int) -> bool:
    """A protected seat chosen under ``handmaid = targetable_no_effect`` ignores the effect."""
    return target != state.turn and state.seats[target].protected


def _why_unaffected(state: State, target: int | None) -> str | None:
    """Why the effect does nothing to the chosen seat, or ``None`` if it applies: no seat could
    be chosen (every other player protected or out, R9), or the chosen seat is protected under
    ``handmaid = targetable_no_effect`` (D26)."""
    if target is None:
        return "no player can be chosen (every other player is protected or out)"
    if _unaffected(state, target):
        return "the chosen player is protected by the Handmaid"
    return None


def _no_effect(state: State, why: str) -> State:
    event = _new(Event, (K.NO_EFFECT, state.turn, None, None, (), None, why, None))
    return _log(state, state.log + (event,))


def _held(state: State, seat: int) -> Card | None:
    hand = state.seats[seat].hand
    return hand[0] if hand else None


def guard(state: State, play: Play) -> State:
    """Guard: name a card (or number) and choose a player; if they hold it they are out.

    Not Guard / not 1 (R5); another player (R25). If the target holds the Assassin, the
    Guard's player is out whatever was named, and the Assassin's holder discards it and draws
    a new card under ``assassin_redraw`` (R6, D7).
    """
    target, guess = play.target, play.guess
    actor = state.turn
    if target is None or guess is None or (target != actor and state.seats[target].protected):
        return _no_effect(state, _why_unaffected(state, target) or "no card was named")
    hand = state.seats[target].hand
    if not hand:
        return _no_effect(state, "the chosen player holds no card")
    held = hand[0]
    if held is G.ASSASSIN and target != actor:
        state = logged(state, Event(K.REVEALED, target, None, G.ASSASSIN, (), None, "Assassin"))
        state = knock_out(state, actor, "chose the Assassin with a Guard")
        if state.round_over or not state.rules.options.assassin_redraw:
            return state
        state = discard_hand(state, target, "Assassin")
        return draw_replacement(state, target, prince=False)
    if guess_hits(state.rules, guess, held):
        hit = _new(Event, (_REVEALED, target, None, held, (), None, "Guard hit", None))
        return knock_out(_log(state, state.log + (hit,)), target, "named by the Guard")
    miss = _new(Event, (_NO_EFFECT, actor, target, None, (), None, "Guard missed", None))
    return _log(state, state.log + (miss,))


_new = tuple.__new__
_log = setter("log")
_REVEALED, _NO_EFFECT = K.REVEALED, K.NO_EFFECT


def priest(state: State, play: Play) -> State:
    """Priest: look at another player's hand privately."""
    target = play.target
    actor = state.turn
    if target is None or (target != actor and state.seats[target].protected):
        return _no_effect(state, _why_unaffected(state, target) or "")
    hand = state.seats[target].hand
    held = hand[0] if hand else None
    return _log(
        state, state.log + (_new(Event, (_SAW, actor, target, held, (), None, "", (actor,))),)
    )


_SAW = K.SAW


def _compare(state: State, play: Play, *, lower_loses: bool) -> State:
    target = play.target
    actor = state.turn
    seats = state.seats
    if target is None or (target != actor and seats[target].protected):
        return _no_effect(state, _why_unaffected(state, target) or "")
    mine, theirs = seats[actor].hand, seats[target].hand
    if not mine or not theirs:
        return _no_effect(state, "a hand is empty")
    me, them = mine[0], theirs[0]
    event = _new(Event, (_COMPARED, actor, target, None, (me, them), None, "", (actor, target)))
    state = _log(state, state.log + (event,))
    values = state.rules.values
    mine_v, theirs_v = values[me.index], values[them.index]
    if mine_v == theirs_v:
        return state  # a tie does nothing (R7, R17)
    loser = actor if (mine_v < theirs_v) == lower_loses else target
    return knock_out(state, loser, "lost the comparison")


_COMPARED = K.COMPARED


def baron(state: State, play: Play) -> State:
    """Baron: compare hands with another player; the lower value is out; a tie does nothing
    (R7). The Bishop counts as 9."""
    return _compare(state, play, lower_loses=True)


def dowager_queen(state: State, play: Play) -> State:
    """Dowager Queen: compare hands with another player; the *higher* value is out; a tie
    does nothing (R17)."""
    return _compare(state, play, lower_loses=False)


def handmaid(state: State, play: Play) -> State:
    """Handmaid: protected until the start of this player's next turn (R8)."""
    actor = state.turn
    hand, discards, out, _, tokens, spied = state.seats[actor]
    seat = _new(Seat, (hand, discards, out, True, tokens, spied))
    return with_seat(
        state, actor, seat, _new(Event, (_PROTECTED, actor, None, None, (), None, "", None))
    )


_PROTECTED = K.PROTECTED


def prince(state: State, play: Play) -> State:
    """Prince: a player (possibly yourself, R3) discards their hand without its effect and
    draws a new card — from the set-aside card if the deck is empty (R2). A discarded Princess
    knocks them out and they draw nothing (R1)."""
    target = play.target
    if target is None or (target != state.turn and state.seats[target].protected):
        return _no_effect(state, _why_unaffected(state, target) or "")
    state = discard_hand(state, target, "Prince")
    if state.round_over or state.seats[target].out:
        return state
    return draw_replacement(state, target, prince=True)


def king(state: State, play: Play) -> State:
    """King: trade hands with another player; both know what they gave and got."""
    target = play.target
    why = _why_unaffected(state, target)
    if why is not None or target is None:
        return _no_effect(state, why or "")
    return _swap(state, state.turn, target)


def _swap(state: State, a: int, b: int) -> State:
    seats = list(state.seats)
    hand_a, *rest_a = seats[a]
    hand_b, *rest_b = seats[b]
    seats[a] = _new(Seat, (hand_b, *rest_a))
    seats[b] = _new(Seat, (hand_a, *rest_b))
    event = _new(Event, (_SWAPPED, a, b, None, hand_a + hand_b, None, "", (a, b)))
    return _set_seats_log(state, tuple(seats), state.log + (event,))


_SWAPPED = K.SWAPPED
_set_seats_log = setter("seats", "log")


def no_effect(state: State, play: Play) -> State:
    """Countess, Spy, Constable, Count, Assassin: nothing happens when played."""
    return state


def princess(state: State, play: Play) -> State:
    """Princess: whoever plays or discards her is out of the round (§1.1.6)."""
    return knock_out(state, state.turn, "played the Princess")


def chancellor(state: State, play: Play) -> State:
    """Chancellor: draw 2 cards, keep 1 of the 3, put the others at the bottom in any order.

    With 1 card in the deck draw it and return 1 (R10), or nothing under
    ``chancellor_short_deck = no_effect_below_two`` (D27); with 0 no effect. The Countess rule
    does not apply to the choice (R11).
    """
    left = state.pile.size
    if left == 0:
        return _no_effect(state, "the deck is empty")
    if left == 1 and state.rules.options.chancellor_short_deck == "no_effect_below_two":
        return _no_effect(state, "fewer than two cards in the deck")
    return evolve(state, phase=CHANCELLOR_DRAW, chancellor_draws=min(2, left))


def bishop(state: State, play: Play) -> State:
    """Bishop: name a number and choose another player; if they hold it you gain a token
    (an immediate win if it reaches the threshold). Then, after a hit (``bishop_redraw =
    on_hit``) or always (``always``, D9), the target may discard and draw (R16)."""
    target, guess = play.target, play.guess
    why = _why_unaffected(state, target)
    if why is not None or target is None or guess is None:
        return _no_effect(state, why or "no card was named")
    held = _held(state, target)
    if held is None:
        return _no_effect(state, "the chosen player holds no card")
    hit = guess_hits(state.rules, guess, held)
    if hit:
        state = logged(state, Event(K.REVEALED, seat=target, card=held, note="Bishop hit"))
        state = award_token(state, state.turn, "Bishop")
        if state.phase is GAME_OVER:
            return state
    else:
        state = logged(
            state, Event(K.NO_EFFECT, seat=state.turn, other=target, note="Bishop missed")
        )
    if hit or state.rules.options.bishop_redraw == "always":
        return evolve(state, phase=BISHOP_REDRAW, pending_seat=target)
    return state


def sycophant(state: State, play: Play) -> State:
    """Sycophant: choose a player (yourself allowed); the next card played that chooses
    players must choose them (R20)."""
    target = play.target
    why = _why_unaffected(state, target)
    if why is not None or target is None:
        return _no_effect(state, why or "")
    return evolve(
        state,
        sycophant=target,
        log=state.log + (Event(K.MARKED, seat=state.turn, other=target),),
    )


def baroness(state: State, play: Play) -> State:
    """Baroness: look at the hands of 1 or 2 other players privately (R21, D13)."""
    if not play.targets:
        return _no_effect(state, "no other player can be chosen")
    for target in play.targets:
        if _unaffected(state, target):
            continue
        event = Event(
            K.SAW,
            seat=state.turn,
            other=target,
            card=_held(state, target),
            visible_to=(state.turn,),
        )
        state = logged(state, event)
    return state


def cardinal(state: State, play: Play) -> State:
    """Cardinal: two players (yourself allowed) trade hands; then you may look at one of those
    two hands (R22)."""
    if len(play.targets) != 2:
        return _no_effect(state, "fewer than two players can be chosen")
    a, b = play.targets
    if _unaffected(state, a) or _unaffected(state, b):
        return _no_effect(state, "a chosen player is protected by the Handmaid")
    state = _swap(state, a, b)
    if play.look is not None:
        event = Event(
            K.SAW,
            seat=state.turn,
            other=play.look,
            card=_held(state, play.look),
            visible_to=(state.turn,),
        )
        state = logged(state, event)
    return state


def jester(state: State, play: Play) -> State:
    """Jester: choose another player; if they win this round, you gain a token (R23)."""
    target = play.target
    why = _why_unaffected(state, target)
    if why is not None or target is None:
        return _no_effect(state, why or "")
    return evolve(
        state,
        jester=(state.turn, target),
        log=state.log + (Event(K.BET, seat=state.turn, other=target),),
    )


EFFECTS: dict[Card, Effect] = {
    G.GUARD: guard,
    G.PRIEST: priest,
    G.BARON: baron,
    G.HANDMAID: handmaid,
    G.PRINCE: prince,
    G.KING: king,
    G.COUNTESS: no_effect,
    G.PRINCESS: princess,
    G.CHANCELLOR: chancellor,
    G.SPY: no_effect,
    G.BISHOP: bishop,
    G.DOWAGER_QUEEN: dowager_queen,
    G.CONSTABLE: no_effect,
    G.COUNT: no_effect,
    G.SYCOPHANT: sycophant,
    G.BARONESS: baroness,
    G.CARDINAL: cardinal,
    G.JESTER: jester,
    G.ASSASSIN: no_effect,
}
"""The effect of each card, by card."""
