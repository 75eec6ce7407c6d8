"""The command line's default ``--max-nodes``: read off the memory available
(:mod:`loveformal.solver.memory`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from loveformal import cli
from loveformal.solver import cli as solver_cli
from loveformal.solver.analysis import solve_position
from loveformal.solver.endgame import DEFAULT_MAX_NODES
from loveformal.solver.memory import (
    AUTO_MAX_NODES_CEILING,
    AUTO_MAX_NODES_FLOOR,
    auto_max_nodes,
    available_memory,
    describe_auto_max_nodes,
)

from .test_endgame import K8, D

GB = 10**9


def test_the_default_is_half_the_memory_at_a_kilobyte_per_history() -> None:
    assert auto_max_nodes(8 * GB) == 4_000_000
    assert auto_max_nodes(23_012_618_240) == 11_500_000  # this machine, rounded down
    assert auto_max_nodes(4 * GB + 199_999_999) == 2_000_000


def test_the_default_stays_within_its_floor_and_ceiling() -> None:
    assert auto_max_nodes(0) == AUTO_MAX_NODES_FLOOR == 1_000_000
    assert auto_max_nodes(GB) == AUTO_MAX_NODES_FLOOR
    assert auto_max_nodes(24 * GB) == AUTO_MAX_NODES_CEILING == 12_000_000
    assert auto_max_nodes(10**15) == AUTO_MAX_NODES_CEILING
    got = [auto_max_nodes(b) for b in range(0, 40 * GB, GB // 3)]
    assert got == sorted(got)  # monotone
    assert len(set(got)) > 10


def test_unknown_memory_gets_the_library_default() -> None:
    assert auto_max_nodes(None) == DEFAULT_MAX_NODES == 3_000_000
    said = "--max-nodes defaulted to 3,000,000 (this machine's free memory could not be read)"
    assert describe_auto_max_nodes(None) == said


def test_available_memory_reads_meminfo(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2000 kB\n")
    assert available_memory(meminfo) == 2000 * 1024  # MemAvailable, not MemFree
    assert available_memory() is not None  # this machine (Linux) has one


def test_available_memory_falls_back_to_sysconf_then_to_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing, garbled = tmp_path / "none", tmp_path / "garbled"
    garbled.write_text("MemAvailable: lots kB\n")
    pages = {"SC_AVPHYS_PAGES": 1000, "SC_PAGE_SIZE": 4096}
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert available_memory(missing) == 4_096_000
    assert available_memory(garbled) == 4_096_000

    def no_sysconf(name: str) -> int:
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", no_sysconf)
    assert available_memory(missing) is None
    monkeypatch.setattr(os, "sysconf", lambda name: -1)
    assert available_memory(garbled) is None


runner = CliRunner()


def _limit_used(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    seen: dict[str, Any] = {}

    def spy(*a: Any, **kw: Any) -> Any:
        seen.update(kw)
        return solve_position(*a, **kw)

    monkeypatch.setattr(solver_cli, "solve_position", spy)
    r = runner.invoke(cli.app, ["solve", D, "--no-pimc", *args])
    assert r.exit_code == 0, r.output
    limit: int = seen["max_nodes"]
    return limit


def test_the_command_uses_the_memory_default_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_cli, "available_memory", lambda: 6 * GB)
    assert _limit_used(monkeypatch) == 3_000_000
    monkeypatch.setattr(solver_cli, "available_memory", lambda: 100 * GB)
    assert _limit_used(monkeypatch) == AUTO_MAX_NODES_CEILING
    assert _limit_used(monkeypatch, "--max-nodes", "777") == 777


def test_a_refusal_at_the_default_says_how_the_default_was_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """K8's sample deal projects far past the floor's limit: refused at once, saying why the
    limit was 1,000,000 (the 3,000,000 of unknown memory would expand for a minute first)."""
    monkeypatch.setattr(solver_cli, "available_memory", lambda: 0)
    r = runner.invoke(cli.app, ["solve", K8])
    assert r.exit_code == 2
    said = "; --max-nodes defaulted to 1,000,000 (half of the 0.0 GiB of memory available, at "
    assert "estimated at" in r.output and said in r.output
    told = runner.invoke(cli.app, ["solve", K8, "--max-nodes", "1000000"])
    assert told.exit_code == 2
    assert "estimated at" in told.output and "defaulted" not in told.output
