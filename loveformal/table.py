"""Small pure helpers that rebuild a state with some parts changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loveformal.cards import Card, sort_cards
from loveformal.events import Event
from loveformal.state import Seat, State

_FIELDS = State._fields
_src = (
    "def evolve(state, *, "
    + ", ".join(f"{f}=_KEEP" for f in _FIELDS)
    + "):\n    return _new(_State, ("
    + ", ".join(f"state.{f} if {f} is _KEEP else {f}" for f in _FIELDS)
    + ",))\n"
)
_KEEP: Any = object()
_ns: dict[str, Any] = {"_KEEP": _KEEP, "_new": tuple.__new__, "_State": State}
exec(_src, _ns)
_evolve: Any = _ns["evolve"]


def evolve(state: State, **changes: Any) -> State:  # replaced below by the generated version
    """``state`` with the given fields replaced (a new value; ``state`` is untouched).

    Generated from :class:`State`'s fields so that it costs one tuple construction.
    """
    result: State = _evolve(state, **changes)
    return result


evolve = _evolve  # noqa: F811  (same signature and meaning, without the wrapper call)


def with_seat(state: State, index: int, seat: Seat, *events: Event) -> State:
    """``state`` with seat ``index`` replaced and ``events`` appended to the log."""
    row = list(state.seats)
    row[index] = seat
    return _set_seats_log(state, tuple(row), state.log + events)


def logged(state: State, *events: Event) -> State:
    """``state`` with ``events`` appended to the log."""
    return _set_log(state, state.log + events)


def add_card(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` with ``card`` added, kept sorted."""
    if not hand:
        return (card,)
    return sort_cards((*hand, card))


def remove_card(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` with one copy of ``card`` removed (the caller checks it is there)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def setter(*names: str) -> Callable[..., State]:
    """A fast function ``f(state, *values)`` returning ``state`` with the named fields set,
    positionally (no keyword parsing): for the engine's hottest transitions."""
    index = {f: i for i, f in enumerate(_FIELDS)}
    for n in names:
        if n not in index:
            raise KeyError(n)
    # each unchanged field by index: faster in CPython 3.11 than copying runs as slices
    parts = [n if n in names else f"state[{index[n]}]" for n in _FIELDS]
    src = f"def set_fields(state, {', '.join(names)}):\n"
    src += f"    return _new(_State, ({', '.join(parts)},))\n"
    ns: dict[str, Any] = {"_new": tuple.__new__, "_State": State}
    exec(src, ns)
    result: Callable[..., State] = ns["set_fields"]
    return result


_set_seats_log = setter("seats", "log")
_set_log = setter("log")
