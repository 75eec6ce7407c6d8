"""Rules scenarios (``scenario-format.md``): parse, run and check them.

>>> report = check_paths(["specs/scenarios"])          # doctest: +SKIP
>>> print("\\n".join(report.lines()))                   # doctest: +SKIP
PASS specs/scenarios/example/showdown-king-tie.toml [classic] Showdown tie after a King swap ...
1 passed, 0 failed
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from loveformal.literals import echo
from loveformal.paths import kind, not_a_file
from loveformal.scenarios.model import CheckReport, CheckResult, Scenario, ScenarioError
from loveformal.scenarios.parse import parse_file, parse_text
from loveformal.scenarios.run import check_scenario

__all__ = [
    "CheckReport",
    "CheckResult",
    "Scenario",
    "ScenarioError",
    "check_paths",
    "check_scenario",
    "find_files",
    "parse_file",
    "parse_text",
]


def find_files(paths: Sequence[Path | str]) -> tuple[Path, ...]:
    """The scenario files named by ``paths``: files as given, folders searched recursively
    for ``*.toml`` (sorted). Raises :class:`ScenarioError` for a path that does not exist or
    a folder without scenario files."""
    out: list[Path] = []
    for raw in paths:
        if not str(raw).strip():  # a str: Path("") would be the current folder
            raise ScenarioError(
                echo(str(raw)), "", "an empty name: expected a scenario file or a folder of them"
            )
        p = Path(raw)
        what = kind(p)
        if what == "dir":
            found = sorted(f for f in p.rglob("*.toml") if kind(f) == "file")
            if not found:
                raise ScenarioError(p, "", "expected scenario files (*.toml); the folder has none")
            out.extend(found)
        elif what == "file":
            out.append(p)
        else:
            hint = (
                " (it reads like a position in the notation; scenario check reads files)"
                if "|" in str(raw)
                else ""
            )
            why = not_a_file(p)
            raise ScenarioError(
                p, "", ("no such file or folder" if why == "no such file" else str(why)) + hint
            )
    return tuple(out)


def check_paths(paths: Sequence[Path | str]) -> CheckReport:
    """Parse and check every scenario file under ``paths``.

    A malformed file is reported in :attr:`CheckReport.errors` (the others are still checked);
    a missing path is too.
    """
    results: list[CheckResult] = []
    errors: list[ScenarioError] = []
    files: list[Path] = []
    for raw in paths:
        try:
            files.extend(find_files([raw]))
        except ScenarioError as exc:
            errors.append(exc)
    for f in files:
        try:
            scenario = parse_file(f)
        except ScenarioError as exc:
            errors.append(exc)
            continue
        results.extend(check_scenario(scenario))
    return CheckReport(results=tuple(results), errors=tuple(errors))
