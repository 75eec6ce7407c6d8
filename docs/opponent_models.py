"""Example opponent models and a prior for ``loveformal solve`` (see the README, "Three or
more players", and ``loveformal solve --help``)::

    loveformal solve "<position>" --opponents docs/opponent_models.py:cautious
    loveformal solve "<position>" --opponents P2=heuristic,P3=docs/opponent_models.py:cautious
    loveformal solve "<position>" --prior docs/opponent_models.py:p2_kept_a_high_card

An opponent model is called once per information set of the opponent, with what that seat
sees and its legal actions, and returns probabilities (or one action). A prior is called once
per deal of the unseen cards, with the position as dealt and the deal's uniform weight, and
returns the deal's weight.
"""

from __future__ import annotations

from loveformal.actions import Action, Play
from loveformal.observation import Observation
from loveformal.state import State


def cautious(observation: Observation, legal: tuple[Action, ...]) -> dict[Action, float]:
    """Keep the higher card: play a lowest-valued card, spreading the probability evenly over
    that card's targets and guesses. (Other decisions, such as a Chancellor's return, are
    spread evenly too.)"""
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return {a: 1.0 for a in legal}
    value = observation.rules.value  # a card's printed value in this edition
    low = min(value(a.card) for a in plays)
    return {a: 1.0 for a in plays if value(a.card) == low}


def p2_kept_a_high_card(state: State, arrangements: int) -> int:
    """P2 is three times as likely to hold a card worth 5 or more as the cards alone make it
    (say it hesitated before playing)."""
    high = any(state.rules.value(card) >= 5 for card in state.seats[1].hand)
    return arrangements * (3 if high else 1)
