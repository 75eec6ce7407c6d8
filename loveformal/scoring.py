"""Knock-outs, tokens, the showdown, and the end of turns, rounds and the match.

Rules encoded here (``rules.md``): knock-out §1.1.5 (discard the hand without effect, then
out); round end §1.1.7 (one player left, or the deck empty at the end of a turn); the
showdown and its tie rules R13, D3, D8, D11, D12, D29; bonus-token order and immediate wins
§5 "Bonus token timing", R24, D23.
"""

from __future__ import annotations

from fractions import Fraction
from operator import itemgetter

from loveformal import cards as G
from loveformal import events as K
from loveformal.errors import MalformedInput
from loveformal.events import Event
from loveformal.state import GAME_OVER, REDRAW, ROUND_OVER, TURN_DRAW, DrawPile, Seat, State
from loveformal.table import add_card, evolve, setter, with_seat


def threshold(state: State) -> int:
    """Tokens needed to win this match."""
    return state.rules.options.tokens_for(state.players)


def _game_over(state: State, winners: tuple[int, ...]) -> State:
    events = tuple(Event(K.GAME_WON, seat=w) for w in winners)
    return evolve(
        state,
        phase=GAME_OVER,
        game_winners=winners,
        next_starters=(),
        pending_seat=None,
        log=state.log + events,
    )


def award_token(state: State, seat: int, reason: str, *, check_win: bool = True) -> State:
    """``seat`` gains a token; with ``check_win``, reaching the threshold wins at once.

    Bishop and Constable tokens are awarded the moment they are earned, and "if this would give
    you enough tokens to win the game, you win immediately" (PREMIUM card texts, R16, R18).
    """
    s = state.seats[seat]
    seat_state = Seat(s.hand, s.discards, s.out, s.protected, s.tokens + 1, s.spied)
    state = with_seat(state, seat, seat_state, Event(K.TOKEN, seat, None, None, (), None, reason))
    if check_win and seat_state.tokens >= threshold(state):
        return _game_over(state, (seat,))
    return state


def knock_out(state: State, seat: int, reason: str) -> State:
    """``seat`` is out of the round: it discards its hand face up without effect (§1.1.5).

    A Constable already in its discard pile earns a token (R18); under
    ``constable_counts_held`` so does a Constable in the hand being discarded (D28). If one
    player is left, the round ends at once and that player wins it (§1.1.7a).
    """
    seats = state.seats
    hand, discards, _, _, tokens, spied = seats[seat]
    constable = G.CONSTABLE in discards or (
        G.CONSTABLE in hand and state.rules.options.constable_counts_held
    )
    out_seat = _new(Seat, ((), discards + hand, True, False, tokens, spied or G.SPY in hand))
    row = list(seats)
    row[seat] = out_seat
    seats = tuple(row)
    event = _new(Event, (K.KNOCKED_OUT, seat, None, None, hand, None, reason, None))
    sycophant = None if state.sycophant == seat else state.sycophant
    state = _set_seats_syco_log(state, seats, sycophant, state.log + (event,))
    if constable:
        state = award_token(state, seat, "Constable")
        if state.phase is GAME_OVER:
            return state
    if state.players - sum(map(_OUT, state.seats)) == 1:
        last = next(i for i, s in enumerate(state.seats) if not s.out)
        return end_round(state, (last,), (last,))
    return state


_set_seats_syco_log = setter("seats", "sycophant", "log")
_OUT = itemgetter(2)  # a Seat's ``out``


def discard_hand(state: State, seat: int, reason: str) -> State:
    """``seat`` discards its hand without its effect (Prince, Bishop redraw).

    A discarded Princess knocks its holder out (R1). A discarded Spy counts as discarded (R12).
    """
    hand, discards, out, protected, tokens, spied = state.seats[seat]
    new = _new(Seat, ((), discards + hand, out, protected, tokens, spied or G.SPY in hand))
    event = _new(Event, (K.DISCARDED, seat, None, None, hand, None, reason, None))
    state = with_seat(state, seat, new, event)
    if G.PRINCESS in hand:
        return knock_out(state, seat, "discarded the Princess")
    return state


def draw_replacement(state: State, seat: int, *, prince: bool) -> State:
    """``seat`` draws a new card after discarding (Prince, Assassin, Bishop).

    From the draw pile when it has cards (a chance node, phase ``REDRAW``); otherwise the
    face-down set-aside card (R2). Under ``prince_empty_deck = top_removed`` a Prince target
    takes instead the first face-up card while any remain (D16; [INF] which removed card is
    "the top one"). If no card is left anywhere the seat holds nothing.
    """
    top, unseen, bottom = state.pile
    if top or unseen or bottom:
        return _set_phase_pending(state, REDRAW, seat)
    s = state.seats[seat]
    if prince and state.rules.options.prince_empty_deck == "top_removed" and state.face_up:
        card = state.face_up[0]
        state = evolve(state, face_up=state.face_up[1:])
        event = Event(K.DREW, seat=seat, card=card, note="face-up card")
    elif state.set_aside is not None:
        card = state.set_aside
        state = evolve(state, set_aside=None)
        event = Event(K.DREW, seat=seat, card=card, note="set-aside card", visible_to=(seat,))
    else:
        return state
    return with_seat(state, seat, s._replace(hand=add_card(s.hand, card)), event)


def showdown_value(state: State, seat: int) -> Fraction:
    """A seat's hand value at the showdown, with the Count bonus (R19, D11) and the Bishop
    counted as 7.5 under ``bishop_showdown = seven_point_five`` (D8)."""
    s = state.seats[seat]
    card = s.hand[0]
    rules = state.rules
    if card is G.BISHOP and rules.options.bishop_showdown == "seven_point_five":
        base = Fraction(15, 2)
    else:
        base = Fraction(rules.value(card))
    return base + count_bonus(state, seat)


def count_bonus(state: State, seat: int) -> int:
    """+1 per Count in the discard pile (``per_count``) or +1 if any (``flat``) (R19, D11)."""
    n = state.seats[seat].discards.count(G.COUNT)
    if n and state.rules.options.count_bonus == "flat":
        return 1
    return n


def discard_total(state: State, seat: int) -> int:
    """The sum of the values of a seat's discard pile (the showdown tie-break, R13)."""
    value = state.rules.value
    return sum(value(c) for c in state.seats[seat].discards)


def _doubled(state: State, seat: int) -> int:
    """Twice :func:`showdown_value` (an integer: the Bishop's 7.5 is 15)."""
    s = state.seats[seat]
    card = s.hand[0]
    rules = state.rules
    if card is G.BISHOP and rules.options.bishop_showdown == "seven_point_five":
        base = 15
    else:
        base = 2 * rules.values[card.index]
    if G.COUNT in s.discards:
        base += 2 * count_bonus(state, seat)
    return base


def showdown(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Compare the hands of the seats still in the round. Returns ``(winners, tied)``.

    ``tied`` are the seats that shared the best result after every tie-break (equal to
    ``winners`` unless ``residual_tie = nobody`` left the round without a winner).

    Order: under ``princess_always_wins`` the Princess holder wins outright (D12). Under
    ``princess_beats_bishop`` a Bishop holder is left out of the comparison whenever a Princess
    is held (D8, D29; Board Game Arena's resolution of the three-way case). Highest adjusted
    value (:func:`showdown_value`) wins; under ``count_tie = void_bonus`` Count bonuses are
    void when they create the top tie ([INF] reading of seed 003). Ties: discard totals
    (``tie_break = discard_sum``), then ``residual_tie``.
    """
    rules = state.rules
    opts = rules.options
    seats = state.seats
    contenders = [i for i, s in enumerate(seats) if not s.out and s.hand]
    held = [seats[i].hand[0] for i in contenders]
    if G.PRINCESS in held:
        if opts.princess_always_wins:
            p = contenders[held.index(G.PRINCESS)]
            return (p,), (p,)
        if opts.bishop_showdown == "princess_beats_bishop":
            contenders = [i for i in contenders if seats[i].hand[0] is not G.BISHOP]
    values = [_doubled(state, i) for i in contenders]
    best = max(values, default=0)
    top = [i for i, v in zip(contenders, values, strict=True) if v == best]
    if len(top) > 1 and opts.count_tie == "void_bonus" and any(count_bonus(state, i) for i in top):
        values = [v - 2 * count_bonus(state, i) for i, v in zip(contenders, values, strict=True)]
        best = max(values)
        top = [i for i, v in zip(contenders, values, strict=True) if v == best]
    if len(top) > 1 and opts.tie_break == "discard_sum":
        totals = [discard_total(state, i) for i in top]
        best_total = max(totals)
        top = [i for i, t in zip(top, totals, strict=True) if t == best_total]
    tied = tuple(top)
    if len(top) > 1 and opts.residual_tie == "nobody":
        return (), tied
    return tied, tied


def end_round(state: State, winners: tuple[int, ...], tied: tuple[int, ...]) -> State:
    """The round ends with ``winners``; award its tokens and decide what comes next.

    Awards in order (§5): each round winner, then the Spy (R12: exactly one seat still in the
    round played or discarded a Spy), then the Jester (R23: its player's chosen seat won).
    Under ``simultaneous_win = first_awarded`` the match ends at the first award that reaches
    the threshold (PREMIUM immediate win); under ``all_win`` every seat at the threshold after
    all the awards wins (R24, D23). The next round starts with the winner, or a random one of
    the tied winners (or of the tied seats when nobody won).
    """
    opts = state.rules.options
    seats = state.seats
    log = list(state.log)
    awards: list[tuple[int, str]] = []
    for w in winners:
        log.append(_new(Event, (_ROUND_WON, w, None, None, (), None, "", None)))
        awards.append((w, "round win"))
    if _has_spy(state):
        spies = [i for i, s in enumerate(seats) if not s.out and s.spied]
        if len(spies) == 1:
            awards.append((spies[0], "Spy"))
    if state.jester is not None:
        bettor, chosen = state.jester
        if chosen in winners:
            awards.append((bettor, "Jester"))
    goal = opts.tokens_for(state.players)
    first_awarded = opts.simultaneous_win == "first_awarded"
    row = list(seats)
    game_winners: tuple[int, ...] = ()
    for seat, reason in awards:
        hand, discards, out, protected, tokens, spied = row[seat]
        row[seat] = _new(Seat, (hand, discards, out, protected, tokens + 1, spied))
        log.append(_new(Event, (_TOKEN, seat, None, None, (), None, reason, None)))
        if first_awarded and tokens + 1 >= goal:
            game_winners = (seat,)
            break
    else:
        if max(map(_TOKENS, row)) >= goal:
            game_winners = tuple([i for i, s in enumerate(row) if s.tokens >= goal])
    if game_winners:
        for w in game_winners:
            log.append(_new(Event, (_GAME_WON, w, None, None, (), None, "", None)))
        return _set_round_end(state, tuple(row), GAME_OVER, None, 0, None, winners, (),
                              game_winners, tuple(log))  # fmt: skip
    return _set_round_end(state, tuple(row), ROUND_OVER, None, 0, None, winners, tied, (),
                          tuple(log))  # fmt: skip


_ROUND_WON, _TOKEN, _GAME_WON = K.ROUND_WON, K.TOKEN, K.GAME_WON
_TOKENS = itemgetter(4)  # a Seat's ``tokens``
_new = tuple.__new__
_set_round_end = setter(
    "seats",
    "phase",
    "pending_seat",
    "chancellor_draws",
    "sycophant",
    "round_winners",
    "next_starters",
    "game_winners",
    "log",
)


_set_seats_turn_phase_pending = setter("seats", "turn", "phase", "pending_seat")


def end_turn(state: State) -> State:
    """After the turn's effect: end the round if the deck is empty (showdown), else pass the
    turn clockwise to the next seat still in, whose Handmaid protection ends now (R8)."""
    phase = state.phase
    if phase is ROUND_OVER or phase is GAME_OVER:
        return state
    top, unseen, bottom = state.pile
    if not (top or unseen or bottom):
        winners, tied = showdown(state)
        cards = tuple([s.hand[0] for s in state.seats if not s.out and s.hand])
        event = _new(Event, (K.SHOWDOWN, None, None, None, cards, None, "", None))
        return end_round(_set_log(state, state.log + (event,)), winners, tied)
    seats = state.seats
    n = state.players
    nxt = (state.turn + 1) % n
    while seats[nxt].out:
        if nxt == state.turn:  # every seat is out: no reachable state, never a hang
            raise MalformedInput(
                "no seat is still in the round (a round ends when one player is left): "
                "the state cannot be reached by play"
            )
        nxt = (nxt + 1) % n
    if seats[nxt][3]:  # protected
        hand, discards, out, _, tokens, spied = seats[nxt]
        unprotected = _new(Seat, (hand, discards, out, False, tokens, spied))
        row = list(seats)
        row[nxt] = unprotected
        seats = tuple(row)
    return _set_seats_turn_phase_pending(state, seats, nxt, TURN_DRAW, None)


_set_log = setter("log")
_set_phase_pending = setter("phase", "pending_seat")


def fresh_pile(state: State) -> DrawPile:
    """Every card of the deck for this player count, shuffled (unknown order)."""
    key = (state.rules.key, state.players)
    pile = _FRESH.get(key)
    if pile is None:  # the deck's cards are already in card order
        pile = _FRESH[key] = DrawPile((), state.rules.deck(state.players).cards(), ())
    return pile


_FRESH: dict[tuple[str, int], DrawPile] = {}
"""The fresh pile of each ruleset (by key) and player count: piles are immutable."""


def _has_spy(state: State) -> bool:
    """Whether this ruleset's deck for this player count has a Spy (R12)."""
    key = (state.rules.key, state.players)
    has = _SPY_DECK.get(key)
    if has is None:
        has = _SPY_DECK[key] = bool(state.rules.deck(state.players).count(G.SPY))
    return has


_SPY_DECK: dict[tuple[str, int], bool] = {}
