"""The Python engine against the model: is ``loveformal.engine`` a faithful implementation?

(a) :func:`check_step`: for an engine step ``pre --action--> post`` the concrete pre-state,
    the choice and the post-state are substituted into the model's relation for that kind of
    step, which must simplify to ``True`` (relations are built once per ruleset and player
    count; a check costs a substitution and a simplification). :func:`random_play` walks
    seeded random matches and checks every step.
(b) :func:`check_legal`: at a decision, Z3 enumerates every choice the model's guards allow
    (card, target or targets, guess, the Cardinal's look; the Chancellor's kept card; the
    Bishop target's redraw) and the set must equal :func:`loveformal.engine.legal_actions`
    exactly (the Chancellor's bottom order is not modelled: compared by kept card).

A mismatch is a :class:`Mismatch` naming the position and the action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import z3

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Draw, Guess, Play, Starter
from loveformal.cards import Card
from loveformal.engine import legal_actions, new_match
from loveformal.proofs.model import NONE, Position, Shape, SymState, fresh, substitution
from loveformal.proofs.obligations import transitions
from loveformal.proofs.steps import BISHOP_REDRAW_STEP, Transition
from loveformal.ruleset import Ruleset
from loveformal.sampling import random_step
from loveformal.state import Phase, State


@dataclass(frozen=True)
class Mismatch:
    """The engine and the model disagree on this step (or on the legal actions here)."""

    pre: Position
    action: str
    post: Position | None
    detail: str

    def summary(self) -> str:
        text = f"{self.detail}\nposition:\n{self.pre.summary()}\naction: {self.action}"
        if self.post is not None:
            text += f"\nengine's next state:\n{self.post.summary()}"
        return text


@dataclass(frozen=True)
class _Relations:
    shape: Shape
    by_name: dict[str, Transition]
    primed: SymState
    formulas: dict[str, Any]


@cache
def _relations(rules: Ruleset, players: int) -> _Relations:
    shape = Shape.of(rules, players)
    primed = fresh(shape, "'")
    by_name = {t.name: t for t in transitions(shape)}
    formulas = {name: t.relation(primed) for name, t in by_name.items()}
    return _Relations(shape, by_name, primed, formulas)


def _guess_id(shape: Shape, guess: Guess | None) -> int:
    if guess is None:
        return NONE
    if isinstance(guess, Card):
        return shape.k(guess)
    return int(guess)


def _step_name(pre: State, action: Action) -> str | None:
    """The model transition of an engine step (``None``: a step the model folds away)."""
    phase = pre.phase
    if isinstance(action, Play):
        return f"play {action.card.title}"
    if isinstance(action, ChancellorReturn):
        return "chancellor return"
    if isinstance(action, BishopRedraw):
        return BISHOP_REDRAW_STEP
    if isinstance(action, Starter):
        return "new round"
    if isinstance(action, Draw):
        return {
            Phase.TURN_DRAW: "turn draw",
            Phase.REDRAW: "redraw",
            Phase.CHANCELLOR_DRAW: "chancellor draw",
        }.get(phase)
    return None


def choice_values(shape: Shape, pre: State, action: Action, post: State) -> dict[str, int]:
    """The model's choice variables for an engine action (``post``: the engine's next state,
    for the Prince's face-up pick)."""
    values = {
        "target": NONE,
        "guess": NONE,
        "kind": NONE,
        "starter": NONE,
        "target2": NONE,
        "look": NONE,
        "redraw": NONE,
    }
    if isinstance(action, Draw):
        values["kind"] = shape.k(action.card)
    elif isinstance(action, ChancellorReturn):
        values["kind"] = shape.k(action.keep)
    elif isinstance(action, BishopRedraw):
        values["redraw"] = int(action.redraw)
    elif isinstance(action, Starter):
        values["starter"] = action.seat
    elif isinstance(action, Play):
        values["target"] = NONE if action.target is None else action.target
        if action.targets:
            values["target"] = action.targets[0]
            values["target2"] = action.targets[1] if len(action.targets) > 1 else NONE
        values["look"] = NONE if action.look is None else action.look
        values["guess"] = _guess_id(shape, action.guess)
        if len(post.face_up) < len(pre.face_up):  # a Prince took a face-up card (D16)
            values["kind"] = shape.k(pre.face_up[0])
    return values


def check_step(pre: State, action: Action, post: State) -> Mismatch | None:
    """Whether the model's relation holds for the engine step ``pre --action--> post``.

    ``post`` is the engine's next state in a phase the model knows (after a ``Starter``,
    the state once the deal is complete). Steps the model does not have (the deal's draws)
    are skipped (``None``).
    """
    name = _step_name(pre, action)
    if name is None:
        return None
    rel = _relations(pre.rules, pre.players)
    t = rel.by_name[name]
    before, after = Position.of_state(pre), Position.of_state(post)
    values = choice_values(rel.shape, pre, action, post)
    pairs = substitution(t.pre, before) + substitution(rel.primed, after)
    for choice_name, var in t.choice.pairs():
        pairs.append((var, z3.IntVal(values[choice_name])))
    if t.choice.deal is not None:
        for zone_vars, cards in zip(t.choice.deal, after.zones(), strict=True):
            for kind, var in zip(rel.shape.kinds, zone_vars, strict=True):
                pairs.append((var, z3.IntVal(cards.count(kind.title))))
    verdict = z3.simplify(z3.substitute(rel.formulas[name], *pairs))
    if z3.is_true(verdict):
        return None
    guard = z3.simplify(z3.substitute(t.guard, *pairs))
    why = "the model's guard rejects the step" if z3.is_false(guard) else "post-states differ"
    return Mismatch(before, str(action), after, f"{name}: {why}")


def _until_dealt(state: State, rng: random.Random) -> State:
    while state.phase is Phase.DEAL:
        state, _ = random_step(state, rng)
    return state


def random_play(
    rules: Ruleset, players: int, *, seed: int, steps: int, legal: bool = True
) -> tuple[int, list[Mismatch]]:
    """Play seeded random matches for ``steps`` engine steps, checking each one (and, with
    ``legal``, the legal actions at each decision). Returns ``(steps checked, mismatches)``."""
    rng = random.Random(seed)
    state = _until_dealt(new_match(rules, players, starter=rng.randrange(players)), rng)
    mismatches: list[Mismatch] = []
    checked = 0
    while checked < steps:
        if state.phase is Phase.GAME_OVER:
            state = _until_dealt(new_match(rules, players, starter=rng.randrange(players)), rng)
            continue
        if legal:
            problem = check_legal(state)
            if problem is not None:
                mismatches.append(problem)
        nxt, action = random_step(state, rng)
        nxt = _until_dealt(nxt, rng)
        problem = check_step(state, action, nxt)
        if problem is not None:
            mismatches.append(problem)
        checked += 1
        state = nxt
    return checked, mismatches


# ------------------------------------------------------------------------------ legal actions

Key = tuple[str, int, int, int, int, int]
"""A decision as the model sees it: (card played, kept card or ``"redraw"``; target, second
target, guess id, the Cardinal's look, the Bishop target's redraw as 1/0), unused parts
:data:`NONE`."""

_DECISIONS = (Phase.PLAY, Phase.CHANCELLOR, Phase.BISHOP_REDRAW)


def _engine_choices(state: State, shape: Shape) -> set[Key]:
    out: set[Key] = set()
    for a in legal_actions(state):
        if isinstance(a, Play):
            target, target2 = NONE if a.target is None else a.target, NONE
            if a.targets:
                target = a.targets[0]
                target2 = a.targets[1] if len(a.targets) > 1 else NONE
            look = NONE if a.look is None else a.look
            out.add((a.card.title, target, target2, _guess_id(shape, a.guess), look, NONE))
        elif isinstance(a, ChancellorReturn):
            out.add((a.keep.title, NONE, NONE, NONE, NONE, NONE))
        elif isinstance(a, BishopRedraw):
            out.add(("redraw", NONE, NONE, NONE, NONE, int(a.redraw)))
    return out


def _model_choices(state: State, rel: _Relations) -> set[Key]:
    """Every choice the model's guards allow here, enumerated with Z3 (each model found is
    blocked until none is left)."""
    before = Position.of_state(state)
    if state.phase is Phase.PLAY:
        names = [f"play {k.title}" for k in rel.shape.kinds]
    elif state.phase is Phase.CHANCELLOR:
        names = ["chancellor return"]
    else:
        names = [BISHOP_REDRAW_STEP]
    out: set[Key] = set()
    for name in names:
        t = rel.by_name[name]
        guard = z3.simplify(z3.substitute(t.guard, *substitution(t.pre, before)))
        solver = z3.Solver()
        solver.add(guard)
        used = [(n, v) for n, v in t.choice.pairs() if n != "starter"]
        while solver.check() == z3.sat:
            m = solver.model()
            got = {n: int(m.eval(v, model_completion=True).as_long()) for n, v in used}
            if t.card is not None:
                label = t.card.title
            elif name == BISHOP_REDRAW_STEP:
                label = "redraw"
            else:
                label = rel.shape.kinds[got["kind"]].title
            out.add(
                (label, got["target"], got["target2"], got["guess"], got["look"], got["redraw"])
            )
            solver.add(z3.Or([v != got[n] for n, v in used]))
    return out


def check_legal(state: State) -> Mismatch | None:
    """At a decision (a play, the Chancellor's keep, the Bishop target's redraw): the model's
    legal choices equal the engine's."""
    if state.phase not in _DECISIONS:
        return None
    rel = _relations(state.rules, state.players)
    engine, model = _engine_choices(state, rel.shape), _model_choices(state, rel)
    if engine == model:
        return None
    detail = (
        f"legal actions differ: only the engine allows {sorted(engine - model)}; "
        f"only the model allows {sorted(model - engine)}"
    )
    return Mismatch(Position.of_state(state), "(legal actions)", None, detail)


__all__ = ["Mismatch", "check_legal", "check_step", "choice_values", "random_play"]
