"""Exact certification of a strategy profile.

Given a game and a behaviour profile ``σ = (σ_0, …, σ_{n-1})`` (floats or Fractions), the
profile is first made exact: each float becomes a nearby fraction (its nearest fraction with
a denominator of at most 10⁹ if that denominator is at most 10⁶, else the nearest multiple of
2⁻⁶⁴) and each infoset's probabilities are made to sum to exactly 1 (see
:func:`loveformal.solver.expectimax.exact_policy`). Everything below is then computed in
rational arithmetic for *that* exact profile — the certificate is a statement about the
rounded profile, which it also returns.

* ``expected_values[i] = u_i(σ)``;
* ``best_response_values[i] = BR_i = max_{x_i} u_i(x_i, σ_{-i})``, the information-set
  respecting best response (see :mod:`loveformal.solver.expectimax`);
* ``gains[i] = BR_i − u_i(σ) ≥ 0``; ``nash_conv = Σ_i gains[i]`` (0 iff σ is a Nash
  equilibrium);
* ``exploitability = nash_conv / n`` — the mean gain. For two-player zero-sum games this is
  OpenSpiel's convention, ``(BR_0(σ_1) + BR_1(σ_0)) / 2``, half the width of the value
  bracket;
* ``value_bracket`` (two-player zero-sum games only), in player 0's utility:
  ``[−BR_1(σ_0), BR_0(σ_1)]``. σ_0 guarantees player 0 at least ``min_y u_0(σ_0, y) =
  −BR_1(σ_0)`` and σ_1 holds player 0 to at most ``BR_0(σ_1)``, so the game value lies in
  the bracket; when it is a single point the profile is an exact equilibrium and that point
  is the exact game value.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .efg import Game, Infoset, gc_paused
from .expectimax import (
    BestResponse,
    Policy,
    _as_mapping,
    _best_response,
    _exact_profile,
    _root_values,
    tree_values_and_responses,
)

__all__ = ["Certificate", "Plan", "certify", "certify_plans"]


@dataclass(frozen=True)
class Certificate:
    """The exact figures of :func:`certify` (see the module docstring)."""

    expected_values: tuple[Fraction, ...]
    best_response_values: tuple[Fraction, ...]
    best_responses: tuple[dict[Hashable, Hashable], ...]
    """Per player: a pure best response, infoset key -> action label."""
    gains: tuple[Fraction, ...]
    nash_conv: Fraction
    exploitability: Fraction
    """``nash_conv / num_players``."""
    value_bracket: tuple[Fraction, Fraction] | None
    """``[−BR_1(σ_0), BR_0(σ_1)]`` for two-player zero-sum games, else None."""
    profile: tuple[Mapping[Hashable, Mapping[Hashable, Fraction]], ...]
    """The exact (rounded, renormalised) profile that was certified."""
    seconds: float
    responses: tuple[BestResponse, ...] = ()
    """Per player: the full best response (value, pure strategy and the counterfactual value
    ``W(I, a)`` of every action of every infoset) against the certified profile."""

    @property
    def is_equilibrium(self) -> bool:
        return self.nash_conv == 0


def certify(game: Game, profile: Sequence[Policy] | Mapping[int, Policy]) -> Certificate:
    """Certify ``profile`` (one policy per player) on ``game`` exactly (with the garbage
    collector paused: see :func:`~loveformal.solver.efg.gc_paused`)."""
    with gc_paused():
        return _certify(game, profile)


Plan = tuple[list[int], int]
"""A realization plan as integers over one denominator: ``x(σ) = X[σ] / D``."""


def certify_plans(game: Game, plans: tuple[Plan, Plan]) -> Certificate | None:
    """As :func:`certify`, for a two-player tree game whose profile is given exactly as both
    players' realization plans (the LP's exact vertex, :mod:`~loveformal.solver.vertex`);
    the behaviour profile is read off them (uniform below a sequence of weight 0). None when
    a plan is not one: ``X[∅] ≠ D``, a negative entry, or an information set whose actions'
    entries do not sum to its parent sequence's."""
    if game.num_players != 2 or not game.is_tree():
        raise ValueError("certify_plans needs a two-player tree game")
    with gc_paused():
        start = time.perf_counter()
        for p, (nums, den) in enumerate(plans):
            if not _is_plan(game, p, nums, den):
                return None
        values, responses = tree_values_and_responses(game, (), dict(enumerate(plans)))
        profile = tuple(_Behaviour(game.infosets_of(p), plans[p][0]) for p in (0, 1))
        return _certificate(game, values, responses, profile, start)


def _is_plan(game: Game, player: int, nums: list[int], den: int) -> bool:
    if len(nums) != game.num_sequences(player) or den <= 0 or nums[0] != den:
        return False
    if min(nums) < 0:
        return False
    for info in game.infosets_of(player):
        lo = info.first_sequence
        if sum(nums[lo : lo + len(info.actions)]) != nums[info.parent_sequence]:
            return False
    return True


class _Behaviour(Mapping[Hashable, Mapping[Hashable, Fraction]]):
    """Infoset key -> the behaviour probabilities of a realization plan, made on first use
    (uniform where the parent sequence has weight 0)."""

    def __init__(self, infos: Sequence[Infoset], nums: list[int]) -> None:
        self._infos = {info.key: info for info in infos}
        self._nums = nums

    def __getitem__(self, key: Hashable) -> Mapping[Hashable, Fraction]:
        info = self._infos[key]
        parent = self._nums[info.parent_sequence]
        lo, k = info.first_sequence, len(info.actions)
        if not parent:
            return {a: Fraction(1, k) for a in info.actions}
        kids = self._nums[lo : lo + k]
        return {a: Fraction(v, parent) for a, v in zip(info.actions, kids, strict=True)}

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


def _certify(game: Game, profile: Sequence[Policy] | Mapping[int, Policy]) -> Certificate:
    start = time.perf_counter()
    table = _exact_profile(game, _as_mapping(profile))
    responses: Sequence[BestResponse]
    if game.num_players == 2 and game.is_tree():
        values, responses = tree_values_and_responses(game, table)
    else:
        values = _root_values(game, table)
        responses = [_best_response(game, p, table) for p in range(game.num_players)]
    exact: list[dict[Hashable, dict[Hashable, Fraction]]] = [{} for _ in range(game.num_players)]
    for info in game.infosets:
        probs = table[info.index]
        assert probs is not None
        exact[info.player][info.key] = dict(zip(info.actions, probs, strict=True))
    return _certificate(game, values, responses, tuple(exact), start)


def _certificate(
    game: Game,
    values: tuple[Fraction, ...],
    responses: Sequence[BestResponse],
    profile: tuple[Mapping[Hashable, Mapping[Hashable, Fraction]], ...],
    start: float,
) -> Certificate:
    """The figures of a certificate from the root values and the best responses."""
    br_values = tuple(r.value for r in responses)
    gains = tuple(b - v for b, v in zip(br_values, values, strict=True))
    nash_conv = sum(gains, Fraction(0))
    bracket: tuple[Fraction, Fraction] | None = None
    if game.num_players == 2 and game.is_zero_sum():
        bracket = (-br_values[1], br_values[0])
    return Certificate(
        expected_values=values,
        best_response_values=br_values,
        best_responses=tuple(r.strategy for r in responses),
        gains=gains,
        nash_conv=nash_conv,
        exploitability=nash_conv / game.num_players,
        value_bracket=bracket,
        profile=profile,
        seconds=time.perf_counter() - start,
        responses=tuple(responses),
    )
