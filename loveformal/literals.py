"""Numbers read from text, and values echoed back in error messages.

Python's ``str.isdigit`` and ``int`` accept more than users type as a number: superscripts
(``"²".isdigit()`` is true, ``int("²")`` fails), other scripts' digits (``int("٢") == 2``)
and integers too long to convert (over 4,300 digits). Every count, seat number and option
value in the notation, the command line and the data files is read here instead: ASCII
digits ``0``-``9`` only, a bounded number of them. Messages quote the input through
:func:`echo`, which never raises and never repeats more than a line of it.
"""

from __future__ import annotations

import re
from typing import Final

DIGITS: Final = "0123456789"
"""The digits a number may be written with (``re`` patterns use ``[0-9]``, not ``\\d``)."""

MAX_DIGITS: Final = 9


def whole_number(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """``text`` as a whole number if it is 1 to ``max_digits`` ASCII digits, else ``None``."""
    if not 0 < len(text) <= max_digits or text.strip(DIGITS):
        return None
    return int(text)


_WHOLE = re.compile(r"-?[0-9]+")


def number_problem(text: str, max_digits: int = MAX_DIGITS) -> str:
    """Why ``text`` is not a whole number :func:`whole_number` reads, for a message."""
    t = text.strip()
    if not t:
        return "got nothing"
    if _WHOLE.fullmatch(t):
        if t.startswith("-"):
            return f"got {echo(t)} (it cannot be negative)"
        return f"got a number of {len(t)} digits (at most {max_digits})"
    if any(c.isdigit() for c in t) and not t.isascii():
        return f"got {echo(t)} (write numbers with the digits 0-9)"
    return f"got {echo(t)}"


def echo(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters; a placeholder if repr fails."""
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        text = repr(value)
    except Exception:  # a user object whose __repr__ raises: still a message, never a traceback
        return f"<a {type(value).__name__} that cannot be shown>"
    if len(text) > limit:
        text = f"{text[: limit - 12]}... ({len(text)} characters)"
    return text


__all__ = ["DIGITS", "MAX_DIGITS", "echo", "number_problem", "whole_number"]
