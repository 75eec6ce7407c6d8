"""The Premium card effects of :mod:`loveformal.proofs.cards` (Bishop, Dowager Queen, Baroness,
Cardinal, Jester, Sycophant, the Assassin inside the Guard) and the Bishop target's redraw
step of :mod:`loveformal.proofs.steps`, card by card against the engine on hand-built
5-player positions: the engine's step satisfies the model's relation, and the targets (or
target sets) the model allows are exactly the engine's legal ones."""

from __future__ import annotations

from functools import cache

import pytest
import z3

from loveformal.actions import Action, BishopRedraw, Draw, Play
from loveformal.cards import Card
from loveformal.engine import apply, legal_actions
from loveformal.proofs import cards as C
from loveformal.proofs.engine_check import choice_values
from loveformal.proofs.model import NONE, Position, Shape, SymState, fresh, substitution
from loveformal.proofs.obligations import transition_names
from loveformal.proofs.steps import BISHOP_REDRAW_STEP, Semantics, Transition, bishop_redraw, redraw
from loveformal.ruleset import Ruleset
from loveformal.state import Phase, State
from tests.support import pos, rules

G = Card


@cache
def _transition(r: Ruleset, players: int, name: str) -> tuple[Transition, SymState]:
    """One step of the model (built alone: cheaper than every transition of the deck)."""
    shape = Shape.of(r, players)
    sem = Semantics()
    if name == "redraw":
        t = redraw(shape, sem)
    elif name == BISHOP_REDRAW_STEP:
        t = bishop_redraw(shape, sem)
    else:
        t = C.play(shape, sem, Card.parse(name.removeprefix("play ")))
    return t, fresh(shape, "'")


def _name(pre: State, action: Action) -> str:
    if isinstance(action, Play):
        return f"play {action.card.title}"
    if isinstance(action, BishopRedraw):
        return BISHOP_REDRAW_STEP
    assert isinstance(action, Draw) and pre.phase is Phase.REDRAW
    return "redraw"


def agrees(pre: State, action: Action) -> State:
    """Apply ``action`` in the engine and check the model's relation holds for the step."""
    post = apply(pre, action)
    name = _name(pre, action)
    t, primed = _transition(pre.rules, pre.players, name)
    values = choice_values(t.pre.shape, pre, action, post)
    pairs = substitution(t.pre, Position.of_state(pre))
    pairs += substitution(primed, Position.of_state(post))
    pairs += [(v, z3.IntVal(values[n])) for n, v in t.choice.pairs()]
    guard = z3.simplify(z3.substitute(t.guard, *pairs))
    assert z3.is_true(guard), f"{name}: the model's guard rejects {action}"
    verdict = z3.simplify(z3.substitute(t.relation(primed), *pairs))
    assert z3.is_true(verdict), f"{name}: post-states differ\n{Position.of_state(post).summary()}"
    return post


Choice = tuple[int, int, int]
"""(target, second target, look) as the model's choice variables."""


def model_choices(state: State, card: Card) -> set[Choice]:
    """The target choices the model allows ``card`` here (``NONE``: unused / no effect)."""
    t, _ = _transition(state.rules, state.players, f"play {card.title}")
    solver = z3.Solver()
    solver.add(z3.substitute(t.guard, *substitution(t.pre, Position.of_state(state))))
    ch = t.choice
    out: set[Choice] = set()
    while solver.check() == z3.sat:
        m = solver.model()
        got = [int(m.eval(v, model_completion=True).as_long()) for v in (ch.target, ch.target2)]
        got.append(int(m.eval(ch.look, model_completion=True).as_long()))
        out.add((got[0], got[1], got[2]))
        solver.add(z3.Or(ch.target != got[0], ch.target2 != got[1], ch.look != got[2]))
    return out


def engine_choices(state: State, card: Card) -> set[Choice]:
    out: set[Choice] = set()
    for a in legal_actions(state):
        if not isinstance(a, Play) or a.card is not card:
            continue
        if a.targets:
            second = a.targets[1] if len(a.targets) > 1 else NONE
            out.add((a.targets[0], second, NONE if a.look is None else a.look))
        else:
            out.add((NONE if a.target is None else a.target, NONE, NONE))
    return out


def model_targets(state: State, card: Card) -> set[int]:
    return {target for target, _, _ in model_choices(state, card)}


def engine_targets(state: State, card: Card) -> set[int]:
    return {target for target, _, _ in engine_choices(state, card)}


FIVE = {"P3": ["Guard"], "P4": ["Baron"], "P5": ["Handmaid"]}


def test_every_premium_card_is_modelled() -> None:
    for players in (5, 8):
        shape = Shape.of(rules("premium"), players)
        assert C.supported(shape)
        assert set(shape.kinds) <= set(C.EFFECTS)
        names = set(transition_names(shape))
        assert {"play Bishop", "play Baroness", "play Cardinal", BISHOP_REDRAW_STEP} <= names


# ------------------------------------------------------------------------------ Bishop


@pytest.mark.parametrize("guard_guess", ["number", "name"])
def test_bishop_targets_and_guesses(guard_guess: str) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=["P5"],
        guard_guess=guard_guess,
    )
    assert model_targets(state, G.BISHOP) == engine_targets(state, G.BISHOP) == {1, 2, 3}
    t, _ = _transition(state.rules, 5, "play Bishop")
    solver = z3.Solver()
    solver.add(z3.substitute(t.guard, *substitution(t.pre, Position.of_state(state))))
    solver.add(t.choice.target == 1)
    named: set[int] = set()
    while solver.check() == z3.sat:
        g = int(solver.model().eval(t.choice.guess).as_long())
        named.add(g)
        solver.add(t.choice.guess != g)
    engine = {a.guess for a in legal_actions(state) if isinstance(a, Play) and a.card is G.BISHOP}
    shape = Shape.of(state.rules, 5)
    assert named == {g if isinstance(g, int) else shape.k(g) for g in engine if g is not None}
    assert (shape.k(G.GUARD) in named) is False if guard_guess == "name" else 1 not in named


@pytest.mark.parametrize("tokens", [0, 2, 3])
def test_bishop_hit_scores_then_the_target_decides(tokens: int) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        tokens={"P1": tokens},
    )
    post = agrees(state, Play(G.BISHOP, target=1, guess=5))
    assert post.seats[0].tokens == tokens + 1
    if tokens + 1 >= 4:  # the Premium 5–8 player threshold: an immediate win
        assert post.phase is Phase.GAME_OVER
        return
    assert post.phase is Phase.BISHOP_REDRAW and post.pending_seat == 1
    keep = agrees(post, BishopRedraw(False))
    assert keep.seats[1].hand == (G.COUNT,) and keep.phase is Phase.TURN_DRAW and keep.turn == 1
    again = agrees(post, BishopRedraw(True))
    assert again.phase is Phase.REDRAW and again.pending_seat == 1
    assert again.seats[1].discards == (G.COUNT,)
    drawn = agrees(again, Draw(G.COUNT))
    assert drawn.seats[1].hand == (G.COUNT,) and drawn.turn == 1


@pytest.mark.parametrize("option", ["on_hit", "always"])
def test_bishop_miss(option: str) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        bishop_redraw=option,
    )
    post = agrees(state, Play(G.BISHOP, target=1, guess=7))
    assert post.seats[0].tokens == 0
    if option == "always":
        assert post.phase is Phase.BISHOP_REDRAW and post.pending_seat == 1
    else:
        assert post.phase is Phase.TURN_DRAW and post.turn == 1


def test_bishop_redraw_of_the_princess_knocks_out() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Princess"], **FIVE},
        deck=["Count", "Countess"],
    )
    post = agrees(state, Play(G.BISHOP, target=1, guess=8))
    after = agrees(post, BishopRedraw(True))
    assert after.seats[1].out and after.seats[1].hand == ()
    assert after.phase is Phase.TURN_DRAW and after.turn == 2


def test_bishop_redraw_from_the_set_aside_card_then_showdown() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Count"], **FIVE},
        deck=[],
        set_aside="Princess",
    )
    post = agrees(state, Play(G.BISHOP, target=1, guess=5))
    after = agrees(post, BishopRedraw(True))
    assert after.seats[1].hand == (G.PRINCESS,) and after.set_aside is None
    assert after.phase is Phase.ROUND_OVER and after.round_winners == (1,)


def test_bishop_redraw_ending_the_round_with_the_princess() -> None:
    """The Bishop's target discards the Princess and is out; one player is left."""
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Princess"]},
        out=["P3", "P4", "P5"],
        discards={"P3": ["Baron"], "P4": ["Guard"], "P5": ["Guard"]},
        deck=["Count", "Countess"],
        players=5,
    )
    post = agrees(state, Play(G.BISHOP, target=1, guess=8))
    after = agrees(post, BishopRedraw(True))
    assert after.phase is Phase.ROUND_OVER and after.round_winners == (0,)


def test_bishop_with_the_sycophant_mark() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        sycophant="P4",
    )
    assert model_targets(state, G.BISHOP) == engine_targets(state, G.BISHOP) == {3}
    marked_self = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Bishop", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        sycophant="P1",
    )
    assert model_targets(marked_self, G.BISHOP) == engine_targets(marked_self, G.BISHOP)
    assert engine_targets(marked_self, G.BISHOP) == {NONE}
    post = agrees(marked_self, Play(G.BISHOP))
    assert post.phase is Phase.TURN_DRAW and post.seats[0].tokens == 0


# ------------------------------------------------------------------------------ Baroness


@pytest.mark.parametrize("option", ["one_or_two", "two"])
@pytest.mark.parametrize("protected", [(), ("P3", "P5"), ("P2", "P3", "P4", "P5")])
def test_baroness_target_sets(option: str, protected: tuple[str, ...]) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Baroness", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=list(protected),
        baroness_targets=option,
    )
    model, engine = model_choices(state, G.BARONESS), engine_choices(state, G.BARONESS)
    assert model == engine
    if len(protected) == 4:
        assert engine == {(NONE, NONE, NONE)}
    elif option == "two" and not protected:
        assert all(second != NONE for _, second, _ in engine) and len(engine) == 6
    for target, second, _ in engine:
        chosen = tuple(t for t in (target, second) if t != NONE)
        after = agrees(state, Play(G.BARONESS, targets=chosen))
        assert [s.hand for s in after.seats[1:]] == [s.hand for s in state.seats[1:]]


def test_baroness_with_only_one_choosable_under_two() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Baroness", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=["P3", "P4", "P5"],
        baroness_targets="two",
    )
    assert model_choices(state, G.BARONESS) == engine_choices(state, G.BARONESS)
    assert engine_choices(state, G.BARONESS) == {(1, NONE, NONE)}


@pytest.mark.parametrize("marked", ["P1", "P3", "P5"])
@pytest.mark.parametrize("conflict", ["no_effect", "waived"])
def test_baroness_with_the_sycophant_mark(marked: str, conflict: str) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Baroness", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=["P5"],
        sycophant=marked,
        sycophant_conflict=conflict,
    )
    assert model_choices(state, G.BARONESS) == engine_choices(state, G.BARONESS)
    if marked == "P3":
        assert all(2 in (a, b) for a, b, _ in engine_choices(state, G.BARONESS))


# ------------------------------------------------------------------------------ Cardinal


def test_cardinal_swaps_two_other_hands() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Cardinal", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
    )
    post = agrees(state, Play(G.CARDINAL, targets=(1, 3), look=3))
    assert post.seats[1].hand == (G.BARON,) and post.seats[3].hand == (G.COUNT,)
    assert post.seats[0].hand == (G.GUARD,)


def test_cardinal_may_swap_with_yourself() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Cardinal", "Princess"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
    )
    post = agrees(state, Play(G.CARDINAL, targets=(0, 2)))
    assert post.seats[0].hand == (G.GUARD,) and post.seats[2].hand == (G.PRINCESS,)
    assert not post.seats[2].out  # receiving the Princess is not discarding her


@pytest.mark.parametrize(
    "protected", [(), ("P2", "P3"), ("P2", "P3", "P4"), ("P2", "P3", "P4", "P5")]
)
def test_cardinal_target_sets(protected: tuple[str, ...]) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Cardinal", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=list(protected),
    )
    model, engine = model_choices(state, G.CARDINAL), engine_choices(state, G.CARDINAL)
    assert model == engine
    if len(protected) == 4:  # only yourself is choosable: fewer than 2 → no effect
        assert engine == {(NONE, NONE, NONE)}
    else:
        assert all(b != NONE and look in (NONE, a, b) for a, b, look in engine)
    shielded = {int(p[1:]) - 1 for p in protected}
    assert not [c for c in engine if {c[0], c[1]} & shielded]


@pytest.mark.parametrize("handmaid", ["untargetable", "targetable_no_effect"])
def test_cardinal_and_a_protected_player(handmaid: str) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Cardinal", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=["P5"],
        handmaid=handmaid,
    )
    assert model_choices(state, G.CARDINAL) == engine_choices(state, G.CARDINAL)
    if handmaid == "targetable_no_effect":
        post = agrees(state, Play(G.CARDINAL, targets=(1, 4)))
        assert post.seats[1].hand == (G.COUNT,) and post.seats[4].hand == (G.HANDMAID,)


@pytest.mark.parametrize("marked", ["P1", "P2", "P5"])
def test_cardinal_with_the_sycophant_mark(marked: str) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Cardinal", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=["P5"],
        sycophant=marked,
    )
    assert model_choices(state, G.CARDINAL) == engine_choices(state, G.CARDINAL)
    seat = int(marked[1:]) - 1
    for a, b, _ in engine_choices(state, G.CARDINAL):
        assert seat in (a, b) or (marked == "P5" and a == NONE)


# ------------------------------------------------------------------------------ the others


@pytest.mark.parametrize(
    ("mine", "theirs", "loser"),
    [("Princess", "Guard", 0), ("Guard", "Princess", 1), ("Priest", "Priest", None)],
)
def test_dowager_queen(mine: str, theirs: str, loser: int | None) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Dowager Queen", mine], "P2": [theirs], **FIVE},
        deck=["Count", "Countess"],
    )
    post = agrees(state, Play(G.DOWAGER_QUEEN, target=1))
    assert [s.out for s in post.seats[:2]] == [loser == 0, loser == 1]


def test_dowager_queen_bishop_counts_nine() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Dowager Queen", "Bishop"], "P2": ["Princess"], **FIVE},
        deck=["Count", "Countess"],
    )
    post = agrees(state, Play(G.DOWAGER_QUEEN, target=1))
    assert post.seats[0].out  # 9 against 8: the higher is out


@pytest.mark.parametrize("jester_self", [False, True])
def test_jester_bet(jester_self: bool) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Jester", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        jester_self=jester_self,
    )
    assert model_targets(state, G.JESTER) == engine_targets(state, G.JESTER)
    assert (0 in model_targets(state, G.JESTER)) == jester_self
    post = agrees(state, Play(G.JESTER, target=3))
    assert post.jester == (0, 3)


@pytest.mark.parametrize("target", [0, 1, 4])
def test_sycophant_marks(target: int) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Sycophant", "Guard"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
        protected=["P5"],
    )
    assert model_targets(state, G.SYCOPHANT) == engine_targets(state, G.SYCOPHANT)
    if target == 4:  # protected: not choosable
        assert 4 not in model_targets(state, G.SYCOPHANT)
        return
    assert agrees(state, Play(G.SYCOPHANT, target=target)).sycophant == target


@pytest.mark.parametrize("conflict", ["no_effect", "waived"])
@pytest.mark.parametrize("marked", ["P1", "P2", "P5"])
@pytest.mark.parametrize("card", ["Guard", "Priest", "Dowager Queen", "Jester", "Prince"])
def test_sycophant_constrains_the_next_card(conflict: str, marked: str, card: str) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": [card, "Count"], "P2": ["Countess"], **FIVE},
        deck=["Count", "Constable"],
        protected=["P5"],
        sycophant=marked,
        sycophant_conflict=conflict,
    )
    k = Card.parse(card)
    assert model_targets(state, k) == engine_targets(state, k)
    for a in legal_actions(state):
        if isinstance(a, Play) and a.card is k:
            post = agrees(state, a)
            assert post.sycophant is None


@pytest.mark.parametrize("guess", [2, 0, 8])
@pytest.mark.parametrize("redraw_", [True, False])
def test_guard_chooses_the_assassin(guess: int, redraw_: bool) -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Guard", "Constable"], "P2": ["Assassin"], **FIVE},
        deck=["Count", "Countess"],
        set_aside="Princess",
        assassin_redraw=redraw_,
    )
    post = agrees(state, Play(G.GUARD, target=1, guess=guess))
    assert post.seats[0].out and not post.seats[1].out
    if redraw_:
        assert post.phase is Phase.REDRAW and post.pending_seat == 1
        assert G.ASSASSIN in post.seats[1].discards
        after = agrees(post, Draw(G.COUNT))
        assert after.seats[1].hand == (G.COUNT,)
    else:
        assert post.seats[1].hand == (G.ASSASSIN,)


def test_assassin_redraw_from_set_aside() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Assassin"], **FIVE},
        deck=[],
        set_aside="Princess",
        drawn=True,
    )
    post = agrees(state, Play(G.GUARD, target=1, guess=2))
    assert post.seats[1].hand == (G.PRINCESS,)


def test_assassin_knockout_ends_the_round() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Assassin"]},
        out=["P3", "P4", "P5"],
        discards={"P3": ["Baron"], "P4": ["Guard"], "P5": ["Guard"]},
        deck=["Count", "Countess"],
        players=5,
    )
    post = agrees(state, Play(G.GUARD, target=1, guess=2))
    assert post.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)


def test_guard_by_name_and_the_assassin() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Assassin"], **FIVE},
        deck=["Count", "Countess"],
        guard_guess="name",
    )
    assert model_targets(state, G.GUARD) == engine_targets(state, G.GUARD)
    post = agrees(state, Play(G.GUARD, target=1, guess=G.ASSASSIN))
    assert post.seats[0].out


def test_guard_hits_and_misses_in_premium() -> None:
    state = pos(
        "premium",
        turn="P1",
        hands={"P1": ["Guard", "Priest"], "P2": ["Count"], **FIVE},
        deck=["Count", "Countess"],
    )
    assert agrees(state, Play(G.GUARD, target=1, guess=5)).seats[1].out
    assert not agrees(state, Play(G.GUARD, target=1, guess=2)).seats[1].out
