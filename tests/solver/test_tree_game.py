""":func:`~loveformal.solver.efg.tree_game` checks what big builders declare: a tiny tree
frozen correctly, and each malformed declaration refused with a message naming the node."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

from loveformal.solver.efg import CHANCE, DECISION, TERMINAL, InfosetSpec, tree_game

T, D, C = int(TERMINAL), int(DECISION), int(CHANCE)
HALF = (F(1, 2), F(1, 2))
WIN, LOSS, TIE = (F(1), F(-1)), (F(-1), F(1)), (F(0), F(0))


def declaration() -> dict[str, Any]:
    """A fair coin, then player 0 picks a or b without seeing it."""
    acts: tuple[Hashable, ...] = ("a", "b")
    return {
        "kind": [C, D, D, T, T, T, T],
        "player": [-1, 0, 0, -1, -1, -1, -1],
        "infoset": [-1, 0, 0, -1, -1, -1, -1],
        "parent": [-1, 0, 0, 1, 1, 2, 2],
        "action": [-1, 0, 1, 0, 1, 0, 1],
        "labels": [("h", "t"), acts, acts, (), (), (), ()],
        "probs": [HALF, None, None, None, None, None, None],
        "utility": [None, None, None, WIN, LOSS, TIE, WIN],
        "node_key": list(range(7)),
        "own_sequence": [(0, 0), (0, 0), (0, 0), (1, 0), (2, 0), (1, 0), (2, 0)],
        "infosets": [InfosetSpec(0, "I", acts, 0, 1)],
    }


def test_a_well_declared_tree_is_frozen() -> None:
    game = tree_game(2, **declaration())
    assert game.num_nodes == 7
    assert list(game.edge_prob_exact) == [F(1, 2), F(1, 2), None, None, None, None]
    assert np.isnan(game.edge_prob[2:]).all()
    assert list(game.edge_prob[:2]) == [0.5, 0.5]
    assert game.utility_exact[6] == WIN
    assert game.utility[4].tolist() == [-1.0, 1.0]


@pytest.mark.parametrize(
    ("field", "node", "value", "message"),
    [
        ("probs", 0, (F(1, 2), F(1, 3)), "chance node 0 has probabilities"),
        ("probs", 0, (F(1),), "chance node 0 has probabilities"),
        ("probs", 0, None, "chance node 0 has probabilities"),
        ("utility", 3, None, "terminal 3 has no utility"),
        ("utility", 1, TIE, "only terminals have utilities"),
        ("utility", 3, (1.0, -1.0), "node 3 has a bad utility"),
        ("utility", 3, (F(1),), "node 3 has a bad utility"),
    ],
)
def test_malformed_declarations_are_refused(
    field: str, node: int, value: object, message: str
) -> None:
    decl = declaration()
    decl[field][node] = value
    with pytest.raises(ValueError, match=message):
        tree_game(2, **decl)


def test_the_first_bad_node_is_named() -> None:
    """Bad tuples are found per distinct object; the error still names the first node (in
    node order) that holds one."""
    for first, later in [(3, 6), (4, 5)]:
        decl = declaration()
        decl["utility"][later] = (1.0, -1.0)
        decl["utility"][first] = (F(2),)
        with pytest.raises(ValueError, match=f"node {first} has a bad utility"):
            tree_game(2, **decl)


def test_a_decision_listing_its_infosets_actions_otherwise_is_refused() -> None:
    """The labels are compared by identity first: an equal copy passes, a reordered or
    different tuple is refused with the node named."""
    decl = declaration()
    decl["labels"][2] = tuple(["a", "b"])  # an equal tuple, another object
    assert decl["labels"][2] is not decl["labels"][1]
    assert tree_game(2, **decl).num_nodes == 7
    for wrong in [("b", "a"), ("a", "c")]:
        decl = declaration()
        decl["labels"][2] = wrong
        with pytest.raises(ValueError, match="node 2 lists its infoset's actions out of order"):
            tree_game(2, **decl)


@pytest.mark.parametrize("player", [-1, 2])
def test_a_decision_of_no_player_is_refused(player: int) -> None:
    """An infoset (and its nodes) of a player the game does not have: refused, not wrapped
    around to the last player (-1) nor left out of every player's sequences."""
    decl = declaration()
    decl["player"] = [-1, player, player, -1, -1, -1, -1]
    decl["infosets"] = [InfosetSpec(player, "I", ("a", "b"), 0, 1)]
    with pytest.raises(ValueError, match=r"a decision's player must be 0\.\.1"):
        tree_game(2, **decl)


@pytest.mark.parametrize("seed", [1, 2])
def test_down_products_are_the_path_products(seed: int) -> None:
    """Products over each node and its ancestors, level by level from the root: the pointer
    jumping's integers exactly, in int64 and as Python integers beyond it."""
    from loveformal.solver.efg import down_product, path_accumulate
    from tests.test_seqform_speed import random_game

    game = random_game(seed, seed % 2)
    assert game.is_tree() and len(game.levels()) > 3
    rng = np.random.default_rng(seed)
    small = rng.integers(1, 7, game.num_nodes)
    want_small = path_accumulate(game.parent, small, np.multiply)
    assert np.array_equal(down_product(game, small), want_small)
    big = np.array([int(v) << 40 for v in small], dtype=object)
    want = path_accumulate(game.parent, big, np.multiply)
    assert down_product(game, big).tolist() == want.tolist() and max(want.tolist()) > 2**63
