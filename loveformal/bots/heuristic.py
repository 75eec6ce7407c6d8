"""A card-counting heuristic bot.

It tracks the unseen cards (:func:`~loveformal.bots.worlds.unseen_cards`: the deck minus
everything its seat has seen) and scores each legal action:

* keep high cards: other things equal, play the lower card;
* never play the Princess when another card can be played;
* Guard (and Bishop): name the card the target is known to hold (Priest, Baron, King
  knowledge); otherwise the most likely card given the unseen counts and the target's Guard
  misses — never a card that target cannot hold while another choice has a chance;
* Baron: when its other card is known to be higher, or likely higher given the unseen cards;
  Dowager Queen the other way round;
* Prince: at a seat known (or likely) to hold the Princess; never on itself with the
  Princess in hand;
* King: when the card received is (expected to be) better than the card given;
* Handmaid: more valuable when an opponent knows its card (it was seen, compared or swapped);
* Countess: the rules force it with the King or a Prince (only legal move then);
* Chancellor: keep the highest card; Bishop's redraw: when its card is below the unseen mean.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from loveformal import events as K
from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Guess, Play
from loveformal.bots.worlds import excluded_cards, unseen_cards
from loveformal.cards import Card
from loveformal.observation import Observation

__all__ = ["HeuristicBot", "exposed", "score_actions"]

C = Card


def _initial_hand(obs: Observation) -> Counter[Card]:
    """The seat's hand before the first event of the log (empty for a round dealt by the
    engine; a position built mid-round starts with cards): the current hand with the log's
    changes undone."""
    me = obs.seat
    net: Counter[Card] = Counter(obs.hand)
    for e in obs.events:
        if e.seat == me and e.kind in (K.DEALT, K.DREW) and e.card is not None:
            net[e.card] -= 1
        elif e.seat == me and e.kind in (K.PLAYED, K.DISCARDED) and e.card is not None:
            net[e.card] += 1
        elif e.seat == me and e.kind is K.RETURNED:
            net.update(e.cards)
        elif e.kind is K.SWAPPED and me in (e.seat, e.other) and len(e.cards) == 2:
            gave, got = (e.cards[0], e.cards[1]) if me == e.seat else (e.cards[1], e.cards[0])
            net[gave] += 1
            net[got] -= 1
    return +net


def exposed(obs: Observation) -> bool:
    """Whether another seat still in the round knows a card this seat holds now."""
    me = obs.seat
    hand = list(_initial_hand(obs).elements())
    known_by_others: set[Card] = set()
    for e in obs.events:
        kind = e.kind
        if kind in (K.DEALT, K.DREW) and e.seat == me and e.card is not None:
            hand.append(e.card)
        elif kind is K.PLAYED and e.seat == me and e.card in hand:
            assert e.card is not None
            hand.remove(e.card)
            if e.card not in hand:
                known_by_others.discard(e.card)
        elif (kind is K.DISCARDED or kind is K.KNOCKED_OUT) and e.seat == me:
            hand.clear()
            known_by_others.clear()
        elif kind is K.SAW and e.other == me and e.card is not None and e.seen_by(me):
            # A solver's deal says which of the seat's cards another seat knew (its note:
            # "before the position"); a look in play shows the seat's one card.
            known_by_others = set(e.cards or (e.card,))
        elif kind is K.COMPARED and me in (e.seat, e.other) and len(e.cards) == 2:
            # The card compared: the seat may hold another (a solver's deal of a Baron's tie
            # the discard piles show is a comparison before the seat to move's last draw).
            known_by_others = {e.cards[1] if me == e.other else e.cards[0]}
        elif (kind is K.SAW and e.other == me) or (kind is K.COMPARED and me in (e.seat, e.other)):
            known_by_others = set(hand)
        elif kind is K.SWAPPED and me in (e.seat, e.other) and len(e.cards) == 2:
            new = e.cards[1] if me == e.seat else e.cards[0]
            hand = [new]
            known_by_others = {new}
        elif kind is K.RETURNED and e.seat == me:
            for c in e.cards:
                if c in hand:
                    hand.remove(c)
            known_by_others &= set(hand)
        elif kind is K.REVEALED and e.seat == me and e.card is not None:
            known_by_others = {e.card}
    return bool(known_by_others & set(obs.hand))


class _View:
    """What the scoring needs from an observation, computed once."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.value = obs.rules.value
        self.unseen = unseen_cards(obs)
        self.total = sum(self.unseen.values())
        self.excluded = excluded_cards(obs)
        self.mean = (
            sum(self.value(c) * n for c, n in self.unseen.items()) / self.total
            if self.total
            else 0.0
        )
        self.exposed = exposed(obs)

    def known(self, seat: int) -> Card | None:
        cards = self.obs.known[seat]
        return cards[0] if cards else None

    def dist(self, seat: int) -> Counter[Card]:
        """Unseen cards ``seat`` may hold (its Guard misses removed)."""
        bad = self.excluded.get(seat, frozenset())
        return Counter({c: n for c, n in self.unseen.items() if c not in bad})

    def p_holds(self, seat: int, guess: Guess) -> float:
        known = self.known(seat)
        if known is not None:
            return 1.0 if self._hits(guess, known) else 0.0
        d = self.dist(seat)
        total = sum(d.values())
        if not total:
            return 0.0
        return sum(n for c, n in d.items() if self._hits(guess, c)) / total

    def _hits(self, guess: Guess, card: Card) -> bool:
        return guess is card if isinstance(guess, Card) else self.value(card) == guess

    def compare(self, seat: int, mine: int) -> float:
        """P(their card lower) - P(their card higher) than value ``mine``."""
        known = self.known(seat)
        if known is not None:
            v = self.value(known)
            return 1.0 if v < mine else -1.0 if v > mine else 0.0
        d = self.dist(seat)
        total = sum(d.values())
        if not total:
            return 0.0
        lower = sum(n for c, n in d.items() if self.value(c) < mine)
        higher = sum(n for c, n in d.items() if self.value(c) > mine)
        return (lower - higher) / total

    def expected(self, seat: int) -> float:
        known = self.known(seat)
        if known is not None:
            return float(self.value(known))
        d = self.dist(seat)
        total = sum(d.values())
        return sum(self.value(c) * n for c, n in d.items()) / total if total else self.mean


def _kept(hand: tuple[Card, ...], played: Card) -> Card | None:
    rest = list(hand)
    rest.remove(played)
    return rest[0] if len(rest) == 1 else (max(rest, key=lambda c: c.index) if rest else None)


def _play_score(v: _View, play: Play) -> float:
    obs = v.obs
    card = play.card
    kept = _kept(obs.hand, card)
    kept_value = v.value(kept) if kept is not None else 0
    score = 0.3 * kept_value  # keep high cards
    t = play.target
    if t is not None and t != obs.seat:
        score += 0.05 * obs.tokens[t]  # prefer hitting the leader
    if card is C.PRINCESS:
        return score - 100.0
    if card is C.GUARD or card is C.BISHOP:
        if t is None or play.guess is None:
            return score
        p = v.p_holds(t, play.guess)
        return score + (8.0 * p if p > 0 else -5.0)
    if card is C.BARON or card is C.DOWAGER_QUEEN:
        if t is None:
            return score
        edge = v.compare(t, kept_value)
        if card is C.DOWAGER_QUEEN:
            edge = -edge
        return score + 6.0 * edge
    if card is C.PRIEST or card is C.BARONESS:
        targets = (t,) if t is not None else play.targets
        return score + sum(1.5 if v.known(x) is None else 0.2 for x in targets)
    if card is C.HANDMAID:
        return score + (3.0 if v.exposed else 1.0) + 0.2 * kept_value
    if card is C.PRINCE:
        if t is None:
            return score
        if t == obs.seat:
            if kept is C.PRINCESS:
                return score - 100.0
            return score + 0.5 * (v.mean - kept_value) - 0.5
        known = v.known(t)
        if known is C.PRINCESS:
            return score + 30.0
        return score + 20.0 * v.p_holds(t, C.PRINCESS) + 0.2 * v.expected(t)
    if card is C.KING or card is C.CARDINAL:
        target = t if t is not None else next((x for x in play.targets if x != obs.seat), None)
        if target is None:
            return score
        gain = v.expected(target) - kept_value
        if kept is C.PRINCESS:
            gain -= 20.0
        return score + 0.8 * gain
    if card is C.COUNTESS:
        return score
    if card is C.SPY:
        return score + 0.8
    return score + 0.5


class HeuristicBot:
    """The card-counting heuristic (see the module docstring)."""

    name = "heuristic"

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        scores = score_actions(obs, legal)
        best = max(scores)
        choices = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        return choices[rng.randrange(len(choices))]


def score_actions(obs: Observation, legal: Sequence[Action]) -> list[float]:
    """The heuristic's score of each legal action (higher is better)."""
    v = _View(obs)
    out: list[float] = []
    for a in legal:
        if isinstance(a, Play):
            out.append(_play_score(v, a))
        elif isinstance(a, ChancellorReturn):
            # keep the highest card; the bottom order is a tie.
            out.append(float(v.value(a.keep)))
        elif isinstance(a, BishopRedraw):
            mine = v.value(obs.hand[0]) if obs.hand else 0
            out.append(1.0 if a.redraw == (mine < v.mean) else 0.0)
        else:
            out.append(0.0)
    return out
