"""Rules-scenario files: parser, runner and the ``scenario check`` command."""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from loveformal.errors import MalformedInput
from loveformal.scenarios import ScenarioError, check_paths, check_scenario, parse_text
from loveformal.scenarios.cli import scenario_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "scenarios" / "example"
FILES = Path(__file__).resolve().parent / "scenario_files"
BROKEN = FILES / "broken"
runner = CliRunner()

BASE = (FILES / "valid" / "handmaid.toml").read_text()


def _check(text: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(outcome, ruleset label, differences) of each result of the scenario ``text``."""
    results = check_scenario(parse_text(text, "t.toml"))
    return [(r.outcome, r.ruleset, r.differences) for r in results]


def _scenario(moves: str, expect: str, *, position: str | None = None, head: str = "") -> str:
    pos = position or (
        'players = 3\nturn = "P1"\ndeck = ["Baron", "Guard"]\nset_aside = "Priest"\n'
        'hands = { P1 = ["Guard", "Handmaid"], P2 = ["Guard"], P3 = ["Prince"] }\n'
    )
    return (
        f'title = "t"\nrulesets = ["classic"]\n{head}\n[position]\n{pos}\n{moves}\n'
        f"[expect]\n{expect}\n"
    )


# ----------------------------------------------------------------------------- examples


def test_every_example_passes() -> None:
    report = check_paths([EXAMPLES])
    assert not report.errors
    assert report.failed == 0, "\n".join(report.lines())
    assert report.passed >= 15
    assert len(list(EXAMPLES.glob("*.toml"))) >= 6


def test_format_example_passes_under_classic_and_its_z2019_variant() -> None:
    results = check_scenario(parse_text((EXAMPLES / "showdown-king-tie.toml").read_text(), "x"))
    assert [(r.ruleset, r.variant, r.outcome) for r in results] == [
        ("classic", None, "PASS"),
        ("z2019", 1, "PASS"),
    ]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_a_changed_expectation_fails(path: Path) -> None:
    """Each example's checks can fail: expecting the match over is noticed."""
    text = path.read_text()
    data = tomllib.loads(text)
    assert data["expect"], "an example must expect something"
    broken = text.replace("[expect]\n", "[expect]\ngame_over = true\n", 1)
    if "error" in data["expect"]:
        broken = text.replace("error = ", 'error = "no such message" #', 1)
    results = check_scenario(parse_text(broken, path.name))
    assert results[0].outcome == "FAIL"


# ----------------------------------------------------------------------------- malformed

BROKEN_KEYS = {
    "bad-option-value": "options.tie_break",
    "card-not-in-deck": "position",
    "deal-wrong-type": "moves[0].deal",
    "duplicate-seat-key": "position.hands",
    "error-not-alone": "expect.error",
    "invalid-toml": "expected valid TOML",
    "knows-bad-card": "expect.knows.P1.P2",
    "missing-title": "title",
    "new-match-forbidden-key": "position.deck",
    "not-utf8": "UTF-8",
    "option-not-applicable": "options.bishop_redraw",
    "option-wrong-type": "options.guard_self_target",
    "out-but-holding": "position.hands",
    "players-too-many": "position.players",
    "set-aside-also-in-hand": "position",
    "too-many-copies": "position",
    "unknown-card": "position.deck[0]",
    "unknown-expect-key": "expect.shielded",
    "unknown-move-key": "moves[0].target_seat",
    "unknown-move-seat": "moves[0].target",
    "unknown-option": "options.tie_breaker",
    "unknown-position-key": "position.seats",
    "unknown-preset": "rulesets[1]",
    "unknown-seat": "position.hands.P4",
    "unknown-top-key": "colour",
    "variant-error-not-alone": "variant[0].expect.error",
    "variant-options-conflict": "variant[0].rulesets",
    "variant-unknown-key": "variant[0].preset",
    "wrong-hand-size": "position.hands",
    "wrong-type-guess": "moves[0].guess",
    "wrong-type-hand": "position.hands.P2",
    "wrong-type-players": "position.players",
    "wrong-type-target": "moves[0].target",
}


def test_every_broken_fixture_is_listed() -> None:
    assert sorted(p.stem for p in BROKEN.glob("*.toml")) == sorted(BROKEN_KEYS)


@pytest.mark.parametrize(("name", "key"), sorted(BROKEN_KEYS.items()))
def test_broken_fixture_exits_2_naming_file_and_key(name: str, key: str) -> None:
    path = BROKEN / f"{name}.toml"
    result = runner.invoke(scenario_app, ["check", str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert str(path) in result.output
    assert key in result.output
    assert "Traceback" not in result.output
    assert "expected" in result.output


def test_scenario_error_is_malformed_input_with_file_and_key() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_text(BASE.replace('"Baron"]', '"Barron"]'), "here.toml")
    assert isinstance(info.value, MalformedInput)
    assert info.value.file == "here.toml"
    assert info.value.key == "position.deck[0]"
    assert "unknown card 'Barron'" in str(info.value)


def test_missing_path_and_empty_folder_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(scenario_app, ["check", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2
    assert "no such file" in result.output
    result = runner.invoke(scenario_app, ["check", str(tmp_path)])
    assert result.exit_code == 2
    assert "has none" in result.output


def test_malformed_file_among_good_ones_still_exits_2(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(BASE)
    (tmp_path / "b.toml").write_text(BASE.replace("players = 3", "players = 3\nx = 1"))
    result = runner.invoke(scenario_app, ["check", str(tmp_path)])
    assert result.exit_code == 2
    assert "PASS" in result.output and "position.x" in result.output


def test_new_match_needs_a_deal_first() -> None:
    text = 'title = "t"\nrulesets = ["classic"]\n[position]\nplayers = 2\nturn = "P1"\n'
    text += 'new_match = true\n[[moves]]\nplay = "Guard"\n[expect]\n'
    with pytest.raises(ScenarioError, match=r"moves\[0\]"):
        parse_text(text)


# ----------------------------------------------------------------------------- CLI


def test_cli_prints_a_line_per_check_and_a_summary() -> None:
    result = runner.invoke(scenario_app, ["check", str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert all(line.startswith("PASS ") for line in lines[:-1])
    assert re.fullmatch(r"\d+ passed, 0 failed", lines[-1])
    assert any("[z2019 / variant 1]" in line for line in lines)


def test_cli_exit_1_on_failure(tmp_path: Path) -> None:
    f = tmp_path / "fail.toml"
    f.write_text(BASE.replace('protected = ["P1"]', 'protected = ["P2"]'))
    g = tmp_path / "pass.toml"
    g.write_text(BASE)
    result = runner.invoke(scenario_app, ["check", str(f), str(g)])
    assert result.exit_code == 1
    assert f"FAIL {f} [classic] base: protected: expected [P2], got [P1]" in result.output
    assert result.output.strip().endswith("1 passed, 1 failed")


# ----------------------------------------------------------------------------- moves


def test_illegal_move_is_a_fail_naming_the_move() -> None:
    text = _scenario('[[moves]]\nplay = "Guard"\ntarget = "P2"\nguess = "Guard"\n', "")
    [(outcome, _, diffs)] = _check(text)
    assert outcome == "FAIL"
    assert diffs[0].startswith("moves[0]: expected a legal move, got rejected:")
    assert "cannot name the Guard" in diffs[0]


def test_expected_error_on_the_last_move_passes() -> None:
    moves = '[[moves]]\nplay = "Guard"\ntarget = "P2"\nguess = "Guard"\n'
    assert _check(_scenario(moves, 'error = "cannot name"'))[0][0] == "PASS"
    assert _check(_scenario(moves, 'error = ""'))[0][0] == "PASS"
    [(outcome, _, diffs)] = _check(_scenario(moves, 'error = "other words"'))
    assert outcome == "FAIL" and "other words" in diffs[0]


def test_expected_error_on_an_earlier_move_or_none_fails() -> None:
    bad = '[[moves]]\nplay = "Guard"\ntarget = "P2"\nguess = "Guard"\n'
    good = '[[moves]]\nplay = "Handmaid"\n'
    [(outcome, _, diffs)] = _check(_scenario(bad + good, 'error = ""'))
    assert outcome == "FAIL" and diffs[0].startswith("moves[0]:")
    [(outcome, _, diffs)] = _check(_scenario(good, 'error = ""'))
    assert outcome == "FAIL" and "got accepted" in diffs[0]


@pytest.mark.parametrize(
    "move",
    [
        'play = "Guard"\ntarget = "P2"\nguess = 3',  # a number under guard_guess = name
        'play = "Guard"\ntargets = ["P2"]\nguess = "Prince"',  # targets on a one-target card
        'play = "Handmaid"\nkeep = "Guard"',  # keep without a Chancellor
        'play = "Priest"\ntarget = "P2"',  # a card not held
        'play = "Handmaid"\nby = "P2"',  # not P2's decision
        "redraw = true",  # no Bishop
        'deal = { set_aside = "Guard" }',  # a deal mid-round
    ],
)
def test_moves_of_the_wrong_shape_are_illegal_not_malformed(move: str) -> None:
    text = _scenario(f"[[moves]]\n{move}\n", 'error = ""')
    assert _check(text)[0][0] == "PASS"


def test_number_guess_under_number_rules_and_card_guess_rejected() -> None:
    moves = '[[moves]]\nplay = "Guard"\ntarget = "P3"\nguess = 5\n'
    head = 'options = { guard_guess = "number" }'
    assert _check(_scenario(moves, 'out = ["P3"]', head=head))[0][0] == "PASS"
    by_name = moves.replace("guess = 5", 'guess = "Prince"')
    assert _check(_scenario(by_name, 'error = "names a number"', head=head))[0][0] == "PASS"


def test_chancellor_keep_not_among_the_cards_is_illegal() -> None:
    pos = (
        'players = 2\nturn = "P1"\ndeck = ["Guard", "Priest", "Baron"]\nset_aside = "Spy"\n'
        'hands = { P1 = ["Chancellor", "King"], P2 = ["Prince"] }\n'
    )
    text = _scenario(
        '[[moves]]\nplay = "Chancellor"\nkeep = "Princess"\nbottom = ["King", "Guard"]\n',
        'error = "not among"',
        position=pos,
    ).replace('["classic"]', '["z2019"]')
    assert _check(text)[0][0] == "PASS"


def test_targets_are_sorted_into_seat_order() -> None:
    text = _scenario("", "").replace("[expect]\n", "[expect]\n", 1)
    scenario = parse_text(
        text.replace(
            "\n\n[expect]", '\n[[moves]]\nplay = "Guard"\ntargets = ["P3", "P2"]\n[expect]'
        )
    )
    assert scenario.moves[0].targets == (1, 2)


def test_new_match_then_deal() -> None:
    text = (
        'title = "t"\nrulesets = ["classic"]\n[position]\nplayers = 3\nturn = "P2"\n'
        "new_match = true\ntokens = { P1 = 2 }\n[[moves]]\n[moves.deal]\n"
        'set_aside = "Princess"\nhands = { P1 = "Guard", P2 = "Guard", P3 = "Guard" }\n'
        'deck = ["Guard", "Guard", "Priest", "Priest", "Baron", "Baron", "Handmaid", "Handmaid",'
        ' "Prince", "Prince", "King", "Countess"]\n'
        '[[moves]]\nplay = "Guard"\ntarget = "P3"\nguess = "Priest"\n'
        '[expect]\nround = 1\nturn = "P3"\ntokens = { P1 = 2 }\nhands = { P2 = ["Guard"] }\n'
        'discards = { P2 = ["Guard"] }\ndeck = ["Guard", "Priest", "Priest", "Baron", "Baron",'
        ' "Handmaid", "Handmaid", "Prince", "Prince", "King", "Countess"]\n'
    )
    assert _check(text) == [("PASS", "classic", ())]


# ----------------------------------------------------------------------------- variants


def test_variant_inherits_and_replaces_key_by_key() -> None:
    text = BASE + (
        '\n[[variant]]\nexpect = { turn = "P1" }\n'  # protected inherited, turn is wrong
        '\n[[variant]]\nreplace_expect = true\nexpect = { turn = "P2" }\n'  # only turn
        "\n[[variant]]\nexpect = { protected = [] }\n"  # replaced: fails
    )
    results = _check(text)
    assert [r[0] for r in results] == ["PASS", "FAIL", "PASS", "FAIL"]
    assert results[1][2] == ("turn: expected P1, got P2",)
    assert results[3][2] == ("protected: expected [], got [P1]",)


def test_variant_rulesets_and_options_layer_on_top() -> None:
    text = BASE.replace(
        'rulesets = ["classic"]', 'rulesets = ["classic"]\noptions = { tie_break = "none" }'
    ) + ('\n[[variant]]\nrulesets = ["z2019", "premium"]\noptions = { residual_tie = "nobody" }\n')
    labels = [r[1] for r in _check(text)]
    assert labels == [
        "classic tie_break=none",
        "z2019 residual_tie=nobody tie_break=none",
        "premium residual_tie=nobody tie_break=none",
    ]


def test_variant_turns_an_outcome_into_an_error() -> None:
    text = _scenario('[[moves]]\nplay = "Guard"\ntarget = "P3"\nguess = "Prince"\n', 'out = ["P3"]')
    text += '\n[[variant]]\nrulesets = ["premium"]\nreplace_expect = true\n'
    text += 'expect = { error = "names a number" }\n'
    assert [r[0] for r in _check(text)] == ["PASS", "PASS"]


# ----------------------------------------------------------------------------- expectations


def test_decision_expectations_after_the_draw() -> None:
    pos = (
        'players = 3\nturn = "P1"\ndrawn = false\ndeck = ["Countess", "Guard"]\n'
        'set_aside = "Priest"\nhands = { P1 = ["King"], P2 = ["Guard"], P3 = ["Prince"] }\n'
        'protected = ["P2"]\n'
    )
    expect = (
        'legal_plays = ["Countess"]\nturn = "P1"\n'
        'illegal = [{ play = "King", target = "P3" }]\nlegal = [{ play = "Countess" }]\n'
    )
    assert _check(_scenario("", expect, position=pos))[0][0] == "PASS"
    [(outcome, _, diffs)] = _check(_scenario("", 'targets = { King = ["P3"] }', position=pos))
    assert outcome == "FAIL" and "no legal play of the King" in diffs[0]


def test_no_effect_targets_are_empty() -> None:
    pos = (
        'players = 2\nturn = "P1"\ndeck = ["Baron"]\nset_aside = "Priest"\n'
        'hands = { P1 = ["Guard", "King"], P2 = ["Prince"] }\nprotected = ["P2"]\n'
    )
    expect = "targets = { Guard = [], King = [] }\nguesses = { Guard = [] }\n"
    assert _check(_scenario("", expect, position=pos))[0][0] == "PASS"


def test_round_end_expectations() -> None:
    pos = (
        'players = 3\nturn = "P1"\ndeck = []\nset_aside = "Priest"\n'
        'hands = { P1 = ["Guard", "Handmaid"], P2 = ["Princess"], P3 = ["Prince"] }\n'
        "tokens = { P2 = 4 }\n"
    )
    expect = (
        'round_over = true\ngame_over = true\nwinners = ["P2"]\ngame_winners = ["P2"]\n'
        "tokens = { P2 = 5 }\n"
    )
    assert _check(_scenario('[[moves]]\nplay = "Guard"\ntarget = "P3"\nguess = "King"\n', expect,
                            position=pos))[0][0] == "PASS"  # fmt: skip


# ----------------------------------------------------------------------------- fuzzing

VALID_TEXTS = [BASE, *(p.read_text() for p in sorted(EXAMPLES.glob("*.toml")))]
TOML_SCALARS = st.one_of(
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from(["P1", "P2", "P9", "Guard", "Prince", "Chancellor", "", "classic", "z2019"]),
    st.text(max_size=5),
)


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    assert isinstance(v, list)
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


def _assert_clean(text: str) -> None:
    try:
        scenario = parse_text(text, "fuzz.toml")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.toml")
        return
    for r in check_scenario(scenario):
        assert r.outcome in ("PASS", "FAIL")
        assert not any(d.startswith("engine crash") for d in r.differences), r.differences


FUZZ_EXAMPLES = int(os.environ.get("LOVEFORMAL_FUZZ_EXAMPLES", "60"))
"""Examples per fuzz test (raise it for a long local run; the default keeps the file < 30 s)."""
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_random_bytes(data: bytes) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    _assert_clean(text)


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["title", "rulesets", "position", "expect", "moves", "options", "zz"]),
        TOML_SCALARS | st.lists(TOML_SCALARS, max_size=3),
        max_size=5,
    )
)
def test_fuzz_random_toml(table: dict[str, object]) -> None:
    _assert_clean("\n".join(f"{k} = {_toml_value(v)}" for k, v in table.items()))


@FUZZ
@given(
    st.sampled_from(VALID_TEXTS),
    st.lists(
        st.tuples(st.integers(0, 10_000), st.sampled_from(['"P2"', '"P3"', '"Guard"', "3", "true",
                  '"King"', '"Countess"', "[]", '""', '"Prince"', '"P1"', "false", "0"])),
        min_size=1, max_size=3,
    ),
)  # fmt: skip
def test_fuzz_mutated_scenarios(text: str, edits: list[tuple[int, str]]) -> None:
    """Replace quoted strings, numbers and booleans of a valid scenario with other values."""
    tokens = list(re.finditer(r'"[^"\n]*"|\b\d+\b|\btrue\b|\bfalse\b|\[\]', text))
    for at, new in edits:
        m = tokens[at % len(tokens)]
        text = text[: m.start()] + new + text[m.end() :]
        tokens = list(re.finditer(r'"[^"\n]*"|\b\d+\b|\btrue\b|\bfalse\b|\[\]', text))
    _assert_clean(text)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(VALID_TEXTS), st.integers(0, 10_000), st.binary(min_size=1, max_size=3))
def test_fuzz_cli_exit_status(text: str, at: int, junk: bytes) -> None:
    data = text.encode()
    i = at % len(data)
    mutated = data[:i] + junk + data[i + 1 :]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.toml"
        path.write_bytes(mutated)
        result = runner.invoke(scenario_app, ["check", str(path)])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("marker", "card"),
    [
        ('sycophant = "P2"', "Sycophant"),
        ('jester = { P1 = "P2" }', "Jester"),
        ('spied = ["P2"]', "Spy"),
    ],
)
def test_a_marker_needs_its_card_in_the_deck(marker: str, card: str) -> None:
    """Found by fuzzing: these markers were accepted under classic (whose deck has none of
    the cards that set them) and solved; the notation refused the same position."""
    text = BASE.replace("players = 3", f"players = 3\n{marker}")
    with pytest.raises(
        ScenarioError,
        match=rf"position\.{marker.split()[0]}: .*classic deck for 3 players has no {card}",
    ):
        parse_text(text, "t.toml")
    if card != "Spy":  # the one-way guarantee: where the deck has the card, it is read
        five = (
            text.replace('rulesets = ["classic"]', 'rulesets = ["premium"]')
            .replace("players = 3", "players = 5")
            .replace('P3 = ["Prince"]', 'P3 = ["Prince"], P4 = ["Priest"], P5 = ["King"]')
        )
        assert parse_text(five, "t.toml").position.players == 5


def test_a_byte_order_mark_and_a_huge_integer_are_named() -> None:
    with pytest.raises(ScenarioError, match="starts with a byte-order mark"):
        parse_text("\ufeff" + BASE, "t.toml")
    with pytest.raises(ScenarioError, match="expected valid TOML: Exceeds the limit"):
        parse_text(BASE.replace("players = 3", "players = " + "3" * 5000), "t.toml")
    # Arrays nested 500 deep: Python's TOML reader recursed past its limit (a traceback).
    with pytest.raises(ScenarioError, match="nested too deeply to read"):
        parse_text("a = " + "[" * 500 + "]" * 500 + "\n" + BASE, "t.toml")


@pytest.mark.parametrize("name", [" P1 ", "p1", "P01"])
def test_seat_names_are_fixed(name: str) -> None:
    """The format fixes the names (P1 ... Pn); " p3 " and "P03" were read as P3."""
    with pytest.raises(ScenarioError, match=rf"position.turn: unknown seat '{name}'"):
        parse_text(BASE.replace('turn = "P1"', f'turn = "{name}"'), "t.toml")


def test_a_title_over_several_lines_keeps_one_line_per_result() -> None:
    results = check_scenario(parse_text(BASE.replace('title = "base"', 'title = "a\\nb"'), "t"))
    lines = [r.line() for r in results]
    assert len(lines) == 1 and lines[0].endswith("[classic] a b") and "\n" not in lines[0]


def test_a_top_level_key_written_under_a_table_header_is_located() -> None:
    """``expect = ...`` written after ``[[moves]]`` is TOML's ``moves[0].expect``: the
    "missing" error says where it went and why (it said only "missing")."""
    text = _scenario('[[moves]]\nplay = "Handmaid"\nexpect = "all good"\n', "").replace(
        "[expect]\n", ""
    )
    with pytest.raises(
        ScenarioError,
        match=r"expect: missing: .* \(it is written as "
        r"moves\[0\]\.expect: a key after a \[table\] or \[\[table\]\] header",
    ):
        parse_text(text, "t.toml")
    nested = (
        _scenario("", "")
        .replace("[expect]\n", "")
        .replace(
            'P3 = ["Prince"] }\n',
            'P3 = ["Prince"] }\n\n[position.discards]\nP2 = ["Priest"]\nexpect = {}\n',
        )
    )
    with pytest.raises(ScenarioError, match=r"written as position\.discards\.expect: "):
        parse_text(nested, "t.toml")
    titled = _scenario("", "", head="").replace('title = "t"\n', "") + (
        '\n[[variant]]\nrulesets = ["z2019"]\ntitle = "t"\n'
    )
    with pytest.raises(ScenarioError, match=r"title: missing: .* written as variant\[0\]\.title"):
        parse_text(titled, "t.toml")
    own = _scenario("", "").replace("[expect]\n", "") + (
        '\n[[variant]]\nrulesets = ["z2019"]\nexpect = { turn = "P1" }\n'
    )
    with pytest.raises(ScenarioError, match=r"position and expect$"):  # a variant's own
        parse_text(own, "t.toml")
    plain = _scenario('[[moves]]\nplay = "Handmaid"\n', "").replace("[expect]\n", "")
    with pytest.raises(
        ScenarioError,
        match=r"expect: missing: expected title, rulesets, "
        r"position and expect$",
    ):
        parse_text(plain, "t.toml")


def test_a_variant_whose_ruleset_cannot_hold_the_position_is_named() -> None:
    """Five players under premium, and a variant under classic (2-4 players): the error names
    the variant's rulesets, which is what to change (it named ``position``)."""
    pos = (
        'players = 5\nturn = "P2"\ndeck = ["Guard", "Priest"]\nset_aside = "Princess"\n'
        'hands = { P1 = ["Count"], P2 = ["Baron", "Prince"], P3 = ["Handmaid"], '
        'P4 = ["Guard"], P5 = ["King"] }\n'
    )
    text = _scenario("", "", position=pos).replace(
        'rulesets = ["classic"]', 'rulesets = ["premium"]'
    )
    check_scenario(parse_text(text, "t.toml"))  # the top level alone is fine
    with pytest.raises(
        ScenarioError,
        match=r"variant\[0\]\.rulesets: expected rulesets under which the position can exist; "
        r"classic: the classic ruleset is for 2–4 players, not 5",
    ):
        parse_text(text + '\n[[variant]]\nrulesets = ["classic"]\n', "t.toml")
