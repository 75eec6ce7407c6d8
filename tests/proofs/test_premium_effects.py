"""The Premium card effects written in :mod:`loveformal.proofs.cards` (Dowager Queen, Jester,
Sycophant, the Assassin inside the Guard) against the engine, on hand-built 5-player
positions. ``cards.supported`` stays false for these decks (the Bishop, Baroness and
Cardinal are not modelled), so the play relations are built and checked directly here."""

from __future__ import annotations

from functools import cache

import pytest
import z3

from loveformal.actions import Action, Draw, Play
from loveformal.cards import Card
from loveformal.engine import apply, legal_actions
from loveformal.proofs import cards as C
from loveformal.proofs.model import NONE, Position, Shape, SymState, fresh, substitution
from loveformal.proofs.steps import Semantics, Transition, redraw
from loveformal.ruleset import Ruleset
from loveformal.state import Phase, State
from tests.support import pos, rules

G = Card


@cache
def _relations(r: Ruleset, players: int) -> tuple[Shape, dict[str, Transition], SymState]:
    shape = Shape.of(r, players)
    sem = Semantics()
    steps = [C.play(shape, sem, k) for k in shape.kinds if k in C.EFFECTS]
    steps.append(redraw(shape, sem))
    return shape, {t.name: t for t in steps}, fresh(shape, "'")


def _guess(shape: Shape, action: Play) -> int:
    if action.guess is None:
        return NONE
    return shape.k(action.guess) if isinstance(action.guess, Card) else int(action.guess)


def agrees(pre: State, action: Action) -> State:
    """Apply ``action`` in the engine and check the model's relation holds for the step."""
    post = apply(pre, action)
    shape, steps, primed = _relations(pre.rules, pre.players)
    values = {"target": NONE, "guess": NONE, "kind": NONE, "starter": NONE}
    if isinstance(action, Play):
        name = f"play {action.card.title}"
        values["target"] = NONE if action.target is None else action.target
        values["guess"] = _guess(shape, action)
    else:
        assert isinstance(action, Draw) and pre.phase is Phase.REDRAW
        name = "redraw"
        values["kind"] = shape.k(action.card)
    t = steps[name]
    pairs = substitution(t.pre, Position.of_state(pre))
    pairs += substitution(primed, Position.of_state(post))
    pairs += [(v, z3.IntVal(values[n])) for n, v in t.choice.pairs()]
    guard = z3.simplify(z3.substitute(t.guard, *pairs))
    assert z3.is_true(guard), f"{name}: the model's guard rejects {action}"
    verdict = z3.simplify(z3.substitute(t.relation(primed), *pairs))
    assert z3.is_true(verdict), f"{name}: post-states differ\n{Position.of_state(post).summary()}"
    return post


def model_targets(state: State, card: Card) -> set[int]:
    """The targets the model allows ``card`` to choose here (``NONE``: no effect)."""
    _, steps, _ = _relations(state.rules, state.players)
    t = steps[f"play {card.title}"]
    solver = z3.Solver()
    solver.add(z3.substitute(t.guard, *substitution(t.pre, Position.of_state(state))))
    out: set[int] = set()
    while solver.check() == z3.sat:
        target = solver.model().eval(t.choice.target, model_completion=True).as_long()
        out.add(int(target))
        solver.add(t.choice.target != target)
    return out


def engine_targets(state: State, card: Card) -> set[int]:
    return {
        NONE if a.target is None else a.target
        for a in legal_actions(state)
        if isinstance(a, Play) and a.card is card
    }


FIVE = {"P3": ["Guard"], "P4": ["Baron"], "P5": ["Handmaid"]}


def test_premium_stays_unsupported() -> None:
    shape = Shape.of(rules("premium"), 5)
    assert not C.supported(shape)
    assert {G.BISHOP, G.BARONESS, G.CARDINAL} - set(C.EFFECTS) == {
        G.BISHOP,
        G.BARONESS,
        G.CARDINAL,
    }


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
