"""``loveformal play``: a whole match through a pipe."""

from __future__ import annotations

import io
import subprocess
import sys

from typer.testing import CliRunner

from loveformal.cli import app
from loveformal.play import play_session


def _session(text: str, **kw: object) -> tuple[bool, str]:
    lines: list[str] = []
    args: dict[str, object] = dict(preset="classic", players=2, bots=["heuristic"], seat=0, seed=1)
    args.update(kw)
    done = play_session(stdin=io.StringIO(text), echo=lines.append, **args)  # type: ignore[arg-type]  # untyped **kw passed through
    return done, "\n".join(lines)


def test_move_one_until_the_match_ends() -> None:
    done, out = _session("1\n" * 2000)
    assert done
    assert "The match is over: won by" in out
    assert "Your hand:" in out and "Unseen cards" in out and "Moves:" in out


def test_eof_leaves_cleanly() -> None:
    done, out = _session("1\n")
    assert not done
    assert out.rstrip().endswith("End of input: leaving the match (nothing is saved).")


def test_hint_help_bad_input_and_move_text() -> None:
    done, out = _session("hint\nhelp\n99\nnonsense\n", players=3, bots=["random", "ismcts:5"])
    assert "hint: " in out
    assert "choose a number from 1 to" in out
    assert "is not one of the moves listed" in out
    assert not done
    # the compact move text is accepted: find the first listed move's text and type it
    _, first = _session("")
    line = next(x for x in first.splitlines() if x.startswith("  1. "))
    move = line[line.rindex("(") + 1 : line.rindex(")")]
    _, out2 = _session(f"{move}\n")
    assert out2.count("Moves:") >= 2 or "Round 1 is over" in out2 or "match is over" in out2


def test_a_typed_move_that_is_not_legal_gets_the_engines_reason() -> None:
    # classic seed 1: P1 first holds Guard, Guard (the 2-player game's first decision)
    _, out = _session("Guard@P2=Guard\nKing@P2\nP2:Guard@P2=Priest\nkeep=Guard\nfoo bar\n")
    lines = [x for x in out.splitlines() if "is not one of the moves listed" in x]
    assert lines == [
        "'Guard@P2=Guard' is not one of the moves listed: the Guard cannot name the Guard; "
        "type a number from 1 to 7",
        "'King@P2' is not one of the moves listed: P1 does not hold the King "
        "(hand: Guard, Guard); type a number from 1 to 7",
        "'P2:Guard@P2=Priest' is not one of the moves listed: it is P1's decision, not P2's; "
        "type a number from 1 to 7",
        "'keep=Guard' is not one of the moves listed: P1 must play a card now; "
        "type a number from 1 to 7",
        "'foo bar' is not one of the moves listed; type a number from 1 to 7",
    ]
    # z2019 seed 9: P1 plays the Chancellor, then names a card it does not have to keep
    _, out = _session("Chancellor\nkeep=Spy bottom=Spy,Spy\n", preset="z2019", seed=9)
    assert (
        "'keep=Spy bottom=Spy,Spy' is not one of the moves listed: the kept card Spy is not "
        "among the Chancellor's cards; type a number from 1 to 3"
    ) in out


def test_a_legal_move_typed_another_way_is_played() -> None:
    _, out = _session("P1: guard@p2=PRIEST\n")
    assert "not one of the moves listed" not in out
    assert "P1 plays the Guard on P2, naming Priest." in out


def test_cli_through_a_pipe() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "loveformal.cli", "play", "--seed", "2", "--bots", "random"],
        input="1\n" * 2000,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "The match is over" in proc.stdout


def test_cli_bad_seat() -> None:
    result = CliRunner().invoke(app, ["play", "--seat", "P9"])
    assert result.exit_code == 2
    assert "unknown seat" in result.output


def test_cli_more_bots_than_other_seats() -> None:
    """Two players, three bots: refused as ``simulate`` refuses it (the extra bots were
    dropped without a word); fewer bots than seats are cycled, as documented."""
    result = CliRunner().invoke(app, ["play", "--bots", "heuristic,random,random"], input="")
    assert result.exit_code == 2
    assert "--bots: 3 bots for 1 other seat (at most one per seat; fewer are cycled)" in (
        result.output
    )
    cycled = CliRunner().invoke(app, ["play", "--players", "3", "--bots", "random"], input="")
    assert cycled.exit_code == 0 and "P2: random, P3: random" in cycled.output


def test_a_long_typed_line_is_cut_in_the_reply() -> None:
    """A 100,000-character line is named cut to about 60 characters with its length (it was
    echoed back whole)."""
    _, out = _session("x" * 100_000 + "\n")
    line = next(x for x in out.splitlines() if "is not one of the moves listed" in x)
    assert "... (100002 characters) is not one of the moves listed" in line and len(line) < 200


def test_a_typed_move_naming_no_such_card_or_seat_says_so() -> None:
    """'Kng@P2' and 'Priest@P9' got no reason; other refusals did."""
    _, out = _session("Kng@P2\nPriest@P9\n")
    assert "'Kng@P2' is not one of the moves listed: unknown card 'Kng'; type a number" in out
    assert "'Priest@P9' is not one of the moves listed: expected a seat P1..P2, got 'P9';" in out
