"""Small games built through :class:`loveformal.solver.efg.GameBuilder`, with known answers."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from itertools import permutations

from loveformal.solver.efg import Game, GameBuilder

F = Fraction
KUHN_CARDS = ("J", "Q", "K")
KUHN_VALUE = F(-1, 18)
"""Value of Kuhn poker for the first player (Kuhn 1950)."""

ExactPolicy = dict[Hashable, dict[Hashable, Fraction]]


def kuhn_poker() -> Game:
    """Kuhn poker: ante 1, one bet of 1; actions ``p`` (pass/check/fold) and ``b`` (bet/call).

    Infoset keys: player 0 ``"K"`` (first decision) and ``"Kpb"`` (after check, bet);
    player 1 ``"Kp"`` (after a check) and ``"Kb"`` (facing a bet).
    """
    b = GameBuilder(2)
    deals = []
    for c0, c1 in permutations(KUHN_CARDS, 2):
        win = 1 if KUHN_CARDS.index(c0) > KUHN_CARDS.index(c1) else -1

        def end(u0: int) -> int:
            return b.terminal([u0, -u0])

        after_pb = b.decision(0, c0 + "pb", [("p", end(-1)), ("b", end(2 * win))])
        after_p = b.decision(1, c1 + "p", [("p", end(win)), ("b", after_pb)])
        after_b = b.decision(1, c1 + "b", [("p", end(1)), ("b", end(2 * win))])
        first = b.decision(0, c0, [("p", after_p), ("b", after_b)])
        deals.append((c0 + c1, F(1, 6), first))
    return b.build(b.chance(deals))


def kuhn_equilibrium(alpha: Fraction) -> tuple[ExactPolicy, ExactPolicy]:
    """Kuhn's equilibrium family, ``0 <= alpha <= 1/3`` (value −1/18 for player 0)."""

    def mix(bet: Fraction) -> dict[Hashable, Fraction]:
        return {"p": 1 - bet, "b": bet}

    p0: ExactPolicy = {
        "J": mix(alpha),
        "Jpb": mix(F(0)),
        "Q": mix(F(0)),
        "Qpb": mix(alpha + F(1, 3)),
        "K": mix(3 * alpha),
        "Kpb": mix(F(1)),
    }
    p1: ExactPolicy = {
        "Jp": mix(F(1, 3)),
        "Jb": mix(F(0)),
        "Qp": mix(F(0)),
        "Qb": mix(F(1, 3)),
        "Kp": mix(F(1)),
        "Kb": mix(F(1)),
    }
    return p0, p1


def always_bet(player: int) -> ExactPolicy:
    """Kuhn: bet or call at every infoset of ``player``."""
    suffixes = ("", "pb") if player == 0 else ("p", "b")
    return {c + s: {"b": F(1)} for c in KUHN_CARDS for s in suffixes}


def matching_pennies() -> Game:
    """Player 0 wins 1 on a match, loses 1 otherwise; player 1 does not see player 0's coin."""
    b = GameBuilder(2)

    def reply(mine: str) -> int:
        return b.decision(
            1,
            "guess",
            [(c, b.terminal([1, -1] if c == mine else [-1, 1])) for c in ("H", "T")],
        )

    return b.build(b.decision(0, "coin", [("H", reply("H")), ("T", reply("T"))]))


def perfect_information() -> Game:
    """A perfect-information game with chance.

    Player 0 picks ``L`` or ``R``.
    ``L``: chance — 1/3: payoff 3; 2/3: player 1 picks between payoffs −1 and 2 → −1.
    So ``L`` is worth 1/3·3 + 2/3·(−1) = 1/3.
    ``R``: player 1 picks ``x`` or ``y``.
    ``x``: player 0 picks between 0 and 1/2 → 1/2; ``y``: chance 1/2·4 + 1/2·(−2) = 1.
    So player 1 picks ``x`` and ``R`` is worth 1/2. The value is max(1/3, 1/2) = 1/2.
    """
    b = GameBuilder(2)

    def t(u: Fraction | int) -> int:
        return b.terminal([u, -u])

    left = b.chance(
        [
            ("lucky", F(1, 3), t(3)),
            ("unlucky", F(2, 3), b.decision(1, "L-choice", [("a", t(-1)), ("b", t(2))])),
        ]
    )
    rx = b.decision(0, "Rx", [("c", t(0)), ("d", t(F(1, 2)))])
    ry = b.chance([("up", F(1, 2), t(4)), ("down", F(1, 2), t(-2))])
    right = b.decision(1, "R-choice", [("x", rx), ("y", ry)])
    return b.build(b.decision(0, "root", [("L", left), ("R", right)]))


PI_VALUE = F(1, 2)


def forgetful() -> Game:
    """Player 0 acts twice and forgets the first action: not perfect recall."""
    b = GameBuilder(2)
    second = [
        b.decision(0, "again", [("u", b.terminal([i, -i])), ("v", b.terminal([0, 0]))])
        for i in (1, 2)
    ]
    return b.build(b.decision(0, "first", [("A", second[0]), ("B", second[1])]))


def three_player_toy() -> Game:
    """Coin (H/T, 1/2 each) → player 1 (sees the coin) x/y → player 0 (sees only player 1's
    action) a/b → player 2 (sees nothing) l/r.

    ``u0 = (2 if H else −1) + (1 if l else 0)`` after ``a``; ``u0 = (0 if H else 1)`` after ``b``.
    ``u1 = 1`` after ``x``, ``2`` after ``y``; ``u2 = 1`` after ``l``, else 0.
    """
    b = GameBuilder(3)
    deals = []
    for coin in ("H", "T"):
        replies = []
        for act1 in ("x", "y"):
            u1 = 1 if act1 == "x" else 2
            opts = []
            for act0 in ("a", "b"):
                ends = []
                for act2 in ("l", "r"):
                    if act0 == "a":
                        u0 = (2 if coin == "H" else -1) + (1 if act2 == "l" else 0)
                    else:
                        u0 = 0 if coin == "H" else 1
                    ends.append((act2, b.terminal([u0, u1, 1 if act2 == "l" else 0])))
                opts.append((act0, b.decision(2, "p2", ends)))
            replies.append((act1, b.decision(0, "after-" + act1, opts)))
        deals.append((coin, F(1, 2), b.decision(1, "coin-" + coin, replies)))
    return b.build(b.chance(deals))


TOY_P1: ExactPolicy = {"coin-H": {"x": F(1)}, "coin-T": {"x": F(1, 2), "y": F(1, 2)}}
TOY_P2: ExactPolicy = {"p2": {"l": F(1, 3), "r": F(2, 3)}}
TOY_BR_VALUE = F(5, 4)
"""Player 0's best response against TOY_P1, TOY_P2 (hand computation in the test)."""


def shared_chance_game(*, share: bool) -> Game:
    """Two chance outcomes ("a", "b") that lead to the same position, then matching pennies
    whose stakes depend only on a third chance event. With ``share`` the common subtree is
    built once (a DAG, via node keys); without, twice. Both describe the same game.
    """
    b = GameBuilder(2)

    def pennies(tag: str) -> int:
        key = "pennies" if share else "pennies-" + tag
        found = b.find(key)
        if found is not None:
            return found

        def reply(mine: str) -> int:
            return b.decision(
                1,
                "guess",
                [(c, b.terminal([2, -2] if c == mine else [-1, 1])) for c in ("H", "T")],
            )

        return b.decision(0, "coin", [("H", reply("H")), ("T", reply("T"))], key=key)

    return b.build(
        b.chance([("a", F(1, 4), pennies("a")), ("b", F(3, 4), pennies("b"))], key="root")
    )


SHARED_VALUE = F(1, 2)
"""Matching pennies paying +2 on a match, −1 otherwise: value (2·2 − 1·1) / (2+2+1+1) = 1/2."""
