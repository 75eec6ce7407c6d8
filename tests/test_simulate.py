"""``loveformal simulate``: seeded games, the same records for any number of workers or
backend, statistics with Wilson intervals, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from loveformal.cli import app
from loveformal.errors import MalformedInput
from loveformal.simulate import (
    SimSpec,
    compare_summaries,
    newcombe,
    play_game,
    run,
    seat_bots,
    summarise,
    wilson,
)

SPEC = SimSpec("classic", 2, ("heuristic", "random"), seed=3)


def test_wilson_and_newcombe() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    d, lo, hi = newcombe(60, 100, 40, 100)
    assert d == pytest.approx(0.2) and lo < 0.2 < hi and lo > 0


def test_games_are_reproducible_from_the_seed_and_seats_rotate() -> None:
    assert play_game(SPEC, 5) == play_game(SPEC, 5)
    assert seat_bots(SPEC, 0) == ("heuristic", "random")
    assert seat_bots(SPEC, 1) == ("random", "heuristic")


def test_records_do_not_depend_on_workers_or_batches() -> None:
    one = run(SPEC, 8)
    assert [r.index for r in one] == list(range(8))
    assert run(SPEC, 8, batch=3) == one
    assert run(SPEC, 8, workers=2) == one  # spawn processes


def test_summary_figures() -> None:
    records = run(SimSpec("z2019", 3, ("heuristic", "random", "random"), seed=1), 6)
    s = summarise(SimSpec("z2019", 3, ("heuristic", "random", "random"), seed=1), records)
    assert s["games"] == 6 and s["unit"] == "match"
    assert s["per_bot"]["random"]["seats_played"] == 12
    wins = sum(v["match"]["wins"] for v in s["per_seat"].values())
    assert wins >= 6  # every match has a winner (ties: several)
    ends = s["round_ends"]
    assert sum(v["count"] for v in ends.values()) == sum(len(r.rounds) for r in records)
    assert s["turns_per_round"]["mean"] > 1
    assert "Spy" in s["bonus_tokens"]["total"] or s["bonus_tokens"]["total"] == {}
    assert s["card_plays"]["heuristic"]


def test_single_rounds() -> None:
    spec = SimSpec("classic", 4, ("random",), seed=2, rounds=True)
    records = run(spec, 5)
    assert all(len(r.rounds) == 1 for r in records)
    assert summarise(spec, records)["rounds_per_game"]["mean"] == 1


def test_bad_specs() -> None:
    for spec in (
        SimSpec("classic", 9, ("random",)),
        SimSpec("classic", 2, ("nobody",)),
        SimSpec("nopreset", 2, ("random",)),
        SimSpec("classic", 2, ("random", "random", "random")),
    ):
        with pytest.raises(MalformedInput):
            spec.check()


def test_compare_presets_same_seeds() -> None:
    a = SimSpec("classic", 2, ("random",), seed=4)
    b = SimSpec("z2019", 2, ("random",), seed=4)
    rows = compare_summaries([summarise(a, run(a, 4)), summarise(b, run(b, 4))])
    assert rows[0]["preset"] == "z2019" and rows[0]["against"] == "classic"
    assert "random" in rows[0]["per_bot"]


runner = CliRunner()


def test_cli_json() -> None:
    result = runner.invoke(
        app, ["simulate", "--games", "4", "--bots", "heuristic,random", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and set(data["per_bot"]) == {"heuristic", "random"}


def test_cli_tables_and_compare() -> None:
    result = runner.invoke(
        app, ["simulate", "--games", "3", "--rounds", "--compare-presets", "classic,z2019"]
    )
    assert result.exit_code == 0, result.output
    assert "per bot" in result.output and "preset differences" in result.output


def test_cli_bad_input() -> None:
    result = runner.invoke(app, ["simulate", "--bots", "nobody", "--games", "1"])
    assert result.exit_code == 2
    assert "unknown bot" in result.output


def test_cli_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs the 'plot' extra (matplotlib)")
    out = tmp_path / "win.png"
    result = runner.invoke(app, ["simulate", "--games", "3", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ray_backend_gives_the_same_records() -> None:
    ray = pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra")
    spec = SimSpec("classic", 2, ("heuristic", "random"), seed=9)
    local = run(spec, 12)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert run(spec, 12, backend="ray", workers=2, batch=4) == local
    finally:
        ray.shutdown()


def test_a_run_of_more_games_than_it_can_keep_is_refused_at_once() -> None:
    """Every game's record is kept: a count past MAX_GAMES is a clear error before anything is
    played (it used to build the list of every game index first: 18 GB at 90 s)."""
    from loveformal.simulate import MAX_GAMES

    with pytest.raises(MalformedInput, match="--games: at most 10,000,000"):
        run(SPEC, MAX_GAMES + 1)
    with pytest.raises(MalformedInput, match="got 99,999,999,999,999,999,999"):
        run(SPEC, 99999999999999999999)
