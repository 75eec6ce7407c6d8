"""The default ``--max-nodes`` of ``loveformal solve`` and ``bench/solver.py``: as many histories
as this machine's memory holds, within fixed bounds.

``--max-nodes`` exists so that a game too large is refused with a message instead of running
the machine out of memory. A fixed 3 M (:data:`~loveformal.solver.endgame.DEFAULT_MAX_NODES`,
still the library's default) needs about 2 GB, and refused half the classic endgames with 5
cards left on a machine with 23 GB free, although every one of them solves there (the
thirty-sixth session: 4.1–8.3 M histories, 16–53 s, at most 4.4 GB). The command line's default
is therefore read off the memory available when it starts:
``available / AUTO_MEMORY_SHARE / AUTO_BYTES_PER_HISTORY`` histories (rounded down to a
multiple of 100,000), between
:data:`AUTO_MAX_NODES_FLOOR` and :data:`AUTO_MAX_NODES_CEILING`, or
:data:`~loveformal.solver.endgame.DEFAULT_MAX_NODES` when the memory cannot be read.

The default depends on the memory free at the moment: the same command can solve a game once
and refuse it while something else holds the memory, and several solves started together
each budget half of the same memory. ``--max-nodes N`` fixes the limit.

This module reads ``/proc`` and ``/sys/fs/cgroup``, so it sits with the command line, outside
the rules.
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
cards left (1.45 GB at 2.45 M, 4.43 GB at 8.34 M) and 560 bytes on the largest game solved,
2019 with 6 cards left (5.5 GB at 9.87 M; 7.9 GB, 800 bytes, in the twenty-sixth
session). Refusals at 12 M peaked at 0.35–3.4 GB. A build also holds up to one engine position
(about 2 KB) per 4 histories of ``--max-nodes`` before it refuses
(:func:`~loveformal.solver.endgame.state_cap`), 0.5 KB per history of the limit: a refusal
near the limit may peak at about 1.3 KB per history of it, which the half of the memory left
out (:data:`AUTO_MEMORY_SHARE`) covers. The command with its determinized value, on classic
with 5 cards left, seed 5007 (7.6 M histories): 4.0 GB, 45 s. Not measured: ``--full`` and
three or more players."""

AUTO_MEMORY_SHARE = 2
"""The default budgets one part in this many of the memory available (half): the rest is
margin for the estimate's error and for whatever else the machine runs."""

AUTO_MAX_NODES_FLOOR = 1_000_000
"""The least default (about 1 GB at its peak): every benchmark endgame with up to 3 cards left
fits, and every classic one with 4. A machine with less than 2 GB free gets this and may run
short."""

AUTO_MAX_NODES_CEILING = 12_000_000
"""The greatest default, whatever the memory: past it the time, not the memory, is what a user
waits on. Games near it take a minute or more (2019 with 6 cards left, 9.87 M histories:
61 s; classic with 5, 7.6 M: 53 s), and a game refused near it is refused after up to about
25 s of building here (2019 with 5 and 6 cards left: 2.7–23.1 s; 99 s before the
thirty-fifth session's bound)."""


def _number(path: Path) -> int | None:
    """The integer in a one-line file (``None``: missing, unreadable, ``max`` or garbled)."""
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _meminfo_available(meminfo: Path) -> int | None:
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


def _cgroup_headroom(self_cgroup: Path, cgroup_fs: Path) -> int | None:
    """What the process's memory cgroup still allows: its limit less its usage (v2
    ``memory.max`` − ``memory.current``, v1 ``memory.limit_in_bytes`` −
    ``memory.usage_in_bytes``), the least over the cgroup and its ancestors; ``None`` without
    a limit. The usage counts the page cache, so this under-states what could be had."""
    try:
        lines = self_cgroup.read_text().splitlines()
    except (OSError, ValueError):  # missing, unreadable, or not text
        return None
    places: list[tuple[Path, str, str]] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        controllers, rel = parts[1], Path(parts[2].strip().lstrip("/"))
        if controllers == "":
            places.append((cgroup_fs / rel, "memory.max", "memory.current"))
        elif "memory" in controllers.split(","):
            v1 = ("memory.limit_in_bytes", "memory.usage_in_bytes")
            places.append((cgroup_fs / "memory" / rel, *v1))
    least: int | None = None
    for leaf, limit_name, usage_name in places:
        for folder in (leaf, *leaf.parents):
            if not folder.is_relative_to(cgroup_fs):
                break
            limit, usage = _number(folder / limit_name), _number(folder / usage_name)
            if limit is None or limit >= 2**60:  # "max", or v1's "no limit" (about 2**63)
                continue
            room = max(0, limit - (usage or 0))
            least = room if least is None else min(least, room)
    return least


def _address_space_limit() -> int | None:
    try:
        import resource  # Unix only: elsewhere there is no such limit to read
    except ImportError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY or soft < 0 else soft


def available_memory(
    meminfo: Path = Path("/proc/meminfo"),
    self_cgroup: Path = Path("/proc/self/cgroup"),
    cgroup_fs: Path = Path("/sys/fs/cgroup"),
) -> int | None:
    """Bytes of memory a solve started now may use: the least of the machine's
    ``MemAvailable`` (``meminfo``; else its free physical pages, ``os.sysconf``), the
    headroom of the process's memory cgroup (a container's or a service's limit, which
    ``MemAvailable`` does not show: past it the kernel kills the process without a word) and
    the address-space limit (``ulimit -v``); ``None`` when none can be read."""
    found = [
        m
        for m in (
            _meminfo_available(meminfo),
            _cgroup_headroom(self_cgroup, cgroup_fs),
            _address_space_limit(),
        )
        if m is not None
    ]
    return min(found) if found else None


def _fits(available: int) -> int:
    """Histories that half of ``available`` bytes holds, rounded down to a multiple of 100 k."""
    return available // AUTO_MEMORY_SHARE // AUTO_BYTES_PER_HISTORY // 100_000 * 100_000


def auto_max_nodes(available: int | None) -> int:
    """The default ``--max-nodes`` for ``available`` bytes of memory (``None``: unknown, the
    library's :data:`~loveformal.solver.endgame.DEFAULT_MAX_NODES`). Monotone in
    ``available``, and always within [:data:`AUTO_MAX_NODES_FLOOR`,
    :data:`AUTO_MAX_NODES_CEILING`]."""
    if available is None:
        return DEFAULT_MAX_NODES
    return min(AUTO_MAX_NODES_CEILING, max(AUTO_MAX_NODES_FLOOR, _fits(available)))


def describe_auto_max_nodes(available: int | None) -> str:
    """How the default was chosen, for a refusal's message."""
    chosen = auto_max_nodes(available)
    said = f"--max-nodes defaulted to {chosen:,}"
    if available is None:
        return f"{said}, as this machine's free memory could not be read"
    fits = _fits(available)
    how = (
        f"what half of the {available / 1e9:.1f} GB of memory available holds at "
        f"{AUTO_BYTES_PER_HISTORY:,} bytes per history"
    )
    if fits > chosen:
        how = f"its ceiling, below {how} ({fits:,})"
    elif fits < chosen:
        how = f"its floor, above {how} ({fits:,})"
    return f"{said}: {how}; give --max-nodes N for a fixed limit"
