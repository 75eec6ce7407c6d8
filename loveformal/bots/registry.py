"""Bots by name: ``random``, ``heuristic``, ``ismcts`` or ``ismcts:N`` (N iterations),
``endgame`` or ``endgame:N`` (exact solver with at most N cards in the pile)."""

from __future__ import annotations

from loveformal.bots.base import Bot
from loveformal.bots.endgame import DEFAULT_MAX_CARDS, EndgameBot
from loveformal.bots.heuristic import HeuristicBot
from loveformal.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from loveformal.bots.random_bot import RandomBot
from loveformal.errors import MalformedInput
from loveformal.literals import whole_number

__all__ = ["bot_names", "make_bot"]


def bot_names() -> tuple[str, ...]:
    """The bot names :func:`make_bot` accepts (``ismcts`` also as ``ismcts:N``, ``endgame``
    as ``endgame:N``)."""
    return ("random", "heuristic", "ismcts", "endgame")


def make_bot(name: str) -> Bot:
    """The bot called ``name``; :class:`MalformedInput` naming the known bots otherwise."""
    base, sep, arg = name.strip().lower().partition(":")
    if sep and not arg:
        raise MalformedInput(f"bot {name!r}: nothing after ':'")
    if base == "random" and not arg:
        return RandomBot()
    if base == "heuristic" and not arg:
        return HeuristicBot()
    if base == "ismcts":
        if not arg:
            return ISMCTSBot(DEFAULT_ITERATIONS)
        iterations = whole_number(arg)
        if iterations is not None and iterations >= 1:
            return ISMCTSBot(iterations)
        raise MalformedInput(f"bot {name!r}: expected ismcts:N with N >= 1 iterations")
    if base == "endgame":
        if not arg:
            return EndgameBot(DEFAULT_MAX_CARDS)
        cards = whole_number(arg, 2)
        if cards is not None:
            return EndgameBot(cards)
        raise MalformedInput(f"bot {name!r}: expected endgame:N with N >= 0 cards in the pile")
    raise MalformedInput(
        f"unknown bot {name!r} "
        "(known bots: random, heuristic, ismcts, ismcts:N, endgame, endgame:N)"
    )
