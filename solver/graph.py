"""Export a :class:`~loveformal.solver.efg.Game` as a ``networkx.DiGraph`` and as GraphML.

Nodes are the game's node ids (0 = root). GraphML holds only scalars, so tuples and keys are
written as strings. Node attributes:

* ``kind`` — ``"chance"``, ``"decision"`` or ``"terminal"``;
* ``player`` — acting player, -1 at chance and terminal nodes;
* ``infoset`` — ``repr`` of the infoset key ("" off decision nodes); ``infoset_index`` (-1);
* ``probability`` — chance reach of the node (float; summed over paths in a shared DAG) and
  ``probability_exact`` (``"num/den"``);
* ``utility`` — exact utilities ``"u0,u1,…"`` at terminals ("" elsewhere), plus float
  ``utility_<p>`` per player at terminals.

Edge attributes: ``label`` (``str`` of the action / outcome label), ``index`` (action or
outcome index), and on chance edges ``probability`` (float) and ``probability_exact``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx

from .efg import CHANCE, DECISION, TERMINAL, Game

__all__ = ["to_networkx", "write_graphml"]

_KIND_NAMES = {int(CHANCE): "chance", int(DECISION): "decision", int(TERMINAL): "terminal"}


def to_networkx(game: Game) -> Any:
    """The game as a ``networkx.DiGraph`` (typed ``Any``: networkx ships no type stubs)."""
    graph = nx.DiGraph()
    reach = game.chance_reach_exact()
    for n in range(game.num_nodes):
        info = int(game.infoset[n])
        attrs: dict[str, str | int | float] = {
            "kind": _KIND_NAMES[int(game.kind[n])],
            "player": int(game.player[n]),
            "infoset": repr(game.infosets[info].key) if info >= 0 else "",
            "infoset_index": info,
            "probability": float(reach[n]),
            "probability_exact": str(reach[n]),
            "utility": "",
        }
        u = game.utility_exact[n]
        if u is not None:
            attrs["utility"] = ",".join(str(x) for x in u)
            for p, x in enumerate(u):
                attrs[f"utility_{p}"] = float(x)
        graph.add_node(n, **attrs)
    for n in range(game.num_nodes):
        for index, e in enumerate(game.edges(n)):
            edge: dict[str, str | int | float] = {
                "label": str(game.edge_label[e]),
                "index": index,
            }
            prob = game.edge_prob_exact[e]
            if prob is not None:
                edge["probability"] = float(prob)
                edge["probability_exact"] = str(prob)
            graph.add_edge(n, int(game.edge_child[e]), **edge)
    return graph


def write_graphml(game: Game, path: str | Path) -> None:
    """Write the game as GraphML (read back with ``networkx.read_graphml(path, node_type=int)``)."""
    nx.write_graphml(to_networkx(game), str(path))
