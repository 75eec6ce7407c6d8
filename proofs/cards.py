"""One function per card effect, and the play step that wraps it.

A play step (:func:`play`) is: the guard (it is the player's decision, the card is in hand,
the Countess rule, a legal target and guess), the card going to its player's discard pile,
the card's effect (the functions below, each quoting the rule it encodes), then the end of
the turn unless the effect left something pending.

Targets are symbolic seats, constrained by :func:`chooses` exactly as ``rules.md`` §1.1.4
says; a card with no seat to choose is played with no effect (``target = NONE``, R9).

Cards modelled: the Classic cards (Guard … Princess) and the Z2019 Chancellor and Spy. The
Premium 5–8 player cards (Bishop, Dowager Queen, Constable, Count, Sycophant, Baroness,
Cardinal, Jester, Assassin) are in progress: the Dowager Queen, Jester bet, Sycophant mark
and constraint, and the Assassin inside the Guard are written (:data:`PREMIUM_EFFECTS_DONE`);
the Bishop, Baroness and Cardinal are not, so :func:`supported` is false for those decks.
(Their scoring
is: the Count/Bishop showdown, the Constable's knock-out token and the Jester's round-end
token in :mod:`.steps`, checked against the engine by ``tests/proofs/test_premium_scoring.py``;
none of it is reachable from the proofs until the card effects exist.)
"""

from __future__ import annotations

from dataclasses import replace

import z3

from loveformal import cards as G
from loveformal.cards import Card
from loveformal.proofs.model import (
    CHANCELLOR_DRAW,
    NONE,
    PLAY,
    BoolE,
    IntE,
    Shape,
    SymState,
    disc_zone,
    fresh,
    hand_zone,
    is_seat,
    merge,
    select,
    total,
    value_of,
)
from loveformal.proofs.steps import (
    Choice,
    Effect,
    Semantics,
    Transition,
    at,
    discard_hand,
    draw_replacement,
    finish,
    fresh_choice,
    knock_out,
    unit,
)

MODELLED: frozenset[Card] = frozenset(
    {G.GUARD, G.PRIEST, G.BARON, G.HANDMAID, G.PRINCE, G.KING, G.COUNTESS, G.PRINCESS,
     G.CHANCELLOR, G.SPY}
)  # fmt: skip
"""Card kinds whose effects are modelled (and so reachable: see :func:`supported`)."""

PREMIUM_EFFECTS_DONE: frozenset[Card] = frozenset(
    {G.DOWAGER_QUEEN, G.JESTER, G.ASSASSIN, G.SYCOPHANT, G.CONSTABLE, G.COUNT}
)
"""Premium cards whose effects are written below (the Assassin inside the Guard; the
Constable and Count have no effect when played, their scoring is in :mod:`.steps`) but not
yet part of :data:`MODELLED`: the Bishop, Baroness and Cardinal are still missing, so no
Premium deck is :func:`supported`. Tested card by card in
``tests/proofs/test_premium_effects.py``."""

TARGETING: frozenset[Card] = frozenset(
    {G.GUARD, G.PRIEST, G.BARON, G.PRINCE, G.KING, G.DOWAGER_QUEEN, G.JESTER, G.SYCOPHANT}
)
"""Cards with an effect here that choose one player (``targets.SINGLE_TARGET`` less the
Bishop, not modelled yet)."""


def supported(shape: Shape) -> bool:
    """Whether every card of the deck is modelled."""
    return all(k in MODELLED for k in shape.kinds)


# ------------------------------------------------------------------------------ choosing


def may_choose_self(shape: Shape, card: Card) -> bool:
    """The Prince: "choose a player still in the round, including yourself" (R3); the Guard
    only under ``guard_self_target`` (D5, R25: "another player"); the Sycophant: "it may
    choose yourself" (R20); the Jester only under ``jester_self`` (D15, R23: "another
    player"); no other modelled card."""
    if card in (G.PRINCE, G.SYCOPHANT):
        return True
    if card is G.GUARD:
        return shape.rules.options.guard_self_target
    if card is G.JESTER:
        return shape.rules.options.jester_self
    return False


def chooses(s: SymState, card: Card, seat: IntE) -> BoolE:
    """Whether ``card``, played by the seat in turn, may choose ``seat``.

    "Targets must be players still in the round. A Handmaid-protected player (other than
    yourself) cannot be chosen" (§1.1.4; ``handmaid = untargetable``, D26); yourself only if
    the card allows it.
    """
    untargetable = s.shape.rules.options.handmaid == "untargetable"
    out = select(seat, list(s.out))
    protected = select(seat, list(s.protected))
    other_ok = z3.Not(protected) if untargetable else z3.BoolVal(True)
    self_ok = z3.BoolVal(may_choose_self(s.shape, card))
    return z3.And(is_seat(s.shape, seat), z3.Not(out), z3.If(seat == s.turn, self_ok, other_ok))


def any_choosable(s: SymState, card: Card) -> BoolE:
    return z3.Or([chooses(s, card, z3.IntVal(i)) for i in s.shape.seats])


def guesses(shape: Shape, *, allow_guard: bool = False) -> tuple[int, ...]:
    """What a Guard may name: a card kind id under ``guard_guess = name`` ("name a card other
    than Guard", R5), a value under ``number`` ("a number other than 1", R5, D6)."""
    if shape.rules.options.guard_guess == "name":
        return tuple(k for k, c in enumerate(shape.kinds) if allow_guard or c is not G.GUARD)
    return tuple(sorted({v for v in shape.values if allow_guard or v != 1}))


def unaffected(s: SymState, target: IntE) -> BoolE:
    """Under ``handmaid = targetable_no_effect`` a protected player may be chosen "but is
    unaffected" (D26); under the official rule this never happens."""
    if s.shape.rules.options.handmaid == "untargetable":
        return z3.BoolVal(False)
    return z3.And(target != s.turn, select(target, list(s.protected)))


def hits(s: SymState, target: IntE, guess: IntE) -> BoolE:
    """Whether ``target`` holds what ``guess`` names: the card by name, or by value."""
    hand = s.hand_at(target)
    if s.shape.rules.options.guard_guess == "name":
        return at(hand, guess) >= 1
    return value_of(s.shape, hand) == guess


# ------------------------------------------------------------------------------ effects

TRUE: BoolE = z3.BoolVal(True)


def guard(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Guard: "Name a card other than Guard and choose a player. If that player holds the
    named card, they are out. All others protected → no effect" (§1.2, R5, R9).

    The Assassin (R6, D7): "if a Guard chooses you, the Guard's player is out (whatever was
    named)"; under ``assassin_redraw`` the Assassin's holder then "discards the Assassin and
    draws a new card" — from the pile, else the set-aside card (as the Prince, R2) — unless
    the knock-out ended the round."""
    t = ch.target
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)))
    named = merge(hits(s, t, ch.guess), knock_out(s, t), s)
    if not s.shape.has(G.ASSASSIN):
        return TRUE, merge(acts, named, s)
    assassin = z3.And(t != s.turn, s.hand_at(t)[s.shape.k(G.ASSASSIN)] >= 1)
    caught = knock_out(s, s.turn)
    extra: BoolE = TRUE
    if s.shape.rules.options.assassin_redraw:
        carries_on = caught.phase == PLAY
        extra, drawn = draw_replacement(discard_hand(caught, t), t, ch.kind, prince=False)
        caught = merge(carries_on, drawn, caught)
    return extra, merge(acts, merge(assassin, caught, named), s)


def priest(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Priest: "Look at another player's hand privately" (§1.2): no change to where cards
    are (knowledge is not modelled)."""
    return TRUE, s


def baron(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Baron: "Choose another player and compare hands secretly. The lower value is out; a
    tie does nothing" (§1.2, R7)."""
    t = ch.target
    mine = value_of(s.shape, s.hand_at(s.turn))
    theirs = value_of(s.shape, s.hand_at(t))
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)), mine != theirs)
    loser = z3.If(mine < theirs, s.turn, t)
    return TRUE, merge(acts, knock_out(s, loser), s)


def dowager_queen(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Dowager Queen: "Choose another player and compare hands secretly. The higher value is
    out; a tie does nothing; the Bishop counts as 9" (R17): the Baron with the comparison
    reversed."""
    t = ch.target
    mine = value_of(s.shape, s.hand_at(s.turn))
    theirs = value_of(s.shape, s.hand_at(t))
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)), mine != theirs)
    loser = z3.If(mine > theirs, s.turn, t)
    return TRUE, merge(acts, knock_out(s, loser), s)


def jester(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Jester: "Choose another player; a token if they win the round; immediate win
    possible" (R23; yourself under ``jester_self``, D15): the bet is recorded here and
    scored in :func:`~loveformal.proofs.steps.award`."""
    t = ch.target
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)))
    bet = replace(s, jester_bettor=s.turn, jester_chosen=t)
    return TRUE, merge(acts, bet, s)


def sycophant(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Sycophant: "The next played card that chooses players must include the chosen
    player; it may choose yourself. The effect lasts for the next card only" (R20): the mark
    is set here, honoured by :func:`sycophant_ok` and cleared by :func:`discard_played`."""
    t = ch.target
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)))
    return TRUE, merge(acts, replace(s, sycophant=t), s)


def no_effect(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Constable, Count, Assassin: "no effect when played" (R18, R19, R6); their effects are
    at a knock-out, the showdown, and inside the Guard's effect."""
    return TRUE, s


def handmaid(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Handmaid: "You are immune to other players' card effects until the start of your next
    turn" (§1.2, R8)."""
    protected = tuple(z3.Or(p, s.turn == i) for i, p in enumerate(s.protected))
    return TRUE, replace(s, protected=protected)


def prince(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Prince: "That player discards their hand without its effect (Princess → out) and draws
    a new card. If the deck is empty they draw the card removed at the start of the round"
    (§1.2, R1, R2, R3). A discarded Princess: "the rest of that effect does not apply (no
    Prince redraw)" (§1.1.6)."""
    t = ch.target
    discarded = discard_hand(s, t)
    carries_on = z3.And(discarded.phase == PLAY, z3.Not(select(t, list(discarded.out))))
    extra, drawn = draw_replacement(discarded, t, ch.kind, prince=True)
    after = merge(carries_on, drawn, discarded)
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)))  # NONE: blocked by a Sycophant mark
    return z3.If(z3.And(acts, carries_on), extra, ch.kind == NONE), merge(acts, after, s)


def king(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """King: "Trade your remaining card with another player's hand. Players who are out or
    protected are invalid targets. If all others are protected → no effect" (§1.2)."""
    t = ch.target
    mine, theirs = s.hand_at(s.turn), s.hand_at(t)
    shape = s.shape
    changes = {}
    for i in shape.seats:
        changes[hand_zone(shape, i)] = tuple(
            z3.If(s.turn == i, b, z3.If(t == i, a, h))
            for a, b, h in zip(mine, theirs, s.hand(i), strict=True)
        )
    swapped = s.with_zones(changes)
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)))
    return TRUE, merge(acts, swapped, s)


def countess(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Countess: "No effect when discarded" (§1.2); her rule is a guard on playing the King
    or a Prince (:func:`countess_allows`)."""
    return TRUE, s


def princess(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Princess: "If you discard her, by any means, you are out of the round" (§1.2,
    §1.1.6)."""
    return TRUE, knock_out(s, s.turn)


def chancellor(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Chancellor: "Draw 2 cards into your hand … 1 card in the deck: draw it and return 1.
    0 cards: played with no effect" (§1.4, R10); ``chancellor_short_deck =
    no_effect_below_two``: no effect with 1 card (D27)."""
    left = total(s.pile)
    none = left == 0
    if s.shape.rules.options.chancellor_short_deck == "no_effect_below_two":
        none = left <= 1
    drawing = replace(s, phase=z3.IntVal(CHANCELLOR_DRAW), draws=z3.If(left >= 2, 2, left))
    return TRUE, merge(none, s, drawing)


def spy(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Spy: "No effect when played. At the end of the round, if you are the only player still
    in the round who played or discarded a Spy, gain 1 token" (§1.4, R12): the mark is set
    when the card reaches the discard pile (:func:`discard_played`), scored in
    :func:`~loveformal.proofs.steps.award`."""
    return TRUE, s


EFFECTS: dict[Card, Effect] = {
    G.GUARD: guard,
    G.PRIEST: priest,
    G.BARON: baron,
    G.HANDMAID: handmaid,
    G.PRINCE: prince,
    G.KING: king,
    G.COUNTESS: countess,
    G.PRINCESS: princess,
    G.CHANCELLOR: chancellor,
    G.SPY: spy,
    G.DOWAGER_QUEEN: dowager_queen,
    G.JESTER: jester,
    G.SYCOPHANT: sycophant,
    G.CONSTABLE: no_effect,
    G.COUNT: no_effect,
    G.ASSASSIN: no_effect,
}
"""The effect of each card written so far (see :data:`MODELLED`, :data:`PREMIUM_EFFECTS_DONE`)."""


# ------------------------------------------------------------------------------ play step


def countess_allows(s: SymState, card: Card) -> BoolE:
    """ "If your two cards are the Countess plus the King or a Prince, you must play the
    Countess" (§1.1.3, R4) — even if the King/Prince would have no legal target."""
    if card not in (G.KING, G.PRINCE) or not s.shape.has(G.COUNTESS):
        return z3.BoolVal(True)
    return s.hand_at(s.turn)[s.shape.k(G.COUNTESS)] == 0


def discard_played(s: SymState, card: Card) -> SymState:
    """The card goes "face up in their own discard area" (§1.1.2); a played Spy marks its
    player (R12); the Sycophant's mark lasts "for the next card only" (R20)."""
    shape = s.shape
    one = unit(shape, z3.IntVal(shape.k(card)))
    changes = {}
    for i in shape.seats:
        me = s.turn == i
        changes[hand_zone(shape, i)] = tuple(
            z3.If(me, h - o, h) for h, o in zip(s.hand(i), one, strict=True)
        )
        changes[disc_zone(shape, i)] = tuple(
            z3.If(me, d + o, d) for d, o in zip(s.disc(i), one, strict=True)
        )
    spied = s.spied
    if card is G.SPY:
        spied = tuple(z3.Or(sp, s.turn == i) for i, sp in enumerate(spied))
    return replace(s.with_zones(changes), spied=spied, sycophant=z3.IntVal(NONE))


def sycophant_ok(s: SymState, card: Card, target: IntE) -> BoolE:
    """The single target chosen is legal, with the Sycophant's mark honoured (R20, D14).

    Without a mark: a choosable seat if there is one, else none (R9). With a mark: "the next
    played card that chooses players must include the chosen player" — the marked seat if
    it is choosable; if it is not, the card is played with no effect (D14: the Premium
    text), except under ``sycophant_conflict = waived`` when the marked seat is the card's
    own player and the card cannot choose them: the mark is then ignored."""
    free = z3.If(any_choosable(s, card), chooses(s, card, target), target == NONE)
    if not s.shape.has(G.SYCOPHANT):
        return free
    marked = s.sycophant
    waived = z3.And(
        z3.BoolVal(s.shape.rules.options.sycophant_conflict == "waived"),
        marked == s.turn,
        z3.BoolVal(not may_choose_self(s.shape, card)),
    )
    honoured = z3.If(chooses(s, card, marked), target == marked, target == NONE)
    return z3.If(z3.Or(marked == NONE, waived), free, honoured)


def target_guard(s: SymState, card: Card, ch: Choice, sem: Semantics) -> BoolE:
    """The choice is legal: a choosable seat if there is one, else none (R9); a Guard names
    one of :func:`guesses`; every unused choice is ``NONE`` (the Prince's ``kind``, a face-up
    pick, is constrained by its effect)."""
    unused = [ch.kind == NONE, ch.starter == NONE] if card is not G.PRINCE else [ch.starter == NONE]
    if card not in TARGETING:
        return z3.And(ch.target == NONE, ch.guess == NONE, *unused)
    target_ok = sycophant_ok(s, card, ch.target)
    if card is G.GUARD:
        names = guesses(s.shape, allow_guard=sem.guard_may_name_guard)
        guess_ok = z3.If(ch.target == NONE, ch.guess == NONE, z3.Or([ch.guess == g for g in names]))
    else:
        guess_ok = ch.guess == NONE
    return z3.And(target_ok, guess_ok, *unused)


def play(shape: Shape, sem: Semantics, card: Card) -> Transition:
    """The seat in turn plays ``card``: guard, discard, effect, end of turn."""
    pre, ch = fresh(shape), fresh_choice(shape)
    k = shape.k(card)
    guard_ = z3.And(
        pre.phase == PLAY,
        pre.hand_at(pre.turn)[k] >= 1,
        countess_allows(pre, card),
        target_guard(pre, card, ch, sem),
    )
    effect = sem.effects.get(card, EFFECTS[card])
    extra, after = effect(discard_played(pre, card), ch)
    guard_ = z3.And(guard_, extra)
    return Transition(f"play {card.title}", pre, ch, guard_, finish(sem, after), card=card)


def plays(shape: Shape, sem: Semantics) -> tuple[Transition, ...]:
    return tuple(play(shape, sem, c) for c in shape.kinds)


__all__ = [
    "EFFECTS",
    "MODELLED",
    "PREMIUM_EFFECTS_DONE",
    "any_choosable",
    "chooses",
    "countess_allows",
    "guesses",
    "hits",
    "may_choose_self",
    "play",
    "plays",
    "supported",
    "sycophant_ok",
]
