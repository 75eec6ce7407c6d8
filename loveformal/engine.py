"""The public transition function.

* :func:`new_match` — a match about to be dealt.
* :func:`current_player` — the seat whose decision it is, :data:`CHANCE` or :data:`TERMINAL`.
* :func:`legal_actions` — exactly the actions :func:`apply` accepts (decisions, or chance
  outcomes at a chance node).
* :func:`chance_outcomes` — a chance node's outcomes with exact probabilities.
* :func:`apply` — the next state; an illegal action raises
  :class:`~loveformal.errors.IllegalAction` (or :class:`~loveformal.errors.OutOfTurn`)
  saying why, and nothing changes (states are immutable).

No randomness happens here: chance is resolved outside the rules, by a seeded sampler
(:mod:`loveformal.sampling`) or an explicit deck order (:mod:`loveformal.dealing`).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations
from operator import itemgetter
from typing import Final

from loveformal import cards as G
from loveformal import events as K
from loveformal.actions import (
    DRAW_OF,
    Action,
    BishopRedraw,
    ChancellorReturn,
    ChanceOutcome,
    Decision,
    Draw,
    Play,
    Starter,
    malformed,
)
from loveformal.cards import Card, sort_cards
from loveformal.effects import EFFECTS
from loveformal.errors import IllegalAction, MalformedInput, OutOfTurn
from loveformal.events import Event
from loveformal.legality import explain_play
from loveformal.literals import echo
from loveformal.ruleset import Ruleset
from loveformal.scoring import discard_hand, draw_replacement, end_turn, fresh_pile
from loveformal.seats import seat_name
from loveformal.state import (
    BISHOP_REDRAW,
    CHANCE_PHASES,
    CHANCELLOR,
    CHANCELLOR_DRAW,
    DEAL,
    GAME_OVER,
    PLAY,
    REDRAW,
    ROUND_OVER,
    TURN_DRAW,
    DrawPile,
    Seat,
    State,
)
from loveformal.table import add_card, evolve, remove_card, setter, with_seat
from loveformal.targets import (
    GUESSING,
    MULTI_TARGET,
    SINGLE_TARGET,
    guesses,
    playable,
    single_targets,
    target_sets,
)

_DEALT, _FACE_UP, _DREW, _PLAYED = K.DEALT, K.FACE_UP, K.DREW, K.PLAYED
_SPY = G.SPY

CHANCE: Final = -1
""":func:`current_player` at a chance node."""
TERMINAL: Final = -2
""":func:`current_player` when the match is over."""


# --------------------------------------------------------------------------- set-up


def new_match(rules: Ruleset, players: int, starter: int = 0) -> State:
    """A match of ``players`` players under ``rules``, before the first deal.

    ``starter`` is the seat that starts the first round (the rulebooks' "most recently on a
    date" or "most recently wrote a letter" is a parameter of the match).
    """
    try:
        rules.deck(players)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None
    if not 0 <= starter < players:
        raise MalformedInput(f"starter {starter} is not a seat (seats are 0..{players - 1})")
    seats = tuple(Seat() for _ in range(players))
    state = State(
        rules=rules,
        players=players,
        seats=seats,
        pile=DrawPile(),
        set_aside=None,
        face_up=(),
        phase=DEAL,
        turn=starter,
        round=1,
        starter=starter,
    )
    return evolve(state, pile=fresh_pile(state))


def face_up_count(state: State) -> int:
    """Cards removed face up at the start of a round: ``two_player_face_up`` with 2 players."""
    return state.rules.options.two_player_face_up if state.players == 2 else 0


_set_pile_aside_log = setter("pile", "set_aside", "log")
_set_pile_faceup_log = setter("pile", "face_up", "log")
_set_seats_pile_log = setter("seats", "pile", "log")
_set_seats_pile_phase_turn_log = setter("seats", "pile", "phase", "turn", "log")
_set_seats_pile_phase_log = setter("seats", "pile", "phase", "log")


def _deal(state: State, card: Card) -> State:
    """One card of the deal: the set-aside card, then the face-up cards, then one card per
    seat starting with the starter; after the last seat the starter's turn begins."""
    pile = state.pile.without_next(card)
    if state.set_aside is None:
        return _set_pile_aside_log(state, pile, card, state.log + (_SET_ASIDE_EVENT,))
    if len(state.face_up) < face_up_count(state):
        event = _event((_FACE_UP, None, None, card, (), None, "", None))
        return _set_pile_faceup_log(state, pile, (*state.face_up, card), state.log + (event,))
    n = state.players
    seats = state.seats
    for k in range(n):
        where = (state.starter + k) % n
        if not seats[where].hand:
            break
    else:
        raise AssertionError("deal already complete")
    seat = seats[where]
    dealt = _seat(((card,), (), False, False, seat.tokens, False))
    seats = seats[:where] + (dealt,) + seats[where + 1 :]
    log = (*state.log, _event((_DEALT, where, None, card, (), None, "", (where,))))
    if k == n - 1:
        return _set_seats_pile_phase_turn_log(state, seats, pile, TURN_DRAW, state.starter, log)
    return _set_seats_pile_log(state, seats, pile, log)


_SET_ASIDE_EVENT = Event(K.SET_ASIDE, visible_to=())


def deal_in_order(state: State, order: tuple[Card, ...]) -> State:
    """The whole deal at once: exactly the state that applying ``Draw(card)`` for each card
    of ``order`` in turn would give (set-aside card, face-up cards, one card per seat from the
    starter), with the rest of the draw pile in the order given, top first.

    The composition of the deal's chance outcomes for a deck order already chosen outside the
    rules (a seeded shuffle, a scenario's deck); it builds the dealt state in one step instead
    of one per card. ``state`` must be a round about to be dealt and ``order`` exactly its
    draw pile's cards (:func:`loveformal.dealing.deal` validates a user's deal first).
    """
    if state.phase is not DEAL or state.set_aside is not None:
        raise IllegalAction("a deal in order is allowed only before the round's first card")
    if sort_cards(order) != state.pile.cards():
        raise IllegalAction("the deal order must be exactly the round's deck")
    return _deal_in_order(state, order)


def _deal_in_order(state: State, order: tuple[Card, ...]) -> State:
    """:func:`deal_in_order` for an order known to be a permutation of the round's deck."""
    n = state.players
    k = state.rules.options.two_player_face_up if n == 2 else 0
    log = [*state.log, _SET_ASIDE_EVENT]
    for card in order[1 : 1 + k]:
        log.append(_new(Event, (_FACE_UP, None, None, card, (), None, "", None)))
    seats = list(state.seats)
    where = state.starter
    for card in order[1 + k : 1 + k + n]:
        seats[where] = _new(Seat, ((card,), (), False, False, seats[where][4], False))
        log.append(_new(Event, (_DEALT, where, None, card, (), None, "", (where,))))
        where = (where + 1) % n
    return _set_dealt(
        state,
        tuple(seats),
        _new(DrawPile, (order[1 + k + n :], (), ())),
        order[0],
        order[1 : 1 + k],
        TURN_DRAW,
        state.starter,
        tuple(log),
    )


_set_dealt = setter("seats", "pile", "set_aside", "face_up", "phase", "turn", "log")


def _event(fields: tuple[object, ...]) -> Event:
    """An :class:`Event` from all its fields in order, without keyword parsing (hot paths)."""
    return tuple.__new__(Event, fields)


def _seat(fields: tuple[object, ...]) -> Seat:
    """A :class:`Seat` from all its fields in order, without keyword parsing (hot paths)."""
    return tuple.__new__(Seat, fields)


def _new_round(state: State, starter: int) -> State:
    """Every card goes back into the deck, reshuffled; ``starter`` starts (R8: protection and
    all marks end with the round)."""
    seats = tuple([_seat(((), (), False, False, s[4], False)) for s in state.seats])
    return tuple.__new__(
        State,
        (
            state.rules,
            state.players,
            seats,
            fresh_pile(state),
            None,  # set_aside
            (),  # face_up
            DEAL,  # phase
            starter,  # turn
            None,  # pending_seat
            0,  # chancellor_draws
            None,  # sycophant
            None,  # jester
            state.round + 1,  # round
            starter,  # starter
            (),  # round_winners
            (),  # next_starters
            (),  # game_winners
            (),  # log
        ),
    )


# --------------------------------------------------------------------------- queries


def current_player(state: State) -> int:
    """The seat whose decision it is, :data:`CHANCE`, or :data:`TERMINAL`."""
    phase = state.phase
    if phase is PLAY or phase is CHANCELLOR:
        return state.turn
    if phase is BISHOP_REDRAW:
        assert state.pending_seat is not None
        return state.pending_seat
    if phase is GAME_OVER:
        return TERMINAL
    return CHANCE


def is_terminal(state: State) -> bool:
    """Whether the match is over."""
    return state.phase is GAME_OVER


def is_chance(state: State) -> bool:
    return state.phase in CHANCE_PHASES


def next_draws(pile: DrawPile) -> tuple[tuple[Card, int], ...]:
    """The cards that can come next from ``pile``, each with its weight (copies)."""
    if pile.top:
        return ((pile.top[0], 1),)
    if pile.unseen:
        return tuple(Counter(pile.unseen).items())
    if pile.bottom:
        return ((pile.bottom[0], 1),)
    return ()


def chance_outcomes(state: State) -> tuple[tuple[ChanceOutcome, Fraction], ...]:
    """The outcomes of a chance node with their exact probabilities (they sum to 1).

    A draw from unseen cards has one outcome per card kind, weighted by its copies; a draw
    whose card is known (an explicit deck order, or a known bottom) has one outcome. After a
    tied round, each tied winner is equally likely to start the next one.
    """
    phase = state.phase
    if phase is ROUND_OVER:
        k = len(state.next_starters)
        return tuple((Starter(s), Fraction(1, k)) for s in state.next_starters)
    if phase not in CHANCE_PHASES:
        return ()
    pile = state.pile
    if pile.top or not pile.unseen:
        known = next_draws(pile)  # one known card, or none
        if not known:
            return ()
        card = known[0][0]
        sure = _SURE_DRAWS.get(card)
        if sure is None:
            sure = _SURE_DRAWS[card] = ((DRAW_OF[card], Fraction(1)),)
        return sure
    found = _UNSEEN_DRAWS.get(pile.unseen)
    if found is None:
        if len(_UNSEEN_DRAWS) >= 100_000:
            _UNSEEN_DRAWS.clear()
        draws = next_draws(pile)
        total = sum(w for _, w in draws)
        found = tuple((DRAW_OF[c], Fraction(w, total)) for c, w in draws)
        _UNSEEN_DRAWS[pile.unseen] = found
    return found


_SURE_DRAWS: dict[Card, tuple[tuple[ChanceOutcome, Fraction], ...]] = {}
""":func:`chance_outcomes` of a draw whose card is known, one tuple per card."""
_UNSEEN_DRAWS: dict[tuple[Card, ...], tuple[tuple[ChanceOutcome, Fraction], ...]] = {}
""":func:`chance_outcomes` of a draw from unseen cards, memoised on the unseen multiset (one
tuple per multiset, shared: the solver's builders check each distinct tuple once)."""


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action :func:`apply` accepts now: the decisions of the seat to act, or the
    outcomes of a chance node. Empty when the match is over."""
    phase = state.phase
    if phase is PLAY:
        return _legal_plays_and_ids(state)[0]
    if phase is CHANCELLOR:
        return _chancellor_returns(state.seats[state.turn].hand)
    if phase is BISHOP_REDRAW:
        return (BishopRedraw(True), BishopRedraw(False))
    if phase is GAME_OVER:
        return ()
    return tuple(o for o, _ in chance_outcomes(state))


_play_of = cache(Play)
"""Interned :class:`Play` values: legal-action lists reuse them instead of rebuilding them.
(Safe because a :class:`Card` never compares equal to an ``int`` guess.)"""


_PLAYS_CACHE: dict[object, tuple[tuple[Play, ...], frozenset[int]]] = {}
_out_protected = itemgetter(2, 3)  # a Seat's (out, protected)


def _legal_plays_and_ids(state: State) -> tuple[tuple[Play, ...], frozenset[int]]:
    """:func:`_plays`, memoised on everything it depends on (the ruleset, the seat in turn and
    its hand, every seat's out and protected flags, the Sycophant's mark), with the ``id`` of
    each (interned, hence live) :class:`Play`, so that :func:`apply` recognises an action taken
    from :func:`legal_actions` without comparing it field by field."""
    global _LAST
    last = _LAST
    if last[0] is state:  # legal_actions then apply on the same state: computed once
        return last[1]
    seats = state.seats
    turn = state.turn
    key = (state.rules.key, turn, seats[turn][0], *map(_out_protected, seats), state.sycophant)
    entry = _PLAYS_CACHE.get(key)
    if entry is None:
        if len(_PLAYS_CACHE) >= 200_000:
            _PLAYS_CACHE.clear()
        plays = _plays(state)
        entry = _PLAYS_CACHE[key] = (plays, frozenset(map(id, plays)))
    _LAST = (state, entry)
    return entry


# The last state asked about, with its entry, as one tuple (replaced atomically, so threads
# never see a mismatched pair). Holding the state itself, not its id, means an identity match
# can only be that very state.
_LAST: tuple[State | None, tuple[tuple[Play, ...], frozenset[int]]] = (None, ((), frozenset()))


def _legal_plays(state: State) -> tuple[Play, ...]:
    return _legal_plays_and_ids(state)[0]


def _plays(state: State) -> tuple[Play, ...]:
    out: list[Play] = []
    for card in playable(state.seats[state.turn].hand):
        if card in SINGLE_TARGET:
            targets = single_targets(state, card)
            if not targets:
                out.append(Play(card))
            elif card in GUESSING:
                names = guesses(state.rules, state.players)
                out.extend(_play_of(card, t, (), g) for t in targets for g in names)
            else:
                out.extend(_play_of(card, t) for t in targets)
        elif card in MULTI_TARGET:
            sets = target_sets(state, card)
            if not sets:
                out.append(Play(card))
            elif card is G.CARDINAL:
                for pair in sets:
                    out.extend(Play(card, targets=pair, look=look) for look in (None, *pair))
            else:
                out.extend(Play(card, targets=ts) for ts in sets)
        else:
            out.append(_play_of(card))
    return tuple(out)


def _order_key(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.index for c in cards)


def _chancellor_returns(hand: tuple[Card, ...]) -> tuple[ChancellorReturn, ...]:
    out: list[ChancellorReturn] = []
    for keep in sort_cards(set(hand)):
        rest = remove_card(hand, keep)
        for order in sorted(set(permutations(rest)), key=_order_key):
            out.append(ChancellorReturn(keep, order))
    return tuple(out)


# --------------------------------------------------------------------------- legality


def _name(state: State, seat: int) -> str:
    return seat_name(seat) if 0 <= seat < state.players else f"seat {seat + 1}"


def explain(state: State, action: object) -> str | None:
    """Why ``action`` is not legal in ``state``, or ``None`` when :func:`apply` accepts it."""
    wrong = malformed(action)
    if wrong is not None:
        return f"not a well-formed action: {wrong}"
    phase = state.phase
    if phase is GAME_OVER:
        return "the match is over"
    if phase in CHANCE_PHASES:
        if not isinstance(action, (Draw, Starter)):
            return f"it is chance's turn ({_chance_doing(state)}), not a player's"
        if not _chance_possible(state, action):
            if isinstance(action, Starter):
                cands = ", ".join(seat_name(s) for s in state.next_starters) or "nobody"
                return f"{_name(state, action.seat)} cannot start the next round (only {cands})"
            if phase is ROUND_OVER:
                return "the round is over: the next chance event chooses who starts"
            possible = ", ".join(c.title for c, _ in next_draws(state.pile)) or "nothing"
            return f"{action.card.title} cannot be drawn next (possible: {possible})"
        return None
    if isinstance(action, (Draw, Starter)):
        return f"it is {seat_name(current_player(state))}'s decision, not chance's"
    if phase is PLAY:
        if not isinstance(action, Play):
            return f"{seat_name(state.turn)} must play a card now"
        return explain_play(state, action)
    if phase is CHANCELLOR:
        if not isinstance(action, ChancellorReturn):
            return f"{seat_name(state.turn)} must keep one card and return the others (Chancellor)"
        hand = state.seats[state.turn].hand
        if action.keep not in hand:
            return f"the kept card {action.keep.title} is not among the Chancellor's cards"
        rest = remove_card(hand, action.keep)
        if sort_cards(action.bottom) != sort_cards(rest):
            want = ", ".join(c.title for c in rest)
            return f"the cards returned to the bottom must be exactly {want}, in any order"
        return None
    if phase is BISHOP_REDRAW:
        if not isinstance(action, BishopRedraw):
            return f"{seat_name(current_player(state))} must choose to keep or redraw (Bishop)"
        return None
    return f"no action is possible in phase {phase.value}"


_DRAW_PHASES = frozenset({DEAL, TURN_DRAW, REDRAW, CHANCELLOR_DRAW})


def _chance_possible(state: State, action: Draw | Starter) -> bool:
    """Whether chance outcome ``action`` has a positive probability now (no Fractions built)."""
    if state.phase is ROUND_OVER:
        return isinstance(action, Starter) and action.seat in state.next_starters
    if not isinstance(action, Draw):
        return False
    pile = state.pile
    if pile.top:
        return action.card is pile.top[0]
    if pile.unseen:
        return action.card in pile.unseen
    return bool(pile.bottom) and action.card is pile.bottom[0]


def _chance_doing(state: State) -> str:
    return {
        DEAL: "dealing",
        TURN_DRAW: f"{seat_name(state.turn)}'s draw",
        REDRAW: "a replacement draw",
        CHANCELLOR_DRAW: "the Chancellor's draw",
        ROUND_OVER: "choosing who starts the next round",
    }.get(state.phase, state.phase.value)


# --------------------------------------------------------------------------- transitions


def apply(state: State, action: Action, *, seat: int | None = None) -> State:
    """The state after ``action``. ``state`` itself never changes.

    ``seat``, if given, is the seat claiming the decision (``CHANCE`` for a chance outcome):
    a mismatch raises :class:`OutOfTurn`. An illegal action raises :class:`IllegalAction`
    whose message says why.
    """
    if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool)):
        raise IllegalAction(f"seat: expected a seat number (int) or CHANCE, got {echo(seat)}")
    if seat is not None and seat != current_player(state):
        actor = current_player(state)
        whose = {CHANCE: "chance's", TERMINAL: "nobody's"}.get(actor)
        if whose is None:
            whose = f"{seat_name(actor)}'s"
        claimed = "chance" if seat == CHANCE else _name(state, seat)
        raise OutOfTurn(f"{claimed} cannot act now: it is {whose} decision")
    # Fast paths: a Play object taken from legal_actions, a draw that can happen, the next
    # round's starter.
    phase = state.phase
    if type(action) is Play:
        if phase is PLAY and id(action) in _legal_plays_and_ids(state)[1]:
            return _play(state, action)
    elif type(action) is Draw:
        if phase in _DRAW_PHASES:
            card = action.card
            top, unseen, bottom = state.pile
            if top:
                possible = card is top[0]
            elif unseen:
                possible = card in unseen
            else:
                possible = bool(bottom) and card is bottom[0]
            if possible:
                return _draw(state, card)
    elif (
        type(action) is Starter
        and phase is ROUND_OVER
        and type(action.seat) is int
        and action.seat in state.next_starters
    ):
        return _new_round(state, action.seat)
    reason = explain(state, action)
    if reason is not None:
        if state.phase not in CHANCE_PHASES and isinstance(action, (Draw, Starter)):
            raise OutOfTurn(reason)
        if state.phase in CHANCE_PHASES and not isinstance(action, (Draw, Starter)):
            raise OutOfTurn(reason)
        raise IllegalAction(reason)
    return _apply_legal(state, action)


def _apply_legal(state: State, action: Action) -> State:
    if isinstance(action, Draw):
        return _draw(state, action.card)
    if isinstance(action, Starter):
        return _new_round(state, action.seat)
    return _decide(state, action)


def _draw(state: State, card: Card) -> State:
    phase = state.phase
    if phase is DEAL:
        return _deal(state, card)
    top, unseen, bottom = state.pile
    if top:
        pile = _new(DrawPile, (top[1:], unseen, bottom))
    elif unseen:
        i = unseen.index(card)
        rest = unseen[:i] + unseen[i + 1 :]
        pile = _new(DrawPile, ((), rest, bottom) if rest else (bottom, (), ()))
    else:
        pile = _new(DrawPile, (bottom[1:], (), ()))
    drawer = state.pending_seat if phase is REDRAW else state.turn
    assert drawer is not None
    seats = state.seats
    hand, discards, out, protected, tokens, spied = seats[drawer]
    if not hand:
        hand = (card,)
    elif len(hand) == 1:
        held = hand[0]
        hand = (held, card) if held.index <= card.index else (card, held)
    else:
        hand = add_card(hand, card)
    new_seat = _new(Seat, (hand, discards, out, protected, tokens, spied))
    row = list(seats)
    row[drawer] = new_seat
    seats = tuple(row)
    log = state.log + (_new(Event, (_DREW, drawer, None, card, (), None, "", (drawer,))),)
    if phase is TURN_DRAW:
        return _set_seats_pile_phase_log(state, seats, pile, PLAY, log)
    if phase is CHANCELLOR_DRAW:
        left = state.chancellor_draws - 1
        nxt = CHANCELLOR_DRAW if left else CHANCELLOR
        return evolve(state, seats=seats, pile=pile, phase=nxt, chancellor_draws=left, log=log)
    # REDRAW: the replacement card ends the effect; the turn ends.
    state = evolve(state, seats=seats, pile=pile, phase=PLAY, pending_seat=None, log=log)
    return end_turn(state)


_new = tuple.__new__
"""Builds a typed tuple (:class:`State`, :class:`Seat`, :class:`Event`, :class:`DrawPile`)
from all its fields in order, without keyword parsing (hot paths)."""


def _decide(state: State, action: Decision) -> State:
    if isinstance(action, Play):
        return _play(state, action)
    if isinstance(action, ChancellorReturn):
        actor = state.turn
        seat = state.seats[actor]
        hand = (action.keep,)
        event = Event(
            K.RETURNED,
            seat=actor,
            cards=action.bottom,
            note=f"{len(action.bottom)} cards",
            visible_to=(actor,),
        )
        state = with_seat(
            state,
            actor,
            Seat(hand, seat.discards, seat.out, seat.protected, seat.tokens, seat.spied),
            event,
        )
        state = evolve(state, pile=state.pile.put_bottom(action.bottom), phase=PLAY)
        return end_turn(state)
    # BishopRedraw
    target = state.pending_seat
    assert target is not None
    event = Event(K.REDRAW_CHOICE, seat=target, note="redraw" if action.redraw else "keep")
    state = evolve(state, phase=PLAY, pending_seat=None, log=state.log + (event,))
    if action.redraw:
        state = discard_hand(state, target, "Bishop")
        if not state.round_over and not state.seats[target].out:
            state = draw_replacement(state, target, prince=False)
            if state.phase is REDRAW:
                return state
    return end_turn(state)


_set_seats_syco_log = setter("seats", "sycophant", "log")


def _play(state: State, play: Play) -> State:
    actor = state.turn
    seats = state.seats
    hand, discards, out, protected, tokens, spied = seats[actor]
    card = play.card
    if len(hand) == 2:
        hand = (hand[1],) if hand[0] is card else (hand[0],)
    else:
        hand = remove_card(hand, card)
    new_seat = _new(Seat, (hand, (*discards, card), out, protected, tokens, spied or card is _SPY))
    note = _targets_note(play) if play.targets else ""
    event = _new(Event, (_PLAYED, actor, play.target, card, (), play.guess, note, None))
    row = list(seats)
    row[actor] = new_seat
    seats = tuple(row)
    state = EFFECTS[card](_set_seats_syco_log(state, seats, None, state.log + (event,)), play)
    if state.phase is PLAY:
        return end_turn(state)
    return state


def _targets_note(play: Play) -> str:
    if not play.targets:
        return ""
    note = "targets " + " ".join(seat_name(t) for t in play.targets)
    if play.look is not None:
        note += f"; looks at {seat_name(play.look)}"
    return note


def winners(state: State) -> tuple[int, ...]:
    """The match's winners once it is over (empty before)."""
    return state.game_winners


def returns(state: State) -> tuple[int, ...]:
    """Per seat: 1 for a match winner, 0 otherwise (all 0 before the end)."""
    return tuple(1 if i in state.game_winners else 0 for i in range(state.players))


__all__ = [
    "CHANCE",
    "TERMINAL",
    "apply",
    "chance_outcomes",
    "current_player",
    "deal_in_order",
    "explain",
    "explain_play",
    "face_up_count",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "new_match",
    "next_draws",
    "returns",
    "winners",
]
