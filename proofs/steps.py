"""The steps of a round other than card effects: draws, knock-outs, the end of a turn, the
showdown, token awards, the Chancellor's draws and return, and the next round's deal.

Each step is a :class:`Transition`: a guard over the pre-state and the choice variables, and
the post-state as expressions over them. Its relation is ``guard ∧ post' == post`` over every
variable (:meth:`~loveformal.proofs.model.SymState.equals`): the frame condition is complete
by construction, because every helper below returns a whole state in which each variable it
does not mention is copied from its input.

The helpers (:func:`knock_out`, :func:`end_turn`, ...) mirror ``loveformal/scoring.py`` branch
for branch; a branch taken on a symbolic condition becomes a :func:`~model.merge`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import z3

from loveformal import cards as G
from loveformal.cards import Card
from loveformal.proofs.model import (
    ASIDE,
    BISHOP_REDRAW,
    CHANCELLOR,
    CHANCELLOR_DRAW,
    FACEUP,
    GAME_OVER,
    NONE,
    PILE,
    PLAY,
    REDRAW,
    ROUND_OVER,
    TURN_DRAW,
    BoolE,
    Counts,
    IntE,
    Shape,
    SymState,
    count_true,
    disc_zone,
    fresh,
    hand_zone,
    merge,
    select,
    total,
    value_of,
    weighted,
)

# ------------------------------------------------------------------------------ transitions


@dataclass(frozen=True)
class Choice:
    """The choice variables of a step (a seat's decision or chance's outcome).

    Unused variables are pinned to :data:`NONE` by the guard, so a model decodes to one
    concrete action."""

    target: IntE
    """The chosen seat; for the Baroness and the Cardinal the first (lowest) chosen seat."""
    guess: IntE
    kind: IntE
    """A card kind: the card drawn, kept (Chancellor), or taken face up (Prince)."""
    starter: IntE
    target2: IntE
    """The Baroness's or Cardinal's second chosen seat (``> target``), else :data:`NONE`."""
    look: IntE
    """The Cardinal's look: one of its two chosen seats, or :data:`NONE`."""
    redraw: IntE
    """The Bishop target's decision: 1 discard and redraw, 0 keep (``BISHOP_REDRAW`` only)."""
    deal: tuple[Counts, ...] | None = None
    """The new round's deal: a count per zone and kind (new-round step only)."""

    def pairs(self) -> list[tuple[str, IntE]]:
        """The choice variables by name, in a fixed order (the order counterexamples are
        made canonical in; the later ones are :data:`NONE` in Classic and Z2019 steps)."""
        return [
            ("target", self.target),
            ("guess", self.guess),
            ("kind", self.kind),
            ("starter", self.starter),
            ("target2", self.target2),
            ("look", self.look),
            ("redraw", self.redraw),
        ]


def fresh_choice(shape: Shape, *, deal: bool = False) -> Choice:
    deal_vars: tuple[Counts, ...] | None = None
    if deal:
        names = shape.zone_names()
        deal_vars = tuple(
            tuple(z3.Int(f"deal.{names[z]}.{c.name}") for c in shape.kinds)
            for z in range(shape.zones)
        )
    return Choice(
        target=z3.Int("target"),
        guess=z3.Int("guess"),
        kind=z3.Int("kind"),
        starter=z3.Int("starter"),
        target2=z3.Int("target2"),
        look=z3.Int("look"),
        redraw=z3.Int("redraw"),
        deal=deal_vars,
    )


@dataclass(frozen=True)
class Transition:
    """One kind of step: ``guard`` over ``pre`` and ``choice``; ``post`` the next state."""

    name: str
    pre: SymState
    choice: Choice
    guard: BoolE
    post: SymState
    card: Card | None = None
    """The card played, for play steps."""
    in_round: bool = True
    """False for the new-round step (it starts a round rather than continuing one)."""

    def relation(self, primed: SymState) -> BoolE:
        """``Trans(pre, primed)``: the guard and the full frame condition."""
        return z3.And(self.guard, primed.equals(self.post))


EndTurn = Callable[[SymState], SymState]
Keep = Callable[[SymState, IntE], SymState]
Effect = Callable[[SymState, Choice], tuple[BoolE, SymState]]
"""A card's effect: from the state just after the card went to its player's discard pile,
``(extra guard, state after the effect)`` (the turn not yet ended)."""


@dataclass(frozen=True)
class Semantics:
    """The rule functions the transitions are built from. The defaults are the rules;
    :mod:`loveformal.proofs.mutants` swaps one function for a deliberately broken one."""

    # (lambdas: the rule functions are defined further down this module)
    end_turn: EndTurn = field(default_factory=lambda: end_turn)
    chancellor_keep: Keep = field(default_factory=lambda: chancellor_keep)
    effects: Mapping[Card, Effect] = field(default_factory=dict)
    """Card effects that replace those of :data:`loveformal.proofs.cards.EFFECTS`."""
    guard_may_name_guard: bool = False
    may_choose_protected: frozenset[Card] = frozenset()
    """Cards that (wrongly) may choose a Handmaid-protected player (mutants only)."""


# ------------------------------------------------------------------------------ small helpers


def unit(shape: Shape, kind: IntE) -> Counts:
    """One copy of a symbolic card kind, as zone counts."""
    return tuple(z3.If(kind == k, 1, 0) for k in range(len(shape.kinds)))


def plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def zeros(shape: Shape) -> Counts:
    return tuple(z3.IntVal(0) for _ in shape.kinds)


def is_kind(shape: Shape, kind: IntE) -> BoolE:
    return z3.And(kind >= 0, kind < len(shape.kinds))


def at(counts: Counts, kind: IntE) -> IntE:
    """``counts[kind]`` for a symbolic kind."""
    return select(kind, list(counts))


def with_seat_hand(s: SymState, seat: IntE, new: Callable[[int], Counts]) -> SymState:
    """``s`` where the hand of the symbolic ``seat`` becomes ``new(i)`` (``i`` its number)."""
    shape = s.shape
    changes = {}
    for i in shape.seats:
        old = s.hand(i)
        changes[hand_zone(shape, i)] = tuple(
            z3.If(seat == i, a, b) for a, b in zip(new(i), old, strict=True)
        )
    return s.with_zones(changes)


def add_to_hand(s: SymState, seat: IntE, cards: Counts) -> SymState:
    return with_seat_hand(s, seat, lambda i: plus(s.hand(i), cards))


def in_round_seats(s: SymState) -> tuple[BoolE, ...]:
    return tuple(z3.Not(o) for o in s.out)


# ------------------------------------------------------------------------------ scoring


def award(s: SymState, winners: tuple[BoolE, ...], tied: tuple[BoolE, ...]) -> SymState:
    """Award the round's tokens and decide whether the match is over (``scoring.end_round``).

    "Each round winner gains 1 token" (§1.1.8); the Spy: "if you are the only player still in
    the round who played or discarded a Spy, gain 1 token" (R12); awards in the order round
    winners, then Spy (§5 "Bonus token timing"). ``simultaneous_win = all_win``: everyone at
    the threshold after all awards wins (R24, D23); ``first_awarded``: the first award that
    reaches the threshold ends the match at once (PREMIUM "win immediately").
    """
    shape = s.shape
    goal = shape.threshold
    awards: list[tuple[int, BoolE]] = [(i, w) for i, w in enumerate(winners)]
    if shape.has(G.SPY):
        spies = tuple(z3.And(z3.Not(s.out[i]), s.spied[i]) for i in shape.seats)
        only = count_true(spies) == 1
        awards += [(i, z3.And(only, spies[i])) for i in shape.seats]
    if shape.has(G.JESTER):  # R23: the Jester's player scores if the chosen seat won
        won = z3.Or([z3.And(s.jester_chosen == j, w) for j, w in enumerate(winners)])
        awards += [(i, z3.And(s.jester_bettor == i, won)) for i in shape.seats]
    tokens = list(s.tokens)
    going = z3.BoolVal(True)
    first = shape.rules.options.simultaneous_win == "first_awarded"
    for seat, cond in awards:
        give = z3.And(going, cond) if first else cond
        tokens[seat] = tokens[seat] + z3.If(give, 1, 0)
        if first:
            going = z3.And(going, z3.Not(z3.And(give, tokens[seat] >= goal)))
    reached = z3.Or(z3.Not(going), *(t >= goal for t in tokens))
    return replace(
        s,
        tokens=tuple(tokens),
        phase=z3.If(reached, GAME_OVER, ROUND_OVER),
        starter=tuple(z3.And(z3.Not(reached), t) for t in tied),
    )


def end_round(s: SymState, winners: tuple[BoolE, ...], tied: tuple[BoolE, ...]) -> SymState:
    """The round ends with ``winners`` (``tied``: who may start the next round); pending
    redraws, Chancellor draws and the Sycophant's mark end with it."""
    s = replace(s, pending=z3.IntVal(NONE), draws=z3.IntVal(0), sycophant=z3.IntVal(NONE))
    return award(s, winners, tied)


def _best(contender: tuple[BoolE, ...], value: tuple[IntE, ...]) -> tuple[BoolE, ...]:
    """The contenders with the highest value."""
    best: IntE = z3.IntVal(-1)
    for c, v in zip(contender, value, strict=True):
        best = z3.If(z3.And(c, v > best), v, best)
    return tuple(z3.And(c, v == best) for c, v in zip(contender, value, strict=True))


def count_bonus(s: SymState, seat: int) -> IntE:
    """The Count: "+1 to your hand value per Count in your discard pile" (R19, ``count_bonus
    = per_count``), or +1 if any (``flat``, D11)."""
    shape = s.shape
    if not shape.has(G.COUNT):
        return z3.IntVal(0)
    n = s.disc(seat)[shape.k(G.COUNT)]
    return z3.If(n >= 1, 1, 0) if shape.rules.options.count_bonus == "flat" else n


def premium_top(s: SymState, contender: tuple[BoolE, ...]) -> tuple[BoolE, ...]:
    """The highest adjusted hands at a Premium showdown (before the discard-sum tie-break).

    Values are doubled so that the Bishop's 7.5 (``bishop_showdown = seven_point_five``, D8)
    is an integer. "The Princess still beats the Bishop" (R16): under
    ``princess_beats_bishop`` a Bishop holder leaves the comparison whenever a Princess is
    held (D29, BGA's resolution). The Count bonus (R19, D11) is added; under ``count_tie =
    void_bonus`` a top tie involving a bonus is compared again without bonuses ([INF] seed
    003).
    """
    shape = s.shape
    opts = shape.rules.options
    seats = shape.seats
    doubled = [2 * v for v in shape.values]
    if shape.has(G.BISHOP) and opts.bishop_showdown == "seven_point_five":
        doubled[shape.k(G.BISHOP)] = 15
    base = tuple(weighted(s.hand(i), doubled) for i in seats)
    if shape.has(G.BISHOP) and opts.bishop_showdown == "princess_beats_bishop":
        p, b = shape.k(G.PRINCESS), shape.k(G.BISHOP)
        anyone = z3.Or([z3.And(contender[i], s.hand(i)[p] >= 1) for i in seats])
        contender = tuple(
            z3.And(contender[i], z3.Not(z3.And(anyone, s.hand(i)[b] >= 1))) for i in seats
        )
    bonus = tuple(count_bonus(s, i) for i in seats)
    top = _best(contender, tuple(v + 2 * n for v, n in zip(base, bonus, strict=True)))
    if opts.count_tie == "void_bonus":
        voided = z3.And(
            count_true(top) > 1, z3.Or([z3.And(t, n > 0) for t, n in zip(top, bonus, strict=True)])
        )
        again = _best(contender, base)
        top = tuple(z3.If(voided, a, t) for a, t in zip(again, top, strict=True))
    return top


def showdown(s: SymState) -> tuple[tuple[BoolE, ...], tuple[BoolE, ...]]:
    """Compare the hands still in the round: ``(winners, tied)`` per seat.

    "The highest value wins" (§1.1.7b); ties: "the player who discarded the highest total
    value of cards wins" under ``tie_break = discard_sum`` (R13), then ``residual_tie``:
    all tied players win, or nobody (D3). Under ``princess_always_wins`` the Princess holder
    wins outright (D12).
    """
    shape = s.shape
    opts = shape.rules.options
    seats = shape.seats
    contender = tuple(z3.And(z3.Not(s.out[i]), total(s.hand(i)) >= 1) for i in seats)
    if any(shape.has(c) for c in (G.BISHOP, G.COUNT)):
        top = premium_top(s, contender)
    else:
        value = tuple(value_of(shape, s.hand(i)) for i in seats)
        top = _best(contender, value)
    if opts.tie_break == "discard_sum":
        sums = tuple(value_of(shape, s.disc(i)) for i in seats)
        best_sum: IntE = z3.IntVal(-1)
        for i in seats:
            best_sum = z3.If(z3.And(top[i], sums[i] > best_sum), sums[i], best_sum)
        top = tuple(z3.And(top[i], sums[i] == best_sum) for i in seats)
    tied = top
    if opts.residual_tie == "nobody":
        alone = count_true(top) == 1
        winners = tuple(z3.And(alone, t) for t in top)
    else:
        winners = top
    if opts.princess_always_wins:
        p = shape.k(G.PRINCESS)
        holder = tuple(z3.And(contender[i], s.hand(i)[p] >= 1) for i in seats)
        anyone = z3.Or(*holder)
        winners = tuple(z3.If(anyone, h, w) for h, w in zip(holder, winners, strict=True))
        tied = tuple(z3.If(anyone, h, t) for h, t in zip(holder, tied, strict=True))
    return winners, tied


# ------------------------------------------------------------------------------ knock-outs


def hand_to_discards(s: SymState, seat: IntE) -> SymState:
    """``seat``'s hand goes face up onto its discard pile, without effect; a discarded Spy
    counts as discarded (R12). Shared by the knock-out and the Prince's discard."""
    shape = s.shape
    changes: dict[int, Counts] = {}
    for i in shape.seats:
        hit = seat == i
        hand, disc = s.hand(i), s.disc(i)
        changes[hand_zone(shape, i)] = tuple(z3.If(hit, 0, h) for h in hand)
        changes[disc_zone(shape, i)] = tuple(
            z3.If(hit, d + h, d) for d, h in zip(disc, hand, strict=True)
        )
    spied = s.spied
    if shape.has(G.SPY):
        spy = shape.k(G.SPY)
        spied = tuple(
            z3.Or(sp, z3.And(seat == i, s.hand(i)[spy] >= 1)) for i, sp in enumerate(spied)
        )
    return replace(s.with_zones(changes), spied=spied)


def knock_out(s: SymState, seat: IntE) -> SymState:
    """``seat`` is out of the round.

    "The player discards their hand face up without resolving it, takes no more turns, and
    cannot be chosen until the next round" (§1.1.5); a discarded Spy counts (R12). "As soon as
    only one player remains, the round ends and that player wins it" (§1.1.7a).
    """
    shape = s.shape
    after = replace(
        hand_to_discards(s, seat),
        out=tuple(z3.Or(o, seat == i) for i, o in enumerate(s.out)),
        protected=tuple(z3.And(p, seat != i) for i, p in enumerate(s.protected)),
        sycophant=z3.If(s.sycophant == seat, NONE, s.sycophant),
    )
    left = in_round_seats(after)
    rest = merge(count_true(left) == 1, end_round(after, left, left), after)
    if not shape.has(G.CONSTABLE):
        return rest
    # The Constable: "when you are knocked out while it is in your discard pile, gain a
    # token"; an immediate win if it reaches the threshold (R18); under
    # ``constable_counts_held`` a Constable in the discarded hand counts too (D28).
    c = shape.k(G.CONSTABLE)
    held = shape.rules.options.constable_counts_held
    scores = tuple(
        z3.And(seat == i, z3.Or(s.disc(i)[c] >= 1, z3.And(z3.BoolVal(held), s.hand(i)[c] >= 1)))
        for i in shape.seats
    )
    tokens = tuple(t + z3.If(sc, 1, 0) for t, sc in zip(after.tokens, scores, strict=True))
    won = z3.Or([z3.And(sc, t >= shape.threshold) for sc, t in zip(scores, tokens, strict=True)])
    scored = replace(after, tokens=tokens)
    left_scored = merge(count_true(left) == 1, end_round(scored, left, left), scored)
    over = replace(
        scored,
        phase=z3.IntVal(GAME_OVER),
        pending=z3.IntVal(NONE),
        starter=tuple(z3.BoolVal(False) for _ in shape.seats),
    )
    return merge(won, over, left_scored)


def discard_hand(s: SymState, seat: IntE) -> SymState:
    """``seat`` discards its hand without its effect (Prince). "A player who plays or discards
    the Princess for any reason is out immediately" (§1.1.6, R1)."""
    shape = s.shape
    after = hand_to_discards(s, seat)
    had_princess = s.hand_at(seat)[shape.k(G.PRINCESS)] >= 1
    return merge(had_princess, knock_out(after, seat), after)


def draw_replacement(
    s: SymState, seat: IntE, pick: IntE, *, prince: bool
) -> tuple[BoolE, SymState]:
    """``seat`` draws a new card after discarding: ``(guard on pick, state)``.

    From the draw pile if it has cards (a chance step: phase ``REDRAW``); "if the deck is
    empty they draw the card removed at the start of the round" (R2), the face-down set-aside
    card; under ``prince_empty_deck = top_removed`` a Prince target takes a face-up card
    while any remain (D16; the engine takes the first, the model any: ``pick``).
    """
    shape = s.shape
    pile_left = total(s.pile) > 0
    redraw = replace(s, phase=z3.IntVal(REDRAW), pending=seat)
    aside = s.aside
    from_aside = add_to_hand(s, seat, aside).with_zones({ASIDE: zeros(shape)})
    state = merge(total(aside) > 0, from_aside, s)
    extra: BoolE = pick == NONE
    if prince and shape.rules.options.prince_empty_deck == "top_removed" and shape.face_up:
        face = total(s.faceup) > 0
        took = add_to_hand(s, seat, unit(shape, pick)).with_zones(
            {FACEUP: minus(s.faceup, unit(shape, pick))}
        )
        state = merge(face, took, state)
        extra = z3.If(
            z3.And(z3.Not(pile_left), face),
            z3.And(is_kind(shape, pick), at(s.faceup, pick) >= 1),
            pick == NONE,
        )
    return extra, merge(pile_left, redraw, state)


# ------------------------------------------------------------------------------ end of turn


def next_seat(s: SymState) -> IntE:
    """The next seat clockwise from the seat in turn that is still in the round (§1.1.2:
    "play passes to the left, skipping players who are out")."""
    n = s.shape.players
    options = []
    for t in range(n):
        order = [(t + j) % n for j in range(1, n + 1)]
        nxt: IntE = z3.IntVal(order[-1])
        for seat in reversed(order[:-1]):
            nxt = z3.If(z3.Not(s.out[seat]), seat, nxt)
        options.append(nxt)
    return select(s.turn, options)


def end_turn(s: SymState) -> SymState:
    """After the turn's effect: "at the end of any turn, if the deck is empty", the showdown
    (§1.1.7b, §5 "Deck check"); otherwise the next seat's turn starts, and its Handmaid
    protection ends: "until the start of your next turn" (R8, D25)."""
    nxt = next_seat(s)
    passed = replace(
        s,
        turn=nxt,
        phase=z3.IntVal(TURN_DRAW),
        pending=z3.IntVal(NONE),
        protected=tuple(z3.And(p, nxt != i) for i, p in enumerate(s.protected)),
    )
    return merge(total(s.pile) == 0, end_round(s, *showdown(s)), passed)


def finish(sem: Semantics, s: SymState) -> SymState:
    """End the turn if the step left the effect complete (phase ``PLAY``), else keep the
    pending phase (a redraw, the Chancellor, or the round/match over)."""
    return merge(s.phase == PLAY, sem.end_turn(s), s)


# ------------------------------------------------------------------------------ steps


def _draw_guard(s: SymState, kind: IntE) -> BoolE:
    return z3.And(is_kind(s.shape, kind), at(s.pile, kind) >= 1)


def _pinned(ch: Choice, *keep: str) -> BoolE:
    return z3.And([v == NONE for name, v in ch.pairs() if name not in keep])


def turn_draw(shape: Shape, sem: Semantics) -> Transition:
    """Turn start: "the active player draws the top card (now holding 2)" (§1.1.2)."""
    pre, ch = fresh(shape), fresh_choice(shape)
    card = unit(shape, ch.kind)
    post = add_to_hand(pre, pre.turn, card).with_zones({PILE: minus(pre.pile, card)})
    post = replace(post, phase=z3.IntVal(PLAY))
    guard = z3.And(pre.phase == TURN_DRAW, _draw_guard(pre, ch.kind), _pinned(ch, "kind"))
    return Transition("turn draw", pre, ch, guard, post)


def redraw(shape: Shape, sem: Semantics) -> Transition:
    """A replacement card from a non-empty pile (R2) for a Prince target, an Assassin holder
    (R6) or a Bishop target who chose to redraw (R16); then the turn ends."""
    pre, ch = fresh(shape), fresh_choice(shape)
    card = unit(shape, ch.kind)
    post = add_to_hand(pre, pre.pending, card).with_zones({PILE: minus(pre.pile, card)})
    post = replace(post, phase=z3.IntVal(PLAY), pending=z3.IntVal(NONE))
    guard = z3.And(pre.phase == REDRAW, _draw_guard(pre, ch.kind), _pinned(ch, "kind"))
    return Transition("redraw", pre, ch, guard, sem.end_turn(post))


BISHOP_REDRAW_STEP = "bishop redraw"
"""The name of the Bishop target's decision step."""


def bishop_redraw(shape: Shape, sem: Semantics) -> Transition:
    """The Bishop target's decision (engine phase ``BISHOP_REDRAW``, decided by the pending
    seat: ``BishopRedraw(bool)``).

    "Only if you gained the token, the revealed player *may* discard their card (no effect,
    except that a Princess knocks them out) and draw a new one, taking the set-aside card if
    the deck is empty" (§1.3 Bishop, R16; under ``bishop_redraw = always`` after a miss too,
    D9). The discard is the Prince's (:func:`discard_hand`: the Princess knocks them out and
    they draw nothing, §1.1.6); the draw is a chance step (``REDRAW``) when the pile has cards.
    Keeping the card, or a completed redraw, ends the turn (§5 "Deck check": after the redraw).
    """
    pre, ch = fresh(shape), fresh_choice(shape)
    guard = z3.And(
        pre.phase == BISHOP_REDRAW,
        z3.Or(ch.redraw == 0, ch.redraw == 1),
        _pinned(ch, "redraw"),
    )
    target = pre.pending
    resumed = replace(pre, phase=z3.IntVal(PLAY), pending=z3.IntVal(NONE))
    discarded = discard_hand(resumed, target)
    carries_on = z3.And(discarded.phase == PLAY, z3.Not(select(target, list(discarded.out))))
    _, drawn = draw_replacement(discarded, target, z3.IntVal(NONE), prince=False)
    redrawn = merge(carries_on, drawn, discarded)
    post = merge(ch.redraw == 1, redrawn, resumed)
    return Transition(BISHOP_REDRAW_STEP, pre, ch, guard, finish(sem, post))


def chancellor_draw(shape: Shape, sem: Semantics) -> Transition:
    """Chancellor: "draw 2 cards into your hand" (one step per card; 1 if only 1 is left,
    R10)."""
    pre, ch = fresh(shape), fresh_choice(shape)
    card = unit(shape, ch.kind)
    post = add_to_hand(pre, pre.turn, card).with_zones({PILE: minus(pre.pile, card)})
    left = pre.draws - 1
    post = replace(post, draws=left, phase=z3.If(left > 0, CHANCELLOR_DRAW, CHANCELLOR))
    guard = z3.And(pre.phase == CHANCELLOR_DRAW, _draw_guard(pre, ch.kind), _pinned(ch, "kind"))
    return Transition("chancellor draw", pre, ch, guard, post)


def chancellor_keep(s: SymState, keep: IntE) -> SymState:
    """ "Keep 1 of your 3, and put the other 2 face down on the bottom of the deck" (§1.4):
    the hand becomes the kept card, the rest goes to the pile (its order is not modelled)."""
    shape = s.shape
    hand = s.hand_at(s.turn)
    kept = unit(shape, keep)
    back = minus(hand, kept)
    after = with_seat_hand(s, s.turn, lambda i: kept)
    return after.with_zones({PILE: plus(s.pile, back)})


def chancellor_return(shape: Shape, sem: Semantics) -> Transition:
    """The Chancellor's player keeps one card and returns the others; then the turn ends.
    "The Countess rule does not apply" to this choice (R11): any card may be kept."""
    pre, ch = fresh(shape), fresh_choice(shape)
    guard = z3.And(
        pre.phase == CHANCELLOR,
        is_kind(shape, ch.kind),
        at(pre.hand_at(pre.turn), ch.kind) >= 1,
        _pinned(ch, "kind"),
    )
    post = replace(sem.chancellor_keep(pre, ch.kind), phase=z3.IntVal(PLAY))
    return Transition("chancellor return", pre, ch, guard, sem.end_turn(post))


def deal_constraint(shape: Shape, deal: tuple[Counts, ...]) -> BoolE:
    """A fresh deal: "remove the top card face down … in a 2-player game also remove 3 more
    cards face up … deal 1 card to each player" (§1.1.1); every card of the deck is in
    exactly one zone; nobody has discarded anything."""
    parts: list[BoolE] = [c >= 0 for zone in deal for c in zone]
    parts.append(total(deal[ASIDE]) == 1)
    parts.append(total(deal[FACEUP]) == shape.face_up)
    for i in shape.seats:
        parts.append(total(deal[hand_zone(shape, i)]) == 1)
        parts.append(total(deal[disc_zone(shape, i)]) == 0)
    for k, copies in enumerate(shape.copies):
        parts.append(z3.Sum([zone[k] for zone in deal]) == copies)
    return z3.And(parts)


def dealt(
    pre: SymState, deal: tuple[Counts, ...], starter: IntE, tokens: tuple[IntE, ...]
) -> SymState:
    """The state after a deal: a new round starting with ``starter``'s draw. "Protection does
    not persist into the next round" (R8); the marks and bets end with the round."""
    shape = pre.shape
    false = tuple(z3.BoolVal(False) for _ in shape.seats)
    return replace(
        pre,
        n=deal,
        out=false,
        protected=false,
        spied=false,
        tokens=tokens,
        starter=false,
        turn=starter,
        phase=z3.IntVal(TURN_DRAW),
        pending=z3.IntVal(NONE),
        draws=z3.IntVal(0),
        sycophant=z3.IntVal(NONE),
        jester_bettor=z3.IntVal(NONE),
        jester_chosen=z3.IntVal(NONE),
    )


def new_round(shape: Shape, sem: Semantics) -> Transition:
    """After a round: the starter is "the winner of the previous round", or one chosen at
    random among tied winners (§8); all cards are reshuffled and dealt again (§1.1.8)."""
    pre, ch = fresh(shape), fresh_choice(shape, deal=True)
    assert ch.deal is not None
    guard = z3.And(
        pre.phase == ROUND_OVER,
        select(ch.starter, list(pre.starter)),
        ch.starter >= 0,
        ch.starter < shape.players,
        deal_constraint(shape, ch.deal),
        _pinned(ch, "starter"),
    )
    post = dealt(pre, ch.deal, ch.starter, pre.tokens)
    return Transition("new round", pre, ch, guard, post, in_round=False)


def initial(shape: Shape) -> tuple[BoolE, SymState]:
    """The first round's state: a deal, no tokens, any seat to start: ``(constraint, state)``."""
    pre, ch = fresh(shape), fresh_choice(shape, deal=True)
    assert ch.deal is not None
    zero = tuple(z3.IntVal(0) for _ in shape.seats)
    cond = z3.And(deal_constraint(shape, ch.deal), ch.starter >= 0, ch.starter < shape.players)
    return cond, dealt(pre, ch.deal, ch.starter, zero)
