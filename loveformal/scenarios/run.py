"""Playing a parsed scenario through the engine and checking its expectations.

For each ruleset of the scenario and of each variant: build the position, apply the moves in
order (``scenario-format.md`` "When draws happen" and "Pending decisions"), then compare the
state with ``expect``. Each check gives one :class:`~.model.CheckResult`: PASS, or FAIL with
every difference written ``key: expected X, got Y``. An illegal move, an engine error or an
unexpected rejection is a FAIL naming the move, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from loveformal.actions import BishopRedraw, ChancellorReturn, Guess, Play, guess_text
from loveformal.cards import Card
from loveformal.dealing import deal
from loveformal.engine import apply, current_player, legal_actions
from loveformal.errors import IllegalAction, LoveformalError, OutOfTurn
from loveformal.knowledge import knows
from loveformal.sampling import settle
from loveformal.scenarios.model import (
    CheckResult,
    Expect,
    Move,
    RulesetSpec,
    Scenario,
)
from loveformal.scenarios.parse import initial_state, ruleset_of
from loveformal.seats import seat_name
from loveformal.state import Phase, State

__all__ = ["apply_move", "check_scenario", "decision_state", "differences", "play_moves"]

G = Card


# ----------------------------------------------------------------------------- moves


def _given(move: Move, *names: str) -> list[str]:
    return [n for n in names if getattr(move, n) is not None]


def _reject_extra(move: Move, allowed: Iterable[str], why: str) -> None:
    extra = [
        n
        for n in ("play", "target", "targets", "guess", "keep", "bottom", "look", "redraw", "deal")
        if n not in allowed and getattr(move, n) is not None
    ]
    if extra:
        raise IllegalAction(f"{why} (`{'`, `'.join(extra)}` does not fit here)")


def apply_move(state: State, move: Move) -> State:
    """The state after ``move`` (with any certain mid-effect draw taken, but not the next
    turn's draw). Raises :class:`IllegalAction` (or :class:`OutOfTurn`) if the move does not
    fit; ``state`` is unchanged (states are immutable), and a move in two parts (a Chancellor
    with its ``keep``, a Bishop with its target's ``redraw``) is all or nothing."""
    if move.deal is not None:
        return _deal(state, move)
    if state.phase is Phase.TURN_DRAW:
        state = settle(state, turn_draw=True)
    phase = state.phase
    if phase is Phase.ROUND_OVER:
        raise IllegalAction("the round is over: the next move must be a deal")
    if phase is Phase.GAME_OVER:
        raise IllegalAction("the match is over")
    if phase is Phase.DEAL:
        raise IllegalAction("the round has not been dealt: the next move must be a deal")
    decider = current_player(state)
    if move.by is not None and move.by != decider:
        raise OutOfTurn(
            f"{seat_name(move.by)} cannot act now: it is {seat_name(decider)}'s decision"
        )
    who = seat_name(decider)
    if phase is Phase.PLAY:
        return _play(state, move, who)
    if phase is Phase.CHANCELLOR:
        _reject_extra(
            move, ("keep", "bottom"), f"{who} must keep one card and return the others first"
        )
        return _chancellor_return(state, move, who)
    if phase is Phase.BISHOP_REDRAW:
        _reject_extra(move, ("redraw",), f"{who} must first choose to keep or redraw (Bishop)")
        return _bishop_redraw(state, move, who)
    raise IllegalAction(f"no move is possible now (phase {phase.value})")


def _play(state: State, move: Move, who: str) -> State:
    if move.play is None:
        raise IllegalAction(f"{who} must play a card now (give `play`)")
    card = move.play
    if card is not G.CHANCELLOR and _given(move, "keep", "bottom"):
        raise IllegalAction(f"`keep` and `bottom` belong to a Chancellor, not the {card.title}")
    if card is not G.BISHOP and move.redraw is not None:
        raise IllegalAction(f"`redraw` follows a Bishop, not the {card.title}")
    action = Play(
        card,
        target=move.target,
        targets=move.targets or (),
        guess=move.guess,
        look=move.look,
    )
    state = settle(apply(state, action))
    if _given(move, "keep", "bottom"):
        if state.phase is not Phase.CHANCELLOR:
            raise IllegalAction("the Chancellor had no effect: there is nothing to keep or return")
        state = _chancellor_return(state, move, who)
    if move.redraw is not None:
        if state.phase is not Phase.BISHOP_REDRAW:
            raise IllegalAction(
                "the Bishop's target has no choice to keep or redraw here (no hit, or the "
                "round or match is over)"
            )
        state = _bishop_redraw(state, move, seat_name(current_player(state)))
    return state


def _chancellor_return(state: State, move: Move, who: str) -> State:
    if move.keep is None:
        raise IllegalAction(f"{who} must give `keep` (and `bottom`) for the Chancellor")
    return settle(apply(state, ChancellorReturn(move.keep, move.bottom or ())))


def _bishop_redraw(state: State, move: Move, who: str) -> State:
    if move.redraw is None:
        raise IllegalAction(f"{who} must give `redraw` (true or false) after the Bishop's hit")
    return settle(apply(state, BishopRedraw(move.redraw)))


def _deal(state: State, move: Move) -> State:
    d = move.deal
    assert d is not None
    _reject_extra(move, ("deal",), "a deal is a move of its own")
    if move.by is not None:
        raise IllegalAction("a deal is nobody's decision: `by` does not fit a deal")
    if d.set_aside is None:
        raise IllegalAction("the deal must name its `set_aside` card")
    return deal(
        state,
        set_aside=d.set_aside,
        hands=d.hands,
        deck=d.deck,
        face_up=d.face_up,
        starter=d.turn,
    )


def play_moves(state: State, moves: Iterable[Move]) -> State:
    """Apply ``moves`` in order (raises on the first that does not fit)."""
    for move in moves:
        state = apply_move(state, move)
    return state


# ----------------------------------------------------------------------------- checks


def decision_state(state: State) -> State:
    """The state at the next decision of the seat in turn: after its draw if it has not
    drawn yet (taken from the known top of the deck; ``state`` itself is unchanged)."""
    if state.phase is Phase.TURN_DRAW:
        return settle(state, turn_draw=True)
    return state


def _sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.index)


def _cards(cards: Iterable[Card]) -> str:
    return "[" + ", ".join(c.title for c in cards) + "]"


def _seats(seats: Iterable[int]) -> str:
    return "[" + ", ".join(seat_name(s) for s in sorted(seats)) + "]"


def _guesses(gs: Iterable[Guess]) -> str:
    key = lambda g: (0, g.index) if isinstance(g, Card) else (1, g)  # noqa: E731
    return "[" + ", ".join(guess_text(g) for g in sorted(gs, key=key)) + "]"


def _set_aside(card: Card | None) -> str:
    return '""' if card is None else card.title


def _decider(state: State) -> int:
    if state.phase is Phase.BISHOP_REDRAW and state.pending_seat is not None:
        return state.pending_seat
    return state.turn


def _plays_of(state: State, card: Card) -> list[Play]:
    return [a for a in legal_actions(state) if isinstance(a, Play) and a.card is card]


def differences(state: State, expect: Expect) -> list[str]:
    """Every expectation (other than ``error``) that ``state`` does not meet."""
    out: list[str] = []

    def diff(key: str, want: str, got: str) -> None:
        if want != got:
            out.append(f"{key}: expected {want}, got {got}")

    seats = state.seats
    if expect.out is not None:
        diff("out", _seats(expect.out), _seats(i for i, s in enumerate(seats) if s.out))
    for s, cards in (expect.hands or {}).items():
        diff(f"hands.{seat_name(s)}", _cards(_sorted(cards)), _cards(_sorted(seats[s].hand)))
    for s, cards in (expect.discards or {}).items():
        diff(f"discards.{seat_name(s)}", _cards(cards), _cards(seats[s].discards))
    if expect.deck is not None:
        diff("deck", _cards(expect.deck), _cards(state.pile.cards()))
    if expect.set_aside is not None:
        want = '""' if expect.set_aside == "" else expect.set_aside.title
        diff("set_aside", want, _set_aside(state.set_aside))
    if expect.face_up is not None:
        diff("face_up", _cards(expect.face_up), _cards(state.face_up))
    if expect.protected is not None:
        prot = (i for i, s in enumerate(seats) if s.protected)
        diff("protected", _seats(expect.protected), _seats(prot))
    if expect.turn is not None:
        diff("turn", seat_name(expect.turn), seat_name(_decider(state)))
    if expect.round_over is not None:
        diff("round_over", str(expect.round_over).lower(), str(state.round_over).lower())
    if expect.winners is not None:
        diff("winners", _seats(expect.winners), _seats(state.round_winners))
    for s, n in (expect.tokens or {}).items():
        diff(f"tokens.{seat_name(s)}", str(n), str(seats[s].tokens))
    if expect.game_over is not None:
        diff("game_over", str(expect.game_over).lower(), str(state.game_over).lower())
    if expect.game_winners is not None:
        diff("game_winners", _seats(expect.game_winners), _seats(state.game_winners))
    if expect.next_starter is not None:
        diff("next_starter", _seats(expect.next_starter), _seats(state.next_starters))
    if expect.round is not None:
        diff("round", str(expect.round), str(state.round))
    _decision_differences(state, expect, diff)
    if expect.knows is not None:
        for s, table in expect.knows.items():
            known = knows(state, s)
            for other, card in table.items():
                got = known.get(other)
                diff(f"knows.{seat_name(s)}.{seat_name(other)}", _set_aside(card), _set_aside(got))
    return out


def _decision_differences(
    state: State, expect: Expect, diff: Callable[[str, str, str], None]
) -> None:
    wanted = (expect.legal_plays, expect.targets, expect.guesses)
    if all(w is None for w in wanted) and expect.legal is None and expect.illegal is None:
        return
    ds = decision_state(state)
    if expect.legal_plays is not None:
        got = {a.card for a in legal_actions(ds) if isinstance(a, Play)}
        diff("legal_plays", _cards(_sorted(expect.legal_plays)), _cards(_sorted(got)))
    for card, seats in (expect.targets or {}).items():
        plays = _plays_of(ds, card)
        if not plays:
            diff(f"targets.{card.title}", _seats(seats), f"no legal play of the {card.title}")
            continue
        chosen: set[int] = set()
        for p in plays:
            if p.target is not None:
                chosen.add(p.target)
            chosen.update(p.targets)
        diff(f"targets.{card.title}", _seats(seats), _seats(chosen))
    for card, names in (expect.guesses or {}).items():
        plays = _plays_of(ds, card)
        if not plays:
            diff(f"guesses.{card.title}", _guesses(names), f"no legal play of the {card.title}")
            continue
        got_g = {p.guess for p in plays if p.guess is not None}
        diff(f"guesses.{card.title}", _guesses(names), _guesses(got_g))
    for move in expect.legal or ():
        try:
            apply_move(state, move)
        except IllegalAction as exc:
            diff(move.key, "a legal move", f"rejected: {exc}")
    for move in expect.illegal or ():
        try:
            apply_move(state, move)
        except IllegalAction:
            continue
        diff(move.key, "an illegal move", "accepted")


# ----------------------------------------------------------------------------- scenarios


def _run(scenario: Scenario, rs: RulesetSpec, expect: Expect, variant: int | None) -> CheckResult:
    def result(diffs: list[str]) -> CheckResult:
        return CheckResult(
            path=scenario.path,
            title=scenario.title,
            ruleset=rs.label,
            variant=variant,
            outcome="FAIL" if diffs else "PASS",
            differences=tuple(diffs),
        )

    try:
        state = initial_state(scenario.position, ruleset_of(rs))
        last = len(scenario.moves) - 1
        for i, move in enumerate(scenario.moves):
            try:
                state = apply_move(state, move)
            except IllegalAction as exc:
                if expect.error is None or i != last:
                    return result([f"{move.key}: expected a legal move, got rejected: {exc}"])
                if expect.error not in str(exc):
                    return result(
                        [f"error: expected a message containing {expect.error!r}, got {str(exc)!r}"]
                    )
                return result([])
        if expect.error is not None:
            what = scenario.moves[-1].key if scenario.moves else "the last move (there is none)"
            return result([f"error: expected {what} to be rejected, got accepted"])
        return result(differences(state, expect))
    except LoveformalError as exc:
        return result([f"error: expected the scenario to run, got {type(exc).__name__}: {exc}"])
    except Exception as exc:  # an engine crash is a FAIL with its message, never a traceback
        return result([f"engine crash: expected no exception, got {type(exc).__name__}: {exc}"])


def check_scenario(scenario: Scenario) -> tuple[CheckResult, ...]:
    """One result per ruleset of the scenario, then per ruleset of each variant."""
    results = [_run(scenario, rs, scenario.expect, None) for rs in scenario.rulesets]
    for v in scenario.variants:
        results.extend(_run(scenario, rs, v.expect, v.index) for rs in v.rulesets)
    return tuple(results)
