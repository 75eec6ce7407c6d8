"""``loveformal compare``: one position and the same moves under several rulesets, side by side.

    loveformal compare FILE_OR_POSITION [--move MOVE ...] [--presets a,b,...] [--json]

The input is a scenario file (``scenario-format.md``: its position, its top-level option
overrides and its moves are used; its expectations are not) or a position in the notation of
:mod:`loveformal.notation` (its option overrides are kept under every preset). ``--move``
moves are played after the scenario's, in the compact move text of :func:`parse_move`.

For each preset (default: all) the position is built and the moves played with the
scenario runner (:func:`loveformal.scenarios.run.apply_move`), and the outcome becomes one
column: who is out, the hands and discards, the deck, the set-aside card, winners, tokens,
and the legal moves of the seat to act. A position or move that does not fit a ruleset shows
``illegal: <reason>`` in its column. Rows whose values differ are marked, and for each
differing column the *responsible options* are found by experiment: an option is responsible
when setting it alone to the first column's value makes that column's row agree with the
first column. Each responsible option is listed with its meaning, its value under each
preset and the source of that value (``rules.md`` §3 and §8). When no single option explains
a difference, the deck (edition) or the combination of differing options is named.

Move text (``--move``)::

    Guard@P2=Priest        Guard on P2 naming the Priest (=3 names a number)
    Prince@P1              Prince on yourself (P1)
    Handmaid               a card that chooses nobody (or played with no effect)
    Baroness@P2+P3         several players (Baroness, Cardinal)
    Cardinal@P2+P3 look=P3 the Cardinal's player then looks at P3
    Chancellor keep=Guard bottom=Priest,Baron
    Bishop@P3=5 redraw=yes the Bishop hits; its target discards and redraws
    keep=Guard bottom=Priest,Baron   /   redraw=no     a pending decision on its own
    P2:Guard@P1=King       "P2:" checks that the move is P2's

Card names are case-insensitive, with ``_`` for spaces (``Dowager_Queen``).
Exit status: 0 (the table was printed, whatever the outcomes), 2 malformed input.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Draw, Guess, Play, Starter
from loveformal.actions import guess_text as _guess_text
from loveformal.cards import Card
from loveformal.engine import legal_actions
from loveformal.errors import IllegalAction, LoveformalError, MalformedInput
from loveformal.notation import card_list, option_text, parse_position, ruleset_text
from loveformal.paths import kind, notation_in_file
from loveformal.rulebook import load_preset, make_ruleset, option_spec, preset_names
from loveformal.ruleset import OPTION_NAMES, OptionValue, Ruleset
from loveformal.sampling import settle
from loveformal.scenarios.model import Move, Scenario
from loveformal.scenarios.parse import initial_state, parse_file
from loveformal.scenarios.run import apply_move
from loveformal.seats import seat_name
from loveformal.state import Phase, State
from loveformal.targets import MULTI_TARGET

__all__ = [
    "Comparison",
    "compare",
    "comparison_json",
    "comparison_text",
    "format_move",
    "load_source",
    "parse_move",
    "register",
]

EXIT_BAD_INPUT = 2


# ----------------------------------------------------------------------------- move text


def _card_name(card: Card) -> str:
    return card.title.replace(" ", "_")


def format_move(action: Action) -> str:
    """An action in the move text of :func:`parse_move` (chance outcomes as ``chance: ...``)."""
    if isinstance(action, Play):
        text = _card_name(action.card)
        if action.target is not None:
            text += f"@{seat_name(action.target)}"
        if action.targets:
            text += "@" + "+".join(seat_name(t) for t in action.targets)
        if action.guess is not None:
            text += "=" + _guess_text(action.guess).replace(" ", "_")
        if action.look is not None:
            text += f" look={seat_name(action.look)}"
        return text
    if isinstance(action, ChancellorReturn):
        bottom = ",".join(_card_name(c) for c in action.bottom) or "-"
        return f"keep={_card_name(action.keep)} bottom={bottom}"
    if isinstance(action, BishopRedraw):
        return f"redraw={'yes' if action.redraw else 'no'}"
    return str(action)


def _bad_move(key: str, text: str, message: str) -> MalformedInput:
    return MalformedInput(f"{key} {text!r}: {message}")


def _card_of(name: str, key: str, text: str) -> Card:
    try:
        return Card.parse(name)
    except KeyError:
        known = ", ".join(_card_name(c) for c in Card)
        raise _bad_move(key, text, f"unknown card {name!r} (expected one of: {known})") from None


def _seat_of(name: str, players: int, key: str, text: str) -> int:
    m = re.fullmatch(r"[Pp]([0-9]{1,2})", name)
    if m is None or not 1 <= int(m.group(1)) <= players:
        raise _bad_move(key, text, f"expected a seat P1..P{players}, got {name!r}")
    return int(m.group(1)) - 1


def _yes_no(value: str, key: str, text: str) -> bool:
    v = value.lower()
    if v in ("yes", "true"):
        return True
    if v in ("no", "false"):
        return False
    raise _bad_move(key, text, f"expected redraw=yes or redraw=no, got {value!r}")


_MOVE_PARTS = ("look", "keep", "bottom", "redraw")


def parse_move(text: str, players: int, key: str = "--move") -> Move:
    """A move written as in the module docstring, for a table of ``players`` seats.

    Raises :class:`MalformedInput` naming ``key``, the text and what was expected. Whether
    the move fits a position is decided when it is played."""
    toks = text.split()
    if not toks:
        raise _bad_move(key, text, "empty move (expected e.g. Guard@P2=Priest)")
    by: int | None = None
    first = toks[0]
    m = re.fullmatch(r"([Pp][0-9]{1,2}):(.*)", first)
    if m is not None:
        by = _seat_of(m.group(1), players, key, text)
        first = m.group(2)
        if not first:
            toks = toks[1:]
            if not toks:
                raise _bad_move(key, text, "expected a move after the seat")
            first = toks[0]
        toks = [first, *toks[1:]]
    fields: dict[str, Any] = {}
    rest = toks
    if first.partition("=")[0].partition("@")[0].lower() not in _MOVE_PARTS:
        head, _, guess = first.partition("=")
        card_name, at, targets = head.partition("@")
        card = _card_of(card_name, key, text)
        fields["play"] = card
        if at:
            seats = [_seat_of(t, players, key, text) for t in targets.split("+")]
            if card in MULTI_TARGET or len(seats) > 1:
                fields["targets"] = tuple(sorted(seats))
            else:
                fields["target"] = seats[0]
        if guess:
            g: Guess = (
                int(guess) if re.fullmatch(r"[0-9]{1,2}", guess) else _card_of(guess, key, text)
            )
            fields["guess"] = g
        rest = toks[1:]
    for tok in rest:
        name, eq, value = tok.partition("=")
        if not eq or not value:
            raise _bad_move(
                key,
                text,
                f"unexpected {tok!r} (expected look=Pk, keep=CARD, bottom=CARDS or redraw=yes|no)",
            )
        if name in fields:
            raise _bad_move(key, text, f"{name} is given twice")
        if name == "look":
            fields["look"] = _seat_of(value, players, key, text)
        elif name == "keep":
            fields["keep"] = _card_of(value, key, text)
        elif name == "bottom":
            fields["bottom"] = (
                () if value == "-" else tuple(_card_of(v, key, text) for v in value.split(","))
            )
        elif name == "redraw":
            fields["redraw"] = _yes_no(value, key, text)
        else:
            raise _bad_move(
                key, text, f"unknown part {name!r} (expected look, keep, bottom or redraw)"
            )
    return Move(key=f"{key} {text!r}", by=by, **fields)


# ----------------------------------------------------------------------------- sources


@dataclass(frozen=True, slots=True)
class Source:
    """What to compare: a position builder, option overrides kept under every preset, moves."""

    kind: str
    """``scenario`` or ``notation``."""
    text: str
    players: int
    options: dict[str, object]
    build: Callable[[Ruleset], State]
    moves: tuple[Move, ...]


def load_source(arg: str) -> Source:
    """A scenario file (if ``arg`` names a file) or a position in notation.

    Raises :class:`MalformedInput` when neither can be read."""
    if not arg.strip():  # Path("") is the current folder
        raise MalformedInput(
            "the position is empty: give a scenario file (.toml), a position in notation or a "
            "file holding one"
        )
    path = Path(arg)
    found = kind(arg)
    if found == "dir" and "|" not in arg:
        raise MalformedInput(f"{arg}: is a directory, not a scenario file or a position")
    if found == "file" and not arg.lower().endswith(".toml"):
        notation = notation_in_file(path)  # a position saved in a file
        if notation is not None:
            try:
                home = parse_position(notation)
            except MalformedInput as exc:
                raise MalformedInput(f"{arg}: {exc}") from None
            return _notation_source(notation, home)
    if found == "file" or (arg.endswith(".toml") and "|" not in arg):
        scenario: Scenario = parse_file(path)
        spec = scenario.position
        options = dict(scenario.rulesets[0].options)
        return Source(
            kind="scenario",
            text=str(path),
            players=spec.players,
            options=options,
            build=lambda rules: initial_state(spec, rules),
            moves=scenario.moves,
        )
    if "|" not in arg:
        raise MalformedInput(
            f"{arg!r} is neither a file nor a position (a position in notation has '|'-separated "
            "sections, e.g. 'classic | P1 Guard,Prince | P2 Priest | deck Baron | aside Princess "
            "| up King,Handmaid,Countess | play P1')"
        )
    return _notation_source(arg, parse_position(arg))


def _notation_source(text: str, home: State) -> Source:
    """A position in notation, ``home`` as its own preset and options read it."""
    over: dict[str, object] = {}
    for name, value in home.rules.overrides:
        if name == "tokens_to_win":
            over[name] = {home.players: home.rules.options.tokens_for(home.players)}
        else:
            over[name] = value
    return Source(
        kind="notation",
        text=text,
        players=home.players,
        options=over,
        build=lambda rules: parse_position(text, rules=rules),
        moves=(),
    )


# ----------------------------------------------------------------------------- running


@dataclass(frozen=True, slots=True)
class Column:
    """The outcome under one ruleset."""

    preset: str
    ruleset: str
    error: str | None
    state: State | None
    rows: dict[str, str]


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(seat_name(s) for s in seats) if seats else "-"


def _status(state: State) -> str:
    phase = state.phase
    who = seat_name(state.turn)
    if phase is Phase.PLAY:
        return f"{who} to play"
    if phase is Phase.TURN_DRAW:
        return f"{who} to draw"
    if phase is Phase.CHANCELLOR:
        return f"{who} to keep one card (Chancellor)"
    if phase is Phase.BISHOP_REDRAW:
        return f"{seat_name(state.pending_seat or 0)} to keep or redraw (Bishop)"
    if phase is Phase.REDRAW:
        return f"{seat_name(state.pending_seat or 0)} to draw a replacement"
    if phase is Phase.CHANCELLOR_DRAW:
        return f"{who} to draw (Chancellor)"
    if phase is Phase.ROUND_OVER:
        return "round over"
    if phase is Phase.GAME_OVER:
        return "match over"
    return str(phase.value).replace("_", " ")


def _legal_text(state: State) -> str:
    if state.phase is Phase.TURN_DRAW:
        state = settle(state, turn_draw=True)
        if state.phase is Phase.TURN_DRAW:
            return f"chance: {seat_name(state.turn)} draws from an unseen deck"
    if state.phase is Phase.GAME_OVER:
        return "-"
    if state.phase is Phase.ROUND_OVER:
        return f"chance: next round starts with {_seats(state.next_starters)}"
    actions = legal_actions(state)
    if actions and isinstance(actions[0], (Draw, Starter)):
        return "chance"
    groups: dict[str, list[str]] = {}
    for a in actions:
        if isinstance(a, Play) and a.guess is not None:
            head, _, g = format_move(a).partition("=")
            groups.setdefault(head + "=", []).append(g)
        else:
            groups.setdefault(format_move(a), [])
    return "  ".join(k + "/".join(v) for k, v in groups.items())


ROW_NAMES = (
    "result",
    "to act",
    "out",
    "hands",
    "discards",
    "protected",
    "deck",
    "set-aside",
    "face-up",
    "round winners",
    "tokens",
    "match winners",
    "next starter",
    "legal moves",
)


def _rows(state: State) -> dict[str, str]:
    seats = state.seats
    return {
        "result": "ok",
        "to act": _status(state),
        "out": _seats([i for i, s in enumerate(seats) if s.out]),
        "hands": "; ".join(f"{seat_name(i)} {card_list(s.hand)}" for i, s in enumerate(seats)),
        "discards": "; ".join(
            f"{seat_name(i)} {card_list(s.discards)}" for i, s in enumerate(seats)
        ),
        "protected": _seats([i for i, s in enumerate(seats) if s.protected]),
        "deck": card_list(state.pile.cards())
        if state.pile.known_order
        else (f"{state.pile.size} card{'' if state.pile.size == 1 else 's'}"),
        "set-aside": "-" if state.set_aside is None else _card_name(state.set_aside),
        "face-up": card_list(state.face_up),
        "round winners": _seats(state.round_winners) if state.round_over else "-",
        "tokens": ", ".join(f"{seat_name(i)} {s.tokens}" for i, s in enumerate(seats)),
        "match winners": _seats(state.game_winners),
        "next starter": _seats(state.next_starters),
        "legal moves": _legal_text(state),
    }


def _error_rows(message: str) -> dict[str, str]:
    return {name: ("illegal: " + message if name == "result" else "") for name in ROW_NAMES}


def _run(source: Source, preset: str, extra: dict[str, object], moves: Sequence[Move]) -> Column:
    try:
        rules = make_ruleset(preset, {**source.options, **extra} or None)
    except MalformedInput as exc:
        msg = f"options: {exc}"
        return Column(preset, preset, msg, None, _error_rows(msg))
    label = ruleset_text(rules)
    try:
        state = source.build(rules)
    except MalformedInput as exc:
        msg = f"position: {exc}"
        return Column(preset, label, msg, None, _error_rows(msg))
    for move in moves:
        try:
            if state.phase is Phase.TURN_DRAW and settle(state, turn_draw=True) is state:
                raise IllegalAction(
                    f"{seat_name(state.turn)} must first draw from an unseen deck: write the "
                    "deck's top cards in the position to play on"
                )
            if state.phase in _MID_EFFECT_DRAWS:
                settled = settle(state)  # from a known deck: the draws made
                if settled is state:
                    raise IllegalAction(
                        f"the {state.phase.value} step must first draw from an unseen deck: "
                        "write the deck's top cards in the position to play on"
                    )
                state = settled
            state = apply_move(state, move)
        except LoveformalError as exc:
            msg = f"{move.key}: {exc}"
            return Column(preset, label, msg, None, _error_rows(msg))
        except Exception as exc:  # an engine crash is shown, never raised
            msg = f"{move.key}: engine crash {type(exc).__name__}: {exc}"
            return Column(preset, label, msg, None, _error_rows(msg))
    return Column(preset, label, None, state, _rows(state))


_MID_EFFECT_DRAWS = frozenset({Phase.REDRAW, Phase.CHANCELLOR_DRAW})
"""A card's draws (a Prince's or Bishop's redraw, the Chancellor's two), which a position
may be written at: :func:`~loveformal.sampling.settle` makes them from a known deck."""


def _option_value(rules: Ruleset, name: str, players: int) -> OptionValue:
    if name == "tokens_to_win":
        return rules.options.tokens_for(players)
    return rules.options.get(name)


def _differing_options(a: Ruleset, b: Ruleset, players: int) -> list[str]:
    return [n for n in OPTION_NAMES if _option_value(a, n, players) != _option_value(b, n, players)]


def _plays(rules: Ruleset, players: int) -> bool:
    """Whether ``rules`` has a deck (and so option values) for ``players``."""
    try:
        rules.deck(players)
        rules.options.tokens_for(players)
    except (ValueError, KeyError):
        return False
    return True


def _deck_differs(a: Ruleset, b: Ruleset, players: int) -> bool:
    try:
        da, db = a.deck(players), b.deck(players)
    except ValueError:
        return True
    return da.counts != db.counts or any(a.value(c) != b.value(c) for c, _ in da.counts)


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    values: dict[str, str]
    differs: bool
    responsible: dict[str, list[str]] = field(default_factory=dict)
    """Per preset that differs from the first column: the options (or ``deck``, or
    ``together: a, b``) that explain the difference."""


@dataclass(frozen=True, slots=True)
class Comparison:
    source: Source
    moves: tuple[Move, ...]
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    options: tuple[str, ...]
    """Every option named as responsible somewhere, in canonical order."""
    reference: str
    """The preset the other columns are explained against."""


def _cell_key(col: Column, name: str) -> str:
    """What a row's cell is compared on: its text, except that an error message names its
    own column's preset and decks ("the classic deck ...", "(premium-16, premium-32)") and
    is compared without those names."""
    value = col.rows[name]
    if col.error is None:
        return value
    rules = load_preset(col.preset).ruleset
    for word in (col.preset, *(d.name for d in rules.decks)):  # a deck may share the name
        value = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", "<name>", value)
    return re.sub(r"<name>(?:, <name>)+", "<name>", value)


def compare(source: Source, moves: Sequence[Move], presets: Sequence[str]) -> Comparison:
    """Run ``source`` and ``moves`` under each preset and explain the differences.

    The *reference* is the first column whose position and moves fit its ruleset (else the
    first column). A row differs when its values differ among the columns that ran (the
    ``result`` row: among all columns). For each column whose value differs from the
    reference's, the responsible options are those that, set alone to the reference's value,
    make the column's value equal the reference's."""
    all_moves = (*source.moves, *moves)
    columns = tuple(_run(source, p, {}, all_moves) for p in presets)
    players = source.players
    ref = next((c for c in columns if c.error is None), columns[0])
    ref_rules = load_preset(ref.preset).ruleset
    flipped: dict[str, dict[str, Column]] = {}
    for col in columns:
        if col is ref:
            continue
        rules_b = load_preset(col.preset).ruleset
        runs: dict[str, Column] = {}
        if not (_plays(ref_rules, players) and _plays(rules_b, players)):
            flipped[col.preset] = runs  # no option explains a player count: the deck does
            continue
        for name in _differing_options(ref_rules, rules_b, players):
            if name in load_preset(col.preset).not_applicable:
                continue
            value = _option_value(ref_rules, name, players)
            raw: object = {players: value} if name == "tokens_to_win" else value
            runs[name] = _run(source, col.preset, {**{name: raw}}, all_moves)
        flipped[col.preset] = runs
    rows: list[Row] = []
    named: set[str] = set()
    for name in ROW_NAMES:
        values = {c.preset: c.rows[name] for c in columns}
        ran = [c for c in columns if name == "result" or c.error is None]
        keys = {c.preset: _cell_key(c, name) for c in ran}
        differs = len(set(keys.values())) > 1
        responsible: dict[str, list[str]] = {}
        if differs:
            want = keys[ref.preset]
            for col in ran:
                if col is ref or keys[col.preset] == want:
                    continue
                runs = flipped[col.preset]
                why = [o for o, run in runs.items() if _cell_key(run, name) == want]
                if not why:
                    rules_b = load_preset(col.preset).ruleset
                    if _deck_differs(ref_rules, rules_b, players):
                        why = ["deck"]
                    elif runs:
                        why = ["together: " + ", ".join(runs)]
                        named.update(runs)
                named.update(o for o in why if o in OPTION_NAMES)
                responsible[col.preset] = why
        rows.append(Row(name, values, differs, responsible))
    options = tuple(o for o in OPTION_NAMES if o in named)
    return Comparison(source, tuple(moves), columns, tuple(rows), options, ref.preset)


# ----------------------------------------------------------------------------- output


def _option_json(name: str, presets: Sequence[str], players: int) -> dict[str, Any]:
    spec = option_spec(name)
    values: dict[str, Any] = {}
    for p in presets:
        rules = load_preset(p).ruleset
        values[p] = {
            "value": option_text(_option_value(rules, name, players)),
            "source": rules.source_of(name),
        }
    return {
        "meaning": spec.meaning,
        "disagreements": list(spec.disagreements),
        "values": values,
    }


def comparison_json(c: Comparison) -> dict[str, Any]:
    """The comparison as a JSON-ready object."""
    from loveformal.notation import format_position

    presets = [col.preset for col in c.columns]
    return {
        "input": c.source.text,
        "kind": c.source.kind,
        "moves": [m.key for m in (*c.source.moves, *c.moves)],
        "presets": presets,
        "reference": c.reference,
        "options_kept": {k: _raw_text(v) for k, v in c.source.options.items()},
        "columns": [
            {
                "preset": col.preset,
                "ruleset": col.ruleset,
                "error": col.error,
                "position": format_position(col.state) if col.state is not None else None,
            }
            for col in c.columns
        ],
        "rows": [
            {
                "row": r.name,
                "values": r.values,
                "differs": r.differs,
                "responsible": r.responsible,
            }
            for r in c.rows
        ],
        "options": {o: _option_json(o, presets, c.source.players) for o in c.options},
    }


def comparison_table(c: Comparison) -> Table:
    table = Table(box=box.SIMPLE, show_lines=False, title=None)
    table.add_column("", no_wrap=True)
    for col in c.columns:
        table.add_column(col.preset, overflow="fold")
    for r in c.rows:
        mark = "≠ " if r.differs else "  "
        table.add_row(mark + r.name, *(r.values[col.preset] for col in c.columns))
    return table


def comparison_text(c: Comparison, width: int = 160) -> str:
    """The comparison as plain text: a header, the table, and the responsible options."""
    console = Console(width=width, markup=False, highlight=False, emoji=False, color_system=None)
    with console.capture() as cap:
        console.print(comparison_table(c))
    lines = [f"compare: {c.source.text}"]
    if c.source.options:
        kept = " ".join(f"{k}={_raw_text(v)}" for k, v in c.source.options.items())
        lines.append(f"options kept under every preset: {kept}")
    moves = [m.key for m in (*c.source.moves, *c.moves)]
    if moves:
        lines.append("moves: " + "; ".join(moves))
    lines.extend(line.rstrip() for line in cap.get().splitlines())
    presets = [col.preset for col in c.columns]
    explained = [r for r in c.rows if r.responsible]
    if explained:
        lines.append(
            f"why the rows differ (each option set alone to {c.reference}'s value makes the "
            "row agree with it):"
        )
        for r in explained:
            for p, why in r.responsible.items():
                lines.append(f"  {r.name}: {p} <- {', '.join(why) or 'not explained'}")
    if c.options:
        lines.append("options responsible:")
        for o in c.options:
            data = _option_json(o, presets, c.source.players)
            ds = ", ".join(data["disagreements"])
            lines.append(f"  {o} ({ds}): {data['meaning']}")
            for p, v in data["values"].items():
                lines.append(f"    {p}: {v['value']}  [{v['source']}]")
    differing = sum(r.differs for r in c.rows)
    lines.append(f"{differing} of {len(c.rows)} rows differ ('≠')")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- command


def _raw_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"loveformal: error: {' '.join(message.split())}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def compare_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="FILE_OR_POSITION",
            help=(
                "A scenario file (.toml), a position in notation (loveformal.notation), or a "
                "file holding one."
            ),
        ),
    ],
    move: Annotated[
        list[str] | None,
        typer.Option(
            "--move",
            "-m",
            metavar="MOVE",
            help=(
                "A move to play after the scenario's (repeatable), e.g. Guard@P2=Priest, "
                "Guard@P2=3, Prince@P1, Baroness@P2+P3, 'Cardinal@P2+P3 look=P3', "
                "'Chancellor keep=Guard bottom=Priest,Baron', 'Bishop@P2=5 redraw=yes', "
                "redraw=no, 'P2:Handmaid' (checks it is P2's move)."
            ),
        ),
    ] = None,
    presets: Annotated[
        str | None,
        typer.Option(help="Comma-separated presets to compare (default: all)."),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.")
    ] = False,
) -> None:
    """Play one position and the same moves under several presets, side by side.

    Rows that differ are marked '≠' with the options responsible (each option set alone to the
    first column's value makes the row agree) and their sources. A position or move that does
    not fit a preset shows 'illegal: <reason>' in its column. Exit 0; 2 on malformed input."""
    try:
        src = load_source(source)
        names = list(preset_names())
        if presets is not None:
            chosen = [p.strip() for p in presets.split(",")]
            if not all(chosen):
                raise MalformedInput(f"--presets: empty name in {presets!r}")
            for p in chosen:
                load_preset(p)
            if len(set(chosen)) != len(chosen):
                raise MalformedInput("--presets: a preset is listed twice")
            names = chosen
        moves = [
            parse_move(text, src.players, f"--move[{i}]") for i, text in enumerate(move or [], 1)
        ]
    except LoveformalError as exc:
        raise _fail(str(exc)) from None
    result = compare(src, moves, names)
    if json_out:
        typer.echo(json.dumps(comparison_json(result), indent=2, ensure_ascii=False))
        return
    width = int(os.environ.get("COLUMNS", "0") or 0) or 160
    typer.echo(comparison_text(result, width=max(80, width)))


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app``."""
    app.command("compare")(compare_command)
