"""The command line: rules, diff, verify, errors and exit statuses."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from loveformal import cli
from loveformal.actions import Action, Play
from loveformal.cards import Card
from loveformal.report import tokens_text
from loveformal.sampling import random_step
from loveformal.state import Phase, State

runner = CliRunner()

TINY = ["--presets", "classic", "--players", "2", "--matches", "1", "--jobs", "1"]


def invoke(*args: str) -> Any:
    return runner.invoke(cli.app, list(args))


def invoke_json(*args: str) -> Any:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def option(data: Any, name: str) -> Any:
    return next(o for o in data["options"] if o["name"] == name)


def card(data: Any, title: str) -> Any:
    return next(c for c in data["cards"] if c["card"] == title)


# ---------------------------------------------------------------------------------- rules


def test_rules_lists_every_preset() -> None:
    result = invoke("rules")
    assert result.exit_code == 0
    for name in ("classic", "premium", "z2019", "z2019-classic", "bga-help", "cn-wiki"):
        assert name in result.stdout
    rows = invoke_json("rules")
    premium = next(r for r in rows if r["name"] == "premium")
    assert premium["edition"] == "premium" and premium["players"] == [2, 8]
    assert [r["name"] for r in invoke_json("rules", "--players", "6")] == [
        "premium",
        "z2019",
        "bga-help",
        "cn-wiki",
    ]


def test_rules_classic_table() -> None:
    result = invoke("rules", "classic")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    tie_break = next(line for line in lines if line.strip().startswith("tie_break"))
    assert "discard_sum" in tie_break and "D3" in tie_break
    princess = next(line for line in lines if line.strip().startswith("Princess"))
    assert princess.split()[:3] == ["Princess", "8", "1"]
    assassin = next(line for line in lines if line.strip().startswith("assassin_redraw"))
    assert "—" in assassin  # cannot arise with the classic deck
    assert not any(line != line.rstrip() for line in lines)  # no padding through a pipe


def test_rules_classic_json() -> None:
    data = invoke_json("rules", "classic")
    assert option(data, "tie_break")["value"] == "discard_sum"
    assert option(data, "tokens_to_win")["value"] == {"2": 7, "3": 5, "4": 4}
    assert option(data, "bishop_showdown")["applicable"] is False
    assert card(data, "Guard")["counts"] == {"classic": 5}
    assert sum(c["counts"]["classic"] for c in data["cards"]) == 16


def test_rules_premium_decks() -> None:
    data = invoke_json("rules", "premium")
    assert [(d["name"], d["size"], d["players"]) for d in data["decks"]] == [
        ("premium-16", 16, [2, 4]),
        ("premium-32", 32, [5, 8]),
    ]
    assert card(data, "Guard")["counts"] == {"premium-16": 5, "premium-32": 8}
    assert card(data, "Assassin")["counts"] == {"premium-16": 0, "premium-32": 1}
    assert option(data, "guard_guess")["value"] == "number"
    six = invoke_json("rules", "premium", "--players", "6")
    assert [d["name"] for d in six["decks"]] == ["premium-32"]
    assert option(six, "tokens_to_win")["value"] == {"6": 4}
    total = next(
        line
        for line in invoke("rules", "premium").stdout.splitlines()
        if line.strip().startswith("total")
    )
    assert total.split() == ["total", "16", "32"]


def test_rules_z2019_princess_is_nine() -> None:
    data = invoke_json("rules", "z2019")
    assert card(data, "Princess")["value"] == 9
    assert card(data, "Chancellor")["counts"] == {"z2019": 2}
    assert option(data, "chancellor_short_deck")["applicable"] is True
    assert option(data, "tie_break")["value"] == "none"


def test_rules_overrides_applied() -> None:
    data = invoke_json("rules", "classic", "--option", "tie_break=none", "-o", "tokens_to_win=2:6")
    tie = option(data, "tie_break")
    assert (tie["value"], tie["overridden"], tie["source"]) == ("none", True, "override")
    assert option(data, "tokens_to_win")["value"] == {"2": 6, "3": 5, "4": 4}
    assert option(data, "residual_tie")["overridden"] is False
    assert data["overrides"] == {"tie_break": "none", "tokens_to_win": {"2": 6, "3": 5, "4": 4}}
    text = invoke("rules", "classic", "-o", "tie_break=none").stdout
    assert "overrides: tie_break=none" in text
    assert any(line.split()[:3] == ["tie_break", "none", "*"] for line in text.splitlines())


BAD_INPUT = [
    (["rules", "clasic"], ["unknown preset 'clasic'", "did you mean 'classic'"]),
    (["rules", "classic", "-o", "tie_brake=none"], ["unknown option", "did you mean 'tie_break'"]),
    (["rules", "classic", "-o", "tie_break=maybe"], ["bad value 'maybe'", "discard_sum, none"]),
    (["rules", "classic", "-o", "tie_break"], ["expected name=value"]),
    (["rules", "classic", "-o", "assassin_redraw=false"], ["cannot apply", "Assassin"]),
    (["rules", "classic", "--players", "5"], ["--players 5", "2–4 players"]),
    (["rules", "--players", "1"], ["--players 1"]),
    (["rules", "--players", "99"], ["--players 99: no preset allows that many players"]),
    (["rules", "-o", "tie_break=none"], ["needs a PRESET"]),
    (["diff", "classic", "z2091"], ["unknown preset 'z2091'", "did you mean 'z2019'"]),
    (["verify", "--presets", "classic,premiun"], ["unknown preset 'premiun'"]),
    (["verify", "--players", "two"], ["--players", "'two'"]),
    (["verify", "--presets", "classic", "--players", "6"], ["no chosen preset allows"]),
    (["verify", "--sections", "proof"], ["unknown section 'proof'"]),
    (
        ["verify", "--quick", "--matches", "5"],
        ["--quick (", "and --matches 5 both set", "give one"],
    ),
]


@pytest.mark.parametrize(("args", "needles"), BAD_INPUT)
def test_bad_input_exits_2_with_one_line(args: list[str], needles: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("loveformal: error: ")
    for needle in needles:
        assert needle in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["rules", "classic", "--players", "x"], "'--players'"),
        (["verify", "--matches", "0"], "'--matches'"),
        (["nope"], "No such command 'nope'"),
        (["rules", "clasic"], "unknown preset 'clasic'"),
        (["diff", "classic"], "Missing argument"),
    ],
)
def test_main_turns_errors_into_one_line(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("loveformal: error: ")
    assert needle in err and "Traceback" not in err


def test_main_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("loveformal ")
    with pytest.raises(SystemExit) as exit_info:
        cli.main([])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("rules", "diff", "verify"):
        assert command in out


# ---------------------------------------------------------------------------------- diff


def test_diff_classic_z2019() -> None:
    data = invoke_json("diff", "classic", "z2019")
    assert [o["option"] for o in data["options"]] == ["tokens_to_win", "tie_break"]
    tie = data["options"][1]
    assert (tie["a"]["text"], tie["b"]["text"], tie["disagreements"]) == (
        "discard_sum",
        "none",
        ["D3"],
    )
    assert "discard" in tie["meaning"]
    assert all(o["a"]["value"] != o["b"]["value"] for o in data["options"])
    cards = {c["card"]: (c["a"], c["b"]) for c in data["cards"]}
    assert cards["Princess"] == ("8 ×1", "9 ×1")
    assert cards["Spy"] == ("—", "0 ×2")
    assert "Priest" not in cards  # same value and count
    assert [o["option"] for o in data["only_one_side"]] == ["chancellor_short_deck"]
    text = invoke("diff", "classic", "z2019").stdout
    for needle in ("tokens_to_win", "tie_break", "discard_sum", "D3", "2:6 3:5 4:4 5–6:3"):
        assert needle in text
    for equal in ("guard_guess", "residual_tie", "handmaid", "Priest"):
        assert equal not in text


def test_diff_thresholds_compared_on_common_player_counts() -> None:
    data = invoke_json("diff", "classic", "premium")
    assert [o["option"] for o in data["options"]] == ["guard_guess", "simultaneous_win"]
    assert {g["what"] for g in data["general"]} == {"edition", "players", "decks"}


def test_diff_same_preset_has_no_differences() -> None:
    result = invoke("diff", "bga-help", "bga-help")
    assert result.exit_code == 0
    assert "no differences" in result.stdout
    assert invoke_json("diff", "classic", "classic")["differences"] == 0


# ---------------------------------------------------------------------------------- verify


def test_verify_tiny_run_passes() -> None:
    result = invoke("verify", *TINY, "--sections", "matches")
    assert result.exit_code == 0, result.output
    assert "PASS" in result.stdout and "verify: PASS" in result.stdout
    assert "classic 2p: 1 matches" in result.stderr  # plain progress lines off a terminal
    data = invoke_json("verify", *TINY, "--sections", "matches")
    assert data["status"] == "PASS"
    [section] = data["sections"]
    [row] = section["rows"]
    assert (row["preset"], row["players"], row["matches"], row["status"]) == (
        "classic",
        2,
        1,
        "PASS",
    )
    assert row["rounds"] >= 4 and row["decisions"] > row["rounds"]
    assert row["checks"] > row["decisions"] and row["violations"] == 0


def test_verify_is_reproducible_from_the_seed() -> None:
    def rows(seed: str) -> Any:
        data = invoke_json("verify", *TINY, "--sections", "matches", "--seed", seed)
        return [{k: v for k, v in r.items() if k != "time"} for r in data["sections"][0]["rows"]]

    assert rows("7") == rows("7")
    assert rows("7") != rows("8")


def test_verify_fails_on_a_planted_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    from loveformal.testing import invariants

    def planted(before: State, action: Action, after: State) -> list[str]:
        priest = isinstance(action, Play) and action.card is Card.PRIEST
        return ["planted: a Priest was played"] if priest else []

    monkeypatch.setattr(invariants, "check_transition", planted)
    result = invoke("verify", *TINY, "--sections", "matches")
    assert result.exit_code == 1, result.output
    assert "verify: FAIL" in result.stdout
    failure = result.stdout[result.stdout.index("FAIL classic, 2 players") :]
    assert "planted: a Priest was played" in failure
    assert "action: play Priest" in failure
    assert "position before: classic, 2 players, round" in failure
    assert "--seed 0 --matches 1" in failure
    data = json.loads(invoke("verify", *TINY, "--sections", "matches", "--json").stdout)
    assert data["status"] == "FAIL"
    assert data["sections"][0]["rows"][0]["violations"] == 1  # the match stops there


def test_verify_reports_an_engine_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(state: State, rng: random.Random) -> tuple[State, Action]:
        if state.phase is Phase.PLAY:
            raise RuntimeError("boom")
        return random_step(state, rng)

    monkeypatch.setattr(cli, "random_step", broken)
    result = invoke("verify", *TINY, "--sections", "matches")
    assert result.exit_code == 1
    assert "the engine raised RuntimeError: boom" in result.stdout


def test_verify_sections_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[cli.VerifyConfig] = []

    def extra(cfg: cli.VerifyConfig, reporter: cli.Reporter) -> cli.SectionResult:
        calls.append(cfg)
        return cli.SectionResult("FAIL", ("what",), [("x",)], ["extra went wrong"], 1, "a note")

    monkeypatch.setitem(cli.SECTIONS, "extra", extra)
    result = invoke("verify", "--sections", "extra", "--quick", "--seed", "3")
    assert result.exit_code == 1
    assert "extra: FAIL" in result.stdout and "FAIL extra went wrong" in result.stdout
    assert calls[0].matches == cli.QUICK_MATCHES and calls[0].seed == 3
    assert list(cli.SECTIONS)[:2] == ["matches", "scenarios"]


SCENARIO = """
title = "Showdown tie after a King swap"
rulesets = ["classic"]

[position]
players = 3
turn = "P3"
deck = []
set_aside = "Guard"
hands = { P1 = ["Handmaid"], P2 = ["Prince"], P3 = ["King", "Prince"] }
discards = { P1 = ["Guard", "Guard"], P2 = ["Priest", "Baron"], P3 = ["Guard"] }

[[moves]]
play = "King"
target = "P1"

[expect]
winners = ["WINNER"]
"""


def test_verify_scenarios_section(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("loveformal.scenarios")
    monkeypatch.setattr(cli, "scenarios_folder", lambda: tmp_path)
    result = invoke("verify", "--sections", "scenarios")
    assert result.exit_code == 0 and "scenarios: SKIP" in result.stdout
    (tmp_path / "tie.toml").write_text(SCENARIO.replace("WINNER", "P2"), encoding="utf-8")
    data = invoke_json("verify", "--sections", "scenarios")
    [section] = data["sections"]
    assert section["status"] == "PASS"
    assert section["rows"] == [
        {
            "file": "tie.toml",
            "checks": 1,
            "passed": 1,
            "failed": 0,
            "status": "PASS",
        }
    ]
    (tmp_path / "tie.toml").write_text(SCENARIO.replace("WINNER", "P1"), encoding="utf-8")
    result = invoke("verify", "--sections", "scenarios")
    assert result.exit_code == 1
    assert "FAIL" in result.stdout and "winners" in result.stdout


def test_scenario_sub_app_is_mounted() -> None:
    pytest.importorskip("loveformal.scenarios.cli")
    result = invoke("scenario", "--help")
    assert result.exit_code == 0 and "check" in result.stdout


# ---------------------------------------------------------------------------------- pipes


def test_real_process_through_a_pipe() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "loveformal.cli", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    table = run("rules", "classic")
    assert table.returncode == 0 and "\x1b[" not in table.stdout
    assert "discard_sum" in table.stdout
    data = json.loads(run("rules", "z2019", "--json").stdout)
    assert card(data, "Princess")["value"] == 9
    bad = run("rules", "classic", "-o", "tie_break=maybe")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("loveformal: error: ") and bad.stderr.count("\n") == 1
    usage = run("verify", "--matches", "x")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "loveformal.cli", *args]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_a_one_line_error() -> None:
    """A full disk (``> /dev/full``) or a closed standard output (``>&-``): exit status 3
    and one line naming the problem, never a traceback (it was a traceback, or exit 0 with
    the output lost)."""
    for args in ((), ("scenario",), ("rules",), ("rules", "classic", "--json")):
        with open("/dev/full", "w") as full:
            r = subprocess.run(
                _command(*args), stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
            )
        assert r.returncode == 3, r.stderr
        assert r.stderr == "loveformal: error: cannot write the output: No space left on device\n"
    closed = subprocess.run(
        _command("rules"), stderr=subprocess.PIPE, text=True, timeout=60, preexec_fn=_close_stdout
    )
    assert closed.returncode == 3
    assert "standard output is closed" in closed.stderr and "Traceback" not in closed.stderr


def _close_stdout() -> None:
    os.close(1)


def test_a_reader_that_stops_early_ends_the_command_quietly() -> None:
    """``loveformal scenario check ... | head -1``: the reader goes after one line. The
    command stops quietly with 141, as SIGPIPE would stop it (it was 1, "a check failed")."""
    folder = str(Path(__file__).resolve().parents[1] / "specs" / "scenarios")
    proc = subprocess.Popen(
        _command("scenario", "check", folder),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("PASS ")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_verify_in_two_processes_matches_one() -> None:
    def rows(jobs: str) -> Any:
        args = ("--presets", "classic", "--matches", "2", "--jobs", jobs, "--sections", "matches")
        data = invoke_json("verify", *args)
        assert data["status"] == "PASS"
        return [{k: v for k, v in r.items() if k != "time"} for r in data["sections"][0]["rows"]]

    two = rows("2")
    assert [(r["players"], r["matches"]) for r in two] == [(2, 2), (3, 2), (4, 2)]
    assert two == rows("1")


def test_tokens_text_joins_runs() -> None:
    assert tokens_text(((2, 7), (3, 5), (4, 4), (5, 4), (6, 3), (8, 3))) == "2:7 3:5 4–5:4 6:3 8:3"
