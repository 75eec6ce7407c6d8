""":func:`~loveformal.solver.efg.tree_game` checks what big builders declare: a tiny tree
frozen correctly, and each malformed declaration refused with a message naming the node."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

from loveformal.solver.efg import (
    CHANCE,
    DECISION,
    TERMINAL,
    InfosetSpec,
    Shared,
    shared_by_identity,
    tree_game,
)

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


def shared(decl: dict[str, Any]) -> dict[str, Any]:
    """``decl`` with its labels, probabilities and utilities given as :class:`Shared` (the
    distinct objects by identity, and per node the index of its own; None as -1)."""
    out = dict(decl)
    for field in ("labels", "probs", "utility"):
        out[field] = shared_by_identity(decl[field], np.arange(len(decl[field])))
    return out


def same_games(a: Any, b: Any) -> bool:
    arrays = ("kind", "player", "infoset", "parent", "action", "child_start", "edge_child")
    return (
        all(np.array_equal(getattr(a, f), getattr(b, f)) for f in arrays)
        and np.array_equal(a.edge_prob, b.edge_prob, equal_nan=True)
        and np.array_equal(a.utility, b.utility)
        and a.edge_label == b.edge_label
        and a.edge_prob_exact == b.edge_prob_exact
        and a.utility_exact == b.utility_exact
        and a.node_key == b.node_key
        and [vars(i) for i in a.infosets] == [vars(i) for i in b.infosets]
    )


def test_a_well_declared_tree_is_frozen() -> None:
    game = tree_game(2, **declaration())
    assert game.num_nodes == 7
    assert list(game.edge_prob_exact) == [F(1, 2), F(1, 2), None, None, None, None]
    assert np.isnan(game.edge_prob[2:]).all()
    assert list(game.edge_prob[:2]) == [0.5, 0.5]
    assert game.utility_exact == (None, None, None, WIN, LOSS, TIE, WIN)
    assert game.utility[4].tolist() == [-1.0, 1.0]
    assert game.edge_label == ("h", "t", "a", "b", "a", "b")
    assert game.edge_child.tolist() == [1, 2, 3, 4, 5, 6]


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
@pytest.mark.parametrize("form", ["per node", "shared"])
def test_malformed_declarations_are_refused(
    field: str, node: int, value: object, message: str, form: str
) -> None:
    decl = declaration()
    decl[field][node] = value
    with pytest.raises(ValueError, match=message):
        tree_game(2, **(shared(decl) if form == "shared" else decl))


@pytest.mark.parametrize("form", ["per node", "shared"])
def test_the_first_bad_node_is_named(form: str) -> None:
    """Bad tuples are found per distinct object; the error still names the first node (in
    node order) that holds one."""
    for first, later in [(3, 6), (4, 5)]:
        decl = declaration()
        decl["utility"][later] = (1.0, -1.0)
        decl["utility"][first] = (F(2),)
        with pytest.raises(ValueError, match=f"node {first} has a bad utility"):
            tree_game(2, **(shared(decl) if form == "shared" else decl))


def test_shared_fields_freeze_the_same_game() -> None:
    """Labels, probabilities and utilities given as the objects the nodes share (with -1 for
    none, and a value no node uses) freeze the game their per-node lists freeze."""
    decl = declaration()
    want = tree_game(2, **decl)
    got = tree_game(2, **shared(decl))
    assert same_games(got, want)
    acts = decl["labels"][1]
    spare = (F(1, 3), F(2, 3))
    manual = dict(
        decl,
        labels=Shared([(), ("h", "t"), acts], np.array([1, 2, 2, 0, 0, 0, 0])),
        probs=Shared([spare, HALF], np.array([1, -1, -1, -1, -1, -1, -1])),
        utility=Shared([TIE, WIN, LOSS], np.array([-1, -1, -1, 1, 2, 0, 1])),
    )
    assert same_games(tree_game(2, **manual), want)
    # The objects themselves are kept (the certificate groups utilities by identity), and a
    # decision's labels may be an equal copy of its information set's actions.
    copy = tuple(list(acts))
    manual["labels"] = Shared([(), ("h", "t"), acts, copy], np.array([1, 2, 3, 0, 0, 0, 0]))
    got = tree_game(2, **manual)
    assert same_games(got, want)
    assert got.utility_exact[3] is WIN and got.utility_exact[6] is WIN
    manual["labels"] = Shared([(), ("h", "t"), acts, ("b", "a")], np.array([1, 2, 3, 0, 0, 0, 0]))
    with pytest.raises(ValueError, match="node 2 lists its infoset's actions out of order"):
        tree_game(2, **manual)


def test_shared_by_identity_merges_equal_objects() -> None:
    """One value per distinct object (equal tuples that are other objects stay apart), the
    nodes' indices carried over, -1 kept; with no values, every node has none."""
    a, b = (F(1), F(-1)), (F(0), F(0))
    copy = tuple(list(a))
    values = [a, b, a, copy, None]
    index = [0, -1, 2, 1, 3, 4]
    got = shared_by_identity(values, np.array(index))
    assert len(got.values) == 4  # a, b, its copy and None (in the order of their addresses)
    held = [None if i < 0 else got.values[i] for i in got.index.tolist()]
    assert all(h is (None if i < 0 else values[i]) for h, i in zip(held, index, strict=True))
    assert got.index[0] == got.index[2] != got.index[4]
    empty = shared_by_identity([], np.full(3, -1, dtype=np.int64))
    assert empty.values == [] and empty.index.tolist() == [-1, -1, -1]
    for wrong in ([0, 1, 5], [0, -2, 1]):
        with pytest.raises(ValueError, match=r"an index outside -1\.\.4"):
            shared_by_identity(values, np.array(wrong))


@pytest.mark.parametrize(
    ("field", "index", "message"),
    [
        ("labels", [1, 2, 2, 0, 0, 0], "one labels index per node"),
        ("labels", [1, 2, 2, 0, 0, 0, 4], "a labels index outside its 4 values"),
        ("probs", [-2, -1, -1, -1, -1, -1, -1], "a probs index outside its 1 values"),
        ("utility", [-1, -1, -1, 0, 1, 2, 0], "terminal 5 has no utility"),
        ("utility", [-1, 0, -1, 0, 1, 0, 0], "only terminals have utilities"),
        ("labels", [1, 2, -1, 0, 0, 0, 0], "node 2 has no labels"),
        ("labels", [1, 2, 2, 3, 0, 0, 0], "node 3 has no labels"),
        ("labels", [1, 2, 2, 0, 0, 0, 0.0], "the labels index must be integers, not float64"),
    ],
)
def test_malformed_shared_fields_are_refused(field: str, index: list[int], message: str) -> None:
    """A shared field's indices: integers, one per node, each -1 or one of its values; a value
    of None counts as none (-1), which no node's labels may be."""
    acts = declaration()["labels"][1]
    fields: dict[str, Any] = {
        "labels": Shared([(), ("h", "t"), acts, None], np.array([1, 2, 2, 0, 0, 0, 0])),
        "probs": Shared([HALF], np.array([0, -1, -1, -1, -1, -1, -1])),
        "utility": Shared([WIN, LOSS, None], np.array([-1, -1, -1, 0, 1, 1, 0])),
    }
    fields[field] = Shared(fields[field].values, np.array(index))
    decl = dict(declaration(), **fields)
    with pytest.raises(ValueError, match=message):
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
