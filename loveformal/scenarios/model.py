"""A parsed rules scenario (``scenario-format.md``) as frozen, typed values.

The parser (:mod:`loveformal.scenarios.parse`) fills these from a TOML file after checking every
key, name and type; the runner (:mod:`loveformal.scenarios.run`) turns them into engine states and
actions. Moves stay in a neutral form: whether a move fits the position (a number guess under
``guard_guess = name``, a ``keep`` that is not among the cards, ...) is decided when it is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from loveformal.actions import Guess
from loveformal.cards import Card
from loveformal.errors import MalformedInput

SetAside = Card | Literal[""]
"""A set-aside card as written: a card, or ``""`` when it has been drawn already."""


class ScenarioError(MalformedInput):
    """A scenario file that cannot be understood: names the file, the key path and what was
    expected (``file: moves[2].target: expected a seat P1..P3, got 'P7'``)."""

    def __init__(self, file: Path | str, key: str, message: str) -> None:
        self.file = str(file)
        self.key = key
        self.detail = message
        where = f"{self.file}: {key}" if key else self.file
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class DealSpec:
    """A ``deal`` move: the new round's cards in explicit order."""

    set_aside: Card | None
    """``None`` when the table does not name it (an illegal deal, rejected in play)."""
    hands: Mapping[int, Card]
    deck: tuple[Card, ...]
    face_up: tuple[Card, ...] = ()
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """One move table as written (names resolved, shape not yet checked against the state).

    ``key`` is where it was written (``moves[2]``, ``expect.legal[0]``), for messages.
    """

    key: str
    play: Card | None = None
    target: int | None = None
    targets: tuple[int, ...] | None = None
    """Sorted into seat order."""
    guess: Guess | None = None
    keep: Card | None = None
    bottom: tuple[Card, ...] | None = None
    look: int | None = None
    redraw: bool | None = None
    by: int | None = None
    deal: DealSpec | None = None


@dataclass(frozen=True, slots=True)
class PositionSpec:
    """The ``[position]`` table. Seats are 0-based; ``set_aside`` is ``None`` when drawn."""

    players: int
    turn: int
    drawn: bool = True
    deck: tuple[Card, ...] = ()
    set_aside: Card | None = None
    face_up: tuple[Card, ...] = ()
    hands: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    discards: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    protected: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    tokens: Mapping[int, int] = field(default_factory=dict)
    sycophant: int | None = None
    jester: tuple[int, int] | None = None
    spied: tuple[int, ...] | None = None
    new_match: bool = False


EXPECT_KEYS: tuple[str, ...] = (
    "error",
    "out",
    "hands",
    "discards",
    "deck",
    "set_aside",
    "face_up",
    "protected",
    "turn",
    "round_over",
    "winners",
    "tokens",
    "game_over",
    "game_winners",
    "next_starter",
    "round",
    "legal_plays",
    "targets",
    "guesses",
    "legal",
    "illegal",
    "knows",
)
"""The keys of ``[expect]``, in the order of ``scenario-format.md`` (and of the checks)."""


@dataclass(frozen=True, slots=True)
class Expect:
    """The ``[expect]`` table: ``None`` for a key that was not given."""

    error: str | None = None
    out: frozenset[int] | None = None
    hands: Mapping[int, tuple[Card, ...]] | None = None
    discards: Mapping[int, tuple[Card, ...]] | None = None
    deck: tuple[Card, ...] | None = None
    set_aside: SetAside | None = None
    face_up: tuple[Card, ...] | None = None
    protected: frozenset[int] | None = None
    turn: int | None = None
    round_over: bool | None = None
    winners: frozenset[int] | None = None
    tokens: Mapping[int, int] | None = None
    game_over: bool | None = None
    game_winners: frozenset[int] | None = None
    next_starter: frozenset[int] | None = None
    round: int | None = None
    legal_plays: frozenset[Card] | None = None
    targets: Mapping[Card, frozenset[int]] | None = None
    guesses: Mapping[Card, frozenset[Guess]] | None = None
    legal: tuple[Move, ...] | None = None
    illegal: tuple[Move, ...] | None = None
    knows: Mapping[int, Mapping[int, Card | None]] | None = None

    def given(self) -> tuple[str, ...]:
        """The keys that were given, in :data:`EXPECT_KEYS` order."""
        return tuple(k for k in EXPECT_KEYS if getattr(self, k) is not None)


@dataclass(frozen=True, slots=True)
class RulesetSpec:
    """One preset with the scenario's (and variant's) option overrides, as written."""

    preset: str
    options: Mapping[str, object]

    @property
    def label(self) -> str:
        """``classic`` or ``classic tie_break=none``: how result lines name the ruleset."""
        opts = " ".join(f"{k}={_show(v)}" for k, v in sorted(self.options.items()))
        return f"{self.preset} {opts}" if opts else self.preset


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True, slots=True)
class Variant:
    """One ``[[variant]]`` with its expectations already layered on the base ones."""

    index: int
    rulesets: tuple[RulesetSpec, ...]
    expect: Expect


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole scenario file."""

    path: Path
    title: str
    source: str | None
    rulesets: tuple[RulesetSpec, ...]
    position: PositionSpec
    moves: tuple[Move, ...]
    expect: Expect
    variants: tuple[Variant, ...] = ()


Outcome = Literal["PASS", "FAIL"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict of one scenario under one ruleset (of the base scenario or a variant)."""

    path: Path
    title: str
    ruleset: str
    """The ruleset's label (preset and option overrides)."""
    variant: int | None
    """``None`` for the base scenario, else the variant's index (from 1)."""
    outcome: Outcome
    differences: tuple[str, ...] = ()
    """For a FAIL: what differed, each as ``key: expected X, got Y``."""

    @property
    def passed(self) -> bool:
        return self.outcome == "PASS"

    def line(self) -> str:
        """``PASS <file> [<ruleset>] <title>`` or ``FAIL ... : expected ..., got ...``."""
        where = self.ruleset if self.variant is None else f"{self.ruleset} / variant {self.variant}"
        title = " ".join(self.title.split())  # one line per result, whatever the title holds
        head = f"{self.outcome} {self.path} [{where}] {title}"
        if self.passed:
            return head
        return f"{head}: " + "; ".join(self.differences)


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The results of checking some scenario files, and the files that could not be read."""

    results: tuple[CheckResult, ...]
    errors: tuple[ScenarioError, ...] = ()
    """Malformed files (each message names the file, the key and what was expected)."""

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failed(self) -> int:
        return sum(not r.passed for r in self.results)

    @property
    def ok(self) -> bool:
        """Every file was well formed and every check held."""
        return not self.errors and self.failed == 0

    @property
    def exit_code(self) -> int:
        """0: every check holds; 1: some check failed; 2: malformed input."""
        if self.errors:
            return 2
        return 1 if self.failed else 0

    def lines(self) -> tuple[str, ...]:
        """One line per result, then ``N passed, M failed``."""
        return (*(r.line() for r in self.results), f"{self.passed} passed, {self.failed} failed")
