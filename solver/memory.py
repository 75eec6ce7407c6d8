"""The default ``--max-nodes`` of ``loveformal solve`` and ``bench/solver.py``: as many histories
as this machine's memory holds, within fixed bounds.

``--max-nodes`` exists so that a game too large is refused with a message instead of running
the machine out of memory. A fixed 3 M (:data:`~loveformal.solver.endgame.DEFAULT_MAX_NODES`,
still the library's default) needs about 2 GB, and refused half the classic endgames with 5
cards left on a machine with 23 GB free, although every one of them solves there (the
thirty-sixth session: 4.1–8.3 M histories, 17–97 s, at most 4.4 GB). The command line's default
is therefore read off the memory available when it starts:
``available / AUTO_MEMORY_SHARE / AUTO_BYTES_PER_HISTORY`` histories (rounded down to a
multiple of 100,000), between
:data:`AUTO_MAX_NODES_FLOOR` and :data:`AUTO_MAX_NODES_CEILING`, or
:data:`~loveformal.solver.endgame.DEFAULT_MAX_NODES` when the memory cannot be read.

This module reads ``/proc/meminfo``, so it sits with the command line, outside the rules.
"""

from __future__ import annotations

import os
from pathlib import Path

from .endgame import DEFAULT_MAX_NODES

__all__ = [
    "AUTO_BYTES_PER_HISTORY",
    "AUTO_MAX_NODES_CEILING",
    "AUTO_MAX_NODES_FLOOR",
    "AUTO_MEMORY_SHARE",
    "auto_max_nodes",
    "available_memory",
    "describe_auto_max_nodes",
]

AUTO_BYTES_PER_HISTORY = 1_000
"""Memory budgeted per history of ``--max-nodes``. The peaks measured (the process's maximum
resident set, two-player endgames) are 470–600 bytes per history solved on classic with 5
cards left (1.45 GB at 2.45 M, 4.44 GB at 8.34 M) and 800 bytes on the largest game solved,
2019 with 6 cards left (7.9 GB at 9.87 M). A build also holds up to one engine position
(about 2 KB) per 4 histories of ``--max-nodes`` before it refuses
(:func:`~loveformal.solver.endgame.state_cap`)."""

AUTO_MEMORY_SHARE = 2
"""The default budgets one part in this many of the memory available (half): the rest is
margin for the estimate's error and for whatever else the machine runs."""

AUTO_MAX_NODES_FLOOR = 1_000_000
"""The least default (about 1 GB at its peak): every benchmark endgame with up to 3 cards left
fits, and every classic one with 4. A machine with less than 2 GB free gets this and may run
short."""

AUTO_MAX_NODES_CEILING = 12_000_000
"""The greatest default, whatever the memory: past it the time, not the memory, is what a user
waits on. Games near it take minutes (2019 with 6 cards left, 9.87 M histories: 151 s), and a
game refused near it is refused after up to about 100 s of building."""


def available_memory(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """Bytes of memory available to a new process now: ``MemAvailable`` of ``meminfo``
    (Linux), else the free physical pages (``os.sysconf``), else ``None``."""
    try:
        for line in meminfo.read_text().splitlines():
            name, _, rest = line.partition(":")
            if name == "MemAvailable":
                number, _, unit = rest.strip().partition(" ")
                return int(number) * (1024 if unit.strip().lower() == "kb" else 1)
    except (OSError, ValueError):
        pass
    try:
        pages = os.sysconf("SC_AVPHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None
    return pages * size if pages > 0 and size > 0 else None


def auto_max_nodes(available: int | None) -> int:
    """The default ``--max-nodes`` for ``available`` bytes of memory (``None``: unknown, the
    library's :data:`~loveformal.solver.endgame.DEFAULT_MAX_NODES`). Monotone in
    ``available``, and always within [:data:`AUTO_MAX_NODES_FLOOR`,
    :data:`AUTO_MAX_NODES_CEILING`]."""
    if available is None:
        return DEFAULT_MAX_NODES
    fits = available // AUTO_MEMORY_SHARE // AUTO_BYTES_PER_HISTORY // 100_000 * 100_000
    return min(AUTO_MAX_NODES_CEILING, max(AUTO_MAX_NODES_FLOOR, fits))


def describe_auto_max_nodes(available: int | None) -> str:
    """How the default was chosen, for a refusal's message."""
    chosen = f"--max-nodes defaulted to {auto_max_nodes(available):,}"
    if available is None:
        return f"{chosen} (this machine's free memory could not be read)"
    return (
        f"{chosen} (half of the {available / 2**30:.1f} GiB of memory available, at "
        f"{AUTO_BYTES_PER_HISTORY:,} bytes per history, within "
        f"{AUTO_MAX_NODES_FLOOR:,}–{AUTO_MAX_NODES_CEILING:,})"
    )
