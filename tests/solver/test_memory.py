"""The command line's default ``--max-nodes``: read off the memory available
(:mod:`loveformal.solver.memory`)."""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from loveformal import cli
from loveformal.solver import cli as solver_cli
from loveformal.solver import memory
from loveformal.solver.analysis import solve_position
from loveformal.solver.endgame import DEFAULT_MAX_NODES, EndgameTooLarge
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
    said = "--max-nodes defaulted to 3,000,000, as this machine's free memory could not be read"
    assert describe_auto_max_nodes(None) == said


def test_the_description_says_when_the_floor_or_the_ceiling_applies() -> None:
    fixed = "; give --max-nodes N for a fixed limit"
    assert describe_auto_max_nodes(8 * GB) == (
        "--max-nodes defaulted to 4,000,000: what half of the 8.0 GB of memory available "
        "holds at 1,000 bytes per history" + fixed
    )
    assert describe_auto_max_nodes(GB) == (
        "--max-nodes defaulted to 1,000,000: its floor, above what half of the 1.0 GB of "
        "memory available holds at 1,000 bytes per history (500,000)" + fixed
    )
    assert describe_auto_max_nodes(30 * GB) == (
        "--max-nodes defaulted to 12,000,000: its ceiling, below what half of the 30.0 GB of "
        "memory available holds at 1,000 bytes per history (15,000,000)" + fixed
    )


def _no_sysconf(name: str) -> int:
    raise ValueError(name)


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A fake /proc and /sys/fs/cgroup: 20 GB available, no cgroup limit, no ulimit."""
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "meminfo").write_text(
        "MemTotal:       40000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n"
    )
    (proc / "cgroup").write_text("0::/\n")
    fs = tmp_path / "cgroup"
    fs.mkdir()
    monkeypatch.setattr(os, "sysconf", _no_sysconf)
    monkeypatch.setattr(resource, "getrlimit", lambda _: (resource.RLIM_INFINITY,) * 2)
    return {"meminfo": proc / "meminfo", "self_cgroup": proc / "cgroup", "cgroup_fs": fs}


def test_available_memory_reads_meminfo(machine: dict[str, Path]) -> None:
    assert available_memory(**machine) == 20_000_000 * 1024  # MemAvailable, not MemFree
    machine["meminfo"].write_text("MemAvailable: 123456\n")  # no unit: bytes
    assert available_memory(**machine) == 123456


def test_available_memory_takes_the_cgroup_limit_v2(machine: dict[str, Path]) -> None:
    """A container's limit, which MemAvailable does not show: its headroom, the least over
    the cgroup and its ancestors; "max" is no limit."""
    machine["self_cgroup"].write_text("0::/box/job\n")
    job = machine["cgroup_fs"] / "box" / "job"
    job.mkdir(parents=True)
    (job / "memory.max").write_text("max\n")
    (job / "memory.current").write_text("1000\n")
    assert available_memory(**machine) == 20_000_000 * 1024
    (job.parent / "memory.max").write_text("4000000000\n")
    (job.parent / "memory.current").write_text("1000000000\n")
    assert available_memory(**machine) == 3 * GB
    (job / "memory.max").write_text("2000000000\n")
    assert available_memory(**machine) == 2 * GB - 1000
    (job / "memory.current").write_text("3000000000\n")  # over its limit: nothing left
    assert available_memory(**machine) == 0


def test_available_memory_takes_the_cgroup_limit_v1(machine: dict[str, Path]) -> None:
    machine["self_cgroup"].write_text("9:name=systemd:/\n4:cpu,memory:/box\n0::/\n")
    box = machine["cgroup_fs"] / "memory" / "box"
    box.mkdir(parents=True)
    (box / "memory.limit_in_bytes").write_text("9223372036854771712\n")  # no limit
    (box / "memory.usage_in_bytes").write_text("5\n")
    assert available_memory(**machine) == 20_000_000 * 1024
    (box / "memory.limit_in_bytes").write_text("6000000000\n")
    (box / "memory.usage_in_bytes").write_text("1000000000\n")
    assert available_memory(**machine) == 5 * GB


def test_available_memory_takes_the_address_space_limit(
    machine: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _: (7 * GB, resource.RLIM_INFINITY))
    assert available_memory(**machine) == 7 * GB


def test_available_memory_falls_back_to_sysconf_then_to_none(
    machine: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing, garbled = machine["meminfo"].with_name("none"), machine["meminfo"]
    garbled.write_text("MemAvailable: lots kB\n")
    machine["self_cgroup"] = missing
    pages = {"SC_AVPHYS_PAGES": 1000, "SC_PAGE_SIZE": 4096}
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert available_memory(missing, missing, machine["cgroup_fs"]) == 4_096_000
    assert available_memory(**machine) == 4_096_000
    monkeypatch.setattr(os, "sysconf", _no_sysconf)
    assert available_memory(missing, missing, machine["cgroup_fs"]) is None
    monkeypatch.setattr(os, "sysconf", lambda name: -1)
    assert available_memory(**machine) is None
    machine["self_cgroup"] = garbled.with_name("binary")
    machine["self_cgroup"].write_bytes(b"\xff\xfe0::/\n")  # not text: no cgroup read
    assert available_memory(**machine) is None


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_this_machine_has_a_reading() -> None:
    got = available_memory()
    assert got is not None and got > 0


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
    monkeypatch.setattr(solver_cli, "available_memory", lambda: 8 * GB)
    assert _limit_used(monkeypatch) == 4_000_000
    monkeypatch.setattr(solver_cli, "available_memory", lambda: 100 * GB)
    assert _limit_used(monkeypatch) == AUTO_MAX_NODES_CEILING
    assert _limit_used(monkeypatch, "--max-nodes", "777") == 777


def test_a_refusal_at_the_default_says_how_the_default_was_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """K8's sample deal projects far past the floor's limit: refused at once, saying why the
    limit was 1,000,000."""
    monkeypatch.setattr(solver_cli, "available_memory", lambda: 0)
    r = runner.invoke(cli.app, ["solve", K8])
    assert r.exit_code == 2
    said = "; --max-nodes defaulted to 1,000,000: its floor, above what half of the 0.0 GB"
    assert "estimated at" in r.output and said in r.output
    assert r.output.rstrip().endswith("give --max-nodes N for a fixed limit")
    told = runner.invoke(cli.app, ["solve", K8, "--max-nodes", "1000000"])
    assert told.exit_code == 2
    assert "estimated at" in told.output and "defaulted" not in told.output


def test_a_refusal_with_the_memory_unread_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """(At 3,000,000 K8 would expand for a minute before its refusal: the solve is stubbed.)"""

    def too_large(*a: Any, **kw: Any) -> Any:
        assert kw["max_nodes"] == 3_000_000
        raise EndgameTooLarge("the endgame has more than --max-nodes = 3,000,000 histories")

    monkeypatch.setattr(solver_cli, "available_memory", lambda: None)
    monkeypatch.setattr(solver_cli, "solve_position", too_large)
    r = runner.invoke(cli.app, ["solve", D])
    assert r.exit_code == 2
    assert r.output == (
        "loveformal: error: the endgame has more than --max-nodes = 3,000,000 histories; "
        "--max-nodes defaulted to 3,000,000, as this machine's free memory could not be read\n"
    )


def test_the_bench_uses_the_same_default_and_says_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """bench/solver.py: every --json row gives the limit; a refused row its peak memory."""
    import importlib.util
    import json

    path = Path(__file__).resolve().parents[2] / "bench" / "solver.py"
    spec = importlib.util.spec_from_file_location("bench_solver_memory", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(memory, "available_memory", lambda: 8 * GB)
    limits: list[int] = []

    def run(ctx: Any, text: str, reduced: int, args: Any) -> dict[str, Any]:
        limits.append(args.max_nodes)  # (the real one solves in a spawned process)
        return {"status": "too large", "seconds": 1.5, "peak_mb": 321.0}

    monkeypatch.setattr(bench, "_run", run)
    assert bench.main(["--k", "1", "--positions", "2", "--reduced", "4", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["max_nodes"] for r in rows] == limits == [4_000_000] * 5  # 2 editions x 2, +1
    assert [r.get("reduced") for r in rows] == [None, None, None, None, 4]
    assert rows[0]["status"] == "too large" and rows[0]["peak_mb"] == 321.0
    assert bench.main(["--k", "0", "--reduced", "4", "--max-nodes", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[::2] == [
        "--max-nodes 5",
        "classic   1 4-card too large after 1.5 s, 321 MB",
    ]
    refused = bench._solve("", 5, 4, False)  # the worker itself, in this process
    assert refused["status"] == "too large" and refused["peak_mb"] > 0
    assert refused["note"].startswith("the endgame has more than --max-nodes = 5 histories")
