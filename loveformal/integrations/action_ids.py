"""Action ids shared by the framework adapters: every decision as a fixed integer."""

from __future__ import annotations

from itertools import combinations, product

from loveformal.actions import BishopRedraw, ChancellorReturn, Decision, Play
from loveformal.cards import Card
from loveformal.ruleset import Ruleset
from loveformal.targets import GUESSING, MULTI_TARGET, SINGLE_TARGET, guesses


def action_table(rules: Ruleset, players: int) -> tuple[Decision, ...]:
    """Every decision a seat can ever take under ``rules`` with ``players`` players, in a
    fixed order: the action ids of the PettingZoo environment and of the OpenSpiel game.

    Per card kind of the deck: ``Play(card)``, then per target seat (guessing cards: per
    guess), or per target set (Cardinal: per look); then every Chancellor return (keep a
    kind, put 0–2 kinds under the pile, in order) and the Bishop's redraw choice."""
    kinds = rules.deck(players).kinds
    out: list[Decision] = []
    seats = range(players)
    for card in kinds:
        out.append(Play(card))
        if card in SINGLE_TARGET:
            for t in seats:
                if card in GUESSING:
                    out.extend(Play(card, t, (), g) for g in guesses(rules, players))
                else:
                    out.append(Play(card, t))
        elif card in MULTI_TARGET:
            for size in (1, 2):
                for ts in combinations(seats, size):
                    if card is Card.CARDINAL:
                        out.extend(Play(card, targets=ts, look=look) for look in (None, *ts))
                    else:
                        out.append(Play(card, targets=ts))
    if Card.CHANCELLOR in kinds:
        for keep in kinds:
            for n in (0, 1, 2):
                out.extend(ChancellorReturn(keep, bottom) for bottom in product(kinds, repeat=n))
    if Card.BISHOP in kinds:
        out.extend((BishopRedraw(True), BishopRedraw(False)))
    return tuple(out)
