"""Plot the output of ``bench/first_seat.py`` (its table or ``--json`` lines) as a PNG.

    python bench/first_seat.py --rounds 100000 --workers 2 > first_seat.txt
    python bench/plot_first_seat.py first_seat.txt docs/first_seat.png

Needs matplotlib (the ``plot`` extra). One panel per preset: P1's round-win rate minus the
fair share 1/n (percentage points), with its 95% interval, per player count.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROW = re.compile(
    r"^(?P<preset>\S+)\s+(?P<players>\d+)\s+(?P<rounds>\d+)\s+(?P<rate>[\d.]+)%\s+"
    r"\[\s*(?P<lo>[\d.]+)%,\s*(?P<hi>[\d.]+)%\]"
)


def read(path: Path) -> list[tuple[str, int, float, float, float]]:
    """(preset, players, rate, low, high) rows from a table or JSON-lines file."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            lo, hi = d["ci95"]
            rows.append((d["preset"], d["players"], d["first_seat_win_rate"], lo, hi))
        elif m := ROW.match(line):
            rows.append(
                (
                    m["preset"],
                    int(m["players"]),
                    float(m["rate"]) / 100,
                    float(m["lo"]) / 100,
                    float(m["hi"]) / 100,
                )
            )
    return rows


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    by_preset: dict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    for preset, players, rate, lo, hi in read(source):
        by_preset[preset].append((players, rate, lo, hi))
    fig, axes = plt.subplots(1, len(by_preset), figsize=(3 * len(by_preset), 3.2), sharey=True)
    for ax, (preset, rows) in zip(axes, by_preset.items(), strict=True):
        xs = [r[0] for r in rows]
        edge = [100 * (r[1] - 1 / r[0]) for r in rows]
        ax.errorbar(
            xs,
            edge,
            yerr=[[100 * (r[1] - r[2]) for r in rows], [100 * (r[3] - r[1]) for r in rows]],
            fmt="o",
            capsize=3,
            label="P1 (starts), 95% CI",
        )
        ax.axhline(0, color="k", linestyle="--", linewidth=1, label="fair share 1/n")
        ax.set_title(preset)
        ax.set_xlabel("players")
        ax.set_xticks(xs)
    axes[0].set_ylabel("P1 round-win edge over 1/n (points)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    main()
