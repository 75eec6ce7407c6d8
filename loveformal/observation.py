"""What one seat knows: its observation (information state) of a game state.

:func:`observation` keeps exactly what ``seat`` has seen, and nothing else:

* public facts: the ruleset key, the number of players, the round and its starter, every
  seat's tokens, discard pile, out / protected / spied flags and hand *size*, the face-up
  cards, the Sycophant's mark and the Jester's bet, the phase, whose turn it is and any
  pending decision or draw (``pending_seat``, ``chancellor_draws``), the draw pile's *size*,
  whether the face-down set-aside card is still there (not which card it is), and the round
  and match winners and the next starters;
* its own hand;
* every event of this round (``state.log``) in the form the seat saw it: the event itself
  when the seat saw its hidden cards (:meth:`~loveformal.events.Event.seen_by`), its public
  form (:meth:`~loveformal.events.Event.public`) otherwise. This is *perfect recall within
  the round*: the order of events, and every card the seat was shown, stay in the
  observation even after the cards moved on (a King swap, a Prince discard);
* what follows from those events alone: the cards it knows for certain each other seat
  holds (:func:`loveformal.knowledge.knowledge_table`) and its own Chancellor returns still
  at the bottom of the pile (:func:`loveformal.knowledge.knows_bottom`).

It never holds the set-aside card, another seat's hand, the order of the draw pile or any
card of an event the seat did not see. Hence :attr:`Observation.key`: two states have equal
keys for ``seat`` exactly when ``seat`` cannot tell them apart. (Earlier rounds are not
recalled: a new round starts with an empty log; the tokens carry the match's history.)

:func:`information_state_string` renders the same information as readable text, one event
per line (a perfect-recall information-state string, as OpenSpiel wants one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loveformal.actions import guess_text
from loveformal.cards import Card
from loveformal.events import Event
from loveformal.knowledge import knowledge_table, knows_bottom
from loveformal.ruleset import Ruleset
from loveformal.seats import seat_name
from loveformal.state import Phase, State

__all__ = ["Observation", "event_text", "information_state_string", "observation"]


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat knows of a state (see the module docstring). Frozen, hashable;
    :attr:`key` is its canonical form."""

    seat: int
    """The observing seat."""
    rules: Ruleset
    """The ruleset (equality and hashing by its key: preset and option overrides)."""
    players: int
    round: int
    starter: int
    phase: Phase
    turn: int
    pending_seat: int | None
    chancellor_draws: int
    hand: tuple[Card, ...]
    """The observing seat's own hand (sorted)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds (public)."""
    discards: tuple[tuple[Card, ...], ...]
    out: tuple[bool, ...]
    protected: tuple[bool, ...]
    spied: tuple[bool, ...]
    tokens: tuple[int, ...]
    face_up: tuple[Card, ...]
    sycophant: int | None
    jester: tuple[int, int] | None
    pile_size: int
    known_bottom: tuple[Card, ...]
    """The seat's own Chancellor returns still in the pile, in order (the last is lowest)."""
    set_aside_present: bool
    """Whether the face-down set-aside card is still set aside (never *which* card)."""
    round_winners: tuple[int, ...]
    next_starters: tuple[int, ...]
    game_winners: tuple[int, ...]
    events: tuple[Event, ...]
    """This round's events as the seat saw them, oldest first."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat: the cards the observing seat knows for certain that seat holds (derived from
    :attr:`events`; empty for the observing seat itself)."""

    @property
    def key(self) -> tuple[Any, ...]:
        """The canonical, hashable form: equal exactly for states the seat cannot tell apart.

        (:attr:`known` is left out: it is a function of the events and the public flags.)"""
        return (
            self.seat,
            self.rules.key,
            self.players,
            self.round,
            self.starter,
            self.phase.value,
            self.turn,
            self.pending_seat,
            self.chancellor_draws,
            self.hand,
            self.hand_sizes,
            self.discards,
            self.out,
            self.protected,
            self.spied,
            self.tokens,
            self.face_up,
            self.sycophant,
            self.jester,
            self.pile_size,
            self.known_bottom,
            self.set_aside_present,
            self.round_winners,
            self.next_starters,
            self.game_winners,
            self.events,
        )


def _seen(event: Event, seat: int) -> Event:
    return event if event.seen_by(seat) else event.public()


def observation(state: State, seat: int) -> Observation:
    """What ``seat`` knows of ``state`` (see the module docstring)."""
    if not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat_name(seat)} (P1..P{state.players})")
    seats = state.seats
    table = knowledge_table(state, seat)
    return Observation(
        seat=seat,
        rules=state.rules,
        players=state.players,
        round=state.round,
        starter=state.starter,
        phase=state.phase,
        turn=state.turn,
        pending_seat=state.pending_seat,
        chancellor_draws=state.chancellor_draws,
        hand=seats[seat].hand,
        hand_sizes=tuple(len(s.hand) for s in seats),
        discards=tuple(s.discards for s in seats),
        out=tuple(s.out for s in seats),
        protected=tuple(s.protected for s in seats),
        spied=tuple(s.spied for s in seats),
        tokens=tuple(s.tokens for s in seats),
        face_up=state.face_up,
        sycophant=state.sycophant,
        jester=state.jester,
        pile_size=state.pile.size,
        known_bottom=knows_bottom(state, seat) or (),
        set_aside_present=state.set_aside is not None,
        round_winners=state.round_winners,
        next_starters=state.next_starters,
        game_winners=state.game_winners,
        events=tuple(_seen(e, seat) for e in state.log),
        known=tuple(table.get(i, ()) for i in range(state.players)),
    )


def _cards(cards: tuple[Card, ...]) -> str:
    return ",".join(c.title for c in cards) if cards else "-"


def _seats(seats: tuple[int, ...]) -> str:
    return ",".join(seat_name(s) for s in seats) if seats else "-"


def event_text(event: Event) -> str:
    """One event as text, with every field that is set (hidden fields show as ``?``).

    Injective: different events give different texts."""
    parts = [event.kind.value]
    if event.seat is not None:
        parts.append(seat_name(event.seat))
    if event.other is not None:
        parts.append(f"->{seat_name(event.other)}")
    if event.card is not None:
        parts.append(f"card={event.card.title.replace(' ', '_')}")
    if event.cards:
        parts.append("cards=" + _cards(event.cards).replace(" ", "_"))
    if event.guess is not None:
        parts.append(f"guess={guess_text(event.guess).replace(' ', '_')}")
    if event.note:
        parts.append(f"note={event.note!r}")
    if event.visible_to is None:
        parts.append("(public)")
    elif not event.visible_to:
        parts.append("(hidden)")
    else:
        parts.append(f"(seen by {_seats(event.visible_to)})")
    return " ".join(parts)


def information_state_string(state: State, seat: int) -> str:
    """A readable perfect-recall information-state string for ``seat``: the seat's view of
    the position (:func:`loveformal.notation.format_position` with ``seat``) on the first
    line, then this round's events as the seat saw them, one per line.

    Equal for two states exactly when their :attr:`Observation.key` s are equal."""
    from loveformal.notation import format_observation

    obs = observation(state, seat)
    lines = [format_observation(obs)]
    lines.extend(f"{i}. {event_text(e)}" for i, e in enumerate(obs.events, 1))
    return "\n".join(lines)
