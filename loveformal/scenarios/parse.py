"""Reading a rules-scenario file (``scenario-format.md``) into :mod:`~.model` values.

Everything is checked strictly: an unknown key at any level, an unknown card, seat, preset or
option, a value of the wrong TOML type, an ``expect.error`` that does not stand alone, or a
position that cannot exist raises :class:`~.model.ScenarioError` naming the file, the key path
(``moves[2].target``) and what was expected. A move whose names are valid but whose shape does
not fit the position is *not* an error here: the runner rejects it as an illegal move.
"""

from __future__ import annotations

import datetime
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from loveformal.actions import Guess
from loveformal.cards import Card
from loveformal.engine import new_match
from loveformal.errors import MalformedInput
from loveformal.paths import not_a_file
from loveformal.position import position
from loveformal.rulebook import make_ruleset, option_spec, preset_names
from loveformal.ruleset import Ruleset
from loveformal.scenarios.model import (
    EXPECT_KEYS,
    DealSpec,
    Expect,
    Move,
    PositionSpec,
    RulesetSpec,
    Scenario,
    ScenarioError,
    SetAside,
    Variant,
)
from loveformal.seats import parse_seat, seat_name
from loveformal.state import State

__all__ = ["initial_state", "parse_file", "parse_text", "ruleset_of"]

T = TypeVar("T")

TOP_KEYS = ("title", "source", "rulesets", "options", "position", "moves", "expect", "variant")
POSITION_KEYS = (
    "players",
    "turn",
    "drawn",
    "deck",
    "set_aside",
    "face_up",
    "hands",
    "discards",
    "protected",
    "out",
    "tokens",
    "sycophant",
    "jester",
    "spied",
    "new_match",
)
NEW_MATCH_KEYS = ("players", "turn", "tokens", "new_match")
MOVE_KEYS = ("play", "target", "targets", "guess", "keep", "bottom", "look", "redraw", "by", "deal")
DEAL_KEYS = ("set_aside", "face_up", "hands", "deck", "turn")
VARIANT_KEYS = ("rulesets", "options", "expect", "replace_expect")
MAX_PLAYERS = 8
"""No edition seats more players; a larger count cannot name its seats sensibly."""


def _describe(value: object) -> str:
    """A TOML value's type and a short rendering, for "got ..." in messages."""
    kinds: tuple[tuple[type, str], ...] = (
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a float"),
        (str, "a string"),
        (list, "an array"),
        (dict, "a table"),
        (datetime.datetime, "a date-time"),
        (datetime.date, "a date"),
        (datetime.time, "a time"),
    )
    kind = next((name for t, name in kinds if isinstance(value, t)), type(value).__name__)
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{kind} {text}"


class _Reader:
    """Typed accessors that raise :class:`ScenarioError` naming the file and the key path."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.players = 0

    def error(self, key: str, message: str) -> ScenarioError:
        return ScenarioError(self.file, key, message)

    def expected(self, key: str, what: str, value: object) -> ScenarioError:
        return self.error(key, f"expected {what}, got {_describe(value)}")

    # -- TOML types

    def table(self, value: object, key: str, allowed: Sequence[str] | None) -> dict[str, object]:
        if not isinstance(value, dict):
            raise self.expected(key, "a table", value)
        if allowed is not None:
            for name in value:
                if name not in allowed:
                    raise self.error(
                        _join(key, name),
                        f"unknown key {name!r} (expected one of: {', '.join(allowed)})",
                    )
        return value

    def string(self, value: object, key: str) -> str:
        if not isinstance(value, str):
            raise self.expected(key, "a string", value)
        return value

    def boolean(self, value: object, key: str) -> bool:
        if not isinstance(value, bool):
            raise self.expected(key, "a boolean (true or false)", value)
        return value

    def integer(self, value: object, key: str, minimum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.expected(key, "an integer", value)
        if minimum is not None and value < minimum:
            raise self.error(key, f"expected an integer >= {minimum}, got {value}")
        return value

    def array(self, value: object, key: str, item: Callable[[object, str], T]) -> tuple[T, ...]:
        if not isinstance(value, list):
            raise self.expected(key, "an array", value)
        return tuple(item(v, f"{key}[{i}]") for i, v in enumerate(value))

    # -- names

    def card(self, value: object, key: str) -> Card:
        name = self.string(value, key)
        try:
            return Card.parse(name)
        except KeyError:
            known = ", ".join(c.title for c in Card)
            raise self.error(key, f"unknown card {name!r} (expected one of: {known})") from None

    def set_aside(self, value: object, key: str) -> SetAside:
        if value == "":
            return ""
        if not isinstance(value, str):
            raise self.expected(key, 'a card name or ""', value)
        return self.card(value, key)

    def cards(self, value: object, key: str) -> tuple[Card, ...]:
        return self.array(value, key, self.card)

    def seat(self, value: object, key: str) -> int:
        name = self.string(value, key)
        return self.seat_name(name, key)

    def seat_name(self, name: str, key: str) -> int:
        try:
            seat = parse_seat(name, self.players)
            if name != seat_name(seat):  # the names are fixed: "P3", not " p3 " or "P03"
                raise ValueError(name)
            return seat
        except ValueError:
            raise self.error(
                key, f"unknown seat {name!r} (expected one of P1..P{self.players})"
            ) from None

    def seats(self, value: object, key: str) -> tuple[int, ...]:
        return self.array(value, key, self.seat)

    def seat_set(self, value: object, key: str) -> frozenset[int]:
        return frozenset(self.seats(value, key))

    def by_seat(self, value: object, key: str, item: Callable[[object, str], T]) -> dict[int, T]:
        """A table seat -> value (each seat once)."""
        table = self.table(value, key, None)
        out: dict[int, T] = {}
        for name, v in table.items():
            sub = _join(key, name)
            seat = self.seat_name(name, sub)
            if seat in out:
                raise self.error(sub, f"expected each seat once; {seat_name(seat)} is listed twice")
            out[seat] = item(v, sub)
        return out

    def by_card(self, value: object, key: str, item: Callable[[object, str], T]) -> dict[Card, T]:
        """A table card -> value (each card once)."""
        table = self.table(value, key, None)
        out: dict[Card, T] = {}
        for name, v in table.items():
            sub = _join(key, name)
            card = self.card(name, sub)
            if card in out:
                raise self.error(sub, f"expected each card once; {card.title} is listed twice")
            out[card] = item(v, sub)
        return out

    def guess(self, value: object, key: str) -> Guess:
        """A card name, or a number (whether it fits ``guard_guess`` is checked in play)."""
        if isinstance(value, str):
            return self.card(value, key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise self.expected(key, "a card name or an integer", value)


def _join(key: str, name: str) -> str:
    plain = name.replace("_", "").isalnum()
    part = name if plain else repr(name)
    return f"{key}.{part}" if key else part


# ----------------------------------------------------------------------------- top level


def parse_file(path: Path | str) -> Scenario:
    """Read and check the scenario file ``path``."""
    p = Path(path)
    why = not_a_file(p)
    if why is not None:  # a directory, a pipe or a device is refused, never read (or waited on)
        raise ScenarioError(p, "", why)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ScenarioError(p, "", f"cannot read the file ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            p, "", f"expected UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    return parse_text(text, p)


def parse_text(text: str, path: Path | str = "<scenario>") -> Scenario:
    """Check the scenario written in ``text`` (``path`` names it in messages)."""
    p = Path(path)
    r = _Reader(p)
    if text.startswith("\ufeff"):
        # Refused, not skipped: TOML readers (Python's among them) reject it too, and a
        # scenario file is meant to be read by any of them.
        raise r.error(
            "", "the file starts with a byte-order mark (BOM); save it as UTF-8 without one"
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise r.error("", f"expected valid TOML: {exc}") from None
    except ValueError as exc:  # an integer too long to convert (over 4,300 digits)
        raise r.error("", f"expected valid TOML: {str(exc).partition(';')[0]}") from None
    except RecursionError:  # arrays or tables nested hundreds deep: Python's reader recurses
        raise r.error("", "expected valid TOML: nested too deeply to read") from None
    r.table(data, "", TOP_KEYS)
    for need in ("title", "rulesets", "position", "expect"):
        if need not in data:
            raise r.error(
                need,
                "missing: expected title, rulesets, position and expect" + _misplaced(data, need),
            )
    title = r.string(data["title"], "title")
    source = r.string(data["source"], "source") if "source" in data else None
    presets = _presets(r, data["rulesets"], "rulesets")
    options = _options(r, data.get("options", {}), "options", presets)
    rulesets = tuple(RulesetSpec(p_, options) for p_ in presets)

    pos = _position(r, data["position"])
    moves = r.array(data.get("moves", []), "moves", lambda v, k: _move(r, v, k))
    if pos.new_match and (not moves or moves[0].deal is None):
        raise r.error(
            "moves[0]", "expected a deal: with position.new_match = true the first move deals"
        )
    expect = _expect(r, data["expect"], "expect")
    _check_error_alone(r, expect, "expect")
    for rs in rulesets:
        _check_position(r, pos, rs, "rulesets")

    variants = r.array(
        data.get("variant", []), "variant", lambda v, k: _variant(r, v, k, data, pos, expect)
    )
    return Scenario(
        path=p,
        title=title,
        source=source,
        rulesets=rulesets,
        position=pos,
        moves=moves,
        expect=expect,
        variants=tuple(v for v in variants),
    )


def _misplaced(data: dict[str, object], key: str) -> str:
    """A hint when ``key``, missing at the top, was written under a table's header (TOML puts
    every key after ``[position]``, ``[position.discards]`` or ``[[moves]]`` into that table)."""
    found = _find_key(data, key, "")
    if found is None:
        return ""
    return (
        f" (it is written as {found}: a key after a [table] or [[table]] header belongs to that "
        f"table; write it above the first header, or under its own [{key}] header)"
    )


def _find_key(table: dict[str, object], key: str, where: str) -> str | None:
    """The dotted path of the first ``key`` inside the tables below ``table`` (not a
    variant's own keys: a variant has its own ``expect``)."""
    for name, value in table.items():
        here = f"{where}.{name}" if where else name
        entries = [(here, value)] if isinstance(value, dict) else []
        if isinstance(value, list):
            entries = [(f"{here}[{i}]", v) for i, v in enumerate(value) if isinstance(v, dict)]
        for path, sub in entries:
            own = where == "" and name == "variant" and key in VARIANT_KEYS
            if key in sub and not own:
                return f"{path}.{key}"
            deeper = _find_key(sub, key, path)
            if deeper is not None:
                return deeper
    return None


def _presets(r: _Reader, value: object, key: str) -> tuple[str, ...]:
    names = r.array(value, key, r.string)
    if not names:
        raise r.error(key, "expected at least one preset name")
    known = preset_names()
    for i, name in enumerate(names):
        if name not in known:
            raise r.error(
                f"{key}[{i}]", f"unknown preset {name!r} (expected one of: {', '.join(known)})"
            )
    if len(set(names)) != len(names):
        raise r.error(key, "expected each preset once")
    return names


def _option_kind(name: str) -> str:
    values = option_spec(name).values
    if values == ("map",):
        return "map"
    if set(values) == {"true", "false"}:
        return "bool"
    if all(v.isdigit() for v in values):
        return "int"
    return "str"


def _options(
    r: _Reader, value: object, key: str, presets: Sequence[str], base: Mapping[str, object] = {}
) -> dict[str, object]:
    """Option overrides: canonical names, TOML types, values valid under every preset."""
    table = r.table(value, key, None)
    for name, raw in table.items():
        sub = _join(key, name)
        try:
            spec = option_spec(name)
        except MalformedInput as exc:
            raise r.error(sub, f"expected a canonical option name: {exc}") from None
        kind = _option_kind(name)
        ok = {
            "map": isinstance(raw, dict) or (isinstance(raw, int) and not isinstance(raw, bool)),
            "bool": isinstance(raw, bool),
            "int": isinstance(raw, int) and not isinstance(raw, bool),
            "str": isinstance(raw, str),
        }[kind]
        if not ok:
            what = {
                "map": "a table of player count -> tokens, or an integer",
                "bool": "a boolean (true or false)",
                "int": f"an integer ({' or '.join(spec.values)})",
                "str": f"a string ({' or '.join(repr(v) for v in spec.values)})",
            }[kind]
            raise r.expected(sub, what, raw)
        for preset in presets:
            try:
                make_ruleset(preset, {name: raw})
            except MalformedInput as exc:
                raise r.error(
                    sub, f"expected a value valid under preset {preset!r}: {exc}"
                ) from None
    return {**base, **table}


def ruleset_of(spec: RulesetSpec) -> Ruleset:
    """The engine ruleset of a (validated) :class:`RulesetSpec`."""
    return make_ruleset(spec.preset, dict(spec.options) or None)


# ----------------------------------------------------------------------------- position


def _position(r: _Reader, value: object) -> PositionSpec:
    key = "position"
    t = r.table(value, key, POSITION_KEYS)
    if "players" not in t:
        raise r.error(f"{key}.players", "missing: expected the number of seats")
    players = r.integer(t["players"], f"{key}.players")
    if not 2 <= players <= MAX_PLAYERS:
        raise r.error(f"{key}.players", f"expected 2..{MAX_PLAYERS} players, got {players}")
    r.players = players
    new = r.boolean(t["new_match"], f"{key}.new_match") if "new_match" in t else False
    if "turn" not in t:
        raise r.error(f"{key}.turn", "missing: expected the seat whose turn it is")
    turn = r.seat(t["turn"], f"{key}.turn")
    tokens = r.by_seat(t.get("tokens", {}), f"{key}.tokens", lambda v, k: r.integer(v, k, 0))
    if new:
        for name in t:
            if name not in NEW_MATCH_KEYS:
                raise r.error(
                    f"{key}.{name}",
                    "expected only players, turn and tokens with new_match = true",
                )
        return PositionSpec(players=players, turn=turn, tokens=tokens, new_match=True)
    for need in ("deck", "set_aside", "hands"):
        if need not in t:
            raise r.error(f"{key}.{need}", "missing: expected deck, set_aside and hands")
    set_aside = r.set_aside(t["set_aside"], f"{key}.set_aside")
    jester_table = r.by_seat(t.get("jester", {}), f"{key}.jester", r.seat)
    if len(jester_table) > 1:
        raise r.error(f"{key}.jester", "expected at most one Jester bet (the deck has one Jester)")
    jester = next(iter(jester_table.items()), None)
    return PositionSpec(
        players=players,
        turn=turn,
        drawn=r.boolean(t["drawn"], f"{key}.drawn") if "drawn" in t else True,
        deck=r.cards(t["deck"], f"{key}.deck"),
        set_aside=None if set_aside == "" else set_aside,
        face_up=r.cards(t.get("face_up", []), f"{key}.face_up"),
        hands=r.by_seat(t["hands"], f"{key}.hands", r.cards),
        discards=r.by_seat(t.get("discards", {}), f"{key}.discards", r.cards),
        protected=r.seats(t.get("protected", []), f"{key}.protected"),
        out=r.seats(t.get("out", []), f"{key}.out"),
        tokens=tokens,
        sycophant=r.seat(t["sycophant"], f"{key}.sycophant") if "sycophant" in t else None,
        jester=jester,
        spied=r.seats(t["spied"], f"{key}.spied") if "spied" in t else None,
        new_match=False,
    )


def initial_state(spec: PositionSpec, rules: Ruleset) -> State:
    """The engine state of a position under ``rules``; :class:`MalformedInput` if it cannot
    exist (``drawn = false``: the state is at the turn's draw, phase ``TURN_DRAW``)."""
    if spec.new_match:
        state = new_match(rules, spec.players, spec.turn)
        goal = rules.options.tokens_for(spec.players)
        seats = list(state.seats)
        for seat, n in spec.tokens.items():
            if n >= goal:
                raise MalformedInput(
                    f"tokens: {seat_name(seat)} has {n} tokens; the match ends at {goal}"
                )
            seats[seat] = seats[seat]._replace(tokens=n)
        return state._replace(seats=tuple(seats))
    return position(
        rules,
        players=spec.players,
        turn=spec.turn,
        hands=spec.hands,
        deck=spec.deck,
        set_aside=spec.set_aside,
        face_up=spec.face_up,
        discards=spec.discards,
        protected=spec.protected,
        out=spec.out,
        tokens=spec.tokens,
        sycophant=spec.sycophant,
        jester=spec.jester,
        spied=spec.spied,
        drawn=spec.drawn,
    )


def _check_position(r: _Reader, pos: PositionSpec, rs: RulesetSpec, where: str) -> None:
    """The position must exist under every ruleset it is checked under."""
    try:
        rules = ruleset_of(rs)
    except MalformedInput as exc:
        raise r.error(where, f"expected a valid ruleset ({rs.label}): {exc}") from None
    try:
        initial_state(pos, rules)
    except MalformedInput as exc:
        text = str(exc)
        if where != "rulesets":  # a variant's ruleset, which the top-level ones accept
            why = f"expected rulesets under which the position can exist; {rs.label}: {text}"
            raise r.error(where, why) from None
        head, sep, rest = text.partition(": ")
        if sep and head in POSITION_KEYS:
            why = f"expected a position that can exist under {rs.label}: {rest}"
            raise r.error(f"position.{head}", why) from None
        why = f"expected a position that can exist under {rs.label}: {text}"
        raise r.error("position", why) from None


# ----------------------------------------------------------------------------- moves


def _move(r: _Reader, value: object, key: str) -> Move:
    t = r.table(value, key, MOVE_KEYS)

    def opt(name: str, read: Callable[[object, str], T]) -> T | None:
        return read(t[name], f"{key}.{name}") if name in t else None

    targets = opt("targets", r.seats)
    return Move(
        key=key,
        play=opt("play", r.card),
        target=opt("target", r.seat),
        targets=tuple(sorted(targets)) if targets is not None else None,
        guess=opt("guess", r.guess),
        keep=opt("keep", r.card),
        bottom=opt("bottom", r.cards),
        look=opt("look", r.seat),
        redraw=opt("redraw", r.boolean),
        by=opt("by", r.seat),
        deal=opt("deal", lambda v, k: _deal(r, v, k)),
    )


def _deal(r: _Reader, value: object, key: str) -> DealSpec:
    t = r.table(value, key, DEAL_KEYS)
    set_aside = r.card(t["set_aside"], f"{key}.set_aside") if "set_aside" in t else None
    return DealSpec(
        set_aside=set_aside,
        hands=r.by_seat(t.get("hands", {}), f"{key}.hands", r.card),
        deck=r.cards(t.get("deck", []), f"{key}.deck"),
        face_up=r.cards(t.get("face_up", []), f"{key}.face_up"),
        turn=r.seat(t["turn"], f"{key}.turn") if "turn" in t else None,
    )


# ----------------------------------------------------------------------------- expect


def _expect(r: _Reader, value: object, key: str) -> Expect:
    t = r.table(value, key, EXPECT_KEYS)

    def opt(name: str, read: Callable[[object, str], T]) -> T | None:
        return read(t[name], f"{key}.{name}") if name in t else None

    def cards_set(v: object, k: str) -> frozenset[Card]:
        return frozenset(r.cards(v, k))

    def guess_set(v: object, k: str) -> frozenset[Guess]:
        return frozenset(r.array(v, k, r.guess))

    def moves(v: object, k: str) -> tuple[Move, ...]:
        return r.array(v, k, lambda m, mk: _move(r, m, mk))

    def knowledge(v: object, k: str) -> dict[int, Card | None]:
        def known(c: object, ck: str) -> Card | None:
            got = r.set_aside(c, ck)
            return None if got == "" else got

        return r.by_seat(v, k, known)

    return Expect(
        error=opt("error", r.string),
        out=opt("out", r.seat_set),
        hands=opt("hands", lambda v, k: r.by_seat(v, k, r.cards)),
        discards=opt("discards", lambda v, k: r.by_seat(v, k, r.cards)),
        deck=opt("deck", r.cards),
        set_aside=opt("set_aside", r.set_aside),
        face_up=opt("face_up", r.cards),
        protected=opt("protected", r.seat_set),
        turn=opt("turn", r.seat),
        round_over=opt("round_over", r.boolean),
        winners=opt("winners", r.seat_set),
        tokens=opt("tokens", lambda v, k: r.by_seat(v, k, lambda n, nk: r.integer(n, nk, 0))),
        game_over=opt("game_over", r.boolean),
        game_winners=opt("game_winners", r.seat_set),
        next_starter=opt("next_starter", r.seat_set),
        round=opt("round", lambda v, k: r.integer(v, k, 1)),
        legal_plays=opt("legal_plays", cards_set),
        targets=opt("targets", lambda v, k: r.by_card(v, k, r.seat_set)),
        guesses=opt("guesses", lambda v, k: r.by_card(v, k, guess_set)),
        legal=opt("legal", moves),
        illegal=opt("illegal", moves),
        knows=opt("knows", lambda v, k: r.by_seat(v, k, knowledge)),
    )


def _check_error_alone(r: _Reader, expect: Expect, key: str) -> None:
    if expect.error is not None:
        others = [k for k in expect.given() if k != "error"]
        if others:
            raise r.error(
                f"{key}.error",
                f"expected error to stand alone, but {', '.join(others)} also given "
                "(use replace_expect = true in a variant to turn an outcome into an error)",
            )


def _merge(base: Expect, over: Expect) -> Expect:
    """``base`` with the keys given in ``over`` replaced."""
    changes = {k: getattr(over, k) for k in over.given()}
    fields = {k: getattr(base, k) for k in EXPECT_KEYS}
    fields.update(changes)
    return Expect(**fields)


# ----------------------------------------------------------------------------- variants


def _variant(
    r: _Reader,
    value: object,
    key: str,
    data: Mapping[str, object],
    pos: PositionSpec,
    base: Expect,
) -> Variant:
    t = r.table(value, key, VARIANT_KEYS)
    index = int(key.rsplit("[", 1)[1].rstrip("]")) + 1
    if "rulesets" in t:
        presets = _presets(r, t["rulesets"], f"{key}.rulesets")
    else:
        presets = _presets(r, data["rulesets"], "rulesets")
    top = r.table(data.get("options", {}), "options", None)
    # The top-level options must hold under the variant's presets too.
    try:
        _options(r, top, "options", presets)
    except ScenarioError as exc:
        raise r.error(
            f"{key}.rulesets", f"expected presets that fit the top-level options: {exc.detail}"
        ) from None
    options = _options(r, t.get("options", {}), f"{key}.options", presets, top)
    rulesets = tuple(RulesetSpec(p, options) for p in presets)
    replace = (
        r.boolean(t["replace_expect"], f"{key}.replace_expect") if "replace_expect" in t else False
    )
    if "expect" in t:
        own = _expect(r, t["expect"], f"{key}.expect")
        expect = own if replace else _merge(base, own)
    else:
        expect = Expect() if replace else base
    _check_error_alone(r, expect, f"{key}.expect")
    for rs in rulesets:
        _check_position(r, pos, rs, f"{key}.rulesets")
    return Variant(index=index, rulesets=rulesets, expect=expect)
