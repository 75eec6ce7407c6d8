"""User code for ``loveformal solve``: opponent models and priors named on the command line.

    --opponents MODEL | P2=MODEL,P3=MODEL,...      MODEL: random | heuristic | FUNCTION
    --prior FUNCTION

``FUNCTION`` is ``FILE.py:NAME`` (a Python file, loaded once however often it is named; its
directory is added to the end of ``sys.path``, so it can import files next to it) or
``MODULE:NAME`` (a module importable from ``sys.path`` or, after it, the current directory).
An opponent function is an :class:`~loveformal.solver.analysis.ObservationModel`'s
``choose(observation, legal)``; a prior is a :data:`~loveformal.solver.endgame.Prior`,
``prior(deal_state, arrangements) -> weight``.
Anything that cannot be loaded is a :class:`~loveformal.errors.MalformedInput` naming the
option, the file or module and what is wrong.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from loveformal.errors import MalformedInput
from loveformal.paths import kind
from loveformal.seats import parse_seat

from .analysis import MODELS, ObservationModel, OpponentModel, Opponents

__all__ = ["load_function", "parse_opponents"]


def load_function(spec: str, option: str) -> Callable[..., Any]:
    """The function ``FILE.py:NAME`` or ``MODULE:NAME`` names (see the module docstring)."""
    source, sep, name = spec.strip().rpartition(":")
    if not sep or not source or not name.isidentifier():
        also = f" or one of {', '.join(MODELS)}" if option == "--opponents" else ""
        raise MalformedInput(f"{option} {spec}: expected FILE.py:FUNCTION or MODULE:FUNCTION{also}")
    where = f"{option} {spec}"
    is_file = source.endswith(".py") or "/" in source or "\\" in source
    path = Path(source)
    found = kind(path)  # never raises (a name too long for the file system is no file)
    if is_file and found == "dir":
        raise MalformedInput(f"{where}: {path} is a directory, not a Python file")
    if is_file and found != "file":
        raise MalformedInput(f"{where}: no such file {path}")
    if not is_file and path.suffix and found == "file":  # model.txt:f — read as a module path
        raise MalformedInput(
            f"{where}: {path} is a file, but not a Python file: its name must end in .py"
        )
    try:  # the user's code, run or asked for a name: any error in one line, never a traceback
        if is_file:
            module = _load_file(path)
        else:
            _on_path(os.getcwd())
            module = importlib.import_module(source)
        function = getattr(module, name, None)
    except (Exception, SystemExit) as exc:
        problem = f"{type(exc).__name__}: {exc}"
        raise MalformedInput(f"{where}: cannot load {source}: {problem}") from None
    if function is None:
        raise MalformedInput(f"{where}: {source} has no {name!r}")
    if not callable(function):
        raise MalformedInput(f"{where}: {source}'s {name!r} is not a function")
    return cast(Callable[..., Any], function)  # checked callable above


def _load_file(path: Path) -> object:
    resolved = str(path.resolve())
    name = "_loveformal_user_" + hashlib.sha256(resolved.encode()).hexdigest()[:16]
    if name in sys.modules:  # the same file for another seat: loaded once
        return sys.modules[name]
    _on_path(str(path.resolve().parent))
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _on_path(directory: str) -> None:
    """Let the user's code import modules from ``directory`` (after every other place, so
    that nothing installed is shadowed by a file there)."""
    if directory not in sys.path:
        sys.path.append(directory)


def _model(text: str) -> OpponentModel | ObservationModel:
    name = text.strip()
    for known in MODELS:
        if name.lower() == known:
            return known
    if ":" not in name:
        raise MalformedInput(
            f"--opponents: unknown model {name!r} (expected one of {', '.join(MODELS)}, "
            "or FILE.py:FUNCTION or MODULE:FUNCTION)"
        )
    seat, _, rest = name.partition(":")
    if _SEAT.fullmatch(seat.strip()):  # P2:random — a seat, not a module called P2
        raise MalformedInput(
            f"--opponents: {name!r}: a seat's model is given as {seat.strip()}={rest.strip()}"
        )
    return ObservationModel(name, load_function(name, "--opponents"))


def parse_opponents(text: str, players: int) -> Opponents:
    """``--opponents``: one model for every other seat, or ``SEAT=MODEL`` entries separated
    by commas (seats as ``P2``). The text is read as entries only when it starts with a seat
    and ``=``, and split only at commas followed by another seat and ``=``, so a file's path
    may hold ``=`` and ``,`` (``P2=/tmp/a=b,c/mine.py:f``)."""
    if not _ENTRY.match(text):
        return _model(text)
    out: dict[int, OpponentModel | ObservationModel] = {}
    for entry in _NEXT_ENTRY.split(text):
        seat_text, eq, model = entry.partition("=")
        if not eq or not seat_text.strip() or not model.strip():
            raise MalformedInput(f"--opponents: {entry.strip()!r} is not SEAT=MODEL")
        try:
            seat = parse_seat(seat_text.strip(), players)
        except ValueError as exc:
            raise MalformedInput(f"--opponents: {exc}") from None
        if seat in out:
            raise MalformedInput(f"--opponents: {seat_text.strip()} is given twice")
        out[seat] = _model(model)
    return out


_SEAT = re.compile(r"[Pp][0-9]+")
_ENTRY = re.compile(r"\s*[Pp][0-9]+\s*=")
_NEXT_ENTRY = re.compile(r",(?=\s*[Pp][0-9]+\s*=)")
