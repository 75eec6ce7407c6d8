"""The rules as data: editions, options and presets of ``specs/`` and their loader."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import pytest

from loveformal import rulebook
from loveformal.cards import Card
from loveformal.errors import MalformedInput, SpecError
from loveformal.ruleset import OPTION_NAMES, Options, Ruleset

PRESETS = ("classic", "premium", "z2019", "z2019-classic", "bga-help", "cn-wiki")
CARD_OPTIONS = (
    "chancellor_short_deck",
    "assassin_redraw",
    "bishop_showdown",
    "bishop_redraw",
    "count_bonus",
    "count_tie",
    "baroness_targets",
    "sycophant_conflict",
    "jester_self",
    "constable_counts_held",
)
NA = None  # "—" in the table


def _tok(spec: str) -> tuple[tuple[int, int], ...]:
    """``"2:7 3:5 5-8:4"`` as sorted pairs."""
    out: dict[int, int] = {}
    for part in spec.split():
        players, tokens = part.split(":")
        lo, _, hi = players.partition("-")
        for n in range(int(lo), int(hi or lo) + 1):
            out[n] = int(tokens)
    return tuple(sorted(out.items()))


# rules.md section 8, written out independently of specs/presets.toml.
# Columns: classic, premium, z2019, z2019-classic, bga-help, cn-wiki.
TABLE: dict[str, tuple[object, ...]] = {
    "tokens_to_win": (
        _tok("2:7 3:5 4:4"),
        _tok("2:7 3:5 4:4 5-8:4"),
        _tok("2:6 3:5 4:4 5:3 6:3"),
        _tok("2:6 3:5 4:4"),
        _tok("2:6 3:5 4:4 5-8:3"),
        _tok("2:7 3:5 4:4 5:4 6:3 7-8:3"),
    ),
    "two_player_face_up": (3, 3, 3, 3, 0, 0),
    "tie_break": ("discard_sum", "discard_sum", "none", "none", "discard_sum", "none"),
    "residual_tie": ("all_win", "all_win", "all_win", "all_win", "nobody", "all_win"),
    "guard_guess": ("name", "number", "name", "name", "number", "name"),
    "guard_self_target": (False,) * 6,
    "handmaid": ("untargetable",) * 6,
    "prince_empty_deck": ("set_aside",) * 5 + ("top_removed",),
    "chancellor_short_deck": (NA, NA, "draw_available", NA, NA, NA),
    "assassin_redraw": (NA, True, NA, NA, False, True),
    "bishop_showdown": (
        NA,
        "princess_beats_bishop",
        NA,
        NA,
        "princess_beats_bishop",
        "seven_point_five",
    ),
    "bishop_redraw": (NA, "on_hit", NA, NA, "on_hit", "always"),
    "count_bonus": (NA, "per_count", NA, NA, "flat", "per_count"),
    "count_tie": (NA, "resolve_normally", NA, NA, "resolve_normally", "void_bonus"),
    "princess_always_wins": (False, False, False, False, True, False),
    "baroness_targets": (NA, "one_or_two", NA, NA, "two", "one_or_two"),
    "sycophant_conflict": (NA, "no_effect", NA, NA, "waived", "no_effect"),
    "jester_self": (NA, False, NA, NA, True, False),
    "constable_counts_held": (NA, False, NA, NA, False, False),
    "simultaneous_win": ("all_win", "first_awarded", "all_win", "all_win", "all_win", "all_win"),
}

# Official values (options.toml default) for the options that are "—" somewhere.
DEFAULTS: dict[str, object] = {
    "chancellor_short_deck": "draw_available",
    "assassin_redraw": True,
    "bishop_showdown": "princess_beats_bishop",
    "bishop_redraw": "on_hit",
    "count_bonus": "per_count",
    "count_tie": "resolve_normally",
    "baroness_targets": "one_or_two",
    "sycophant_conflict": "no_effect",
    "jester_self": False,
    "constable_counts_held": False,
}


# ----------------------------------------------------------------------------------------------
# The shipped data


def test_preset_names_in_table_order() -> None:
    assert rulebook.preset_names() == PRESETS
    assert tuple(TABLE) == OPTION_NAMES


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads(name: str) -> None:
    preset = rulebook.load_preset(name)
    assert preset.name == name
    assert preset.ruleset.preset == name
    assert preset.title and preset.source
    assert rulebook.make_ruleset(name) is preset.ruleset
    assert rulebook.make_ruleset(name, {}) == preset.ruleset
    assert rulebook.load_preset(name) is preset
    assert [n for n, _ in preset.ruleset.sources] == list(OPTION_NAMES)


@pytest.mark.parametrize(("column", "name"), list(enumerate(PRESETS)))
def test_preset_values_match_section_8(column: int, name: str) -> None:
    preset = rulebook.load_preset(name)
    options = preset.ruleset.options
    expected_na = {opt for opt, row in TABLE.items() if row[column] is NA}
    assert preset.not_applicable == expected_na
    for opt, row in TABLE.items():
        want = row[column]
        if want is NA:
            assert options.get(opt) == DEFAULTS[opt], opt
            assert "not applicable" in preset.ruleset.source_of(opt)
        else:
            assert options.get(opt) == want, (name, opt)
            assert type(options.get(opt)) is type(want), (name, opt)
            assert preset.ruleset.source_of(opt) not in ("", "override")


@pytest.mark.parametrize(
    ("name", "sizes"),
    [
        ("classic", {2: 16, 3: 16, 4: 16}),
        ("premium", {2: 16, 4: 16, 5: 32, 8: 32}),
        ("bga-help", {3: 16, 6: 32}),
        ("cn-wiki", {2: 16, 7: 32}),
        ("z2019", {2: 21, 6: 21}),
        ("z2019-classic", {2: 16, 4: 16}),
    ],
)
def test_deck_sizes(name: str, sizes: dict[int, int]) -> None:
    rules = rulebook.make_ruleset(name)
    for players, size in sizes.items():
        deck = rules.deck(players)
        assert deck.size == size
        assert len(deck.cards()) == size
        assert all(n > 0 for _, n in deck.counts)
        assert [c for c, _ in deck.counts] == sorted(
            (c for c, _ in deck.counts), key=lambda c: c.index
        )
    with pytest.raises(ValueError):
        rules.deck(rules.max_players + 1)


def test_player_ranges() -> None:
    ranges = {
        n: (rulebook.make_ruleset(n).min_players, rulebook.make_ruleset(n).max_players)
        for n in PRESETS
    }
    assert ranges == {
        "classic": (2, 4),
        "premium": (2, 8),
        "z2019": (2, 6),
        "z2019-classic": (2, 4),
        "bga-help": (2, 8),
        "cn-wiki": (2, 8),
    }


def test_classic_edition() -> None:
    ed = rulebook.load_edition("classic")
    values = {s.card: s.value for s in ed.cards}
    counts = {s.card: s.count for s in ed.cards}
    assert values == {
        Card.GUARD: 1,
        Card.PRIEST: 2,
        Card.BARON: 3,
        Card.HANDMAID: 4,
        Card.PRINCE: 5,
        Card.KING: 6,
        Card.COUNTESS: 7,
        Card.PRINCESS: 8,
    }
    assert counts[Card.GUARD] == 5 and counts[Card.KING] == 1 and counts[Card.PRIEST] == 2
    assert [d.name for d in ed.decks] == ["classic"]
    assert all(s.text and s.source for s in ed.cards)


def test_premium_edition() -> None:
    ed = rulebook.load_edition("premium")
    assert len(ed.cards) == 17
    values = {s.card.title: s.value for s in ed.cards}
    assert values == {
        "Bishop": 9,
        "Princess": 8,
        "Countess": 7,
        "Dowager Queen": 7,
        "King": 6,
        "Constable": 6,
        "Prince": 5,
        "Count": 5,
        "Handmaid": 4,
        "Sycophant": 4,
        "Baron": 3,
        "Baroness": 3,
        "Priest": 2,
        "Cardinal": 2,
        "Guard": 1,
        "Jester": 0,
        "Assassin": 0,
    }
    assert ed.spec(Card.GUARD).count == 8
    assert ed.spec(Card.COUNT).count == 2 and ed.spec(Card.BISHOP).count == 1
    small, big = ed.decks
    assert (small.name, small.min_players, small.max_players) == ("premium-16", 2, 4)
    assert (big.name, big.min_players, big.max_players) == ("premium-32", 5, 8)
    assert small.count(Card.GUARD) == 5 and small.count(Card.BISHOP) == 0
    assert set(small.kinds) == set(rulebook.load_edition("classic").decks[0].kinds)
    assert big.count(Card.GUARD) == 8 and big.count(Card.ASSASSIN) == 1
    rules = rulebook.make_ruleset("premium")
    assert rules.value(Card.BISHOP) == 9 and rules.value(Card.CHANCELLOR) == -1


def test_z2019_edition() -> None:
    ed = rulebook.load_edition("z2019")
    values = {s.card: s.value for s in ed.cards}
    assert values[Card.SPY] == 0 and values[Card.CHANCELLOR] == 6
    assert values[Card.KING] == 7 and values[Card.COUNTESS] == 8 and values[Card.PRINCESS] == 9
    full, classic = ed.decks
    assert full.count(Card.GUARD) == 6 and full.count(Card.SPY) == 2
    assert classic.count(Card.GUARD) == 5
    assert classic.count(Card.CHANCELLOR) == 0 and classic.count(Card.SPY) == 0
    assert (classic.min_players, classic.max_players) == (2, 4)


def test_edition_errors() -> None:
    with pytest.raises(SpecError, match=r"unknown edition 'clasic'.*did you mean 'classic'"):
        rulebook.load_edition("clasic")


def test_option_specs() -> None:
    specs = rulebook.option_specs()
    assert tuple(s.name for s in specs) == OPTION_NAMES
    assert rulebook.option_spec("tie_break").values == ("discard_sum", "none")
    assert rulebook.option_spec("tie_break").disagreements == ("D3",)
    assert rulebook.option_spec("tokens_to_win").values == ("map",)
    assert rulebook.option_spec("two_player_face_up").values == ("3", "0")
    assert rulebook.option_spec("jester_self").values == ("false", "true")
    assert rulebook.option_spec("chancellor_short_deck").requires_cards == (Card.CHANCELLOR,)
    assert rulebook.option_spec("assassin_redraw").requires_cards == (Card.ASSASSIN,)
    for name in CARD_OPTIONS:
        assert rulebook.option_spec(name).requires_cards, name
    for name in set(OPTION_NAMES) - set(CARD_OPTIONS):
        assert rulebook.option_spec(name).requires_cards == (), name
    for name, value in DEFAULTS.items():
        assert rulebook.option_default(name) == value
    assert all(s.meaning and s.source and s.disagreements for s in specs)


# ----------------------------------------------------------------------------------------------
# Overrides


def test_overrides_merge_and_normalise() -> None:
    rules = rulebook.make_ruleset(
        "premium",
        {
            "tokens_to_win": {"2": 6, 5: 3},
            "guard_self_target": "true",
            "two_player_face_up": "0",
            "tie_break": "none",
        },
    )
    assert rules.options.tokens_to_win == _tok("2:6 3:5 4:4 5:3 6-8:4")
    assert rules.options.tokens_for(5) == 3
    assert rules.options.guard_self_target is True
    assert rules.options.two_player_face_up == 0
    assert rules.overrides == (
        ("guard_self_target", True),
        ("tie_break", "none"),
        ("tokens_to_win", _tok("2:6 3:5 4:4 5:3 6-8:4")),
        ("two_player_face_up", 0),
    )
    assert rules.source_of("tie_break") == "override"
    assert rules.source_of("residual_tie") != "override"
    assert rules.preset == "premium"
    assert rules != rulebook.make_ruleset("premium")
    # the same overrides written differently give an equal ruleset
    same = rulebook.make_ruleset(
        "premium",
        {
            "two_player_face_up": 0,
            "tie_break": "none",
            "guard_self_target": True,
            "tokens_to_win": {2: 6, "5": 3},
        },
    )
    assert same == rules and hash(same) == hash(rules)


def test_override_single_int_and_equal_value() -> None:
    rules = rulebook.make_ruleset("z2019", {"tokens_to_win": 2})
    assert rules.options.tokens_to_win == _tok("2-6:2")
    same = rulebook.make_ruleset("classic", {"tie_break": "discard_sum"})
    assert same.overrides == (("tie_break", "discard_sum"),)
    assert same.options == rulebook.make_ruleset("classic").options
    assert same.source_of("tie_break") == "override"
    assert same != rulebook.make_ruleset("classic")


def test_override_from_command_line() -> None:
    parsed = rulebook.parse_overrides(
        ["tokens_to_win=2:6,3:4", "jester_self=true", " count_bonus = flat "]
    )
    assert parsed == {"tokens_to_win": {2: 6, 3: 4}, "jester_self": "true", "count_bonus": "flat"}
    rules = rulebook.make_ruleset("cn-wiki", parsed)
    assert isinstance(rules, Ruleset)
    assert rules.options.jester_self is True
    assert rules.options.count_bonus == "flat"
    assert rules.options.tokens_to_win[:3] == ((2, 6), (3, 4), (4, 4))
    assert rulebook.parse_overrides(["tokens_to_win=5"]) == {"tokens_to_win": 5}
    assert rulebook.parse_overrides([]) == {}


def test_options_is_frozen_data() -> None:
    options = rulebook.make_ruleset("classic").options
    assert isinstance(options, Options)
    assert options.tokens_for(2) == 7


@pytest.mark.parametrize(
    ("preset", "overrides", "fragments"),
    [
        (
            "classic",
            {"tie_brake": "none"},
            ["unknown option 'tie_brake'", "did you mean 'tie_break'"],
        ),
        ("classic", {"tie_break": "coin_flip"}, ["coin_flip", "allowed values: discard_sum, none"]),
        ("classic", {"guard_self_target": "yes"}, ["'yes'", "allowed values: false, true"]),
        ("classic", {"two_player_face_up": 2}, ["2", "allowed values: 3, 0"]),
        ("classic", {"two_player_face_up": True}, ["True", "allowed values: 3, 0"]),
        (
            "classic",
            {"chancellor_short_deck": "draw_available"},
            ["chancellor_short_deck", "Chancellor", "classic", "none"],
        ),
        ("z2019", {"assassin_redraw": False}, ["Assassin", "z2019"]),
        ("classic", {"tokens_to_win": {"5": 3}}, ["5 players", "2–4", "2, 3, 4"]),
        ("premium", {"tokens_to_win": {"9": 3}}, ["9 players", "2–8"]),
        ("classic", {"tokens_to_win": {"2": 0}}, ["must be >= 1"]),
        ("classic", {"tokens_to_win": {"x": 3}}, ["player count must be a whole number"]),
        ("classic", {"tokens_to_win": True}, ["tokens_to_win", "single integer"]),
        ("classic", {"tokens_to_win": 1.5}, ["tokens_to_win"]),
    ],
)
def test_override_errors(preset: str, overrides: dict[str, object], fragments: list[str]) -> None:
    with pytest.raises(SpecError) as info:
        rulebook.make_ruleset(preset, overrides)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_unknown_preset() -> None:
    with pytest.raises(SpecError) as info:
        rulebook.make_ruleset("premuim")
    msg = str(info.value)
    assert "unknown preset 'premuim'" in msg and "did you mean 'premium'" in msg
    assert all(p in msg for p in PRESETS)
    with pytest.raises(MalformedInput):
        rulebook.load_preset("nope")


@pytest.mark.parametrize(
    ("items", "fragment"),
    [
        (["tie_break"], "expected name=value"),
        (["=none"], "expected name=value"),
        (["tie_break="], "expected name=value"),
        (["tie_brek=none"], "did you mean 'tie_break'"),
        (["tie_break=none", "tie_break=discard_sum"], "given twice"),
        (["tokens_to_win=2:x"], "token count must be a whole number"),
        (["tokens_to_win=2-6"], "tokens_to_win must be a whole number"),
        (["tokens_to_win=2:6,3"], "expected players:tokens pairs"),
    ],
)
def test_parse_overrides_errors(items: list[str], fragment: str) -> None:
    with pytest.raises(SpecError, match=fragment):
        rulebook.parse_overrides(items)


# ----------------------------------------------------------------------------------------------
# Malformed spec files


Edit = Callable[[str, str, str], None]


@pytest.fixture
def specs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Edit]:
    """A private copy of ``specs/`` that the loader reads; yields ``edit(file, old, new)``."""
    src = Path(str(resources.files("loveformal") / "specs"))
    root = tmp_path / "specs"
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("scenarios"))
    monkeypatch.setattr(rulebook, "_spec_root", lambda: root)
    rulebook._clear_caches()

    def edit(rel: str, old: str, new: str) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        rulebook._clear_caches()

    yield edit
    monkeypatch.undo()
    rulebook._clear_caches()


def _fails(fragments: list[str], load: Callable[[], object]) -> None:
    with pytest.raises(SpecError) as info:
        load()
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


def test_copy_loads_unchanged(specs: Edit) -> None:
    for name in PRESETS:
        assert rulebook.load_preset(name).ruleset.options == (
            rulebook.load_preset(name).ruleset.options
        )
    assert rulebook.preset_names() == PRESETS


def test_edition_missing_key(specs: Edit) -> None:
    specs(
        "editions/classic.toml",
        'value = 2\ncount = 2\ntext = "Pick another player and privately',
        'count = 2\ntext = "Pick another player and privately',
    )
    _fails(
        ["editions/classic.toml", "card[1]", "missing key value"],
        lambda: rulebook.load_edition("classic"),
    )


def test_edition_unknown_key(specs: Edit) -> None:
    specs("editions/classic.toml", 'name = "Guard"\n', 'name = "Guard"\ncolour = "red"\n')
    _fails(
        ["editions/classic.toml", "card[0]", "unknown key 'colour'"],
        lambda: rulebook.load_edition("classic"),
    )
    _fails(["editions/classic.toml", "colour"], lambda: rulebook.load_preset("classic"))


def test_edition_unknown_top_level_key(specs: Edit) -> None:
    specs("editions/z2019.toml", 'name = "z2019"\n', 'name = "z2019"\nyear = 2019\n')
    _fails(["editions/z2019.toml", "unknown key 'year'"], lambda: rulebook.load_edition("z2019"))


def test_edition_unknown_card(specs: Edit) -> None:
    specs("editions/classic.toml", 'name = "Guard"', 'name = "Gaurd"')
    _fails(
        ["editions/classic.toml", "card[0].name", "unknown card 'Gaurd'", "Guard"],
        lambda: rulebook.load_edition("classic"),
    )


def test_edition_name_mismatch(specs: Edit) -> None:
    specs("editions/classic.toml", 'name = "classic"\ntitle', 'name = "klassik"\ntitle')
    _fails(
        ["editions/classic.toml", "name", "'klassik'", "'classic'"],
        lambda: rulebook.load_edition("classic"),
    )


def test_edition_duplicate_card(specs: Edit) -> None:
    specs("editions/classic.toml", 'name = "Priest"', 'name = "Guard"')
    _fails(
        ["editions/classic.toml", "Guard is listed twice"], lambda: rulebook.load_edition("classic")
    )


def test_deck_size_mismatch(specs: Edit) -> None:
    specs("editions/classic.toml", "count = 5", "count = 6")
    _fails(
        ["editions/classic.toml", "deck[0] (classic)", "add up to 17", "size says 16"],
        lambda: rulebook.load_edition("classic"),
    )


def test_deck_counts_unknown_card(specs: Edit) -> None:
    specs("editions/z2019.toml", "Spy = 0 }", "Spy = 0, Bishop = 0 }")
    _fails(
        ["editions/z2019.toml", "z2019-classic", "Bishop is not a card of this edition"],
        lambda: rulebook.load_edition("z2019"),
    )


def test_deck_bad_players(specs: Edit) -> None:
    specs("editions/classic.toml", "players = [2, 4]", "players = [4, 2]")
    _fails(
        ["editions/classic.toml", "players", "2 <= min <= max"],
        lambda: rulebook.load_edition("classic"),
    )


def test_preset_decks_overlap(specs: Edit) -> None:
    specs("editions/premium.toml", "players = [5, 8]", "players = [4, 8]")
    _fails(
        ["presets.toml", "preset.premium.decks", "overlap", "premium-16", "premium-32"],
        lambda: rulebook.load_preset("premium"),
    )


def test_preset_decks_gap(specs: Edit) -> None:
    specs("editions/premium.toml", "players = [5, 8]", "players = [6, 8]")
    _fails(["presets.toml", "no deck for 5–5 players"], lambda: rulebook.load_preset("premium"))


def test_preset_unknown_deck(specs: Edit) -> None:
    specs("presets.toml", 'decks = ["classic"]', 'decks = ["classic-16"]')
    _fails(
        ["presets.toml", "preset.classic.decks", "'classic-16'", "its decks: classic"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_unknown_edition(specs: Edit) -> None:
    specs("presets.toml", 'edition = "classic"', 'edition = "tempest"')
    _fails(
        ["presets.toml", "preset.classic.edition", "'tempest'", "classic, premium, z2019"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_missing_applicable_option(specs: Edit) -> None:
    specs(
        "presets.toml",
        'jester_self = { value = true, source = "seed 000 (guess who wins, self not excluded); '
        'D15" }\n',
        "",
    )
    _fails(
        ["presets.toml", "preset.bga-help.options", "missing applicable option jester_self"],
        lambda: rulebook.load_preset("bga-help"),
    )


def test_preset_inapplicable_option_given(specs: Edit) -> None:
    specs(
        "presets.toml",
        "[preset.classic.options]\n",
        '[preset.classic.options]\njester_self = { value = false, source = "x" }\n',
    )
    _fails(
        ["presets.toml", "preset.classic.options.jester_self", "Jester", "leave it out"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_unknown_option(specs: Edit) -> None:
    specs(
        "presets.toml",
        "[preset.classic.options]\n",
        '[preset.classic.options]\ntiebreak = { value = "none", source = "x" }\n',
    )
    _fails(
        ["presets.toml", "unknown option 'tiebreak'", "did you mean 'tie_break'"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_bad_value(specs: Edit) -> None:
    specs(
        "presets.toml",
        'tie_break = { value = "discard_sum", source = "S-AEG-A',
        'tie_break = { value = "sum", source = "S-AEG-A',
    )
    _fails(
        ["presets.toml: preset.classic.options.tie_break.value", "'sum'", "discard_sum, none"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_option_unknown_key(specs: Edit) -> None:
    specs(
        "presets.toml",
        'tie_break = { value = "discard_sum", source = "S-AEG-A',
        'tie_break = { value = "discard_sum", note = "", source = "S-AEG-A',
    )
    _fails(
        ["preset.classic.options.tie_break", "unknown key 'note'"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_tokens_incomplete(specs: Edit) -> None:
    specs("presets.toml", 'value = { "2" = 7, "3" = 5, "4" = 4 }', 'value = { "2" = 7, "3" = 5 }')
    _fails(
        ["preset.classic.options.tokens_to_win", "no entry for 4 players"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_tokens_out_of_range(specs: Edit) -> None:
    specs(
        "presets.toml",
        'value = { "2" = 7, "3" = 5, "4" = 4 }',
        'value = { "2" = 7, "3" = 5, "4" = 4, "5" = 4 }',
    )
    _fails(
        ["preset.classic.options.tokens_to_win", "5 players", "2, 3, 4"],
        lambda: rulebook.load_preset("classic"),
    )


def test_preset_unknown_key(specs: Edit) -> None:
    specs("presets.toml", 'decks = ["classic"]', 'decks = ["classic"]\nplayers = [2, 4]')
    _fails(
        ["presets.toml: preset.classic", "unknown key 'players'"],
        lambda: rulebook.load_preset("classic"),
    )


def test_options_unknown_key(specs: Edit) -> None:
    specs(
        "options.toml", 'default = "discard_sum"\n', 'default = "discard_sum"\nofficial = "yes"\n'
    )
    _fails(["options.toml: option.tie_break", "unknown key 'official'"], rulebook.option_specs)


def test_options_missing_key(specs: Edit) -> None:
    specs(
        "options.toml",
        'disagreements = ["D3"]\nrequires_cards = []\ndefault = "discard_sum"',
        'disagreements = ["D3"]\nrequires_cards = []',
    )
    _fails(["options.toml: option.tie_break", "missing key default"], rulebook.option_specs)


def test_options_bad_values(specs: Edit) -> None:
    specs("options.toml", 'values = ["discard_sum", "none"]', 'values = ["discard_sum", "coin"]')
    _fails(["option.tie_break.values", "discard_sum", "none"], rulebook.option_specs)


def test_options_unknown_card(specs: Edit) -> None:
    specs("options.toml", 'requires_cards = ["Chancellor"]', 'requires_cards = ["Chancelor"]')
    _fails(
        ["option.chancellor_short_deck.requires_cards", "unknown card 'Chancelor'"],
        rulebook.option_specs,
    )


def test_options_unknown_option(specs: Edit) -> None:
    specs("options.toml", "[option.handmaid]", "[option.handmaiden]")
    _fails(
        ["options.toml", "unknown option [option.handmaiden]", "did you mean 'handmaid'"],
        rulebook.option_specs,
    )


def test_options_bad_default(specs: Edit) -> None:
    specs("options.toml", "default = 3", "default = 2")
    _fails(["option.two_player_face_up.default", "allowed values: 3, 0"], rulebook.option_specs)


def test_invalid_toml(specs: Edit) -> None:
    specs("presets.toml", "[preset.classic]", "[preset.classic")
    _fails(["presets.toml", "not valid TOML"], rulebook.preset_names)
