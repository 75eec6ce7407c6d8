"""``loveformal play``: a whole match in the terminal against bots.

    loveformal play [--preset P] [--players N] [--bots heuristic,...] [--seat P1] [--seed S]

Before each of your decisions the screen shows the events you saw since your last move
(in plain words, :func:`loveformal.narration.narrate`), your hand, each seat's discard
pile, protection and tokens, the cards you know other seats hold
(:func:`loveformal.knowledge.knows`, read through your observation), the unseen-card counts
and the legal moves as a numbered list. Answer with a number, or with the compact move text
of ``loveformal compare`` (``Guard@P2=Priest``), or ``hint`` (the exact endgame
solver's choice late in a two-player round, else the heuristic bot's), ``help`` or ``quit``.
Input is read line by line, so a session can be piped in; at the end of the input the
match is left with a message (exit status 0).

The bots see only their own seats' observations (:func:`loveformal.bots.base.decide`).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, TextIO

import typer

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Play
from loveformal.bots.base import Bot, decide
from loveformal.bots.endgame import DEFAULT_MAX_CARDS, endgame_choices
from loveformal.bots.endgame import applies as endgame_applies
from loveformal.bots.heuristic import HeuristicBot
from loveformal.bots.registry import make_bot
from loveformal.bots.worlds import unseen_cards
from loveformal.compare import format_move, parse_move
from loveformal.engine import apply, current_player, explain, legal_actions, new_match
from loveformal.errors import LoveformalError, MalformedInput
from loveformal.literals import echo as typed_text
from loveformal.literals import whole_number
from loveformal.narration import narrate
from loveformal.notation import card_list
from loveformal.observation import Observation, observation
from loveformal.rulebook import make_ruleset
from loveformal.sampling import sample_chance
from loveformal.scenarios.model import Move
from loveformal.scoring import threshold
from loveformal.seats import parse_seat, seat_name
from loveformal.state import CHANCE_PHASES, State

__all__ = ["describe", "play_session", "register"]

Echo = Callable[[str], None]


def _norm(text: str) -> str:
    return "".join(text.lower().split())


def describe(obs: Observation, goal: int) -> list[str]:
    """The human's view of the table, as lines."""
    me = obs.seat
    lines = [
        f"== Round {obs.round}: {seat_name(me)} to decide "
        f"(tokens: "
        + ", ".join(f"{seat_name(i)} {t}" for i, t in enumerate(obs.tokens))
        + f"; {goal} to win) =="
    ]
    lines.append(f"Your hand: {card_list(obs.hand, compress=False).replace('_', ' ')}")
    for i in range(obs.players):
        if i == me:
            continue
        flags = []
        if obs.out[i]:
            flags.append("OUT")
        if obs.protected[i]:
            flags.append("protected (Handmaid)")
        if obs.spied[i]:
            flags.append("played a Spy")
        known = obs.known[i]
        know = f"; you know they hold: {card_list(known).replace('_', ' ')}" if known else ""
        lines.append(
            f"{seat_name(i)}: {obs.hand_sizes[i]} card(s), discards: "
            f"{card_list(obs.discards[i]).replace('_', ' ')}"
            + (f" [{', '.join(flags)}]" if flags else "")
            + know
        )
    my_flags = [x for x, on in (("protected", obs.protected[me]),) if on]
    lines.append(
        f"Your discards: {card_list(obs.discards[me]).replace('_', ' ')}"
        + (f" [{', '.join(my_flags)}]" if my_flags else "")
    )
    extra = f"; face up: {card_list(obs.face_up).replace('_', ' ')}" if obs.face_up else ""
    aside = "a face-down set-aside card" if obs.set_aside_present else "no set-aside card"
    lines.append(f"Deck: {obs.pile_size} card(s); {aside}{extra}")
    unseen = unseen_cards(obs)
    lines.append(
        "Unseen cards (not seen by you): "
        + ", ".join(
            f"{c.title} x{n}" for c, n in sorted(unseen.items(), key=lambda cn: cn[0].index)
        )
    )
    return lines


def _moves(legal: Sequence[Action]) -> list[str]:
    return [f"  {i}. {a}   ({format_move(a)})" for i, a in enumerate(legal, 1)]


def _read(stdin: TextIO, echo: Echo) -> str | None:
    echo("> ")
    line = stdin.readline()
    if not line:
        return None
    return line.strip()


def _hint(obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
    """The suggested move and where it comes from: the exact endgame solver when it applies
    (two players in the round, at most two cards in the pile), else the heuristic bot."""
    rng = random.Random(0)
    if endgame_applies(obs, DEFAULT_MAX_CARDS):
        choices = endgame_choices(obs, legal, rng)
        if choices is not None:
            return max(choices, key=lambda c: c[1])[0], "exact endgame solver"
    return HeuristicBot().act(obs, legal, rng), "heuristic"


def _choose(state: State, seat: int, stdin: TextIO, echo: Echo) -> Action | None:
    legal = legal_actions(state)
    obs = observation(state, seat)
    for line in describe(obs, threshold(state)):
        echo(line)
    echo("Moves:")
    for line in _moves(legal):
        echo(line)
    echo("Type a number, a move as shown in brackets, 'hint', 'help' or 'quit'.")
    by_text = {_norm(format_move(a)): a for a in legal}
    while True:
        text = _read(stdin, echo)
        if text is None:
            return None
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "exit", "q"):
            return None
        if word == "help":
            echo("A number picks a move from the list; the text in brackets works too.")
            echo(
                "'hint' asks the exact endgame solver late in a 2-player round, else the heuristic"
            )
            echo("bot; 'quit' leaves the match.")
            continue
        if word == "hint":
            hint, source = _hint(obs, legal)
            echo(f"hint: {legal.index(hint) + 1}. {hint} ({source})")
            continue
        k = whole_number(text)
        if k is not None:
            if 1 <= k <= len(legal):
                return legal[k - 1]
            echo(f"{typed_text(text)}: choose a number from 1 to {len(legal)}")
            continue
        action = by_text.get(_norm(text))
        if action is not None:
            return action
        typed = _typed_move(state, text)
        if typed in legal:
            assert not isinstance(typed, str)
            return typed
        reason = explain(state, typed) if isinstance(typed, _ACTIONS) else typed
        why = f": {reason}" if reason else ""
        echo(
            f"{typed_text(text)} is not one of the moves listed{why}; type a number from 1 to "
            f"{len(legal)}"
        )


_ACTIONS = (Play, ChancellorReturn, BishopRedraw)


def _typed_move(state: State, text: str) -> Action | str | None:
    """The action that ``text`` writes in the move text of the ``compare`` command for the
    decision now (a Chancellor's keep and bottom, a Bishop's redraw); why it cannot be one
    (text), or ``None`` when it is not move text."""
    try:
        move = parse_move(text, len(state.seats), "move")
    except MalformedInput as exc:
        # One word of move text naming a card or seat the game does not have: the reason.
        reason = str(exc).partition("': ")[2].partition(" (expected")[0]
        known = reason.startswith(("unknown card", "expected a seat"))
        return reason if known and len(text.split()) == 1 and len(reason) <= 60 else None
    if move.by is not None and move.by != current_player(state):
        return f"it is {seat_name(current_player(state))}'s decision, not {seat_name(move.by)}'s"
    if move.play is None:
        if move.keep is not None and move.redraw is None and move.look is None:
            return ChancellorReturn(move.keep, move.bottom or ())
        if move.redraw is not None and move.keep is None and move.bottom is None:
            return BishopRedraw(move.redraw) if move.look is None else None
        return None
    if _given_parts(move):
        return None
    return Play(
        move.play,
        target=move.target,
        targets=move.targets or (),
        guess=move.guess,
        look=move.look,
    )


def _given_parts(move: Move) -> bool:
    """Whether a card play also carries a Chancellor's or Bishop's follow-up (chosen later)."""
    return move.keep is not None or move.bottom is not None or move.redraw is not None


def _narrate(state: State, seat: int, shown: int, echo: Echo) -> int:
    events = observation(state, seat).events
    for e in events[shown:]:
        echo(f"  - {narrate(e)}")
    return len(events)


def play_session(
    *,
    preset: str,
    players: int,
    bots: Sequence[str],
    seat: int,
    seed: int,
    stdin: TextIO,
    echo: Echo,
) -> bool:
    """Play one match with a human at ``seat`` reading ``stdin``; True if it was finished,
    False when the human left (quit or end of input)."""
    rules = make_ruleset(preset)
    try:
        rules.deck(players)
    except ValueError as e:
        raise MalformedInput(f"--players {players}: {e}") from None
    if not bots:
        raise MalformedInput("--bots: give at least one bot")
    seat_bots: dict[int, Bot] = {}
    others = [s for s in range(players) if s != seat]
    if len(bots) > len(others):
        raise MalformedInput(
            f"--bots: {len(bots)} bots for {len(others)} other seat{'s' if len(others) > 1 else ''}"
            " (at most one per seat; fewer are cycled)"
        )
    for k, s in enumerate(others):
        seat_bots[s] = make_bot(bots[k % len(bots)])
    rng = random.Random(seed)
    state = new_match(rules, players, starter=0)
    echo(
        f"Love Letter ({preset}), {players} players; you are {seat_name(seat)}; "
        + ", ".join(f"{seat_name(s)}: {b.name}" for s, b in seat_bots.items())
    )
    shown = 0
    while not state.game_over:
        if state.phase in CHANCE_PHASES:
            if state.round_over:
                shown = _narrate(state, seat, shown, echo)
                won = ", ".join(seat_name(w) for w in state.round_winners) or "nobody"
                echo(f"Round {state.round} is over: won by {won}.")
                shown = 0
            state = apply(state, sample_chance(state, rng))
            continue
        actor = current_player(state)
        if actor == seat:
            shown = _narrate(state, seat, shown, echo)
            action = _choose(state, seat, stdin, echo)
            if action is None:
                echo("End of input: leaving the match (nothing is saved).")
                return False
        else:
            action = decide(state, seat_bots[actor], rng)
        state = apply(state, action)
    _narrate(state, seat, shown, echo)
    winners = ", ".join(seat_name(w) for w in state.game_winners)
    you = " You win!" if seat in state.game_winners else ""
    echo(f"The match is over: won by {winners}.{you}")
    return True


def play_command(
    preset: Annotated[str, typer.Option(help="The preset (ruleset).")] = "classic",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 2,
    bots: Annotated[
        str, typer.Option(help="Comma-separated bots for the other seats (cycled).")
    ] = "heuristic",
    seat: Annotated[str, typer.Option(help="Your seat (P1, P2, ...).")] = "P1",
    seed: Annotated[int, typer.Option(help="Seed of the shuffles and the bots.")] = 0,
) -> None:
    """Play a whole match in the terminal against bots (reads moves line by line)."""
    try:
        names = [b.strip() for b in bots.split(",") if b.strip()]
        human = parse_seat(seat, players)
        play_session(
            preset=preset,
            players=players,
            bots=names,
            seat=human,
            seed=seed,
            stdin=sys.stdin,
            echo=typer.echo,
        )
    except (LoveformalError, ValueError) as e:
        typer.echo(f"loveformal: error: {' '.join(str(e).split())}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command("play")(play_command)
