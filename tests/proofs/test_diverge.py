"""``loveformal diverge``: witnesses where one option alone changes the outcome, written as
scenarios that ``scenario check`` passes, whose variants really differ from their base."""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path

import pytest
import z3
from typer.testing import CliRunner

from loveformal.cards import Card
from loveformal.cli import app
from loveformal.proofs.diverge import (
    Report,
    diverge,
    find_witness,
    format_rows,
    markers_written,
    scenario_text,
    toml_value,
)
from loveformal.proofs.model import NONE, Shape, fresh
from loveformal.rulebook import make_ruleset
from loveformal.scenarios import check_paths

ROOT = Path(__file__).parent


@cache
def report(a: str, b: str, out: str) -> Report:
    return diverge(a, b, Path(out))


@pytest.fixture(scope="module")
def outdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("diverge")


def _rows(rep: Report) -> dict[str, str]:
    return {r.option: r.status for r in rep.rows}


def _variant_as_base(path: Path, dest: Path) -> Path:
    """The file with its variant's expectations replaced by the base's."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    base = doc["expect"]
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    in_variant = False
    for line in lines:
        if line.startswith("[[variant]]"):
            in_variant = True
        if in_variant and line.startswith("replace_expect"):
            continue
        if in_variant and line.startswith("expect = "):
            out.append("replace_expect = true")
            line = f"expect = {toml_value(base)}"
        out.append(line)
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dest


@pytest.mark.parametrize(
    ("b", "witnesses", "none"),
    [
        ("z2019", {"tokens_to_win", "tie_break"}, set()),
        (
            "bga-help",
            {"tokens_to_win", "two_player_face_up", "residual_tie"},
            {"guard_guess", "princess_always_wins"},
        ),
    ],
)
def test_diverge_writes_passing_scenarios_that_really_differ(
    outdir: Path, b: str, witnesses: set[str], none: set[str]
) -> None:
    out = outdir / b
    rep = report("classic", b, str(out))
    rows = _rows(rep)
    assert {o for o, s in rows.items() if s == "witness"} == witnesses, format_rows(rep)
    assert {o for o, s in rows.items() if s == "no divergence in one step"} == none
    assert rep.ok, format_rows(rep)
    for option in witnesses:
        path = out / f"diverge-{option}.toml"
        text = path.read_text(encoding="utf-8")
        assert option in text.split("\n", 3)[2]  # the title names the option
        assert "D" in tomllib.loads(text)["source"]
        check = check_paths([path])
        assert check.ok and check.passed == 2, "\n".join(check.lines())
        mutated = _variant_as_base(path, outdir / f"mutated-{b}-{option}.toml")
        bad = check_paths([mutated])
        assert not bad.errors, bad.errors
        assert bad.failed == 1 and bad.passed == 1, "\n".join(bad.lines())


def test_diverge_json_cli(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["diverge", "classic", "z2019", "--players", "2", "--out", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["ok"] is True
    by = {r["option"]: r for r in doc["rows"]}
    assert by["tokens_to_win"]["status"] == "witness"
    assert (tmp_path / "diverge-tokens_to_win.toml").is_file()
    assert check_paths([tmp_path]).ok


def test_diverge_unknown_preset_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["diverge", "classic", "clasic", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "clasic" in result.output


def _witness_passes(option: str, value: object, players: int, tmp_path: Path) -> Path:
    """Find a Premium witness for one option at one player count, write it, check it."""
    a = make_ruleset("premium")
    b = make_ruleset("premium", {option: value})
    w = find_witness(a, b, players)
    assert w is not None
    text = scenario_text(
        option, "premium", "variant", value, w, Shape.of(a, players), Shape.of(b, players)
    )
    path = tmp_path / f"diverge-{option}.toml"
    path.write_text(text, encoding="utf-8")
    check = check_paths([path])
    assert check.ok, [r.line() for r in check.results if not r.passed]
    return path


def test_prince_witness_takes_the_face_up_card_the_engine_takes(tmp_path: Path) -> None:
    """Under ``top_removed`` the model lets a Prince's target take any face-up card; the
    witness fixes the engine's pick (the first), so the scenario passes on both rulesets."""
    _witness_passes("prince_empty_deck", "top_removed", 2, tmp_path)


def test_first_awarded_witness_does_not_read_round_winners_off_tokens(tmp_path: Path) -> None:
    """When the match ends under ``first_awarded``, a tied winner after the first gains no
    token but still won the round: the witness must not claim the round's winners."""
    path = _witness_passes("simultaneous_win", "all_win", 3, tmp_path)
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    if doc["expect"].get("game_over"):
        assert "winners" not in doc["expect"]


def test_witness_positions_carry_only_markers_a_scenario_can_state() -> None:
    """A Jester bet is a Jester player's bet on another seat (``jester_self = false``), a
    Sycophant mark is on a seat in the round after a Sycophant was played — as the scenario
    file and the engine accept them; positions without them stay allowed."""
    shape = Shape.of(make_ruleset("premium"), 5)
    s = fresh(shape)
    solver = z3.Solver()
    solver.add(markers_written(s))
    jester = shape.k(Card.JESTER)
    for bad in (
        z3.And(s.jester_bettor == 0, s.jester_chosen == 0),
        z3.And(s.jester_bettor == 0, s.jester_chosen == 1, s.disc(0)[jester] == 0),
        z3.And(s.jester_bettor == 0, s.jester_chosen == NONE),
        z3.And(s.sycophant == 2, s.out[2]),
    ):
        assert solver.check(bad) == z3.unsat
    good = z3.And(s.jester_bettor == 0, s.jester_chosen == 1, s.disc(0)[jester] == 1)
    assert solver.check(good) == z3.sat
