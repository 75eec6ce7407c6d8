"""Game-agnostic exact solving of extensive-form games.

* :mod:`.efg` — build a game once (chance / decision / terminal nodes, exact probabilities and
  utilities, information sets, optional DAG sharing) into frozen arrays with per-player
  sequences; perfect recall is checked.
* :mod:`.seqform` — the sequence-form LP of a two-player zero-sum game (HiGHS): value and
  both players' behaviour strategies; :mod:`.oracle` solves it on a growing restricted game
  (the sequences an equilibrium needs, found from a short CFR+ run and best responses).
* :mod:`.certify` — exact (``Fraction``) expected values, best responses, NashConv,
  exploitability and the value bracket of any profile.
* :mod:`.expectimax` — exact N-player evaluation and information-set best response.
* :mod:`.pimc` — the determinized (perfect-information) comparison value.
* :mod:`.graph` — networkx / GraphML export.

Love Letter on top of them: :mod:`.endgame` (root deals, the tree built by driving the
engine), :mod:`.levels` (the reduced, value-preserving build), :mod:`.analysis`
(``solve_position``), :mod:`.rounds` (the CFR project's reduced full rounds), :mod:`.memory`
(the command line's default ``--max-nodes``, read off the memory available) and :mod:`.cli`.
"""

from .certify import Certificate, certify
from .efg import CHANCE, DECISION, TERMINAL, Game, GameBuilder, GameSizes, Infoset, NodeKind
from .expectimax import BestResponse, Policy, best_response, evaluate, exact_policy
from .pimc import Determinized, determinized_value
from .seqform import Solution, Strategy, solve

__all__ = [
    "CHANCE",
    "DECISION",
    "TERMINAL",
    "BestResponse",
    "Certificate",
    "Determinized",
    "Game",
    "GameBuilder",
    "GameSizes",
    "Infoset",
    "NodeKind",
    "Policy",
    "Solution",
    "Strategy",
    "best_response",
    "certify",
    "determinized_value",
    "evaluate",
    "exact_policy",
    "solve",
]
