"""Paths given on the command line: what they name, and whether an output can go there.

Every function answers from the file system without raising: a name too long for it, a path
through a regular file or a directory that cannot be read is "not a file", not a traceback.
Used by the commands before they do any work, so that a bad ``--graph``, ``--plot`` or
``--out`` is refused at once rather than after a long solve or simulation.
:func:`notation_in_file` reads a file given for a position; it alone raises (a one-line
:class:`~loveformal.errors.MalformedInput` naming the file).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from loveformal.errors import MalformedInput

POSITION_FILE_LIMIT = 1 << 20
"""A file given for a position is read only up to this size (a position is a line or two)."""


def kind(path: Path | str) -> Literal["file", "dir"] | None:
    """``"file"`` or ``"dir"`` if ``path`` names one now, else ``None`` (also when the name
    cannot be looked up at all, e.g. longer than the file system allows)."""
    try:
        p = Path(path)
        if p.is_file():
            return "file"
        if p.is_dir():
            return "dir"
    except (OSError, ValueError):  # ENAMETOOLONG, an embedded NUL, ...
        return None
    return None


def not_a_file(path: Path | str) -> str | None:
    """Why ``path`` cannot be read as a file: ``"no such file"``, ``"is a directory"`` or
    ``"is not a regular file (a pipe or a device?)"``; ``None`` for a regular file. Never
    opens it (a named pipe would wait for a writer)."""
    what = kind(path)
    if what == "file":
        return None
    if what == "dir":
        return "is a directory"
    try:
        exists = Path(path).exists()
    except (OSError, ValueError):
        exists = False
    return "is not a regular file (a pipe or a device?)" if exists else "no such file"


def _nearest_existing(path: Path) -> Path:
    """``path`` or the closest of its ancestors that exists (``.`` for a relative path)."""
    for p in (path, *path.parents):
        try:
            if p.exists():
                return p
        except (OSError, ValueError):
            continue
    return Path(".")


def unwritable_file(path: Path | str) -> str | None:
    """Why a file cannot be written (created or replaced) at ``path``, if that shows now."""
    text = str(path)
    if not text.strip():
        return "expected a file name, got an empty one"
    if text.endswith(("/", os.sep)):
        return "a name ending in '/' is a directory's, not a file's"
    p = Path(text)
    try:
        if p.is_dir():
            return "it is a directory"
        parent = p.parent
        if not parent.is_dir():
            return f"no directory {parent}"
        target = p if p.exists() else parent
        if not os.access(target, os.W_OK):
            return "permission denied"
    except (OSError, ValueError) as exc:
        return _reason(exc)
    return None


def unwritable_dir(path: Path | str) -> str | None:
    """Why files cannot be written into the directory ``path`` (made if missing), if that
    shows now."""
    text = str(path)
    if not text.strip():
        return "expected a directory name, got an empty one"
    p = Path(text)
    try:
        base = _nearest_existing(p)
        if not base.is_dir():
            return (
                "it is a file, not a directory"
                if base == p
                else f"{base} is a file, not a directory"
            )
        if not os.access(base, os.W_OK | os.X_OK):
            return "permission denied" if base == p else f"permission denied in {base}"
    except (OSError, ValueError) as exc:
        return _reason(exc)
    return None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc)


def notation_in_file(path: Path | str) -> str | None:
    """The text of the regular file ``path`` when it holds a position in the notation: not
    TOML, with a ``|`` (the notation's sections). ``None`` otherwise: a scenario file,
    whatever its name (a ``|`` in its strings is not a position), or a file too large to be
    a position (over :data:`POSITION_FILE_LIMIT`), for the scenario reader to read or
    refuse. A byte-order mark before the position is dropped. Raises
    :class:`~loveformal.errors.MalformedInput` naming the file when it cannot be read or is
    not UTF-8 text."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(POSITION_FILE_LIMIT + 1)
    except OSError as exc:
        raise MalformedInput(f"{p}: cannot read the file ({exc.strerror or exc})") from None
    if len(data) > POSITION_FILE_LIMIT:
        return None  # no position is that long
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MalformedInput(
            f"{p}: expected UTF-8 text, a position in the notation or a scenario "
            f"({exc.reason} at byte {exc.start})"
        ) from None
    if "|" not in text:
        return None
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return text.strip()  # not TOML: the notation
    return None


__all__ = ["kind", "not_a_file", "notation_in_file", "unwritable_dir", "unwritable_file"]
