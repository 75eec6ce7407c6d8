"""Exact N-player evaluation and best response, in rational arithmetic.

A *policy* for one player maps each of that player's information-set keys to action
probabilities ``{label: p}``; it is either a mapping ``key -> {label: p}`` or a callable
``key -> {label: p}``. Probabilities may be ``Fraction``, ``int`` or ``float``; see
:func:`exact_policy` for the conversion (floats are rounded with
``Fraction(p).limit_denominator(10**9)``, then each infoset is renormalised to sum to exactly 1).
Labels missing from ``{label: p}`` get probability 0.

:func:`evaluate` computes ``u_i(σ) = Σ_z π_c(z) Π_j π_j(z) u_i(z)`` for every player ``i``
(``π_c`` chance reach, ``π_j`` player ``j``'s behaviour reach), bottom-up over the DAG.

:func:`best_response` computes, for a seat ``i`` against fixed policies of all the other
players, ``BR_i = max_{x_i} u_i(x_i, σ_{-i})`` over the seat's *information-set respecting*
strategies (the seat does not see hidden information: it picks one action per infoset, not per
history). It uses the sequence form: the seat's utility is linear in its realization plan,
``u_i = Σ_σ g(σ) x_i(σ)`` with ``g(σ) = Σ_{z: seq_i(z)=σ} π_c(z) π_{-i}(z) u_i(z)``, so one
bottom-up pass over the seat's sequence tree,
``W(I, a) = g((I, a)) + Σ_{J after (I, a)} max_b W(J, b)``, ``BR_i = g(∅) + Σ_{J first} max_b
W(J, b)``, yields the value and a pure best response. ``W(I, a)`` is exactly the counterfactual
value of playing ``a`` at ``I`` (and best responding below), summed over the nodes of ``I``
weighted by the opponents' and chance reach. Ties go to the first action in label order.
(The "expecti-max" is thus over the seat's infosets, with expectation over chance and the
opponents' mixed actions.)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .efg import CHANCE, DECISION, TERMINAL, Game

__all__ = [
    "BestResponse",
    "ExactStrategy",
    "Policy",
    "best_response",
    "evaluate",
    "exact_policy",
]

Number = Fraction | float | int
"""A probability as accepted from callers."""
# Keys and labels are typed Any rather than Hashable because Mapping is invariant in its key
# type: a caller's ``dict[str, dict[str, float]]`` must be accepted as a policy.
ActionProbs = Mapping[Any, Number]
Policy = Mapping[Any, ActionProbs] | Callable[[Any], ActionProbs]
"""One player's behaviour strategy: infoset key -> {action label: probability}."""
ExactStrategy = dict[int, tuple[Fraction, ...]]
"""Infoset index -> exact probabilities in the infoset's canonical action order."""

DENOMINATOR_LIMIT = 10**9


def _to_fraction(p: Number, where: str) -> Fraction:
    if isinstance(p, bool) or not isinstance(p, Fraction | float | int):
        raise TypeError(f"{where}: probability must be a number, got {p!r}")
    if isinstance(p, float):
        if p != p or p in (float("inf"), float("-inf")):
            raise ValueError(f"{where}: probability {p!r} is not finite")
        q = Fraction(p).limit_denominator(DENOMINATOR_LIMIT)
    else:
        q = Fraction(p)
    if q < 0:
        raise ValueError(f"{where}: negative probability {p!r}")
    return q


def exact_policy(game: Game, player: int, policy: Policy) -> ExactStrategy:
    """Convert ``policy`` for every infoset of ``player`` into exact renormalised probabilities.

    Raises ``ValueError`` for an infoset the policy does not cover, an unknown action label, a
    negative probability, or an infoset whose probabilities are all 0.
    """
    out: ExactStrategy = {}
    for info in game.infosets_of(player):
        where = f"player {player}, information set {info.key!r}"
        if callable(policy):
            probs = policy(info.key)
        else:
            try:
                probs = policy[info.key]
            except KeyError:
                raise ValueError(f"{where}: the policy has no entry") from None
        unknown = [a for a in probs if a not in info.actions]
        if unknown:
            raise ValueError(
                f"{where}: unknown action(s) {unknown!r}; the actions are {list(info.actions)!r}"
            )
        raw = [_to_fraction(probs.get(a, 0), f"{where}, action {a!r}") for a in info.actions]
        total = sum(raw, Fraction(0))
        if total == 0:
            raise ValueError(f"{where}: all action probabilities are 0")
        out[info.index] = tuple(q / total for q in raw)
    return out


def _exact_profile(
    game: Game, policies: Mapping[int, Policy], skip: int | None = None
) -> list[tuple[Fraction, ...] | None]:
    """Exact probabilities per infoset index for every player but ``skip``."""
    table: list[tuple[Fraction, ...] | None] = [None] * len(game.infosets)
    for p in range(game.num_players):
        if p == skip:
            continue
        if p not in policies:
            raise ValueError(f"no policy given for player {p}")
        for index, probs in exact_policy(game, p, policies[p]).items():
            table[index] = probs
    return table


def _as_mapping(profile: Sequence[Policy] | Mapping[int, Policy]) -> Mapping[int, Policy]:
    if isinstance(profile, Mapping):
        return profile
    return dict(enumerate(profile))


def evaluate(game: Game, profile: Sequence[Policy] | Mapping[int, Policy]) -> tuple[Fraction, ...]:
    """Exact expected utility of every player under ``profile`` (one policy per player)."""
    table = _exact_profile(game, _as_mapping(profile))
    return _values(game, table)[0]


def _values(game: Game, table: Sequence[tuple[Fraction, ...] | None]) -> list[tuple[Fraction, ...]]:
    """Expected utilities per node under a full exact profile (bottom-up)."""
    n_players = game.num_players
    zero = (Fraction(0),) * n_players
    values: list[tuple[Fraction, ...]] = [zero] * game.num_nodes
    kinds = game.kind.tolist()
    infosets = game.infoset.tolist()
    starts = game.child_start.tolist()
    children = game.edge_child.tolist()
    for n in range(game.num_nodes - 1, -1, -1):
        k = kinds[n]
        if k == TERMINAL:
            u = game.utility_exact[n]
            assert u is not None
            values[n] = u
            continue
        if k == CHANCE:
            weights: Sequence[Fraction | None] = game.edge_prob_exact[starts[n] : starts[n + 1]]
        else:
            probs = table[infosets[n]]
            assert probs is not None
            weights = probs
        acc: Sequence[Fraction] = zero
        for w, e in zip(weights, range(starts[n], starts[n + 1]), strict=True):
            assert w is not None
            if not w:
                continue
            child = values[children[e]]
            if w == 1:
                acc = [a + c for a, c in zip(acc, child, strict=True)]
            else:
                acc = [a + w * c for a, c in zip(acc, child, strict=True)]
        values[n] = tuple(acc)
    return values


def _others_reach(
    game: Game, seat: int, table: Sequence[tuple[Fraction, ...] | None]
) -> list[Fraction]:
    """Per node: chance reach times every other player's behaviour reach (top-down)."""
    reach = [Fraction(0)] * game.num_nodes
    reach[0] = Fraction(1)
    kinds = game.kind.tolist()
    players = game.player.tolist()
    infosets = game.infoset.tolist()
    starts = game.child_start.tolist()
    children = game.edge_child.tolist()
    for n in range(game.num_nodes):
        r = reach[n]
        k = kinds[n]
        if k == TERMINAL or not r:
            continue
        lo, hi = starts[n], starts[n + 1]
        if k == DECISION and players[n] == seat:
            for e in range(lo, hi):
                reach[children[e]] += r
            continue
        if k == CHANCE:
            weights: Sequence[Fraction | None] = game.edge_prob_exact[lo:hi]
        else:
            probs = table[infosets[n]]
            assert probs is not None
            weights = probs
        for w, e in zip(weights, range(lo, hi), strict=True):
            assert w is not None
            if w:
                reach[children[e]] += r * w
    return reach


@dataclass(frozen=True)
class BestResponse:
    """A best response of ``seat`` against fixed policies of the other players."""

    seat: int
    value: Fraction
    """``max_x u_seat(x, σ_-seat)``, exact."""
    strategy: dict[Hashable, Hashable]
    """Infoset key -> chosen action label (pure; every infoset of the seat, reached or not)."""
    action_values: dict[Hashable, tuple[Fraction, ...]]
    """Infoset key -> ``W(I, a)`` per action (counterfactual values, canonical order)."""

    def policy(self) -> dict[Hashable, dict[Hashable, Fraction]]:
        """The best response as a behaviour policy ``key -> {label: 1}``."""
        return {k: {a: Fraction(1)} for k, a in self.strategy.items()}


def _best_response(
    game: Game, seat: int, table: Sequence[tuple[Fraction, ...] | None]
) -> BestResponse:
    reach = _others_reach(game, seat, table)
    w = [Fraction(0)] * game.num_sequences(seat)
    own = game.own_sequence[:, seat].tolist()
    kinds = game.kind.tolist()
    for n in range(game.num_nodes):
        if kinds[n] == TERMINAL and reach[n]:
            u = game.utility_exact[n]
            assert u is not None
            w[own[n]] += reach[n] * u[seat]
    strategy: dict[Hashable, Hashable] = {}
    action_values: dict[Hashable, tuple[Fraction, ...]] = {}
    # Infosets following a sequence of I have larger indices than I: go in reverse.
    for info in reversed(game.infosets_of(seat)):
        vals = tuple(w[info.first_sequence : info.first_sequence + len(info.actions)])
        best = max(range(len(vals)), key=lambda a: (vals[a], -a))
        strategy[info.key] = info.actions[best]
        action_values[info.key] = vals
        w[info.parent_sequence] += vals[best]
    ordered = {i.key: strategy[i.key] for i in game.infosets_of(seat)}
    ordered_vals = {i.key: action_values[i.key] for i in game.infosets_of(seat)}
    return BestResponse(seat=seat, value=w[0], strategy=ordered, action_values=ordered_vals)


def best_response(
    game: Game, seat: int, opponents: Sequence[Policy | None] | Mapping[int, Policy]
) -> BestResponse:
    """Exact best response of ``seat`` against the other players' policies.

    ``opponents`` is a mapping ``player -> policy`` or a sequence indexed by player (the entry
    of ``seat`` itself is ignored and may be None); every other player needs a policy.
    """
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat {seat} out of range 0..{game.num_players - 1}")
    if isinstance(opponents, Mapping):
        given: Mapping[int, Policy] = opponents
    else:
        given = {p: pol for p, pol in enumerate(opponents) if pol is not None}
    table = _exact_profile(game, given, skip=seat)
    return _best_response(game, seat, table)
