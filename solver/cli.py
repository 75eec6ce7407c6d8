"""``loveformal solve``: solve the rest of a round exactly (see :mod:`loveformal.solver.analysis`).

    loveformal solve POSITION [--seat P1] [--json] [--graph FILE] [--max-nodes N]
                              [--utility round|tokens] [--opponents MODEL | P2=MODEL,...]
                              [--prior FILE.py:NAME] [--no-pimc] [--reduce | --full]
                              [--older CARD] [--knew CARD]
                              [--shown CARD]

``POSITION`` is a position in the one-line notation (:mod:`loveformal.notation`), the path of
a file holding one, or the path of a scenario file (``.toml``, or any file whose text has no
``|``): its position under its first ruleset, after its moves. Bad input
(malformed, inconsistent, too large) is a one-line error and exit status 2.

:func:`verify_section` is the ``solver`` section of ``loveformal verify``: a few endgames
solved and compared with their hand-computed values (:data:`KNOWN_ENDGAMES`).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from loveformal.cards import Card
from loveformal.errors import LoveformalError, MalformedInput
from loveformal.notation import parse_position
from loveformal.paths import kind, not_a_file, notation_in_file, unwritable_file
from loveformal.seats import parse_seat, seat_name
from loveformal.state import State

from .analysis import EndgameResult, solve_position
from .endgame import UTILITIES, EndgameTooLarge, Utility
from .memory import auto_max_nodes, available_memory, describe_auto_max_nodes
from .plugins import load_function, parse_opponents

__all__ = [
    "KNOWN_ENDGAMES",
    "SolveProgress",
    "load_position",
    "register",
    "solve_command",
    "verify_section",
]

EXIT_BAD_INPUT = 2

KNOWN_ENDGAMES: tuple[tuple[str, str, str], ...] = (
    # (description, position, exact game value for the seat to move); each is worked out by
    # hand in tests/solver/test_endgame.py.
    (
        "classic, pile empty: Guard against Guard/Princess, P2 wins a tie",
        "classic 2p start:P2 | P1 Guard,Princess d:Priest,Baron,Handmaid,Guard t0 | "
        "P2 Guard d:Priest,Baron,Handmaid,Prince,Prince t0 | deck - | aside Guard | "
        "up King,Countess,Guard | play P1",
        "1/2",
    ),
    (
        "classic, pile empty: Guard against Guard/Princess, shared tie",
        "classic 2p start:P2 | P1 Guard,Princess d:Priest,Baron,Handmaid,Prince t0 | "
        "P2 Guard d:Priest,Baron,Handmaid,Prince,Guard t0 | deck - | aside Guard | "
        "up King,Countess,Guard | play P1",
        "3/4",
    ),
    (
        "classic, 1 card left: opponent under Handmaid, then its Guard",
        "classic 2p | P1 Guard,Guard d:Priest,Baron,Prince,Handmaid t0 | "
        "P2 Guard d:Priest,Baron,Prince,Handmaid t0 prot | deck Princess | aside Guard | "
        "up King,Countess,Guard | play P1",
        "-4/5",
    ),
    (
        "z2019, pile empty: Guard against Guard/Princess, ties shared (no tie-break)",
        "z2019 2p | P1 Guard,Princess d:Priest,Baron,Handmaid,Prince,Chancellor,Spy,Guard t0 | "
        "P2 Guard d:Priest,Baron,Handmaid,Prince,Chancellor,Spy,Guard t0 | deck - | "
        "aside Guard | up King,Countess,Guard | play P1",
        "3/4",
    ),
)


def load_position(text: str) -> State:
    """A notation string, a file holding one (any name but ``*.toml``; its text has a ``|``),
    or a scenario file (its position under its first ruleset, after its moves, with the log
    of those moves)."""
    if not text.strip():
        raise MalformedInput(
            "POSITION is empty: give a position in the notation, such as 'classic 2p | P1 "
            "Guard,Guard d:Priest,Baron,Prince,Handmaid t0 | P2 Guard d:Priest,Baron,Prince,"
            "Handmaid t0 prot | deck Princess | aside Guard | up King,Countess,Guard | play P1',"
            " or a scenario file"
        )
    path = Path(text)
    found = kind(text)
    if "|" not in text and (found is not None or "/" in text or path.suffix):
        # Not notation (which has '|'-separated sections): meant as a file.
        if found == "dir":
            raise MalformedInput(f"{text}: is a directory, not a scenario file or a position")
        if found is None:
            why = not_a_file(text)
            raise MalformedInput(f"{text}: {why} (and not a position in the notation)")
    if found == "file" and not text.lower().endswith(".toml"):
        notation = notation_in_file(path)  # a position saved in a file
        if notation is not None:
            try:
                return parse_position(notation)
            except MalformedInput as exc:
                raise MalformedInput(f"{text}: {exc}") from None
    if text.lower().endswith(".toml") or found == "file":
        from loveformal.scenarios.parse import initial_state, parse_file, ruleset_of
        from loveformal.scenarios.run import play_moves

        scenario = parse_file(path)
        state = initial_state(scenario.position, ruleset_of(scenario.rulesets[0]))
        try:
            return play_moves(state, scenario.moves)
        except LoveformalError as exc:
            raise MalformedInput(f"{path}: a move of the scenario fails: {exc}") from None
    return parse_position(text)


EXACT_DIGITS = 40
"""Longest exact fraction the report prints; longer ones are summarised (``--json`` has
them whole)."""


def _exact(x: Any) -> str:
    text = str(x)
    if len(text) > EXACT_DIGITS:
        text = f"a fraction with a {len(str(x.denominator)):,}-digit denominator: see --json"
    return text


def _frac(x: Any) -> str:
    return f"{float(x):+.6f} ({_exact(x)})"


def utility_text(utility: str, players: int) -> str:
    """What the values measure, for the seat solved for (see :func:`..endgame.terminal_utility`):
    with two players each is the seat's gain minus its opponent's."""
    if utility == "round":
        if players == 2:
            return "round win +1, loss -1, shared 0"
        return "1 if the seat is among the round's winners, else 0"
    if players == 2:
        return "tokens the seat gains to the end of the round minus its opponent's"
    return "tokens the seat gains to the end of the round"


def render(result: EndgameResult) -> str:
    """The human-readable report."""
    lines = [
        f"position: {result.position}",
        f"seat: {seat_name(result.seat)}   method: {result.method}   utility: {result.utility}"
        + f" ({utility_text(result.utility, result.players)})",
    ]
    if result.prior is not None:
        lines.append(f"prior over the deals: {result.prior}")
    if result.actions:
        lines.append("")
        width = max(len(a.text) for a in result.actions)
        pim = any(a.pimc is not None for a in result.actions)
        head = f"  {'action':<{width}}  {'prob':>8}  {'value':>10}  {'win':>7}"
        lines.append(head + ("  pimc" if pim else ""))
        for a in sorted(result.actions, key=lambda a: (-a.probability, -a.value)):
            row = f"  {a.text:<{width}}  {a.probability:8.4f}  {float(a.value):+10.6f}  "
            row += f"{a.win:7.4f}"
            if a.pimc is not None:
                row += f"  {float(a.pimc):+.6f}"
            if a.equivalent_to is not None:
                row += f"  (≡ {a.equivalent_to})"
            lines.append(row)
        lines.append("")
    lines.append(f"game value: {result.value_float:+.9f}")
    if result.bracket is not None:
        lo, hi = result.bracket
        lines.append(f"value bracket (exact): [{_frac(lo)}, {_frac(hi)}]")
    if result.value is not None:
        lines.append(f"exact value: {_exact(result.value)}")
    if result.exploitability is not None:
        verdict = "certified" if result.exploitability <= 1e-9 else "NOT certified"
        lines.append(
            f"exploitability (exact): {float(result.exploitability):.3e} ({verdict}, ≤ 1e-9)"
        )
    if result.pimc is not None:
        lines.append(f"determinized (PIMC) value: {_frac(result.pimc)}")
    s = result.sizes
    full = f" of {s.full_histories}" if s.full_histories > s.histories else ""
    lines.append(
        f"size: {s.deals} deals, {s.histories}{full} histories ({s.terminals} terminal), "
        f"infosets {'/'.join(map(str, s.infosets))}, sequences "
        f"{'/'.join(map(str, s.sequences))}"
    )
    lines.append("time: " + ", ".join(f"{k} {v:.2f} s" for k, v in result.seconds.items()))
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines)


class SolveProgress:
    """Progress lines of a long solve (the command line prints them on standard error).

    At most one line every :attr:`every` seconds, none in the first ones (a short solve
    prints nothing), plus one the moment the last deal is expanded after that (the reduced
    build then goes on to count histories, with ``done == total`` on every call: those are
    rate-limited like the rest; until the twenty-third session each one printed a line), and
    always one when the restricted LP gives up for the whole LP. ``clock`` is injectable for
    the tests."""

    every = 2.0

    def __init__(
        self, echo: Callable[[str], None], clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.echo, self.clock = echo, clock
        self.started = self.last = clock()
        self.all_dealt = False

    def build(self, done: int, total: int, nodes: int) -> None:
        """``Progress`` of :func:`~loveformal.solver.endgame.build_endgame`."""
        now = self.clock()
        last_deal = done == total and not self.all_dealt
        self.all_dealt = self.all_dealt or done == total
        if now - self.last >= self.every or (last_deal and now - self.started >= self.every):
            self.last = now
            # The reduced build expands the engine's positions first (no histories yet).
            made = f"{nodes:,} histories" if nodes else "expanding positions"
            self.echo(f"building: {done}/{total} deals, {made} ({now - self.started:.0f} s)")

    def lp(self, step: int, gap: float, selected: tuple[int, int]) -> None:
        """``StepProgress`` of :func:`~loveformal.solver.seqform.solve`."""
        now = self.clock()
        if step == 0:
            self.echo(
                f"LP: the restricted game gave up; solving the whole LP ({sum(selected):,} "
                f"sequences, {now - self.started:.0f} s)"
            )
        elif now - self.last >= self.every:
            self.last = now
            self.echo(
                f"LP: restricted game {step}, {sum(selected):,} sequences, best-response "
                f"gap {gap:.1e} ({now - self.started:.0f} s)"
            )


def _fail(message: str) -> typer.Exit:
    typer.echo(f"loveformal: error: {' '.join(message.split())}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def solve_command(
    position: Annotated[
        str,
        typer.Argument(
            help="A position in the notation, a file holding one, or a scenario file (.toml)."
        ),
    ],
    seat: Annotated[
        str | None, typer.Option(help="The solving seat (default: the seat to move).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    graph: Annotated[
        str | None, typer.Option(help="Write the game tree as GraphML to this file.")
    ] = None,
    max_nodes: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Refuse endgames with more histories than this (a build also "
            "expands at most max(100000, N/4) distinct positions, N/8 for --full and "
            "three or more players; estimated first). Default: what half the memory "
            "available holds at 1 KB per history, between 1,000,000 and 12,000,000 "
            "(3,000,000 if the memory cannot be read).",
        ),
    ] = None,
    utility: Annotated[
        str,
        typer.Option(
            help="round (2 players: win +1 / loss -1 / shared 0; more: 1 for a winner, else 0) "
            "or tokens (gained; 2 players: minus the opponent's)."
        ),
    ] = "round",
    opponents: Annotated[
        str | None,
        typer.Option(
            help="Opponent model for a best response: random, heuristic, or your own "
            "function FILE.py:NAME or MODULE:NAME, called once per information set as "
            "NAME(observation, legal) -> one action, or {action: probability} (an action "
            "may be given as its text); for every opponent, or per seat as "
            "P2=MODEL,P3=MODEL. Default with 3+ players: random; with 2 players: none "
            "(equilibrium)."
        ),
    ] = None,
    prior: Annotated[
        str | None,
        typer.Option(
            help="Your prior over the root deals, FILE.py:NAME or MODULE:NAME, called as "
            "NAME(deal_state, arrangements) -> weight (a number >= 0; arrangements is the "
            "uniform weight). Default: every arrangement of the cards equally likely."
        ),
    ] = None,
    no_pimc: Annotated[bool, typer.Option("--no-pimc", help="Skip the PIMC value.")] = False,
    reduce: Annotated[
        bool,
        typer.Option(
            "--reduce/--full",
            help="Solve the reduced game (dominated actions, forced moves and choice-free "
            "subtrees left out; same value) or the full tree.",
        ),
    ] = True,
    older: Annotated[
        str | None,
        typer.Option(
            help="The card the seat to move held before its draw, when the discard piles "
            "show the other seat saw it or was handed it (a Priest or King on top of that "
            "seat's pile) and its two cards differ: its action table needs it."
        ),
    ] = None,
    knew: Annotated[
        str | None,
        typer.Option(
            help="The other seat's card that the seat to move knew from its own last play "
            "(its Priest saw it, its Baron tied with it, its King handed it over: that card "
            "on top of its pile, the other seat's one play since a Guard, Handmaid, "
            "Countess or Spy), when the other seat's card and the card it played since "
            "differ: its action table needs it."
        ),
    ] = None,
    shown: Annotated[
        str | None,
        typer.Option(
            help="The seat to move's card that the other seat knew from its play before its "
            "last (its Priest saw it, its Baron tied with it, its King handed it over: that "
            "card under the other seat's top discard, a Guard, Handmaid, Countess or Spy by "
            "each seat since), when that card and the seat to move's top discard differ: its "
            "action table needs it."
        ),
    ] = None,
) -> None:
    """Solve the rest of the round exactly: equilibrium (2 players) or best response."""
    if graph is not None:
        problem = unwritable_file(graph)
        if problem is not None:  # said before solving, not after
            raise _fail(f"--graph: cannot write {graph!r}: {problem}")
    available = available_memory() if max_nodes is None else None
    limit = auto_max_nodes(available) if max_nodes is None else max_nodes
    try:
        state = load_position(position)
        try:
            seat_index = parse_seat(seat, state.players) if seat is not None else None
        except ValueError as exc:
            raise MalformedInput(f"--seat: {exc}") from None
        if utility not in UTILITIES:
            raise MalformedInput(f"--utility: expected one of {', '.join(UTILITIES)}")
        model = None if opponents is None else parse_opponents(opponents, state.players)
        deal_prior = None if prior is None else load_function(prior, "--prior")
        try:
            older_card = None if older is None else Card.parse(older)
        except KeyError as exc:
            raise MalformedInput(f"--older: {exc.args[0]}") from None
        try:
            knew_card = None if knew is None else Card.parse(knew)
        except KeyError as exc:
            raise MalformedInput(f"--knew: {exc.args[0]}") from None
        try:
            shown_card = None if shown is None else Card.parse(shown)
        except KeyError as exc:
            raise MalformedInput(f"--shown: {exc.args[0]}") from None
        util: Utility = utility
        report = SolveProgress(lambda line: typer.echo(line, err=True))
        result = solve_position(
            state,
            seat=seat_index,
            utility=util,
            opponents=model,
            max_nodes=limit,
            prior=deal_prior,
            pimc=not no_pimc,
            progress=report.build,
            reduce=reduce,
            lp_progress=report.lp,
            older=older_card,
            knew=knew_card,
            shown=shown_card,
        )
    except EndgameTooLarge as exc:
        said = "" if max_nodes is not None else f"; {describe_auto_max_nodes(available)}"
        raise _fail(f"{exc}{said}") from None
    except (LoveformalError, ValueError) as exc:
        raise _fail(str(exc)) from None
    except MemoryError:
        raise _fail(
            "out of memory while solving; lower --max-nodes (a smaller endgame is refused "
            "before it is built) or solve a later position"
        ) from None
    if graph is not None:
        from .graph import write_graphml

        try:
            write_graphml(result.game, Path(graph))
        except OSError as exc:
            raise _fail(f"--graph: cannot write {graph}: {exc.strerror or exc}") from None
    if prior is not None:
        result = replace(result, prior=prior)  # named as the user wrote it
    if json_out:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        typer.echo(render(result))
        if graph is not None:
            typer.echo(f"graph: {graph}")


def verify_section(cfg: object, reporter: Any) -> Any:
    """The ``solver`` section of ``loveformal verify``: the :data:`KNOWN_ENDGAMES`."""
    from fractions import Fraction

    from loveformal.cli import SectionResult

    columns = ("endgame", "expected", "value", "exploitability", "status", "time")
    rows: list[tuple[object, ...]] = []
    failures: list[str] = []
    reporter.start("solved endgames", len(KNOWN_ENDGAMES))
    try:
        for name, text, expected in KNOWN_ENDGAMES:
            t = time.perf_counter()
            result = solve_position(parse_position(text), pimc=False, reduce=True)
            exp = Fraction(expected)
            lo, hi = result.bracket or (Fraction(1), Fraction(-1))
            ok = lo <= exp <= hi and (result.exploitability or 0) <= Fraction(1, 10**9)
            ok = ok and abs(result.value_float - float(exp)) < 1e-7
            rows.append(
                (
                    name,
                    expected,
                    round(result.value_float, 9),
                    float(result.exploitability or 0),
                    "PASS" if ok else "FAIL",
                    round(time.perf_counter() - t, 2),
                )
            )
            if not ok:
                failures.append(f"{name}: expected {expected}, got {result.value_float}")
            reporter.advance(1, f"{name}: {'PASS' if ok else 'FAIL'}")
    finally:
        reporter.stop()
    return SectionResult(
        "FAIL" if failures else "PASS",
        columns,
        rows,
        failures,
        len(failures),
        "2-player endgames solved exactly (LP + exact certificate) against hand-computed values",
    )


def register(app: typer.Typer) -> None:
    """Add ``solve`` to ``app`` and the ``solver`` section to ``loveformal verify``."""
    app.command("solve")(solve_command)
    cli = sys.modules.get("loveformal.cli")
    section = getattr(cli, "section", None)
    if section is not None:
        section("solver")(verify_section)
