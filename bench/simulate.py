"""Simulation throughput: games per second per bot pairing, and scaling from 1 to 2 workers.

    .venv/bin/python bench/simulate.py [--preset classic] [--players 2] [--games 200]
                                       [--ismcts-games 10] [--json]

Each pairing plays whole matches with :func:`loveformal.simulate.run` (seats rotate); the
scaling line runs the same games with ``workers=1`` and ``workers=2`` (spawned processes,
start-up included) and prints the ratio of the two rates, plus a check that the records are
identical.
"""

from __future__ import annotations

import argparse
import json
import time

from loveformal.simulate import SimSpec, run

PAIRINGS: tuple[tuple[str, ...], ...] = (
    ("random", "random"),
    ("heuristic", "random"),
    ("heuristic", "heuristic"),
    ("ismcts:50", "random"),
)


def _rate(spec: SimSpec, games: int, workers: int) -> tuple[float, list[object]]:
    start = time.perf_counter()
    records = run(spec, games, workers=workers)
    return games / (time.perf_counter() - start), list(records)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--ismcts-games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []
    for pairing in PAIRINGS:
        bots = tuple((pairing * args.players)[: args.players])
        spec = SimSpec(args.preset, args.players, bots[: len(pairing)], args.seed)
        games = args.ismcts_games if any(b.startswith("ismcts") for b in pairing) else args.games
        rate, _ = _rate(spec, games, 1)
        rows.append({"bots": ",".join(pairing), "games": games, "games_per_s": round(rate, 2)})
    spec = SimSpec(args.preset, args.players, ("heuristic", "random"), args.seed)
    one, rec1 = _rate(spec, args.games, 1)
    two, rec2 = _rate(spec, args.games, 2)
    scaling = {
        "bots": "heuristic,random",
        "games": args.games,
        "workers_1_games_per_s": round(one, 2),
        "workers_2_games_per_s": round(two, 2),
        "ratio": round(two / one, 2),
        "identical_records": rec1 == rec2,
    }
    if args.json:
        print(json.dumps({"pairings": rows, "scaling": scaling}, indent=2))
        return
    print(f"{args.preset}, {args.players} players, whole matches, seed {args.seed}")
    for r in rows:
        print(f"  {r['bots']:<22} {r['games_per_s']:>9} games/s  ({r['games']} games)")
    print(
        f"  scaling heuristic,random x{args.games}: 1 worker {one:.1f} games/s, "
        f"2 workers {two:.1f} games/s, ratio {two / one:.2f} "
        f"(records identical: {rec1 == rec2})"
    )


if __name__ == "__main__":
    main()
