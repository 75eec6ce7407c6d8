"""Bots: players that see only their seat's observation and its legal actions.

* :class:`~loveformal.bots.base.Bot` — the protocol (``act(obs, legal, rng) -> Action``);
* :mod:`~loveformal.bots.random_bot` — uniformly random;
* :mod:`~loveformal.bots.heuristic` — card counting with Priest/Baron/King knowledge;
* :mod:`~loveformal.bots.ismcts` — information-set MCTS over sampled worlds
  (:mod:`~loveformal.bots.worlds`);
* :mod:`~loveformal.bots.registry` — bots by name (``random``, ``heuristic``, ``ismcts:200``).
"""

from __future__ import annotations

from loveformal.bots.base import Bot, decide
from loveformal.bots.registry import bot_names, make_bot

__all__ = ["Bot", "bot_names", "decide", "make_bot"]
