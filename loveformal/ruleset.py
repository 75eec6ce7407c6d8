"""Typed, frozen values for the rules as data: editions, decks, options, presets, rulesets.

The data itself lives in ``specs/`` (TOML) and is read by :mod:`loveformal.rulebook`; this
module only says what shape it has. Option names and values are the canonical ones of
``rules.md`` section 8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Literal

from loveformal.cards import Card

TieBreak = Literal["discard_sum", "none"]
ResidualTie = Literal["all_win", "nobody"]
GuardGuess = Literal["name", "number"]
HandmaidMode = Literal["untargetable", "targetable_no_effect"]
PrinceEmptyDeck = Literal["set_aside", "top_removed"]
ChancellorShortDeck = Literal["draw_available", "no_effect_below_two"]
BishopShowdown = Literal["princess_beats_bishop", "seven_point_five"]
BishopRedraw = Literal["on_hit", "always"]
CountBonus = Literal["per_count", "flat"]
CountTie = Literal["resolve_normally", "void_bonus"]
BaronessTargets = Literal["one_or_two", "two"]
SycophantConflict = Literal["no_effect", "waived"]
SimultaneousWin = Literal["all_win", "first_awarded"]

OptionValue = str | bool | int | tuple[tuple[int, int], ...]
"""A value of one option as stored: strings, booleans, ``two_player_face_up`` as an int,
``tokens_to_win`` as sorted ``((players, tokens), ...)`` pairs."""


@dataclass(frozen=True, slots=True)
class Options:
    """A value for every canonical option (``rules.md`` section 8).

    Options that cannot arise with a deck (``—`` in the preset table) still hold a value (the
    official one); :attr:`Ruleset.applicable` says which options matter for a ruleset.
    """

    tokens_to_win: tuple[tuple[int, int], ...]
    """Game-winning threshold per player count, as sorted ``(players, tokens)`` pairs (D1, D2)."""
    two_player_face_up: int
    """Cards removed face up in a 2-player round: 3 or 0 (D4)."""
    tie_break: TieBreak
    """Showdown tie: compare discard totals, or not (D3)."""
    residual_tie: ResidualTie
    """A tie that survives ``tie_break``: all tied players win, or nobody (D3)."""
    guard_guess: GuardGuess
    """The Guard names a card other than Guard, or a number other than 1 (D6)."""
    guard_self_target: bool
    """The Guard may choose its own player (D5)."""
    handmaid: HandmaidMode
    """Protected players cannot be chosen, or can be chosen to no effect (D26)."""
    prince_empty_deck: PrinceEmptyDeck
    """What a Prince target draws from an empty deck (D16)."""
    chancellor_short_deck: ChancellorShortDeck
    """The Chancellor with 1 card in the deck (D27)."""
    assassin_redraw: bool
    """The Assassin holder discards it and draws after a Guard strikes (D7)."""
    bishop_showdown: BishopShowdown
    """The Bishop at the showdown (D8, D29)."""
    bishop_redraw: BishopRedraw
    """When the Bishop's target may discard and redraw (D9)."""
    count_bonus: CountBonus
    """+1 per Count in the discard pile, or +1 once (D11)."""
    count_tie: CountTie
    """A tie created by Count bonuses (D11)."""
    princess_always_wins: bool
    """The Princess holder wins every showdown (D12)."""
    baroness_targets: BaronessTargets
    """How many hands the Baroness looks at (D13)."""
    sycophant_conflict: SycophantConflict
    """The Sycophant chose the next card's own player and that card must choose another (D14)."""
    jester_self: bool
    """The Jester may choose its own player (D15)."""
    constable_counts_held: bool
    """A Constable still in hand at a knock-out scores (D28)."""
    simultaneous_win: SimultaneousWin
    """Several players reach the threshold together (D23)."""

    def get(self, name: str) -> OptionValue:
        """The value of the option called ``name``."""
        value: OptionValue = getattr(self, name)
        return value

    def tokens_for(self, players: int) -> int:
        """Tokens needed to win the match with ``players`` players."""
        for n, tokens in self.tokens_to_win:
            if n == players:
                return tokens
        raise KeyError(f"tokens_to_win has no entry for {players} players")


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))
"""The canonical option names, in the order of ``rules.md`` section 8."""


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One kind of card in one edition: its value, full-edition count, rule text and source."""

    card: Card
    value: int
    count: int
    text: str
    """The card's rule, in our own words."""
    source: str


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck of an edition, used for a range of player counts."""

    name: str
    min_players: int
    max_players: int
    counts: tuple[tuple[Card, int], ...]
    """Copies of each card kind in the deck (kinds with 0 copies omitted), in Card order."""
    source: str
    _cards: tuple[Card, ...] = field(default=(), init=False, compare=False, repr=False)
    _count: dict[Card, int] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cards", tuple(c for c, n in self.counts for _ in range(n)))
        object.__setattr__(self, "_count", dict(self.counts))

    @property
    def size(self) -> int:
        return len(self._cards)

    def count(self, card: Card) -> int:
        """Copies of ``card`` in the deck (0 if none)."""
        return self._count.get(card, 0)

    @property
    def kinds(self) -> tuple[Card, ...]:
        return tuple(c for c, _ in self.counts)

    def cards(self) -> tuple[Card, ...]:
        """Every card instance of the deck, sorted."""
        return self._cards


@dataclass(frozen=True, slots=True)
class Edition:
    """An edition: its card kinds with their values and texts, and the decks it defines."""

    name: str
    title: str
    source: str
    cards: tuple[CardSpec, ...]
    decks: tuple[Deck, ...]

    def spec(self, card: Card) -> CardSpec:
        for s in self.cards:
            if s.card == card:
                return s
        raise KeyError(f"the {self.name} edition has no {card.title}")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What an option means, the values it takes, and where the disagreement comes from."""

    name: str
    values: tuple[str, ...]
    """Allowed values as written in TOML (``"map"`` for ``tokens_to_win``)."""
    meaning: str
    disagreements: tuple[str, ...]
    """The ``rules.md`` section 3 rows it comes from, e.g. ``("D3",)``."""
    requires_cards: tuple[Card, ...]
    """The option only matters with a deck holding one of these (empty: always)."""
    source: str


@dataclass(frozen=True, slots=True)
class Ruleset:
    """An edition's decks plus a value for every option: what a position is played under.

    Equality and hashing use :attr:`key` (preset name plus overrides), so states that carry a
    ruleset hash quickly.
    """

    preset: str
    """The preset the ruleset starts from."""
    title: str
    edition: Edition
    decks: tuple[Deck, ...]
    """The decks by player count (ranges do not overlap)."""
    options: Options
    sources: tuple[tuple[str, str], ...]
    """``(option name, source)`` for each option: the preset's source or ``"override"``."""
    overrides: tuple[tuple[str, OptionValue], ...] = ()
    """Options changed from the preset, sorted by name."""
    key: str = field(default="", compare=False)
    values: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """Card value by :attr:`Card.index` (cards absent from the edition: -1)."""

    def __post_init__(self) -> None:
        if not self.key:
            parts = [self.preset] + [f"{k}={v}" for k, v in self.overrides]
            object.__setattr__(self, "key", ";".join(parts))
        if not self.values:
            vals = [-1] * len(Card)
            for s in self.edition.cards:
                vals[s.card.index] = s.value
            object.__setattr__(self, "values", tuple(vals))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def min_players(self) -> int:
        return min(d.min_players for d in self.decks)

    @property
    def max_players(self) -> int:
        return max(d.max_players for d in self.decks)

    def deck(self, players: int) -> Deck:
        """The deck used with ``players`` players; :class:`ValueError` if none."""
        for d in self.decks:
            if d.min_players <= players <= d.max_players:
                return d
        raise ValueError(
            f"the {self.preset} ruleset is for {self.min_players}–{self.max_players} players, "
            f"not {players}"
        )

    def value(self, card: Card) -> int:
        """The card's printed value in this edition."""
        return self.values[card.index]

    def source_of(self, option: str) -> str:
        for name, src in self.sources:
            if name == option:
                return src
        raise KeyError(option)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named ruleset as defined in ``specs/presets.toml``."""

    name: str
    title: str
    source: str
    ruleset: Ruleset
    not_applicable: frozenset[str]
    """Options marked ``—`` for this preset: they cannot arise with its decks."""


OptionTable = Mapping[str, object]
"""Raw option overrides as read from TOML or the command line, before validation."""
