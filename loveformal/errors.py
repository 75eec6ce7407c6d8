"""The errors the engine raises. Every message says what is wrong in the game's own words.

* :class:`MalformedInput` — a file, position, option or name that cannot be understood.
* :class:`IllegalAction` — a well-formed action the rules forbid in this state.
* :class:`OutOfTurn` — an action by a seat (or chance) whose decision it is not.

All derive from :class:`LoveformalError`; the command line turns them into a message and an
exit status, never a traceback.
"""

from __future__ import annotations


class LoveformalError(Exception):
    """Base of every error the package raises on bad input."""


class MalformedInput(LoveformalError, ValueError):
    """Input that cannot be understood: unknown card, seat, preset or option, bad value."""


class SpecError(MalformedInput):
    """A rules-data file (``specs/``) or an option override is malformed or inconsistent."""


class IllegalAction(LoveformalError, ValueError):
    """The action is well formed but the rules forbid it here. The state is unchanged."""


class OutOfTurn(IllegalAction):
    """The action belongs to a seat (or to chance) whose decision it is not."""
