"""One function per card effect, and the play step that wraps it.

A play step (:func:`play`) is: the guard (it is the player's decision, the card is in hand,
the Countess rule, a legal target and guess), the card going to its player's discard pile,
the card's effect (the functions below, each quoting the rule it encodes), then the end of
the turn unless the effect left something pending.

Targets are symbolic seats, constrained by :func:`chooses` exactly as ``rules.md`` §1.1.4
says; a card with no seat to choose is played with no effect (``target = NONE``, R9). The
Baroness and the Cardinal choose a set of seats (``target < target2``; the Baroness may
choose one, ``target2 = NONE``): :func:`target_set_ok`.

Cards modelled (:data:`MODELLED`): the Classic cards (Guard … Princess), the Z2019
Chancellor and Spy, and all the Premium 5–8 player cards (:data:`PREMIUM`): Bishop, Dowager
Queen, Constable, Count, Sycophant, Baroness, Cardinal, Jester, Assassin. Their scoring (the
Count/Bishop showdown, the Constable's knock-out token, the Jester's round-end token) is in
:mod:`.steps`, as is the Bishop target's redraw decision
(:func:`~loveformal.proofs.steps.bishop_redraw`).
"""

from __future__ import annotations

from dataclasses import replace

import z3

from loveformal import cards as G
from loveformal.cards import Card
from loveformal.proofs.model import (
    BISHOP_REDRAW,
    CHANCELLOR_DRAW,
    GAME_OVER,
    NONE,
    PLAY,
    BoolE,
    IntE,
    Shape,
    SymState,
    count_true,
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
    hand_to_discards,
    knock_out,
    unit,
)

PREMIUM: frozenset[Card] = frozenset(
    {G.BISHOP, G.DOWAGER_QUEEN, G.CONSTABLE, G.COUNT, G.SYCOPHANT, G.BARONESS, G.CARDINAL,
     G.JESTER, G.ASSASSIN}
)  # fmt: skip
"""The cards the Premium 5–8 player deck adds to the Classic 16 (§1.3). Tested card by card
against the engine in ``tests/proofs/test_premium_effects.py``."""

MODELLED: frozenset[Card] = frozenset(
    {G.GUARD, G.PRIEST, G.BARON, G.HANDMAID, G.PRINCE, G.KING, G.COUNTESS, G.PRINCESS,
     G.CHANCELLOR, G.SPY}
) | PREMIUM  # fmt: skip
"""Card kinds whose effects are modelled (and so reachable: see :func:`supported`)."""

TARGETING: frozenset[Card] = frozenset(
    {G.GUARD, G.PRIEST, G.BARON, G.PRINCE, G.KING, G.BISHOP, G.DOWAGER_QUEEN, G.JESTER,
     G.SYCOPHANT}
)  # fmt: skip
"""Cards that choose one player (``targets.SINGLE_TARGET``)."""

MULTI_TARGETING: frozenset[Card] = frozenset({G.BARONESS, G.CARDINAL})
"""Cards that choose a set of players (``targets.MULTI_TARGET``): ``target`` and
``target2``."""

GUESSING: frozenset[Card] = frozenset({G.GUARD, G.BISHOP})
"""Cards that name a card or a number (``targets.GUESSING``)."""


def supported(shape: Shape) -> bool:
    """Whether every card of the deck is modelled."""
    return all(k in MODELLED for k in shape.kinds)


# ------------------------------------------------------------------------------ choosing


def may_choose_self(shape: Shape, card: Card) -> bool:
    """The Prince: "choose a player still in the round, including yourself" (R3); the Guard
    only under ``guard_self_target`` (D5, R25: "another player"); the Sycophant: "it may
    choose yourself" (R20); the Cardinal: "exactly 2 players, yourself allowed" (R22); the
    Jester only under ``jester_self`` (D15, R23: "another player"); no other card (the
    Bishop: "in practice another, unprotected player", §1.3; the Baroness: "1 or 2 other
    players", R21)."""
    if card in (G.PRINCE, G.SYCOPHANT, G.CARDINAL):
        return True
    if card is G.GUARD:
        return shape.rules.options.guard_self_target
    if card is G.JESTER:
        return shape.rules.options.jester_self
    return False


def chooses(s: SymState, card: Card, seat: IntE, sem: Semantics | None = None) -> BoolE:
    """Whether ``card``, played by the seat in turn, may choose ``seat``.

    "Targets must be players still in the round. A Handmaid-protected player (other than
    yourself) cannot be chosen" (§1.1.4; ``handmaid = untargetable``, D26); yourself only if
    the card allows it.
    """
    untargetable = s.shape.rules.options.handmaid == "untargetable"
    if sem is not None and card in sem.may_choose_protected:
        untargetable = False  # a mutant
    out = select(seat, list(s.out))
    protected = select(seat, list(s.protected))
    other_ok = z3.Not(protected) if untargetable else z3.BoolVal(True)
    self_ok = z3.BoolVal(may_choose_self(s.shape, card))
    return z3.And(is_seat(s.shape, seat), z3.Not(out), z3.If(seat == s.turn, self_ok, other_ok))


def any_choosable(s: SymState, card: Card, sem: Semantics | None = None) -> BoolE:
    return z3.Or([chooses(s, card, z3.IntVal(i), sem) for i in s.shape.seats])


def guesses(shape: Shape, *, allow_guard: bool = False) -> tuple[int, ...]:
    """What a Guard or the Bishop may name: a card kind id under ``guard_guess = name``
    ("name a card other than Guard", R5), a value under ``number`` ("a number other than 1",
    R5, D6). The Bishop likewise (D10 "other than 1"; scenario format, "Guesses": "The
    Bishop's guess takes the same form as the Guard's")."""
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
    the knock-out ended the round. (The discarded hand is the Assassin alone, so no Princess
    check: :func:`~loveformal.proofs.steps.hand_to_discards`.)"""
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
        extra, drawn = draw_replacement(hand_to_discards(caught, t), t, ch.kind, prince=False)
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


def bishop(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Bishop: "Name a number and choose a player (in practice another, unprotected player)
    … If that player holds that number, you gain a token (immediate win if it reaches the
    threshold). Only if you gained the token, the revealed player may discard their card …
    and draw a new one" (§1.3, R16; the guess as the Guard's, D10).

    A hit: the Bishop's player gains a token at once (§5 "Bonus token timing": "Constable
    and Bishop tokens are awarded at the moment of the event"); reaching the threshold ends
    the match ("you win immediately", §1.3 "Immediate win") — whatever ``simultaneous_win``
    says, as only one token is awarded. Otherwise the target decides
    (:func:`~loveformal.proofs.steps.bishop_redraw`: phase ``BISHOP_REDRAW``, ``pending`` the
    target). Under ``bishop_redraw = always`` a miss offers the same choice (D9); under
    ``on_hit`` a miss ends the turn."""
    shape = s.shape
    t = ch.target
    acts = z3.And(t != NONE, z3.Not(unaffected(s, t)))
    hit = hits(s, t, ch.guess)
    tokens = tuple(z3.If(s.turn == i, tok + 1, tok) for i, tok in enumerate(s.tokens))
    won = select(s.turn, list(s.tokens)) + 1 >= shape.threshold
    scored = replace(s, tokens=tokens)
    over = replace(
        scored,
        phase=z3.IntVal(GAME_OVER),
        pending=z3.IntVal(NONE),
        starter=tuple(z3.BoolVal(False) for _ in shape.seats),
    )
    deciding = replace(s, phase=z3.IntVal(BISHOP_REDRAW), pending=t)
    after_hit = merge(won, over, replace(deciding, tokens=tokens))
    after_miss = deciding if shape.rules.options.bishop_redraw == "always" else s
    return TRUE, merge(acts, merge(hit, after_hit, after_miss), s)


def baroness(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Baroness: "Look at the hands of 1 or 2 other players privately" (§1.3, R21; exactly 2
    when possible under ``baroness_targets = two``, D13): where the cards are does not
    change (knowledge is not modelled); who may be chosen is :func:`target_set_ok`."""
    return TRUE, s


def cardinal(s: SymState, ch: Choice) -> tuple[BoolE, SymState]:
    """Cardinal: "Choose exactly 2 players (you may include yourself). They swap hands.
    Then you may look at one of those two hands. If fewer than 2 players can be chosen → no
    effect" (§1.3, R22). The look changes no card's place. Under ``handmaid =
    targetable_no_effect`` a protected chosen player is unaffected, so no swap happens
    (D26)."""
    a, b = ch.target, ch.target2
    shape = s.shape
    hand_a, hand_b = s.hand_at(a), s.hand_at(b)
    changes = {}
    for i in shape.seats:
        changes[hand_zone(shape, i)] = tuple(
            z3.If(a == i, y, z3.If(b == i, x, h))
            for x, y, h in zip(hand_a, hand_b, s.hand(i), strict=True)
        )
    swapped = s.with_zones(changes)
    acts = z3.And(a != NONE, b != NONE, z3.Not(unaffected(s, a)), z3.Not(unaffected(s, b)))
    return TRUE, merge(acts, swapped, s)


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
    G.BISHOP: bishop,
    G.DOWAGER_QUEEN: dowager_queen,
    G.CONSTABLE: no_effect,
    G.COUNT: no_effect,
    G.SYCOPHANT: sycophant,
    G.BARONESS: baroness,
    G.CARDINAL: cardinal,
    G.JESTER: jester,
    G.ASSASSIN: no_effect,
}
"""The effect of each card (every card of :data:`MODELLED`)."""


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


def unmarked(s: SymState, card: Card) -> BoolE:
    """No Sycophant mark binds ``card``: no mark, no Sycophant in the deck, or the mark is
    waived — under ``sycophant_conflict = waived`` when the marked seat is the card's own
    player and the card cannot choose them (D14, BGA legacy)."""
    if not s.shape.has(G.SYCOPHANT):
        return z3.BoolVal(True)
    marked = s.sycophant
    waived = z3.And(
        z3.BoolVal(s.shape.rules.options.sycophant_conflict == "waived"),
        marked == s.turn,
        z3.BoolVal(not may_choose_self(s.shape, card)),
    )
    return z3.Or(marked == NONE, waived)


def sycophant_ok(s: SymState, card: Card, target: IntE, sem: Semantics | None = None) -> BoolE:
    """The single target chosen is legal, with the Sycophant's mark honoured (R20, D14).

    Without a mark: a choosable seat if there is one, else none (R9). With a mark: "the next
    played card that chooses players must include the chosen player" — the marked seat if
    it is choosable; if it is not, the card is played with no effect (D14: the Premium
    text), except when the mark is waived (:func:`unmarked`)."""
    free = z3.If(any_choosable(s, card, sem), chooses(s, card, target, sem), target == NONE)
    if not s.shape.has(G.SYCOPHANT):
        return free
    marked = s.sycophant
    honoured = z3.If(chooses(s, card, marked, sem), target == marked, target == NONE)
    return z3.If(unmarked(s, card), free, honoured)


def target_set_ok(s: SymState, card: Card, ch: Choice, sem: Semantics | None = None) -> BoolE:
    """The Baroness's or the Cardinal's chosen seats ``target < target2`` (``target2 = NONE``:
    one seat) and the Cardinal's ``look`` are legal.

    Baroness: "Look at the hands of 1 or 2 other players" (R21); under ``baroness_targets =
    two`` exactly 2 when 2 can be chosen (D13). Cardinal: "Choose exactly 2 players (you may
    include yourself) … then you may look at one of those two hands. If fewer than 2 players
    can be chosen → no effect" (R22). The chosen seats follow :func:`chooses` (§1.1.4); with
    no legal set the card is played with no effect (both ``NONE``). The Sycophant's mark:
    "it must at least choose that player" (§1.3 Sycophant, R20); if no legal set includes
    the marked seat, the card "is discarded without effect" (D14)."""
    shape = s.shape
    a, b = ch.target, ch.target2
    n = count_true([chooses(s, card, z3.IntVal(i), sem) for i in shape.seats])
    ok_a, ok_b = chooses(s, card, a, sem), chooses(s, card, b, sem)
    pair = z3.And(ok_a, ok_b, a < b)
    single = z3.And(ok_a, b == NONE)
    need = 1
    if card is G.CARDINAL:
        need, ok = 2, pair
    elif shape.rules.options.baroness_targets == "two":
        ok = z3.If(n >= 2, pair, single)
    else:
        ok = z3.Or(single, pair)
    none = z3.And(a == NONE, b == NONE)
    chosen = z3.If(n >= need, ok, none)
    if shape.has(G.SYCOPHANT):
        m = s.sycophant
        honoured = z3.If(
            z3.And(chooses(s, card, m, sem), n >= need), z3.And(ok, z3.Or(a == m, b == m)), none
        )
        chosen = z3.If(unmarked(s, card), chosen, honoured)
    if card is G.CARDINAL:
        look_ok = z3.Or(ch.look == NONE, z3.And(a != NONE, z3.Or(ch.look == a, ch.look == b)))
    else:
        look_ok = ch.look == NONE
    return z3.And(chosen, look_ok)


def target_guard(s: SymState, card: Card, ch: Choice, sem: Semantics) -> BoolE:
    """The choice is legal: a choosable seat (or set of seats, :func:`target_set_ok`) if
    there is one, else none (R9); a Guard or the Bishop names one of :func:`guesses`; every
    unused choice is ``NONE`` (the Prince's ``kind``, a face-up pick, is constrained by its
    effect)."""
    unused = [ch.kind == NONE, ch.starter == NONE] if card is not G.PRINCE else [ch.starter == NONE]
    unused.append(ch.redraw == NONE)
    if card in MULTI_TARGETING:
        return z3.And(target_set_ok(s, card, ch, sem), ch.guess == NONE, *unused)
    unused += [ch.target2 == NONE, ch.look == NONE]
    if card not in TARGETING:
        return z3.And(ch.target == NONE, ch.guess == NONE, *unused)
    target_ok = sycophant_ok(s, card, ch.target, sem)
    if card in GUESSING:
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
    "GUESSING",
    "MODELLED",
    "MULTI_TARGETING",
    "PREMIUM",
    "TARGETING",
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
    "target_set_ok",
    "unmarked",
]
