"""Exact N-player evaluation and best response, in rational arithmetic.

A *policy* for one player maps each of that player's information-set keys to action
probabilities ``{label: p}``; it is either a mapping ``key -> {label: p}`` or a callable
``key -> {label: p}``. Probabilities may be ``Fraction``, ``int`` or ``float``; see
:func:`exact_policy` for the conversion (a float becomes its nearest fraction with a
denominator of at most 10⁹ when that denominator is at most 10⁶, else the nearest multiple of
2⁻⁶⁴; then each infoset is made to sum to exactly 1).
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

import inspect
import math
import numbers
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from loveformal.errors import MalformedInput
from loveformal.literals import echo

from .efg import (
    CHANCE,
    DECISION,
    TERMINAL,
    Game,
    Infoset,
    down_product,
    group_by_identity,
    sorted_unique,
)

__all__ = [
    "BestResponse",
    "ExactStrategy",
    "Policy",
    "best_response",
    "best_response_and_profile",
    "evaluate",
    "exact_policy",
    "user_number",
    "user_weights",
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

NEAREST_LIMIT = 10**9
RATIONAL_DENOMINATOR = 10**6
"""A float whose nearest fraction with a denominator of at most :data:`NEAREST_LIMIT` has a
denominator of at most this is taken to be that fraction: an LP's float of 1/3, or of
1,234/3,240, becomes it, so that an exact equilibrium is certified as one. (A float with no
such fraction that close — about 1e-15 — has a nearest fraction with a 9-digit
denominator.)"""
GRID = 2**64
"""Every other float is rounded to the nearest multiple of ``1 / GRID``. A power of two, so
that the products along sequences (the realization plans) share a power-of-two denominator:
the certificate's integers stay a few dozen digits long, where nearest fractions with
9-digit denominators made them a thousand digits long. The rounding moves a probability by at
most 2.7e-20, far below the LP's own error."""


NUMBER_KINDS = "int, float, Fraction, Decimal or a NumPy number"


def exact_number(value: object, where: object) -> Fraction:
    """A probability or weight given as a number, exactly (≥ 0): how an LP's floats are read,
    and a user's policy over information-set keys (:func:`exact_policy`). (A prior's weights
    and an opponent model's probabilities are read by their size: :func:`user_number`.)

    * an integer or a rational (``int``, ``Fraction``, NumPy integers) as it is, a
      ``Decimal`` exactly;
    * a float (Python's or NumPy's; a NumPy float of another precision first as the decimal
      it prints as) as its nearest fraction with a denominator of at most
      :data:`NEAREST_LIMIT` when that denominator is at most :data:`RATIONAL_DENOMINATOR`
      (0.3 is 3/10, ``1/3`` is 1/3, ``0.1 + 0.2`` is 3/10), else rounded to the nearest
      multiple of ``1 / GRID``.

    Raises :class:`~loveformal.errors.MalformedInput` (a ``ValueError``) naming ``where``
    (rendered only then) for anything else: a bool, a string, ``None``, a complex number, NaN,
    an infinity, a negative number; also when reading the value fails (a user's number type
    whose conversion raises)."""
    if type(value) is float:  # the common case first
        return _from_float(value, value, where)
    try:
        return _exact(value, where)
    except MalformedInput:
        raise
    except Exception as exc:  # the user's number type: reported, never a traceback
        raise MalformedInput(
            f"{where}: {echo(value)} cannot be read as a number ({type(exc).__name__}: "
            f"{echo(str(exc))})"
        ) from None


def refuse_coroutine(value: object, where: object) -> None:
    """:class:`~loveformal.errors.MalformedInput` for what an ``async`` function's call
    returns (closed first, so that Python does not warn of a coroutine never awaited): the
    user's functions are called, never awaited."""
    if inspect.iscoroutine(value):
        value.close()
        raise MalformedInput(
            f"{where}: got a coroutine (the function is async); give a plain function"
        )


def user_number(value: object, where: object) -> Fraction:
    """A weight or probability a user gives (a prior's weight, an opponent model's
    probability), exactly. Integers, rationals and ``Decimal`` as :func:`exact_number` reads
    them. A float is read by its size: written as ``m × 10^e`` with ``1 ≤ m < 10`` (from the
    decimal it prints as), it is the simple fraction ``m`` stands for times ``10^e`` when
    there is one (as :func:`exact_number` finds it: ``1/3`` is 1/3, ``0.1 + 0.2`` is 3/10,
    ``2e-10`` is 1/5,000,000,000, ``3 * 2e-10`` is 3/5,000,000,000), else the decimal it
    prints as, exactly (``0.123456789`` is 123,456,789/10^9).

    Only the ratios of a user's weights count, so weights scaled alike must read alike:
    ``2e-10`` and ``6e-10`` weigh 1 : 3, as ``2.0`` and ``6.0`` do. :func:`exact_number`,
    which reads an LP's floats (whose tiny values are noise), reads ``2e-10`` as 0, its
    nearest simple fraction, and rounds ``2e-9`` and ``6e-9`` to multiples of ``1 / GRID``
    that are not 1 : 3. A negative float that :func:`exact_number` reads as 0 (above
    -5e-10: float noise, such as ``0.3 - 0.1 - 0.2``) is 0 too; an opponent model's
    answer also reads tiny positive noise as 0 (:func:`user_weights`). Raises as
    :func:`exact_number` does."""
    refuse_coroutine(value, where)
    return _by_size(value, exact_number(value, where))


def _by_size(value: object, q: Fraction) -> Fraction:
    """:func:`user_number` of ``value``, which :func:`exact_number` read as ``q``."""
    if type(value) is float or isinstance(value, np.float64):
        text = repr(float(value))
    elif isinstance(value, np.floating):  # another precision: the decimal it prints as
        text = str(value)
    elif isinstance(value, float):  # a float subclass: its value, not its own __repr__
        text = float.__repr__(value)
    else:
        return q
    digits = Decimal(text)
    if not digits:
        return Fraction(0)
    if digits < 0:  # above -5e-10 (exact_number read it as 0): float noise, as 0.3 - 0.1 - 0.2
        return Fraction(0)
    e = digits.adjusted()  # the power of ten of its first digit
    near = Fraction(float(digits.scaleb(-e))).limit_denominator(NEAREST_LIMIT)
    if near.denominator <= RATIONAL_DENOMINATOR:
        return near * Fraction(10) ** e
    return Fraction(digits)


NOISE = 1e-12
"""In a set of weights read together (:func:`user_weights`), a float at most this times the
largest weight is float noise, read as 0."""


def user_weights(values: Sequence[object], wheres: Sequence[object]) -> list[Fraction]:
    """Weights a user gives together (an opponent model's answer at one information set),
    each as :func:`user_number` reads it, except that a float within :data:`NOISE` times
    the largest weight of 0 (either side) is 0: the noise of float arithmetic, as in
    ``1 - 0.7 - 0.2 - 0.1`` (2.8e-17), which reads as 0 at any scale of the weights, not as a
    weight of its own (nor, below 0, as a negative one). Raises as :func:`user_number`."""
    read = []
    for value, where in zip(values, wheres, strict=True):
        refuse_coroutine(value, where)
        read.append(_by_size(value, exact_number(value, where)))
    noise = Fraction(NOISE) * max(read, default=Fraction(0))  # exact: no weight too large
    return [
        Fraction(0) if _is_float(value) and q <= noise else q
        for value, q in zip(values, read, strict=True)
    ]


def _is_float(value: object) -> bool:
    return isinstance(value, float | np.floating)


def _exact(value: object, where: object) -> Fraction:
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Number):
        raise MalformedInput(f"{where}: expected a number >= 0 ({NUMBER_KINDS}), got {echo(value)}")
    if isinstance(value, numbers.Rational):
        return _not_negative(Fraction(int(value.numerator), int(value.denominator)), value, where)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise MalformedInput(f"{where}: {echo(value)} is not finite")
        return _not_negative(Fraction(value), value, where)
    if isinstance(value, np.floating):
        p = float(value) if isinstance(value, np.float64) else float(str(value))
    elif isinstance(value, float):  # a float subclass: its value, not its own __float__
        p = float.__float__(value)
    else:
        raise MalformedInput(f"{where}: {echo(value)} is not a number >= 0 ({NUMBER_KINDS})")
    return _from_float(p, value, where)


def _from_float(p: float, value: object, where: object) -> Fraction:
    if not math.isfinite(p):
        raise MalformedInput(f"{where}: {echo(value)} is not finite")
    q = Fraction(p).limit_denominator(NEAREST_LIMIT)
    if q.denominator > RATIONAL_DENOMINATOR:
        q = Fraction(round(p * GRID), GRID)
    return _not_negative(q, value, where)


def _not_negative(q: Fraction, value: object, where: object) -> Fraction:
    if q < 0:
        raise MalformedInput(f"{where}: {echo(value)} is negative")
    return q


def exact_policy(game: Game, player: int, policy: Policy) -> ExactStrategy:
    """Convert ``policy`` for every infoset of ``player`` into exact renormalised probabilities.

    A float becomes its nearest fraction with a denominator of at most
    :data:`NEAREST_LIMIT` when that denominator is at most :data:`RATIONAL_DENOMINATOR`, else
    the nearest multiple of ``1 / GRID``. An infoset's probabilities that then sum to 1 are
    kept; floats that miss 1 by at most 1e-9 (rounding) have the largest take up the
    difference; anything else is divided by its sum.

    Raises ``ValueError`` for an infoset the policy does not cover, an unknown action label, a
    negative probability, or an infoset whose probabilities are all 0.
    """
    out: ExactStrategy = {}
    cache: dict[object, Fraction] = {}
    for info in game.infosets_of(player):
        if callable(policy):
            probs = policy(info.key)
        else:
            try:
                probs = policy[info.key]
            except KeyError:
                raise ValueError(f"{_where(player, info.key)}: the policy has no entry") from None
        if tuple(probs) != info.actions and (  # the usual case: the same keys, in order
            len(probs) > len(info.actions) or any(a not in info.actions for a in probs)
        ):
            unknown = [a for a in probs if a not in info.actions]
            raise ValueError(
                f"{_where(player, info.key)}: unknown action(s) {unknown!r}; "
                f"the actions are {list(info.actions)!r}"
            )
        raw = []
        rounded = False
        for a in info.actions:
            p = probs.get(a, 0)
            q = cache.get(p) if type(p) is float else None
            if q is None:
                q = exact_number(p, _Where(player, info.key, a))
                if type(p) is float:
                    cache[p] = q
            rounded = rounded or isinstance(p, float | np.floating)
            raw.append(q)
        # In integers over the least common denominator.
        common = math.lcm(*[q.denominator for q in raw])
        nums = [q.numerator * (common // q.denominator) for q in raw]
        total = sum(nums)
        if total == 0:
            raise ValueError(f"{_where(player, info.key)}: all action probabilities are 0")
        if total == common:
            out[info.index] = tuple(raw)
        elif rounded and abs(total - common) <= common // 10**9:
            # Floats that sum to 1 but for rounding: the largest takes up the difference
            # (which keeps every probability on the grid).
            j = nums.index(max(nums))
            nums[j] += common - total
            out[info.index] = tuple(Fraction(n, common) for n in nums)
        else:  # weights: q / Σ = n / Σn
            out[info.index] = tuple(Fraction(n, total) for n in nums)
    return out


def _where(player: int, key: object) -> str:
    return f"player {player}, information set {key!r}"


class _Where:
    """Where a probability comes from, rendered only for an error message."""

    def __init__(self, player: int, key: object, action: object) -> None:
        self.player, self.key, self.action = player, key, action

    def __str__(self) -> str:
        return f"{_where(self.player, self.key)}, action {self.action!r}"


def _exact_chance_reach_terminals(game: Game) -> tuple[list[int], list[int], list[int]]:
    """For a tree: the terminals, and each one's exact chance reach as ``R / L`` with one
    common denominator ``L``: returns ``(terminals, R per terminal, [L])``."""
    n = game.num_nodes
    chance_edges = np.flatnonzero(~np.isnan(game.edge_prob))
    probs = game.edge_prob_exact
    # Edges share their Fraction objects: split each distinct one once.
    held = [probs[e] for e in chance_edges.tolist()]
    first, which = group_by_identity(held)
    distinct = [held[i] for i in first.tolist()]
    if any(p is None for p in distinct):
        raise AssertionError("a chance edge has no exact probability")
    d_num = [p.numerator for p in distinct if p is not None]
    d_den = [p.denominator for p in distinct if p is not None]
    into = game.edge_child[chance_edges]
    big = max(d_den, default=1) > 2**20
    dtype: type = object if big else np.int64
    num: Any = np.ones(n, dtype=dtype)
    den: Any = np.ones(n, dtype=dtype)
    num[into] = np.array(d_num, dtype=dtype)[which]
    den[into] = np.array(d_den, dtype=dtype)[which]
    terminals = np.flatnonzero(game.kind == TERMINAL)
    if not big and float(down_product(game, den.astype(np.float64)).max()) > 2.0**60:
        num, den = num.astype(object), den.astype(object)
    num = down_product(game, num)  # exact (int64 below 2**60)
    den = down_product(game, den)
    common = 1
    if num.dtype != object:
        for d in np.unique(den[terminals]).tolist():
            common = math.lcm(common, int(d))
        if common < 2**62:  # every reach numerator is at most the common denominator
            t_den = den[terminals]
            reach = num[terminals] * (np.int64(common) // t_den)
            return terminals.tolist(), reach.tolist(), [common]
        common = 1
    t_num = num[terminals].tolist()
    t_dens = den[terminals].tolist()
    for d in set(t_dens):
        common = math.lcm(common, int(d))
    exact = [int(a) * (common // int(d)) for a, d in zip(t_num, t_dens, strict=True)]
    return terminals.tolist(), exact, [common]


def _plans(
    game: Game, table: Sequence[tuple[Fraction, ...] | None], players: Sequence[int]
) -> dict[int, tuple[list[int], int]]:
    """Exact realization plans of ``players``: per player, ``X(σ)`` as integers over one
    common denominator ``D`` (``x(σ) = X(σ) / D``)."""
    out: dict[int, tuple[list[int], int]] = {}
    for p in players:
        x: list[Fraction] = [Fraction(0)] * game.num_sequences(p)
        x[0] = Fraction(1)
        for info in game.infosets_of(p):
            probs = table[info.index]
            assert probs is not None
            base = x[info.parent_sequence]
            for a, q in enumerate(probs):
                x[info.first_sequence + a] = base * q if base and q else Fraction(0)
        common = 1
        for d in {v.denominator for v in x}:
            common = math.lcm(common, d)
        out[p] = ([v.numerator * (common // v.denominator) for v in x], common)
    return out


class _Grouped:
    """A tree game's terminals grouped by their tuple of own sequences: per group the exact
    chance-weighted utility sum ``Σ_z π_c(z) u_i(z)`` (the sequence-form payoff tensor) as
    integers over one denominator."""

    def __init__(self, game: Game) -> None:
        terminals, reach, (common,) = _exact_chance_reach_terminals(game)
        n_players = game.num_players
        util_den = 1
        utils = [game.utility_exact[z] for z in terminals]
        # Builders share one tuple among the terminals with the same utilities.
        first, which = group_by_identity(utils)
        distinct = [utils[i] for i in first.tolist()]
        for u in distinct:
            assert u is not None
            for v in u:
                util_den = math.lcm(util_den, v.denominator)
        self.denominator = common * util_den
        self.keys: npt.NDArray[np.int64] | None = None
        self.values: npt.NDArray[np.int64] | None = None
        self._sums: dict[tuple[int, ...], list[int]] | None = None
        if self._vectorised(game, terminals, reach, common, which, distinct, util_den):
            return
        own = game.own_sequence[terminals].tolist()
        sums: dict[tuple[int, ...], list[int]] = {}
        int_util: dict[int, tuple[int, ...]] = {}
        for r, u, seqs in zip(reach, utils, own, strict=True):
            if not r:
                continue
            assert u is not None
            iu = int_util.get(id(u))
            if iu is None:
                iu = int_util[id(u)] = tuple(v.numerator * (util_den // v.denominator) for v in u)
            key = tuple(seqs)
            acc = sums.get(key)
            if acc is None:
                sums[key] = [r * x for x in iu]
            else:
                for i in range(n_players):
                    acc[i] += r * iu[i]
        self._sums = sums

    @property
    def sums(self) -> dict[tuple[int, ...], list[int]]:
        """Own-sequence tuple -> the exact sums (numerators over :attr:`denominator`)."""
        if self._sums is None:
            assert self.keys is not None and self.values is not None
            self._sums = dict(
                zip(map(tuple, self.keys.tolist()), self.values.tolist(), strict=True)
            )
        return self._sums

    def _vectorised(
        self,
        game: Game,
        terminals: list[int],
        reach: list[int],
        common: int,
        which: npt.NDArray[np.intp],
        distinct: list[tuple[Fraction, ...] | None],
        util_den: int,
    ) -> bool:
        """The grouping in int64 numpy when no sum can overflow (the reach numerators of a
        group sum to at most ``common``): returns False (nothing done) otherwise. ``which``
        gives each terminal's row of ``distinct``, its distinct utility tuples."""
        table = []
        for u in distinct:
            assert u is not None
            table.append([v.numerator * (util_den // v.denominator) for v in u])
        biggest = max((abs(x) for row in table for x in row), default=0)
        if not terminals or common * max(biggest, 1) >= 2**62:
            return False
        r = np.array(reach, dtype=np.int64)
        values = r[:, None] * np.array(table, dtype=np.int64)[which]
        own = game.own_sequence[np.array(terminals, dtype=np.int64)].astype(np.int64)
        # One integer per sequence tuple (mixed radix) when it fits, else rows.
        radix = [game.num_sequences(p) for p in range(game.num_players)]
        if math.prod(radix) < 2**62:
            flat = np.zeros(own.shape[0], dtype=np.int64)
            for p, size in enumerate(radix):
                flat = flat * size + own[:, p]
            uniq, _, group = sorted_unique(flat)
            keys = np.empty((uniq.shape[0], len(radix)), dtype=np.int64)
            for p in range(len(radix) - 1, -1, -1):
                uniq, keys[:, p] = np.divmod(uniq, radix[p])
        else:
            keys, group = np.unique(own, axis=0, return_inverse=True)
        sums = np.zeros((keys.shape[0], game.num_players), dtype=np.int64)
        np.add.at(sums, group.reshape(-1), values)
        self.keys, self.values = keys, sums
        return True


def _grouped(game: Game) -> _Grouped:
    cached: _Grouped | None = game.__dict__.get("_grouped_cache")
    if cached is None:
        cached = _Grouped(game)
        object.__setattr__(game, "_grouped_cache", cached)
    return cached


def _tree_values(game: Game, table: Sequence[tuple[Fraction, ...] | None]) -> tuple[Fraction, ...]:
    """Root expected utilities of a tree game under a full exact profile."""
    g = _grouped(game)
    n = game.num_players
    plans = _plans(game, table, range(n))
    totals = [0] * n
    for seqs, us in g.sums.items():
        w = 1
        for p in range(n):
            w *= plans[p][0][seqs[p]]
            if not w:
                break
        if w:
            for i in range(n):
                totals[i] += w * us[i]
    den = g.denominator
    for p in range(n):
        den *= plans[p][1]
    return tuple(Fraction(t, den) for t in totals)


def _tree_best_response(
    game: Game, seat: int, table: Sequence[tuple[Fraction, ...] | None]
) -> BestResponse:
    """As :func:`_best_response`, on a tree game, in integers over one denominator."""
    g = _grouped(game)
    others = [p for p in range(game.num_players) if p != seat]
    plans = _plans(game, table, others)
    w = [0] * game.num_sequences(seat)
    for seqs, us in g.sums.items():
        r = us[seat]
        if not r:
            continue
        for p in others:
            r *= plans[p][0][seqs[p]]
            if not r:
                break
        if r:
            w[seqs[seat]] += r
    den = g.denominator
    for p in others:
        den *= plans[p][1]
    return _pure_response(game, seat, w, den)


def tree_values_and_responses(
    game: Game,
    table: Sequence[tuple[Fraction, ...] | None],
    plans: dict[int, tuple[list[int], int]] | None = None,
) -> tuple[tuple[Fraction, ...], tuple[BestResponse, BestResponse]]:
    """On a two-player tree game: the root values under ``table`` and both players' best
    responses, in one pass over the grouped payoffs (each realization plan computed once).
    The same results as :func:`_root_values` and :func:`_best_response`. ``plans``, when
    given, are both players' realization plans in the form of :func:`_plans` (``table`` is
    then not read)."""
    g = _grouped(game)
    if plans is None:
        plans = _plans(game, table, (0, 1))
    (x0, d0), (x1, d1) = plans[0], plans[1]
    total0 = total1 = 0
    w0 = [0] * game.num_sequences(0)
    w1 = [0] * game.num_sequences(1)
    if g.keys is not None and g.values is not None:
        if g.keys.shape[1] != 2:
            raise ValueError(f"a two-player pass on a game of {g.keys.shape[1]} players")
        w0, total0 = _weights(g.keys[:, 0], g.keys[:, 1], g.values[:, 0], x0, x1, len(w0))
        w1, total1 = _weights(g.keys[:, 1], g.keys[:, 0], g.values[:, 1], x1, x0, len(w1))
    else:
        for (s0, s1), (u0, u1) in g.sums.items():
            a, b = x0[s0], x1[s1]
            if b and u0:
                r = u0 * b
                w0[s0] += r
                total0 += r * a
            if a and u1:
                r = u1 * a
                w1[s1] += r
                total1 += r * b
    den = g.denominator
    values = (Fraction(total0, den * d0 * d1), Fraction(total1, den * d0 * d1))
    return values, (_pure_response(game, 0, w0, den * d1), _pure_response(game, 1, w1, den * d0))


def _weights(
    own: npt.NDArray[np.int64],
    other: npt.NDArray[np.int64],
    payoff: npt.NDArray[np.int64],
    x_own: list[int],
    x_other: list[int],
    size: int,
) -> tuple[list[int], int]:
    """From the grouped payoffs (one entry per pair of sequences: ``own[i]``, ``other[i]``,
    numerator ``payoff[i]``): each own sequence's payoff against the other plan
    (``Σ payoff · x_other``, exact integers) and the plans' total ``Σ x_own · w``. Only the
    entries the other plan reaches, with a nonzero payoff, are read: the rest add 0."""
    reached = np.fromiter((v != 0 for v in x_other), dtype=np.bool_, count=len(x_other))
    keep = np.flatnonzero(reached[other] & (payoff != 0))
    w = [0] * size
    for s, t, u in zip(
        own[keep].tolist(), other[keep].tolist(), payoff[keep].tolist(), strict=True
    ):
        w[s] += u * x_other[t]
    total = sum(a * b for a, b in zip(x_own, w, strict=True) if a and b)
    return w, total


def _pure_response(game: Game, seat: int, w: list[int], den: int) -> BestResponse:
    """The pure best response of ``seat`` from ``w``: each of its sequences' payoff against
    the others' plans, numerators over ``den`` (completed bottom-up in place)."""
    infos = game.infosets_of(seat)
    chosen = [0] * len(infos)
    for j in range(len(infos) - 1, -1, -1):
        info = infos[j]
        lo = info.first_sequence
        vals = w[lo : lo + len(info.actions)]
        top = max(vals)
        best = vals.index(top)  # the first best action
        chosen[j] = best
        w[info.parent_sequence] += top
    # Every information set's values were final when it was read (its descendants come
    # later in the order), and nothing wrote to them after: ``w`` holds them all.
    strategy = {info.key: info.actions[b] for info, b in zip(infos, chosen, strict=True)}
    return BestResponse(
        seat=seat,
        value=Fraction(w[0], den),
        strategy=strategy,
        action_values=_ActionValues(infos, w, den),
    )


class _ActionValues(Mapping[Hashable, tuple[Fraction, ...]]):
    """Infoset key -> ``W(I, a)`` per action, as Fractions made on first use from integer
    numerators over one denominator (a certificate reads a handful of them)."""

    def __init__(self, infos: Sequence[Infoset], numerators: list[int], den: int) -> None:
        self._slots = {info.key: (info.first_sequence, len(info.actions)) for info in infos}
        self._numerators, self._den = numerators, den

    def __getitem__(self, key: Hashable) -> tuple[Fraction, ...]:
        lo, k = self._slots[key]
        return tuple(Fraction(v, self._den) for v in self._numerators[lo : lo + k])

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._slots)

    def __len__(self) -> int:
        return len(self._slots)


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
    return _root_values(game, table)


def _root_values(game: Game, table: Sequence[tuple[Fraction, ...] | None]) -> tuple[Fraction, ...]:
    """Expected utilities at the root under a full exact profile."""
    if game.is_tree():
        return _tree_values(game, table)
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
    action_values: Mapping[Hashable, tuple[Fraction, ...]]
    """Infoset key -> ``W(I, a)`` per action (counterfactual values, canonical order)."""

    def policy(self) -> dict[Hashable, dict[Hashable, Fraction]]:
        """The best response as a behaviour policy ``key -> {label: 1}``."""
        return {k: {a: Fraction(1)} for k, a in self.strategy.items()}


def _best_response(
    game: Game, seat: int, table: Sequence[tuple[Fraction, ...] | None]
) -> BestResponse:
    if game.is_tree():
        return _tree_best_response(game, seat, table)
    return _node_best_response(game, seat, table)


def _node_best_response(
    game: Game, seat: int, table: Sequence[tuple[Fraction, ...] | None]
) -> BestResponse:
    """The best response node by node in ``Fraction`` s (any DAG; the reference)."""
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
    return best_response_and_profile(game, seat, opponents)[0]


def best_response_and_profile(
    game: Game, seat: int, opponents: Sequence[Policy | None] | Mapping[int, Policy]
) -> tuple[BestResponse, list[tuple[Fraction, ...] | None]]:
    """:func:`best_response`, and the other players' exact probabilities it was computed
    against (per infoset index, as :func:`exact_policy` makes them; None at ``seat``'s
    information sets), for a caller that reads the same profile again."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat {seat} out of range 0..{game.num_players - 1}")
    if isinstance(opponents, Mapping):
        given: Mapping[int, Policy] = opponents
    else:
        given = {p: pol for p, pol in enumerate(opponents) if pol is not None}
    table = _exact_profile(game, given, skip=seat)
    return _best_response(game, seat, table), table
