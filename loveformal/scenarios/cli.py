"""``loveformal scenario check PATH...``: check rules-scenario files.

Prints one line per scenario and ruleset (``PASS <file> [<ruleset>] <title>`` or ``FAIL ...:
expected ..., got ...``) and closes with ``N passed, M failed``. Exit status: 0 when every
check holds, 1 when one failed, 2 for malformed input (a message on stderr naming the file,
the key and what was expected; never a traceback).
"""

from __future__ import annotations

from typing import Annotated

import typer

from loveformal.scenarios import check_paths

scenario_app = typer.Typer(
    help="Rules scenarios: settle a rules question by machine.",
    no_args_is_help=True,
    add_completion=False,
)


@scenario_app.callback()
def _scenario() -> None:
    """Rules scenarios (scenario-format.md)."""


@scenario_app.command("check")
def check(
    paths: Annotated[
        list[str], typer.Argument(help="Scenario files or folders (searched for *.toml).")
    ],
) -> None:
    """Check scenario files: exit 0 only if every check holds (1: a check failed;
    2: malformed input)."""
    report = check_paths(paths)
    for line in report.lines()[:-1]:
        typer.echo(line)
    for error in report.errors:
        typer.echo(f"error: {error}", err=True)
    typer.echo(report.lines()[-1])
    raise typer.Exit(report.exit_code)
