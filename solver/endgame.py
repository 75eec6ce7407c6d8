"""Love Letter endgames as extensive-form games: the root deals and the tree builder.

**The root deals.** Given a position ``S`` (a :class:`~loveformal.state.State`, usually
parsed from the notation or taken from a scenario), the game solved is the rest of the round
from ``S`` with every card that is not public dealt afresh at a root chance node:

* *Public* cards are every seat's discard pile and the face-up cards (2-player rounds). Every
  other card is *unseen*, the Chancellor's returns too: they go to the bottom of the deck
  face down (rules.md, the Chancellor), so only the seat that returned them knows them.
* The unseen cards are exactly the cards of the deck for the player count minus the public
  cards. The position must account for all of them: its hands, its set-aside card and its
  draw pile must hold exactly this multiset, or :class:`~loveformal.errors.MalformedInput`
  is raised (a hand-written position that leaves cards out of play cannot be solved). A
  position whose public cards say no round reaches it (a protected seat whose last discard
  is not its Handmaid, a discarded Princess in the round, discard piles that do not fit turns
  in seat order, a face-up or set-aside card gone without a replacement draw to take it, a
  known deck order no Chancellor explains) is refused too (:func:`_check_history`).
* A *deal* puts the unseen cards into the zones of ``S`` with ``S``'s sizes: each seat still in
  the round gets a hand of its size in ``S`` (2 for the seat to move after its draw, 1
  otherwise), the set-aside card (if ``S`` still has one) gets one card, each slot of the
  *returned tail* one card, and the rest go to the draw pile as an *unseen multiset*
  (``DrawPile.unseen``, above the tail): the draws are then the engine's own chance nodes.
  **The solving seat's own hand is dealt like the others**, so that no seat is assumed to
  know another's hand. The returned tail (:func:`returned_tail`) is the cards a Chancellor
  put at the bottom that are still in the pile, in their order, each with the seat that put
  it there: read from the round's log, or, in a position without one (the notation), the
  deck's known-order part. With two players the order of turns the discard piles fit says
  whose those cards are (:func:`loveformal.turn_history.position_returns`: which Chancellor
  on a pile was played rather than discarded to a Prince, and whose returns lie lowest);
  when the orders that fit disagree, the position is refused. With more players they are
  the returns of the one seat that has played a Chancellor (when several have, the position
  is refused). **Each slot
  of the tail is dealt too**, and its seat alone knows what the deal put there (below), so
  that the other seat is never assumed to know the cards it did not see returned.
* A deal must agree with what each seat has privately seen of another:
  :func:`loveformal.knowledge.knowledge_table` of ``S`` for every seat gives the cards it
  knows another seat holds (Priest, Baron, King, ...), and a deal must give that seat those
  cards (for each card kind, the largest number any seat knows of among its older cards, and
  each new card some seat knows it drew, in its place). A position written in the
  notation has an empty event log, so it carries no such knowledge. With two players these
  constraints are common knowledge at the root (every such event is public in form: the seen
  seat knows it was seen, and there is nobody else). A best response (``knower``: three or
  more players, or opponent models) keeps only what the seat solved for has seen: a third
  seat does not know what a Priest showed another.
* A deal must also agree with what the log's public events rule out
  (:func:`loveformal.knowledge.public_exclusions`): a Guard's or Bishop's miss (the target
  does not hold the card named, while it may not have changed that card since), the
  Countess rule (a seat that played the King or a Prince kept no Countess; R4), a Baron's or
  Dowager Queen's knock-out (the winner's card is higher, or lower, than the loser's). A
  two-player position without a log gives only what its discard piles say for sure
  (:func:`loveformal.knowledge.position_exclusions`: a Prince or King played on the last
  turns kept no Countess), and a Baron the other seat played on the unprotected seat to
  move is a tie (:func:`loveformal.knowledge.public_tie`: the seat to move's older card has
  the value of the other seat's card). The seat to move's own Priest, Baron or King two
  turns back, with one quiet play of the other seat since
  (:func:`loveformal.knowledge.public_last_play`), left it knowing the other seat's card,
  kept or played since: each deal is split by both histories (:func:`_split_by_last_play`).
  The rest is history the notation does not write (which discards were plays, what a
  Guard named).
* Probability: each arrangement of card *instances* is equally likely, so a deal (zones given
  as multisets of card kinds; identical cards are one outcome) has weight
  ``Π_kind count! / Π_zone,kind (copies in zone)!`` normalised over the consistent deals.
  What is known or ruled out of a hand is about particular cards of it: the older cards, or
  the new ones drawn since the last event that named the seat
  (:func:`loveformal.knowledge.drawn_since`; without a log, the card the seat to move has
  just drawn). A hand of two cards or more that something known tells apart is counted in
  order: its weight is multiplied by the number of orders of its card instances (older
  places first) that fit (:func:`_ordered_weight`), so a hand that fits with its cards in
  one order only weighs half of one that fits in both (with the older card known to be a
  Prince, the drawn card is the other Prince with the chance of any other unseen card).
  A ``prior`` callable ``(deal state, weight) -> new weight`` replaces this weight
  (:data:`Prior`).
* Each deal is ``S`` with the dealt hands, set-aside card and pile, and an **empty log**
  (:func:`deal_state`) — or, with a returned tail, a log of the Chancellor returns that put
  the dealt tail there, each seen by its seat alone, so that its information sets (the
  observation keys: the events as each seat saw them, and
  :func:`~loveformal.knowledge.knows_bottom`) tell the tail apart and the other seat's do
  not. A tie's deals log the comparison (:func:`_tie_events`: both seats saw both cards, and
  the seat to move knows which of its cards is the older), and so do the seat to move's
  last play's (:func:`_last_play_events`: its look, comparison or swap, then the other
  seat's play since). A best response's deals
  (``knower``) also log what each other seat knows of the
  hands, as the deal makes it (one look per seat and hand, seen by the knowing seat and
  the seat looked at, noted "before the position"), where the deals leave it open and
  the seat solved for can be sure it lasted
  (:func:`~loveformal.knowledge.knowledge_unsure_to`). Every other field
  (discards, protection, tokens, turn, phase, ...) is ``S``'s; the public events before
  the position are not in the deal's log.

**The tree.** Below each deal the builder drives the engine itself
(:func:`~loveformal.engine.legal_actions`, :func:`~loveformal.engine.chance_outcomes`,
:func:`~loveformal.engine.apply`): decision nodes are keyed by
``observation(state, seat).key`` (the seat's hand, and every event of the round as the seat
saw it: perfect recall within the round), chance nodes carry the engine's exact
probabilities, terminals are the end of the round (``ROUND_OVER`` or ``GAME_OVER``). The
game is a tree (one history per path). The engine is called once per distinct state *without
its log* (the engine never reads the log, so the subtree's shape, probabilities and utilities
depend on that alone) and the infoset keys are built incrementally along each path; see
"the fast builder" below. (With ``share=True`` the older bottom-up walk keys nodes on the full
state and merges repeats (:meth:`GameBuilder.find`); it builds the same game node for node
when nothing repeats, and is kept as the reference.)

*Utilities* (:data:`UTILITIES`): ``"round"`` (default) — a round win is worth 1; with two
players the utility is zero-sum, ``u_P1 = [P1 won] − [P2 won]`` (a shared win or a round
nobody wins under ``residual_tie = nobody`` is 0); with three or more each seat gets 1 if it is
among the round's winners, else 0. ``"tokens"`` — the tokens each seat gains from the root to
the end of the round (round win plus the 2019 Spy bonus, and any other bonus token); with two
players ``u_P1 = gained_P1 − gained_P2``. (A match that ends mid-round, as Premium's
Bishop/Constable tokens can, counts its match winners as the round's winners.)

*Pruning* (only with ``merge_dead_guesses``, the default for equilibrium solving): Guard and
Bishop guesses that name a card all of whose copies are public (discards, face-up cards) can
never hit and reveal nothing; all such guesses against the same target lead to isomorphic
subgames, so only the first is kept (the others are strategically identical; the value is
unchanged). It is off for best responses against opponent models, whose probabilities count
every legal action. (Guesses dead only by the guesser's *private* knowledge — it holds the
last copy — are not merged: the guess is public, so it can bluff, and merging it changes the
value of some positions.)

*Reductions* (``reduce``, two players; the default of
:func:`~loveformal.solver.analysis.solve_position`): the reduced builder of
:mod:`loveformal.solver.levels` drops actions dominated at every history of their information
set, splices forced moves and one-outcome chance nodes, and collapses choice-free subtrees into
one terminal with the exact expectation — the same value, and an equilibrium of the reduced
game extends to one of the full tree (:func:`extend_strategy`).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

import numpy as np

from loveformal.actions import Action, Play
from loveformal.cards import Card, sort_cards
from loveformal.engine import apply, chance_outcomes, current_player, legal_actions
from loveformal.errors import LoveformalError, MalformedInput
from loveformal.events import Event, EventKind
from loveformal.knowledge import (
    Exclusions,
    drawn_since,
    fits,
    knowledge_table,
    knowledge_unsure_to,
    knows_bottom,
    public_drawn_return,
    public_earlier_play,
    public_exclusions,
    public_last_play,
    public_return_drawn_earlier,
    public_return_drawn_last,
    public_sights,
    public_tie,
)
from loveformal.observation import observation
from loveformal.seats import seat_name
from loveformal.state import CHANCE_PHASES, DrawPile, Phase, Seat, State
from loveformal.turn_history import Account, kept_accounts, public_returns

from .efg import (
    CHANCE,
    DECISION,
    TERMINAL,
    Game,
    GameBuilder,
    InfosetSpec,
    Shared,
    group_by_identity,
    shared_by_identity,
    tree_game,
)
from .expectimax import user_number

_RETURNED = EventKind.RETURNED
_PLAYED = EventKind.PLAYED

if TYPE_CHECKING:
    from .levels import LevelBuild

__all__ = [
    "DEFAULT_MAX_NODES",
    "UTILITIES",
    "Deal",
    "Endgame",
    "EndgameTooLarge",
    "Progress",
    "Reductions",
    "UnknownLastPlay",
    "UnknownOlderCard",
    "Utility",
    "actual_deal",
    "build_endgame",
    "check_knew",
    "check_older",
    "deal_state",
    "enumerate_deals",
    "equivalent_actions",
    "extend_strategy",
    "pile_sights",
    "state_cap",
    "terminal_utility",
    "terminal_winners",
    "unseen_cards",
]

Utility = Literal["round", "tokens"]
UTILITIES: tuple[Utility, ...] = ("round", "tokens")
DEFAULT_MAX_NODES = 3_000_000
"""Histories above which :func:`build_endgame` refuses (estimated first, then counted): the
library's default. The command line's is read off the memory available
(:func:`~loveformal.solver.memory.auto_max_nodes`), this one when the memory cannot be read."""

STATE_CAP_FLOOR = 100_000
"""The least :func:`state_cap` (about 200 MB of engine states, a few seconds to expand)."""
STATES_PER_NODE = 8
""":func:`state_cap` allows one engine state per this many histories of ``max_nodes``."""
REDUCED_STATES_PER_NODE = 4
"""The same for the reduced build, whose games can have fewer histories per state."""
ESTIMATE_SLACK = 30
"""The reduced build refuses at once when its estimate passes this many times the full tree's
state cap (``state_cap(max_nodes)``, one state per 8 histories: the cap it was measured
against; the reduced build's own cap, twice that, came later).
The estimate over-states, and by far: later deals share most of their states with earlier
ones (deals that differ in cards since played or swapped reach the same positions), which
sample deals spread over the list do not see. Over the 48 benchmark endgames with 4 and 5
cards left (classic and 2019), the three sample deals' projection over-stated the distinct
positions by 0.5–37 times, and by up to 21 times on endgames that fit the default cap (2019,
4 cards left, seeds 4004 and 4010); at 4, the old slack, it refused 2019 seeds 4005 and 5011,
which fit (1.40 M and 1.83 M histories). Between the two, the cap, checked as each state is
made, refuses what does not fit, after expanding up to the cap (seconds, not minutes)."""


def state_cap(max_nodes: int, reduced: bool = False) -> int:
    """The most distinct engine states a build expands under ``max_nodes`` (checked as each
    is made, so that no single deal runs away): one per :data:`STATES_PER_NODE` histories of
    it for the full tree, one per :data:`REDUCED_STATES_PER_NODE` for the ``reduced`` build,
    but at least :data:`STATE_CAP_FLOOR`. A state costs about twice what a history costs
    (about 2 KB), and takes longest to make (the engine's transitions).

    In the full tree every state is at least one history, and above the floor the games are
    deep: every benchmark endgame with more than 100 k states has over 8 histories per state
    in its full tree (classic, 5 cards left: 19.7 to 36 on the four with over 100 k). The
    reduced game leaves dominated branches out, so it can have fewer: classic, 5 cards left,
    seeds 5005, 5006 and 5008 have 7.5, 5.4 and 6.3 reduced histories per state (229 k,
    202 k and 479 k states), and 2019 seed 4005 with 4 cards left 6.8. At one state per 8
    histories the cap refused seed 5008 at the default ``max_nodes`` although its reduced
    game, 2,998,317 histories, fits. At one per 4 the states take at most about what the
    histories do. Small reduced games can have fewer histories than states, which the floor
    covers."""
    per = REDUCED_STATES_PER_NODE if reduced else STATES_PER_NODE
    return max(STATE_CAP_FLOOR, max_nodes // per)


FULL_ESTIMATE_SLACK = 30
"""The full tree's build (three or more players, or no reductions) refuses at once only when
its sample deals project more than this many times ``max_nodes`` histories. The projection
over-states often: at ``max_nodes`` equal to their real size it refused 72 of the benchmark's
159 endgames with 2 and 3 cards left, indices 0–39 of both editions (the thirty-fifth
session; by up to 3.0 times: z2019 k = 3 index 15), and z2019 k = 3 index 132 (297,673
histories) at 400,000 (projected at 685,440, from one sample deal). Below the
slack, :func:`state_cap` (checked as each state is made) bounds the expansion, and the exact
count of the histories, taken before any of them is made, refuses what does not fit."""

Progress = Callable[[int, int, int], None]
"""``progress(deals_done, deals_total, histories_so_far)``."""
Prior = Callable[[State, int], "Fraction | int | float | Decimal | np.number[Any]"]
"""A user's prior over the root deals: ``prior(deal_state, arrangements)`` is the deal's weight
(relative probability) in place of ``arrangements``, its number of card-instance arrangements
(the uniform weight; a hand that what is known tells apart counted in order, as
:func:`_ordered_weight`). The state is :func:`deal_state`: the dealt hands and set-aside card, the
pile's unseen part as an unordered multiset (its order is drawn below the root) and the dealt
returned tail (``pile.bottom``, or ``pile.top`` when nothing above it is unseen). A weight is a
number ≥ 0 (:func:`~loveformal.solver.expectimax.user_number`: 0.3 is 3/10, 2e-10 is
1/5,000,000,000); a deal of weight 0 is left out. The prior is common knowledge: every seat
reasons with it."""

_TERMINAL_PHASES = (Phase.ROUND_OVER, Phase.GAME_OVER)


class EndgameTooLarge(LoveformalError):
    """The game would have more histories than allowed."""


@dataclass(frozen=True)
class Deal:
    """One root chance outcome."""

    hands: tuple[tuple[Card, ...], ...]
    """Per seat (empty for seats out of the round), sorted."""
    set_aside: Card | None
    pile: tuple[Card, ...]
    """The unseen part of the draw pile (sorted multiset)."""
    weight: Fraction
    """Unnormalised weight (instance arrangements, or the prior's weight)."""
    bottom: tuple[Card, ...] = ()
    """The returned tail: the cards a Chancellor put beneath the pile, top to bottom."""
    seen: tuple[Event, ...] = ()
    """What the seats know of the hands in this deal from before the position, as events of
    its log: a Baron's tie the discard piles show (:func:`_tie_events`), and in a best
    response's deal (``enumerate_deals(knower=...)``) what the other seats know
    (:func:`_split_by_sights`)."""
    returners: tuple[int, ...] = ()
    """The seat that returned each card of :attr:`bottom` (:func:`returned_tail`, read once
    per root: reading it off the orders of turns takes a replay); when it does not match
    :attr:`bottom`, :func:`deal_state` reads it off the root."""

    def label(self, pooled: bool = False) -> str:
        """The deal in words; ``pooled``: the set-aside card and the pile's unseen part as
        one pool (:func:`pool_deals`), ``aside+pile:``."""
        parts = [
            f"{seat_name(i)}:{','.join(c.title for c in h)}" for i, h in enumerate(self.hands) if h
        ]
        if pooled and self.set_aside is not None:
            pool = sort_cards((*self.pile, self.set_aside))
            parts.append("aside+pile:" + ",".join(c.title for c in pool))
        else:
            if self.set_aside is not None:
                parts.append(f"aside:{self.set_aside.title}")
            parts.append("pile:" + (",".join(c.title for c in self.pile) or "-"))
        if self.bottom:
            parts.append("bottom:" + ",".join(c.title for c in self.bottom))
        for e in self.seen:
            if e.kind is EventKind.PLAYED:
                assert e.seat is not None and e.card is not None
                parts.append(f"then-{seat_name(e.seat)}-played:{e.card.title}")
                continue
            assert e.seat is not None and e.other is not None
            if e.kind is EventKind.COMPARED:
                a, b = e.cards
                parts.append(f"{seat_name(e.seat)}:{a.title}-tied-{seat_name(e.other)}:{b.title}")
                continue
            assert e.card is not None
            cards = e.cards or (e.card,)
            parts.append(
                f"{seat_name(e.seat)}-knows-{seat_name(e.other)}:"
                + ",".join(c.title for c in cards)
            )
        return " ".join(parts)


# ----------------------------------------------------------------------------- the root


def returned_tail(state: State) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The cards at the bottom of the draw pile that a Chancellor returned (top to bottom),
    and the seat that returned each: the *returned tail* (see the module docstring).

    With the round's log, its returns say which cards are still in the pile (returns go under
    everything and draws take from the top, so they are the last ``pile.size`` cards
    returned) and who put each there. A position without a log (the notation) lists them as
    the deck's known-order part: its ``bottom``, or the whole deck once no unseen card is
    left above them. In a two-player position at a turn, whose they are is read off the
    orders of turns the discard piles fit (:func:`_returns_from_turns`); otherwise they were
    returned by the one seat that has played a Chancellor, and when several have, the
    position does not say whose they are (refused, a wholly known deck too). A wholly known
    deck that no return explains (no Chancellor played) is no tail: its cards are dealt as
    unseen, known to neither seat.
    Raises :class:`MalformedInput` for a log whose returns are not the pile's bottom."""
    pile = state.pile
    returns = [
        (e.seat, c)
        for e in state.log
        if e.kind is _RETURNED and e.seat is not None
        for c in e.cards
    ]
    if returns:
        left = returns[max(0, len(returns) - pile.size) :] if pile.size else []
        cards = tuple(c for _, c in left)
        if pile.cards()[len(pile.cards()) - len(cards) :] != cards:
            raise MalformedInput(
                "the round's log says the Chancellor returned "
                + (", ".join(c.title for c in cards) or "nothing")
                + " to the bottom of the deck, but the deck does not end with those cards"
            )
        return cards, tuple(who for who, _ in left)
    # Without a log: the known-order part of the deck. Below unseen cards it is the bottom;
    # once the unseen cards are drawn, the whole deck is in known order (``DrawPile``'s normal
    # form moves it to ``top``), and only returns make it so when a Chancellor was played.
    known = pile.bottom if pile.unseen else pile.top
    players = [i for i, s in enumerate(state.seats) if Card.CHANCELLOR in s.discards]
    accounts = kept_accounts(state) if known and players else None
    if accounts is not None:
        return _returns_from_turns(state, known, accounts)
    if not known or (not pile.unseen and not players):
        # A wholly known deck that no Chancellor explains is dealt as unseen (a hand-written
        # deck); _check_history refuses a known bottom with no Chancellor played.
        return (), ()
    where = "bottom" if pile.unseen else "order"
    if len(players) != 1:
        raise MalformedInput(
            f"the deck's {where} lists known cards, which only a Chancellor's return puts "
            "there (face down: known to the seat that returned them alone), but "
            + " and ".join(seat_name(i) for i in players)
            + " have each played a Chancellor and a position without its moves does not say "
            "who returned these: give the position as a scenario with its moves, or write "
            "the cards among the deck's unseen ones"
        )
    most = 2 * sum(c is Card.CHANCELLOR for c in state.seats[players[0]].discards)
    if len(known) > most:
        raise MalformedInput(
            f"the deck's {where} lists {len(known)} known cards, but only a Chancellor's "
            f"return puts known cards there (at most two each) and {seat_name(players[0])}, "
            f"the one seat that played a Chancellor, can have returned at most {most}: write "
            "the others among the deck's unseen ones"
        )
    return known, (players[0],) * len(known)


def _returns_from_turns(
    state: State, known: tuple[Card, ...], accounts: frozenset[Account]
) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The returned tail of a two-player position without its log, from the accounts of
    :func:`loveformal.turn_history.kept_accounts` (who returned each card still in the deck,
    in every order of turns the discard piles fit, as far as they fit the deck's ``known``
    cards): the seats of the returns at the bottom of the known cards, the same in every
    account (the cards above them, if any, are dealt as unseen). Raises
    :class:`MalformedInput` when no account fits or the accounts disagree."""
    where = "bottom" if state.pile.unseen else "order"
    tails = {a.returned[max(0, len(a.returned) - len(known)) :] for a in accounts}
    if not tails:
        every = public_returns(state) or frozenset()
        most = max((len(a.returned) for a in every), default=0)
        why = (
            "no order of turns fits the discard piles and the deck's size"
            if not every
            else f"by the discard piles at most {most} of them can still be in the deck"
        )
        raise MalformedInput(
            f"the deck's {where} lists {len(known)} known card{'s' if len(known) > 1 else ''},"
            " which only a Chancellor's return puts there (face down: known to the seat that"
            f" returned them alone), but {why}: no round reaches this position"
        )
    if len(tails) > 1:
        readings = sorted(tails, key=lambda a: (len(a), a))
        raise MalformedInput(
            f"the deck's {where} lists known cards, which only a Chancellor's return puts there"
            " (known to the seat that returned them alone), and the discard piles fit more"
            " than one order of turns, with different seats returning them: "
            + "; ".join(_returners(a) for a in readings)
            + ". A position without its moves does not say which: give the position as a"
            " scenario with its moves, or write the cards among the deck's unseen ones"
        )
    (tail,) = tails
    return known[len(known) - len(tail) :], tail


def _returners(account: tuple[int, ...]) -> str:
    """An account of the returned cards, as the error above names it."""
    if not account:
        return "none of them a return"
    by = ", ".join(seat_name(s) for s in account)
    return f"the lowest {len(account)} returned by {by} (top to bottom)"


def _tail_log(tail: tuple[Card, ...], owners: tuple[int, ...]) -> tuple[Event, ...]:
    """The root's log of a deal whose returned tail holds ``tail``, returned by ``owners``
    (:func:`returned_tail`'s seats): one Chancellor return per run of cards of one seat,
    seen by that seat alone (so that :func:`~loveformal.knowledge.knows_bottom` and the
    observation keys give each seat its own returned cards, and nobody else's)."""
    events: list[Event] = []
    i = 0
    while i < len(tail):
        j = i
        while j < len(tail) and owners[j] == owners[i]:
            j += 1
        run = tail[i:j]
        events.append(
            Event(
                _RETURNED,
                seat=owners[i],
                cards=run,
                note=f"{len(run)} cards",
                visible_to=(owners[i],),
            )
        )
        i = j
    return tuple(events)


def _check_phase(state: State) -> None:
    if state.phase is Phase.DEAL:
        raise MalformedInput("the round is still being dealt: solve a position after the deal")
    if state.phase in _TERMINAL_PHASES:
        raise MalformedInput("the round is over: there is nothing left to solve")


_DRAWS_A_REPLACEMENT = (Card.PRINCE, Card.ASSASSIN, Card.BISHOP)


def _check_history(state: State) -> None:
    """Refuse a position no round can reach, by what its public cards say happened.

    Each is a one-way guarantee of the engine (``scoring.draw_replacement`` and the cards'
    effects), so a reachable state always passes:

    * a protected seat's last discard is the Handmaid it played: the protection lasts until
      its next turn and nothing else protects, and while it lasts no card can make the seat
      discard (rules.md §1.1 items 2 and 4);
    * whoever discards the Princess is out (§1.1 item 6), so no seat in the round has one in
      its discard pile;
    * the discard piles fit turns taken in seat order (:func:`_check_turns`);
    * a card leaves the face-up row or the set-aside slot only as a replacement drawn from an
      empty deck, one card for each Prince, Assassin or Bishop played (rules.md R2), and the
      face-up row only to a Prince's target under ``prince_empty_deck = top_removed`` (D16);
      nothing puts a card back, so such a position's draw pile is empty;
    * the order of part of the draw pile is known only by a Chancellor's return to the bottom
      (at most two cards per Chancellor played); no card shows anyone the top of the deck.
    """
    discarded: Counter[Card] = Counter()
    for s in state.seats:
        discarded.update(s.discards)
    for i, s in enumerate(state.seats):
        if s.protected and (not s.discards or s.discards[-1] is not Card.HANDMAID):
            raise MalformedInput(
                f"{seat_name(i)} is protected, but its last discard is not a Handmaid (a "
                "protected seat cannot be made to discard): no round reaches this position"
            )
        if not s.out and Card.PRINCESS in s.discards:
            raise MalformedInput(
                f"{seat_name(i)} has discarded the Princess but is still in the round (whoever "
                "discards the Princess is out): no round reaches this position"
            )
    _check_turns(state, sum(discarded[c] for c in _DRAWS_A_REPLACEMENT))
    removed = state.rules.options.two_player_face_up if state.players == 2 else 0
    lost_face_up = max(0, removed - len(state.face_up))
    lost = lost_face_up + (state.set_aside is None)
    if lost:
        what = []
        if lost_face_up:
            what.append(
                f"{lost_face_up} of the {removed} face-up card{'s' if removed > 1 else ''} "
                "removed at the deal"
            )
        if state.set_aside is None:
            what.append("the set-aside card")
        gone = " and ".join(what) + (" are" if lost > 1 else " is") + " missing"
        replacements = sum(discarded[c] for c in _DRAWS_A_REPLACEMENT)
        why = None
        if lost_face_up and state.rules.options.prince_empty_deck != "top_removed":
            why = "only a Prince under prince_empty_deck = top_removed takes a face-up card"
        elif lost_face_up > discarded[Card.PRINCE]:
            why = (
                f"each Prince played takes at most one face-up card, and {discarded[Card.PRINCE]}"
                " ha" + ("s" if discarded[Card.PRINCE] == 1 else "ve") + " been played"
            )
        elif lost > replacements:
            why = (
                "each Prince, Assassin or Bishop played draws at most one replacement card, "
                f"and {replacements} ha" + ("s" if replacements == 1 else "ve") + " been played"
            )
        elif state.pile.size:
            why = "a replacement comes from there only once the deck is empty"
        if why is not None:
            raise MalformedInput(f"{gone}, but {why}: no round reaches this position")
    pile = state.pile
    if pile.unseen and pile.top:
        raise MalformedInput(
            "the deck lists known cards above its unseen part, but no card shows anyone the "
            "top of the deck: no round reaches this position"
        )
    if pile.unseen and pile.bottom:
        chancellors = discarded[Card.CHANCELLOR]
        if 2 * chancellors < len(pile.bottom):
            raise MalformedInput(
                f"the deck's bottom holds {len(pile.bottom)} known card"
                f"{'s' if len(pile.bottom) > 1 else ''}, but only a Chancellor's return puts "
                f"known cards there (at most two each) and {chancellors} ha"
                + ("s" if chancellors == 1 else "ve")
                + " been played: no round reaches this position"
            )


def _check_turns(state: State, extra: int) -> None:
    """At a turn's start (``turn_draw``) or decision (``play``): the discard piles must fit
    turns taken in seat order. Each turn adds the card played to its player's pile; ``extra``
    bounds the cards discarded otherwise (one per Prince, Assassin or Bishop played, the only
    effects that make a seat discard), and a seat knocked out discards at most one card more
    (its hand, which then holds one card or none: none only when a Prince or Bishop made it
    discard the Princess, which is then in its pile). So a seat that is out holds at least
    one card in its pile beyond its turns.

    Turns skip a seat once it is out, so the seats still in keep their order: with ``n`` of
    them, after ``n·L + r`` of their turns (``0 ≤ r < n``) the ``r`` just before the seat to
    move have had ``L + 1`` turns and the others ``L``. A seat that is out had at most
    ``L + 1`` (between two of its turns every seat still in had one) and at most its pile
    less one. So for some ``L`` and ``r`` each pile of a seat still in must hold at least its
    turns, and all piles together at most the turns plus ``extra`` plus one per seat out. Any
    seat may have started (a position written without ``start:`` names none)."""
    if state.phase not in (Phase.PLAY, Phase.TURN_DRAW):
        return
    seats, players, mover = state.seats, state.players, state.turn
    order = [(mover + j) % players for j in range(players)]
    live = [i for i in order if not seats[i].out]  # the seat to move first
    gone = [len(seats[i].discards) for i in order if seats[i].out]
    piles = [len(seats[i].discards) for i in live]
    n = len(live)
    empty = next((i for i in order if seats[i].out and not seats[i].discards), None)
    if empty is not None:
        raise MalformedInput(
            f"{seat_name(empty)} is out but its discard pile is empty (a seat knocked out "
            "discards its hand, or the Princess it was made to discard is there): no round "
            "reaches this position"
        )
    # The most turns the piles allow (the fewest other discards): for each r, the largest L.
    turns = -1
    for r in range(n):
        least = min(d - (j >= n - r) for j, d in enumerate(piles))
        if least >= 0:
            turns = max(turns, n * least + r + sum(min(d - 1, least + 1) for d in gone))
    others = extra + len(gone)
    if sum(piles) + sum(gone) - turns > others:
        counts = "; ".join(
            f"{seat_name(i)}{', to move' if i == mover else ''}{', out' if seats[i].out else ''}:"
            f" {len(seats[i].discards)} card{'' if len(seats[i].discards) == 1 else 's'}"
            for i in order
        )
        out = f" and {len(gone)} seat{'' if len(gone) == 1 else 's'} out" if gone else ""
        raise MalformedInput(
            f"the discard piles ({counts}) do not fit turns taken in seat order: each turn "
            "discards the card played, each Prince, Assassin or Bishop at most one more and "
            f"each seat knocked out at most one more, with {extra} of those cards played{out}:"
            " no round reaches this position"
        )


def unseen_cards(state: State) -> tuple[Card, ...]:
    """The cards dealt at the root (see the module docstring), sorted.

    Raises :class:`MalformedInput` when the position does not account for every card of the
    deck that is not public, or cannot be reached (:func:`_check_history`)."""
    _check_phase(state)
    _check_history(state)
    deck = Counter(state.rules.deck(state.players).cards())
    public: Counter[Card] = Counter(state.face_up)
    for s in state.seats:
        public.update(s.discards)
    expected = deck - public
    hidden: Counter[Card] = Counter(state.pile.cards())
    for s in state.seats:
        hidden.update(s.hand)
    if state.set_aside is not None:
        hidden[state.set_aside] += 1
    hidden = +hidden
    if hidden != expected:
        missing = sort_cards((expected - hidden).elements())
        extra = sort_cards((hidden - expected).elements())
        what = []
        if missing:
            what.append("not in the position: " + ", ".join(c.title for c in missing))
        if extra:
            what.append("more than the deck holds: " + ", ".join(c.title for c in extra))
        raise MalformedInput(
            "the solver deals every card of the deck that is not public, so the position must "
            "account for all of them (" + "; ".join(what) + ")"
        )
    returned_tail(state)  # refuses a tail whose returner the position does not tell
    _check_drawn_return(state)
    _check_readings(state)
    return sort_cards(expected.elements())


def _check_readings(state: State) -> None:
    """Refuse a position whose discard piles show what a seat knows of the seat to move's
    cards (:func:`pile_sights`: most often its Chancellor return the seat to move has just
    drawn) together with a play whose histories depend on the order of the seat to move's
    cards (a Baron or King two turns back, or the other seat's play before its last): the
    solver does not read the two together. A look at the other seat's card (a Priest two
    turns back, a return it drew at its last turn) is read with it."""
    last, earlier = _looks(state)
    if (last is None or last is Card.PRIEST) and earlier is None:
        return
    if not pile_sights(state):
        return
    mover, other = state.turn, 1 - state.turn
    play = (
        f"{seat_name(mover)}'s {last.title} two turns back"
        if last is not None
        else f"what {seat_name(other)} learnt of {seat_name(mover)}'s card three turns back"
    )
    raise MalformedInput(
        f"the discard piles show {play}, and that the other seat knows one of "
        f"{seat_name(mover)}'s cards (most often the card it has just drawn, the other "
        "seat's Chancellor return); the solver does not read these two together: give the "
        "position as a scenario with its moves"
    )


def _check_drawn_return(state: State) -> None:
    """Refuse a two-player position without its log whose discard piles fit orders of turns
    that disagree on whether the other seat knows the card the seat to move has just drawn
    (its Chancellor return: :func:`loveformal.knowledge.public_drawn_return`). Not on the
    last turn, where that knowledge changes nothing (:func:`pile_sights`)."""
    if state.phase is not Phase.PLAY or any(e.kind is EventKind.PLAYED for e in state.log):
        return
    if _last_turn(state):
        return
    other = 1 - state.turn
    accounts = kept_accounts(state)
    if accounts and len({a.drawn == other for a in accounts}) > 1:
        raise MalformedInput(
            "the discard piles fit more than one order of turns, and in some "
            f"{seat_name(state.turn)} has just drawn a card {seat_name(other)} returned with "
            f"the Chancellor (so {seat_name(other)} knows it), in others not. A position "
            "without its moves does not say which: give the position as a scenario with its "
            "moves"
        )


class _HandKnowledge(NamedTuple):
    """What the seats know of one seat's hand, by the cards' places in it."""

    older: Counter[Card]
    """Cards some other seat knows among its older cards (max copies over observers)."""
    new: tuple[Card | None, ...]
    """Its newest cards (:func:`~loveformal.knowledge.drawn_since`), each known to some other
    seat or ``None``."""

    def required(self) -> Counter[Card]:
        return self.older + Counter(c for c in self.new if c is not None)


def _hand_knowledge(state: State, knower: int | None = None) -> list[_HandKnowledge]:
    """Per seat: the cards other seats know it holds (or ``knower`` alone), older and new
    apart.

    Without a log nothing is known, but the seat to move, after its draw, holds one older
    card and one new one (what its discard piles rule out is about the older card)."""
    n = state.players
    if not state.log:
        new: list[tuple[Card | None, ...]] = [() for _ in range(n)]
        if state.phase is Phase.PLAY and len(state.seats[state.turn].hand) == 2:
            new[state.turn] = (None,)
        return [_HandKnowledge(Counter(), new[s]) for s in range(n)]
    older: list[Counter[Card]] = [Counter() for _ in range(n)]
    drawn = {o: drawn_since(state, o) for o in range(n)}
    # How many of each hand's cards are new (the same for every other seat asked).
    known_new: list[list[Card | None]] = []
    for seat in range(n):
        held = len(state.seats[seat].hand)
        since = drawn[(seat + 1) % n][seat] if n > 1 else ()
        known_new.append([None] * min(held, len(since)))
    for observer in range(n) if knower is None else (knower,):
        for seat, cards in knowledge_table(state, observer).items():
            slots = known_new[seat]
            fresh = drawn[observer][seat][-len(slots) :] if slots else ()
            for i, card in enumerate(fresh):
                if card is None:
                    continue
                if slots[i] not in (None, card):
                    raise MalformedInput(
                        f"inconsistent knowledge: two seats know different cards drawn by "
                        f"{seat_name(seat)}"
                    )
                slots[i] = card
            older[seat] |= Counter(cards) - Counter(c for c in fresh if c is not None)
    return [_HandKnowledge(older[s], tuple(known_new[s])) for s in range(n)]


def _ordered_weight(
    hand: tuple[Card, ...], knowledge: _HandKnowledge, exclusions: Exclusions
) -> int:
    """How many orders of the card instances of ``hand`` (older cards first, then the new
    ones) fit what is known of each place: the known and ruled-out older cards among the
    older places, each known new card in its place.

    Each order of the instances is equally likely, so a hand that fits in fewer orders
    weighs less: with the older card known to be a Guard, {Guard, Priest} fits only with the
    Priest drawn, and weighs half of what it weighs unconstrained, where {Guard, Guard} fits
    either way."""
    older_n = len(hand) - len(knowledge.new)
    copies = 1
    for n in Counter(hand).values():
        copies *= math.factorial(n)
    fitting = 0
    for order in set(itertools.permutations(hand)):
        older, new = order[:older_n], order[older_n:]
        if any(k is not None and k is not c for k, c in zip(knowledge.new, new, strict=True)):
            continue
        if knowledge.older - Counter(older) or not fits(older, exclusions):
            continue
        fitting += 1
    return fitting * copies


_BEFORE = "before the position"
"""The note of a :class:`_Sight`'s event in a deal's log."""


class _Sight(NamedTuple):
    """What one seat (``observer``) knows of another seat's hand at the position, by the
    places of its cards: how many of the older cards, and which of the new places
    (:func:`~loveformal.knowledge.drawn_since`)."""

    observer: int
    older: int
    new: tuple[int, ...]


def _sights(state: State, knower: int) -> dict[int, tuple[_Sight, ...]]:
    """Per seat: what each seat still in the round, other than ``knower``, knows of its hand
    (seats that know nothing of it are left out). A best response's deals are those
    ``knower`` cannot rule out, so this knowledge is not fixed by them: each deal carries it
    instead, as what the deal's cards make it (:func:`_split_by_sights`)."""
    n = state.players
    if not state.log:
        return {}
    new_n = [
        min(len(state.seats[t].hand), len(drawn_since(state, (t + 1) % n)[t])) if n > 1 else 0
        for t in range(n)
    ]
    found: dict[int, list[_Sight]] = {}
    for o in range(n):
        if o == knower or state.seats[o].out:
            continue
        drawn = drawn_since(state, o)
        unsure = knowledge_unsure_to(state, o, knower)
        for t, cards in knowledge_table(state, o).items():
            if not cards or t in unsure:
                continue
            fresh = drawn[t][-new_n[t] :] if new_n[t] else ()
            new = tuple(i for i, c in enumerate(fresh) if c is not None)
            older = Counter(cards) - Counter(c for c in fresh if c is not None)
            found.setdefault(t, []).append(_Sight(o, sum(older.values()), new))
    return {t: tuple(found[t]) for t in sorted(found)}


def pile_sights(state: State) -> dict[int, tuple[_Sight, ...]]:
    """:func:`_sights` read off the discard piles of a position without its log: a Priest's
    look and a King's swap (:func:`~loveformal.knowledge.public_sights`: the observer knows
    the seen seat's older card), and a Chancellor's return the seat to move has just drawn
    (:func:`~loveformal.knowledge.public_drawn_return`: the Chancellor's player knows its
    new card). Unlike a look in the log they are not fixed by the position's cards (which of
    the seat to move's cards is the older one the piles do not say), so each deal carries
    them, for every seat, as its own cards make them.

    With the deck empty the round ends with the seat to move's turn, in which no other seat
    decides (only a Bishop's target does, and no two-player deck has one): what another seat
    knows then changes neither the value nor any action's value (each deal's split shares
    depend on the seen hand alone, so the seat to move's information sets hold the same deals
    in the same proportions), and it is left out, so that the action table needs no older
    card. What the seat to move knows (the card it handed over with the King) stays."""
    idle = _last_turn(state)
    drawn = public_drawn_return(state)
    found: dict[int, tuple[_Sight, ...]] = {}
    for observer, seat, sight in [
        *((o, s, _Sight(o, 1, ())) for o, s in public_sights(state)),
        *(() if drawn is None else ((drawn[0], drawn[1], _Sight(drawn[0], 0, (0,))),)),
    ]:
        if idle and observer != state.turn:
            continue
        found[seat] = (*found.get(seat, ()), sight)
    return found


def _last_turn(state: State) -> bool:
    """Whether the round ends with the seat to move's turn and no other seat decides in it:
    the deck is empty and the deck has no Bishop (:func:`pile_sights`)."""
    return state.pile.size == 0 and Card.BISHOP not in state.rules.deck(state.players).kinds


def _play_fits(state: State, play: Card, card: Card, handed: Card) -> bool:
    """Whether a Priest, Baron or King ``play`` the discard piles show
    (:func:`~loveformal.knowledge.public_last_play`,
    :func:`~loveformal.knowledge.public_earlier_play`) fits the cards a deal's history gives
    it: its player's card ``card`` and the card ``handed`` of the seat it was played on
    (after a King, the card its player handed over). A Baron's tie is of equal values; the
    card a King's player kept, and handed over, is no Countess (R4)."""
    if play is Card.BARON:
        return state.rules.value(card) == state.rules.value(handed)
    if play is Card.KING:
        return handed is not Card.COUNTESS
    return True


def _known(seat: int, other: int, card: Card) -> Event:
    """``seat`` knows ``other`` holds ``card`` (seen, or handed over), as an event of a deal's
    log from before the position, seen by both."""
    return Event(
        EventKind.SAW, seat=seat, other=other, card=card, note=_BEFORE, visible_to=(seat, other)
    )


def _compared(seat: int, other: int, cards: tuple[Card, Card]) -> Event:
    """``seat``'s Baron compared its card with ``other``'s (``cards``: its own, then the
    other's), a tie, as an event of a deal's log from before the position, seen by both."""
    return Event(
        EventKind.COMPARED,
        seat=seat,
        other=other,
        cards=cards,
        note=_BEFORE,
        visible_to=(seat, other),
    )


def _shares(
    views: Counter[tuple[Event, ...]], orders: int
) -> list[tuple[Fraction, tuple[Event, ...]]]:
    """Each history's share of a deal: its count of fitting orders over all ``orders``."""
    return [
        (Fraction(count, orders), events)
        for events, count in sorted(views.items(), key=lambda kv: _events_order(kv[0]))
    ]


def _last_play_events(state: State, last: Card, older: Card, known: Card) -> tuple[Event, ...]:
    """The seat to move's last play (:func:`~loveformal.knowledge.public_last_play`) as a
    deal makes it, noted as from before the position: what it learnt of the other seat's
    card ``known`` (a Priest's look; a Baron's comparison with its older card ``older``, seen
    by both; a King's swap, after which each knows the card it handed over), then the other
    seat's play since (its top discard, public), which ends that knowledge if it was the
    known card (:func:`~loveformal.knowledge.knowledge_table`). On the last turn
    (:func:`_last_turn`) what the other seat knows of the seat to move is left out, as in
    :func:`pile_sights`: then only ``known`` matters."""
    mover = state.turn
    other = 1 - mover
    played = Event(EventKind.PLAYED, seat=other, card=state.seats[other].discards[-1], note=_BEFORE)
    if last is Card.BARON and not _last_turn(state):
        return (_compared(mover, other, (older, known)), played)
    saw = _known(mover, other, known)
    if last is Card.KING and not _last_turn(state):
        return (saw, _known(other, mover, older), played)
    return (saw, played)


def _looks(state: State) -> tuple[Card | None, Card | None]:
    """What the piles show each seat learnt of the other's card, as the splits read it:
    ``(last, earlier)``, at most one of them not ``None``.

    ``last`` (:func:`_split_by_last_play`): how the seat to move learnt the other seat's card
    two turns back, its own Priest, Baron or King
    (:func:`~loveformal.knowledge.public_last_play`), or its Chancellor return the other seat
    drew at the start of its last turn
    (:func:`~loveformal.knowledge.public_return_drawn_last`), which tells it the card as a
    Priest's look would (the draw is public in form: both know it was that return).

    ``earlier`` (:func:`_split_by_earlier_play`): how the other seat learnt the seat to
    move's card three turns back, its Priest, Baron or King
    (:func:`~loveformal.knowledge.public_earlier_play`), or its Chancellor return the seat to
    move drew at the start of its turn before this one
    (:func:`~loveformal.knowledge.public_return_drawn_earlier`), read as a Priest's look."""
    last = public_last_play(state)
    if last is None and public_return_drawn_last(state):
        last = Card.PRIEST
    earlier = public_earlier_play(state)
    if earlier is None and public_return_drawn_earlier(state):
        earlier = Card.PRIEST
    return last, earlier


def _split_by_last_play(
    state: State, last: Card, hands: tuple[tuple[Card, ...], ...]
) -> list[tuple[Fraction, tuple[Event, ...]]]:
    """How a deal divides by the history the seat to move's last play
    (:func:`~loveformal.knowledge.public_last_play`) leaves open: which of its cards is the
    older one, and whether the other seat, holding the card the seat to move knew and the
    card it drew, played the drawn one (it still holds the known card) or the known one
    (the card on top of its pile). Each order of the card instances of both is equally
    likely: a part's share is its number of orders that fit the play
    (:func:`_play_fits`) over all of them, so a deal that fits fewer weighs less
    (none: no part)."""
    mover = state.turn
    other = 1 - mover
    (kept,) = hands[other]
    played = state.seats[other].discards[-1]
    views: Counter[tuple[Event, ...]] = Counter()
    orders = 0
    for order in itertools.permutations(hands[mover]):  # instances: each order counts
        for known in (kept, played):
            orders += 1
            if _play_fits(state, last, order[0], known):
                views[_last_play_events(state, last, order[0], known)] += 1
    return _shares(views, orders)


def _earlier_play_events(
    state: State, earlier: Card, mine: Card, theirs: Card
) -> tuple[Event, ...]:
    """The other seat's earlier play (:func:`~loveformal.knowledge.public_earlier_play`) as
    a deal makes it, noted as from before the position: what it learnt of the seat to move's
    card ``mine`` (a Priest's look; a Baron's comparison with its own card ``theirs``, seen by
    both; a King's swap, after which each knows the card it handed over: ``mine`` to the
    other seat, ``theirs`` to the seat to move), then the two plays since (the seat to move's
    and the other seat's top discards, public), which end what was known of a card played.
    On the last turn (:func:`_last_turn`) what the other seat knows of the seat to move is
    left out: after a Priest, nothing is left."""
    mover = state.turn
    other = 1 - mover
    since = tuple(
        Event(EventKind.PLAYED, seat=seat, card=state.seats[seat].discards[-1], note=_BEFORE)
        for seat in (mover, other)
    )
    idle = _last_turn(state)
    if earlier is Card.BARON and not idle:
        compared = _compared(other, mover, (theirs, mine))
        return (compared, *since)
    if earlier is Card.PRIEST and idle:
        return ()
    known: tuple[Event, ...] = ()
    if not idle:  # a Priest's look, a King's card handed over
        known += (_known(other, mover, mine),)
    if earlier is not Card.PRIEST:  # a Baron's or King's card, to the seat to move
        known += (_known(mover, other, theirs),)
    return (*known, *since)


def _split_by_earlier_play(
    state: State, earlier: Card, hands: tuple[tuple[Card, ...], ...]
) -> list[tuple[Fraction, tuple[Event, ...]]]:
    """How a deal divides by the histories the other seat's earlier play
    (:func:`~loveformal.knowledge.public_earlier_play`) leaves open: which of the seat to
    move's cards is the older one; whether the seat to move, holding then the card the play
    was about and the card it drew, played the drawn one (it still holds that card, its
    older one) or that card (its top discard); and whether the other seat played the card
    it held then or the one it drew. Each order of the card instances counts alike, as in
    :func:`_split_by_last_play`."""
    mover = state.turn
    other = 1 - mover
    (kept,) = hands[other]
    played = (state.seats[mover].discards[-1], state.seats[other].discards[-1])
    views: Counter[tuple[Event, ...]] = Counter()
    orders = 0
    for order in itertools.permutations(hands[mover]):  # instances: each order counts
        for mine in (order[0], played[0]):
            for theirs in (kept, played[1]):
                orders += 1
                if _play_fits(state, earlier, theirs, mine):
                    views[_earlier_play_events(state, earlier, mine, theirs)] += 1
    return _shares(views, orders)


def _sight_event(seat: int, sight: _Sight, older: Sequence[Card], new: Sequence[Card]) -> Event:
    """The event by which ``sight.observer`` knows ``seat`` holds ``older`` among its older
    cards and ``new`` in the new places it knows: a look at the hand (a Priest's, as
    :func:`~loveformal.knowledge.knowledge_table` reads it), seen by the observer and by
    ``seat`` (which knows what was seen of its hand: it held the card seen), noted as
    knowledge from before the position (its public form is the same in every deal)."""
    cards = (*older, *new)
    return Event(
        EventKind.SAW,
        seat=sight.observer,
        other=seat,
        card=cards[0],
        cards=cards if len(cards) > 1 else (),
        note=_BEFORE,
        visible_to=(sight.observer, seat),
    )


def _actual_sight_events(state: State, knower: int) -> tuple[Event, ...]:
    """The sight events of the position's own deal (:func:`_sights`), from what each seat
    knows."""
    n = state.players
    events: list[Event] = []
    for t, sights in _sights(state, knower).items():
        new_n = min(len(state.seats[t].hand), len(drawn_since(state, (t + 1) % n)[t]))
        for sight in sights:
            cards = knowledge_table(state, sight.observer)[t]
            fresh = drawn_since(state, sight.observer)[t][-new_n:] if new_n else ()
            new = [c for c in fresh if c is not None]
            older = sort_cards((Counter(cards) - Counter(new)).elements())
            events.append(_sight_event(t, sight, older, new))
    return tuple(events)


def _split_by_sights(
    hands: tuple[tuple[Card, ...], ...],
    sights: Mapping[int, tuple[_Sight, ...]],
    knowledge: Sequence[_HandKnowledge],
    ruled_out: Mapping[int, Exclusions],
) -> list[tuple[Fraction, tuple[Event, ...]]]:
    """How a deal divides by what the other seats know of its hands: each part's share of
    the deal's weight and its sight events.

    A seat's hand is in a uniformly random order of its card instances among those that fit
    what the knowing seat knows (:func:`_ordered_weight`); an observer knows the first of
    the older cards (the ones it saw: any of them alike) and the new places it knows. A
    one-card hand divides into one part."""
    parts: list[tuple[Fraction, tuple[Event, ...]]] = [(Fraction(1), ())]
    for t, seat_sights in sights.items():
        hand = hands[t]
        if not hand:
            continue
        kn = knowledge[t]
        older_n = len(hand) - len(kn.new)
        views: Counter[tuple[Event, ...]] = Counter()
        for order in itertools.permutations(hand):  # instances: each order counts
            older, new = order[:older_n], order[older_n:]
            if any(k is not None and k is not c for k, c in zip(kn.new, new, strict=True)):
                continue
            if kn.older - Counter(older) or not fits(older, ruled_out.get(t, ())):
                continue
            views[
                tuple(
                    _sight_event(
                        t,
                        sight,
                        sort_cards(older[: sight.older]),
                        [new[i] for i in sight.new if i < len(new)],
                    )
                    for sight in seat_sights
                )
            ] += 1
        total = sum(views.values())
        if not total:
            return []
        parts = [
            (share * Fraction(count, total), events + view)
            for share, events in parts
            for view, count in sorted(views.items(), key=lambda kv: _events_order(kv[0]))
        ]
    return parts


def _events_order(events: tuple[Event, ...]) -> tuple[tuple[int, ...], ...]:
    """A fixed order of sight-event tuples (by their cards)."""
    return tuple(tuple(c.index for c in (e.card, *e.cards) if c is not None) for e in events)


def _zone_sizes(state: State) -> list[int]:
    return [len(s.hand) for s in state.seats]


@functools.cache
def _compositions(total: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """All ways to split ``total`` into ``len(caps)`` parts with part ``i`` <= ``caps[i]``
    (memoised: a deal's zones repeat the same splits for every card kind)."""
    if len(caps) == 1:
        return ((total,),) if total <= caps[0] else ()
    rest_cap = sum(caps[1:])
    return tuple(
        (x, *tail)
        for x in range(max(0, total - rest_cap), min(total, caps[0]) + 1)
        for tail in _compositions(total - x, caps[1:])
    )


def enumerate_deals(
    state: State,
    *,
    prior: Prior | None = None,
    knower: int | None = None,
    limit: int | None = None,
) -> list[Deal]:
    """Every consistent deal of the unseen cards with its weight (see the module docstring),
    in a fixed order; deals of zero weight are dropped.

    With ``knower``, the deals are those that seat cannot rule out: what other seats have
    privately seen does not restrict them (a best response for that seat, which must not
    know what only they saw). Each such deal carries instead what the other seats know of
    its hands (:attr:`Deal.seen`: a seat whose Priest saw a hand knows the card the deal puts
    there), divided by the order of a two-card hand's cards where a seat knows only the
    older one (:func:`_split_by_sights`), so that opponent models act on it.

    With ``limit``, :class:`EndgameTooLarge` is raised as soon as more than ``limit``
    consistent deals of weight above 0 are found (a whole round with many players has
    millions)."""
    unseen = unseen_cards(state)
    counts = Counter(unseen)
    knowledge = _hand_knowledge(state, knower)
    need = [k.required() for k in knowledge]
    sizes = _zone_sizes(state)
    n_seats = state.players
    aside = 1 if state.set_aside is not None else 0
    free = Counter(counts)
    for i, req in enumerate(need):
        if sum(req.values()) > sizes[i]:
            raise MalformedInput(
                f"inconsistent knowledge: {seat_name(i)} is known to hold "
                f"{', '.join(c.title for c in sort_cards(req.elements()))} "
                f"but holds {sizes[i]} card(s)"
            )
        free.subtract(req)
    if any(v < 0 for v in free.values()):
        raise MalformedInput("inconsistent knowledge: a known card is not among the unseen cards")
    ruled_out = public_exclusions(state)
    tie = public_tie(state)
    last, earlier = _looks(state)
    sights = _sights(state, knower) if knower is not None else {}
    sights = sights or pile_sights(state)
    # Seats whose hands are weighed by the order of their cards: two cards or more, told
    # apart by what is known of the older and the new ones (a ruled-out kind that is not
    # unseen tells nothing).
    ordered = [
        s
        for s in range(n_seats)
        if sizes[s] >= 2
        and knowledge[s].new
        and (
            need[s]
            or any(f & counts.keys() for f in ruled_out.get(s, ()))
            or (tie is not None and s == tie[0])
        )
    ]
    tail_cards, returners = returned_tail(state)
    tail = len(tail_cards)
    pile_size = len(unseen) - sum(sizes) - aside - tail
    if pile_size < 0:
        raise MalformedInput("the hands and the set-aside card hold more cards than are unseen")
    caps0 = [sizes[i] - sum(need[i].values()) for i in range(n_seats)]
    caps0 += [aside, pile_size] + [1] * tail
    kinds = [c for c in sort_cards(counts) if free[c] > 0]
    if prior is not None:
        _check_prior_signature(prior)
    deals: list[Deal] = []
    consistent = [0]
    kept = [0]
    zones_n = n_seats + 2 + tail
    # A deal's instance arrangements are ``Π count! / Π copies-in-zone!`` (each slot of the
    # returned tail a zone of its own, with one card): the denominator is built card by card
    # as the cards are split over the zones, a hand's copies counting its known cards.
    arrangements = math.prod(math.factorial(n) for n in counts.values())
    known_only = math.prod(
        math.factorial(n) for req in need for c, n in req.items() if c not in kinds
    )

    def rec(k: int, caps: tuple[int, ...], assign: list[list[tuple[Card, int]]], den: int) -> None:
        if k == len(kinds):
            zones: list[list[Card]] = [[] for _ in range(zones_n)]
            for z in range(zones_n):
                for card, x in assign[z]:
                    zones[z].extend([card] * x)
            hands = tuple(sort_cards([*zones[i], *need[i].elements()]) for i in range(n_seats))
            excluded = ruled_out
            if tie is not None:
                excluded = {**ruled_out, tie[0]: _tied(state, ruled_out, tie, hands)}
            if not all(fits(hands[s], x) for s, x in excluded.items()):
                return
            set_aside = zones[n_seats][0] if aside else None
            pile = sort_cards(zones[n_seats + 1])
            bottom = tuple(z[0] for z in zones[n_seats + 2 :])
            weight = Fraction(arrangements // den)
            for s in ordered:
                weight *= _ordered_weight(hands[s], knowledge[s], excluded.get(s, ()))
            if not weight:
                return  # fits in no order of its cards
            histories = (
                _split_by_last_play(state, last, hands)
                if last is not None
                else _split_by_earlier_play(state, earlier, hands)
                if earlier is not None
                else []
            )
            read = last is not None or earlier is not None
            if read and not histories:
                return  # fits no history of the plays the piles show
            compared = _tie_events(state, tie, hands)
            deal = Deal(hands, set_aside, pile, weight, bottom, compared, returners)
            consistent[0] += 1
            if prior is not None:
                deal = replace(deal, weight=_prior_weight(prior, state, deal))
            if deal.weight <= 0:
                return
            kept[0] += 1  # deals of weight 0 are dropped: only these are expanded
            if limit is not None and kept[0] > limit:
                raise EndgameTooLarge(
                    f"the endgame has more than {limit:,} deals of the unseen cards at its "
                    f"root, each at least one distinct position to expand (the build expands "
                    f"at most {limit:,}). Raise --max-nodes or solve a later position"
                )
            if read:
                # Of the other inferences from the piles only a return drawn now comes with
                # these, and only with a look at the other seat's card (_check_readings):
                # independent of the seat to move's cards' order, so the shares multiply.
                parts = histories
                if sights:
                    parts = [
                        (a * b, sight + look)
                        for b, sight in _split_by_sights(hands, sights, knowledge, excluded)
                        for a, look in histories
                    ]
                for share, seen in parts:
                    deals.append(replace(deal, weight=deal.weight * share, seen=compared + seen))
                return
            if not sights:
                deals.append(deal)
                return
            for share, seen in _split_by_sights(hands, sights, knowledge, excluded):
                deals.append(replace(deal, weight=deal.weight * share, seen=compared + seen))
            return
        card = kinds[k]
        held = [req[card] for req in need]
        for split in _compositions(free[card], caps):
            new_caps = tuple(c - x for c, x in zip(caps, split, strict=True))
            new_assign = [
                [*assign[z], (card, split[z])] if split[z] else assign[z] for z in range(zones_n)
            ]
            copies = den
            for z, x in enumerate(split):
                if z < n_seats:
                    x += held[z]
                if x > 1:
                    copies *= math.factorial(x)
            rec(k + 1, new_caps, new_assign, copies)

    rec(0, tuple(caps0), [[] for _ in range(zones_n)], known_only)
    if not deals and consistent[0]:
        raise MalformedInput(f"the prior gives weight 0 to every one of the {consistent[0]} deals")
    if not deals:
        raise MalformedInput("no deal of the unseen cards is consistent with the position")
    return deals


def _tied(
    state: State,
    ruled_out: Mapping[int, Exclusions],
    tie: tuple[int, int],
    hands: tuple[tuple[Card, ...], ...],
) -> Exclusions:
    """What a Baron's tie (:func:`~loveformal.knowledge.public_tie`: the seat to move's older
    card has the value of the other seat's one card) and the public exclusions rule out of
    the seat to move's older card, given the other seat's hand in a deal."""
    mover, other = tie
    (theirs,) = hands[other]
    value = state.rules.value(theirs)
    kinds = state.rules.deck(state.players).kinds
    unequal = frozenset(c for c in kinds if state.rules.value(c) != value)
    known = ruled_out.get(mover, ())
    return (unequal | known[0], *known[1:]) if known else (unequal,)


def _tie_events(
    state: State, tie: tuple[int, int] | None, hands: tuple[tuple[Card, ...], ...]
) -> tuple[Event, ...]:
    """The Baron's comparison behind a tie (:func:`~loveformal.knowledge.public_tie`), as a
    deal makes it: the other seat's card against the seat to move's older card (the one of
    its value: it tells the seat to move which of its cards is the older one), seen by both
    seats, noted as from before the position. Both seats saw both cards in the round, so
    each knows the other's card, as a log would say. No event if the hands do not tie."""
    if tie is None:
        return ()
    mover, other = tie
    (theirs,) = hands[other]
    value = state.rules.value(theirs)
    older = next((c for c in hands[mover] if state.rules.value(c) == value), None)
    if older is None:
        return ()
    event = _compared(other, mover, (theirs, older))
    return (event,)


def _check_prior_signature(prior: Prior) -> None:
    if accepts(prior, 2) is False:
        takes = "one argument" if accepts(prior, 1) else "other arguments"
        raise MalformedInput(
            f"the prior is called as prior(deal_state, arrangements) (arrangements: the deal's "
            f"uniform weight), but it takes {takes}"
        )


def accepts(function: Callable[..., object], count: int) -> bool | None:
    """Whether ``function`` can be called with ``count`` positional arguments (None when it
    has no signature to read, as some builtins: then only the call can tell). For a user's
    function, checked before it is called many times."""
    try:
        inspect.signature(function).bind(*([None] * count))
    except TypeError:
        return False
    except ValueError:
        return None
    return True


def _prior_weight(prior: Prior, state: State, deal: Deal) -> Fraction:
    """The prior's weight of ``deal`` (:data:`Prior`); MalformedInput for anything else."""
    where = f"the prior, for the deal {deal.label()}"
    try:
        w = prior(deal_state(state, deal), int(deal.weight))
    except (Exception, SystemExit) as exc:  # the user's code: reported, never a traceback
        raise MalformedInput(f"{where}: raised {type(exc).__name__}: {exc}") from None
    return user_number(w, f"{where}: weight")


def pool_deals(deals: Sequence[Deal]) -> list[list[int]] | None:
    """The deals grouped by their *pool* — the set-aside card and the pile's unseen part as
    one multiset — when each group's weights are in proportion to the copies of its set-aside
    cards in the pool (the uniform weights always are); None otherwise (a prior can weigh
    the set-aside card apart).

    A group is one root outcome of the reduced game, with the sum of its weights, whose draws
    come from the pool (:attr:`_TreeWalker.pool_aside`): each card of the pool is drawn with
    probability its copies over the pool's size, and whatever is left when the pile's count
    runs out is the set-aside card. That is the same game. Nobody sees the set-aside card
    until a seat must draw it from an empty pile (then the pool holds it alone), and no rule
    reads it before: moves, observations and outcomes are those of any deal of the group.
    With the set-aside card ``a`` of a pool of ``m`` cards drawn with probability
    ``n(a)/m`` (the proportion), the next card drawn is ``c`` with probability
    ``Σ_a n(a)/m · (n(c) − [a = c])/(m − 1) = n(c)/m``, and so on down the pile: every
    sequence of draws, and so every history, has the same probability in both games, and
    the information sets are the same sets of them. Deals without a set-aside card or
    without unseen pile cards are groups of one."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, d in enumerate(deals):
        if d.set_aside is None or not d.pile:
            key: tuple[object, ...] = (i,)
        else:
            key = (d.hands, sort_cards((*d.pile, d.set_aside)), d.bottom, d.seen, d.returners)
        groups.setdefault(key, []).append(i)
    for members in groups.values():
        first = deals[members[0]]
        if first.set_aside is None or not first.pile:
            continue
        copies = Counter((*first.pile, first.set_aside))
        if sorted(c.index for c in copies) != sorted(
            cast(Card, deals[i].set_aside).index for i in members
        ):
            return None  # not one deal per card of the pool set aside
        size = sum(copies.values())
        weight = sum((deals[i].weight for i in members), Fraction(0))
        for i in members:
            aside = deals[i].set_aside
            assert aside is not None
            if deals[i].weight * size != weight * copies[aside]:
                return None
    return list(groups.values())


def pool_copies(state: State) -> Counter[Card] | None:
    """The copies per card of ``state``'s pool — its set-aside card and the pile's unseen
    cards (:func:`pool_deals`) — when it has both, else None. In a pooled build
    (:attr:`_TreeWalker.pool_aside`) such a state stands for one state per card of the pool
    set aside, and its draws from the unseen cards come from the pool."""
    aside, unseen = state.set_aside, state.pile.unseen
    if aside is None or not unseen:
        return None
    copies = Counter(unseen)
    copies[aside] += 1
    return copies


def deal_state(state: State, deal: Deal) -> State:
    """``state`` with the deal's hands, set-aside card and pile; its log holds, with a
    returned tail, the Chancellor returns that put the deal's tail there, each seen by its
    seat alone (:func:`_tail_log`), then the deal's :attr:`Deal.seen` events (a Baron's tie,
    what other seats knew); it is empty when there are none."""
    seats = tuple(s._replace(hand=h) for s, h in zip(state.seats, deal.hands, strict=True))
    bottom = deal.bottom
    pile = DrawPile((), deal.pile, bottom) if deal.pile else DrawPile(bottom, (), ())
    owners = deal.returners
    if bottom and len(owners) != len(bottom):
        owners = returned_tail(state)[1]
    log = _tail_log(bottom, owners) if bottom else ()
    return state._replace(seats=seats, pile=pile, set_aside=deal.set_aside, log=log + deal.seen)


def check_older(state: State, older: Card | None) -> None:
    """:class:`MalformedInput` unless ``older`` (the seat to move's card from before its
    draw, :func:`actual_deal`) is ``None``, or a card the seat to move holds on which its
    information set can depend: the discard piles show another seat's look at its cards
    (:func:`pile_sights`) or a play whose reading it decides (:func:`_looks`). Given where
    nothing reads it, it would be ignored without a word."""
    if older is None:
        return
    mover = state.turn
    held = state.seats[mover].hand
    if older not in held:
        raise MalformedInput(
            f"older card: {seat_name(mover)} (the seat to move) holds "
            f"{', '.join(c.title for c in held) or 'no card'}, no {older.title}"
        )
    if any(e.kind is _PLAYED for e in state.log):
        raise MalformedInput(
            "older card: the position comes with its moves (a scenario), which say which card "
            f"{seat_name(mover)} held before its draw; leave --older out"
        )
    if mover not in pile_sights(state) and _looks(state) == (None, None):
        raise MalformedInput(
            f"older card: which of {seat_name(mover)}'s cards it held before its draw changes "
            "nothing here: the discard piles show no seat's look at it (a Priest, a King's "
            "swap, a Chancellor's return) and no Priest, Baron or King of either seat whose "
            "reading it decides; leave --older out"
        )


def check_knew(
    state: State, knew: Card | None, shown: Card | None = None, older: Card | None = None
) -> None:
    """:class:`MalformedInput` unless ``knew`` (the other seat's card the seat to move knew
    from the plays the discard piles show, :func:`actual_deal`) and ``shown`` (the seat to
    move's card the other seat knew) are ``None`` or such a card: the other seat's card or
    the card it played since (its top discard), the seat to move's card or the card it
    played since; and, with ``older``, unless they fit the plays together (checked before a
    build, not after it: :func:`_actual_history`)."""
    last, earlier = _looks(state)
    mover, other = state.turn, 1 - state.turn
    if knew is not None:
        if last is None and earlier not in (Card.BARON, Card.KING):
            raise MalformedInput(
                "known card: it is the other seat's card that the seat to move knew from its "
                "own last play (a Priest, Baron or King on top of its discard pile, the other "
                "seat's one play since a Guard, Handmaid, Countess or Spy), from its Chancellor "
                "return the other seat drew at the start of its last turn (the same one play "
                "since) or from the other seat's Baron or King before its last play (a Guard, "
                "Handmaid, Countess or Spy by each seat since); the discard piles show no such "
                "play"
            )
        _check_held_or_played(state, "known", knew, mover, other)
    if shown is not None:
        if earlier is None:
            raise MalformedInput(
                "shown card: it is the seat to move's card that the other seat knew from its "
                "Priest, Baron or King before its last play (under its top discard, a Guard, "
                "Handmaid, Countess or Spy by each seat since) or from its Chancellor return "
                "the seat to move drew at the start of its turn before this one (the same one "
                "play by each since); the discard piles show no such play"
            )
        _check_held_or_played(state, "shown", shown, other, mover)
    with contextlib.suppress(UnknownLastPlay):  # what is missing leaves out the table alone
        _actual_history(state, older, knew, shown)


def _check_held_or_played(state: State, what: str, card: Card, knower: int, seat: int) -> None:
    """:class:`MalformedInput` unless ``card`` is ``seat``'s card or its top discard (the card
    ``knower`` knew ``seat`` held, kept or played since)."""
    could = {*state.seats[seat].hand, state.seats[seat].discards[-1]}
    if card not in could:
        raise MalformedInput(
            f"{what} card: {seat_name(knower)} knew the card {seat_name(seat)} held then, "
            f"which {seat_name(seat)} still holds or has played since: "
            f"{' or '.join(c.title for c in sort_cards(could))}, no {card.title}"
        )


def _actual_history(
    state: State, older: Card | None, knew: Card | None, shown: Card | None
) -> tuple[Event, ...]:
    """The events of :func:`_split_by_last_play` or :func:`_split_by_earlier_play` for the
    position's own deal (none if the piles show neither play): from the seat to move's
    older card ``older``, the card ``knew`` it knew the other seat held and the card
    ``shown`` of its own the other seat knew, where its information set depends on them,
    each given or the one the piles and the plays leave. :class:`UnknownLastPlay` if one is
    needed and not given, :class:`MalformedInput` if none fits."""
    last, earlier = _looks(state)
    if last is None and earlier is None:
        return ()
    mover = state.turn
    other = 1 - mover
    hand = state.seats[mover].hand
    tops = (state.seats[mover].discards[-1], state.seats[other].discards[-1])
    theirs_could = (*state.seats[other].hand, tops[1])
    idle = _last_turn(state)
    # (older, mine, theirs): the seat to move's older card, its card the other seat knew
    # (None after its own last play), the other seat's card it knew.
    found: set[tuple[Card, Card | None, Card]] = set()
    for a in hand:
        for k in theirs_could:
            if last is not None and _play_fits(state, last, a, k):
                found.add((a, None, k))
            if earlier is None:
                continue
            for m in (a, tops[0]):
                if _play_fits(state, earlier, k, m):
                    found.add((a, m, k))
    triples = {
        t
        for t in found
        if (older is None or t[0] is older)
        and (knew is None or t[2] is knew)
        and (shown is None or t[1] is shown)
    }
    if last is not None:
        play = (
            f"{seat_name(mover)}'s {last.title} on top of its discard pile"
            if public_last_play(state) is not None
            else f"{seat_name(other)}'s draw of {seat_name(mover)}'s Chancellor return at the "
            "start of its last turn"
        ) + f", then {seat_name(other)}'s {tops[1].title}"
        needs = (True, False, last is not Card.PRIEST and not idle)
    else:
        assert earlier is not None
        play = (
            f"{seat_name(other)}'s {earlier.title} under its top discard"
            if public_earlier_play(state) is not None
            else f"{seat_name(mover)}'s draw of {seat_name(other)}'s Chancellor return at the "
            "start of its turn before this one"
        ) + f", then {seat_name(mover)}'s {tops[0].title} and {seat_name(other)}'s {tops[1].title}"
        needs = (earlier is not Card.PRIEST, not idle, False)
    given = "".join(
        f" ({what} card: {card.title})"
        for what, card in (("older", older), ("known", knew), ("shown", shown))
        if card is not None
    )
    if not triples:
        raise MalformedInput(
            f"the discard piles show {play}: no cards the seats could have held then fit it{given}"
        )
    missing = []
    knews = {t[2] for t in triples}
    if needs[0] and len(knews) > 1:
        missing.append(
            f"which card of {seat_name(other)} it knew, "
            f"{' or '.join(c.title for c in sort_cards(knews))} (--knew CARD; "
            f"{seat_name(other)} still holds it or has played it since)"
        )
    showns = {t[1] for t in triples if t[1] is not None}
    if needs[1] and len(showns) > 1:
        missing.append(
            f"which card of its own {seat_name(other)} knew, "
            f"{' or '.join(c.title for c in sort_cards(showns))} (--shown CARD; "
            f"{seat_name(mover)} still holds it or has played it since)"
        )
    olders = {t[0] for t in triples}
    if needs[2] and len(olders) > 1:
        missing.append(
            f"which of {', '.join(c.title for c in sort_cards(olders))} is "
            f"its card from before its draw (--older CARD)"
        )
    if missing:
        raise UnknownLastPlay(
            f"the discard piles show {play}: {seat_name(mover)}'s information set depends on "
            "what the seats learnt then, and the position does not say " + " nor ".join(missing)
        )
    a, mine, k = min(
        triples, key=lambda t: (t[0].index, -1 if t[1] is None else t[1].index, t[2].index)
    )
    if mine is None:
        assert last is not None
        return _last_play_events(state, last, a, k)
    assert earlier is not None
    return _earlier_play_events(state, earlier, mine, k)


class UnknownOlderCard(LoveformalError):
    """The position's own deal needs the older card of a seat's two-card hand, which the
    position does not say (:func:`actual_deal`)."""


class UnknownLastPlay(UnknownOlderCard):
    """The position's own deal needs what the seat to move learnt with its last play (the
    card it knew the other seat held; after a Baron or King, its own older card too), which
    the position does not say (:func:`actual_deal`)."""


def actual_deal(
    state: State,
    knower: int | None = None,
    older: Card | None = None,
    knew: Card | None = None,
    shown: Card | None = None,
) -> Deal:
    """The deal that ``state`` itself is (its hands, set-aside card, unseen pile and
    returned tail; with ``knower``, what the other seats know of the hands, as
    ``enumerate_deals(knower=...)``'s deals carry it).

    What the discard piles show a seat saw of the seat to move's cards (a Priest's look or a
    King's swap, of its older card; a Chancellor's return it drew, of its new one:
    :func:`pile_sights`) needs its older card: the seat to move's card before its draw,
    ``older`` if given (:class:`MalformedInput` if it holds no such card), else the card of
    its hand when its cards are alike or the piles rule the other out;
    :class:`UnknownOlderCard` if its two cards differ and ``older`` is not given.

    What the seat to move learnt of the other seat's card with its own last play
    (:func:`~loveformal.knowledge.public_last_play`) needs the card it knew, ``knew``
    (:func:`check_knew`), when the other seat's card and the card it played since differ,
    and after a Baron or King its older card too; what the other seat learnt of the seat
    to move's card with its play before its last
    (:func:`~loveformal.knowledge.public_earlier_play`) needs that card, ``shown``, and
    after a Baron or King ``knew`` (:func:`_actual_history`)."""
    tail, returners = returned_tail(state)
    cards = list(state.pile.cards())
    rest = cards[: len(cards) - len(tail)]
    hands = tuple(s.hand for s in state.seats)
    mover = state.turn
    check_older(state, older)
    seen = _actual_sight_events(state, knower) if knower is not None else ()
    piles = pile_sights(state) if not seen else {}
    excluded = public_exclusions(state) if piles else {}
    for seat, sights in piles.items():
        hand = hands[seat]
        ruled_out = excluded.get(seat, ())
        can = sort_cards({c for c in hand if len(ruled_out) > 1 or fits((c,), ruled_out)})
        can = can or sort_cards(set(hand))  # none fits: the deal is refused later
        if older is not None and seat == mover and older not in can:
            raise MalformedInput(
                f"older card: {seat_name(mover)}'s card from before its draw cannot be "
                f"the {older.title} (the discard piles rule it out)"
            )
        if len(can) == 1 or seat != mover:
            card = can[0]
        elif older is not None:
            card = older
        else:
            tops = ", ".join(
                dict.fromkeys(  # one play can show two sights (a King's swap: both cards)
                    f"{seat_name(s.observer)}'s {state.seats[s.observer].discards[-1].title}"
                    for s in sights
                )
            )
            what = "card from before its draw" if sights[0].older else "newly drawn card"
            raise UnknownOlderCard(
                f"the discard piles show that {seat_name(seat)}'s {what} is known to the "
                f"other seat ({tops} on top of its discard pile), and the position does not "
                f"say which of {', '.join(c.title for c in can)} is its card from before "
                "its draw"
            )
        new = list(hand)
        new.remove(card)
        seen += tuple(
            _sight_event(seat, sight, (card,), ())
            if sight.older
            else _sight_event(seat, sight, (), new[: len(sight.new)])
            for sight in sights
        )
    check_knew(state, knew, shown)
    seen += _actual_history(state, older, knew, shown)
    compared = _tie_events(state, public_tie(state), hands)
    return Deal(
        hands, state.set_aside, sort_cards(rest), Fraction(1), tail, compared + seen, returners
    )


# ----------------------------------------------------------------------------- utilities


def _round_winners(state: State) -> tuple[int, ...]:
    return state.round_winners or state.game_winners


def terminal_utility(state: State, root: State, utility: Utility) -> tuple[int, ...]:
    """The utilities at a terminal ``state`` (see the module docstring)."""
    n = state.players
    if utility == "round":
        won = _round_winners(state)
        gains = [1 if i in won else 0 for i in range(n)]
    else:
        gains = [state.seats[i].tokens - root.seats[i].tokens for i in range(n)]
    if n == 2:
        d = gains[0] - gains[1]
        return (d, -d)
    return tuple(gains)


def win_indicator(state: State) -> tuple[int, ...]:
    """1 for each seat among the round's winners at a terminal ``state``."""
    won = _round_winners(state)
    return tuple(1 if i in won else 0 for i in range(state.players))


# ----------------------------------------------------------------------------- the builder


def _public_count(state: State) -> Counter[Card]:
    seen: Counter[Card] = Counter(state.face_up)
    for s in state.seats:
        seen.update(s.discards)
    return seen


def _dead_guess(state: State, guess: object, public: Counter[Card] | None = None) -> bool:
    """Whether every copy of the card(s) ``guess`` names is public (``public``: the public
    cards of ``state``, when the caller has them)."""
    deck = state.rules.deck(state.players)
    if public is None:
        public = _public_count(state)
    if isinstance(guess, Card):
        cards = [guess]
    else:
        cards = [c for c in deck.kinds if state.rules.value(c) == guess]
    return all(public[c] >= deck.count(c) for c in cards)


def equivalent_actions(state: State) -> dict[Action, Action]:
    """The legal actions that :func:`decision_actions` merges away (never-hitting guesses),
    each mapped to the kept guess it is equivalent to."""
    out: dict[Action, Action] = {}
    first: dict[tuple[object, ...], Action] = {}
    for a in legal_actions(state):
        if isinstance(a, Play) and a.guess is not None and _dead_guess(state, a.guess):
            group = (a.card, a.target, a.targets, a.look)
            if group in first:
                out[a] = first[group]
            else:
                first[group] = a
    return out


def decision_actions(state: State, merge_dead_guesses: bool) -> tuple[Action, ...]:
    """The legal actions, with equivalent never-hitting guesses merged (see the docstring)."""
    actions = legal_actions(state)
    if not merge_dead_guesses:
        return actions
    out: list[Action] = []
    kept: set[tuple[object, ...]] = set()
    public: Counter[Card] | None = None
    dead: dict[object, bool] = {}
    for a in actions:
        if isinstance(a, Play) and a.guess is not None:
            is_dead = dead.get(a.guess)
            if is_dead is None:
                if public is None:
                    public = _public_count(state)
                is_dead = dead[a.guess] = _dead_guess(state, a.guess, public)
            if is_dead:
                group = (a.card, a.target, a.targets, a.look)
                if group in kept:
                    continue
                kept.add(group)
        out.append(a)
    return tuple(out)


@dataclass(frozen=True)
class Reductions:
    """The value-preserving reductions of the reduced builder (:mod:`.levels` proves each):
    all on by default; ``build_endgame(reduce=True)`` means ``Reductions()``."""

    dominance: bool = True
    """Drop actions dominated at every history of their information set."""
    splice: bool = True
    """Forced moves (one action left) and one-outcome chance nodes make no node."""
    collapse: bool = True
    """A subtree where nobody has a choice becomes one terminal (exact expectation)."""
    pool_aside: bool = True
    """Deals that differ only in which card of their pool is set aside are one root outcome,
    and the draws are made from the pool (:func:`pool_deals`)."""
    discard_orders: bool = True
    """States that differ only in the order of their discard piles are one engine node
    (:meth:`_TreeWalker.canonical_seats`; the histories and information sets are the same)."""


@dataclass(frozen=True)
class Endgame:
    """A built endgame: the game and how it was made."""

    game: Game
    """The game solved; in a pooled build one root outcome per group of deals
    (:attr:`groups`)."""
    root: State
    """The position (with its log)."""
    deals: tuple[Deal, ...]
    """The root deals; the root chance outcomes in edge order, except in a pooled build
    (:attr:`groups`)."""
    utility: Utility
    merge_dead_guesses: bool
    build_seconds: float
    representatives: dict[tuple[int, object], State]
    """Per (player, infoset key): one state of the infoset (for opponent models; empty for
    reduced builds)."""
    shared: int
    """Transpositions merged (with ``share``)."""
    reductions: Reductions | None = None
    """The reductions applied (None: the full tree)."""
    full_histories: int = 0
    """Histories of the full tree (same deals and dead-guess merge); the game's own count
    when not reduced."""
    forced: Mapping[tuple[int, Hashable], Hashable] = field(default_factory=dict)
    """Reduced builds: (player, infoset key) -> the only action kept by dominance, for the
    information sets this left with one action (they make no node; see
    :func:`extend_strategy`)."""
    dominated: int = 0
    """Reduced builds: actions dropped by dominance (summed over information sets)."""
    knower: int | None = None
    """The seat whose knowledge alone restricts the deals (None: every seat's)."""
    groups: tuple[tuple[int, ...], ...] | None = None
    """A pooled reduced build (:attr:`Reductions.pool_aside`): the indices of the deals of
    each root outcome, in edge order (None: one root outcome per deal)."""
    determinized: tuple[tuple[Fraction, Mapping[Hashable, Fraction]], ...] | None = None
    """A pooled build asked to ``determinize``: per deal, its perfect-information minimax
    value and its root actions' (:func:`~loveformal.solver.pimc.pooled_minimax`)."""
    determinized_seconds: float = 0.0
    """The time :attr:`determinized` took (not in :attr:`build_seconds`)."""


def extend_strategy(
    eg: Endgame,
    full: Game,
    player: int,
    strategy: Mapping[Hashable, Mapping[Hashable, float | Fraction]],
) -> dict[Hashable, dict[Hashable, float | Fraction]]:
    """``player``'s behaviour strategy in ``eg.game`` (a reduced build) extended to ``full``,
    the unreduced game of the same position (``build_endgame(..., reduce=False)``).

    Information sets of the reduced game keep their probabilities (actions dominance dropped
    get 0); those dominance left with one action (:attr:`Endgame.forced`) play it; every other
    information set of the full game — forced moves, and those below dropped actions, which a
    profile of the reduced game never reaches — is played uniformly. A Nash equilibrium of the
    reduced game extends to one of the full game with the same expected values and best
    responses (:mod:`.levels`)."""
    forced = {key: a for (p, key), a in eg.forced.items() if p == player}
    out: dict[Hashable, dict[Hashable, float | Fraction]] = {}
    for info in full.infosets_of(player):
        probs = strategy.get(info.key)
        if probs is not None:
            out[info.key] = {a: probs.get(a, 0.0) for a in info.actions}
        elif info.key in forced:
            out[info.key] = {a: Fraction(int(a == forced[info.key])) for a in info.actions}
        else:
            out[info.key] = {a: Fraction(1, len(info.actions)) for a in info.actions}
    return out


class _Walker:
    def __init__(
        self,
        root: State,
        utility: Utility,
        merge: bool,
        max_nodes: int,
        players: int,
        share: bool,
    ) -> None:
        self.b = GameBuilder(players)
        self.root = root
        self.utility = utility
        self.merge = merge
        self.max_nodes = max_nodes
        self.share = share
        self.reps: dict[tuple[int, object], State] = {}
        self.terminals = 0
        self.hits = 0

    def too_large(self, what: str) -> EndgameTooLarge:
        return EndgameTooLarge(
            f"the endgame {what} more than --max-nodes = {self.max_nodes:,} histories; "
            "raise --max-nodes or solve a later position"
        )

    def walk(self, state: State) -> int:
        b = self.b
        share = self.share
        if share:
            found = b.find(state)
            if found is not None:
                self.hits += 1
                return found
        phase = state.phase
        if phase in _TERMINAL_PHASES:
            # Terminal keys are unique and carry the round's winners (read back by the solver
            # from Game.node_key for win probabilities).
            self.terminals += 1
            return b.terminal(
                terminal_utility(state, self.root, self.utility),
                key=(_TERMINAL_KEY, self.terminals, win_indicator(state)),
            )
        if len(b) > self.max_nodes:
            raise self.too_large("has")
        walk = self.walk
        node_key = state if share else None
        if phase in CHANCE_PHASES:
            outs = [(o, p, walk(apply(state, o))) for o, p in chance_outcomes(state)]
            return b.chance(outs, key=node_key)
        player = current_player(state)
        acts = [(a, walk(apply(state, a))) for a in decision_actions(state, self.merge)]
        key = observation(state, player).key
        self.reps.setdefault((player, key), state)
        return b.decision(player, key, acts, key=node_key)


_TERMINAL_KEY = "terminal"


# ----------------------------------------------------------------------------- the fast builder
#
# The engine never reads ``State.log`` (it only appends to it), so the subtree below a state
# depends on the state *without* its log alone. :class:`_Entry` memoises one engine node per
# log-less state (its actions or chance outcomes, the events each transition appends, the
# utilities at a terminal), and :class:`_TreeWalker` unfolds the entries into the game tree,
# one history per path, without calling the engine again for a repeated log-less state.
#
# Information-set keys are computed incrementally. ``observation(state, seat).key`` is the
# seat's public view of the state (a function of the log-less state) plus ``known_bottom``
# plus the round's events as the seat saw them. Along a path the seen events only grow, so
# each history carries, per seat, an interned id of its seen-event sequence (parent id + the
# new events as the seat saw them); the walker groups decision nodes on ``(seen-events id,
# public-view id)``, and builds the real observation key once per information set (from the
# same parts, in the same order as :class:`~loveformal.observation.Observation.key`).
# ``known_bottom`` is a function of the seen events and the pile size (a seat's own Chancellor
# returns are seen events; everyone's returns are public in number), both part of the grouping,
# so equal groups have equal observation keys; two different groups with the same observation
# key would be an error, and the walker raises on it. tests/solver/test_fast_build.py checks
# ``observation(state, seat).key`` against the key of every decision node of many endgames.


def _seen(event: Event, seat: int) -> Event:
    return event if event.seen_by(seat) else event.public()


class InfosetKey(tuple[object, ...]):
    """An observation key (a plain tuple: equal to ``observation(...).key`` and hashing the
    same) that computes its hash once: the keys hold the round's events, whose enum fields
    are slow to hash, and solvers index dictionaries by them."""

    def __hash__(self) -> int:
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = tuple.__hash__(self)
        return h


class _Entry:
    """One engine node (a log-less state), with its outgoing transitions."""

    __slots__ = (
        "children",
        "chunks",
        "events",
        "exact",
        "index",
        "kind",
        "labels",
        "player",
        "probs",
        "pub",
        "size",
        "state",
        "utility",
        "win",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.kind = 0
        self.player = -1
        self.labels: tuple[Hashable, ...] = ()
        self.probs: tuple[Fraction, ...] | None = None
        self.children: tuple[_Entry, ...] = ()
        self.events: tuple[tuple[Event, ...], ...] = ()
        self.chunks: tuple[tuple[int, ...], ...] = ()
        """Per edge, per seat: the interned id of the edge's events as the seat saw them."""
        self.pub = -1
        """Interned id of the acting seat's public view (decisions)."""
        self.utility: tuple[int, ...] | None = None
        self.exact: tuple[Fraction, ...] | None = None
        self.win: tuple[int, ...] = ()
        self.size = 0
        """Histories in the subtree (memoised by :meth:`_TreeWalker.count`)."""
        self.index = -1
        """Position in the memo (set by the reduced builder)."""


def _public_view(state: State, seat: int) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """The fields of ``observation(state, seat).key`` that come from the log-less state,
    split around ``known_bottom`` (index 20 of the key) and without the events."""
    seats = state.seats
    hands, discards, out, protected, tokens, spied = zip(*seats, strict=True)
    return (
        seat,
        state.rules.key,
        state.players,
        state.round,
        state.starter,
        state.phase.value,
        state.turn,
        state.pending_seat,
        state.chancellor_draws,
        hands[seat],
        tuple(map(len, hands)),
        discards,
        out,
        protected,
        spied,
        tokens,
        state.face_up,
        state.sycophant,
        state.jester,
        state.pile.size,
    ), (
        state.set_aside is not None,
        state.round_winners,
        state.next_starters,
        state.game_winners,
    )


_new_state = tuple.__new__
_DISCARDS = 11
"""The discard piles' index in the head of :func:`_public_view`."""
_ADDS_TO_DISCARDS = (EventKind.DISCARDED, EventKind.KNOCKED_OUT)
"""Events whose ``cards`` go on the seat's discard pile (as :data:`EventKind.PLAYED`'s card)."""


def replayed_discards(
    discards: tuple[tuple[Card, ...], ...], events: Sequence[Event]
) -> tuple[tuple[Card, ...], ...]:
    """Each seat's discard pile after ``events``, from the piles ``discards`` before them: a
    played card goes on its player's pile, a hand discarded without effect (a Prince, the
    Assassin, the Bishop's redraw) or knocked out on its seat's, in order. These events are
    public, so any seat's view of the events gives the piles; the engine adds cards to a
    discard pile in :func:`~loveformal.engine.apply`'s play,
    :func:`~loveformal.scoring.discard_hand` and :func:`~loveformal.scoring.knock_out` only
    (a test replays random rounds of every preset)."""
    piles = list(discards)
    for ev in events:
        kind = ev.kind
        if kind is _PLAYED:
            seat = cast(int, ev.seat)
            piles[seat] = (*piles[seat], cast(Card, ev.card))
        elif kind in _ADDS_TO_DISCARDS and ev.cards:
            seat = cast(int, ev.seat)
            piles[seat] = piles[seat] + ev.cards
    return tuple(piles)


_POOLED = "pooled"
"""Marks a pooled memo key (:attr:`_TreeWalker.pool_aside`) in place of the set-aside card."""
assert State._fields[0] == "rules" and State._fields[-1] == "log"
assert State._fields[3:5] == ("pile", "set_aside")
assert Seat._fields == ("hand", "discards", "out", "protected", "tokens", "spied")


class _TreeWalker:
    """Builds the game tree of an endgame with memoised engine nodes (see above)."""

    def __init__(
        self, root: State, utility: Utility, merge: bool, max_nodes: int, players: int
    ) -> None:
        self.root = root
        self.utility = utility
        self.merge = merge
        self.max_nodes = max_nodes
        self.players = players
        self.memo: dict[tuple[object, ...], _Entry] = {}
        """Engine nodes by their state without ruleset and log (see :meth:`entry`)."""
        self.chunk_ids: dict[tuple[Event, ...], int] = {}
        self.chunk_events: list[tuple[Event, ...]] = []
        self.seen_chunks: dict[tuple[Event, ...], tuple[int, ...]] = {}
        self.pub_ids: dict[tuple[object, ...], int] = {}
        self.pub_views: list[tuple[tuple[object, ...], tuple[object, ...]]] = []
        # Seen-event sequences: id -> (parent id, chunk id); 0 is the empty sequence.
        self.seen_ids: dict[tuple[int, int], int] = {}
        self.seen_parent: list[int] = [-1]
        self.seen_chunk: list[int] = [-1]
        # The tree, node by node (pre-order).
        self.entries: list[_Entry] = []
        self.parent: list[int] = []
        self.action: list[int] = []
        self.infoset: list[int] = []
        self.own: list[tuple[int, ...]] = []
        self.info_ids: dict[tuple[int, int], int] = {}
        self.info_specs: list[InfosetSpec] = []
        self.info_unique: dict[tuple[object, ...], int] = {}
        self.event_ids: dict[Event, int] = {}
        self.next_sequence = [1] * players
        self.reps: dict[tuple[int, object], State] = {}
        self.terminals = 0
        self.exacts: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
        """Terminal utilities as Fractions, one tuple per distinct value (shared by identity,
        which lets :func:`~loveformal.solver.efg.tree_game` check each once)."""
        self.outcomes: dict[int, tuple[object, tuple[Hashable, ...], tuple[Fraction, ...]]] = {}
        """A chance node's outcomes (by the identity of the engine's tuple, which it memoises,
        kept alive here) split into labels and probabilities, shared by identity too."""
        self.max_states: int | None = None
        """Refuse (:meth:`too_many_states`) on making more engine states than this."""
        self.pool_aside = False
        """Key states on their *pool* (the set-aside card and the pile's unseen part as one
        multiset) and draw from the pool: see :func:`pool_deals`. Set by the reduced build."""
        self.pools: dict[tuple[tuple[Card, ...], Card], tuple[Card, ...]] = {}
        self.sorted_discards = False
        """Key states on their seats with each discard pile in card order, and public views
        on those piles (see :meth:`canonical_seats`). Set by the reduced build, which puts
        the piles' order back into each information set's key (:func:`replayed_discards`)."""
        self.seat_ids: dict[tuple[Seat, ...], int] = {}
        self.canonical_ids: dict[tuple[Seat, ...], int] = {}
        self.sorted_piles: list[tuple[tuple[Card, ...], ...]] = []
        """Per canonical id (:meth:`canonical_seats`): the seats' discard piles in card
        order (what the public views hold)."""

    # -- memoised engine nodes

    def canonical_seats(self, seats: tuple[Seat, ...]) -> int:
        """The id of ``seats`` with each discard pile in card order.

        States that differ only in the order of their discard piles have the same future:
        the rules read a discard pile only for what it holds (the Count's bonus, the
        showdown's discard total, the Constable), never for its order, and no event shows it.
        So one engine node serves them all. Their histories are still told apart where it
        matters: each seat saw the cards go on the piles (public events), so the seat's
        event sequence, part of every information set's identity, fixes the order."""
        found = self.seat_ids.get(seats)
        if found is None:
            canonical = tuple([_new_state(Seat, (s[0], sort_cards(s[1]), *s[2:])) for s in seats])
            found = self.canonical_ids.get(canonical)
            if found is None:
                found = self.canonical_ids[canonical] = len(self.sorted_piles)
                self.sorted_piles.append(tuple([s[1] for s in canonical]))
            self.seat_ids[seats] = found
        return found

    def entry(self, state: State) -> _Entry:
        # Memoised on the state without its ruleset (the first field, the root's in every
        # state of the endgame: hashing it is a Python call) and its log (the last); with
        # ``sorted_discards``, on its seats' id with the discard piles in card order.
        key: tuple[object, ...] = state[1:-1]
        if self.pool_aside and state[4] is not None and state[3][1]:
            # Pooled (a set-aside card and unseen pile cards, as :func:`pool_copies`): the
            # set-aside card and the pile's unseen part as one multiset.
            top, unseen, bottom = state[3]
            pool = self.pool(unseen, state[4])
            key = (state[1], state[2], (top, pool, bottom), _POOLED, *state[5:-1])
        canonical = -1
        if self.sorted_discards:
            canonical = self.canonical_seats(state[2])
            key = (key[0], canonical, *key[2:])
        found = self.memo.get(key)
        if found is not None:
            return found
        if state.rules is not self.root.rules:
            raise AssertionError("the states of an endgame share its root's ruleset")
        # ``state`` without its log (``_replace`` is several times slower).
        bare = _new_state(State, (*state[:-1], ())) if state.log else state
        if self.max_states is not None and len(self.memo) >= self.max_states:
            raise self.too_many_states()
        e = _Entry(bare)
        phase = bare.phase
        if phase in _TERMINAL_PHASES:
            e.kind = TERMINAL
            e.utility = terminal_utility(bare, self.root, self.utility)
            exact = self.exacts.get(e.utility)
            if exact is None:
                exact = self.exacts[e.utility] = tuple(Fraction(u) for u in e.utility)
            e.exact = exact
            e.win = win_indicator(bare)
        else:
            if phase in CHANCE_PHASES:
                e.kind = CHANCE
                top, unseen, bottom = bare.pile
                pooled = self.pool_aside and bare.set_aside is not None and unseen and not top
                if pooled:
                    assert bare.set_aside is not None
                    pool = self.pool(unseen, bare.set_aside)
                    outs = chance_outcomes(
                        _new_state(State, (*bare[:3], DrawPile((), pool, bottom), *bare[4:]))
                    )
                else:
                    outs = chance_outcomes(bare)
                split = self.outcomes.get(id(outs))
                if split is None or split[0] is not outs:
                    split = (outs, tuple(o for o, _ in outs), tuple(p for _, p in outs))
                    self.outcomes[id(outs)] = split
                e.labels, e.probs = split[1], split[2]
            else:
                e.kind = DECISION
                e.player = current_player(bare)
                e.labels = decision_actions(bare, self.merge)
                head, tail = _public_view(bare, e.player)
                if canonical >= 0:  # the piles in card order: see :meth:`canonical_seats`
                    piles = self.sorted_piles[canonical]
                    head = (*head[:_DISCARDS], piles, *head[_DISCARDS + 1 :])
                view = (head, tail)
                pid = self.pub_ids.get(view)
                if pid is None:
                    pid = self.pub_ids[view] = len(self.pub_views)
                    self.pub_views.append(view)
                e.pub = pid
            if e.kind == CHANCE and pooled:
                kids = [apply(self.holding(bare, d.card), d) for d in cast(Any, e.labels)]
            else:  # labels are engine actions
                kids = [apply(bare, cast(Action, a)) for a in e.labels]
            e.events = tuple(k.log for k in kids)
            e.chunks = tuple(self.chunks_of(evs) for evs in e.events)
            e.children = tuple(self.entry(k) for k in kids)
        self.memo[key] = e
        return e

    def pool(self, unseen: tuple[Card, ...], aside: Card) -> tuple[Card, ...]:
        """The pool: ``unseen`` (sorted) with ``aside`` in its place."""
        found = self.pools.get((unseen, aside))
        if found is None:
            found = self.pools[(unseen, aside)] = sort_cards((*unseen, aside))
        return found

    @staticmethod
    def holding(state: State, card: Card) -> State:
        """``state``, or with its set-aside card swapped for a card of the pile's unseen part
        if ``card`` is not in that part: a state of the same pool whose pile holds ``card``
        (drawing it then leaves some other card of the pool set aside)."""
        top, unseen, bottom = state.pile
        if card in unseen:
            return state
        assert state.set_aside is card and unseen
        rest = sort_cards((*unseen[1:], card))
        return _new_state(State, (*state[:3], DrawPile(top, rest, bottom), unseen[0], *state[5:]))

    def count(self, e: _Entry) -> int:
        """Histories below (and including) ``e``: the same on every path to it."""
        if not e.size:
            e.size = 1 + sum(self.count(c) for c in e.children)
        return e.size

    def chunk(self, events: tuple[Event, ...]) -> int:
        cid = self.chunk_ids.get(events)
        if cid is None:
            cid = self.chunk_ids[events] = len(self.chunk_events)
            self.chunk_events.append(events)
        return cid

    def chunks_of(self, events: tuple[Event, ...]) -> tuple[int, ...]:
        """Per seat: the interned id of ``events`` as the seat saw them."""
        found = self.seen_chunks.get(events)
        if found is None:
            if all(ev.visible_to is None for ev in events):
                found = (self.chunk(events),) * self.players
            else:
                found = tuple(
                    self.chunk(tuple(_seen(ev, s) for ev in events)) for s in range(self.players)
                )
            self.seen_chunks[events] = found
        return found

    def root_seen(self, log: tuple[Event, ...]) -> tuple[int, ...]:
        """Per seat: the id of the seen-event sequence of a deal's root ``log`` (0 when it
        is empty; :func:`deal_state`)."""
        if not log:
            return (0,) * self.players
        out = []
        for c in self.chunks_of(log):
            sid = self.seen_ids.get((0, c))
            if sid is None:
                sid = self.seen_ids[(0, c)] = len(self.seen_parent)
                self.seen_parent.append(0)
                self.seen_chunk.append(c)
            out.append(sid)
        return tuple(out)

    def seen_events(self, sid: int) -> tuple[Event, ...]:
        parts: list[tuple[Event, ...]] = []
        while sid > 0:
            parts.append(self.chunk_events[self.seen_chunk[sid]])
            sid = self.seen_parent[sid]
        return tuple(ev for part in reversed(parts) for ev in part)

    # -- the tree

    def too_large(self) -> EndgameTooLarge:
        return EndgameTooLarge(
            f"the endgame has more than --max-nodes = {self.max_nodes:,} histories; "
            "raise --max-nodes or solve a later position"
        )

    def too_many_states(self) -> EndgameTooLarge:
        assert self.max_states is not None
        return EndgameTooLarge(
            f"the endgame has more than {self.max_states:,} distinct positions to expand, the "
            f"limit for --max-nodes = {self.max_nodes:,}; raise --max-nodes or solve a later "
            "position"
        )

    def add_root(self, labels: tuple[Hashable, ...], probs: tuple[Fraction, ...]) -> int:
        root = _Entry(self.root)
        root.kind = CHANCE
        root.labels = labels
        root.probs = probs
        self.entries.append(root)
        self.parent.append(-1)
        self.action.append(-1)
        self.infoset.append(-1)
        self.own.append((0,) * self.players)
        return 0

    def walk(
        self,
        e: _Entry,
        parent: int,
        act: int,
        seen: tuple[int, ...],
        own: tuple[int, ...],
        log: tuple[Event, ...],
    ) -> None:
        n = len(self.entries)
        if n > self.max_nodes:
            raise self.too_large()
        self.entries.append(e)
        self.parent.append(parent)
        self.action.append(act)
        self.own.append(own)
        kind = e.kind
        if kind == TERMINAL:
            self.infoset.append(-1)
            return
        labels = e.labels
        order: Sequence[int] = range(len(labels))
        p = -1
        first = -1
        if kind == DECISION:
            p = e.player
            ident = (seen[p], e.pub)
            idx = self.info_ids.get(ident)
            if idx is None:
                idx = self.new_infoset(e, p, seen[p], own[p], log)
                self.info_ids[ident] = idx
            spec = self.info_specs[idx]
            if spec.parent_sequence != own[p]:
                raise ValueError(
                    f"information set {spec.key!r} of player {p} violates perfect recall"
                )
            if spec.actions is not labels and spec.actions != labels:
                if set(spec.actions) != set(labels) or len(labels) != len(spec.actions):
                    raise ValueError(
                        f"information set {spec.key!r} of player {p} has actions "
                        f"{list(spec.actions)!r} at one node and {list(labels)!r} at another"
                    )
                order = [labels.index(a) for a in spec.actions]
            first = spec.first_sequence
            self.infoset.append(idx)
        else:
            self.infoset.append(-1)
        seen_ids = self.seen_ids
        walk = self.walk
        chunks = e.chunks
        children = e.children
        events = e.events
        # Children are numbered in reverse action order (reverse post-order of a bottom-up
        # build: the numbering GameBuilder.build gives the same tree).
        for a in range(len(order) - 1, -1, -1):
            i = order[a]
            child_seen = []
            for s, c in zip(seen, chunks[i]):  # noqa: B905 (one per seat)
                key = (s, c)
                sid = seen_ids.get(key)
                if sid is None:
                    sid = seen_ids[key] = len(self.seen_parent)
                    self.seen_parent.append(s)
                    self.seen_chunk.append(c)
                child_seen.append(sid)
            child_own = own if p < 0 else (*own[:p], first + a, *own[p + 1 :])
            walk(children[i], n, a, tuple(child_seen), child_own, log + events[i])

    def new_infoset(self, e: _Entry, p: int, sid: int, own_p: int, log: tuple[Event, ...]) -> int:
        assert not self.sorted_discards, "the full tree's keys read the piles off the states"
        state = e.state._replace(log=log)
        head, tail = self.pub_views[e.pub]
        events = self.seen_events(sid)
        bottom: tuple[Card, ...] = ()
        if any(ev.kind is _RETURNED for ev in events):
            bottom = knows_bottom(state, p) or ()
        # Distinct groups must have distinct observation keys (else an infoset would be
        # split): compare them on interned event ids (cheap to hash).
        event_ids = tuple(self.event_id(ev) for ev in events)
        unique = (e.pub, bottom, event_ids)
        if unique in self.info_unique:
            raise AssertionError(
                f"two groups of histories of player {p} share one observation key "
                f"(information set {self.info_unique[unique]})"
            )
        key = InfosetKey((*head, bottom, *tail, events))
        idx = len(self.info_specs)
        self.info_unique[unique] = idx
        self.info_specs.append(InfosetSpec(p, key, e.labels, own_p, self.next_sequence[p]))
        self.next_sequence[p] += len(e.labels)
        self.reps[(p, key)] = state
        return idx

    def event_id(self, event: Event) -> int:
        eid = self.event_ids.get(event)
        if eid is None:
            eid = self.event_ids[event] = len(self.event_ids)
        return eid

    def game(self) -> Game:
        # Per distinct engine node (histories share them), then per node by index.
        first, group = group_by_identity(self.entries)
        index = group.astype(np.int64)
        distinct = [self.entries[i] for i in first.tolist()]
        keys: dict[object, tuple[str, object]] = {}  # one shared key per win indicator
        node_keys: list[Hashable] = [None] * len(distinct)
        for d, e in enumerate(distinct):
            if e.kind == TERMINAL:
                key = keys.get(e.win)
                if key is None:
                    key = keys[e.win] = (_TERMINAL_KEY, e.win)
                node_keys[d] = key
        infoset = np.asarray(self.infoset, dtype=np.int64)
        # A decision lists its information set's actions (in the infoset's order).
        labels = Shared(
            [*(e.labels for e in distinct), *(spec.actions for spec in self.info_specs)],
            np.where(infoset >= 0, len(distinct) + infoset, index),
        )
        return tree_game(
            self.players,
            kind=np.array([e.kind for e in distinct], dtype=np.int64)[index],
            player=np.array([e.player for e in distinct], dtype=np.int64)[index],
            infoset=infoset,
            parent=self.parent,
            action=self.action,
            labels=labels,
            probs=shared_by_identity([e.probs for e in distinct], index),
            utility=shared_by_identity([e.exact for e in distinct], index),
            node_key=np.fromiter(node_keys, dtype=object, count=len(distinct))[index].tolist(),
            own_sequence=self.own,
            infosets=self.info_specs,
        )


def terminal_winners(game: Game, node: int) -> tuple[int | Fraction, ...] | None:
    """The win indicators recorded at terminal ``node`` of a built endgame (else None), per
    seat: 1 or 0, or their expectation at a subtree the reduced game collapses into one
    terminal. The key is ``("terminal", winners)``, shared by the terminals with the same
    winners, from the tree builders, and ``("terminal", number, winners)``, unique, from the
    sharing builder (whose :class:`~loveformal.solver.efg.GameBuilder` merges nodes by
    key)."""
    key = game.node_key[node]
    if isinstance(key, tuple) and len(key) in (2, 3) and key[0] == _TERMINAL_KEY:
        winners: tuple[int | Fraction, ...] = key[-1]
        return winners
    return None


def build_endgame(
    state: State,
    *,
    utility: Utility = "round",
    max_nodes: int = DEFAULT_MAX_NODES,
    prior: Prior | None = None,
    merge_dead_guesses: bool = True,
    progress: Progress | None = None,
    sample_deals: int = 3,
    share: bool = False,
    reduce: bool | Reductions = False,
    knower: int | None = None,
    determinize: bool = False,
) -> Endgame:
    """Build the endgame of ``state`` (see the module docstring).

    Before building everything, the subtrees of ``sample_deals`` evenly spread deals are
    built and their mean size times the number of deals is the *estimate*, checked after
    each sample deal; above ``max_nodes`` it raises :class:`EndgameTooLarge` at once. The
    engine's expansion stops past :func:`state_cap` distinct states (checked as each is made,
    so one enormous deal cannot run away), and the build itself as soon as it passes
    ``max_nodes`` histories. ``knower``: the root deals are those that seat cannot rule out
    (:func:`enumerate_deals`).

    ``share`` keys every node on its full state (log included) and merges repeats. The log
    records every event of the round, so two different histories almost never reach the same
    state (none in the benchmark endgames); sharing is therefore off by default, which saves
    hashing every state. The cyclic garbage collector is paused while building (the tree
    holds millions of small tuples and nothing of it is cyclic garbage).

    ``reduce`` (``True`` or a :class:`Reductions`; two players only) builds the reduced game
    of :mod:`loveformal.solver.levels`: the same value and equilibria with dominated actions,
    forced moves and choice-free subtrees left out. The engine expands every distinct state
    of the endgame first (a DAG far smaller than the tree): the subtrees of the sample deals
    first, whose states per deal times the number of deals is the estimate, refused at once
    above :data:`ESTIMATE_SLACK` times the full tree's :func:`state_cap`; then the rest,
    refused past ``state_cap(max_nodes, reduced=True)`` states, a cap checked as each state
    is made. Then ``max_nodes`` bounds the reduced game's histories while it is built: the
    build is refused as soon as the histories made and a lower bound on those still to make
    pass it (:mod:`loveformal.solver.levels`).
    With :attr:`Reductions.pool_aside` the deals that differ only in their set-aside card
    are one root outcome (:func:`pool_deals`; :attr:`Endgame.groups`), and ``determinize``
    computes each deal's perfect-information minimax value on the engine's nodes
    (:attr:`Endgame.determinized`), which the pooled game's tree cannot give.
    """
    if utility not in UTILITIES:
        raise MalformedInput(f"unknown utility {utility!r} (expected one of {UTILITIES})")
    reductions = Reductions() if reduce is True else (reduce or None)
    if reductions is not None and (state.players != 2 or share):
        raise ValueError("the reduced build is for two-player endgames, without share")
    start = time.perf_counter()
    cap = state_cap(max_nodes, reduced=reductions is not None)
    deals = enumerate_deals(state, prior=prior, knower=knower, limit=cap)
    total = sum((d.weight for d in deals), Fraction(0))
    walker: _Walker | _TreeWalker
    gc_was_enabled = gc.isenabled()
    gc.disable()
    extra: dict[str, object] = {}
    pooled: _Pooled | None = None
    try:
        if share:
            walker = _Walker(state, utility, merge_dead_guesses, max_nodes, state.players, share)
            game = _build(walker, state, deals, total, max_nodes, progress, sample_deals)
            shared = walker.hits
        elif reductions is not None:
            walker = _TreeWalker(state, utility, merge_dead_guesses, max_nodes, state.players)
            built, pooled = _build_reduced(
                walker,
                state,
                deals,
                total,
                max_nodes,
                progress,
                reductions,
                sample_deals,
                determinize,
            )
            game = built.game
            shared = 0
            extra = {
                "full_histories": built.full_histories,
                "forced": built.forced,
                "dominated": built.dominated,
            }
            walker.reps = {}
        else:
            walker = _TreeWalker(state, utility, merge_dead_guesses, max_nodes, state.players)
            game = _build_tree(walker, state, deals, total, max_nodes, progress, sample_deals)
            shared = 0
    finally:
        if gc_was_enabled:
            gc.enable()
    return Endgame(
        game=game,
        root=state,
        deals=tuple(deals),
        utility=utility,
        merge_dead_guesses=merge_dead_guesses,
        build_seconds=time.perf_counter() - start - (0.0 if pooled is None else pooled.seconds),
        representatives=walker.reps,
        knower=knower,
        shared=shared,
        reductions=reductions,
        full_histories=cast(int, extra.get("full_histories", game.num_nodes)),
        forced=cast(Mapping[tuple[int, Hashable], Hashable], extra.get("forced", {})),
        dominated=cast(int, extra.get("dominated", 0)),
        groups=None if pooled is None else pooled.groups,
        determinized=None if pooled is None else pooled.determinized,
        determinized_seconds=0.0 if pooled is None else pooled.seconds,
    )


class _Pooled(NamedTuple):
    groups: tuple[tuple[int, ...], ...]
    determinized: tuple[tuple[Fraction, Mapping[Hashable, Fraction]], ...] | None
    seconds: float


def _sample_indices(deals: int, samples: int) -> list[int]:
    """Up to ``samples`` evenly spread deal indices (the deals the estimates are taken on)."""
    step = max(1, deals // max(1, samples))
    return list(range(0, deals, step))[:samples]


def _build_reduced(
    walker: _TreeWalker,
    state: State,
    deals: list[Deal],
    total: Fraction,
    max_nodes: int,
    progress: Progress | None,
    reductions: Reductions,
    sample_deals: int,
    determinize: bool = False,
) -> tuple[LevelBuild, _Pooled | None]:
    from .levels import build_levels

    cap = walker.max_states = state_cap(max_nodes, reduced=True)
    groups = pool_deals(deals) if reductions.pool_aside else None
    walker.pool_aside = groups is not None
    walker.sorted_discards = reductions.discard_orders
    if groups is None:
        groups = [[i] for i in range(len(deals))]
    # The estimate: evenly spread sample groups first (see ESTIMATE_SLACK).
    refuse_above = ESTIMATE_SLACK * state_cap(max_nodes)
    sample = _sample_indices(len(groups), sample_deals)
    found: dict[int, _Entry] = {}
    for done, g in enumerate(sample, 1):
        found[g] = walker.entry(deal_state(state, deals[groups[g][0]]))
        estimate = len(walker.memo) * len(groups) / done
        if estimate > refuse_above:
            raise EndgameTooLarge(
                f"the endgame is estimated at {estimate:,.0f} distinct positions to expand "
                f"({len(groups):,} {'root outcomes' if walker.pool_aside else 'deals'} × about "
                f"{len(walker.memo) / done:,.0f} each, from {done} sample "
                f"{'outcome' if walker.pool_aside else 'deal'}{'s' if done > 1 else ''}); the "
                "reduced build expands at "
                f"most {cap:,} for --max-nodes = {max_nodes:,}. Raise --max-nodes or solve a "
                "later position"
            )
    entries = []
    root_logs = []
    dealt = 0
    for g, members in enumerate(groups):
        e = found.get(g)
        root = deal_state(state, deals[members[0]])
        entries.append(e if e is not None else walker.entry(root))
        root_logs.append(root.log)
        dealt += len(members)
        if progress is not None:
            progress(dealt, len(deals), 0)  # the engine's expansion: no histories yet
    walker.max_states = None

    def level_progress(histories: int) -> None:
        if progress is not None:
            progress(len(deals), len(deals), histories)

    pooled = walker.pool_aside
    # Per root outcome, each deal's own set-aside card where its node is pooled.
    asides = [
        [deals[i].set_aside if pooled and pool_copies(e.state) is not None else None for i in m]
        for e, m in zip(entries, groups, strict=True)
    ]
    built = build_levels(
        walker,
        entries,
        tuple(deals[m[0]].label(pooled and len(m) > 1) for m in groups),
        tuple(sum((deals[i].weight for i in m), Fraction(0)) / total for m in groups),
        reductions,
        max_nodes,
        walker.too_large,
        level_progress,
        root_logs,
        asides if pooled else None,
    )
    if not pooled:
        return built, None
    values, seconds = None, 0.0
    if determinize:
        from .pimc import PoolDeal, pooled_minimax

        at = [PoolDeal(e, a) for e, cards in zip(entries, asides, strict=True) for a in cards]
        at_deal = [i for m in groups for i in m]
        t = time.perf_counter()
        got = pooled_minimax(at, built.dag)
        by_deal = dict(zip(at_deal, got, strict=True))
        values = tuple(by_deal[i] for i in range(len(deals)))
        seconds = time.perf_counter() - t
    return built, _Pooled(tuple(tuple(m) for m in groups), values, seconds)


def _build_tree(
    walker: _TreeWalker,
    state: State,
    deals: list[Deal],
    total: Fraction,
    max_nodes: int,
    progress: Progress | None,
    sample_deals: int,
) -> Game:
    walker.max_states = state_cap(max_nodes)  # each state is at least one history
    sample = _sample_indices(len(deals), sample_deals)
    sizes: list[int] = []
    for i in sample:
        sizes.append(walker.count(walker.entry(deal_state(state, deals[i]))))
        estimate = sum(sizes) * len(deals) / len(sizes)
        if estimate > FULL_ESTIMATE_SLACK * max_nodes:
            raise EndgameTooLarge(
                f"the endgame is estimated at {estimate:,.0f} histories ({len(deals):,} deals "
                f"× about {sum(sizes) / len(sizes):,.0f} each, from {len(sizes)} sample "
                f"deal{'s' if len(sizes) > 1 else ''}), more than {FULL_ESTIMATE_SLACK} times "
                f"--max-nodes = {max_nodes:,}; raise --max-nodes or solve a later position"
            )
    roots = [deal_state(state, d) for d in deals]
    entries = [walker.entry(r) for r in roots]
    walker.max_states = None
    if 1 + sum(walker.count(e) for e in entries) > max_nodes:
        raise walker.too_large()
    walker.add_root(tuple(d.label() for d in deals), tuple(d.weight / total for d in deals))
    # Deal subtrees in the order of the bottom-up build (sample deals first, then the rest;
    # numbered in reverse), so that the node numbering is GameBuilder's for the same tree.
    in_sample = set(sample)
    order = [i for i in range(len(deals)) if i not in in_sample][::-1] + sample[::-1]
    empty = (0,) * walker.players
    for done, i in enumerate(order, 1):
        walker.walk(entries[i], 0, i, walker.root_seen(roots[i].log), empty, roots[i].log)
        if progress is not None:
            progress(done, len(deals), len(walker.entries))
    return walker.game()


def _build(
    walker: _Walker,
    state: State,
    deals: list[Deal],
    total: Fraction,
    max_nodes: int,
    progress: Progress | None,
    sample_deals: int,
) -> Game:
    children: dict[int, int] = {}
    sample = _sample_indices(len(deals), sample_deals)
    for i in sample:
        children[i] = walker.walk(deal_state(state, deals[i]))
    if sample:
        estimate = len(walker.b) * len(deals) / len(sample)
        if estimate > max_nodes:
            raise EndgameTooLarge(
                f"the endgame is estimated at {estimate:,.0f} histories ({len(deals):,} deals "
                f"× about {len(walker.b) / len(sample):,.0f} each), more than --max-nodes = "
                f"{max_nodes:,}; raise --max-nodes or solve a later position"
            )
    for i, deal in enumerate(deals):
        if i not in children:
            children[i] = walker.walk(deal_state(state, deal))
        if progress is not None:
            progress(i + 1, len(deals), len(walker.b))
    outcomes = [(deals[i].label(), deals[i].weight / total, children[i]) for i in range(len(deals))]
    root = walker.b.chance(outcomes)
    return walker.b.build(root)
