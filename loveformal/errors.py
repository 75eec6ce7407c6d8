"""The errors the engine raises. Every message says what is wrong in the game's own words.

* :class:`MalformedInput` — a file, position, option or name that cannot be understood.
* :class:`IllegalAction` — an action the rules forbid in this state (or an ill-typed one).
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
    """The rules forbid the action here, or it is not a well-formed action (a field of the
    wrong type, see :func:`loveformal.actions.malformed`). The state is unchanged."""


class OutOfTurn(IllegalAction):
    """The action belongs to a seat (or to chance) whose decision it is not."""
