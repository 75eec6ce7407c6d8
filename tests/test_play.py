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
