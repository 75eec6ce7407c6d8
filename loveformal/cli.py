"""The ``loveformal`` command line.

    loveformal rules [PRESET] [--option NAME=VALUE ...] [--players N] [--json]
    loveformal diff PRESET_A PRESET_B [--json]
    loveformal verify [--presets a,b] [--players 2,3] [--matches N] [--seed S] [--quick]
                      [--sections matches,scenarios] [--jobs J] [--json]
    loveformal scenario ...          (when loveformal.scenarios.cli is installed)
    loveformal --version

Exit status: 0 success, 1 a check failed (``verify``), 2 bad input (an unknown preset, option
or value, a bad player count, a usage error), 3 the output could not be written (standard
output closed, a full disk) — always a one-line message on stderr, never a traceback. A reader
that stops reading early (``| head``) ends the command quietly with 141, as SIGPIPE would.
Tables are drawn with rich; through a pipe they carry no colour codes.

``verify`` runs a list of named *sections* (:data:`SECTIONS`): each is a function returning a
:class:`SectionResult` (a table of rows, a status, and the first failures). ``matches`` plays
seeded random whole matches of every preset and player count and checks the invariants of
:mod:`loveformal.testing.invariants` at every step; ``scenarios`` runs the rules scenarios of
``specs/scenarios`` when :mod:`loveformal.scenarios` exists. More sections are added with
:func:`section`.
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn, Protocol, TextIO, cast

import typer
from rich import box
from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from loveformal.engine import is_terminal, new_match
from loveformal.errors import LoveformalError
from loveformal.literals import echo, whole_number
from loveformal.report import (
    cards_table,
    describe_state,
    diff_data,
    diff_tables,
    options_table,
    presets_data,
    presets_table,
    ruleset_data,
    ruleset_heading,
)
from loveformal.rulebook import load_preset, make_ruleset, parse_overrides, preset_names
from loveformal.sampling import random_step
from loveformal.state import CHANCE_PHASES, State

PROG = "loveformal"
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_OUTPUT = 3
"""The output could not be written: standard output closed, a full disk, an I/O error."""
EXIT_PIPE = 128 + 13
"""The output's reader stopped reading (``| head``): quietly, as a command stopped by SIGPIPE."""

DEFAULT_MATCHES = 12
"""Random matches per preset and player count in a default ``verify`` run."""
QUICK_MATCHES = 2
"""... and with ``--quick``."""
MAX_STEPS = 100_000
"""A match still running after this many steps is reported as a violation (it should end)."""
MAX_SHOWN = 5
"""Failures printed per section (all are counted)."""

app = typer.Typer(
    name=PROG,
    help="Love Letter rules engine: rulesets, their differences, and verification.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# ----------------------------------------------------------------------------------------------
# Output and errors


def _console(*, stderr: bool = False) -> Console:
    """A console on stdout (or stderr): colours on a terminal only; through a pipe, plain text
    at a width of 160 columns unless ``COLUMNS`` says otherwise."""
    console = Console(stderr=stderr, markup=False, highlight=False, emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(stderr=stderr, markup=False, highlight=False, emoji=False, width=160)
    return console


def _show(*items: RenderableType) -> None:
    """Print to stdout: through rich on a terminal; through a pipe as plain text with no
    trailing blanks (rich pads table lines to the table's width)."""
    console = _console()
    if console.is_terminal:
        for item in items:
            console.print(item)
        return
    with console.capture() as captured:
        for item in items:
            console.print(item)
    text = "\n".join(line.rstrip() for line in captured.get().splitlines())
    typer.echo(text)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _error_line(message: str) -> None:
    typer.echo(f"{PROG}: error: {_one_line(message)}", err=True)


class _BadInput(Exception):
    """Bad input found by the command line itself (not by the engine)."""


@contextmanager
def _bad_input_exits() -> Iterator[None]:
    """Turn bad input into a one-line message and exit status 2."""
    try:
        yield
    except (LoveformalError, _BadInput) as e:
        _error_line(str(e))
        raise typer.Exit(EXIT_BAD_INPUT) from None


def _print_json(data: object) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _check_players(preset: str, players: int) -> None:
    ruleset = load_preset(preset).ruleset
    try:
        ruleset.deck(players)
    except ValueError as e:
        raise _BadInput(f"--players {players}: {e}") from None


def _split_list(text: str | None, what: str) -> list[str]:
    if text is None:
        return []
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise _BadInput(f"{what}: empty name in {text!r} (expected a comma-separated list)")
    twice = next((t for i, t in enumerate(items) if t in items[:i]), None)
    if twice is not None:
        raise _BadInput(f"{what}: {twice!r} is given twice")
    return items


# ----------------------------------------------------------------------------------------------
# Root: --version, and the optional sub-app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("loveformal")
    except PackageNotFoundError:  # not installed (running from a source tree)
        return "unknown"


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """Love Letter rules engine: rulesets, their differences, and verification."""


def _module_available(name: str) -> bool:
    """Whether module ``name`` exists (without importing it; its parents are imported)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _mount_optional_apps() -> None:
    """Mount ``loveformal scenario`` when :mod:`loveformal.scenarios.cli` provides it."""
    name = "loveformal.scenarios.cli"
    if not _module_available(name):
        return
    module = importlib.import_module(name)
    scenario_app = getattr(module, "scenario_app", None)
    if isinstance(scenario_app, typer.Typer):
        app.add_typer(scenario_app, name="scenario")


_mount_optional_apps()
importlib.import_module("loveformal.compare").register(app)  # loveformal compare
importlib.import_module("loveformal.proofs.cli").register(app)  # loveformal prove
importlib.import_module("loveformal.proofs.diverge").register(app)  # loveformal diverge
importlib.import_module("loveformal.simulate").register(app)  # loveformal simulate
importlib.import_module("loveformal.play").register(app)  # loveformal play


# ----------------------------------------------------------------------------------------------
# rules


@app.command()
def rules(
    preset: Annotated[
        str | None, typer.Argument(help="A preset; without one, list the presets.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="NAME=VALUE",
            help="Override an option (repeatable), e.g. tie_break=none or tokens_to_win=2:6.",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(help="Only the deck and token threshold for this many players."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """List the presets, or show a preset's cards and options (after overrides)."""
    with _bad_input_exits():
        if preset is None:
            if option:
                raise _BadInput("--option needs a PRESET (e.g. loveformal rules classic -o ...)")
            if players is not None and players < 2:
                raise _BadInput(f"--players {players}: a match has at least 2 players")
            rows = presets_data(players)
            if not rows:
                raise _BadInput(f"--players {players}: no preset allows that many players")
            if json_out:
                _print_json(rows)
            else:
                _show(presets_table(rows))
            return
        ruleset = make_ruleset(preset, parse_overrides(option or []))
        if players is not None:
            _check_players(preset, players)
        data = ruleset_data(ruleset, load_preset(preset).source, players)
        if json_out:
            _print_json(data)
            return
        _show(ruleset_heading(data), cards_table(data), options_table(data))


# ----------------------------------------------------------------------------------------------
# diff


@app.command()
def diff(
    preset_a: Annotated[str, typer.Argument(help="The first preset.")],
    preset_b: Annotated[str, typer.Argument(help="The second preset.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Show where two presets differ: decks, cards, thresholds and options."""
    with _bad_input_exits():
        data = diff_data(preset_a, preset_b)
    if json_out:
        _print_json(data)
        return
    tables = diff_tables(data)
    if not tables:
        _show(f"{preset_a} and {preset_b}: no differences")
        return
    _show(f"{preset_a} vs {preset_b}: {data['differences']} differences", *tables)


# ----------------------------------------------------------------------------------------------
# verify: sections


Status = Literal["PASS", "FAIL", "SKIP"]


@dataclass
class SectionResult:
    """What one section of ``verify`` found."""

    status: Status
    columns: tuple[str, ...] = ()
    rows: list[tuple[object, ...]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    """Descriptions of the first failures (at most :data:`MAX_SHOWN`)."""
    failed: int = 0
    """How many failures there were in all."""
    note: str = ""


@dataclass(frozen=True)
class VerifyConfig:
    presets: tuple[str, ...]
    players: tuple[int, ...]
    """Player counts to play (empty: every count a preset allows)."""
    matches: int
    seed: int
    jobs: int


class Reporter(Protocol):
    """Progress of a section: a bar on a terminal, plain lines otherwise."""

    def start(self, description: str, total: int) -> None: ...

    def advance(self, steps: int, line: str | None = None) -> None: ...

    def stop(self) -> None: ...


Section = Callable[[VerifyConfig, Reporter], SectionResult]

SECTIONS: dict[str, Section] = {}
"""The sections of ``verify``, in the order they run."""


def section(name: str) -> Callable[[Section], Section]:
    """Register a ``verify`` section under ``name``."""

    def register(fn: Section) -> Section:
        SECTIONS[name] = fn
        return fn

    return register


# -- matches ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    preset: str
    players: int
    first: int
    stop: int
    seed: int


@dataclass
class _TaskResult:
    preset: str
    players: int
    matches: int = 0
    rounds: int = 0
    decisions: int = 0
    checks: int = 0
    violations: int = 0
    details: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _match_rng(seed: int, preset: str, players: int, match: int) -> random.Random:
    """The generator of one match: replayable from (seed, preset, players, match) alone."""
    return random.Random(f"{seed}:{preset}:{players}:{match}")


def _violation(
    out: _TaskResult,
    task: _Task,
    match: int,
    step: int,
    problems: Sequence[str],
    action: object,
    position: State,
) -> None:
    out.violations += len(problems)
    if len(out.details) < MAX_SHOWN:
        out.details.append(
            f"{task.preset}, {task.players} players, seed {task.seed}, match {match}, "
            f"step {step}: {'; '.join(problems)}\n"
            f"  action: {action}\n"
            f"  position before: {describe_state(position)}\n"
            f"  replay: {PROG} verify --sections matches --presets {task.preset} "
            f"--players {task.players} --seed {task.seed} --matches {match + 1} --jobs 1"
        )


def _run_task(task: _Task) -> _TaskResult:
    """Play matches ``first..stop-1`` of one preset and player count, checking every state and
    every transition; a match stops at its first violation (later ones would be echoes)."""
    from loveformal.testing import invariants

    start = time.perf_counter()
    out = _TaskResult(task.preset, task.players)
    rules = make_ruleset(task.preset)
    for match in range(task.first, task.stop):
        rng = _match_rng(task.seed, task.preset, task.players, match)
        state = new_match(rules, task.players, starter=rng.randrange(task.players))
        out.matches += 1
        out.checks += 1
        try:
            problems = list(invariants.check_state(state))
        except Exception as e:
            problems = [f"an invariant check raised {type(e).__name__}: {e}"]
        if problems:
            _violation(out, task, match, 0, problems, "(new match)", state)
            continue
        step = 0
        while not is_terminal(state):
            step += 1
            before = state
            if step > MAX_STEPS:
                _violation(out, task, match, step, [f"no end after {MAX_STEPS} steps"], "-", state)
                break
            try:
                state, action = random_step(before, rng)
            except Exception as e:
                problems = [f"the engine raised {type(e).__name__}: {e}"]
                _violation(out, task, match, step, problems, "(random step)", before)
                break
            if before.phase not in CHANCE_PHASES:
                out.decisions += 1
            if state.round_over and not before.round_over:
                out.rounds += 1
            # check_transition also runs every state property on the state after.
            out.checks += 1
            try:
                problems = list(invariants.check_transition(before, action, state))
            except Exception as e:
                problems = [f"an invariant check raised {type(e).__name__}: {e}"]
            if problems:
                _violation(out, task, match, step, problems, action, before)
                break
    out.seconds = time.perf_counter() - start
    return out


def _configs(cfg: VerifyConfig) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for preset in cfg.presets:
        r = load_preset(preset).ruleset
        for n in range(r.min_players, r.max_players + 1):
            if not cfg.players or n in cfg.players:
                out.append((preset, n))
    return out


def _tasks(cfg: VerifyConfig, configs: Sequence[tuple[str, int]]) -> list[_Task]:
    """Each configuration's matches in a few chunks (for progress and an even load)."""
    size = max(1, math.ceil(cfg.matches / 4)) if cfg.jobs > 1 else cfg.matches
    tasks = [
        _Task(preset, n, first, min(first + size, cfg.matches), cfg.seed)
        for preset, n in configs
        for first in range(0, cfg.matches, size)
    ]
    # Bigger tables take longer: start them first so the pool's tail is short.
    return sorted(tasks, key=lambda t: -t.players) if cfg.jobs > 1 else tasks


def _run_tasks(cfg: VerifyConfig, tasks: Sequence[_Task]) -> Iterator[_TaskResult]:
    if cfg.jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield _run_task(task)
        return
    # "spawn": no fork of a process that may be running a progress-bar thread. The workers
    # ignore Ctrl-C; the parent stops them at once (terminate) on an interrupt or an error.
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(cfg.jobs, initializer=_ignore_interrupts)
    try:
        yield from pool.imap_unordered(_run_task, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _properties(invariants: object) -> str:
    """The properties ``check_transition`` runs, as named by the invariants module."""
    names = [
        *getattr(invariants, "TRANSITION_CHECKS", {}),
        *getattr(invariants, "STATE_CHECKS", {}),
    ]
    if not names:
        return "the properties of INVARIANTS"
    return f"{len(names)} properties: {', '.join(names)}"


@section("matches")
def _matches_section(cfg: VerifyConfig, reporter: Reporter) -> SectionResult:
    """Seeded random whole matches of every preset and player count, with every invariant of
    :mod:`loveformal.testing.invariants` checked at every step."""
    columns = (
        "preset",
        "players",
        "matches",
        "rounds",
        "decisions",
        "checks",
        "violations",
        "status",
        "time",
    )
    name = "loveformal.testing.invariants"
    if not _module_available(name):
        return SectionResult("SKIP", columns, note=f"{name} is not available yet")
    invariants = importlib.import_module(name)
    configs = _configs(cfg)
    totals = {c: _TaskResult(*c) for c in configs}
    remaining = {c: 0 for c in configs}
    tasks = _tasks(cfg, configs)
    for task in tasks:
        remaining[(task.preset, task.players)] += 1
    reporter.start("random matches", cfg.matches * len(configs))
    try:
        for r in _run_tasks(cfg, tasks):
            total = totals[(r.preset, r.players)]
            for attr in ("matches", "rounds", "decisions", "checks", "violations", "seconds"):
                setattr(total, attr, getattr(total, attr) + getattr(r, attr))
            total.details.extend(r.details)
            remaining[(r.preset, r.players)] -= 1
            line = None
            if remaining[(r.preset, r.players)] == 0:
                line = (
                    f"{r.preset} {r.players}p: {total.matches} matches, {total.rounds} rounds, "
                    f"{total.violations} violations ({total.seconds:.1f} s)"
                )
            reporter.advance(r.matches, line)
    finally:
        reporter.stop()
    rows: list[tuple[object, ...]] = []
    failures: list[str] = []
    for c in configs:
        t = totals[c]
        status = "FAIL" if t.violations else "PASS"
        rows.append(
            (
                t.preset,
                t.players,
                t.matches,
                t.rounds,
                t.decisions,
                t.checks,
                t.violations,
                status,
                round(t.seconds, 2),
            )
        )
        failures.extend(t.details)
    violations = sum(t.violations for t in totals.values())
    note = (
        f"{cfg.matches} matches per preset and player count, seed {cfg.seed}; checks: calls of "
        f"check_state (first state) and check_transition (every step, {_properties(invariants)})"
    )
    return SectionResult(
        "FAIL" if violations else "PASS",
        columns,
        rows,
        failures[:MAX_SHOWN],
        violations,
        note,
    )


# -- scenarios --------------------------------------------------------------------------------


def scenarios_folder() -> Path:
    """The package's own rules scenarios (``specs/scenarios``)."""
    return Path(str(resources.files("loveformal") / "specs" / "scenarios"))


@section("scenarios")
def _scenarios_section(cfg: VerifyConfig, reporter: Reporter) -> SectionResult:
    """The rules scenarios of ``specs/scenarios``, run by ``loveformal.scenarios.check_paths``:
    one row per file; a malformed file is a failure."""
    columns = ("file", "checks", "passed", "failed", "status")
    if not _module_available("loveformal.scenarios"):
        return SectionResult("SKIP", columns, note="loveformal.scenarios is not available yet")
    from loveformal.scenarios import check_paths

    folder = scenarios_folder()
    files = sorted(folder.rglob("*.toml")) if folder.is_dir() else []
    if not files:
        return SectionResult("SKIP", columns, note=f"no scenario files in {folder} yet")
    reporter.start("scenarios", len(files))
    rows: list[tuple[object, ...]] = []
    failures: list[str] = []
    failed = 0
    try:
        for path in files:
            report = check_paths([path])
            bad = report.failed + len(report.errors)
            failed += bad
            rows.append(
                (
                    path.relative_to(folder).as_posix(),
                    len(report.results),
                    report.passed,
                    bad,
                    "PASS" if report.ok else "FAIL",
                )
            )
            failures.extend(r.line() for r in report.results if not r.passed)
            failures.extend(f"malformed: {e}" for e in report.errors)
            reporter.advance(1, f"{path.relative_to(folder)}: {'PASS' if report.ok else 'FAIL'}")
    finally:
        reporter.stop()
    checks = sum(int(str(r[1])) for r in rows)
    return SectionResult(
        "FAIL" if failed else "PASS",
        columns,
        rows,
        failures[:MAX_SHOWN],
        failed,
        f"{len(files)} scenario files, {checks} checks (scenario × ruleset) in {folder}",
    )


@section("proofs")
def _proofs_section(cfg: VerifyConfig, reporter: Reporter) -> SectionResult:
    """The Z3 proof obligations, fast tier (``loveformal prove --all`` runs the full set): one
    row per preset and player count; any obligation not proved is a failure."""
    from collections import Counter

    from loveformal.proofs.obligations import ObligationResult
    from loveformal.proofs.report import configurations, prove

    columns = ("preset", "players", "obligations", "proved", "not proved", "status")
    pairs = [(p, n) for p, n in configurations(None, "fast") if p in cfg.presets]
    if not pairs:
        return SectionResult("SKIP", columns, note="no modelled preset selected")
    reporter.start("proofs", len(pairs))
    rows: list[tuple[object, ...]] = []
    failures: list[str] = []
    by_preset: dict[str, list[ObligationResult]] = {}
    try:
        for preset, players in pairs:
            if preset not in by_preset:
                by_preset[preset] = prove(preset, "fast")
            results = [r for r in by_preset[preset] if r.players == players]
            counts = Counter(r.status for r in results)
            bad = [r for r in results if r.status != "proved"]
            failures.extend(f"{r.preset} {r.players}p {r.name}: {r.status}" for r in bad)
            status = "FAIL" if bad or not results else "PASS"
            rows.append((preset, players, len(results), counts["proved"], len(bad), status))
            reporter.advance(1, f"proofs {preset} {players}p: {status}")
    finally:
        reporter.stop()
    failed = sum(int(str(r[4])) for r in rows)
    return SectionResult(
        "FAIL" if failed or any(r[5] == "FAIL" for r in rows) else "PASS",
        columns,
        rows,
        failures[:MAX_SHOWN],
        failed,
        "Z3 obligations, fast tier (loveformal prove --all for every preset)",
    )


# -- progress ----------------------------------------------------------------------------------


class _BarReporter:
    """A rich progress bar on a terminal (stderr)."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._progress: Progress | None = None
        self._task: Any = None

    def start(self, description: str, total: int) -> None:
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self._console,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task(description, total=total)

    def advance(self, steps: int, line: str | None = None) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, steps)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


class _LineReporter:
    """Plain progress lines on stderr (through a pipe, in CI, in tests)."""

    def __init__(self) -> None:
        self._done = self._total = 0
        self._description = ""

    def start(self, description: str, total: int) -> None:
        self._description, self._done, self._total = description, 0, total

    def advance(self, steps: int, line: str | None = None) -> None:
        self._done += steps
        if line is not None:
            typer.echo(f"[{self._done}/{self._total}] {line}", err=True)

    def stop(self) -> None:
        pass


# -- the command -------------------------------------------------------------------------------


_NO_WRAP = frozenset({"preset", "status", "file"})


def _section_table(result: SectionResult) -> Table:
    table = Table(box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    numeric = {
        i
        for i, _ in enumerate(result.columns)
        if all(isinstance(r[i], int | float) for r in result.rows)
    }
    for i, col in enumerate(result.columns):
        if i in numeric:
            table.add_column(col, justify="right", no_wrap=True)
        else:
            table.add_column(col, overflow="fold", no_wrap=col in _NO_WRAP, min_width=6)
    for row in result.rows:
        table.add_row(*(str(v) for v in row))
    if result.note:
        table.caption = result.note
        table.caption_justify = "left"
    return table


def _cpu_count() -> int:
    """The CPU cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _section_json(name: str, result: SectionResult, seconds: float) -> dict[str, object]:
    return {
        "section": name,
        "status": result.status,
        "note": result.note,
        "rows": [dict(zip(result.columns, row, strict=True)) for row in result.rows],
        "failed": result.failed,
        "failures": result.failures,
        "seconds": round(seconds, 2),
    }


@app.command()
def verify(
    presets: Annotated[
        str | None, typer.Option(help="Comma-separated presets (default: all).")
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(help="Comma-separated player counts (default: every count allowed)."),
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option(
            min=1, help=f"Matches per preset and player count (default {DEFAULT_MATCHES})."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random matches.")] = 0,
    quick: Annotated[
        bool, typer.Option("--quick", help=f"{QUICK_MATCHES} matches per configuration.")
    ] = False,
    sections: Annotated[
        str | None,
        typer.Option(help=f"Comma-separated sections (default: all: {', '.join(SECTIONS)})."),
    ] = None,
    jobs: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: one per CPU core).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Check the engine: random matches under every invariant, and the rules scenarios."""
    with _bad_input_exits():
        if quick and matches is not None:
            raise _BadInput(
                f"--quick ({QUICK_MATCHES} matches) and --matches {matches} both set the matches "
                "per configuration: give one"
            )
        chosen = _split_list(presets, "--presets") or list(preset_names())
        for p in chosen:
            load_preset(p)  # unknown preset: a clear error, with a suggestion
        counts: list[int] = []
        for text in _split_list(players, "--players"):
            count = whole_number(text, 2)
            if count is None or count < 2:
                raise _BadInput(f"--players: {echo(text)} is not a player count (2 or more)")
            counts.append(count)
        names = _split_list(sections, "--sections") or list(SECTIONS)
        for section_name in names:
            if section_name not in SECTIONS:
                raise _BadInput(
                    f"unknown section {section_name!r}; known sections: {', '.join(SECTIONS)}"
                )
        cfg = VerifyConfig(
            presets=tuple(chosen),
            players=tuple(counts),
            matches=matches or (QUICK_MATCHES if quick else DEFAULT_MATCHES),
            seed=seed,
            jobs=jobs or _cpu_count(),
        )
        if counts and not _configs(cfg):
            raise _BadInput(f"--players {players}: no chosen preset allows that many players")
    err = _console(stderr=True)
    reporter: Reporter = _BarReporter(err) if err.is_terminal else _LineReporter()
    start = time.perf_counter()
    results: list[dict[str, object]] = []
    failed = False
    for name in names:
        t0 = time.perf_counter()
        result = SECTIONS[name](cfg, reporter)
        seconds = time.perf_counter() - t0
        failed = failed or result.status == "FAIL"
        results.append(_section_json(name, result, seconds))
        if json_out:
            continue
        if result.rows:
            _show(f"{name}: {result.status}", _section_table(result))
        else:
            _show(f"{name}: {result.status} — {result.note}")
        for failure in result.failures:
            typer.echo(f"FAIL {failure}")
        if result.failed > len(result.failures):
            _show(f"... and {result.failed - len(result.failures)} more")
    seconds = time.perf_counter() - start
    verdict = "FAIL" if failed else "PASS"
    if json_out:
        _print_json({"status": verdict, "seconds": round(seconds, 2), "sections": results})
    else:
        words = {"PASS": "passed", "FAIL": "failed", "SKIP": "skipped"}
        summary = ", ".join(
            f"{n} {word}"
            for status, word in words.items()
            if (n := sum(1 for r in results if r["status"] == status))
        )
        _show(f"verify: {verdict} (sections: {summary}) in {seconds:.1f} s")
    if failed:
        raise typer.Exit(EXIT_FAILED)


importlib.import_module("loveformal.solver.cli").register(app)  # solve + verify section


# ----------------------------------------------------------------------------------------------
# Entry point


class _OutputError(OSError):
    """Writing standard output failed (a full disk, an I/O error, a closed pipe)."""


class _Output:
    """Standard output, whose failed writes raise :class:`_OutputError`, so that ``main``
    tells them from any other ``OSError`` (which is a bug, and keeps its traceback)."""

    def __init__(self, wrapped: Any) -> None:
        self._wrapped = wrapped

    def write(self, text: str) -> int:
        try:
            n: int = self._wrapped.write(text)
        except OSError as e:
            raise _OutputError(e.errno, e.strerror) from e
        return n

    def flush(self) -> None:
        try:
            self._wrapped.flush()
        except OSError as e:
            raise _OutputError(e.errno, e.strerror) from e

    def __getattr__(self, name: str) -> Any:
        return getattr(self._wrapped, name)


def _null_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's own flush at exit
    does not fail again (with a traceback-like "Exception ignored" message)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line; exit 0 on success, 1 on a failed check, 2 on bad input, 3 when
    the output cannot be written (141 when its reader stopped reading)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with its standard output closed (``>&-``)
        _error_line("standard output is closed: there is nowhere to write the output")
        sys.exit(EXIT_OUTPUT)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = cast(TextIO, _Output(stdout))
    try:
        code = _run(args)
    except _OutputError as e:
        _null_stdout()
        if e.errno == errno.EPIPE:
            code = EXIT_PIPE
        else:
            _error_line(f"cannot write the output: {e.strerror or e}")
            code = EXIT_OUTPUT
    except SystemExit as e:
        # typer's own exit on a closed pipe (EPIPE), after it wrapped stdout and stderr to
        # pacify their final flush: status 1 would read as a failed check. Only when the
        # pipe was standard output's; any other keeps typer's exit.
        if not isinstance(e.__context__, _OutputError):
            raise
        _null_stdout()
        code = EXIT_PIPE
    finally:
        sys.stdout, sys.stderr = stdout, stderr
    sys.exit(code)


def _run(args: list[str]) -> int:
    """The command's exit status; bad input and usage errors as one line on stderr."""
    try:
        rv = app(args=args, prog_name=PROG, standalone_mode=False)
        return rv if isinstance(rv, int) else EXIT_OK
    except (LoveformalError, _BadInput) as e:
        _error_line(str(e))
        return EXIT_BAD_INPUT
    except typer.Abort:
        _error_line("aborted")
        return EXIT_FAILED
    except KeyboardInterrupt:
        _error_line("interrupted")
        return 130
    except _OutputError:
        raise
    except Exception as e:
        # Usage errors come from click (vendored by newer typer): they carry exit_code and
        # format_message. Anything else is a bug and keeps its traceback.
        exit_code = getattr(e, "exit_code", None)
        format_message = getattr(e, "format_message", None)
        if not isinstance(exit_code, int) or not callable(format_message):
            raise
        if type(e).__name__ == "NoArgsIsHelpError":  # a group called without a command
            help_text = str(format_message())
        else:
            ctx = getattr(e, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            _error_line(f"{format_message()}{hint}")
            return exit_code
    typer.echo(help_text)  # outside the handler: a failed write is the output's error alone
    return EXIT_OK


__all__ = [
    "SECTIONS",
    "SectionResult",
    "VerifyConfig",
    "app",
    "main",
    "scenarios_folder",
    "section",
]

if __name__ == "__main__":
    main()
