"""What each seat knows for certain of the other seats' hands, from the events it saw.

:func:`knows` replays ``state.log`` (this round's events) from one seat's point of view,
using an event's hidden cards only when the seat is allowed to see them
(:meth:`~loveformal.events.Event.seen_by`) and the public form otherwise. It never looks at
the set-aside card, at hands, or at anything else the seat did not see; the draw pile's size
(public) is used only by :func:`knows_bottom`.

For each other seat it keeps the multiset of cards that seat certainly holds:

* SAW (Priest, Baroness, Cardinal's look; or, noted so, what a solver's best-response deal
  says a seat knew before its position: then possibly several cards), COMPARED (Baron,
  Dowager Queen: each side learns the other's card), REVEALED (a Guard or Bishop hit, the
  Assassin; public) and the SHOWDOWN (public) set it to the card seen;
* SWAPPED (King, Cardinal): both swapped seats know what they gave (the other now holds it);
  everyone else's knowledge moves with the hands;
* DREW: the drawer holds the known cards plus the new one (known only if the seat saw it);
* PLAYED card ``c``: if ``c`` is among the known cards, the drawer might have played the known
  copy or a newly drawn equal card — either way one known copy of ``c`` is no longer certain,
  so it is dropped; other known cards stay;
* DISCARDED (Prince, Bishop redraw, Assassin): the hand is gone; RETURNED (Chancellor): the
  player kept one of its cards unseen, so knowledge of that hand is dropped; and once no
  card lies above the cards a seat returned, it knows the next one drawn (the pile's size
  is public);
* KNOCKED_OUT: the seat holds nothing. A new round starts with an empty log: nothing is known.

:func:`public_exclusions` gives the other side, what every seat can rule out of a hand from
the public events (a Guard's miss, the Countess rule, ...), with :func:`fits` to check a hand.
Both are about the cards a seat held when the events happened; :func:`drawn_since` gives the
cards it has drawn since, which they say nothing about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from loveformal.cards import Card
from loveformal.events import Event, EventKind, returned_cards, returned_count
from loveformal.ruleset import Ruleset
from loveformal.state import Phase, State
from loveformal.turn_history import kept_accounts

K = EventKind

__all__ = [
    "Exclusions",
    "drawn_since",
    "exclusions_from_events",
    "exclusions_from_view",
    "fits",
    "knowledge_table",
    "knowledge_unsure_to",
    "knows",
    "knows_bottom",
    "position_drawn_return",
    "position_earlier_play",
    "position_exclusions",
    "position_last_play",
    "position_sights",
    "position_tie",
    "public_drawn_return",
    "public_earlier_play",
    "public_exclusions",
    "public_last_play",
    "public_return_drawn_earlier",
    "public_return_drawn_last",
    "public_sights",
    "public_tie",
]


def _order(card: Card) -> int:
    return card.index


def _remove_one(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def knowledge_table(state: State, seat: int) -> dict[int, tuple[Card, ...]]:
    """For each seat other than ``seat``: the cards ``seat`` knows for certain it holds now
    (a multiset, sorted; empty when nothing is certain or the seat is out)."""
    known: dict[int, tuple[Card, ...]] = {s: () for s in range(state.players)}
    returns = _Returns(state, seat)
    for event in state.log:
        _update(known, event, seat, state)
        drawn = returns.step(event)
        if drawn is not None and event.seat is not None and event.seat != seat:
            known[event.seat] = (*known[event.seat], drawn)
    known.pop(seat, None)
    for s in known:
        if state.seats[s].out:
            known[s] = ()
    return {s: tuple(sorted(cards, key=_order)) for s, cards in known.items()}


def drawn_since(state: State, seat: int) -> dict[int, tuple[Card | None, ...]]:
    """For each seat: the cards it drew (dealt, drawn, drawn off the Chancellor returns) since
    the last other event that names it, oldest first, each as ``seat`` knows it: the card when
    ``seat`` saw it drawn or it came off ``seat``'s own returns, else ``None``.

    These are the seat's newest cards, told apart from the older ones. Every public inference
    about a hand (:func:`public_exclusions`) and every look at it (a Priest, a Baron, a swap)
    is an event that names the seat, so it is about the older cards only: the seat to move,
    having drawn, holds one older card and this one new card. The knowledge of a new card is
    part of :func:`knowledge_table` too. The seat's own entry is empty (it knows its hand)."""
    fresh: dict[int, list[Card | None]] = {s: [] for s in range(state.players)}
    returns = _Returns(state, seat)
    for event in state.log:
        drawn = returns.step(event)
        s, kind = event.seat, event.kind
        if (kind is K.DEALT or kind is K.DREW) and s is not None:
            seen = event.card if event.seen_by(seat) else None
            fresh[s].append(seen if seen is not None else drawn)
            continue
        for named in (s, event.other):
            if named is not None:
                fresh[named] = []
    fresh[seat] = []
    return {s: tuple(cards) for s, cards in fresh.items()}


def _draws_from_pile(event: Event) -> bool:
    """Whether the event takes the top card of the draw pile (the deal, a turn's draw, a
    Chancellor's draws, a redraw; not a replacement taken from the set-aside or face-up
    cards, whose notes say so)."""
    kind = event.kind
    if kind is K.DREW:
        return event.note == ""
    return kind is K.DEALT or kind is K.SET_ASIDE or kind is K.FACE_UP


class _Returns:
    """The draw pile replayed along a log, for what ``seat`` knows of the cards it returned
    with the Chancellor: once no card is left above them, whoever draws next takes the first
    of them, and ``seat`` knows which card that is (rules.md, the Chancellor: returned face
    down, in the order its player chose)."""

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        draws = sum(1 for e in state.log if _draws_from_pile(e))
        returned = sum(returned_count(e) for e in state.log if e.kind is K.RETURNED)
        # The cards above the returns; returns made before the log began (a position given
        # without its moves) count among them, so nothing is inferred from them.
        self.above = state.pile.size + draws - returned
        self.queue: list[Card | None] = []

    def step(self, event: Event) -> Card | None:
        """Follow ``event``; the card it drew if it is one of ``seat``'s returns."""
        if event.kind is K.RETURNED and event.seat is not None:
            if event.seat == self.seat:
                self.queue.extend(returned_cards(event, self.seat))
            else:
                self.queue.extend([None] * returned_count(event))
            return None
        if not _draws_from_pile(event):
            return None
        if self.above > 0:
            self.above -= 1
            return None
        return self.queue.pop(0) if self.queue else None


def knows(state: State, seat: int) -> dict[int, Card | None]:
    """What ``seat`` knows for certain of each other seat's current hand: a card the other
    seat certainly holds, or ``None`` when nothing is certain (or the seat is out).

    Derived only from the events of ``state.log`` that ``seat`` saw. If several cards of a
    hand are known (rare: only while that seat holds more than one card), the first in card
    order is given; :func:`knowledge_table` gives them all.
    """
    return {s: (cards[0] if cards else None) for s, cards in knowledge_table(state, seat).items()}


def _update(known: dict[int, tuple[Card, ...]], e: Event, me: int, state: State) -> None:
    kind = e.kind
    seen = e.seen_by(me)
    s = e.seat
    if kind is K.DEALT or kind is K.DREW:
        assert s is not None
        if seen and e.card is not None:
            known[s] = (*known[s], e.card)
    elif kind is K.PLAYED:
        assert s is not None and e.card is not None
        if e.card in known[s]:
            known[s] = _remove_one(known[s], e.card)
    elif kind is K.SAW:
        assert e.other is not None
        if seen and s == me:
            # A look shows the card; a solver's deal can carry several cards known from
            # before its position in one such event (``cards``).
            known[e.other] = e.cards or ((e.card,) if e.card is not None else ())
    elif kind is K.COMPARED:
        assert s is not None and e.other is not None
        if seen and len(e.cards) == 2:
            if me == s:
                known[e.other] = (e.cards[1],)
            elif me == e.other:
                known[s] = (e.cards[0],)
    elif kind is K.SWAPPED:
        assert s is not None and e.other is not None
        a, b = s, e.other
        known[a], known[b] = known[b], known[a]
        if seen and me in (a, b) and len(e.cards) == 2:
            # cards = (a's old hand, b's old hand): each now holds what the other gave.
            if me == a:
                known[b] = (e.cards[0],)
            else:
                known[a] = (e.cards[1],)
    elif kind is K.REVEALED:
        assert s is not None and e.card is not None
        known[s] = (e.card,)
    elif kind is K.DISCARDED or kind is K.KNOCKED_OUT or kind is K.RETURNED:
        assert s is not None
        known[s] = ()
    elif kind is K.SHOWDOWN:
        holders = [i for i in state.in_round() if state.seats[i].hand]
        if len(holders) == len(e.cards):
            for i, card in zip(holders, e.cards, strict=True):
                known[i] = (card,)


def knowledge_unsure_to(state: State, observer: int, knower: int) -> frozenset[int]:
    """The seats of whose hand ``knower`` cannot tell whether ``observer`` still knows
    something: ``observer`` learnt of the hand from an event ``knower`` did not see the cards
    of (a Priest's look, a Baron's comparison or a King's swap between others), and that seat
    has played a card since, which ends the knowledge only if it was the card seen.

    Whether such knowledge lasted depends on cards ``knower`` never saw, so a solver's best
    response for ``knower`` does not carry it into its deals: the deals do not deal the cards
    of that past, so they cannot say it either way. Knowledge of ``knower``'s own hand is
    never unsure: it held the card seen (one card between its turns) and knows what it
    played since."""
    hidden = [False] * state.players
    unsure = [False] * state.players
    returns = _Returns(state, observer)

    def learnt(seat: int, event: Event) -> None:
        hidden[seat] = seat != knower and not event.seen_by(knower)
        unsure[seat] = False

    for e in state.log:
        kind, s, other = e.kind, e.seat, e.other
        drawn = returns.step(e)
        if s is None:
            continue
        if kind is K.DEALT or kind is K.DREW:
            if s != observer and (
                drawn is not None or (e.card is not None and e.seen_by(observer))
            ):
                hidden[s] = hidden[s] or (
                    s != knower and (drawn is not None or not e.seen_by(knower))
                )
        elif kind is K.PLAYED:
            unsure[s] = unsure[s] or hidden[s]
        elif kind is K.SAW and s == observer and other is not None and e.seen_by(observer):
            learnt(other, e)
        elif kind is K.COMPARED and observer in (s, other) and other is not None:
            learnt(other if s == observer else s, e)
        elif kind is K.SWAPPED and other is not None:
            hidden[s], hidden[other] = hidden[other], hidden[s]
            unsure[s], unsure[other] = unsure[other], unsure[s]
            if knower in (s, other):
                # It saw the card it received and knows its later plays; whether the
                # observer still knew that card before the swap moves with it.
                hidden[knower] = False
            if observer in (s, other):
                learnt(other if s == observer else s, e)
        elif kind in (
            K.REVEALED,
            K.DISCARDED,
            K.KNOCKED_OUT,
            K.RETURNED,
        ):
            hidden[s] = unsure[s] = False
    return frozenset(t for t in range(state.players) if unsure[t])


def knows_bottom(state: State, seat: int) -> tuple[Card, ...] | None:
    """The cards ``seat`` itself put at the bottom of the draw pile with the Chancellor and
    that are still in the pile, in order (the last is the lowest), or ``None`` if there are
    none. Other players' returns may lie beneath them (their cards are not known to ``seat``).

    The returned cards always form the tail of the pile (draws take from the top, returns go
    under everything), so the ones still there are the last ``pile.size`` cards returned.
    """
    tail: list[tuple[int, Card | None]] = []
    for e in state.log:
        if e.kind is K.RETURNED and e.seat is not None:
            # Another seat's cards count too, seen or not (a log of public forms too).
            mine = returned_cards(e, seat) if e.seat == seat else (None,) * returned_count(e)
            tail.extend((e.seat, c) for c in mine)
    left = tail[max(0, len(tail) - state.pile.size) :] if state.pile.size else []
    cards = tuple(c for who, c in left if c is not None and who == seat)
    return cards or None


# ----------------------------------------------------------------------------- public inferences


Exclusions = tuple[frozenset[Card], ...]
"""What everyone can infer a seat's hand is *not*: one set per card of the hand that the
inference is about (a card that is none of the set's kinds); the seat's other cards are free."""


def public_exclusions(state: State) -> dict[int, Exclusions]:
    """For each seat in the round: what the public events of ``state.log`` rule out of its
    hand now (see :data:`Exclusions`). Only public fields are read (an event's public form),
    so every seat can draw these inferences; seats with none are left out.

    The hard constraints a round's public history puts on a hand (rules.md §1.1 and the
    cards' texts; each is a one-way guarantee: a hand reached by play always fits them):

    * a Guard (or Bishop) that names a card and misses: the target, which holds one card,
      holds no card the guess would have hit (``targets.guess_hits``: by name, or by value),
      and after a Guard no Assassin (it would have knocked the Guard's player out, R6);
    * the Countess rule (R4): a seat that plays the King or a Prince does not keep the
      Countess;
    * a Baron (Dowager Queen) that knocks a seat out: the other seat's card is higher (lower)
      than the loser's card, which is shown;
    * a constrained card moves with a King's or Cardinal's swap; a card played is one the
      constraints allow, so when the seat's constrained card could not have been the one
      played it is still held, and otherwise the constraint is dropped (the seat may have
      kept the card it drew); a discard, a knock-out or a Chancellor's return (the kept card
      may be any of three) drops it too.

    Relations between two hands are not drawn here (a Baron's tie that the discard piles of
    a position without its log show is :func:`public_tie`), nor inferences from how seats
    choose their moves. A state without a log (a position written in the notation) gives
    what its discard piles alone say (:func:`position_exclusions`), and so does a log
    without a card played (it can rule nothing out: a solver's deal, whose log holds only
    what the seats knew before its position, or a position followed by a draw). A log that
    starts at such a position (a scenario's moves: no seat is dealt in it) adds what the
    discard piles say now to what its events say."""
    return exclusions_from_view(
        state.rules,
        state.log,
        state.phase,
        state.turn,
        tuple(s.discards for s in state.seats),
        tuple(s.out for s in state.seats),
        tuple(len(s.hand) for s in state.seats),
    )


def public_tie(state: State) -> tuple[int, int] | None:
    """The Baron's tie a two-player position without its log shows (:func:`position_tie`):
    ``(seat to move, other seat)`` when the seat to move's older card has the value of the
    other seat's card. With a log, the comparison's cards are known to both seats instead
    (:func:`knowledge_table`)."""
    return _read_piles(state, position_tie)


def _pile_view(
    state: State,
) -> tuple[int, Phase, int, tuple[tuple[Card, ...], ...], tuple[bool, ...]]:
    """What the readings of a position's discard piles take: the number of players, the
    phase, the seat whose turn it is, the discard piles and who is out."""
    discards = tuple(s.discards for s in state.seats)
    return state.players, state.phase, state.turn, discards, tuple(s.out for s in state.seats)


_Read = TypeVar("_Read")


def _read_piles(state: State, reading: Callable[..., _Read | None]) -> _Read | None:
    """``reading`` of the discard piles (:func:`_pile_view`) of a position without its log, or
    whose log has no card played; ``None`` with a log of plays, whose events say instead."""
    if _has_play(state.log):
        return None
    return reading(*_pile_view(state))


def _has_play(events: Sequence[Event]) -> bool:
    """Whether a card was played in ``events``: until then the public events rule nothing
    out, and a position's discard piles say what is sure (:func:`position_exclusions`)."""
    return any(e.kind is K.PLAYED for e in events)


def exclusions_from_view(
    rules: Ruleset,
    events: Sequence[Event],
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
    hand_sizes: Sequence[int],
) -> dict[int, Exclusions]:
    """:func:`public_exclusions` from what every seat sees: the round's events (their public
    forms suffice), the phase, the seat whose turn it is, the discard piles, who is out and
    the hands' sizes (a seat's :class:`~loveformal.observation.Observation` has them all)."""
    piles = position_exclusions(len(out), phase, turn, discards, out)
    if not _has_play(events):
        return piles
    found = exclusions_from_events(rules, events, out, hand_sizes)
    if any(e.kind is K.DEALT for e in events):
        return found  # the log from the deal on: its events say what the piles say
    # A log that starts at a position (a scenario's moves): the piles still say what they
    # say of the hands now, whatever the log says of what happened since the position.
    return _merged(found, piles)


def _merged(a: Mapping[int, Exclusions], b: Mapping[int, Exclusions]) -> dict[int, Exclusions]:
    """Two sure sets of exclusions as one. At a two-player turn (the only place
    :func:`position_exclusions` says anything) each is about one card of its seat, the card
    the seat held before the turn's draw, so the two sets are of the same card and add up;
    with more sets than that they are not told apart, and ``a`` is kept as it is."""
    out = dict(a)
    for s, x in b.items():
        y = out.get(s, ())
        if not y:
            out[s] = x
        elif len(x) == 1 and len(y) == 1:
            out[s] = (x[0] | y[0],)
    return out


def exclusions_from_events(
    rules: Ruleset,
    events: Sequence[Event],
    out: Sequence[bool],
    hand_sizes: Sequence[int],
) -> dict[int, Exclusions]:
    """:func:`public_exclusions` from a round's events (their public forms suffice: a seat's
    view of the log gives the same), with each seat's flag of being out and its hand's size
    now."""
    from loveformal.targets import guess_hits

    players = len(out)
    values = rules.values
    kinds = rules.deck(players).kinds
    slots: dict[int, list[frozenset[Card]]] = {s: [] for s in range(players)}
    played: Event | None = None
    compared: tuple[int, int] | None = None
    for e in events:
        kind, s = e.kind, e.seat
        if kind is K.PLAYED:
            assert s is not None and e.card is not None
            played, compared = e, None
            card = e.card
            kept = [f for f in slots[s] if card in f]  # could not have been the card played
            if card is Card.KING or card is Card.PRINCE:
                # R4: the one card kept is not the Countess.
                kept = [(kept[0] if len(kept) == 1 else frozenset()) | {Card.COUNTESS}]
            slots[s] = kept
        elif kind is K.NO_EFFECT and e.other is not None and played is not None:
            # A Guard's or Bishop's miss: the target holds one card, not the one named.
            guess = played.guess
            if guess is not None and played.other == e.other:
                hit = frozenset(c for c in kinds if guess_hits(rules, guess, c))
                if played.card is Card.GUARD and Card.ASSASSIN in kinds:
                    # A Guard on an Assassin's holder knocks its player out, whatever was
                    # named (R6): a miss says the target holds no Assassin either.
                    hit |= {Card.ASSASSIN}
                slots[e.other] = [_one(slots[e.other]) | hit]
        elif kind is K.COMPARED:
            assert s is not None and e.other is not None
            compared = (s, e.other)
        elif kind is K.KNOCKED_OUT:
            assert s is not None
            if compared is not None and played is not None and s in compared and e.cards:
                winner = compared[1] if s == compared[0] else compared[0]
                lost = values[e.cards[0].index]
                if played.card is Card.DOWAGER_QUEEN:
                    ruled_out = frozenset(c for c in kinds if values[c.index] >= lost)
                else:
                    ruled_out = frozenset(c for c in kinds if values[c.index] <= lost)
                slots[winner] = [_one(slots[winner]) | ruled_out]
            compared = None
            slots[s] = []
        elif kind is K.SWAPPED:
            assert s is not None and e.other is not None
            slots[s], slots[e.other] = slots[e.other], slots[s]
        elif kind is K.DISCARDED or kind is K.RETURNED:
            assert s is not None
            slots[s] = []
    return {
        s: tuple(f for f in fs if f)
        for s, fs in slots.items()
        if any(fs) and not out[s] and len(fs) <= hand_sizes[s]
    }


def position_exclusions(
    players: int,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
) -> dict[int, Exclusions]:
    """What the discard piles of a two-player position without its log say for sure, at a
    turn's draw or decision. The seats alternate, so the seat to move played the card on top
    of its pile two turns ago, and the other seat the card on top of its own last turn —
    unless a Prince lies under that card (it may have been discarded by its player's own
    Prince), or, for the seat to move, the other seat played a Prince (a Cardinal, a
    Bishop) on it since. A Prince or King played kept no Countess (R4), and so:

    * the other seat played a Prince on the seat to move (on itself, its Prince would lie
      under the card it discarded): it still holds the card it kept, no Countess;
    * the other seat played the King: if the seat to move was not protected (its top
      discard is no Handmaid), the seat to move holds the card the King's player kept, and
      the King's player holds the card the seat to move had (no Countess if the seat to move
      had played a Prince on it, below); if it was protected (a Handmaid it played on top of
      its pile), the King did nothing and its player kept a card that is no Countess;
    * the seat to move played a Prince on the other seat, and the other seat's top discard
      is not a card that changes another seat's hand (a Prince, Cardinal or Bishop): the
      seat to move still holds the card it kept (or, after the other seat's King, the card
      that King's player kept), no Countess.

    A Baron the other seat played on the unprotected seat to move with both still in is a
    tie, a relation between the hands (:func:`position_tie`). Other inferences need the log
    (which discards were plays, what a Guard named). The piles, seats out and turn are all
    public: a seat's observation gives the same."""
    if not _at_a_two_player_turn(players, phase, out):
        return {}
    mover = turn
    other = 1 - mover
    theirs = _played_top(discards[other])
    mine_pile = discards[mover]
    mine = _played_top(mine_pile)
    unprotected = not mine_pile or mine_pile[-1] is not Card.HANDMAID
    no_countess = (frozenset({Card.COUNTESS}),)
    found: dict[int, Exclusions] = {}
    if theirs is Card.PRINCE:
        found[other] = no_countess
    if theirs is Card.KING and unprotected:
        found[mover] = no_countess
        if mine is Card.PRINCE:
            found[other] = no_countess
    if theirs is Card.KING and mine is Card.HANDMAID:
        found[other] = no_countess
    if mine is Card.PRINCE and discards[other][-1:] not in _CHANGES_HANDS:
        found[mover] = no_countess
    return found


_CHANGES_HANDS = ((Card.PRINCE,), (Card.CARDINAL,), (Card.BISHOP,))
"""Top discards of a seat that may have changed the other seat's hand other than by a King
(a Prince made it discard, a Cardinal swapped, a Bishop's hit let it redraw)."""


def position_tie(
    players: int,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
) -> tuple[int, int] | None:
    """A Baron's tie read off the discard piles of a two-player position without its log
    (see :func:`position_exclusions`): the other seat's last play was a Baron, the seat to
    move was not protected (its top discard is no Handmaid) and both are still in, so the
    two hands compared were of equal value. The other seat still holds the card it
    compared, the seat to move among its older cards: ``(seat to move, other seat)``, the
    seat to move's older card of the other seat's card's value; ``None`` if no tie is sure."""
    if not _at_a_two_player_turn(players, phase, out):
        return None
    mover = turn
    other = 1 - mover
    mine_pile = discards[mover]
    if _played_top(discards[other]) is not Card.BARON:
        return None
    if mine_pile and mine_pile[-1] is Card.HANDMAID:
        return None
    return (mover, other)


def position_sights(
    players: int,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
) -> tuple[tuple[int, int], ...]:
    """What a seat has privately seen of another's hand, read off the discard piles of a
    two-player position without its log (see :func:`position_exclusions`): ``(observer,
    seat)`` when ``observer`` knows the card ``seat`` held before its turn's draw (its older
    card; the seat to move has only drawn since the other seat's last play, which is the
    other seat's top discard with no Prince under it). The seat to move was not protected
    (its top discard is no Handmaid: a Handmaid there may have protected it), both are still
    in, and the other seat's last play was

    * a Priest: its player saw the seat to move's card, ``(other, seat to move)``;
    * a King: the two seats swapped hands, each knows the card it handed over,
      ``(other, seat to move)`` and ``(seat to move, other)``.

    Which of the seat to move's two cards is the older one the piles do not say: each deal
    of a solver's root gives it in either order."""
    if not _at_a_two_player_turn(players, phase, out):
        return ()
    mover = turn
    other = 1 - mover
    mine_pile = discards[mover]
    if mine_pile and mine_pile[-1] is Card.HANDMAID:
        return ()
    theirs = _played_top(discards[other])
    if theirs is Card.PRIEST:
        return ((other, mover),)
    if theirs is Card.KING:
        return ((other, mover), (mover, other))
    return ()


def public_sights(state: State) -> tuple[tuple[int, int], ...]:
    """:func:`position_sights` of a position without its log (or whose log has no card
    played); with a log, what each seat saw is in its events (:func:`knowledge_table`)."""
    if _has_play(state.log):
        return ()
    return position_sights(*_pile_view(state))


def position_drawn_return(
    players: int,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
    pile_size: int,
    short_deck_returns: bool,
) -> tuple[int, int] | None:
    """The card the seat to move has just drawn, known to the other seat because it was that
    seat's Chancellor return, read off the discard piles and the deck's size of a
    two-player position without its log: ``(other seat, seat to move)``, or ``None``.

    The other seat's last play (its top discard, with no Prince under it) was a Chancellor:
    it drew two cards and put two under the deck (one when one card was left, unless
    ``chancellor_short_deck = no_effect_below_two``: ``short_deck_returns`` false), and the
    seat to move then drew the deck's top card. With one card left now, the deck held
    two then, both returns, so the seat to move drew the upper one; with none left (one
    returned), it drew the only one. Either way the Chancellor's player knows it (rules.md,
    the Chancellor: returned face down, in the order its player chose). Only at the seat to
    move's decision (it has drawn); which of its two cards is the new one the notation
    does not say."""
    if phase is not Phase.PLAY or not _at_a_two_player_turn(players, phase, out):
        return None
    other = 1 - turn
    if _played_top(discards[other]) is not Card.CHANCELLOR:
        return None
    if pile_size == 1 or (pile_size == 0 and short_deck_returns):
        return (other, turn)
    return None


def public_drawn_return(state: State) -> tuple[int, int] | None:
    """The card the seat to move of a position without its log (or whose log has no card
    played) has just drawn, known to the other seat as its Chancellor return:
    ``(other seat, seat to move)`` or ``None``. Read off the orders of turns the discard piles
    fit (:func:`loveformal.turn_history.kept_accounts`: every one says the card came off the
    other seat's returns), or, when no order fits (a hand-written position), by
    :func:`position_drawn_return`. With a log, what a seat knows of the cards drawn off its
    returns is in :func:`drawn_since` and :func:`knowledge_table`."""
    if _has_play(state.log) or state.phase is not Phase.PLAY:
        return None
    accounts = kept_accounts(state)
    if accounts:
        other = 1 - state.turn
        return (other, state.turn) if all(a.drawn == other for a in accounts) else None
    short = state.rules.options.chancellor_short_deck != "no_effect_below_two"
    return position_drawn_return(*_pile_view(state), state.pile.size, short)


def public_return_drawn_last(state: State) -> bool:
    """Whether the seat to move of a two-player position without its log (or whose log has
    no card played) knows the card the other seat drew at the start of its last turn: every
    order of turns its discard piles fit (:func:`loveformal.turn_history.kept_accounts`) says
    that card was the seat to move's Chancellor return (rules.md, the Chancellor: returned
    face down, in the order its player chose), and the other seat's one play since, its top
    discard with no Prince under it, was a Guard, Handmaid, Countess or Spy (it changed no
    hand and showed no card). The other seat still holds that card or has just played it,
    as after a Priest's look at its card two turns back (:func:`position_last_play`). Only
    when the piles show no other such reading (the seat to move's own last play, the other
    seat's earlier one, a look), which is read instead."""
    out = tuple(s.out for s in state.seats)
    if _has_play(state.log) or not _at_a_two_player_turn(state.players, state.phase, out):
        return False
    other = 1 - state.turn
    if _played_top(state.seats[other].discards) not in _QUIET:
        return False
    if _other_reading(state):
        return False
    accounts = kept_accounts(state)
    if not accounts:
        return False
    return all(a.other_drew == state.turn for a in accounts)


def public_return_drawn_earlier(state: State) -> bool:
    """The mirror of :func:`public_return_drawn_last`: whether the other seat knows the card
    the seat to move drew at the start of its turn before this one, its Chancellor return
    (every order of turns the piles fit says so), with one play by each since, the seat to
    move's top discard and then the other seat's, each a Guard, Handmaid, Countess or Spy
    with no Prince under it. The seat to move still holds that card or has played it, as
    after the other seat's Priest three turns back (:func:`position_earlier_play`). Only
    when the piles show no other such reading."""
    out = tuple(s.out for s in state.seats)
    if _has_play(state.log) or not _at_a_two_player_turn(state.players, state.phase, out):
        return False
    mover, other = state.turn, 1 - state.turn
    if any(_played_top(state.seats[i].discards) not in _QUIET for i in (mover, other)):
        return False
    if public_return_drawn_last(state) or _other_reading(state):
        return False
    accounts = kept_accounts(state)
    if not accounts:
        return False
    return all(a.mover_drew == other for a in accounts)


def _other_reading(state: State) -> bool:
    """Whether the piles show one of the readings a drawn return gives way to: the seat to
    move's last play, the other seat's earlier one, a look. A return the seat to move has
    just drawn (:func:`public_drawn_return`) is not among them: the solver reads it with a
    return drawn last, and refuses a position that shows it with one drawn earlier."""
    return (
        public_last_play(state) is not None
        or public_earlier_play(state) is not None
        or bool(public_sights(state))
    )


_QUIET = frozenset({Card.GUARD, Card.HANDMAID, Card.COUNTESS, Card.SPY})
"""Plays that change no hand and show their player no card (a Guard's hit would have ended a
two-player round)."""

_LOOKS = (Card.PRIEST, Card.BARON, Card.KING)
"""Plays on another seat that leave their player knowing that seat's card."""


def position_last_play(
    players: int,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
) -> Card | None:
    """The seat to move's own last play, when the discard piles of a two-player position
    without its log show that it left it knowing the other seat's card: a Priest (it saw
    that card), a Baron (both still in: a tie, and each saw the other's card) or a King (the
    hands swapped: each knows the card it handed over), played on the other seat two turns
    ago; ``None`` otherwise.

    The seat to move's top discard is that card with no Prince under it (see
    :func:`position_exclusions`); the other seat was not protected then (the discard under
    its top one is no Handmaid) and its one play since, its top discard with no Prince under
    it, is a Guard, Handmaid, Countess or Spy: it changed no hand and showed its player
    nothing. That seat then held the card the seat to move knew and the card it drew, and
    played one of them; which one the piles do not say, so the seat to move knows its card
    only if it kept the known one (the solver's deals carry both histories, each order of
    that seat's two cards alike). After a King the card the seat
    to move handed over is no Countess (R4). Plays by the other seat that tell more (a
    Priest, Baron, King, Prince or Chancellor) are not read here."""
    if not _at_a_two_player_turn(players, phase, out):
        return None
    mine = _played_top(discards[turn])
    theirs = discards[1 - turn]
    if mine not in _LOOKS or _played_top(theirs) not in _QUIET:
        return None
    if len(theirs) > 1 and theirs[-2] is Card.HANDMAID:
        return None
    return mine


def public_last_play(state: State) -> Card | None:
    """:func:`position_last_play` of a position without its log (or whose log has no card
    played); with a log, what a seat saw is in its events (:func:`knowledge_table`)."""
    return _read_piles(state, position_last_play)


def position_earlier_play(
    players: int,
    phase: Phase,
    turn: int,
    discards: Sequence[tuple[Card, ...]],
    out: Sequence[bool],
) -> Card | None:
    """The other seat's play before its last, when the discard piles of a two-player position
    without its log show that it left that seat knowing the seat to move's card, and the
    seat to move knowing what it knew: a Priest (it saw that card), a Baron (a tie: each saw
    the other's card) or a King (each knows the card it handed over), played on the seat to
    move three turns ago; ``None`` otherwise. The mirror of :func:`position_last_play`.

    The card under the other seat's top discard is that card, with no Prince under it; the
    seat to move was not protected then (the discard under its top one is neither a
    Handmaid nor a Prince); and the two plays since, the seat to move's top discard and then
    the other seat's, are each a Guard, Handmaid, Countess or Spy. Each seat then held the
    card it had then and the card it drew, and played one of them; the piles do not say
    which, so the solver's deals carry every such history, each order of the cards alike.
    After a King the card its player handed over is no Countess (R4)."""
    if not _at_a_two_player_turn(players, phase, out):
        return None
    mine = discards[turn]
    theirs = discards[1 - turn]
    if len(theirs) < 2 or not mine or theirs[-2] not in _LOOKS:
        return None
    if theirs[-1] not in _QUIET or mine[-1] not in _QUIET:
        return None
    if len(theirs) > 2 and theirs[-3] is Card.PRINCE:
        return None
    if len(mine) > 1 and mine[-2] in (Card.PRINCE, Card.HANDMAID):
        return None
    return theirs[-2]


def public_earlier_play(state: State) -> Card | None:
    """:func:`position_earlier_play` of a position without its log (or whose log has no card
    played); with a log, what a seat saw is in its events (:func:`knowledge_table`)."""
    return _read_piles(state, position_earlier_play)


def _at_a_two_player_turn(players: int, phase: Phase, out: Sequence[bool]) -> bool:
    """Whether the discard piles can be read as alternate turns: two players, both still in,
    at a turn's draw or decision."""
    return players == 2 and phase in (Phase.PLAY, Phase.TURN_DRAW) and not any(out)


def _played_top(piles: tuple[Card, ...]) -> Card | None:
    """The top discard when it is surely the card its seat played last (no Prince under it)."""
    if not piles or (len(piles) > 1 and piles[-2] is Card.PRINCE):
        return None
    return piles[-1]


def _one(slots: list[frozenset[Card]]) -> frozenset[Card]:
    """The constraint of a seat that holds one card (none if the tracking says otherwise)."""
    return slots[0] if len(slots) == 1 else frozenset()


def fits(hand: tuple[Card, ...], exclusions: Exclusions) -> bool:
    """Whether ``hand`` has a distinct card for each of ``exclusions`` that is none of its
    set's kinds (:func:`public_exclusions`)."""
    if not exclusions:
        return True
    if len(exclusions) > len(hand):
        return False
    first, rest = exclusions[0], exclusions[1:]
    for i, card in enumerate(hand):
        if card not in first and fits(hand[:i] + hand[i + 1 :], rest):
            return True
    return False
