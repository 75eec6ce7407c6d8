"""The symbolic state: where every card is, as Z3 integers, plus the round's flags.

For one ruleset and one player count, a :class:`SymState` holds

* for every card kind ``k`` of the deck and every zone ``z`` an integer ``n[z][k]``: how many
  copies of ``k`` lie in ``z``. The zones are the draw pile (a multiset: like the engine's
  ``unseen`` pile, its cards are exchangeable, so its order is not modelled), the face-down
  set-aside card, the 2-player face-up cards, and each seat's hand and discard pile;
* per seat: ``out``, ``protected`` (Handmaid), ``spied`` (Z2019 Spy), ``tokens``, and
  ``starter`` (the seat may start the next round: the engine's ``next_starters``);
* ``turn``, ``phase`` (the engine's phases except the step-by-step deal, see :data:`PHASES`),
  ``pending`` (the seat that redraws), ``draws`` (Chancellor draws still to come),
  ``sycophant`` (the marked seat) and the Jester's bet.

A transition relates a pre-state to a primed post-state (:func:`fresh` with a different
prefix); :meth:`SymState.equals` equates *every* variable, so a relation written as
``guard ∧ post == update(pre)`` always carries its full frame condition.

:class:`Position` is the concrete counterpart: what a Z3 model decodes to, and what an
engine :class:`~loveformal.state.State` encodes to (for the engine agreement check).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, NamedTuple, TypeAlias

import z3

from loveformal.cards import Card
from loveformal.ruleset import Ruleset
from loveformal.state import Phase, State

IntE: TypeAlias = Any
"""A Z3 integer expression (``z3.ArithRef``; z3 ships no type information)."""
BoolE: TypeAlias = Any
"""A Z3 Boolean expression (``z3.BoolRef``)."""

NONE = -1
"""The value of a seat variable (target, pending seat, Sycophant mark) that names no seat."""

# Phases, numbered as the model uses them. DEAL is folded into the new-round step.
TURN_DRAW, PLAY, REDRAW, CHANCELLOR_DRAW, CHANCELLOR, BISHOP_REDRAW, ROUND_OVER, GAME_OVER = range(
    8
)
PHASES: tuple[Phase, ...] = (
    Phase.TURN_DRAW,
    Phase.PLAY,
    Phase.REDRAW,
    Phase.CHANCELLOR_DRAW,
    Phase.CHANCELLOR,
    Phase.BISHOP_REDRAW,
    Phase.ROUND_OVER,
    Phase.GAME_OVER,
)
"""The engine phase of each model phase number."""
IN_ROUND_PHASES = (TURN_DRAW, PLAY, REDRAW, CHANCELLOR_DRAW, CHANCELLOR, BISHOP_REDRAW)
"""Phases during which a round is being played (someone's turn is under way)."""


# ------------------------------------------------------------------------------ the shape


@dataclass(frozen=True)
class Shape:
    """What does not vary within a match: the ruleset, the player count and the deck."""

    rules: Ruleset
    players: int
    kinds: tuple[Card, ...]
    """The card kinds of the deck, in :class:`Card` order; a kind's index is its model id."""
    copies: tuple[int, ...]
    """Copies of each kind in the deck."""
    values: tuple[int, ...]
    """The printed value of each kind."""
    face_up: int
    """Cards removed face up at the start of a round (3 or 0 with 2 players, else 0)."""
    threshold: int
    """Tokens needed to win the match."""

    @staticmethod
    def of(rules: Ruleset, players: int) -> Shape:
        deck = rules.deck(players)
        kinds = deck.kinds
        return Shape(
            rules=rules,
            players=players,
            kinds=kinds,
            copies=tuple(deck.count(k) for k in kinds),
            values=tuple(rules.value(k) for k in kinds),
            face_up=rules.options.two_player_face_up if players == 2 else 0,
            threshold=rules.options.tokens_for(players),
        )

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return sum(self.copies)

    @property
    def pile0(self) -> int:
        """The draw pile's size right after the deal."""
        return self.size - 1 - self.face_up - self.players

    @property
    def zones(self) -> int:
        return 3 + 2 * self.players

    def zone_names(self) -> tuple[str, ...]:
        n = self.players
        return (
            "pile",
            "aside",
            "faceup",
            *(f"hand{i + 1}" for i in range(n)),
            *(f"disc{i + 1}" for i in range(n)),
        )

    def has(self, card: Card) -> bool:
        return card in self.kinds

    def k(self, card: Card) -> int:
        """The model id of ``card`` (its index in :attr:`kinds`)."""
        return self.kinds.index(card)

    @property
    def seats(self) -> range:
        return range(self.players)


PILE, ASIDE, FACEUP = 0, 1, 2


def hand_zone(shape: Shape, seat: int) -> int:
    return 3 + seat


def disc_zone(shape: Shape, seat: int) -> int:
    return 3 + shape.players + seat


# ------------------------------------------------------------------------------ symbolic state

Counts: TypeAlias = tuple[IntE, ...]
"""One zone: a count per card kind."""


@dataclass(frozen=True)
class SymState:
    """A symbolic state (all fields are Z3 expressions; see the module docstring)."""

    shape: Shape = field(compare=False)
    n: tuple[Counts, ...]
    """``n[zone][kind]``: copies of the kind in the zone (zones: :meth:`Shape.zone_names`)."""
    out: tuple[BoolE, ...]
    protected: tuple[BoolE, ...]
    spied: tuple[BoolE, ...]
    tokens: tuple[IntE, ...]
    starter: tuple[BoolE, ...]
    """At ``ROUND_OVER``: the seats among which the next round's starter is chosen."""
    turn: IntE
    phase: IntE
    pending: IntE
    """The seat that redraws (``REDRAW``) or decides (``BISHOP_REDRAW``), else :data:`NONE`."""
    draws: IntE
    """Chancellor draws still to come (``CHANCELLOR_DRAW``), else 0."""
    sycophant: IntE
    jester_bettor: IntE
    jester_chosen: IntE

    # -- zones
    @property
    def pile(self) -> Counts:
        return self.n[PILE]

    @property
    def aside(self) -> Counts:
        return self.n[ASIDE]

    @property
    def faceup(self) -> Counts:
        return self.n[FACEUP]

    def hand(self, seat: int) -> Counts:
        return self.n[hand_zone(self.shape, seat)]

    def disc(self, seat: int) -> Counts:
        return self.n[disc_zone(self.shape, seat)]

    def hand_at(self, seat: IntE) -> Counts:
        """The hand of a symbolic seat (an if-then-else over the seats)."""
        return tuple(
            select(seat, [self.hand(i)[k] for i in self.shape.seats])
            for k in range(len(self.shape.kinds))
        )

    def with_zones(self, changes: dict[int, Counts]) -> SymState:
        n = tuple(changes.get(z, counts) for z, counts in enumerate(self.n))
        return replace(self, n=n)

    # -- whole-state operations
    def variables(self) -> Iterator[Any]:
        """Every variable, in a fixed order (the frame condition covers all of them)."""
        for zone in self.n:
            yield from zone
        yield from self.out
        yield from self.protected
        yield from self.spied
        yield from self.tokens
        yield from self.starter
        yield from (
            self.turn,
            self.phase,
            self.pending,
            self.draws,
            self.sycophant,
            self.jester_bettor,
            self.jester_chosen,
        )

    def equals(self, other: SymState) -> BoolE:
        """Every variable of ``self`` equals its counterpart in ``other``: used as
        ``post.equals(update(pre))``, this is the relation's full frame condition."""
        return z3.And([a == b for a, b in zip(self.variables(), other.variables(), strict=True)])


def fresh(shape: Shape, prefix: str = "") -> SymState:
    """A state of fresh Z3 constants named ``<prefix><variable>`` (``"'"`` for post-states)."""
    names = shape.zone_names()
    n = tuple(
        tuple(z3.Int(f"{prefix}{names[z]}.{c.name}") for c in shape.kinds)
        for z in range(shape.zones)
    )
    seats = shape.seats
    return SymState(
        shape=shape,
        n=n,
        out=tuple(z3.Bool(f"{prefix}out{i + 1}") for i in seats),
        protected=tuple(z3.Bool(f"{prefix}protected{i + 1}") for i in seats),
        spied=tuple(z3.Bool(f"{prefix}spied{i + 1}") for i in seats),
        tokens=tuple(z3.Int(f"{prefix}tokens{i + 1}") for i in seats),
        starter=tuple(z3.Bool(f"{prefix}starter{i + 1}") for i in seats),
        turn=z3.Int(f"{prefix}turn"),
        phase=z3.Int(f"{prefix}phase"),
        pending=z3.Int(f"{prefix}pending"),
        draws=z3.Int(f"{prefix}draws"),
        sycophant=z3.Int(f"{prefix}sycophant"),
        jester_bettor=z3.Int(f"{prefix}jester_bettor"),
        jester_chosen=z3.Int(f"{prefix}jester_chosen"),
    )


def merge(cond: BoolE, then: SymState, other: SymState) -> SymState:
    """Field by field ``If(cond, then, other)``: a branch of the rules as one state."""

    def ite(a: Any, b: Any) -> Any:
        return a if a is b or a.get_id() == b.get_id() else fast_ite(cond, a, b)

    return SymState(
        shape=then.shape,
        n=tuple(
            tuple(ite(a, b) for a, b in zip(za, zb, strict=True))
            for za, zb in zip(then.n, other.n, strict=True)
        ),
        out=tuple(ite(a, b) for a, b in zip(then.out, other.out, strict=True)),
        protected=tuple(ite(a, b) for a, b in zip(then.protected, other.protected, strict=True)),
        spied=tuple(ite(a, b) for a, b in zip(then.spied, other.spied, strict=True)),
        tokens=tuple(ite(a, b) for a, b in zip(then.tokens, other.tokens, strict=True)),
        starter=tuple(ite(a, b) for a, b in zip(then.starter, other.starter, strict=True)),
        turn=ite(then.turn, other.turn),
        phase=ite(then.phase, other.phase),
        pending=ite(then.pending, other.pending),
        draws=ite(then.draws, other.draws),
        sycophant=ite(then.sycophant, other.sycophant),
        jester_bettor=ite(then.jester_bettor, other.jester_bettor),
        jester_chosen=ite(then.jester_chosen, other.jester_chosen),
    )


# ------------------------------------------------------------------------------ helpers


def fast_ite(cond: BoolE, a: Any, b: Any) -> Any:
    """``z3.If(cond, a, b)`` for Z3 terms of one sort, built through the C API (the Python
    wrapper's coercions and checks dominate the build time otherwise); other arguments go
    through ``z3.If``."""
    if not (isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef)):
        return z3.If(cond, a, b)
    ctx = cond.ctx
    ast = z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), a.as_ast(), b.as_ast())
    return z3.BoolRef(ast, ctx) if isinstance(a, z3.BoolRef) else z3.ArithRef(ast, ctx)


_SEAT_IS: dict[tuple[int, int], tuple[Any, BoolE]] = {}
"""Memo of ``seat == i`` by the seat term's id (the term is kept, so its id stays unique)."""


def seat_is(seat: IntE, i: int) -> BoolE:
    """``seat == i``, memoised (built for every seat of every symbolic choice)."""
    key = (seat.get_id(), i)
    hit = _SEAT_IS.get(key)
    if hit is None:
        if len(_SEAT_IS) > 100_000:
            _SEAT_IS.clear()
        hit = _SEAT_IS[key] = (seat, seat == i)
    return hit[1]


def select(seat: IntE, values: Sequence[Any]) -> Any:
    """``values[seat]`` for a symbolic ``seat`` (the last value when out of range)."""
    result = values[-1]
    for i in range(len(values) - 2, -1, -1):
        result = fast_ite(seat_is(seat, i), values[i], result)
    return result


LIFT_DEPTH = 12
"""How many nested shared conditions :func:`weighted` lifts out of a sum."""


class _Node(NamedTuple):
    """An integer term seen by :func:`weighted`: itself, and if it is ``If(c, x, y)`` the id
    of ``c``, ``c``, and the ids of ``x`` and ``y`` (else ``cond_id`` is -1)."""

    expr: Any
    cond_id: int
    cond: Any
    then_id: int
    other_id: int


_NODES: dict[int, _Node] = {}
"""The terms seen by :func:`weighted`, by AST id (holding the terms keeps their ids unique)."""
_LIFTED: dict[tuple[tuple[int, ...], tuple[int, ...], int], IntE] = {}
"""Memo of :func:`_weighted` by the terms' ids, weights and depth."""


def _node(e: Any) -> int:
    """Register ``e`` (and, for an if-then-else, its branches) in :data:`_NODES`; its id.
    Read through the C API: the Python wrappers' checks dominate the build time otherwise."""
    i: int = e.get_id()
    if i in _NODES:
        return i
    ctx = e.ctx
    ref, ast = ctx.ref(), e.as_ast()
    if z3.Z3_get_ast_kind(ref, ast) == z3.Z3_APP_AST and (
        z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, ast)) == z3.Z3_OP_ITE
    ):
        cond = z3.BoolRef(z3.Z3_get_app_arg(ref, ast, 0), ctx)
        then = _node(z3.ArithRef(z3.Z3_get_app_arg(ref, ast, 1), ctx))
        other = _node(z3.ArithRef(z3.Z3_get_app_arg(ref, ast, 2), ctx))
        _NODES[i] = _Node(e, cond.get_id(), cond, then, other)
    else:
        _NODES[i] = _Node(e, -1, None, -1, -1)
    return i


def weighted(counts: Sequence[Any], weights: Sequence[int]) -> IntE:
    """``Σ weights[k] · counts[k]``, with the counts' common if-then-else structure lifted
    out of the sum: when the counts are ``If(c, x_k, y_k)`` (one condition ``c`` shared by
    all: a zone built by :func:`merge`), the sum is ``If(c, Σ w·x, Σ w·y)``.

    Semantically just the sum; the lifted form keeps sums over zones that a step changed
    conditionally (a swap, a knock-out, a showdown over them) as if-then-else over a few
    shared sums of plain variables instead of sums of if-then-else terms, which the solver
    handles far better. Lifting stops after :data:`LIFT_DEPTH` nested conditions."""
    if len(_NODES) > 500_000:
        _NODES.clear()
        _LIFTED.clear()
    pairs = [(_node(c), w) for c, w in zip(counts, weights, strict=True) if w != 0]
    ids = tuple(i for i, _ in pairs)
    return _weighted(ids, tuple(w for _, w in pairs), LIFT_DEPTH)


def _weighted(ids: tuple[int, ...], weights: tuple[int, ...], depth: int) -> IntE:
    key = (ids, weights, depth)
    hit = _LIFTED.get(key)
    if hit is None:
        hit = _LIFTED[key] = _weighted_uncached(ids, weights, depth)
    return hit


def _weighted_uncached(ids: tuple[int, ...], weights: tuple[int, ...], depth: int) -> IntE:
    if not ids:
        return z3.IntVal(0)
    nodes = [_NODES[i] for i in ids]
    split = next((n for n in nodes if n.cond_id >= 0), None) if depth > 0 else None
    if split is None:
        terms = [n.expr if w == 1 else n.expr * w for n, w in zip(nodes, weights, strict=True)]
        return terms[0] if len(terms) == 1 else z3.Sum(terms)
    cid = split.cond_id
    then = tuple(n.then_id if n.cond_id == cid else i for n, i in zip(nodes, ids, strict=True))
    other = tuple(n.other_id if n.cond_id == cid else i for n, i in zip(nodes, ids, strict=True))
    a = _weighted(then, weights, depth - 1)
    b = _weighted(other, weights, depth - 1)
    return a if a.get_id() == b.get_id() else z3.If(split.cond, a, b)


def total(counts: Counts) -> IntE:
    """Cards in a zone."""
    return weighted(counts, [1] * len(counts)) if counts else z3.IntVal(0)


def value_of(shape: Shape, counts: Counts) -> IntE:
    """The summed value of the cards in a zone (a 1-card hand: that card's value)."""
    return weighted(counts, shape.values)


def is_seat(shape: Shape, seat: IntE) -> BoolE:
    return z3.And(seat >= 0, seat < shape.players)


def seat_or_none(shape: Shape, seat: IntE) -> BoolE:
    return z3.Or(seat == NONE, is_seat(shape, seat))


def in_round(s: SymState) -> BoolE:
    """The phase is one of a round being played."""
    return z3.Or([s.phase == p for p in IN_ROUND_PHASES])


def count_true(bools: Sequence[BoolE]) -> IntE:
    return z3.Sum([z3.If(b, 1, 0) for b in bools])


def well_formed(s: SymState) -> BoolE:
    """Every variable has a value of its type: counts ≥ 0, seats are seats, phases are
    phases, tokens ≥ 0."""
    shape = s.shape
    return z3.And(
        *(c >= 0 for zone in s.n for c in zone),
        *(t >= 0 for t in s.tokens),
        is_seat(shape, s.turn),
        s.phase >= 0,
        s.phase <= GAME_OVER,
        seat_or_none(shape, s.pending),
        s.draws >= 0,
        seat_or_none(shape, s.sycophant),
        seat_or_none(shape, s.jester_bettor),
        seat_or_none(shape, s.jester_chosen),
    )


def pre_post(shape: Shape) -> tuple[SymState, SymState]:
    """A pre-state and its primed post-state."""
    return fresh(shape), fresh(shape, "'")


# ------------------------------------------------------------------------------ concrete


@dataclass(frozen=True)
class Position:
    """A concrete state in the model's terms (decoded from a Z3 model, or from the engine).

    Cards are listed by title, sorted in :class:`Card` order; seats are 0-based.
    """

    phase: str
    turn: int
    pending: int
    draws: int
    pile: tuple[str, ...]
    aside: tuple[str, ...]
    faceup: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    discards: tuple[tuple[str, ...], ...]
    out: tuple[bool, ...]
    protected: tuple[bool, ...]
    spied: tuple[bool, ...]
    tokens: tuple[int, ...]
    starter: tuple[bool, ...]
    sycophant: int
    jester: tuple[int, int]

    def summary(self) -> str:
        """A short, stable, human-readable description (used in golden files)."""

        def cards(cs: tuple[str, ...]) -> str:
            return ", ".join(cs) if cs else "-"

        def seat(i: int) -> str:
            return "none" if i < 0 else f"P{i + 1}"

        lines = [f"phase {self.phase}, turn {seat(self.turn)}"]
        if self.pending >= 0:
            lines[0] += f", pending {seat(self.pending)}"
        if self.draws:
            lines[0] += f", draws {self.draws}"
        lines.append(
            f"pile [{cards(self.pile)}]; set aside [{cards(self.aside)}]; "
            f"face up [{cards(self.faceup)}]"
        )
        for i, hand in enumerate(self.hands):
            flags = [
                name
                for name, on in (
                    ("out", self.out[i]),
                    ("protected", self.protected[i]),
                    ("spied", self.spied[i]),
                    ("may-start", self.starter[i]),
                )
                if on
            ]
            lines.append(
                f"P{i + 1}: hand [{cards(hand)}] discards [{cards(self.discards[i])}] "
                f"tokens {self.tokens[i]}" + (f" ({', '.join(flags)})" if flags else "")
            )
        if self.sycophant >= 0:
            lines.append(f"sycophant mark {seat(self.sycophant)}")
        if self.jester[0] >= 0:
            lines.append(f"jester {seat(self.jester[0])} bets on {seat(self.jester[1])}")
        return "\n".join(lines)

    def as_json(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @staticmethod
    def of_state(state: State) -> Position:
        """The engine state in the model's terms (only phases the model knows: no DEAL)."""
        seats = state.seats
        syco = state.sycophant if state.sycophant is not None else NONE
        jester = state.jester if state.jester is not None else (NONE, NONE)
        starters = set(state.next_starters) if state.phase is Phase.ROUND_OVER else set()

        def titles(cs: Sequence[Card]) -> tuple[str, ...]:
            return tuple(c.title for c in sorted(cs, key=lambda c: c.index))

        return Position(
            phase=state.phase.name,
            turn=state.turn,
            pending=state.pending_seat if state.pending_seat is not None else NONE,
            draws=state.chancellor_draws,
            pile=titles(state.pile.cards()),
            aside=titles(() if state.set_aside is None else (state.set_aside,)),
            faceup=titles(state.face_up),
            hands=tuple(titles(s.hand) for s in seats),
            discards=tuple(titles(s.discards) for s in seats),
            out=tuple(s.out for s in seats),
            protected=tuple(s.protected for s in seats),
            spied=tuple(s.spied for s in seats),
            tokens=tuple(s.tokens for s in seats),
            starter=tuple(i in starters for i in range(state.players)),
            sycophant=syco,
            jester=jester,
        )

    def zones(self) -> tuple[tuple[str, ...], ...]:
        return (self.pile, self.aside, self.faceup, *self.hands, *self.discards)


def _as_int(model: Any, e: Any) -> int:
    return int(model.eval(e, model_completion=True).as_long())


def _as_bool(model: Any, e: Any) -> bool:
    return bool(z3.is_true(model.eval(e, model_completion=True)))


def decode(model: Any, s: SymState) -> Position:
    """The concrete position a Z3 model gives to ``s``."""
    shape = s.shape

    def cards(zone: Counts) -> tuple[str, ...]:
        out: list[str] = []
        for kind, c in zip(shape.kinds, zone, strict=True):
            out.extend([kind.title] * max(0, _as_int(model, c)))
        return tuple(out)

    phase = _as_int(model, s.phase)
    return Position(
        phase=PHASES[phase].name if 0 <= phase < len(PHASES) else f"?{phase}",
        turn=_as_int(model, s.turn),
        pending=_as_int(model, s.pending),
        draws=_as_int(model, s.draws),
        pile=cards(s.pile),
        aside=cards(s.aside),
        faceup=cards(s.faceup),
        hands=tuple(cards(s.hand(i)) for i in shape.seats),
        discards=tuple(cards(s.disc(i)) for i in shape.seats),
        out=tuple(_as_bool(model, b) for b in s.out),
        protected=tuple(_as_bool(model, b) for b in s.protected),
        spied=tuple(_as_bool(model, b) for b in s.spied),
        tokens=tuple(_as_int(model, t) for t in s.tokens),
        starter=tuple(_as_bool(model, b) for b in s.starter),
        sycophant=_as_int(model, s.sycophant),
        jester=(_as_int(model, s.jester_bettor), _as_int(model, s.jester_chosen)),
    )


def substitution(s: SymState, pos: Position) -> list[tuple[Any, Any]]:
    """Pairs ``(variable, value)`` giving every variable of ``s`` its value in ``pos``."""
    shape = s.shape
    phase_no = {p.name: i for i, p in enumerate(PHASES)}[pos.phase]
    pairs: list[tuple[Any, Any]] = []
    for zone_vars, cards in zip(s.n, pos.zones(), strict=True):
        for kind, var in zip(shape.kinds, zone_vars, strict=True):
            pairs.append((var, z3.IntVal(cards.count(kind.title))))
    for vs, vals in ((s.out, pos.out), (s.protected, pos.protected), (s.spied, pos.spied)):
        pairs.extend((v, z3.BoolVal(b)) for v, b in zip(vs, vals, strict=True))
    pairs.extend((v, z3.IntVal(t)) for v, t in zip(s.tokens, pos.tokens, strict=True))
    pairs.extend((v, z3.BoolVal(b)) for v, b in zip(s.starter, pos.starter, strict=True))
    pairs.extend(
        [
            (s.turn, z3.IntVal(pos.turn)),
            (s.phase, z3.IntVal(phase_no)),
            (s.pending, z3.IntVal(pos.pending)),
            (s.draws, z3.IntVal(pos.draws)),
            (s.sycophant, z3.IntVal(pos.sycophant)),
            (s.jester_bettor, z3.IntVal(pos.jester[0])),
            (s.jester_chosen, z3.IntVal(pos.jester[1])),
        ]
    )
    return pairs
