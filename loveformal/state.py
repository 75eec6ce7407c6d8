"""The game state: frozen, fully typed values.

Every card of the ruleset's deck is in exactly one zone: the draw pile, the face-down
set-aside card, the face-up cards (2-player rounds), a seat's hand or a seat's discard pile.
(A position written by hand may leave some cards out of play: they are in no zone.)

The values are typed :class:`~typing.NamedTuple` s: immutable, hashable, and cheap to
build, which random play and the solver need (a frozen dataclass costs several times more per
transition). Compare them only with values of the same type.

The draw pile keeps what is known of its order: a known-order ``top`` (an explicit deck order,
as in scenarios and replays), an ``unseen`` multiset whose order nobody knows (its cards are
exchangeable until drawn, so a draw from it is one chance node over card *kinds*, weighted by
their counts), and a known-order ``bottom`` (cards the Chancellor put back, in the order given;
the last one is the very bottom). Cards are drawn from ``top``, then ``unseen``, then ``bottom``.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from loveformal.cards import Card, sort_cards
from loveformal.events import Event
from loveformal.ruleset import Ruleset


class Phase(Enum):
    """What happens next. Phases marked *chance* are resolved by a chance outcome."""

    DEAL = "deal"
    """*chance*: the round is being set up, one card at a time (set-aside, face-up, hands)."""
    TURN_DRAW = "turn_draw"
    """*chance*: the seat whose turn it is draws its card for the turn."""
    PLAY = "play"
    """The seat whose turn it is chooses the card to play and its targets."""
    REDRAW = "redraw"
    """*chance*: ``pending_seat`` draws a replacement card (Prince, Assassin, Bishop)."""
    CHANCELLOR_DRAW = "chancellor_draw"
    """*chance*: the Chancellor's player draws (``chancellor_draws`` cards still to draw)."""
    CHANCELLOR = "chancellor"
    """The Chancellor's player keeps one card and puts the others at the bottom, in order."""
    BISHOP_REDRAW = "bishop_redraw"
    """The Bishop's target (``pending_seat``) chooses to discard and redraw, or to keep."""
    ROUND_OVER = "round_over"
    """*chance*: the round has ended; the next round's starter is chosen among
    ``next_starters`` (one outcome, or a uniform choice among tied winners)."""
    GAME_OVER = "game_over"
    """The match has ended; ``game_winners`` holds its winners. Terminal."""

    # Members are singletons: identity hashing is correct and far cheaper than Enum's default.
    __hash__ = object.__hash__


# The phases as module constants: reading ``Phase.PLAY`` costs a slow metaclass lookup in
# CPython 3.11, a module global does not. Hot code compares ``state.phase is PLAY``.
DEAL = Phase.DEAL
TURN_DRAW = Phase.TURN_DRAW
PLAY = Phase.PLAY
REDRAW = Phase.REDRAW
CHANCELLOR_DRAW = Phase.CHANCELLOR_DRAW
CHANCELLOR = Phase.CHANCELLOR
BISHOP_REDRAW = Phase.BISHOP_REDRAW
ROUND_OVER = Phase.ROUND_OVER
GAME_OVER = Phase.GAME_OVER

CHANCE_PHASES = frozenset(
    {Phase.DEAL, Phase.TURN_DRAW, Phase.REDRAW, Phase.CHANCELLOR_DRAW, Phase.ROUND_OVER}
)


class DrawPile(NamedTuple):
    """The draw pile: known-order top, unseen middle (sorted multiset), known-order bottom.

    Normal form: when ``unseen`` is empty, ``bottom`` is empty too (its cards are appended to
    ``top``), so one sequence of cards has one representation.
    """

    top: tuple[Card, ...] = ()
    unseen: tuple[Card, ...] = ()
    bottom: tuple[Card, ...] = ()

    @property
    def size(self) -> int:
        """How many cards the pile holds."""
        return len(self.top) + len(self.unseen) + len(self.bottom)

    def cards(self) -> tuple[Card, ...]:
        """Every card in the pile (the unseen ones in sorted order)."""
        return self.top + self.unseen + self.bottom

    @property
    def known_order(self) -> bool:
        """True when the whole order is known (no unseen cards)."""
        return not self.unseen

    @staticmethod
    def ordered(cards: tuple[Card, ...]) -> DrawPile:
        """A pile whose whole order is given, top first."""
        return DrawPile(top=cards)

    @staticmethod
    def shuffled(cards: tuple[Card, ...]) -> DrawPile:
        """A pile of unseen cards in unknown order."""
        return DrawPile(unseen=sort_cards(cards))

    def put_bottom(self, cards: tuple[Card, ...]) -> DrawPile:
        """The pile with ``cards`` added at the bottom; the last listed is the very bottom."""
        if self.unseen:
            return DrawPile(self.top, self.unseen, self.bottom + cards)
        return DrawPile(self.top + cards, (), ())

    def without_next(self, card: Card) -> DrawPile:
        """The pile after ``card`` is drawn (from the top, the unseen middle, or the bottom).

        The caller guarantees that ``card`` can be drawn next (see :func:`next_draws`).
        """
        top, unseen, bottom = self
        if top:
            return _pile((top[1:], unseen, bottom))
        if unseen:
            i = unseen.index(card)
            rest = unseen[:i] + unseen[i + 1 :]
            if rest:
                return _pile(((), rest, bottom))
            return _pile((bottom, (), ()))
        return _pile((bottom[1:], (), ()))


def _pile(parts: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]) -> DrawPile:
    """A :class:`DrawPile` from its three parts, without keyword handling (hot path)."""
    return tuple.__new__(DrawPile, parts)


class Seat(NamedTuple):
    """One player's place at the table."""

    hand: tuple[Card, ...] = ()
    """The cards held, sorted (which of two cards was drawn last is not part of the state)."""
    discards: tuple[Card, ...] = ()
    """The discard pile, oldest first."""
    out: bool = False
    """Out of the round: takes no more turns and cannot be chosen."""
    protected: bool = False
    """Protected by the Handmaid until the start of this seat's next turn."""
    tokens: int = 0
    """Tokens of affection won in this match."""
    spied: bool = False
    """Played or discarded a Spy this round (2019 edition)."""


class State(NamedTuple):
    """A complete game state: the whole match, the current round, and what happens next."""

    rules: Ruleset
    players: int
    seats: tuple[Seat, ...]
    pile: DrawPile
    set_aside: Card | None
    """The face-down card removed at the start of the round; ``None`` before the deal has
    removed it and after it has been drawn."""
    face_up: tuple[Card, ...]
    """The cards removed face up at the start of a 2-player round (never drawn, except by a
    Prince under ``prince_empty_deck = top_removed``)."""
    phase: Phase
    turn: int
    """The seat whose turn it is (during the deal: the seat that will start)."""
    pending_seat: int | None = None
    """The seat that draws in ``REDRAW`` or decides in ``BISHOP_REDRAW``."""
    chancellor_draws: int = 0
    """Cards the Chancellor's player still has to draw in ``CHANCELLOR_DRAW``."""
    sycophant: int | None = None
    """The seat the next card played must choose, if it chooses players (Sycophant)."""
    jester: tuple[int, int] | None = None
    """``(bettor, chosen)``: the Jester's player and the seat they bet will win the round."""
    round: int = 1
    """The round number within the match (the first round is 1)."""
    starter: int = 0
    """The seat that started this round."""
    round_winners: tuple[int, ...] = ()
    """The winners of the round that has just ended (``ROUND_OVER``/``GAME_OVER``)."""
    next_starters: tuple[int, ...] = ()
    """At ``ROUND_OVER``: the seat that starts the next round, or the seats among which it is
    chosen at random."""
    game_winners: tuple[int, ...] = ()
    """At ``GAME_OVER``: the winners of the match."""
    log: tuple[Event, ...] = ()
    """This round's events, oldest first, with who saw what."""

    @property
    def seat_in_turn(self) -> Seat:
        return self.seats[self.turn]

    def in_round(self) -> tuple[int, ...]:
        """The seats still in the round, in seat order."""
        return tuple(i for i, s in enumerate(self.seats) if not s.out)

    @property
    def round_over(self) -> bool:
        return self.phase is Phase.ROUND_OVER or self.phase is Phase.GAME_OVER

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.GAME_OVER
