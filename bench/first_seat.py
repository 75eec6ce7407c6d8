"""First-seat advantage under uniformly random play, per preset and player count.

    python bench/first_seat.py --rounds 100000 --workers 2            # a table
    python bench/first_seat.py --rounds 100000 --workers 2 --json     # one JSON object per line

Each round is dealt fresh (a new match, so no tokens carry over) with P1 starting, and played to
its end by uniformly random legal decisions with chance sampled at its exact probabilities. A
round with several winners counts for each of them. Reported: P1's round-win rate with a 95%
Wilson interval, against the fair share 1/n. Reproducible from the seed: configuration
``(preset, players)`` uses ``random.Random(f"{seed}:{preset}:{players}")``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from loveformal.engine import new_match
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step
from loveformal.state import GAME_OVER, ROUND_OVER


@dataclass(frozen=True)
class Row:
    preset: str
    players: int
    rounds: int
    first_seat_wins: int
    seconds: float

    def interval(self) -> tuple[float, float, float]:
        """P1's win rate and its 95% Wilson interval."""
        n, k, z = self.rounds, self.first_seat_wins, 1.96
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return p, centre - half, centre + half


def run(job: tuple[str, int, int, int]) -> Row:
    preset, players, rounds, seed = job
    rules = make_ruleset(preset)
    rng = random.Random(f"{seed}:{preset}:{players}")
    wins = 0
    start = time.perf_counter()
    for _ in range(rounds):
        state = new_match(rules, players, starter=0)
        while state.phase is not ROUND_OVER and state.phase is not GAME_OVER:
            state, _ = random_step(state, rng)
        wins += 0 in state.round_winners
    return Row(preset, players, rounds, wins, time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    jobs = []
    for preset in args.preset or preset_names():
        rules = make_ruleset(preset)
        for n in range(rules.min_players, rules.max_players + 1):
            jobs.append((preset, n, args.rounds, args.seed))
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        rows = list(pool.map(run, jobs))
    if not args.json:
        print(
            f"{'preset':<14} {'players':>7} {'rounds':>8} {'P1 wins':>8} {'95% CI':>17} {'fair':>6}"
        )
    for r in rows:
        p, lo, hi = r.interval()
        if args.json:
            row = {"preset": r.preset, "players": r.players, "rounds": r.rounds,
                   "first_seat_win_rate": round(p, 4), "ci95": [round(lo, 4), round(hi, 4)],
                   "fair_share": round(1 / r.players, 4)}  # fmt: skip
            print(json.dumps(row))
        else:
            print(
                f"{r.preset:<14} {r.players:>7} {r.rounds:>8} {p:>8.1%} "
                f"[{lo:>6.1%}, {hi:>6.1%}] {1 / r.players:>6.1%}"
            )


if __name__ == "__main__":
    main()
