"""Simulation at scale: bots play many seeded matches (or single rounds), and statistics.

    loveformal simulate --preset classic --players 2 --games 1000 --bots heuristic,random
                        [--seed S] [--rounds] [--workers K] [--backend local|ray]
                        [--address ADDR] [--compare-presets a,b] [--json] [--plot FILE]

Game ``g`` is played from ``random.Random(f"{seed}:{g}")`` alone (chance and every bot's
choices), and seat ``s`` is given bot ``bots[(s + g) % len(bots)]`` (seats rotate, so each bot
sits in every seat equally often). Hence the records, and every figure computed from them,
are the same whatever the number of workers or the backend (one process, local processes
with the ``spawn`` start method, or Ray tasks each playing a batch of games).

Figures (:func:`summarise`): per bot and per seat, match and round win rates with Wilson 95%
intervals; the first seat's advantage (P1 starts the first round; the starter of each
round); rounds per match; turns per round; how rounds end (one player left standing, a
showdown at the empty deck, or a bonus token ending the match mid-round); bonus tokens
(Spy, Jester, Constable, Bishop, from the event log) and card-play frequencies.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from loveformal import events as K
from loveformal.bots.base import Bot, decide
from loveformal.bots.registry import make_bot
from loveformal.engine import apply, new_match
from loveformal.errors import LoveformalError, MalformedInput
from loveformal.paths import unwritable_file
from loveformal.rulebook import make_ruleset
from loveformal.sampling import sample_chance
from loveformal.seats import seat_name
from loveformal.state import CHANCE_PHASES, ROUND_OVER, State

__all__ = [
    "GameRecord",
    "RoundRecord",
    "SimSpec",
    "play_game",
    "register",
    "run",
    "summarise",
    "wilson",
]

Z95 = 1.959963984540054
MAX_STEPS = 200_000


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class SimSpec:
    """What to simulate: a ruleset, a table, the bots (by name) and the seed."""

    preset: str
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    rounds: bool = False
    """Single rounds instead of whole matches."""

    def check(self) -> None:
        """Raise :class:`MalformedInput` for an unknown preset or bot or a bad table."""
        rules = make_ruleset(self.preset)
        try:
            rules.deck(self.players)
        except ValueError as e:
            raise MalformedInput(f"--players {self.players}: {e}") from None
        if not self.bots:
            raise MalformedInput("--bots: give at least one bot")
        if len(self.bots) > self.players:
            raise MalformedInput(
                f"--bots: {len(self.bots)} bots for {self.players} seats (at most one per seat)"
            )
        for b in self.bots:
            make_bot(b)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    starter: int
    winners: tuple[int, ...]
    turns: int
    """Cards played in the round (one per turn)."""
    end: str
    """``last_standing``, ``showdown`` or ``bonus`` (a bonus token ended the match)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game (a match, or a round with ``--rounds``), as plain picklable values."""

    index: int
    seat_bots: tuple[str, ...]
    winners: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]
    bonus: tuple[tuple[int, str], ...]
    """``(seat, reason)`` for each token not won by winning a round."""
    plays: tuple[tuple[int, str], ...]
    """``(seat, card title)`` for each card played, in order."""


def seat_bots(spec: SimSpec, index: int) -> tuple[str, ...]:
    """The bot name of each seat in game ``index`` (rotating seats)."""
    n = len(spec.bots)
    return tuple(spec.bots[(s + index) % n] for s in range(spec.players))


_BOTS: dict[str, Bot] = {}


def _bot(name: str) -> Bot:
    bot = _BOTS.get(name)
    if bot is None:
        bot = _BOTS[name] = make_bot(name)
    return bot


def _round_record(state: State) -> tuple[RoundRecord, list[tuple[int, str]], list[tuple[int, str]]]:
    turns = 0
    end = "bonus"
    bonus: list[tuple[int, str]] = []
    plays: list[tuple[int, str]] = []
    for e in state.log:
        if e.kind is K.PLAYED and e.seat is not None and e.card is not None:
            turns += 1
            plays.append((e.seat, e.card.title))
        elif e.kind is K.SHOWDOWN:
            end = "showdown"
        elif e.kind is K.ROUND_WON and end == "bonus":
            end = "last_standing"
        elif e.kind is K.TOKEN and e.seat is not None and e.note != "round win":
            bonus.append((e.seat, e.note))
    winners = state.round_winners or state.game_winners
    return RoundRecord(state.starter, winners, turns, end), bonus, plays


def play_game(spec: SimSpec, index: int) -> GameRecord:
    """Play game ``index`` of ``spec`` (see the module docstring for the seeding)."""
    rng = random.Random(f"{spec.seed}:{index}")
    names = seat_bots(spec, index)
    bots = [_bot(n) for n in names]
    state = new_match(make_ruleset(spec.preset), spec.players, starter=0)
    rounds: list[RoundRecord] = []
    bonus: list[tuple[int, str]] = []
    plays: list[tuple[int, str]] = []
    steps = 0
    while not state.game_over:
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"game {index} did not end after {MAX_STEPS} steps")
        if state.phase in CHANCE_PHASES:
            state = apply(state, sample_chance(state, rng))
        else:
            seat = state.pending_seat if state.pending_seat is not None else state.turn
            state = apply(state, decide(state, bots[seat], rng))
        if state.round_over:
            record, b, p = _round_record(state)
            rounds.append(record)
            bonus.extend(b)
            plays.extend(p)
            if spec.rounds:
                break
            if state.phase is ROUND_OVER:
                state = apply(state, sample_chance(state, rng))
    winners = rounds[-1].winners if spec.rounds else state.game_winners
    return GameRecord(index, names, winners, tuple(rounds), tuple(bonus), tuple(plays))


def play_batch(spec: SimSpec, indices: Sequence[int]) -> list[GameRecord]:
    """Games ``indices`` of ``spec`` (the unit of work of a worker or a Ray task)."""
    return [play_game(spec, i) for i in indices]


# ----------------------------------------------------------------------------- running


Progress_ = Callable[[int], None]


MAX_GAMES = 10_000_000
"""The most games one run plays: their records are kept in memory (about 1 KB each)."""


def _batches(games: int, size: int) -> list[list[int]]:
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def run(
    spec: SimSpec,
    games: int,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    batch: int | None = None,
    progress: Progress_ | None = None,
) -> list[GameRecord]:
    """Play games ``0..games-1`` of ``spec``; the records in game order (the same for any
    ``workers``, ``backend`` and ``batch``)."""
    spec.check()
    if games < 1:
        raise MalformedInput("--games: at least one game")
    if games > MAX_GAMES:
        raise MalformedInput(
            f"--games: at most {MAX_GAMES:,} (every game's record is kept for the report), "
            f"got {games:,}"
        )
    if workers < 1:
        raise MalformedInput("--workers: at least one worker")
    size = batch or max(1, min(200, math.ceil(games / (4 * workers))))
    batches = _batches(games, size)
    out: list[GameRecord] = []
    if backend == "ray":
        out = _run_ray(spec, batches, workers, address, progress)
    elif backend != "local":
        raise MalformedInput(f"--backend {backend!r}: expected local or ray")
    elif workers == 1:
        for b in batches:
            out.extend(play_batch(spec, b))
            if progress is not None:
                progress(len(b))
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            futures = [pool.submit(play_batch, spec, b) for b in batches]
            for f in as_completed(futures):
                records = f.result()
                out.extend(records)
                if progress is not None:
                    progress(len(records))
    out.sort(key=lambda r: r.index)
    return out


def _run_ray(
    spec: SimSpec,
    batches: list[list[int]],
    workers: int,
    address: str | None,
    progress: Progress_ | None,
) -> list[GameRecord]:
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise MalformedInput("--backend ray needs Ray: pip install 'loveformal[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        task = ray.remote(play_batch)
        pending = [task.remote(spec, b) for b in batches]
        out: list[GameRecord] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                records: list[GameRecord] = ray.get(ref)
                out.extend(records)
                if progress is not None:
                    progress(len(records))
        return out
    finally:
        if started:
            ray.shutdown()


# ----------------------------------------------------------------------------- statistics


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (``(0, 1)`` when n = 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def newcombe(k1: float, n1: int, k2: float, n2: int) -> tuple[float, float, float]:
    """Difference p1 - p2 with Newcombe's hybrid score 95% interval (from Wilson intervals)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"wins": k, "of": n, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def _mean_sd(xs: Sequence[float]) -> dict[str, float]:
    if not xs:
        return {"mean": 0.0, "sd": 0.0}
    return {"mean": statistics.fmean(xs), "sd": statistics.pstdev(xs) if len(xs) > 1 else 0.0}


def summarise(spec: SimSpec, records: Sequence[GameRecord]) -> dict[str, Any]:
    """Every figure of a simulation, as JSON-ready data (see the module docstring)."""
    n = spec.players
    bot_games: Counter[str] = Counter()
    bot_wins: Counter[str] = Counter()
    bot_rounds: Counter[str] = Counter()
    bot_round_wins: Counter[str] = Counter()
    seat_wins: Counter[int] = Counter()
    seat_round_wins: Counter[int] = Counter()
    starter_wins = 0
    total_rounds = 0
    ends: Counter[str] = Counter()
    bonus: Counter[str] = Counter()
    bonus_by_bot: dict[str, Counter[str]] = {}
    plays: dict[str, Counter[str]] = {}
    turns: list[float] = []
    rounds_per: list[float] = []
    for r in records:
        for s, name in enumerate(r.seat_bots):
            bot_games[name] += 1
            if s in r.winners:
                bot_wins[name] += 1
                seat_wins[s] += 1
        rounds_per.append(len(r.rounds))
        for rd in r.rounds:
            total_rounds += 1
            ends[rd.end] += 1
            turns.append(rd.turns)
            if rd.starter in rd.winners:
                starter_wins += 1
            for s, name in enumerate(r.seat_bots):
                bot_rounds[name] += 1
                if s in rd.winners:
                    bot_round_wins[name] += 1
                    seat_round_wins[s] += 1
        for s, reason in r.bonus:
            bonus[reason] += 1
            bonus_by_bot.setdefault(r.seat_bots[s], Counter())[reason] += 1
        for s, card in r.plays:
            plays.setdefault(r.seat_bots[s], Counter())[card] += 1
    games = len(records)
    bots = sorted(bot_games)
    p1 = _rate(seat_wins[0], games)
    return {
        "preset": spec.preset,
        "players": n,
        "games": games,
        "unit": "round" if spec.rounds else "match",
        "seed": spec.seed,
        "bots": list(spec.bots),
        "per_bot": {
            b: {
                "seats_played": bot_games[b],
                "match": _rate(bot_wins[b], bot_games[b]),
                "round": _rate(bot_round_wins[b], bot_rounds[b]),
            }
            for b in bots
        },
        "per_seat": {
            seat_name(s): {
                "match": _rate(seat_wins[s], games),
                "round": _rate(seat_round_wins[s], total_rounds),
            }
            for s in range(n)
        },
        "first_seat": {
            "match_win_rate_P1": p1,
            "match_advantage": p1["rate"] - 1 / n,
            "starter_round_win_rate": _rate(starter_wins, total_rounds),
            "round_advantage": (starter_wins / total_rounds if total_rounds else 0.0) - 1 / n,
            "even_share": 1 / n,
        },
        "rounds_per_game": _mean_sd(rounds_per),
        "turns_per_round": _mean_sd(turns),
        "round_ends": {
            k: {"count": ends[k], "share": ends[k] / total_rounds if total_rounds else 0.0}
            for k in ("last_standing", "showdown", "bonus")
        },
        "bonus_tokens": {
            "total": dict(sorted(bonus.items())),
            "per_bot": {b: dict(sorted(c.items())) for b, c in sorted(bonus_by_bot.items())},
        },
        "card_plays": {
            b: {
                card: {"count": k, "share": k / sum(c.values())}
                for card, k in sorted(c.items(), key=lambda kv: -kv[1])
            }
            for b, c in sorted(plays.items())
        },
    }


def compare_summaries(summaries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each preset against the first: per bot match and round win-rate differences (Newcombe
    95% intervals) and the difference in rounds per game and turns per round."""
    base = summaries[0]
    out: list[dict[str, Any]] = []
    for other in summaries[1:]:
        rows: dict[str, Any] = {}
        for b, st in other["per_bot"].items():
            ref = base["per_bot"].get(b)
            if ref is None:
                continue
            row: dict[str, Any] = {}
            for unit in ("match", "round"):
                d, lo, hi = newcombe(
                    st[unit]["wins"], st[unit]["of"], ref[unit]["wins"], ref[unit]["of"]
                )
                row[unit] = {"difference": d, "ci95": [lo, hi]}
            rows[b] = row
        out.append(
            {
                "preset": other["preset"],
                "against": base["preset"],
                "per_bot": rows,
                "rounds_per_game": other["rounds_per_game"]["mean"]
                - base["rounds_per_game"]["mean"],
                "turns_per_round": other["turns_per_round"]["mean"]
                - base["turns_per_round"]["mean"],
                "showdown_share": other["round_ends"]["showdown"]["share"]
                - base["round_ends"]["showdown"]["share"],
            }
        )
    return out


# ----------------------------------------------------------------------------- rendering


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    return f"{_pct(r['rate'])} [{_pct(lo)}, {_pct(hi)}]"


def summary_tables(s: dict[str, Any]) -> list[Table | str]:
    """The summary as rich tables (and a few lines of text)."""
    unit = s["unit"]
    head = (
        f"{s['preset']}, {s['players']} players, {s['games']} {unit}es"
        if unit == "match"
        else f"{s['preset']}, {s['players']} players, {s['games']} single rounds"
    )
    out: list[Table | str] = [f"{head}, seed {s['seed']}, bots {','.join(s['bots'])}"]
    t = Table(box=box.SIMPLE_HEAD, title="per bot (95% Wilson intervals)", title_justify="left")
    for col in ("bot", "seats", "match wins", "round wins"):
        t.add_column(col)
    for b, st in s["per_bot"].items():
        t.add_row(b, str(st["seats_played"]), _ci(st["match"]), _ci(st["round"]))
    out.append(t)
    t = Table(box=box.SIMPLE_HEAD, title="per seat", title_justify="left")
    for col in ("seat", "match wins", "round wins"):
        t.add_column(col)
    for seat, st in s["per_seat"].items():
        t.add_row(seat, _ci(st["match"]), _ci(st["round"]))
    out.append(t)
    fs = s["first_seat"]
    ends = s["round_ends"]
    out.append(
        f"first seat: P1 wins {_ci(fs['match_win_rate_P1'])} of {unit}es "
        f"(even share {_pct(fs['even_share'])}, advantage {100 * fs['match_advantage']:+.1f} "
        f"points); the round's starter wins {_ci(fs['starter_round_win_rate'])} of rounds\n"
        f"rounds per {unit}: {s['rounds_per_game']['mean']:.2f} "
        f"(sd {s['rounds_per_game']['sd']:.2f}); turns per round: "
        f"{s['turns_per_round']['mean']:.2f} (sd {s['turns_per_round']['sd']:.2f})\n"
        "round ends: "
        + ", ".join(f"{k.replace('_', ' ')} {_pct(v['share'])}" for k, v in ends.items())
        + "\nbonus tokens: "
        + (", ".join(f"{k} {v}" for k, v in s["bonus_tokens"]["total"].items()) or "none")
    )
    t = Table(
        box=box.SIMPLE_HEAD, title="card plays (share of each bot's plays)", title_justify="left"
    )
    t.add_column("bot")
    t.add_column("plays")
    for b, cards in s["card_plays"].items():
        t.add_row(b, ", ".join(f"{c} {_pct(v['share'])}" for c, v in cards.items()))
    out.append(t)
    return out


def comparison_table(rows: list[dict[str, Any]]) -> Table:
    t = Table(
        box=box.SIMPLE_HEAD,
        title="preset differences (row minus first preset, 95% Newcombe intervals)",
        title_justify="left",
    )
    for col in ("preset", "bot", "match win diff", "round win diff"):
        t.add_column(col)
    for r in rows:
        for b, st in r["per_bot"].items():
            cells = []
            for unit in ("match", "round"):
                d = st[unit]
                lo, hi = d["ci95"]
                cells.append(f"{100 * d['difference']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
            t.add_row(f"{r['preset']} - {r['against']}", b, *cells)
    return t


def write_plot(summaries: Sequence[dict[str, Any]], path: str) -> None:
    """A PNG of each bot's match win rate with its 95% interval (one group per preset)."""
    try:
        matplotlib: Any = importlib.import_module("matplotlib")
    except ImportError:
        raise MalformedInput("--plot needs matplotlib: pip install 'loveformal[plot]'") from None
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    fig, ax = plt.subplots(figsize=(7, 4))
    bots = sorted({b for s in summaries for b in s["per_bot"]})
    width = 0.8 / max(1, len(summaries))
    for k, s in enumerate(summaries):
        xs, ys, lo, hi = [], [], [], []
        for i, b in enumerate(bots):
            st = s["per_bot"].get(b)
            if st is None:
                continue
            r = st["round" if s["unit"] == "round" else "match"]
            xs.append(i + k * width)
            ys.append(r["rate"])
            lo.append(max(0.0, r["rate"] - r["ci95"][0]))
            hi.append(max(0.0, r["ci95"][1] - r["rate"]))
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=4, label=s["preset"])
    ax.axhline(1 / summaries[0]["players"], color="grey", linestyle="--", linewidth=1)
    ax.set_xticks([i + width * (len(summaries) - 1) / 2 for i in range(len(bots))], bots)
    ax.set_ylabel(f"{summaries[0]['unit']} win rate (95% CI)")
    ax.set_title(f"{summaries[0]['players']} players, {summaries[0]['games']} games per preset")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


# ----------------------------------------------------------------------------- command


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, markup=False, highlight=False, emoji=False, width=None)


def _show(items: Iterable[Table | str]) -> None:
    console = _console()
    if console.is_terminal:
        for item in items:
            console.print(item)
        return
    console = Console(markup=False, highlight=False, emoji=False, width=160)
    with console.capture() as captured:
        for item in items:
            console.print(item)
    typer.echo("\n".join(line.rstrip() for line in captured.get().splitlines()))


def _advancer(bar: Progress, task: Any) -> Progress_:
    def advance(k: int) -> None:
        bar.advance(task, k)

    return advance


def _split(text: str, what: str, *, unique: bool = False) -> tuple[str, ...]:
    items = tuple(t.strip() for t in text.split(","))
    if not all(items):
        raise MalformedInput(f"{what}: empty name in {text!r}")
    twice = next((t for i, t in enumerate(items) if t in items[:i]), None)
    if unique and twice is not None:
        raise MalformedInput(f"{what}: {twice!r} is given twice")
    return items


def simulate_command(
    preset: Annotated[str, typer.Option(help="The preset (ruleset).")] = "classic",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 2,
    games: Annotated[int, typer.Option(help="Matches (or rounds with --rounds) to play.")] = 100,
    bots: Annotated[
        str,
        typer.Option(
            help="Comma-separated bots, rotated over the seats: random, heuristic, "
            "ismcts, ismcts:N."
        ),
    ] = "heuristic,random",
    seed: Annotated[int, typer.Option(help="Seed: game g is played from (seed, g).")] = 0,
    rounds: Annotated[
        bool, typer.Option("--rounds", help="Single rounds instead of whole matches.")
    ] = False,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes (or Ray CPUs).")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (with --backend ray).")
    ] = None,
    compare_presets: Annotated[
        str | None,
        typer.Option(help="Comma-separated presets played on the same seeds, compared."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    plot: Annotated[
        str | None, typer.Option(help="Write a PNG chart of the win rates (needs matplotlib).")
    ] = None,
) -> None:
    """Bots play many seeded matches; win rates with 95% intervals and game statistics."""
    try:
        presets = (
            _split(compare_presets, "--compare-presets", unique=True)
            if compare_presets is not None
            else (preset,)
        )
        specs = [SimSpec(p, players, _split(bots, "--bots"), seed, rounds) for p in presets]
        for spec in specs:
            spec.check()
        if backend not in ("local", "ray"):
            raise MalformedInput(f"--backend {backend!r}: expected local or ray")
        if address and backend != "ray":
            raise MalformedInput("--address needs --backend ray")
        if plot is not None:
            problem = unwritable_file(plot)
            if problem is None and not plot.lower().endswith(".png"):
                problem = "the chart is a PNG: give a name ending in .png"
            if problem is not None:  # said before the games, not after
                raise MalformedInput(f"--plot: cannot write {plot!r}: {problem}")
            try:
                importlib.import_module("matplotlib")
            except ImportError:
                raise MalformedInput(
                    "--plot needs matplotlib: pip install 'loveformal[plot]'"
                ) from None
        summaries: list[dict[str, Any]] = []
        err = _console(stderr=True)
        for spec in specs:
            if err.is_terminal:
                with Progress(
                    TextColumn(f"{spec.preset}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    console=err,
                    transient=True,
                ) as bar:
                    task = bar.add_task(spec.preset, total=games)
                    records = run(
                        spec,
                        games,
                        workers=workers,
                        backend=backend,
                        address=address,
                        progress=_advancer(bar, task),
                    )
            else:
                records = run(spec, games, workers=workers, backend=backend, address=address)
            summaries.append(summarise(spec, records))
        if plot is not None:
            try:
                write_plot(summaries, plot)
            except OSError as exc:  # the file system changed while the games ran
                raise MalformedInput(f"--plot: cannot write {plot!r}: {exc.strerror}") from None
    except LoveformalError as e:
        typer.echo(f"loveformal: error: {' '.join(str(e).split())}", err=True)
        raise typer.Exit(2) from None
    comparison = compare_summaries(summaries) if len(summaries) > 1 else []
    if json_out:
        data: dict[str, Any] = (
            summaries[0]
            if len(summaries) == 1
            else {"presets": summaries, "comparison": comparison}
        )
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        items: list[Table | str] = []
        for s in summaries:
            items.extend(summary_tables(s))
        if comparison:
            items.append(comparison_table(comparison))
        if plot:
            items.append(f"plot written to {plot}")
        _show(items)
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""
    app.command("simulate")(simulate_command)


def records_json(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """The records as JSON-ready data."""
    return [asdict(r) for r in records]
