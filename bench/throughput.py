"""Random-play throughput of the rules engine, one core.

    python bench/throughput.py                 # every preset and player count, a table
    python bench/throughput.py --json          # one JSON object per line
    python bench/throughput.py --preset classic --players 2 --seconds 5

A *decision* is one action chosen by a seat (a card played, a Chancellor's keep, a Bishop
target's choice), chosen uniformly from :func:`loveformal.engine.legal_actions` and applied
with the public, checked :func:`loveformal.engine.apply`. Chance is resolved outside the rules
in one of two ways (``--chance``), both giving every deal and draw its exact probability:

* ``shuffle`` (default), as at a real table: each round's deck is shuffled once with the
  seeded RNG and dealt with :func:`loveformal.dealing.shuffled_deal`; every later draw is then
  the one outcome of its chance node, applied with ``apply``.
* ``sample``: every chance node (each card set aside, face up, dealt or drawn) is sampled on
  its own with :func:`loveformal.sampling.sample_chance` and applied with ``apply``.

Chance steps are not counted as decisions.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass

from loveformal.actions import Action
from loveformal.dealing import shuffled_deal
from loveformal.engine import apply as apply_action
from loveformal.engine import legal_actions, new_match
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import sample_chance
from loveformal.state import CHANCE_PHASES, DEAL, GAME_OVER, PLAY, ROUND_OVER

CHANCE_MODES = ("shuffle", "sample")


@dataclass(frozen=True)
class Result:
    preset: str
    players: int
    decisions: int
    rounds: int
    seconds: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds


def measure(
    preset: str,
    players: int,
    seconds: float,
    seed: int = 0,
    warmup: float = 0.5,
    chance: str = "shuffle",
) -> Result:
    """Play random matches for about ``seconds`` and count decisions and rounds, after
    ``warmup`` seconds of untimed play (the engine's legal-play cache fills up first: the
    figures are steady-state throughput)."""
    if chance not in CHANCE_MODES:
        raise ValueError(f"chance must be one of {CHANCE_MODES}, not {chance!r}")
    shuffle = chance == "shuffle"
    if warmup > 0:
        measure(preset, players, warmup, seed + 1, warmup=0, chance=chance)
    rules = make_ruleset(preset)
    rng = random.Random(seed)
    decisions = rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    state = new_match(rules, players)
    while True:
        for _ in range(1000):
            phase = state.phase
            action: Action
            if phase is PLAY:
                actions = legal_actions(state)
                action = actions[rng.randrange(len(actions))]
                decisions += 1
            elif phase in CHANCE_PHASES:
                if phase is ROUND_OVER:
                    rounds += 1
                    if shuffle:
                        state = shuffled_deal(state, rng)
                        continue
                elif shuffle and phase is DEAL:
                    state = shuffled_deal(state, rng)
                    continue
                action = sample_chance(state, rng)
            elif phase is GAME_OVER:
                rounds += 1
                state = new_match(rules, players)
                continue
            else:  # the Chancellor's keep, the Bishop target's choice
                actions = legal_actions(state)
                action = actions[rng.randrange(len(actions))]
                decisions += 1
            state = apply_action(state, action)
        if time.perf_counter() >= deadline:
            break
    return Result(preset, players, decisions, rounds, time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", action="append", help="preset(s) to measure (default: all)")
    parser.add_argument("--players", type=int, action="append", help="player count(s)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--chance",
        choices=CHANCE_MODES,
        default="shuffle",
        help="shuffle each round's deck once (default) or sample every chance node on its own",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per configuration; report the fastest"
    )
    args = parser.parse_args()
    presets = args.preset or list(preset_names())
    if not args.json:
        print(f"{'preset':<14} {'players':>7} {'decisions/s':>12} {'rounds/s':>10}")
    for preset in presets:
        rules = make_ruleset(preset)
        counts = args.players or list(range(rules.min_players, rules.max_players + 1))
        for players in counts:
            runs = [
                measure(preset, players, args.seconds, args.seed + i, chance=args.chance)
                for i in range(args.repeat)
            ]
            r = max(runs, key=lambda x: x.decisions_per_s)
            if args.json:
                row = {
                    "preset": r.preset,
                    "players": r.players,
                    "decisions_per_s": round(r.decisions_per_s, 1),
                    "rounds_per_s": round(r.rounds_per_s, 1),
                }
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{r.preset:<14} {r.players:>7} {r.decisions_per_s:>12,.0f} "
                    f"{r.rounds_per_s:>10,.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
