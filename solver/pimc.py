"""Determinized ("perfect-information Monte Carlo", exhaustively) value of a 2-player zero-sum game.

For each root chance outcome ("deal") ``d`` with probability ``w_d``, the subtree below it is
solved as if it were a perfect-information game: every player sees every node (information sets
are ignored), player 0 maximises and player 1 minimises player 0's utility, chance nodes take
expectations. The determinized value is ``Σ_d w_d · minimax(d)``; when the root is not a chance
node there is a single deal, the whole game.

This is a comparison figure, not a game value: it lets each player's choices depend on hidden
information (strategy fusion), so it differs from the sequence-form value whenever hidden
information matters (Kuhn poker: determinized 0, true −1/18). All arithmetic is exact.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from .efg import CHANCE, TERMINAL, Game

__all__ = ["Determinized", "determinized_value", "perfect_information_values"]


@dataclass(frozen=True)
class Determinized:
    """Result of :func:`determinized_value` (player 0's utility)."""

    value: Fraction
    deals: tuple[tuple[Hashable, Fraction, Fraction], ...]
    """``(outcome label, probability, minimax value)`` per root deal."""


def perfect_information_values(game: Game) -> list[Fraction]:
    """Minimax value (player 0's utility) of every node, ignoring information sets."""
    if game.num_players != 2 or not game.is_zero_sum():
        raise ValueError("the determinized value is defined for two-player zero-sum games")
    values = [Fraction(0)] * game.num_nodes
    kinds = game.kind.tolist()
    players = game.player.tolist()
    starts = game.child_start.tolist()
    children = game.edge_child.tolist()
    for n in range(game.num_nodes - 1, -1, -1):
        if kinds[n] == TERMINAL:
            u = game.utility_exact[n]
            assert u is not None
            values[n] = u[0]
        elif kinds[n] == CHANCE:
            total = Fraction(0)
            for e in range(starts[n], starts[n + 1]):
                p = game.edge_prob_exact[e]
                assert p is not None
                total += p * values[children[e]]
            values[n] = total
        else:
            options = [values[children[e]] for e in range(starts[n], starts[n + 1])]
            values[n] = max(options) if players[n] == 0 else min(options)
    return values


def determinized_value(game: Game) -> Determinized:
    """Average over root deals of the perfect-information minimax value."""
    values = perfect_information_values(game)
    if game.kind[0] != CHANCE:
        return Determinized(value=values[0], deals=((None, Fraction(1), values[0]),))
    deals = []
    for e in game.edges(0):
        p = game.edge_prob_exact[e]
        assert p is not None
        deals.append((game.edge_label[e], p, values[int(game.edge_child[e])]))
    return Determinized(value=values[0], deals=tuple(deals))
