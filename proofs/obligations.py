"""Named proof obligations, one per (transition × invariant), checked with Z3.

An *invariant* is a predicate on one state; ``Inv`` is the conjunction of all of them. For
every transition ``T`` and invariant ``P`` the obligation "``P`` under ``T``" is

    Inv(s) ∧ Guard_T(s, c) ∧ Trans_T(s, c, s') ∧ ¬P(s')        — must be UNSAT

(mypyvy's ``check_transitions``). Some properties relate the pre- and the post-state
(*step properties*: tokens never decrease, chosen targets are legal, the Bishop's token, the
ranking function decreases …); their obligation is ``Inv ∧ Guard ∧ Trans ∧ ¬Q(s, c, s')``.
The base case is "``P`` initially": a fresh first-round deal satisfies ``P``.

**How it is checked** (:func:`check_transition`). ``Trans`` is ``s' = post(s, c)`` for
every variable, so ``s'`` is replaced by ``post`` (an equivalent query without the primed
variables), and a goal ``P = c₁ ∧ … ∧ cₘ`` is refuted on one incremental solver in chunks
of :data:`CHUNK` conjuncts, a chunk not refuted so one conjunct at a time (the goals in
:data:`ONE_AT_A_TIME` one conjunct at a time from the start; a conjunct that is literally a
hypothesis is skipped); a goal that is not proved is queried whole for its counterexample.
Each query has the configured time-out (a chunk at most :data:`CHUNK_TIMEOUT_MS`).

**Vacuity.** Before its obligations, each transition is checked to *fire*: ``Inv ∧ Guard ∧
Trans`` must be SAT; otherwise all its obligations are reported ``vacuous`` (a proof about a
step that can never happen proves nothing).

**Termination.** Within a round the ranking function :func:`rank` (5 × the *effective* draw
pile + a phase weight) strictly decreases at every step, and is between 0 and
``5·pile0 + 4`` (``pile0``: the pile right after the deal); rounds over rank −1. Hence a round
lasts at most ``5·pile0 + 5`` steps and at most ``pile0`` turns (each turn's draw lowers the
effective pile by one; nothing raises it: the Chancellor's returned cards are counted in the
effective pile from the moment they are drawn). The Bishop target's pending choice weighs 2:
below the play that hit (4), above the redraw it may start (one card fewer, weight 1) and the
next turn (0).

Results are frozen :class:`ObligationResult` values (JSON-able via :meth:`as_json`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import z3

from loveformal import cards as G
from loveformal.cards import Card
from loveformal.proofs import cards as C
from loveformal.proofs.model import (
    BISHOP_REDRAW,
    CHANCELLOR,
    CHANCELLOR_DRAW,
    GAME_OVER,
    NONE,
    PLAY,
    REDRAW,
    ROUND_OVER,
    TURN_DRAW,
    BoolE,
    IntE,
    Position,
    Shape,
    SymState,
    count_true,
    decode,
    in_round,
    select,
    total,
    value_of,
    well_formed,
)
from loveformal.proofs.steps import (
    BISHOP_REDRAW_STEP,
    Semantics,
    Transition,
    bishop_redraw,
    chancellor_draw,
    chancellor_return,
    initial,
    new_round,
    redraw,
    turn_draw,
)
from loveformal.ruleset import Ruleset

Status = Literal["proved", "counterexample", "unknown", "vacuous"]

# ------------------------------------------------------------------------------ invariants


def conservation(s: SymState) -> BoolE:
    """Card conservation: "every card of the deck is in exactly one zone" — for each kind,
    the counts over all zones sum to the deck's copies (rules.md §5, anchors "card
    conservation")."""
    shape = s.shape
    return z3.And(
        [z3.Sum([zone[k] for zone in s.n]) == copies for k, copies in enumerate(shape.copies)]
    )


def one_princess(s: SymState) -> BoolE:
    """Exactly one Princess is in play (in some zone), and "a player who plays or discards the
    Princess for any reason is out immediately" (§1.1.6): a Princess in a discard pile means
    its owner is out."""
    shape = s.shape
    p = shape.k(G.PRINCESS)
    return z3.And(
        z3.Sum([zone[p] for zone in s.n]) == 1,
        *(z3.Implies(s.disc(i)[p] >= 1, s.out[i]) for i in shape.seats),
    )


def hand_sizes(s: SymState) -> BoolE:
    """Hand sizes: 0 when out; in the round 1, except the seat in turn: 2 after its draw, 1 + the
    Chancellor's cards while it resolves, and 0 for a seat waiting for its Prince redraw."""
    shape = s.shape
    parts = []
    for i in shape.seats:
        h = total(s.hand(i))
        me = s.turn == i
        expected = z3.If(
            s.phase == PLAY,
            z3.If(me, h == 2, h == 1),
            z3.If(
                s.phase == REDRAW,
                z3.If(s.pending == i, h == 0, h == 1),
                z3.If(
                    s.phase == CHANCELLOR_DRAW,
                    z3.If(me, z3.And(h >= 1, h + s.draws >= 2, h + s.draws <= 3), h == 1),
                    z3.If(
                        s.phase == CHANCELLOR,
                        z3.If(me, z3.And(h >= 2, h <= 3), h == 1),
                        h == 1,
                    ),
                ),
            ),
        )
        parts.append(z3.If(s.out[i], h == 0, expected))
    return z3.And(parts)


def set_aside(s: SymState) -> BoolE:
    """During a round the face-down set-aside card is still there and the face-up cards are
    untouched (§1.1.1; a Prince on an empty deck takes it and ends the round, R2)."""
    shape = s.shape
    faceup = total(s.faceup)
    face_ok = faceup == shape.face_up
    if shape.rules.options.prince_empty_deck == "top_removed":
        face_ok = z3.And(faceup >= 0, faceup <= shape.face_up)
    return z3.Implies(in_round(s), z3.And(total(s.aside) == 1, face_ok))


def round_state(s: SymState) -> BoolE:
    """The round's bookkeeping: during a round at least two seats are in it, and so is the
    seat in turn — except while an Assassin's holder redraws after knocking out the Guard's
    player (R6: "the Guard's player is out … you then must discard the Assassin and draw a
    new card"; the turn passes on after the draw); a turn starts only with cards to draw; a
    pending redraw is a seat in the round, not protected (unless it is the player's own),
    with a card to draw; the Bishop's target deciding whether to redraw is another seat in
    the round, not protected (the Bishop chooses "another, unprotected player", R16); the
    Chancellor draws 1 or 2 cards that are there; after a round at least one seat remains
    and some seat may start the next one."""
    shape = s.shape
    left = count_true([z3.Not(o) for o in s.out])
    pile = total(s.pile)
    some_starter = z3.Or(*s.starter)
    assassin = z3.BoolVal(shape.has(G.ASSASSIN) and shape.rules.options.assassin_redraw)
    return z3.And(
        z3.Implies(in_round(s), left >= 2),
        z3.Implies(
            z3.And(in_round(s), z3.Not(z3.And(assassin, s.phase == REDRAW))),
            z3.Not(select(s.turn, list(s.out))),
        ),
        z3.Implies(s.phase == TURN_DRAW, pile >= 1),
        z3.Implies(
            s.phase == REDRAW,
            z3.And(s.pending != NONE, z3.Not(select(s.pending, list(s.out))), pile >= 1),
        ),
        z3.Implies(
            s.phase == REDRAW,
            z3.Or(s.pending == s.turn, z3.Not(select(s.pending, list(s.protected)))),
        ),
        z3.Implies(
            s.phase == BISHOP_REDRAW,
            z3.And(
                s.pending != NONE,
                s.pending != s.turn,
                z3.Not(select(s.pending, list(s.out))),
                z3.Not(select(s.pending, list(s.protected))),
            ),
        ),
        z3.Implies(z3.And(s.phase != REDRAW, s.phase != BISHOP_REDRAW), s.pending == NONE),
        z3.If(
            s.phase == CHANCELLOR_DRAW,
            z3.And(s.draws >= 1, s.draws <= 2, pile >= s.draws),
            s.draws == 0,
        ),
        z3.Implies(z3.Or(s.phase == ROUND_OVER, s.phase == GAME_OVER), left >= 1),
        z3.If(s.phase == ROUND_OVER, some_starter, z3.Not(some_starter)),
        z3.Implies(z3.Not(z3.BoolVal(shape.has(G.SYCOPHANT))), s.sycophant == NONE),
        z3.Implies(
            z3.Not(z3.BoolVal(shape.has(G.JESTER))),
            z3.And(s.jester_bettor == NONE, s.jester_chosen == NONE),
        ),
    )


def out_seats(s: SymState) -> BoolE:
    """A seat out of the round holds no card (§1.1.5: it "discards their hand") and is not
    protected."""
    return z3.And(
        [
            z3.Implies(s.out[i], z3.And(total(s.hand(i)) == 0, z3.Not(s.protected[i])))
            for i in s.shape.seats
        ]
    )


def protection_expiry(s: SymState) -> BoolE:
    """Handmaid protection lasts "until the start of your next turn" (R8, D25): during its own
    turn a seat is never protected."""
    return z3.Implies(in_round(s), z3.Not(select(s.turn, list(s.protected))))


def spy_flag(s: SymState) -> BoolE:
    """A seat is marked as having "played or discarded a Spy" (R12) exactly when a Spy is in
    its discard pile (no Spy in the deck: nobody is marked)."""
    shape = s.shape
    if not shape.has(G.SPY):
        return z3.And([z3.Not(b) for b in s.spied])
    k = shape.k(G.SPY)
    return z3.And([s.spied[i] == (s.disc(i)[k] >= 1) for i in shape.seats])


def game_over_at_threshold(s: SymState) -> BoolE:
    """The match is over exactly when some seat has reached the tokens to win (§1.2 "Tokens to
    win", R15, R24)."""
    goal = s.shape.threshold
    return (s.phase == GAME_OVER) == z3.Or([t >= goal for t in s.tokens])


def rank(s: SymState) -> IntE:
    """The ranking function: 5 × the effective draw pile + a phase weight; −1 after a round.

    The effective pile counts the cards that will still be in the pile when the turn ends: in
    a redraw, one card fewer; while the Chancellor resolves, the cards its player will return.
    Weights: turn start 0, redraw 1, Chancellor choice 1, Chancellor draws 1 + draws still to
    come, the Bishop target's redraw choice 2 (``BISHOP_REDRAW``: after the Bishop's play,
    before its replacement draw or the next turn), play decision 4.
    """
    pile = total(s.pile)
    h = total(s.hand_at(s.turn))
    returned = pile + h - 1
    return z3.If(
        s.phase == TURN_DRAW,
        5 * pile,
        z3.If(
            s.phase == PLAY,
            5 * pile + 4,
            z3.If(
                s.phase == REDRAW,
                5 * (pile - 1) + 1,
                z3.If(
                    s.phase == CHANCELLOR_DRAW,
                    5 * returned + 1 + s.draws,
                    z3.If(
                        s.phase == CHANCELLOR,
                        5 * returned + 1,
                        z3.If(s.phase == BISHOP_REDRAW, 5 * pile + 2, z3.IntVal(-1)),
                    ),
                ),
            ),
        ),
    )


def rank_bound(s: SymState) -> BoolE:
    """The ranking function is bounded: ``0 ≤ rank ≤ 5·pile0 + 4`` during a round."""
    bound = 5 * s.shape.pile0 + 4
    r = rank(s)
    return z3.Implies(in_round(s), z3.And(r >= 0, r <= bound))


Invariant = Callable[[SymState], BoolE]

INVARIANTS: tuple[tuple[str, Invariant], ...] = (
    ("well-formed", well_formed),
    ("conservation", conservation),
    ("one princess", one_princess),
    ("hand sizes", hand_sizes),
    ("set-aside card", set_aside),
    ("round state", round_state),
    ("out seats", out_seats),
    ("protection expiry", protection_expiry),
    ("spy flag", spy_flag),
    ("game over at threshold", game_over_at_threshold),
    ("rank bound", rank_bound),
)
"""The state invariants, by name (their conjunction is the inductive invariant ``Inv``)."""


def inv(s: SymState) -> BoolE:
    return z3.And([p(s) for _, p in INVARIANTS])


# ------------------------------------------------------------------------------ step properties


def tokens_never_decrease(t: Transition, post: SymState) -> BoolE:
    """Tokens are never taken away (§1.1.8: tokens are only gained)."""
    return z3.And([b >= a for a, b in zip(t.pre.tokens, post.tokens, strict=True)])


def rank_decreases(t: Transition, post: SymState) -> BoolE:
    """Termination: every step within a round lowers the ranking function."""
    return rank(post) < rank(t.pre)


def _self_allowed(shape: Shape, card: Card) -> bool:
    """Which cards may choose their own player, read off the card texts: the Prince ("including
    yourself", R3), the Sycophant ("yourself included", R20), the Cardinal ("you may include
    yourself", R22); the Guard and the Jester only under ``guard_self_target`` /
    ``jester_self`` (D5, D15); every other card chooses "another player" (R25, R16, R17,
    R21, R23)."""
    opts = shape.rules.options
    return (
        card in (G.PRINCE, G.SYCOPHANT, G.CARDINAL)
        or (card is G.GUARD and opts.guard_self_target)
        or (card is G.JESTER and opts.jester_self)
    )


def _legal_seat(s: SymState, card: Card, seat: IntE) -> BoolE:
    """ "Targets must be players still in the round. A Handmaid-protected player (other than
    yourself) cannot be chosen" (§1.1.4, D26); yourself only where the card says so."""
    shape = s.shape
    protected_other = z3.And(seat != s.turn, select(seat, list(s.protected)))
    return z3.And(
        seat >= 0,
        seat < shape.players,
        z3.Not(select(seat, list(s.out))),
        z3.Implies(seat == s.turn, z3.BoolVal(_self_allowed(shape, card))),
        z3.Not(protected_other)
        if shape.rules.options.handmaid == "untargetable"
        else z3.BoolVal(True),
    )


def _mark_binds(s: SymState, card: Card) -> BoolE:
    """The Sycophant's mark binds this card: "if the next card played has an effect that
    chooses one or more players, it must at least choose that player" (§1.3, R20) — unless,
    under ``sycophant_conflict = waived``, the mark is the card's own player and the card
    cannot choose them (D14)."""
    shape = s.shape
    if not shape.has(G.SYCOPHANT):
        return z3.BoolVal(False)
    m = s.sycophant
    waived = z3.And(
        z3.BoolVal(shape.rules.options.sycophant_conflict == "waived"),
        m == s.turn,
        z3.BoolVal(not _self_allowed(shape, card)),
    )
    return z3.And(m != NONE, z3.Not(waived))


def legal_target(t: Transition, post: SymState) -> BoolE:
    """ "Targets must be players still in the round. A Handmaid-protected player (other than
    yourself) cannot be chosen"; yourself only where the card says so; and a card is played
    with no effect only when no player can be chosen (§1.1.4, R3, R9, R25) — or when the
    Sycophant's mark names a player it cannot choose, in which case "this card is discarded
    without effect"; otherwise it chooses the marked player (§1.3 Guard/Sycophant, R20,
    D14)."""
    s, target, card = t.pre, t.choice.target, t.card
    assert card is not None
    someone = z3.Or([_legal_seat(s, card, z3.IntVal(i)) for i in s.shape.seats])
    free = z3.If(target == NONE, z3.Not(someone), _legal_seat(s, card, target))
    m = s.sycophant
    marked = z3.If(_legal_seat(s, card, m), target == m, target == NONE)
    return z3.And(
        z3.If(_mark_binds(s, card), marked, free),
        t.choice.target2 == NONE,
        t.choice.look == NONE,
    )


def legal_targets(t: Transition, post: SymState) -> BoolE:
    """The Baroness and the Cardinal choose a legal set of players (§1.1.4): nobody out or
    protected, not yourself where forbidden, no seat twice (``target < target2``).

    Baroness: "1 or 2 other players" (R21); exactly 2 under ``baroness_targets = two`` when 2
    can be chosen (D13); it looks at nothing else. Cardinal: "exactly 2 players (you may
    include yourself) … you may look at one of those two hands" (R22). No effect only when
    no such set exists (R9, R22: "fewer than 2 choosable → no effect"), or when the
    Sycophant's mark binds and no set includes the marked player (R20, D14)."""
    s, ch = t.pre, t.choice
    assert t.card is not None
    card = t.card
    shape = s.shape
    a, b = ch.target, ch.target2
    n = z3.Sum([z3.If(_legal_seat(s, card, z3.IntVal(i)), 1, 0) for i in shape.seats])
    two = z3.And(a != NONE, b != NONE, a < b, _legal_seat(s, card, a), _legal_seat(s, card, b))
    one = z3.And(a != NONE, b == NONE, _legal_seat(s, card, a))
    if card is G.CARDINAL:
        need, sized = 2, two
        look = z3.Or(ch.look == NONE, z3.And(a != NONE, z3.Or(ch.look == a, ch.look == b)))
    else:
        need = 1
        exactly_two = shape.rules.options.baroness_targets == "two"
        sized = z3.If(z3.And(z3.BoolVal(exactly_two), n >= 2), two, z3.Or(one, two))
        look = ch.look == NONE
    nothing = z3.And(a == NONE, b == NONE)
    m = s.sycophant
    includes = z3.Or(a == m, b == m)
    marked = z3.If(z3.And(_legal_seat(s, card, m), n >= need), z3.And(sized, includes), nothing)
    free = z3.If(n >= need, sized, nothing)
    return z3.And(z3.If(_mark_binds(s, card), marked, free), look)


def legal_guess(t: Transition, post: SymState) -> BoolE:
    """The Guard names "a card other than Guard" (CLASSIC, Z2019) or "a number other than 1"
    (PREMIUM), of this deck (R5, D6); the Bishop's guess "takes the same form as the
    Guard's" (D10, scenario format "Guesses")."""
    shape, g = t.pre.shape, t.choice.guess
    if shape.rules.options.guard_guess == "name":
        names = [k for k, c in enumerate(shape.kinds) if c is not G.GUARD]
    else:
        names = sorted({v for v in shape.values if v != 1})
    return z3.If(t.choice.target == NONE, g == NONE, z3.Or([g == n for n in names]))


def _holds(s: SymState, seat: IntE, guess: IntE) -> BoolE:
    """``seat`` holds what ``guess`` names: the card (``guard_guess = name``) or a card of
    that value (``number``) (R5, D6)."""
    shape = s.shape
    hand = [select(seat, [s.hand(i)[k] for i in shape.seats]) for k in range(len(shape.kinds))]
    if shape.rules.options.guard_guess == "name":
        return select(guess, hand) >= 1
    return z3.Sum([c * v for c, v in zip(hand, shape.values, strict=True)]) == guess


def bishop_token(t: Transition, post: SymState) -> BoolE:
    """The Bishop's token: "If that player holds that number, you gain a token (immediate win
    if it reaches the threshold). Only if you gained the token, the revealed player may
    discard their card … and draw a new one" (§1.3, R16; D9: after a miss too under
    ``bishop_redraw = always``).

    On a hit the Bishop's player gains exactly one token and nobody else any; the match is
    over exactly when that token reaches the threshold; otherwise the target (and only the
    target) is to decide. On a miss nobody's tokens change while the round goes on, and the
    target decides only under ``always``."""
    s, ch = t.pre, t.choice
    shape = s.shape
    target = ch.target
    acts = target != NONE
    if shape.rules.options.handmaid != "untargetable":
        acts = z3.And(acts, z3.Not(select(target, list(s.protected))))
    hit = z3.And(acts, _holds(s, target, ch.guess))
    mine = select(s.turn, list(s.tokens))
    gained = [
        b == z3.If(s.turn == i, a + 1, a)
        for i, (a, b) in enumerate(zip(s.tokens, post.tokens, strict=True))
    ]
    won = mine + 1 >= shape.threshold
    decides = z3.And(post.phase == BISHOP_REDRAW, post.pending == target)
    on_hit = z3.And(*gained, (post.phase == GAME_OVER) == won, z3.Implies(z3.Not(won), decides))
    same = z3.And([a == b for a, b in zip(s.tokens, post.tokens, strict=True)])
    offered = z3.BoolVal(shape.rules.options.bishop_redraw == "always")
    on_miss = z3.And(
        z3.Implies(in_round(post), same),
        (post.phase == BISHOP_REDRAW) == z3.And(acts, offered),
        z3.Implies(post.phase == BISHOP_REDRAW, decides),
    )
    return z3.If(hit, on_hit, on_miss)


def countess_rule(t: Transition, post: SymState) -> BoolE:
    """ "If your two cards are the Countess plus the King or a Prince, you must play the
    Countess" (§1.1.3, R4): nobody plays the King or a Prince while holding the Countess."""
    s = t.pre
    return s.hand_at(s.turn)[s.shape.k(G.COUNTESS)] == 0


def immune_unaffected(t: Transition, post: SymState) -> BoolE:
    """Seats out of the round and seats protected by the Handmaid (other than the player) are
    untouched: "immune to other players' card effects", "cannot be chosen" (§1.1.4, §1.1.5,
    R8): their hand, discard pile and status do not change."""
    s = t.pre
    parts = []
    for i in s.shape.seats:
        immune = z3.Or(s.out[i], z3.And(s.protected[i], s.turn != i))
        same = z3.And(
            *(a == b for a, b in zip(s.hand(i), post.hand(i), strict=True)),
            *(a == b for a, b in zip(s.disc(i), post.disc(i), strict=True)),
            s.out[i] == post.out[i],
        )
        parts.append(z3.Implies(immune, same))
    return z3.And(parts)


def knockouts_justified(t: Transition, post: SymState) -> BoolE:
    """Nobody is knocked out without a rule that says so: a Guard's correct guess (R5), or
    the Guard's own player when the Guard chose an Assassin holder (R6); the lower hand of a
    Baron comparison, or the higher of a Dowager Queen's, strictly (R7, R17: "a tie does
    nothing"); playing the Princess, or discarding her to a Prince or to a Bishop's redraw
    (§1.1.6, R1, R16)."""
    s, ch, card = t.pre, t.choice, t.card
    shape = s.shape
    remaining = [h for h in s.hand_at(s.turn)]
    if card is not None:
        k = shape.k(card)
        remaining[k] = remaining[k] - 1
    mine = value_of(shape, tuple(remaining))
    p = shape.k(G.PRINCESS)
    parts = []
    for i in shape.seats:
        seat = z3.IntVal(i)
        hand_i = s.hand(i)
        if card is G.GUARD:
            if shape.rules.options.guard_guess == "name":
                named = select(ch.guess, list(hand_i)) >= 1
            else:
                named = value_of(shape, hand_i) == ch.guess
            why = z3.And(ch.target == seat, z3.And(ch.guess >= 0, named))
            if shape.has(G.ASSASSIN):
                assassin = s.hand_at(ch.target)[shape.k(G.ASSASSIN)] >= 1
                why = z3.Or(
                    why, z3.And(s.turn == seat, ch.target != NONE, ch.target != seat, assassin)
                )
        elif card in (G.BARON, G.DOWAGER_QUEEN):
            theirs = value_of(shape, s.hand_at(ch.target))
            if card is G.BARON:
                why = z3.Or(
                    z3.And(s.turn == seat, mine < theirs),
                    z3.And(ch.target == seat, value_of(shape, hand_i) < mine),
                )
            else:
                why = z3.Or(
                    z3.And(s.turn == seat, mine > theirs),
                    z3.And(ch.target == seat, value_of(shape, hand_i) > mine),
                )
        elif card is G.PRINCESS:
            why = s.turn == seat
        elif card is G.PRINCE:
            why = z3.And(ch.target == seat, hand_i[p] >= 1)
        elif t.name == BISHOP_REDRAW_STEP:
            why = z3.And(s.pending == seat, ch.redraw == 1, hand_i[p] >= 1)
        else:
            why = z3.BoolVal(False)
        parts.append(z3.Implies(z3.And(z3.Not(s.out[i]), post.out[i]), why))
    return z3.And(parts)


StepProperty = Callable[[Transition, SymState], BoolE]


@dataclass(frozen=True)
class StepCheck:
    name: str
    prop: StepProperty
    applies: Callable[[Transition], bool]


def _in_round(t: Transition) -> bool:
    return t.in_round


STEP_PROPERTIES: tuple[StepCheck, ...] = (
    StepCheck("tokens never decrease", tokens_never_decrease, lambda t: True),
    StepCheck("termination", rank_decreases, _in_round),
    StepCheck("legal target", legal_target, lambda t: t.card in C.TARGETING),
    StepCheck("legal targets", legal_targets, lambda t: t.card in C.MULTI_TARGETING),
    StepCheck("legal guess", legal_guess, lambda t: t.card in C.GUESSING),
    StepCheck("bishop token", bishop_token, lambda t: t.card is G.BISHOP),
    StepCheck("countess rule", countess_rule, lambda t: t.card in (G.KING, G.PRINCE)),
    StepCheck("immune seats unaffected", immune_unaffected, _in_round),
    StepCheck("knock-outs justified", knockouts_justified, _in_round),
)
"""Properties of one step, with the transitions they apply to."""


# ------------------------------------------------------------------------------ transitions


def transition_names(shape: Shape) -> tuple[str, ...]:
    """The names of every kind of step of a round, in a fixed order."""
    names = ["turn draw", *(f"play {k.title}" for k in shape.kinds), "redraw"]
    if shape.has(G.CHANCELLOR):
        names += ["chancellor draw", "chancellor return"]
    if shape.has(G.BISHOP):
        names.append(BISHOP_REDRAW_STEP)
    names.append("new round")
    return tuple(names)


def transition(shape: Shape, name: str, sem: Semantics | None = None) -> Transition:
    """The step called ``name`` (one of :func:`transition_names`) under ``sem`` (default: the
    rules), built alone."""
    sem = sem or Semantics()
    builders = {
        "turn draw": turn_draw,
        "redraw": redraw,
        "chancellor draw": chancellor_draw,
        "chancellor return": chancellor_return,
        BISHOP_REDRAW_STEP: bishop_redraw,
        "new round": new_round,
    }
    if name in builders:
        return builders[name](shape, sem)
    return C.play(shape, sem, Card.parse(name.removeprefix("play ")))


def transitions(shape: Shape, sem: Semantics | None = None) -> tuple[Transition, ...]:
    """Every kind of step of a round under ``sem`` (default: the rules)."""
    return tuple(transition(shape, name, sem) for name in transition_names(shape))


# ------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Counterexample:
    """A decoded counterexample: the pre-state, the choice, and the post-state."""

    pre: Position
    choice: tuple[tuple[str, str], ...]
    """The choice variables in use, rendered (``("target", "P2")``, ``("guess", "Priest")``)."""
    post: Position | None

    def summary(self) -> str:
        choice = ", ".join(f"{k} {v}" for k, v in self.choice) or "-"
        text = f"pre:\n{self.pre.summary()}\nchoice: {choice}"
        if self.post is not None:
            text += f"\npost:\n{self.post.summary()}"
        return text

    def as_json(self) -> dict[str, object]:
        return {
            "pre": self.pre.as_json(),
            "choice": dict(self.choice),
            "post": None if self.post is None else self.post.as_json(),
        }


@dataclass(frozen=True)
class ObligationResult:
    """The outcome of one obligation (a frozen value; :meth:`as_json` for the CLI)."""

    preset: str
    players: int
    transition: str
    invariant: str
    status: Status
    seconds: float
    timeout_ms: int
    counterexample: Counterexample | None = None
    detail: str = ""

    @property
    def name(self) -> str:
        return f"{self.invariant} under {self.transition}"

    def as_json(self) -> dict[str, object]:
        return {
            "preset": self.preset,
            "players": self.players,
            "transition": self.transition,
            "invariant": self.invariant,
            "status": self.status,
            "seconds": round(self.seconds, 4),
            "timeout_ms": self.timeout_ms,
            "counterexample": None
            if self.counterexample is None
            else self.counterexample.as_json(),
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Config:
    """Solver settings: a fixed seed and a per-query timeout (reproducible runs)."""

    timeout_ms: int = 10_000
    seed: int = 0
    only: frozenset[str] = field(default_factory=frozenset)
    """If not empty: check only the transitions with these names."""
    canonical: Literal["first", "all", "none"] = "first"
    """Which counterexamples of a transition are made canonical (lexicographically least, the
    same in every process; costs up to seconds each): the first, all, or none. The others
    are Z3's own models: valid, but they may differ from run to run."""


ARITH_SOLVER = 2
"""Z3's ``smt.arith.solver``: 2, the older simplex-based arithmetic solver, refutes these
obligations about 15% faster than the default (6) on the Premium deck (``bench/proofs.py``)."""


def _solver(cfg: Config) -> z3.Solver:
    """A solver with the configuration's seed and per-query time-out."""
    z3.set_param("smt.random_seed", cfg.seed)
    z3.set_param("sat.random_seed", cfg.seed)
    z3.set_param("smt.arith.solver", ARITH_SOLVER)
    solver = z3.Solver()
    solver.set("timeout", cfg.timeout_ms)
    solver.set("random_seed", cfg.seed)
    return solver


def _canonical_model(solver: z3.Solver, t: Transition, cfg: Config) -> Any:
    """The lexicographically least model over a fixed order of the variables (pre-state,
    then choice; ``False < True``): unique, hence the same counterexample whatever model Z3
    found first (goldens stay stable across processes). Found greedily: each variable in
    turn is fixed to the least value still satisfiable, trying values upwards from its lower
    bound (every variable is bounded below by the invariants and guards)."""
    pre = t.pre
    seat_like = {str(v) for v in (pre.pending, pre.sycophant, pre.jester_bettor, pre.jester_chosen)}
    seat_like |= {str(v) for _, v in t.choice.pairs()}
    order = [*pre.variables(), *(v for _, v in t.choice.pairs())]
    if t.choice.deal is not None:
        order += [c for zone in t.choice.deal for c in zone]
    model = solver.model()
    solver.push()
    solver.set("timeout", min(cfg.timeout_ms, CANONICAL_TIMEOUT_MS))
    for v in order:
        current = model.eval(v, model_completion=True)
        if z3.is_bool(v):
            candidates: list[Any] = [z3.BoolVal(False)] if z3.is_true(current) else []
        else:
            low = NONE if str(v) in seat_like else 0
            candidates = [z3.IntVal(c) for c in range(low, int(current.as_long()))]
        for c in candidates:
            solver.push()
            solver.add(v == c)
            found = _satisfiable(solver, cfg)
            solver.pop()
            if found is not None:
                model, current = found, c
                break
        solver.add(v == current)
    solver.set("timeout", cfg.timeout_ms)
    final = _satisfiable(solver, cfg)
    solver.pop()
    return model if final is None else final


CANONICAL_TIMEOUT_MS = 1_000
"""The incremental solver's time-out on a canonicalisation query (they take milliseconds;
one it cannot answer soon goes to fresh solvers, with the configured time-out)."""
CANONICAL_RETRIES = 2
"""How many fresh solvers (seeds ``seed + 1``, ``seed + 2`` …) retry a canonicalisation
query that the incremental solver leaves ``unknown``."""


def _satisfiable(solver: z3.Solver, cfg: Config) -> Any:
    """A model of the solver's assertions, or None if they are unsatisfiable. An ``unknown``
    answer is retried on fresh solvers with other seeds (an incremental solver can get stuck
    on a query a fresh one answers at once; the answer must not depend on that, or the least
    model would not be unique). Still ``unknown``: None — the model found is then valid but
    perhaps not the least one."""
    answer = solver.check()
    if answer == z3.sat:
        return solver.model()
    if answer == z3.unsat:
        return None
    assertions = solver.assertions()
    for retry in range(1, CANONICAL_RETRIES + 1):
        fresh = z3.Solver()
        fresh.set("timeout", cfg.timeout_ms)
        fresh.set("random_seed", cfg.seed + retry)
        fresh.add(assertions)
        answer = fresh.check()
        if answer == z3.sat:
            return fresh.model()
        if answer == z3.unsat:
            return None
    return None


def _render_choice(shape: Shape, name: str, value: int) -> str:
    """A choice value in the game's words: seats as ``P1``, kinds and named cards by title."""
    if value == NONE:
        return "none"
    if name in ("target", "target2", "look", "starter"):
        return f"P{value + 1}"
    if name == "redraw":
        return "discard and redraw" if value == 1 else "keep"
    by_name = name == "kind" or shape.rules.options.guard_guess == "name"
    if by_name and 0 <= value < len(shape.kinds):
        return shape.kinds[value].title
    return str(value)


def _decode_cex(
    model: Any, t: Transition | None, pre: SymState, post: SymState | None
) -> Counterexample:
    choice: tuple[tuple[str, str], ...] = ()
    if t is not None:
        values = [
            (name, int(model.eval(v, model_completion=True).as_long()))
            for name, v in t.choice.pairs()
        ]
        choice = tuple(
            (name, _render_choice(pre.shape, name, v)) for name, v in values if v != NONE
        )
    return Counterexample(
        pre=decode(model, pre),
        choice=choice,
        post=None if post is None else decode(model, post),
    )


def conjuncts(e: BoolE) -> list[BoolE]:
    """The conjuncts of ``e`` (nested ``And`` flattened; ``True`` dropped)."""
    out: list[BoolE] = []
    todo = [e]
    while todo:
        x = todo.pop()
        if z3.is_and(x):
            todo.extend(reversed(x.children()))
        elif not z3.is_true(x):
            out.append(x)
    return out


@dataclass(frozen=True)
class _Outcome:
    answer: Any
    """``z3.unsat`` (proved), ``z3.sat`` or ``z3.unknown``."""
    seconds: float
    reason: str = ""


CHUNK = 32
"""A goal's conjuncts are first refuted :data:`CHUNK` at a time (one query for many easy
conjuncts: the well-formedness bounds, one per count; a per-seat property), with
:data:`CHUNK_TIMEOUT_MS`; a chunk not refuted so is retried one conjunct at a time. Goals
in :data:`ONE_AT_A_TIME` with fewer than :data:`CHUNK` conjuncts skip the chunk."""
ONE_AT_A_TIME = frozenset({"conservation", "round state", "immune seats unaffected"})
"""Goals whose conjuncts are each hard enough that their disjunction is slower to refute than
each on its own (measured on the Premium deck at 8 players: ``bench/proofs.py``)."""
CHUNK_TIMEOUT_MS = 2_000


def _prove(
    solver: z3.Solver, goal: BoolE, known: set[int], timeout_ms: int, separately: bool = True
) -> _Outcome:
    """Whether the solver's assertions imply ``goal``, one conjunct (or chunk) at a time.

    ``Hyp ⇒ c₁ ∧ … ∧ cₘ`` holds iff ``Hyp ∧ ¬cᵢ`` is UNSAT for every ``i``. Hard conjuncts
    (``separately``: the goals of :data:`ONE_AT_A_TIME`) are refuted one query each, far
    faster than as one disjunction ``¬c₁ ∨ … ∨ ¬cₘ``; easy ones :data:`CHUNK` per query first
    (``bench/proofs.py``), a chunk not refuted so one at a time. Goals of :data:`CHUNK`
    conjuncts or more are always chunked first. A conjunct that is literally one of the
    hypotheses (``known``, by AST identity: e.g. a count the step leaves unchanged) needs no
    query. Stops at the first conjunct not refuted (``sat`` or ``unknown``)."""
    start = time.perf_counter()
    todo = [c for c in conjuncts(goal) if c.get_id() not in known]
    size = CHUNK if len(todo) >= CHUNK or not separately else 1
    for i in range(0, len(todo), size):
        part = todo[i : i + size]
        if len(part) > 1:
            solver.set("timeout", min(timeout_ms, CHUNK_TIMEOUT_MS))
            if _refuted(solver, z3.And(part)) == z3.unsat:
                continue
        solver.set("timeout", timeout_ms)
        for c in part:
            answer = _refuted(solver, c)
            if answer != z3.unsat:
                reason = solver.reason_unknown() if answer == z3.unknown else ""
                return _Outcome(answer, time.perf_counter() - start, reason)
    solver.set("timeout", timeout_ms)
    return _Outcome(z3.unsat, time.perf_counter() - start)


def _refuted(solver: z3.Solver, goal: BoolE) -> Any:
    """``check(Hyp ∧ ¬goal)`` in a pushed scope."""
    solver.push()
    solver.add(z3.Not(goal))
    answer = solver.check()
    solver.pop()
    return answer


_INV: dict[tuple[Shape, tuple[int, ...]], tuple[SymState, BoolE, frozenset[int]]] = {}


def _hypothesis(pre: SymState) -> tuple[BoolE, frozenset[int]]:
    """``Inv(pre)`` and the AST ids of its conjuncts, built once per shape and pre-state
    (every transition's pre-state has the same variables: :func:`~.model.fresh`; the state
    is kept in the entry so that its ids stay in use)."""
    key = (pre.shape, tuple(v.get_id() for v in pre.variables()))
    hit = _INV.get(key)
    if hit is None:
        if len(_INV) > 64:
            _INV.clear()
        formula = inv(pre)
        hit = (pre, formula, frozenset(c.get_id() for c in conjuncts(formula)))
        _INV[key] = hit
    return hit[1], hit[2]


def check_transition(
    rules: Ruleset,
    shape: Shape,
    t: Transition,
    cfg: Config,
    invariants: Sequence[tuple[str, Invariant]] = INVARIANTS,
    steps: Sequence[StepCheck] = STEP_PROPERTIES,
) -> list[ObligationResult]:
    """Every obligation of transition ``t``: vacuity first, then each invariant and step
    property, incrementally on one solver.

    The relation's frame condition ``s' = post(s, c)`` is used by substitution: the
    obligation ``Inv(s) ∧ Guard(s, c) ∧ s' = post ∧ ¬P(s')`` is checked as ``Inv(s) ∧
    Guard(s, c) ∧ ¬P(post)`` (equivalent: ``s'`` is determined), conjunct by conjunct
    (:func:`_prove`). A goal that is not proved is queried once more whole, for its
    counterexample (canonical as :class:`Config` says) or the solver's reason."""
    players = shape.players
    hyp, known_inv = _hypothesis(t.pre)
    solver = _solver(cfg)
    solver.add(hyp, t.guard)
    known = set(known_inv) | {c.get_id() for c in conjuncts(t.guard)}
    start = time.perf_counter()
    base = solver.check()
    fires = time.perf_counter() - start
    post = t.post
    goals: list[tuple[str, BoolE]] = [(name, p(post)) for name, p in invariants]
    goals += [(sc.name, sc.prop(t, post)) for sc in steps if sc.applies(t)]
    results: list[ObligationResult] = []
    if base != z3.sat:
        status: Status = "vacuous" if base == z3.unsat else "unknown"
        detail = (
            "the transition cannot fire from any state satisfying the invariants"
            if base == z3.unsat
            else f"vacuity check: {solver.reason_unknown()}"
        )
        for name, _ in goals:
            results.append(
                ObligationResult(
                    rules.key, players, t.name, name, status, fires, cfg.timeout_ms, None, detail
                )
            )
        return results
    for name, goal in goals:
        outcome = _prove(solver, goal, known, cfg.timeout_ms, name in ONE_AT_A_TIME)
        seconds = outcome.seconds
        answer, reason = outcome.answer, outcome.reason
        if answer == z3.unsat:
            results.append(
                ObligationResult(
                    rules.key, players, t.name, name, "proved", seconds, cfg.timeout_ms
                )
            )
            continue
        solver.push()
        solver.add(z3.Not(goal))
        if answer == z3.sat:
            again = time.perf_counter()
            whole = solver.check()
            seconds += time.perf_counter() - again
            if whole == z3.sat:
                first = not any(r.status == "counterexample" for r in results)
                wanted = cfg.canonical == "all" or (cfg.canonical == "first" and first)
                model = _canonical_model(solver, t, cfg) if wanted else solver.model()
                cex = _decode_cex(model, t, t.pre, post)
                results.append(
                    ObligationResult(
                        rules.key,
                        players,
                        t.name,
                        name,
                        "counterexample",
                        seconds,
                        cfg.timeout_ms,
                        cex,
                    )
                )
                solver.pop()
                continue
            reason = solver.reason_unknown()
        solver.pop()
        results.append(
            ObligationResult(
                rules.key,
                players,
                t.name,
                name,
                "unknown",
                seconds,
                cfg.timeout_ms,
                None,
                f"timed out or gave up after {cfg.timeout_ms} ms: {reason}",
            )
        )
    return results


def check_initial(rules: Ruleset, shape: Shape, cfg: Config) -> list[ObligationResult]:
    """The base case: a fresh first-round deal satisfies every invariant."""
    cond, state = initial(shape)
    solver = _solver(cfg)
    solver.add(cond)
    start = time.perf_counter()
    base = solver.check()
    results = []
    if base != z3.sat:
        status: Status = "vacuous" if base == z3.unsat else "unknown"
        seconds = time.perf_counter() - start
        return [
            ObligationResult(
                rules.key, shape.players, "initial deal", name, status, seconds, cfg.timeout_ms
            )
            for name, _ in INVARIANTS
        ]
    for name, p in INVARIANTS:
        solver.push()
        solver.add(z3.Not(p(state)))
        start = time.perf_counter()
        answer = solver.check()
        seconds = time.perf_counter() - start
        if answer == z3.unsat:
            status = "proved"
            cex = None
        elif answer == z3.sat:
            status = "counterexample"
            cex = _decode_cex(solver.model(), None, state, None)
        else:
            status, cex = "unknown", None
        results.append(
            ObligationResult(
                rules.key, shape.players, "initial deal", name, status, seconds, cfg.timeout_ms, cex
            )
        )
        solver.pop()
    return results


def check_all(
    rules: Ruleset, players: int, cfg: Config | None = None, sem: Semantics | None = None
) -> list[ObligationResult]:
    """Every obligation for one ruleset and player count."""
    cfg = cfg or Config()
    shape = Shape.of(rules, players)
    if not C.supported(shape):
        missing = ", ".join(k.title for k in shape.kinds if k not in C.MODELLED)
        raise NotModelled(f"{rules.key} with {players} players: not modelled: {missing}")
    results = [] if cfg.only else check_initial(rules, shape, cfg)
    for name in transition_names(shape):
        if cfg.only and name not in cfg.only:
            continue
        results += check_transition(rules, shape, transition(shape, name, sem), cfg)
    return results


class NotModelled(Exception):
    """The deck holds cards whose effects the model does not encode yet."""


__all__ = [
    "INVARIANTS",
    "STEP_PROPERTIES",
    "Config",
    "Counterexample",
    "NotModelled",
    "ObligationResult",
    "check_all",
    "check_initial",
    "check_transition",
    "inv",
    "rank",
    "transition",
    "transition_names",
    "transitions",
]
