"""Load the rules as data: editions, options and presets from ``specs/*.toml``.

* ``specs/editions/NAME.toml`` — an edition's card kinds (value, count, text, source) and decks.
* ``specs/options.toml`` — the canonical options of ``rules.md`` section 8: allowed values,
  meaning, the disagreement rows they come from, the cards they need, the official default.
* ``specs/presets.toml`` — the named rulesets of section 8: edition, decks and option values.

Everything is validated strictly (unknown keys are errors) and cached. Every problem raises
:class:`~loveformal.errors.SpecError` naming the file, the key, what was found and what was
expected.
"""

from __future__ import annotations

import difflib
import itertools
import re
import tomllib
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal

from loveformal.cards import Card, card_order
from loveformal.errors import SpecError
from loveformal.literals import MAX_DIGITS, echo, number_problem, whole_number
from loveformal.ruleset import (
    OPTION_NAMES,
    CardSpec,
    Deck,
    Edition,
    Options,
    OptionSpec,
    OptionValue,
    Preset,
    Ruleset,
)

__all__ = [
    "edition_names",
    "load_edition",
    "load_preset",
    "make_ruleset",
    "option_default",
    "option_spec",
    "option_specs",
    "parse_overrides",
    "preset_names",
]

OPTIONS_FILE = "options.toml"
PRESETS_FILE = "presets.toml"
OVERRIDE_SOURCE = "override"
NOT_APPLICABLE_SOURCE = "not applicable (options.toml default)"

_Kind = Literal["map", "bool", "int", "str"]


# ----------------------------------------------------------------------------------------------
# Reading files


def _spec_root() -> Traversable:
    """The ``specs`` directory (a package resource, so it works when installed)."""
    return resources.files("loveformal") / "specs"


def _clear_caches() -> None:
    """Forget everything loaded (for tests that point :func:`_spec_root` elsewhere)."""
    for f in (
        _load_toml,
        edition_names,
        load_edition,
        _options,
        _presets,
        load_preset,
        _ruleset_with,
    ):
        f.cache_clear()


@cache
def _load_toml(rel: str) -> dict[str, Any]:
    path = _spec_root().joinpath(*rel.split("/"))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SpecError(f"{rel}: cannot read spec file ({e})") from e
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as e:  # ValueError: a 4,300-digit integer
        raise SpecError(f"{rel}: not valid TOML: {str(e).partition(';')[0]}") from e


# ----------------------------------------------------------------------------------------------
# Small typed accessors for raw TOML tables


def _describe(value: object) -> str:
    kind = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)
    return f"{kind} ({echo(value)})"


def _table(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise SpecError(f"{where}: expected a table, got {_describe(value)}")
    return value


def _check_keys(
    table: Mapping[str, object],
    where: str,
    required: Sequence[str],
    optional: Sequence[str] = (),
) -> None:
    missing = [k for k in required if k not in table]
    if missing:
        raise SpecError(
            f"{where}: missing key {', '.join(missing)} "
            f"(expected keys: {', '.join([*required, *optional])})"
        )
    unknown = [k for k in table if k not in required and k not in optional]
    if unknown:
        raise SpecError(
            f"{where}: unknown key {', '.join(repr(k) for k in unknown)} "
            f"(allowed keys: {', '.join([*required, *optional])})"
        )


def _str(table: Mapping[str, object], key: str, where: str) -> str:
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        raise SpecError(f"{where}.{key}: expected a non-empty string, got {_describe(value)}")
    return value


def _int(table: Mapping[str, object], key: str, where: str, minimum: int) -> int:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SpecError(f"{where}.{key}: expected an integer >= {minimum}, got {_describe(value)}")
    return value


def _list(table: Mapping[str, object], key: str, where: str) -> list[object]:
    value = table[key]
    if not isinstance(value, list):
        raise SpecError(f"{where}.{key}: expected an array, got {_describe(value)}")
    return value


def _str_list(table: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
    out: list[str] = []
    for i, item in enumerate(_list(table, key, where)):
        if not isinstance(item, str) or not item.strip():
            raise SpecError(f"{where}.{key}[{i}]: expected a string, got {_describe(item)}")
        out.append(item)
    return tuple(out)


def _card(name: object, where: str) -> Card:
    if not isinstance(name, str):
        raise SpecError(f"{where}: expected a card name, got {_describe(name)}")
    try:
        return Card.parse(name)
    except KeyError as e:
        raise SpecError(f"{where}: {e.args[0]}") from None


def _closest(name: str, known: Iterable[str]) -> str:
    match = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {match[0]!r}?)" if match else ""


# ----------------------------------------------------------------------------------------------
# Editions


@cache
def edition_names() -> tuple[str, ...]:
    """The editions defined in ``specs/editions/``, sorted."""
    folder = _spec_root() / "editions"
    try:
        names = [p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml")]
    except OSError as e:
        raise SpecError(f"editions/: cannot list spec files ({e})") from e
    return tuple(sorted(names))


@cache
def load_edition(name: str) -> Edition:
    """The edition ``name`` (``specs/editions/NAME.toml``), validated."""
    known = edition_names()
    if name not in known:
        raise SpecError(
            f"unknown edition {name!r}{_closest(name, known)}; known editions: {', '.join(known)}"
        )
    rel = f"editions/{name}.toml"
    data = _load_toml(rel)
    _check_keys(data, rel, ("name", "title", "source", "card", "deck"))
    if _str(data, "name", rel) != name:
        raise SpecError(f"{rel}.name: is {data['name']!r}, expected the file name {name!r}")
    cards = _edition_cards(data, rel)
    decks = _edition_decks(data, rel, cards)
    return Edition(
        name=name,
        title=_str(data, "title", rel),
        source=_str(data, "source", rel),
        cards=cards,
        decks=decks,
    )


def _edition_cards(data: Mapping[str, object], rel: str) -> tuple[CardSpec, ...]:
    raw_cards = _list(data, "card", rel)
    if not raw_cards:
        raise SpecError(f"{rel}: no [[card]] entries")
    specs: dict[Card, CardSpec] = {}
    for i, raw in enumerate(raw_cards):
        where = f"{rel}: card[{i}]"
        entry = _table(raw, where)
        _check_keys(entry, where, ("name", "value", "count", "text", "source"))
        card = _card(entry["name"], f"{where}.name")
        where = f"{rel}: card[{i}] ({card.title})"
        if card in specs:
            raise SpecError(f"{where}: {card.title} is listed twice")
        specs[card] = CardSpec(
            card=card,
            value=_int(entry, "value", where, 0),
            count=_int(entry, "count", where, 1),
            text=_str(entry, "text", where),
            source=_str(entry, "source", where),
        )
    return tuple(specs[c] for c in sorted(specs, key=card_order))


def _edition_decks(
    data: Mapping[str, object], rel: str, cards: tuple[CardSpec, ...]
) -> tuple[Deck, ...]:
    raw_decks = _list(data, "deck", rel)
    if not raw_decks:
        raise SpecError(f"{rel}: no [[deck]] entries")
    base = {s.card: s.count for s in cards}
    decks: list[Deck] = []
    for i, raw in enumerate(raw_decks):
        where = f"{rel}: deck[{i}]"
        entry = _table(raw, where)
        _check_keys(entry, where, ("name", "players", "source"), ("counts", "size"))
        name = _str(entry, "name", where)
        where = f"{rel}: deck[{i}] ({name})"
        if any(d.name == name for d in decks):
            raise SpecError(f"{where}: deck name {name!r} is used twice")
        players = _list(entry, "players", where)
        if (
            len(players) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
            or not 2 <= typing.cast(int, players[0]) <= typing.cast(int, players[1])
        ):
            raise SpecError(
                f"{where}.players: expected [min, max] with 2 <= min <= max, got {players!r}"
            )
        counts = dict(base)
        if "counts" in entry:
            table = _table(entry["counts"], f"{where}.counts")
            for key in table:
                card = _card(key, f"{where}.counts")
                if card not in base:
                    raise SpecError(
                        f"{where}.counts: {card.title} is not a card of this edition "
                        f"(its cards: {', '.join(s.card.title for s in cards)})"
                    )
                counts[card] = _int(table, key, f"{where}.counts", 0)
        pairs = tuple(
            (c, n) for c, n in sorted(counts.items(), key=lambda cn: cn[0].index) if n > 0
        )
        size = sum(n for _, n in pairs)
        if size == 0:
            raise SpecError(f"{where}.counts: the deck has no cards")
        if "size" in entry:
            expected = _int(entry, "size", where, 1)
            if expected != size:
                raise SpecError(
                    f"{where}: card counts add up to {size} cards, but size says {expected}"
                )
        decks.append(
            Deck(
                name=name,
                min_players=typing.cast(int, players[0]),
                max_players=typing.cast(int, players[1]),
                counts=pairs,
                source=_str(entry, "source", where),
            )
        )
    return tuple(decks)


# ----------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True, slots=True)
class _OptionDef:
    spec: OptionSpec
    kind: _Kind
    default: OptionValue


def _field_kind(name: str) -> tuple[_Kind, tuple[str, ...] | None]:
    """The kind of the :class:`Options` field ``name`` and, for literals, its allowed values."""
    hint = typing.get_type_hints(Options)[name]
    if hint is bool:
        return "bool", ("false", "true")
    if hint is int:
        return "int", None
    if typing.get_origin(hint) is Literal:
        return "str", tuple(str(a) for a in typing.get_args(hint))
    return "map", ("map",)


@cache
def _options() -> dict[str, _OptionDef]:
    rel = OPTIONS_FILE
    data = _load_toml(rel)
    _check_keys(data, rel, ("option",))
    table = _table(data["option"], f"{rel}: option")
    for name in table:
        if name not in OPTION_NAMES:
            raise SpecError(
                f"{rel}: unknown option [option.{name}]{_closest(name, OPTION_NAMES)}; "
                f"the canonical options are: {', '.join(OPTION_NAMES)}"
            )
    missing = [n for n in OPTION_NAMES if n not in table]
    if missing:
        raise SpecError(f"{rel}: missing option table(s) {', '.join(missing)}")
    if tuple(table) != OPTION_NAMES:
        raise SpecError(
            f"{rel}: options are out of order; expected the rules.md section 8 order: "
            f"{', '.join(OPTION_NAMES)}"
        )
    out: dict[str, _OptionDef] = {}
    for name, raw in table.items():
        where = f"{rel}: option.{name}"
        entry = _table(raw, where)
        keys = ("values", "meaning", "disagreements", "requires_cards", "default", "source")
        _check_keys(entry, where, keys)
        values = _str_list(entry, "values", where)
        kind, expected = _field_kind(name)
        if kind == "int":
            if not values or not all(re.fullmatch(r"[0-9]+", v) for v in values):
                raise SpecError(f"{where}.values: expected integers written as strings")
        elif expected is not None and sorted(values) != sorted(expected):
            raise SpecError(
                f"{where}.values: got {list(values)}, expected the values {list(expected)}"
            )
        disagreements = _str_list(entry, "disagreements", where)
        for d in disagreements:
            if not re.fullmatch(r"D[0-9]+", d):
                raise SpecError(f"{where}.disagreements: {d!r} is not a row like 'D3'")
        requires = tuple(
            _card(c, f"{where}.requires_cards") for c in _list(entry, "requires_cards", where)
        )
        spec = OptionSpec(
            name=name,
            values=values,
            meaning=_str(entry, "meaning", where),
            disagreements=disagreements,
            requires_cards=requires,
            source=_str(entry, "source", where),
        )
        if kind == "map":
            default: OptionValue = _tokens(entry["default"], f"{where}.default", None, None)
        else:
            default = _scalar(spec, kind, entry["default"], f"{where}.default")
        out[name] = _OptionDef(spec, kind, default)
    return out


def option_specs() -> tuple[OptionSpec, ...]:
    """Every canonical option, in the order of ``rules.md`` section 8."""
    return tuple(d.spec for d in _options().values())


def _option(name: str) -> _OptionDef:
    defs = _options()
    if name not in defs:
        raise SpecError(
            f"unknown option {name!r}{_closest(name, defs)}; known options: {', '.join(defs)}"
        )
    return defs[name]


def option_spec(name: str) -> OptionSpec:
    """The option called ``name``; :class:`SpecError` (with a suggestion) if there is none."""
    return _option(name).spec


def option_default(name: str) -> OptionValue:
    """The official value of option ``name`` as given in ``options.toml``."""
    return _option(name).default


def _bad_value(spec: OptionSpec, raw: object, where: str) -> SpecError:
    return SpecError(
        f"{where}: bad value {raw!r} for option {spec.name} "
        f"(allowed values: {', '.join(spec.values)})"
    )


def _scalar(spec: OptionSpec, kind: _Kind, raw: object, where: str) -> OptionValue:
    """A string, boolean or integer option value, from TOML or from a command line."""
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
    elif kind == "int":
        if isinstance(raw, int) and not isinstance(raw, bool) and str(raw) in spec.values:
            return raw
        if isinstance(raw, str) and raw.strip() in spec.values:
            return int(raw.strip())
    elif isinstance(raw, str) and raw.strip() in spec.values:
        return raw.strip()
    raise _bad_value(spec, raw, where)


def _count(raw: object, what: str, where: str) -> int:
    if isinstance(raw, str):
        n = whole_number(raw.strip())
        if n is None:
            raise SpecError(f"{where}: {what} must be a whole number, {number_problem(raw)}")
        return n
    if isinstance(raw, int) and not isinstance(raw, bool):
        if abs(raw) >= 10**MAX_DIGITS:
            raise SpecError(f"{where}: {what} is too large ({echo(raw)})")
        return raw
    raise SpecError(f"{where}: {what} must be an integer, got {_describe(raw)}")


def _parse_tokens_text(text: str, where: str) -> int | dict[int, int]:
    """``"6"`` or ``"2:6,3:5"`` as written on a command line."""
    text = text.strip()
    if ":" not in text:
        return _count(text, "tokens_to_win", where)
    out: dict[int, int] = {}
    for part in text.split(","):
        players, sep, tokens = part.partition(":")
        if not sep:
            raise SpecError(
                f"{where}: bad tokens_to_win entry {echo(part)} "
                "(expected players:tokens pairs like 2:6,3:5, or a single integer)"
            )
        n = _count(players, "a player count", where)
        if n in out:
            raise SpecError(f"{where}: tokens_to_win for {n} players is given twice")
        out[n] = _count(tokens, "a token count", where)
    return out


def _tokens(
    raw: object,
    where: str,
    players: tuple[int, ...] | None,
    base: Mapping[int, int] | None,
    who: str = "",
) -> tuple[tuple[int, int], ...]:
    """A ``tokens_to_win`` value: a table (merged into ``base``) or one integer for all counts.

    ``players`` are the player counts allowed (``None``: any count >= 2). Without ``base`` the
    table must cover every allowed player count.
    """
    if isinstance(raw, str):
        raw = _parse_tokens_text(raw, where)
    entries: dict[int, int] = {}
    if isinstance(raw, int) and not isinstance(raw, bool):
        if players is None:
            raise SpecError(f"{where}: expected a table of player count -> tokens")
        entries = dict.fromkeys(players, raw)
    elif isinstance(raw, Mapping):
        for key, value in raw.items():
            if isinstance(key, str) and (key != key.strip() or key[:1] == "0"):
                raise SpecError(
                    f'{where}: player count {echo(key)}: write it as a plain number ("3")'
                )
            if isinstance(value, str):  # a table's values are TOML integers, not strings
                raise SpecError(
                    f"{where}.{key}: expected an integer token count, got a string ({echo(value)})"
                )
            n = _count(key, "a player count", where)
            if n in entries:  # "5" and "05" in one table
                raise SpecError(f"{where}: tokens_to_win for {n} players is given twice")
            entries[n] = _count(value, "a token count", where)
    else:
        raise SpecError(
            f"{where}: bad value {raw!r} for option tokens_to_win "
            "(expected a table of player count -> tokens, or a single integer)"
        )
    for n, tokens in entries.items():
        if players is None and n < 2:
            raise SpecError(f"{where}: player count {n} is below 2")
        if players is not None and n not in players:
            raise SpecError(
                f"{where}: tokens_to_win for {n} players, but {who} is for "
                f"{players[0]}–{players[-1]} players "
                f"(allowed player counts: {', '.join(map(str, players))})"
            )
        if tokens < 1:
            raise SpecError(
                f"{where}: tokens_to_win for {n} players must be >= 1, got {echo(tokens)}"
            )
        if tokens >= 10**MAX_DIGITS:
            raise SpecError(
                f"{where}: tokens_to_win for {n} players is too large ({echo(tokens)}; at most "
                f"{MAX_DIGITS} digits)"
            )
    if base is None:
        if players is not None:
            missing = [n for n in players if n not in entries]
            if missing:
                raise SpecError(
                    f"{where}: tokens_to_win has no entry for {', '.join(map(str, missing))} "
                    f"players (expected one for each of {', '.join(map(str, players))})"
                )
        merged = entries
    else:
        merged = {**base, **entries}
    return tuple(sorted(merged.items()))


def _normalise(
    name: str, raw: object, where: str, players: tuple[int, ...], base: Options | None, who: str
) -> OptionValue:
    d = _option(name)
    if d.kind == "map":
        base_map = dict(base.tokens_to_win) if base is not None else None
        return _tokens(raw, where, players, base_map, who)
    return _scalar(d.spec, d.kind, raw, where)


def parse_overrides(items: Sequence[str]) -> dict[str, object]:
    """Command-line ``name=value`` strings as a mapping for :func:`make_ruleset`.

    ``tokens_to_win`` is written ``2:6,3:5`` or as one integer; other values stay strings.
    """
    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise SpecError(
                f"bad option override {item!r}: expected name=value, e.g. tie_break=none"
            )
        option_spec(name)
        if name in out:
            raise SpecError(f"option {name} is given twice in the overrides")
        where = f"override {name}"
        out[name] = _parse_tokens_text(value, where) if name == "tokens_to_win" else value
    return out


# ----------------------------------------------------------------------------------------------
# Presets and rulesets


@dataclass(frozen=True, slots=True)
class _PresetDef:
    preset: Preset
    players: tuple[int, ...]


def _applies(spec: OptionSpec, decks: Sequence[Deck]) -> bool:
    return not spec.requires_cards or any(
        d.count(c) > 0 for d in decks for c in spec.requires_cards
    )


@cache
def _presets() -> dict[str, _PresetDef]:
    rel = PRESETS_FILE
    data = _load_toml(rel)
    _check_keys(data, rel, ("preset",))
    table = _table(data["preset"], f"{rel}: preset")
    if not table:
        raise SpecError(f"{rel}: no [preset.NAME] tables")
    return {name: _parse_preset(name, raw, rel) for name, raw in table.items()}


def _parse_preset(name: str, raw: object, rel: str) -> _PresetDef:
    where = f"{rel}: preset.{name}"
    entry = _table(raw, where)
    _check_keys(entry, where, ("title", "source", "edition", "decks", "options"))
    edition_name = _str(entry, "edition", where)
    if edition_name not in edition_names():
        raise SpecError(
            f"{where}.edition: unknown edition {edition_name!r} "
            f"(known editions: {', '.join(edition_names())})"
        )
    edition = load_edition(edition_name)
    deck_names = _str_list(entry, "decks", where)
    if not deck_names:
        raise SpecError(f"{where}.decks: expected at least one deck")
    by_name = {d.name: d for d in edition.decks}
    decks: list[Deck] = []
    for dn in deck_names:
        if dn not in by_name:
            raise SpecError(
                f"{where}.decks: the {edition_name} edition has no deck {dn!r} "
                f"(its decks: {', '.join(by_name)})"
            )
        decks.append(by_name[dn])
    decks.sort(key=lambda d: d.min_players)
    for a, b in itertools.pairwise(decks):
        if b.min_players <= a.max_players:
            raise SpecError(
                f"{where}.decks: player ranges overlap: {a.name} is for "
                f"{a.min_players}–{a.max_players}, {b.name} for {b.min_players}–{b.max_players}"
            )
        if b.min_players != a.max_players + 1:
            raise SpecError(
                f"{where}.decks: no deck for {a.max_players + 1}–{b.min_players - 1} players "
                f"(between {a.name} and {b.name})"
            )
    players = tuple(range(decks[0].min_players, decks[-1].max_players + 1))
    who = f"preset {name!r}"

    opts = _table(entry["options"], f"{where}.options")
    defs = _options()
    values: dict[str, Any] = {}
    sources: list[tuple[str, str]] = []
    not_applicable: set[str] = set()
    for oname in opts:
        if oname not in defs:
            raise SpecError(
                f"{where}.options: unknown option {oname!r}{_closest(oname, defs)}; "
                f"known options: {', '.join(defs)}"
            )
    for oname, d in defs.items():
        owhere = f"{where}.options.{oname}"
        if not _applies(d.spec, decks):
            if oname in opts:
                raise SpecError(
                    f"{owhere}: option cannot apply to this preset: it needs "
                    f"{' or '.join(c.title for c in d.spec.requires_cards)} and none of its "
                    f"decks ({', '.join(deck_names)}) has any; leave it out"
                )
            not_applicable.add(oname)
            values[oname] = d.default
            sources.append((oname, NOT_APPLICABLE_SOURCE))
            continue
        if oname not in opts:
            raise SpecError(
                f"{where}.options: missing applicable option {oname} "
                f"(allowed values: {', '.join(d.spec.values)})"
            )
        item = _table(opts[oname], owhere)
        _check_keys(item, owhere, ("value", "source"))
        values[oname] = _normalise(oname, item["value"], f"{owhere}.value", players, None, who)
        sources.append((oname, _str(item, "source", owhere)))
    ruleset = Ruleset(
        preset=name,
        title=_str(entry, "title", where),
        edition=edition,
        decks=tuple(decks),
        options=Options(**values),
        sources=tuple(sources),
    )
    preset = Preset(
        name=name,
        title=ruleset.title,
        source=_str(entry, "source", where),
        ruleset=ruleset,
        not_applicable=frozenset(not_applicable),
    )
    return _PresetDef(preset, players)


def preset_names() -> tuple[str, ...]:
    """The presets of ``specs/presets.toml``, in the order of ``rules.md`` section 8."""
    return tuple(_presets())


def _preset_def(name: str) -> _PresetDef:
    presets = _presets()
    if name not in presets:
        raise SpecError(
            f"unknown preset {name!r}{_closest(name, presets)}; known presets: {', '.join(presets)}"
        )
    return presets[name]


@cache
def load_preset(name: str) -> Preset:
    """The preset ``name``; :class:`SpecError` listing the known presets if there is none."""
    return _preset_def(name).preset


@cache
def _ruleset_with(name: str, overrides: tuple[tuple[str, OptionValue], ...]) -> Ruleset:
    base = load_preset(name).ruleset
    if not overrides:
        return base
    changed = dict(overrides)
    options = replace(base.options, **typing.cast(dict[str, Any], changed))
    sources = tuple((n, OVERRIDE_SOURCE if n in changed else src) for n, src in base.sources)
    return Ruleset(
        preset=base.preset,
        title=base.title,
        edition=base.edition,
        decks=base.decks,
        options=options,
        sources=sources,
        overrides=overrides,
    )


def make_ruleset(preset: str, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """The ruleset of ``preset`` with options overridden by name.

    Values may be given as TOML gives them or as command-line strings: booleans as ``True`` or
    ``"true"``; ``two_player_face_up`` as ``3`` or ``"3"``; ``tokens_to_win`` as a table
    (``{"2": 6}`` or ``{2: 6}``, merged into the preset's map) or one integer (every player
    count). Without overrides the preset's own (cached) ruleset is returned.
    """
    pdef = _preset_def(preset)
    if not overrides:
        return pdef.preset.ruleset
    base = pdef.preset.ruleset
    decks = base.decks
    normalised: dict[str, OptionValue] = {}
    for name, raw in overrides.items():
        if not isinstance(name, str):
            raise SpecError(f"option names must be strings, got {name!r}")
        spec = option_spec(name)
        if name in pdef.preset.not_applicable:
            raise SpecError(
                f"option {name} cannot apply to preset {preset!r}: it needs a deck with "
                f"{' or '.join(c.title for c in spec.requires_cards)}, and none of the "
                f"preset's decks ({', '.join(d.name for d in decks)}) has any"
            )
        normalised[name] = _normalise(
            name, raw, f"override {name}", pdef.players, base.options, f"preset {preset!r}"
        )
    return _ruleset_with(preset, tuple(sorted(normalised.items())))
