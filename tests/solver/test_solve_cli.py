"""``loveformal solve`` and the ``solver`` section of ``loveformal verify``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from typer.testing import CliRunner

from loveformal import cli
from loveformal.notation import parse_position
from loveformal.solver import cli as solver_cli
from loveformal.solver.analysis import solve_position

from .test_endgame import EARLIER_KING, K8, LAST_PRIEST, D, E, endgame

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(cli.app, list(args))


def test_solve_prints_the_table() -> None:
    r = invoke("solve", D)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "play Guard" in out and "-0.666667" in out
    assert "game value: -0.800000000" in out
    assert "exploitability (exact): 0.000e+00 (certified" in out
    assert "4 deals, 10 of 24 histories" in out and "time:" in out


def test_solve_full_tree() -> None:
    r = invoke("solve", D, "--full")
    assert r.exit_code == 0, r.output
    assert "game value: -0.800000000" in r.output and "4 deals, 24 histories" in r.output
    assert "reduced game" not in r.output


def test_solve_json_shape() -> None:
    r = invoke("solve", E, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["value"] == pytest.approx(5 / 6)
    assert data["value_exact"] == "5/6"
    assert data["exploitability"] == 0.0
    assert data["pimc"] == 1.0
    assert {"deals", "histories", "infosets", "sequences"} <= set(data)
    sizes = ("deals", "histories", "full_histories", "terminals", "infosets", "sequences")
    assert data["sizes"] == {k: data[k] for k in sizes}  # the same figures, together
    assert data["histories"] >= data["terminals"] >= 1 and len(data["infosets"]) == 2
    for a in data["actions"]:
        assert set(a) >= {"action", "probability", "value"}
    assert sum(a["probability"] for a in data["actions"]) == pytest.approx(1.0)


def test_solve_other_seat() -> None:
    data = json.loads(invoke("solve", D, "--seat", "P2", "--json").output)
    assert data["seat"] == "P2" and data["value_exact"] == "4/5" and data["actions"] == []


def test_solve_writes_graphml(tmp_path: Path) -> None:
    path = tmp_path / "tree.graphml"
    r = invoke("solve", D, "--graph", str(path))
    assert r.exit_code == 0, r.output
    g = nx.read_graphml(path, node_type=int)
    assert g.number_of_nodes() == 10  # the reduced game (24 histories unreduced)


D_SCENARIO = """
title = "endgame D"
rulesets = ["classic"]

[position]
players = 2
turn = "P1"
deck = ["Princess"]
set_aside = "Guard"
face_up = ["King", "Countess", "Guard"]
hands = { P1 = ["Guard", "Guard"], P2 = ["Guard"] }
protected = ["P2"]

[position.discards]
P1 = ["Priest", "Baron", "Prince", "Handmaid"]
P2 = ["Priest", "Baron", "Prince", "Handmaid"]

[expect]
"""
"""Endgame D (tests/solver/test_endgame.py) as a scenario file."""


def test_solve_scenario_file(tmp_path: Path) -> None:
    path = tmp_path / "endgame.toml"
    path.write_text(D_SCENARIO, encoding="utf-8")
    r = invoke("solve", str(path), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value_exact"] == "-4/5"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("classic 2p | P1 Guard",), "sections"),
        (
            (
                "classic 2p | P1 Guard,Guard d:- t0 | P2 Guard d:- t0 | deck Princess | "
                "aside Guard | up King,Countess,Guard | play P1",
            ),
            "account for all",
        ),
        (
            (D.replace("deck Princess | aside Guard", "deck Guard,Princess | aside -"),),
            "no round reaches this position",
        ),
        (("",), "POSITION is empty"),
        ((D, "--max-nodes", "5"), "max-nodes"),
        ((K8, "--max-nodes", "200000"), "estimated at"),
        ((D, "--seat", "P9"), "P9"),
        ((D, "--utility", "money"), "--utility"),
        ((D, "--older", "Kng"), "--older: unknown card 'Kng'"),
        ((D, "--older", "King"), "older card: P1 (the seat to move) holds"),
        ((D, "--older", "Guard"), "changes nothing here: the discard piles show no seat's look"),
        ((D, "--knew", "Kng"), "--knew: unknown card 'Kng'"),
        ((D, "--knew", "King"), "the discard piles show no such play"),
        ((LAST_PRIEST, "--knew", "King"), "Guard or Prince, no King"),
        ((D, "--shown", "Gard"), "--shown: unknown card 'Gard'"),
        ((LAST_PRIEST, "--shown", "Guard"), "shown card: it is the seat to move's card"),
        ((EARLIER_KING, "--shown", "Prince"), "Guard or Handmaid or Princess, no Prince"),
    ],
)
def test_bad_input_exits_2(args: tuple[str, ...], message: str) -> None:
    r = invoke("solve", *args)
    assert r.exit_code == 2
    assert message in r.output


def test_verify_has_the_solver_section() -> None:
    r = invoke("verify", "--sections", "solver", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("\n{") :])  # progress lines come first
    section = data["sections"][0]
    assert section["section"] == "solver" and section["status"] == "PASS"
    assert len(section["rows"]) >= 4


def test_long_exact_fractions_are_summarised_in_the_report() -> None:
    """A bracket end with a denominator of hundreds of digits is not printed whole (the
    report would be unreadable); --json keeps it exact."""
    from fractions import Fraction

    from loveformal.solver.cli import _exact, _frac

    assert _frac(Fraction(3, 4)) == "+0.750000 (3/4)"
    long = Fraction(10**300 + 1, 3 * 10**300)
    assert _frac(long) == "+0.333333 (a fraction with a 301-digit denominator: see --json)"
    assert _exact(long) == "a fraction with a 301-digit denominator: see --json"  # exact value
    assert _exact(Fraction(-4, 5)) == "-4/5"


def test_solve_says_when_the_lp_falls_back_to_the_whole_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    from loveformal.solver import oracle, seqform

    monkeypatch.setattr(seqform, "RESTRICT_FROM", 0)
    monkeypatch.setattr(oracle, "MAX_SHARE", 0.0)
    r = runner.invoke(cli.app, ["solve", D])
    assert r.exit_code == 0, r.output
    assert "LP: the restricted game gave up; solving the whole LP" in r.output
    assert "certified" in r.output


def test_graph_path_is_checked_before_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the --graph path was checked")

    monkeypatch.setattr(solver_cli, "solve_position", must_not_run)
    for path, why in [("/nonexistent/x.graphml", "no directory /nonexistent"), ("/", "directory")]:
        r = invoke("solve", D, "--graph", path)
        assert r.exit_code == 2 and f"--graph: cannot write '{path}'" in r.output
        assert why in r.output


def test_out_of_memory_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(solver_cli, "solve_position", no_memory)
    r = invoke("solve", D)
    assert r.exit_code == 2 and "out of memory" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("/nonexistent/position.txt", "no such file"),
        ("NOPE.TOML", "no such file"),
        ("/", "is a directory"),
    ],
)
def test_position_argument_meant_as_a_file(arg: str, message: str) -> None:
    r = invoke("solve", arg)
    assert r.exit_code == 2 and message in r.output and "sections" not in r.output


def test_seat_error_names_the_option() -> None:
    r = invoke("solve", D, "--seat", "P3")
    assert r.exit_code == 2 and "--seat: unknown seat 'P3'" in r.output


def test_utility_text_by_player_count() -> None:
    assert solver_cli.utility_text("round", 2) == "round win +1, loss -1, shared 0"
    assert "1 if the seat is among the round's winners" in solver_cli.utility_text("round", 3)
    assert "minus its opponent's" in solver_cli.utility_text("tokens", 2)
    assert "minus" not in solver_cli.utility_text("tokens", 4)
    three = solve_position(endgame("classic", 1, 5, players=3), pimc=False)
    report = solver_cli.render(three)
    assert "utility: round (1 if the seat is among the round's winners, else 0)" in report
    assert "loss -1" not in report


def test_knew_gives_the_table_after_the_movers_own_priest() -> None:
    """Without --knew the table is left out, with a note naming the option."""
    r = invoke("solve", LAST_PRIEST, "--no-pimc")
    assert r.exit_code == 0, r.output
    assert "--knew CARD" in r.output and "play Baron on P2" not in r.output
    r = invoke("solve", LAST_PRIEST, "--no-pimc", "--knew", "Prince")
    assert r.exit_code == 0, r.output
    assert "play Baron on P2" in r.output and "exact value: 19/30" in r.output


def test_shown_gives_the_table_after_the_other_seats_earlier_king() -> None:
    r = invoke("solve", EARLIER_KING, "--no-pimc", "--shown", "Princess")
    assert r.exit_code == 0, r.output
    assert "exact value: 5/12" in r.output and "play Guard on P1" in r.output


def test_solve_progress_lines_are_rate_limited() -> None:
    """A long solve reports its progress at most every two seconds, and once when the last
    deal is expanded; the reduced build's many calls after that (``done == total`` on each,
    as it counts histories) no longer print a line each."""
    now = [0.0]
    lines: list[str] = []
    report = solver_cli.SolveProgress(lines.append, clock=lambda: now[0])

    def at(t: float) -> None:
        now[0] = t

    at(0.5)
    report.build(1, 10, 0)  # too early: a short solve prints nothing
    at(2.5)
    report.build(5, 10, 0)
    at(3.0)
    report.build(10, 10, 0)  # the last deal: printed though under 2 s since the last line
    for t, nodes in [(3.1, 100), (3.2, 2_000), (3.9, 30_000), (4.9, 40_000), (5.2, 50_000)]:
        at(t)
        report.build(10, 10, nodes)
    at(6.0)
    report.lp(1, 1e-3, (10, 20))  # under 2 s since the last line
    at(8.0)
    report.lp(2, 1e-5, (15, 25))
    report.lp(0, 0.0, (40, 60))  # giving up on the restricted LP: always said
    assert lines == [
        "building: 5/10 deals, expanding positions (2 s)",
        "building: 10/10 deals, expanding positions (3 s)",
        "building: 10/10 deals, 50,000 histories (5 s)",
        "LP: restricted game 2, 40 sequences, best-response gap 1.0e-05 (8 s)",
        "LP: the restricted game gave up; solving the whole LP (100 sequences, 8 s)",
    ]


def test_a_position_saved_in_a_file(tmp_path: Path) -> None:
    """A file holding a position in the notation, whatever its name but ``.toml`` (it was
    read as a scenario, "expected valid TOML", or without a suffix the file's name was read
    as the position); a bad one is refused naming the file."""
    want = solve_position(parse_position(D), pimc=False).value
    for name in ("position.txt", "position"):
        saved = tmp_path / name
        saved.write_text(D + "\n")
        r = invoke("solve", str(saved), "--json", "--no-pimc")
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["value_exact"] == str(want)
    bad = tmp_path / "bad.txt"
    bad.write_text("classic 2p | P1 Guard\n")
    r = invoke("solve", str(bad))
    assert r.exit_code == 2
    assert f"{bad}: expected at least 6 '|'-separated sections" in r.output
    bom = tmp_path / "notepad.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + D.encode() + b"\r\n")
    r = invoke("solve", str(bom), "--json", "--no-pimc")
    assert r.exit_code == 0 and json.loads(r.output)["value_exact"] == str(want), r.output
    # A scenario under another name, with a '|' in one of its strings: still a scenario.
    scenario = tmp_path / "endgame.scenario"
    scenario.write_text(D_SCENARIO.replace('"endgame D"', '"endgame D | as a scenario"'))
    assert "|" in scenario.read_text()
    r = invoke("solve", str(scenario), "--json", "--no-pimc")
    assert r.exit_code == 0 and json.loads(r.output)["value_exact"] == "-4/5", r.output
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"classic | \xff\xfe")
    r = invoke("solve", str(binary))
    assert r.exit_code == 2 and f"{binary}: expected UTF-8 text" in r.output


def test_older_with_a_scenario_says_its_moves_tell(tmp_path: Path) -> None:
    """A scenario's moves say which card the seat held before its draw: --older is refused
    as such (it said "the discard piles show no seat's look", with a Priest on its pile)."""
    path = tmp_path / "look.toml"
    path.write_text(
        'title = "a Priest look, then a King"\nrulesets = ["z2019"]\n\n[position]\n'
        'players = 2\nturn = "P1"\nface_up = ["Guard", "Guard", "Spy"]\n'
        'set_aside = "Princess"\nhands = { P1 = ["Chancellor", "Priest"], P2 = ["King"] }\n'
        'discards = { P1 = ["Guard", "Handmaid", "Prince", "Baron"], '
        'P2 = ["Guard", "Handmaid", "Priest", "Spy"] }\n'
        'deck = ["Guard", "Countess", "Baron", "Guard", "Prince", "Chancellor"]\n\n'
        '[[moves]]\nplay = "Priest"\ntarget = "P2"\n\n[[moves]]\nplay = "Guard"\n'
        'target = "P1"\nguess = "Princess"\n\n[expect]\nturn = "P1"\n',
        encoding="utf-8",
    )
    r = invoke("solve", str(path), "--older", "Chancellor")
    assert r.exit_code == 2
    assert "the position comes with its moves (a scenario), which say which card P1" in r.output
    assert invoke("solve", str(path), "--no-pimc").exit_code == 0
