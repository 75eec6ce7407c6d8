"""Rendering for the command line: rules, presets and their differences as plain data and as
rich tables, and a compact one-line description of a game state.

Everything here is pure (no printing): the ``*_data`` functions return JSON-ready values and
the ``*_table`` functions return :class:`rich.table.Table` objects, which the command line
prints to a console that knows whether it writes to a terminal (colours) or a pipe (none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table

from loveformal.cards import Card
from loveformal.rulebook import load_preset, option_specs, preset_names
from loveformal.ruleset import Deck, OptionSpec, OptionValue, Ruleset
from loveformal.seats import seat_name
from loveformal.state import State

__all__ = [
    "NOT_APPLICABLE",
    "applicable",
    "cards_table",
    "deck_label",
    "describe_state",
    "diff_data",
    "diff_tables",
    "options_table",
    "player_range",
    "presets_data",
    "presets_table",
    "ruleset_data",
    "ruleset_heading",
    "tokens_text",
    "value_json",
    "value_text",
]

NOT_APPLICABLE = "—"
"""Shown for an option that cannot arise with a ruleset's decks (as in ``rules.md`` §8)."""

JsonDict = dict[str, Any]


# ----------------------------------------------------------------------------------------------
# Values as text and as JSON


def player_range(low: int, high: int) -> str:
    """``2–4`` (or ``2`` when both ends are equal)."""
    return str(low) if low == high else f"{low}–{high}"


def tokens_text(pairs: Sequence[tuple[int, int]]) -> str:
    """``((2, 7), (3, 5), (5, 4), (6, 4))`` -> ``"2:7 3:5 5–6:4"`` (runs of equal values joined)."""
    parts: list[str] = []
    runs: list[list[tuple[int, int]]] = []
    for n, t in sorted(pairs):
        if runs and runs[-1][-1][1] == t and runs[-1][-1][0] == n - 1:
            runs[-1].append((n, t))
        else:
            runs.append([(n, t)])
    for run in runs:
        parts.append(f"{player_range(run[0][0], run[-1][0])}:{run[0][1]}")
    return " ".join(parts)


def value_text(value: OptionValue) -> str:
    """An option value as written on a command line (``true``, ``3``, ``2:7 3:5 4:4``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return tokens_text(value)
    return str(value)


def value_json(value: OptionValue) -> object:
    """An option value for JSON: ``tokens_to_win`` as ``{"2": 7, ...}``, others unchanged."""
    if isinstance(value, tuple):
        return {str(n): t for n, t in value}
    return value


def deck_label(deck: Deck) -> str:
    """``premium-32 (5–8p)``."""
    return f"{deck.name} ({player_range(deck.min_players, deck.max_players)}p)"


# ----------------------------------------------------------------------------------------------
# Presets


def presets_data(players: int | None = None) -> list[JsonDict]:
    """Every preset (name, title, edition, players, source); with ``players``, only those
    that can be played with that many players."""
    out: list[JsonDict] = []
    for name in preset_names():
        preset = load_preset(name)
        r = preset.ruleset
        if players is not None and not r.min_players <= players <= r.max_players:
            continue
        out.append(
            {
                "name": name,
                "title": preset.title,
                "edition": r.edition.name,
                "players": [r.min_players, r.max_players],
                "source": preset.source,
            }
        )
    return out


def presets_table(rows: Sequence[JsonDict]) -> Table:
    table = _table("Presets")
    for col in ("preset", "title", "edition", "players", "source"):
        table.add_column(col, overflow="fold")
    for row in rows:
        low, high = row["players"]
        table.add_row(
            row["name"], row["title"], row["edition"], player_range(low, high), row["source"]
        )
    return table


# ----------------------------------------------------------------------------------------------
# One ruleset: its cards and options


def _decks_for(ruleset: Ruleset, players: int | None) -> tuple[Deck, ...]:
    return (ruleset.deck(players),) if players is not None else ruleset.decks


def _cards_of(decks: Sequence[Deck]) -> list[Card]:
    """The card kinds present in any of ``decks``."""
    kinds = {c for d in decks for c in d.kinds}
    return [c for c in Card if c in kinds]


def applicable(ruleset: Ruleset, option: str) -> bool:
    """Whether ``option`` can arise with the ruleset's decks (``—`` in ``rules.md`` §8 if not)."""
    return option not in load_preset(ruleset.preset).not_applicable


def ruleset_data(ruleset: Ruleset, source: str, players: int | None = None) -> JsonDict:
    """A ruleset as data: its decks, cards (value, count per deck, text, source) and options.

    With ``players``, only the deck used with that many players and its token threshold.
    ``ruleset.deck(players)`` raises :class:`ValueError` for a player count it does not cover.
    """
    decks = _decks_for(ruleset, players)
    specs = {s.card: s for s in ruleset.edition.cards}
    cards = sorted(_cards_of(decks), key=lambda c: (ruleset.value(c), c.index))
    overridden = {name for name, _ in ruleset.overrides}
    options: list[JsonDict] = []
    for spec in option_specs():
        value = ruleset.options.get(spec.name)
        if players is not None and spec.name == "tokens_to_win":
            value = ((players, ruleset.options.tokens_for(players)),)
        options.append(
            {
                "name": spec.name,
                "value": value_json(value),
                "text": value_text(value),
                "applicable": applicable(ruleset, spec.name),
                "overridden": spec.name in overridden,
                "source": ruleset.source_of(spec.name),
                "disagreements": list(spec.disagreements),
                "meaning": spec.meaning,
            }
        )
    return {
        "preset": ruleset.preset,
        "title": ruleset.title,
        "source": source,
        "edition": ruleset.edition.name,
        "edition_title": ruleset.edition.title,
        "players": [players, players] if players else [ruleset.min_players, ruleset.max_players],
        "overrides": {name: value_json(v) for name, v in ruleset.overrides},
        "decks": [
            {
                "name": d.name,
                "players": [d.min_players, d.max_players],
                "size": d.size,
                "source": d.source,
            }
            for d in decks
        ],
        "cards": [
            {
                "card": c.title,
                "value": ruleset.value(c),
                "counts": {d.name: d.count(c) for d in decks},
                "text": specs[c].text,
                "source": specs[c].source,
            }
            for c in cards
        ],
        "options": options,
    }


def ruleset_heading(data: JsonDict) -> str:
    low, high = data["players"]
    decks = ", ".join(
        f"{d['name']} ({d['size']} cards, {player_range(*d['players'])} players)"
        for d in data["decks"]
    )
    text = (
        f"{data['preset']}: {data['title']}\n"
        f"edition {data['edition']} ({data['edition_title']}); "
        f"{player_range(low, high)} players; decks: {decks}\n"
        f"source: {data['source']}"
    )
    if data["overrides"]:
        changed = ", ".join(f"{o['name']}={o['text']}" for o in data["options"] if o["overridden"])
        text += f"\noverrides: {changed}"
    return text


def cards_table(data: JsonDict) -> Table:
    table = _table("Cards")
    table.add_column("card", no_wrap=True)
    table.add_column("value", justify="right")
    decks = data["decks"]
    for d in decks:
        table.add_column(f"{d['name']} ({player_range(*d['players'])}p)", justify="right")
    table.add_column("rule", ratio=3, overflow="fold")
    table.add_column("source", ratio=1, overflow="fold")
    for c in data["cards"]:
        counts = [str(c["counts"][d["name"]]) if c["counts"][d["name"]] else "0" for d in decks]
        table.add_row(c["card"], str(c["value"]), *counts, c["text"], c["source"])
    table.add_section()
    table.add_row("total", "", *(str(d["size"]) for d in decks), "", "")
    return table


def options_table(data: JsonDict) -> Table:
    table = _table("Options")
    table.add_column("option", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_column("source", ratio=3, overflow="fold")
    table.add_column("D-row", no_wrap=True)
    for o in data["options"]:
        value = o["text"] if o["applicable"] else NOT_APPLICABLE
        if o["overridden"]:
            value += " *"
        table.add_row(o["name"], value, o["source"], ", ".join(o["disagreements"]))
    if data["overrides"]:
        table.caption = "* overridden on the command line"
    return table


# ----------------------------------------------------------------------------------------------
# Differences between two presets


@dataclass(frozen=True, slots=True)
class _Side:
    name: str
    ruleset: Ruleset


def _players_of(r: Ruleset) -> set[int]:
    return set(range(r.min_players, r.max_players + 1))


def _card_text(r: Ruleset, card: Card) -> str:
    """``"8 ×1"``, ``"1 ×5/×8"`` (count per deck), or ``—`` when no deck has the card."""
    if not any(d.count(card) for d in r.decks):
        return NOT_APPLICABLE
    counts = "/".join(f"×{d.count(card)}" for d in r.decks)
    return f"{r.value(card)} {counts}"


def diff_data(preset_a: str, preset_b: str) -> JsonDict:
    """Where two presets differ: edition, decks and players, cards (value or count), and the
    options that apply to both with different values (``tokens_to_win`` compared on the player
    counts both allow). Options that can arise under one preset only are listed apart."""
    a = _Side(preset_a, load_preset(preset_a).ruleset)
    b = _Side(preset_b, load_preset(preset_b).ruleset)
    ra, rb = a.ruleset, b.ruleset

    general: list[JsonDict] = []

    def add_general(what: str, va: str, vb: str) -> None:
        if va != vb:
            general.append({"what": what, "a": va, "b": vb})

    add_general("edition", ra.edition.name, rb.edition.name)
    add_general(
        "players",
        player_range(ra.min_players, ra.max_players),
        player_range(rb.min_players, rb.max_players),
    )
    add_general(
        "decks",
        ", ".join(f"{deck_label(d)} {d.size} cards" for d in ra.decks),
        ", ".join(f"{deck_label(d)} {d.size} cards" for d in rb.decks),
    )

    cards: list[JsonDict] = []
    for card in Card:
        ta, tb = _card_text(ra, card), _card_text(rb, card)
        if ta != tb:
            cards.append({"card": card.title, "a": ta, "b": tb})

    common = _players_of(ra) & _players_of(rb)
    options: list[JsonDict] = []
    only: list[JsonDict] = []
    for spec in option_specs():
        app_a, app_b = applicable(ra, spec.name), applicable(rb, spec.name)
        if not app_a and not app_b:
            continue
        va, vb = ra.options.get(spec.name), rb.options.get(spec.name)
        if app_a != app_b:
            side, r = (a, ra) if app_a else (b, rb)
            only.append(
                {
                    "option": spec.name,
                    "preset": side.name,
                    "value": value_json(r.options.get(spec.name)),
                    "text": value_text(r.options.get(spec.name)),
                    "source": r.source_of(spec.name),
                    **_spec_json(spec),
                }
            )
            continue
        if spec.name == "tokens_to_win":
            assert isinstance(va, tuple) and isinstance(vb, tuple)
            differs = any(dict(va)[n] != dict(vb)[n] for n in common)
        else:
            differs = va != vb
        if differs:
            options.append(
                {
                    "option": spec.name,
                    "a": {
                        "value": value_json(va),
                        "text": value_text(va),
                        "source": ra.source_of(spec.name),
                    },
                    "b": {
                        "value": value_json(vb),
                        "text": value_text(vb),
                        "source": rb.source_of(spec.name),
                    },
                    **_spec_json(spec),
                }
            )
    return {
        "a": preset_a,
        "b": preset_b,
        "general": general,
        "cards": cards,
        "options": options,
        "only_one_side": only,
        "differences": len(general) + len(cards) + len(options) + len(only),
    }


def _spec_json(spec: OptionSpec) -> JsonDict:
    return {"meaning": spec.meaning, "disagreements": list(spec.disagreements)}


def diff_tables(data: JsonDict) -> list[Table]:
    """The tables of a difference report (empty when the presets do not differ)."""
    a, b = data["a"], data["b"]
    tables: list[Table] = []
    if data["general"]:
        t = _table("Editions and decks")
        for col in ("", a, b):
            t.add_column(col, overflow="fold")
        for row in data["general"]:
            t.add_row(row["what"], row["a"], row["b"])
        tables.append(t)
    if data["cards"]:
        t = _table("Cards that differ (value ×copies per deck; — absent)")
        for col in ("card", a, b):
            t.add_column(col, no_wrap=True)
        for row in data["cards"]:
            t.add_row(row["card"], row["a"], row["b"])
        tables.append(t)
    if data["options"]:
        t = _table("Options that differ")
        t.add_column("option", no_wrap=True)
        t.add_column(a, overflow="fold")
        t.add_column(f"source ({a})", ratio=2, overflow="fold")
        t.add_column(b, overflow="fold")
        t.add_column(f"source ({b})", ratio=2, overflow="fold")
        t.add_column("meaning", ratio=2, overflow="fold")
        t.add_column("D-row", no_wrap=True)
        for row in data["options"]:
            t.add_row(
                row["option"],
                row["a"]["text"],
                row["a"]["source"],
                row["b"]["text"],
                row["b"]["source"],
                row["meaning"],
                ", ".join(row["disagreements"]),
            )
        tables.append(t)
    if data["only_one_side"]:
        t = _table("Options that arise under one preset only (its decks hold the cards they need)")
        for col in ("option", "preset", "value", "meaning", "D-row"):
            t.add_column(col, overflow="fold")
        for row in data["only_one_side"]:
            t.add_row(
                row["option"],
                row["preset"],
                row["text"],
                row["meaning"],
                ", ".join(row["disagreements"]),
            )
        tables.append(t)
    return tables


# ----------------------------------------------------------------------------------------------
# States


def _cards(cards: Sequence[Card]) -> str:
    return "[" + ", ".join(c.title for c in cards) + "]"


def describe_state(state: State) -> str:
    """A one-line description of a position: round, phase, turn, every seat, the pile."""
    parts = [
        f"{state.rules.key}, {state.players} players, round {state.round}, "
        f"phase {state.phase.value}, turn {seat_name(state.turn)}"
    ]
    if state.pending_seat is not None:
        parts.append(f"pending {seat_name(state.pending_seat)}")
    for i, s in enumerate(state.seats):
        flags = "".join(
            f" {flag}"
            for flag, on in (("out", s.out), ("protected", s.protected), ("spied", s.spied))
            if on
        )
        parts.append(
            f"{seat_name(i)} hand {_cards(s.hand)} discards {_cards(s.discards)} "
            f"tokens {s.tokens}{flags}"
        )
    pile = state.pile
    parts.append(
        f"pile top {_cards(pile.top)} unseen {_cards(pile.unseen)} bottom {_cards(pile.bottom)}"
    )
    parts.append(f"set aside {state.set_aside.title if state.set_aside else '—'}")
    if state.face_up:
        parts.append(f"face up {_cards(state.face_up)}")
    if state.sycophant is not None:
        parts.append(f"sycophant {seat_name(state.sycophant)}")
    if state.jester is not None:
        parts.append(f"jester {seat_name(state.jester[0])}→{seat_name(state.jester[1])}")
    return "; ".join(parts)


def _table(title: str) -> Table:
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_lines=False,
        min_width=len(title) + 2,
    )
