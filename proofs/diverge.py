"""``loveformal diverge A B``: for each option on which two presets disagree, a smallest position
and move where that option alone changes the outcome, as a scenario file the engine checks.

**Method.** For an option ``o`` whose value differs between presets ``A`` and ``B`` (and that
applies to both decks at the player count), the model's play steps are instantiated twice:
with ruleset ``A`` and with ``A'`` = ``A`` with ``o`` set to ``B``'s value (every other option
is ``A``'s, so a difference is due to ``o`` alone). Both step relations share one pre-state and
one move (the same Z3 constants: :func:`~loveformal.proofs.model.fresh` names variables by
zone and kind), so Z3 is asked for

    WF_A(s) ∧ WF_A'(s) ∧ phase(s) = PLAY
      ∧ (Guard_A ≠ Guard_A' ∨ (Guard_A ∧ Obs(post_A) ≠ Obs(post_A')))     (one query per card)

where ``WF`` is the model's invariant with card conservation relaxed to "at most the deck's
copies" (a scenario may leave cards out of play), ``Obs`` the observable post-state (hands,
discards, out, protected, tokens, phase: round over / match over, next starters) and a
differing guard means the move is legal under one ruleset only (a legal target or guess set
differs). :class:`z3.Optimize` minimises the number of cards in play, then the tokens. Under
``guard_guess`` the move's guess is translated (a card name to its value, or back), so the
two rulesets are compared on the same move.

The witness becomes ``diverge-<option>.toml``: the position, the move, ``A``'s expectations
read off the model's post-state, and a ``[[variant]]`` with the override whose differing
expectations come from ``A'``'s post-state. :func:`loveformal.scenarios.check_paths` then runs
the engine on both: a PASS means the engine agrees with the model on both sides.

``two_player_face_up`` cannot differ on a mid-round position (both invariants fix the number of
face-up cards): it is searched on a match's first deal instead (``new_match`` + ``deal``),
legal under one value and rejected under the other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
import z3

from loveformal import cards as G
from loveformal.cards import Card
from loveformal.errors import LoveformalError, MalformedInput
from loveformal.paths import unwritable_dir
from loveformal.proofs import cards as C
from loveformal.proofs.cards import play
from loveformal.proofs.model import (
    BISHOP_REDRAW,
    GAME_OVER,
    NONE,
    PHASES,
    PLAY,
    REDRAW,
    ROUND_OVER,
    BoolE,
    Position,
    Shape,
    SymState,
    decode,
    fresh,
    select,
    total,
)
from loveformal.proofs.obligations import INVARIANTS
from loveformal.proofs.steps import Semantics, Transition, deal_constraint, fresh_choice
from loveformal.rulebook import load_preset, make_ruleset, option_spec
from loveformal.ruleset import OPTION_NAMES, Ruleset
from loveformal.scenarios import check_paths

Status = Literal[
    "witness", "no divergence in one step", "not modelled", "not applicable", "unknown"
]

RELAXED = ("conservation", "one princess")
"""Invariants replaced by :func:`well_formed` (a scenario need not use every card)."""


# ------------------------------------------------------------------------------ options


def differing_options(a: Ruleset, b: Ruleset) -> list[str]:
    """The canonical options whose values differ between two rulesets, in table order."""
    return [o for o in OPTION_NAMES if a.options.get(o) != b.options.get(o)]


def applies(option: str, rules: Ruleset, players: int) -> bool:
    """Whether ``option`` can matter for ``rules``' deck with ``players`` players."""
    if not rules.min_players <= players <= rules.max_players:
        return False
    needs = option_spec(option).requires_cards
    if needs and not any(rules.deck(players).count(c) for c in needs):
        return False
    if option == "two_player_face_up":
        return players == 2
    if option == "chancellor_short_deck":
        return rules.deck(players).count(G.CHANCELLOR) > 0
    return True


def override_value(option: str, b: Ruleset, players: int) -> object:
    """``B``'s value of ``option`` as an override (TOML- and ``make_ruleset``-ready)."""
    if option == "tokens_to_win":
        return {str(players): b.options.tokens_for(players)}
    return b.options.get(option)


def values_differ(option: str, a: Ruleset, b: Ruleset, players: int) -> bool:
    if option == "tokens_to_win":
        return a.options.tokens_for(players) != b.options.tokens_for(players)
    return a.options.get(option) != b.options.get(option)


def drows(option: str) -> str:
    return ", ".join(option_spec(option).disagreements) or "-"


# ------------------------------------------------------------------------------ search


def well_formed(s: SymState) -> BoolE:
    """The model's invariant with conservation relaxed (at most the deck's copies of each
    card are in play), plus what makes a position plausible: a seat out of the round has
    discarded something, a protected seat has discarded a Handmaid."""
    shape = s.shape
    parts: list[BoolE] = [p(s) for name, p in INVARIANTS if name not in RELAXED]
    for k, copies in enumerate(shape.copies):
        parts.append(z3.Sum([zone[k] for zone in s.n]) <= copies)
    p = shape.k(G.PRINCESS)
    for i in shape.seats:
        parts.append(z3.Implies(s.disc(i)[p] >= 1, s.out[i]))
        parts.append(z3.Implies(s.out[i], total(s.disc(i)) >= 1))
        if shape.has(G.HANDMAID):
            parts.append(z3.Implies(s.protected[i], s.disc(i)[shape.k(G.HANDMAID)] >= 1))
        else:
            parts.append(z3.Not(s.protected[i]))
    parts.append(markers_written(s))
    return z3.And(parts)


def markers_written(s: SymState) -> BoolE:
    """The Sycophant's mark and the Jester's bet as a scenario can state them (``sycophant``,
    ``jester``) and the engine accepts them: a marked seat is in the round, after a Sycophant
    was played; a bet is a Jester's player's (one with a Jester in its discard pile) on
    another seat — on itself only under ``jester_self``. Without these, a witness could rest on
    a marker the scenario file cannot carry."""
    shape = s.shape
    opts = shape.rules.options
    parts: list[BoolE] = []
    bettor, chosen = s.jester_bettor, s.jester_chosen
    parts.append((bettor == NONE) == (chosen == NONE))
    if shape.has(G.JESTER):
        jester = [s.disc(i)[shape.k(G.JESTER)] >= 1 for i in shape.seats]
        parts.append(z3.Implies(bettor != NONE, select(bettor, jester)))
        if not opts.jester_self:
            parts.append(z3.Implies(bettor != NONE, bettor != chosen))
    if shape.has(G.SYCOPHANT):
        k = shape.k(G.SYCOPHANT)
        played = z3.Or([s.disc(i)[k] >= 1 for i in shape.seats])
        parts.append(
            z3.Implies(
                s.sycophant != NONE, z3.And(played, z3.Not(select(s.sycophant, list(s.out))))
            )
        )
    return z3.And(parts)


def observable(s: SymState) -> list[Any]:
    """What a scenario can see of a post-state."""
    shape = s.shape
    items: list[Any] = [s.phase]
    for i in shape.seats:
        items += [*s.hand(i), *s.disc(i), s.out[i], s.protected[i], s.tokens[i], s.starter[i]]
    return items


def _guess_map(a: Shape, b: Shape, guess: Any) -> Any:
    """The ``B`` encoding of a guess made in ``A``'s encoding (a kind id or a value)."""
    ma, mb = a.rules.options.guard_guess, b.rules.options.guard_guess
    if ma == mb:
        return guess
    if ma == "name":  # kind id → its value
        valid = z3.And(guess >= 0, guess < len(a.values))
        value = select(guess, [z3.IntVal(v) for v in a.values])
        return z3.If(guess == NONE, NONE, z3.If(valid, value, -2))
    out: Any = z3.IntVal(-2)  # value → the one kind with it (-2: no such single card)
    for v in sorted(set(a.values)):
        kinds = [k for k, w in enumerate(a.values) if w == v]
        if len(kinds) == 1:
            out = z3.If(guess == v, kinds[0], out)
    return z3.If(guess == NONE, NONE, out)


@dataclass(frozen=True)
class Witness:
    """A decoded divergence: pre-state, the move, both post-states (``None``: illegal)."""

    pre: Position
    card: Card
    target: int
    guess: int
    post_a: Position | None
    post_b: Position | None
    target2: int = NONE
    """The Baroness's or Cardinal's second chosen seat."""
    look: int = NONE
    """The Cardinal's look."""


class SearchUnknown(Exception):
    """Z3 could neither find a witness nor rule one out within the time-out."""


def find_witness(a: Ruleset, b: Ruleset, players: int, timeout_ms: int = 60_000) -> Witness | None:
    """A smallest play step whose outcome differs between ``a`` and ``b`` (same deck): one
    :class:`z3.Optimize` query per card played (far faster than one query over all cards),
    the smallest witness over the cards kept (fewest cards in play, then fewest tokens, then
    card order). ``None`` when no card can diverge; :class:`SearchUnknown` on a time-out."""
    sa, sb = Shape.of(a, players), Shape.of(b, players)
    sem = Semantics()
    pre = fresh(sa)
    pre_b = fresh(sb)
    assert [str(v) for v in pre.variables()] == [str(v) for v in pre_b.variables()]
    cards_in_play = z3.Sum([c for zone in pre.n for c in zone])
    tokens = z3.Sum(list(pre.tokens))
    base = [well_formed(pre), well_formed(pre_b), pre.phase == PLAY]
    best: tuple[tuple[int, int, int], Witness] | None = None
    unknown = False
    for k, card in enumerate(sa.kinds):
        ta, tb = play(sa, sem, card), play(sb, sem, card)
        g = ta.choice.guess
        mapped = _guess_map(sa, sb, g)
        sub = [(g, mapped)] if mapped is not g else []

        def conv_a(e: Any) -> Any:
            return e

        def conv(e: Any, sub: list[tuple[Any, Any]] = sub) -> Any:
            return z3.substitute(e, *sub) if sub else e

        if card is G.PRINCE:
            conv_a = _picked(ta, engine_pick(sa, pre), conv_a)
            conv = _picked(tb, engine_pick(sb, pre), conv)
        guard_a, guard_b = conv_a(ta.guard), conv(tb.guard)
        obs_a = [conv_a(e) for e in observable(ta.post)]
        obs_b = [conv(e) for e in observable(tb.post)]
        differs = z3.Or([x != y for x, y in zip(obs_a, obs_b, strict=True)])
        opt = z3.Optimize()
        opt.set("timeout", timeout_ms)
        opt.add(*base, z3.Or(guard_a != guard_b, z3.And(guard_a, guard_b, differs)))
        opt.minimize(cards_in_play)
        opt.minimize(tokens)
        answer = opt.check()
        if answer == z3.unknown:
            unknown = True
        if answer != z3.sat:
            continue
        m = opt.model()
        key = (m.eval(cards_in_play).as_long(), m.eval(tokens).as_long(), k)
        if best is not None and best[0] <= key:
            continue
        ch = ta.choice

        def post(t_post: SymState, guard: Any, f: Any, m: Any = m) -> Position | None:
            if not z3.is_true(m.eval(guard, model_completion=True)):
                return None
            return decode(_Conv(m, f), t_post)

        w = Witness(
            pre=decode(m, pre),
            card=card,
            target=m.eval(ch.target, model_completion=True).as_long(),
            guess=m.eval(ch.guess, model_completion=True).as_long(),
            post_a=post(ta.post, guard_a, conv_a),
            post_b=post(tb.post, guard_b, conv),
            target2=m.eval(ch.target2, model_completion=True).as_long(),
            look=m.eval(ch.look, model_completion=True).as_long(),
        )
        best = (key, w)
    if best is None and unknown:
        raise SearchUnknown(f"{a.key} against {b.key}, {players} players")
    return None if best is None else best[1]


def engine_pick(shape: Shape, s: SymState) -> Any:
    """The face-up card a Prince's target takes, as the engine takes it: under
    ``prince_empty_deck = top_removed``, with the draw pile empty, the first face-up card (a
    scenario lists them in card order, so the first present kind); otherwise none. The
    model leaves that pick free (any face-up card); a witness must not rest on a pick the
    engine would not make."""
    if shape.rules.options.prince_empty_deck != "top_removed" or not shape.face_up:
        return z3.IntVal(NONE)
    first: Any = z3.IntVal(NONE)
    for k in reversed(range(len(shape.kinds))):
        first = z3.If(s.faceup[k] >= 1, k, first)
    return z3.If(total(s.pile) == 0, first, NONE)


def _picked(t: Transition, pick: Any, f: Any) -> Any:
    """``f`` with the step's free face-up pick fixed as the engine makes it: ``pick`` when
    the guard allows it, else none (the model allows exactly one of the two in each case).
    Applied to the guard, it gives the step's legality."""
    kind = t.choice.kind
    legal_pick = f(z3.substitute(t.guard, (kind, pick)))

    def fixed(e: Any) -> Any:
        with_pick = f(z3.substitute(e, (kind, pick)))
        without = f(z3.substitute(e, (kind, z3.IntVal(NONE))))
        return z3.If(legal_pick, with_pick, without)

    return fixed


class _Conv:
    """A model whose ``eval`` first rewrites the expression (the guess translation)."""

    def __init__(self, model: Any, f: Any) -> None:
        self.model, self.f = model, f

    def eval(self, e: Any, model_completion: bool = False) -> Any:
        return self.model.eval(self.f(e), model_completion=model_completion)


def find_deal_witness(a: Ruleset, b: Ruleset) -> tuple[Position, Position | None] | None:
    """``two_player_face_up``: a first deal legal under ``a`` and not under ``b``."""
    sa, sb = Shape.of(a, 2), Shape.of(b, 2)
    ch = fresh_choice(sa, deal=True)
    assert ch.deal is not None
    solver = z3.Solver()
    solver.add(deal_constraint(sa, ch.deal), z3.Not(deal_constraint(sb, ch.deal)))
    if solver.check() != z3.sat:
        return None
    m = solver.model()
    state = replace(fresh(sa), n=ch.deal)
    return decode(m, state), None


# ------------------------------------------------------------------------------ scenario text


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        inner = ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in v.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def _key(k: object) -> str:
    s = str(k)
    return s if s.isidentifier() and not s[0].isdigit() else json.dumps(s)


def _seat(i: int) -> str:
    return f"P{i + 1}"


def _seats(flags: Sequence[bool]) -> list[str]:
    return [_seat(i) for i, f in enumerate(flags) if f]


def position_table(pre: Position) -> dict[str, object]:
    out: dict[str, object] = {
        "players": len(pre.hands),
        "turn": _seat(pre.turn),
        "deck": list(pre.pile),
        "set_aside": pre.aside[0] if pre.aside else "",
    }
    if pre.faceup:
        out["face_up"] = list(pre.faceup)
    out["hands"] = {_seat(i): list(h) for i, h in enumerate(pre.hands)}
    discards = {_seat(i): list(d) for i, d in enumerate(pre.discards) if d}
    if discards:
        out["discards"] = discards
    if any(pre.protected):
        out["protected"] = _seats(pre.protected)
    if any(pre.out):
        out["out"] = _seats(pre.out)
    tokens = {_seat(i): t for i, t in enumerate(pre.tokens) if t}
    if tokens:
        out["tokens"] = tokens
    if pre.sycophant != NONE:
        out["sycophant"] = _seat(pre.sycophant)
    bettor, chosen = pre.jester
    if bettor != NONE:
        out["jester"] = {_seat(bettor): _seat(chosen)}
    return out


def _ordered_discards(pre: Position, post: Position, mover: int, card: str) -> list[list[str]]:
    """Post discard piles in play order: the old pile, then the card played, then the rest."""
    out = []
    for i, (before, after) in enumerate(zip(pre.discards, post.discards, strict=True)):
        new = list(after)
        for c in before:
            new.remove(c)
        if i == mover and card in new:
            new.remove(card)
            new = [card, *new]
        out.append([*before, *new])
    return out


def expectations(w: Witness, post: Position, shape: Shape) -> dict[str, object]:
    """What the model predicts after the move (only what the scenario determines)."""
    pre = w.pre
    phase = post.phase
    over = phase in (PHASES[ROUND_OVER].name, PHASES[GAME_OVER].name)
    exp: dict[str, object] = {"out": _seats(post.out)}
    pending = post.pending if phase == PHASES[REDRAW].name else NONE
    exp["hands"] = {
        _seat(i): list(h) for i, h in enumerate(post.hands) if i != pending and not post.out[i]
    }
    disc = _ordered_discards(pre, post, pre.turn, w.card.title)
    exp["discards"] = {_seat(i): d for i, d in enumerate(disc) if d}
    exp["tokens"] = {_seat(i): t for i, t in enumerate(post.tokens)}
    exp["round_over"] = over
    exp["game_over"] = phase == PHASES[GAME_OVER].name
    # The round's winners are read off the tokens gained: not when other cards give tokens,
    # nor when the match ends under ``first_awarded`` (the awards stop at the first seat to
    # reach the threshold; a tied winner after it still won the round).
    bonus = any(shape.has(c) for c in (G.SPY, G.JESTER, G.BISHOP, G.CONSTABLE))
    cut = phase == PHASES[GAME_OVER].name and shape.rules.options.simultaneous_win != "all_win"
    if over and not bonus and not cut:
        exp["winners"] = [
            _seat(i) for i, (a, b) in enumerate(zip(pre.tokens, post.tokens, strict=True)) if b > a
        ]
    if phase == PHASES[ROUND_OVER].name:
        exp["next_starter"] = _seats(post.starter)
    if phase == PHASES[GAME_OVER].name and shape.rules.options.simultaneous_win == "all_win":
        exp["game_winners"] = [_seat(i) for i, t in enumerate(post.tokens) if t >= shape.threshold]
    if phase == PHASES[BISHOP_REDRAW].name:
        exp["turn"] = _seat(post.pending)  # the Bishop's target decides (scenario format)
    elif not over and phase != PHASES[REDRAW].name:
        exp["turn"] = _seat(post.turn)
    return exp


def move_table(w: Witness, shape: Shape) -> dict[str, object]:
    move: dict[str, object] = {"play": w.card.title}
    if w.card in C.MULTI_TARGETING:
        if w.target != NONE:
            move["targets"] = [_seat(t) for t in (w.target, w.target2) if t != NONE]
        if w.look != NONE:
            move["look"] = _seat(w.look)
    elif w.target != NONE:
        move["target"] = _seat(w.target)
    if w.guess != NONE:
        if shape.rules.options.guard_guess == "name":
            move["guess"] = shape.kinds[w.guess].title
        else:
            move["guess"] = w.guess
    return move


def scenario_text(
    option: str, a: str, b: str, value: object, w: Witness, shape: Shape, shape_b: Shape
) -> str:
    players = shape.players
    base_exp = None if w.post_a is None else expectations(w, w.post_a, shape)
    var_exp = None if w.post_b is None else expectations(w, w.post_b, shape_b)
    lines = [
        f"# Generated by `loveformal diverge {a} {b}`: a smallest position where {option}",
        f"# alone changes the outcome ({players} players; rules.md {drows(option)}).",
        *_header(option, a, value),
        f"rulesets = [{json.dumps(a)}]",
        "",
        "[position]",
    ]
    for k, v in position_table(w.pre).items():
        lines.append(f"{k} = {toml_value(v)}")
    lines += ["", "[[moves]]"]
    for k, v in move_table(w, shape).items():
        lines.append(f"{k} = {toml_value(v)}")
    lines += ["", "[expect]"]
    if base_exp is None:
        lines.append('error = ""')
    else:
        lines += [f"{k} = {toml_value(v)}" for k, v in base_exp.items()]
    lines += ["", "[[variant]]", f"options = {toml_value({option: value})}"]
    if base_exp is None or var_exp is None:
        lines.append("replace_expect = true")
        own: dict[str, object] = {"error": ""} if var_exp is None else var_exp
    else:
        own = {k: v for k, v in var_exp.items() if base_exp.get(k) != v}
        for k in base_exp:
            if k not in var_exp:
                own = var_exp
                lines.append("replace_expect = true")
                break
    lines.append(f"expect = {toml_value(own)}")
    return "\n".join(lines) + "\n"


def deal_scenario_text(option: str, a: str, b: str, value: object, deal: Position) -> str:
    hands = {_seat(i): h[0] for i, h in enumerate(deal.hands)}
    move = {
        "set_aside": deal.aside[0],
        "face_up": list(deal.faceup),
        "hands": hands,
        "deck": list(deal.pile),
    }
    lines = [
        f"# Generated by `loveformal diverge {a} {b}`: {option} decides which first deals are",
        "# legal (a mid-round position cannot differ: the face-up cards are fixed by the deal).",
        *_header(option, a, value),
        f"rulesets = [{json.dumps(a)}]",
        "",
        "[position]",
        "players = 2",
        'turn = "P1"',
        "new_match = true",
        "",
        "[[moves]]",
        f"deal = {toml_value(move)}",
        "",
        "[expect]",
        f"face_up = {toml_value(list(deal.faceup))}",
        f"deck = {toml_value(list(deal.pile))}",
        f"hands = {toml_value({k: [v] for k, v in hands.items()})}",
        "round = 1",
        'turn = "P1"',
        "",
        "[[variant]]",
        f"options = {toml_value({option: value})}",
        "replace_expect = true",
        'expect = { error = "" }',
    ]
    return "\n".join(lines) + "\n"


def _header(option: str, a: str, value: object) -> list[str]:
    rows = drows(option)
    title = f"{option} ({rows}): {a} against {option} = {_show(value)}"
    source = f"rules.md §3 {rows}, §8 option {option}; found by loveformal diverge"
    return [f"title = {toml_value(title)}", f"source = {toml_value(source)}"]


def _show(v: object) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}p: {x}" for k, x in v.items())
    return toml_value(v)


# ------------------------------------------------------------------------------ driver


@dataclass(frozen=True)
class Row:
    option: str
    drows: str
    status: Status
    players: int | None = None
    file: Path | None = None
    check: str = ""
    """``PASS`` when ``scenario check`` passes on the file (else the failing lines)."""
    detail: str = ""
    seconds: float = 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "option": self.option,
            "drows": self.drows,
            "status": self.status,
            "players": self.players,
            "file": None if self.file is None else str(self.file),
            "check": self.check,
            "detail": self.detail,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Report:
    a: str
    b: str
    rows: list[Row] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.status != "witness" or r.check == "PASS" for r in self.rows)


def _counts(a: Ruleset, b: Ruleset, players: int | None) -> list[int]:
    lo, hi = max(a.min_players, b.min_players), min(a.max_players, b.max_players)
    counts = list(range(lo, hi + 1))
    return [players] if players is not None else counts


def diverge(
    preset_a: str, preset_b: str, out: Path, players: int | None = None, timeout_ms: int = 60_000
) -> Report:
    """Search every differing option; write and check a scenario per witness."""
    import time

    ra, rb = load_preset(preset_a).ruleset, load_preset(preset_b).ruleset
    report = Report(preset_a, preset_b)
    out.mkdir(parents=True, exist_ok=True)
    for option in differing_options(ra, rb):
        start = time.perf_counter()
        counts = [
            n
            for n in _counts(ra, rb, players)
            if applies(option, ra, n)
            and applies(option, rb, n)
            and values_differ(option, ra, rb, n)
        ]
        if not counts:
            needs = option_spec(option).requires_cards
            why = "the values agree at these player counts"
            if needs:
                why = f"needs {' or '.join(c.title for c in needs)}: not in {preset_a}'s deck"
            elif option == "two_player_face_up":
                why = "2-player rounds only"
            report.rows.append(Row(option, drows(option), "not applicable", detail=why))
            continue
        modelled = [n for n in counts if C.supported(Shape.of(ra, n))]
        if not modelled:
            names = ", ".join(str(n) for n in counts)
            report.rows.append(
                Row(option, drows(option), "not modelled", detail=f"players {names}")
            )
            continue
        row: Row | None = None
        path = out / f"diverge-{option}.toml"
        best: tuple[int, int, str] | None = None
        unknown: list[int] = []
        for n in modelled:
            value = override_value(option, rb, n)
            variant = make_ruleset(preset_a, {option: value})
            if option == "two_player_face_up":
                found = find_deal_witness(ra, variant)
                if found is None:
                    continue
                text = deal_scenario_text(option, preset_a, preset_b, value, found[0])
                size = Shape.of(ra, n).size
            else:
                shape = Shape.of(ra, n)
                if best is not None and best[0] < n + 2 + shape.face_up:
                    continue  # a position with n seats holds at least n + 2 + face-up cards
                try:
                    w = find_witness(ra, variant, n, timeout_ms)
                except SearchUnknown:
                    unknown.append(n)
                    continue
                if w is None:
                    continue
                sa, sb = Shape.of(ra, n), Shape.of(variant, n)
                text = scenario_text(option, preset_a, preset_b, value, w, sa, sb)
                size = sum(len(z) for z in w.pre.zones())
            if best is None or (size, n) < best[:2]:
                best = (size, n, text)
        if best is not None:
            size, n, text = best
            path.write_text(text, encoding="utf-8")
            check = check_paths([path])
            failed = [r.line() for r in check.results if not r.passed]
            verdict = "PASS" if check.ok else "; ".join(failed)
            if check.errors:
                verdict = "; ".join(str(e) for e in check.errors)
            row = Row(option, drows(option), "witness", n, path, verdict, f"{size} cards")
        if row is None and unknown:
            detail = "Z3 timed out for players " + ", ".join(str(n) for n in unknown)
            row = Row(option, drows(option), "unknown", detail=detail)
        if row is None:
            row = Row(
                option,
                drows(option),
                "no divergence in one step",
                detail="players " + ", ".join(str(n) for n in modelled),
            )
        report.rows.append(replace(row, seconds=time.perf_counter() - start))
    return report


def format_rows(report: Report) -> str:
    head = ("option", "D-rows", "status", "players", "file", "check")
    rows = [
        (
            r.option,
            r.drows,
            r.status,
            "" if r.players is None else str(r.players),
            "" if r.file is None else str(r.file),
            r.check or r.detail,
        )
        for r in report.rows
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip()
             for line in (head, *rows)]  # fmt: skip
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Add the ``diverge`` command to the main command line."""

    @app.command("diverge")
    def diverge_command(
        preset_a: Annotated[str, typer.Argument(help="The base preset.")],
        preset_b: Annotated[str, typer.Argument(help="The preset whose option values differ.")],
        out: Annotated[
            str, typer.Option("--out", help="Where to write the scenarios.")
        ] = "diverge",
        players: Annotated[
            int | None, typer.Option("--players", help="Only this player count.")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON document.")] = False,
    ) -> None:
        """For each option on which PRESET_A and PRESET_B differ, find (Z3) a smallest position
        and move where that option alone changes the outcome, and write it as a scenario
        (diverge-<option>.toml) that `scenario check` must pass. Exit 1 if a file fails."""
        try:
            ra, rb = load_preset(preset_a).ruleset, load_preset(preset_b).ruleset
            lo, hi = max(ra.min_players, rb.min_players), min(ra.max_players, rb.max_players)
            if players is not None and not lo <= players <= hi:
                raise MalformedInput(
                    f"--players {players}: {preset_a} and {preset_b} are both played by "
                    + (f"{lo} to {hi} players" if lo <= hi else "no common number of players")
                )
            problem = unwritable_dir(out)
            if problem is not None:
                raise MalformedInput(f"--out: cannot write scenarios into {out!r}: {problem}")
            report = diverge(preset_a, preset_b, Path(out), players)
        except LoveformalError as e:
            typer.echo(f"loveformal: error: {e}", err=True)
            raise typer.Exit(2) from None
        except OSError as e:  # the file system refused a write after the checks above
            typer.echo(f"loveformal: error: --out {out}: {e.strerror}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            doc = {
                "a": preset_a,
                "b": preset_b,
                "ok": report.ok,
                "rows": [r.as_json() for r in report.rows],
            }
            typer.echo(json.dumps(doc, indent=1))
        else:
            typer.echo(format_rows(report))
        raise typer.Exit(0 if report.ok else 1)


__all__ = [
    "Report",
    "Row",
    "Witness",
    "differing_options",
    "diverge",
    "find_deal_witness",
    "find_witness",
    "format_rows",
    "register",
    "well_formed",
]
