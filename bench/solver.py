"""Benchmark of the exact endgame solver (``loveformal solve``) on 2-player endgames.

    python bench/solver.py [--editions classic,z2019] [--k 1-6] [--positions 3]
                           [--reduced 4,7] [--timeout 300] [--max-nodes N]
                           [--repeat 1] [--full] [--json]

For each edition and each k (cards left in the draw pile), a fixed seeded set of positions:
position ``i`` is the first decision with ``k`` cards left in the first round of a random
match (seed ``1000 * k + i``), without its event log (as if typed in the notation: no private
knowledge). ``--reduced 4,7`` adds the reduced full rounds of the public CFR project
(jackie-scholl/love-letter-AI, 2-player Classic): the N-card version with ``16 − N`` cards face
up (the project's own fixed choice, :mod:`loveformal.solver.rounds`), solved from the deal —
before Player 1's first draw, every hidden card dealt at the root (its ``k`` is ``N − 3``, the
draw pile at the deal). ``--k 0`` (or an empty range) runs only the reduced rounds.

Each position is solved in a fresh process (``spawn``; its peak memory is that process's
maximum resident set size) with LP + exact certification — on the reduced game
(:mod:`loveformal.solver.levels`), or on the full tree with ``--full`` — and a row is
printed: deals, histories solved (and those of the full tree), information sets (P1/P2),
sequences, build / LP / certification seconds (with the exact vertex's, when the float
strategies leave a bracket: :mod:`loveformal.solver.vertex`), the total in wall seconds and
in CPU seconds, peak memory, the game value for the seat to move (Player 1 for the reduced
rounds) and the exploitability. ``--repeat R`` solves each position R times and keeps the
fastest (the machine is shared: timings are noisy). A position that exceeds ``--timeout``
seconds or ``--max-nodes`` histories is reported as such (with the peak memory of its build).
Without ``--max-nodes`` the limit is the command line's default
(:func:`loveformal.solver.memory.auto_max_nodes` of the memory available when the benchmark
starts), printed first and given as ``max_nodes`` on every ``--json`` object.

CPU seconds are :func:`time.process_time` (user and system time of the solving process, all
its threads) over the whole ``solve_position`` call, whose own total leaves out a few steps
at its end, such as freeing the build's working data. They leave out what the machine's
other work takes from the process, such as a virtual machine's host stealing CPU time, so
they compare runs from different hours better than wall seconds do; the target is wall
time.

``--json`` prints one object per position: ``edition``, ``k``, ``seed`` (or ``reduced``: N),
``position``, ``max_nodes``, ``deals``, ``histories``, ``full_histories``, ``infosets``,
``sequences``, ``seconds`` (total) and the phases (``vertex_seconds``: the exact vertex's search and
certificate), ``cpu_seconds``, ``peak_mb``, ``value``, ``value_exact`` (when the certificate
pins it), ``exploitability`` and ``status``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import sys
import time
from typing import Any

from loveformal.engine import new_match
from loveformal.notation import format_position, parse_position, position_of
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step
from loveformal.state import Phase


def endgame_position(edition: str, k: int, index: int) -> str:
    """The ``index``-th benchmark position of ``edition`` with ``k`` cards left (notation)."""
    rng = random.Random(1000 * k + index)
    while True:
        s = new_match(make_ruleset(edition), 2)
        while not s.round_over:
            if s.phase is Phase.PLAY and s.pile.size == k:
                return format_position(position_of(s))
            s, _ = random_step(s, rng)


def _solve(text: str, max_nodes: int, reduced: int, full: bool) -> dict[str, Any]:
    from loveformal.solver.analysis import solve_position
    from loveformal.solver.endgame import EndgameTooLarge
    from loveformal.solver.rounds import reduced_round

    start = time.perf_counter()
    state = reduced_round(reduced) if reduced else parse_position(text)
    cpu = time.process_time()
    try:
        r = solve_position(state, max_nodes=max_nodes, pimc=False, reduce=not full)
    except EndgameTooLarge as exc:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return {
            "status": "too large",
            "note": str(exc),
            "seconds": time.perf_counter() - start,
            "peak_mb": round(peak, 1),
        }
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "status": "ok",
        "deals": r.sizes.deals,
        "histories": r.sizes.histories,
        "full_histories": r.sizes.full_histories,
        "infosets": list(r.sizes.infosets),
        "sequences": list(r.sizes.sequences),
        "seconds": r.seconds["total"],
        "cpu_seconds": cpu,
        "build_seconds": r.seconds["build"],
        "lp_seconds": r.seconds.get("lp", 0.0),
        "certify_seconds": r.seconds.get("certify", 0.0),
        "vertex_seconds": r.seconds.get("vertex", 0.0),
        "peak_mb": round(peak, 1),
        "value": r.value_float,
        "value_exact": None if r.value is None else str(r.value),
        "exploitability": float(r.exploitability or 0),
    }


def _run(ctx: Any, text: str, reduced: int, args: argparse.Namespace) -> dict[str, Any]:
    """Best of ``args.repeat`` fresh-process solves (the first failure is final)."""
    best: dict[str, Any] | None = None
    for _ in range(max(1, args.repeat)):
        with ctx.Pool(1, maxtasksperchild=1) as pool:
            job = pool.apply_async(_solve, (text, args.max_nodes, reduced, args.full))
            try:
                got: dict[str, Any] = job.get(timeout=args.timeout)
            except multiprocessing.TimeoutError:
                got = {"status": "timeout", "seconds": args.timeout}
                pool.terminate()
        if got["status"] != "ok":
            return got
        if best is None or got["seconds"] < best["seconds"]:
            best = got
    assert best is not None
    return best


def _ks(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return [k for k in range(int(lo), int(hi or lo) + 1) if k > 0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", default="classic,z2019")
    ap.add_argument("--k", default="1-6", help="cards left in the pile: N or LO-HI (0: none)")
    ap.add_argument("--positions", type=int, default=3, help="positions per edition and k")
    ap.add_argument(
        "--reduced", default="", help="CFR reduced rounds from the deal: N-card versions, e.g. 4,7"
    )
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per position")
    ap.add_argument(
        "--max-nodes",
        type=int,
        default=None,
        help="histories above which a position is refused (default: as loveformal solve)",
    )
    ap.add_argument("--repeat", type=int, default=1, help="solves per position (best kept)")
    ap.add_argument("--full", action="store_true", help="solve the full tree (no reductions)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.max_nodes is None:
        from loveformal.solver.memory import auto_max_nodes, available_memory

        args.max_nodes = auto_max_nodes(available_memory())
    ctx = multiprocessing.get_context("spawn")
    rows: list[dict[str, Any]] = []
    if not args.json:
        print(f"--max-nodes {args.max_nodes:,}", flush=True)
        print(
            f"{'edition':<8} {'k':>2} {'seed':>5} {'deals':>6} {'histories':>10} "
            f"{'of full':>11} {'infosets':>13} {'sequences':>15} {'build':>7} {'LP':>6} "
            f"{'cert':>6} {'total':>7} {'cpu':>7} {'MB':>6} {'value':>10} {'exploit':>9}",
            flush=True,
        )
    jobs: list[tuple[dict[str, Any], str, int]] = []
    for edition in args.editions.split(","):
        for k in _ks(args.k):
            for i in range(args.positions):
                text = endgame_position(edition, k, i)
                row = {
                    "edition": edition,
                    "k": k,
                    "seed": 1000 * k + i,
                    "position": text,
                    "max_nodes": args.max_nodes,
                }
                jobs.append((row, text, 0))
    for n in [int(x) for x in args.reduced.split(",") if x.strip()]:
        from loveformal.solver.rounds import reduced_round

        text = format_position(reduced_round(n))
        row = {"edition": "classic", "k": n - 3, "reduced": n, "position": text}
        jobs.append(({**row, "max_nodes": args.max_nodes}, "", n))
    for row, text, n in jobs:
        row.update(_run(ctx, text, n, args))
        rows.append(row)
        if not args.json:
            print(_line(row), flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def _line(r: dict[str, Any]) -> str:
    tag = f"{r['reduced']}-card" if "reduced" in r else str(r["seed"])
    head = f"{r['edition']:<8} {r['k']:>2} {tag:>5}"
    if r["status"] != "ok":
        peak = f", {r['peak_mb']:.0f} MB" if "peak_mb" in r else ""
        return f"{head} {r['status']} after {r['seconds']:.1f} s{peak}"
    return (
        f"{head} {r['deals']:>6} {r['histories']:>10,} {r['full_histories']:>11,} "
        f"{'/'.join(map(str, r['infosets'])):>13} {'/'.join(map(str, r['sequences'])):>15} "
        f"{r['build_seconds']:>7.2f} {r['lp_seconds']:>6.2f} "
        f"{r['certify_seconds'] + r['vertex_seconds']:>6.2f} "
        f"{r['seconds']:>7.2f} {r['cpu_seconds']:>7.2f} {r['peak_mb']:>6.0f} {r['value']:>+10.6f} "
        f"{r['exploitability']:>9.1e}"
    )


if __name__ == "__main__":
    sys.exit(main())
