"""Wall time of the full proof tier (``loveformal prove --all``), preset by preset.

    python bench/proofs.py                      # a table: one row per preset, and the total
    python bench/proofs.py --json               # one JSON object per line
    python bench/proofs.py --workers 1          # serially (the results are the same)
    python bench/proofs.py --whole --repeat 3   # also the whole tier in one run, best of 3

Each preset's ``all`` tier (every player count the model covers) runs on its own, on a pool of
``--workers`` processes (``loveformal.proofs.report.prove``); its wall time is measured around
the call (best of ``--repeat``). Also reported: the summed solver time of its obligations, per
player count (what the solver did, whatever the pool), and how many obligations are not
proved (any is a failure: exit 1). ``--whole`` also times the whole tier in one call, which is
what ``loveformal prove --all`` does (one pool for every preset: no idle worker between
presets). The machine is shared: report the best of several runs.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass

from loveformal.proofs.obligations import ObligationResult
from loveformal.proofs.report import configurations, prove
from loveformal.rulebook import preset_names


@dataclass(frozen=True)
class Row:
    preset: str
    configurations: int
    obligations: int
    not_proved: int
    wall: float
    """Best wall time of the runs (seconds)."""
    solver: dict[int, float]
    """Summed solver seconds per player count (of the best run)."""

    def as_json(self, workers: int) -> dict[str, object]:
        return {
            "preset": self.preset,
            "workers": workers,
            "configurations": self.configurations,
            "obligations": self.obligations,
            "not_proved": self.not_proved,
            "wall_s": round(self.wall, 2),
            "solver_s": round(sum(self.solver.values()), 2),
            "solver_s_by_players": {str(n): round(s, 2) for n, s in self.solver.items()},
        }


def measure(
    preset: str | None, workers: int, timeout_ms: int, repeat: int
) -> tuple[float, list[ObligationResult]]:
    """The best wall time of ``repeat`` runs of the ``all`` tier, and the best run's results."""
    best: tuple[float, list[ObligationResult]] | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        results = prove(preset, "all", timeout_ms=timeout_ms, workers=workers)
        wall = time.perf_counter() - start
        if best is None or wall < best[0]:
            best = (wall, results)
    assert best is not None
    return best


def row(preset: str | None, wall: float, results: list[ObligationResult]) -> Row:
    solver: dict[int, float] = {}
    for r in results:
        solver[r.players] = solver.get(r.players, 0.0) + r.seconds
    return Row(
        preset=preset or "all (one run)",
        configurations=len(configurations(preset, "all")),
        obligations=len(results),
        not_proved=sum(r.status != "proved" for r in results),
        wall=wall,
        solver=dict(sorted(solver.items())),
    )


def table(rows: list[Row], workers: int) -> str:
    head = ("preset", "configs", "obligations", "not proved", "wall (s)", "solver (s)")
    lines = [
        (
            r.preset,
            str(r.configurations),
            str(r.obligations),
            str(r.not_proved),
            f"{r.wall:.1f}",
            f"{sum(r.solver.values()):.1f}",
        )
        for r in rows
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *lines, strict=True)]
    out = [f"proof obligations, all tier, {workers} worker(s)"]
    for line in (head, *lines):
        out.append("  ".join(x.rjust(w) if i else x.ljust(w) for i, (x, w) in
                             enumerate(zip(line, widths, strict=True))))  # fmt: skip
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--timeout-ms", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--whole", action="store_true", help="also the whole tier in one run")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    presets: list[str] = args.preset or list(preset_names())
    rows: list[Row] = []
    for preset in presets:
        wall, results = measure(preset, args.workers, args.timeout_ms, args.repeat)
        r = row(preset, wall, results)
        rows.append(r)
        if args.json:
            print(json.dumps(r.as_json(args.workers)), flush=True)
    solver: dict[int, float] = {}
    for r in rows:
        for n, seconds in r.solver.items():
            solver[n] = solver.get(n, 0.0) + seconds
    total = Row(
        "sum of presets",
        sum(r.configurations for r in rows),
        sum(r.obligations for r in rows),
        sum(r.not_proved for r in rows),
        sum(r.wall for r in rows),
        dict(sorted(solver.items())),
    )
    extra = [total]
    if args.whole:
        wall, results = measure(None, args.workers, args.timeout_ms, args.repeat)
        extra.append(row(None, wall, results))
    if args.json:
        for r in extra:
            print(json.dumps(r.as_json(args.workers)), flush=True)
    else:
        print(table(rows + extra, args.workers))
    return 1 if any(r.not_proved for r in rows + extra) else 0


if __name__ == "__main__":
    raise SystemExit(main())
