"""Worlds consistent with one seat's observation (determinisation for search bots).

:func:`sample_world` builds a concrete :class:`~loveformal.state.State` that the observing
seat cannot tell from the real one (``observation(world, seat).key == obs.key``):

* the seat's own hand, every discard pile, the face-up cards, the public flags and tokens
  are copied from the observation;
* cards the seat knows another seat holds (:attr:`Observation.known`) stay with that seat,
  and the seat's own Chancellor returns stay at the bottom of the pile, in order;
* every other card — the rest of the other hands, the draw pile and **the face-down
  set-aside card** — is dealt uniformly from the unseen multiset (:func:`unseen_cards`).
  The set-aside card is never taken from the real state: it is unknown to the seat and is
  sampled like any unseen card (TAG's bug 1 in ``anchors.md`` conditioned every sampled
  world on the true removed card).

A uniform deal of the unseen cards gives every deal that fits the seen cards the same
weight, which is the exact posterior of a shuffled deck given hard constraints. The hard
constraints that are not seen cards are what the public events rule out
(:func:`loveformal.knowledge.exclusions_from_view`, as the solver's root deals): a Guard's
or Bishop's miss, the Countess rule (a seat that played the King or a Prince kept no
Countess), a Baron's or Dowager Queen's knock-out (the winner's card is higher, or lower,
than the loser's), each as long as the seat may not have changed that card since. Worlds
breaking such a constraint are rejected and redrawn (rejection sampling keeps the weights
exact: the other seats hold one card each when a seat decides). Inferences that depend on
how the opponents choose their moves are not modelled (no opponent model), nor the tie of a
Baron between two other seats (equal cards, a relation between two hands).

Chancellor returns: the cards still in the pile that another seat returned are dealt from
the unseen cards like the rest, but into their places at the bottom (between and beneath the
seat's own returns, in the order of the returns), and the world's log says that seat saw
them (its return event with those cards, ``visible_to`` that seat), so that a solver given
the world lets that seat, and nobody else, know them. Such an event holds only the cards
still in the pile (those drawn since are not modelled); its note still gives how many it
returned (:func:`~loveformal.events.returned_count`), so its public form is unchanged and
the draw pile replays the same way.
"""

from __future__ import annotations

import random
from collections import Counter

from loveformal import events as K
from loveformal.cards import Card, sort_cards
from loveformal.events import Event, returned_cards
from loveformal.knowledge import Exclusions, exclusions_from_view, fits
from loveformal.observation import Observation
from loveformal.state import DrawPile, Seat, State

__all__ = [
    "MAX_TRIES",
    "WorldSampler",
    "excluded_cards",
    "hidden_slots",
    "sample_world",
    "unseen_cards",
]

MAX_TRIES = 200
"""Rejection-sampling attempts before the last sample is returned as it is."""


def unseen_cards(obs: Observation) -> Counter[Card]:
    """The cards the seat has not seen: the deck minus its hand, every discard pile, the
    face-up cards, the cards it knows others hold and its own returns still in the pile."""
    counts: Counter[Card] = Counter(obs.rules.deck(obs.players).cards())
    seen: Counter[Card] = Counter(obs.hand)
    for pile in obs.discards:
        seen.update(pile)
    seen.update(obs.face_up)
    for i, cards in enumerate(obs.known):
        if i != obs.seat:
            seen.update(cards)
    seen.update(obs.known_bottom)
    counts.subtract(seen)
    if any(n < 0 for n in counts.values()):
        raise ValueError("the observation shows more copies of a card than the deck holds")
    return +counts


def hidden_slots(obs: Observation) -> tuple[tuple[int, ...], int, int]:
    """Per seat the number of its cards the observer does not know, then the unknown cards
    of the draw pile, then 1 if the set-aside card is still there (else 0)."""
    hands = tuple(
        0 if i == obs.seat else max(0, obs.hand_sizes[i] - len(obs.known[i]))
        for i in range(obs.players)
    )
    return hands, obs.pile_size - len(obs.known_bottom), int(obs.set_aside_present)


def excluded_cards(obs: Observation) -> dict[int, frozenset[Card]]:
    """Per other seat holding one card: the kinds it cannot hold, by what the public events
    rule out (:func:`loveformal.knowledge.exclusions_from_view`: a Guard's or Bishop's
    miss, the Countess rule, a Baron's or Dowager Queen's knock-out)."""
    return {i: x[0] for i, x in _exclusions(obs).items() if obs.hand_sizes[i] == 1 and len(x) == 1}


def _exclusions(obs: Observation) -> dict[int, Exclusions]:
    """What the public history rules out of the other seats' hands, as the solver's root
    deals (:func:`loveformal.knowledge.exclusions_from_view`): from the events, or, for a
    position without its log (or whose log has no card played), from the discard piles
    alone, and from both for a log that starts at a position."""
    found = exclusions_from_view(
        obs.rules, obs.events, obs.phase, obs.turn, obs.discards, obs.out, obs.hand_sizes
    )
    found.pop(obs.seat, None)
    return found


class WorldSampler:
    """:func:`sample_world` for one observation, with its counting done once (search bots
    sample many worlds from the same observation)."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.hands_n, self.pile_n, self.aside_n = hidden_slots(obs)
        needed = sum(self.hands_n) + self.pile_n + self.aside_n
        self.pool = sorted(unseen_cards(obs).elements(), key=lambda c: c.index)
        if len(self.pool) < needed:
            raise ValueError(
                f"the observation hides {needed} cards but only {len(self.pool)} cards are unseen"
            )
        self.excluded = _exclusions(obs)
        self.returns = _returns_left(obs)
        self.others_returned = sum(1 for _, card in self.returns if card is None)

    def _deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card], Card | None]:
        pool = list(self.pool)
        rng.shuffle(pool)
        k = 0
        dealt: list[list[Card]] = []
        for n in self.hands_n:
            dealt.append(pool[k : k + n])
            k += n
        pile = pool[k : k + self.pile_n]
        k += self.pile_n
        aside = pool[k] if self.aside_n else None
        return dealt, pile, aside

    def sample(self, rng: random.Random) -> State:
        """One world (see :func:`sample_world`)."""
        obs = self.obs
        for _ in range(MAX_TRIES):
            dealt, pile, aside = self._deal(rng)
            if all(fits((*obs.known[i], *dealt[i]), x) for i, x in self.excluded.items()):
                break
        seats: list[Seat] = []
        for i in range(obs.players):
            hand = obs.hand if i == obs.seat else sort_cards((*obs.known[i], *dealt[i]))
            seats.append(
                Seat(
                    hand,
                    obs.discards[i],
                    obs.out[i],
                    obs.protected[i],
                    obs.tokens[i],
                    obs.spied[i],
                )
            )
        # The first cards dealt to the pile go to the other seats' returns still in it.
        theirs = iter(pile[: self.others_returned])
        tail = tuple(card if card is not None else next(theirs) for _, card in self.returns)
        rest = pile[self.others_returned :]
        draw_pile = DrawPile((), sort_cards(rest), tail) if rest else DrawPile(tail)
        return State(
            rules=obs.rules,
            players=obs.players,
            seats=tuple(seats),
            pile=draw_pile,
            set_aside=aside,
            face_up=obs.face_up,
            phase=obs.phase,
            turn=obs.turn,
            pending_seat=obs.pending_seat,
            chancellor_draws=obs.chancellor_draws,
            sycophant=obs.sycophant,
            jester=obs.jester,
            round=obs.round,
            starter=obs.starter,
            round_winners=obs.round_winners,
            next_starters=obs.next_starters,
            game_winners=obs.game_winners,
            log=_with_returns(obs, self.returns, tail),
        )


def _returns_left(obs: Observation) -> list[tuple[int, Card | None]]:
    """The returned cards still in the pile, top to bottom: for each, the event (its index
    in ``obs.events``) that returned it and the card when the seat saw it (its own), else
    None. Returns go under everything and draws take from the top, so these are the last
    ``pile_size`` cards returned."""
    returned: list[tuple[int, Card | None]] = []
    for i, e in enumerate(obs.events):
        if e.kind is K.RETURNED and e.seat is not None:
            mine = e.seat == obs.seat
            returned.extend((i, c if mine else None) for c in returned_cards(e, obs.seat))
    return returned[max(0, len(returned) - obs.pile_size) :] if obs.pile_size else []


def _with_returns(
    obs: Observation, returns: list[tuple[int, Card | None]], tail: tuple[Card, ...]
) -> tuple[Event, ...]:
    """``obs.events`` with each other seat's return event holding its dealt cards still in
    the pile (``tail``: the cards of ``returns``, :func:`_returns_left`, with the other seats'
    dealt), seen by that seat."""
    dealt: dict[int, list[Card]] = {}
    for (i, card), put in zip(returns, tail, strict=True):
        if card is None:
            dealt.setdefault(i, []).append(put)
    if not dealt:
        return obs.events
    events = list(obs.events)
    for i, cards in dealt.items():
        e = events[i]
        assert e.seat is not None  # _returns_left reads only returns with a seat
        events[i] = e._replace(cards=tuple(cards), visible_to=(e.seat,))
    return tuple(events)


def sample_world(obs: Observation, rng: random.Random) -> State:
    """A state consistent with ``obs``, drawn uniformly among the deals of the unseen cards
    that respect the seen cards and the Guard misses (see the module docstring)."""
    return WorldSampler(obs).sample(rng)
