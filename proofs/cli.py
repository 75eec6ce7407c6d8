"""``loveformal prove``: the proof obligations as a table, with a non-zero exit on any failure."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from loveformal.errors import LoveformalError
from loveformal.proofs.obligations import ObligationResult
from loveformal.proofs.report import Tier, configurations, not_modelled, prove
from loveformal.rulebook import load_preset

DEFAULT_WORKERS = min(2, os.cpu_count() or 1)
"""Worker processes by default: the two cores of the reference machine."""
Z3_UNSIGNED_MAX = 2**32 - 1
"""Z3's ``random_seed`` and ``timeout`` are unsigned 32-bit: outside, Z3 ignores the value
with a warning (the seed asked for would not be the one used)."""


def results_ok(results: list[ObligationResult]) -> bool:
    """True when every obligation is proved (no counterexample, unknown or vacuous)."""
    return bool(results) and all(r.status == "proved" for r in results)


def _table(results: list[ObligationResult]) -> Table:
    table = Table(title="proof obligations", show_lines=False)
    for col in ("preset", "players", "obligation", "status", "time (s)"):
        table.add_column(col, justify="right" if col in ("players", "time (s)") else "left")
    for r in results:
        table.add_row(r.preset, str(r.players), r.name, r.status, f"{r.seconds:.3f}")
    return table


def register(app: typer.Typer) -> None:
    """Add the ``prove`` command to the main command line."""

    @app.command("prove")
    def prove_command(
        preset: Annotated[
            str | None, typer.Option("--preset", help="Only this preset (default: all).")
        ] = None,
        all_tiers: Annotated[
            bool,
            typer.Option("--all", help="The full set: every preset and player count modelled."),
        ] = False,
        timeout_ms: Annotated[
            int, typer.Option(min=1, max=Z3_UNSIGNED_MAX, help="Per-query Z3 time-out (ms).")
        ] = 10_000,
        seed: Annotated[
            int,
            typer.Option(
                min=0, max=Z3_UNSIGNED_MAX, help="Z3 random seed (fixed for reproducibility)."
            ),
        ] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON document.")] = False,
        workers: Annotated[
            int,
            typer.Option(
                help="Worker processes (results are those of a serial run; 1: no pool).",
                min=1,
            ),
        ] = DEFAULT_WORKERS,
    ) -> None:
        """Prove the rules' invariants with Z3 for every transition (fast tier by default).

        Each obligation is an (invariant × transition) pair: proved, counterexample (a concrete
        position), unknown (time-out) or vacuous (the transition can never fire). Exit 1 if any
        obligation is not proved.
        """
        tier: Tier = "all" if all_tiers else "fast"
        if preset is not None:
            try:
                load_preset(preset)
            except LoveformalError as e:
                typer.echo(f"loveformal: error: {e}", err=True)
                raise typer.Exit(2) from None
        if not configurations(preset, tier):
            typer.echo(f"loveformal: error: the proof model covers no {preset} ruleset", err=True)
            raise typer.Exit(2)
        results = prove(preset, tier, timeout_ms=timeout_ms, seed=seed, workers=workers)
        skipped = not_modelled(preset)
        ok = results_ok(results)
        if as_json:
            doc = {
                "tier": tier,
                "ok": ok,
                "counts": dict(Counter(r.status for r in results)),
                "not_modelled": [{"preset": p, "players": n} for p, n in skipped],
                "results": [r.as_json() for r in results],
            }
            typer.echo(json.dumps(doc, indent=1))
        else:
            console = Console()
            console.print(_table(results))
            counts = Counter(r.status for r in results)
            summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            console.print(f"{len(results)} obligations ({tier} tier): {summary}")
            for r in results:
                if r.counterexample is not None:
                    console.print(f"counterexample to {r.name} ({r.preset} {r.players}p):")
                    console.print(r.counterexample.summary())
            if skipped:
                names = ", ".join(f"{p} {n}p" for p, n in skipped)
                console.print(f"not modelled: {names}")
        raise typer.Exit(0 if ok else 1)
