"""Bad input found by fuzzing the command line: each gets one clear error line naming what
is wrong (exit 2), never a traceback, a hang or a silent guess.

Run through :func:`loveformal.cli.main`, the installed entry point, so that its error
handling is part of what is tested. The positions at effect steps (redraw, Chancellor) that
no round reaches are in ``test_notation.py``; here is what reaches the user.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from loveformal import cli
from loveformal.actions import BishopRedraw, ChancellorReturn, Draw, Play, Starter, malformed
from loveformal.cards import Card
from loveformal.engine import apply, legal_actions
from loveformal.errors import IllegalAction, MalformedInput, SpecError
from loveformal.literals import echo, number_problem, whole_number
from loveformal.notation import parse_position
from loveformal.paths import kind, unwritable_dir, unwritable_file
from loveformal.play import play_session
from loveformal.position import position
from loveformal.rulebook import make_ruleset
from loveformal.scenarios import ScenarioError, parse_text
from loveformal.state import Seat, State
from loveformal.table import evolve

# A position play reaches, then P2 knocked out: only P1 is left at a redraw step.
ONE_SEAT_LEFT = (
    "classic 2p | P1 Guard d:Priest,Handmaid,Baron,Prince t0 | P2 - d:Baron,Priest,Handmaid,"
    "Guard t0 out | deck - / Guard,Prince,Princess | aside Guard | up King,Countess,Guard | "
    "redraw P1 pending:P2"
)
SOLVABLE = (
    "classic 2p | P1 Guard,Guard d:Priest,Baron,Prince,Handmaid t0 | P2 Guard d:Priest,Baron,"
    "Prince,Handmaid t0 | deck Princess | aside Guard | up King,Countess,Guard | play P1"
)
# A 5-player position longer than a file name may be (255 bytes), with no '/'.
LONG = (
    "premium 5p r1 start:P1 | P1 Bishop,Dowager_Queen d:- t0 | P2 Princess d:- t0 | P3 Guard "
    "d:- t0 | P4 Handmaid d:- t0 | P5 Sycophant d:- t0 | deck Guard*7,Priest*2,Baron*2,"
    "Handmaid,Prince,King,Countess,Constable,Count*2,Sycophant,Baroness*2,Cardinal*2,Jester,"
    "Assassin | aside Prince | up - | play P1"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(list(args))
    out = capsys.readouterr()
    code = done.value.code
    assert isinstance(code, int)
    assert "Traceback" not in out.err
    return code, out.out, out.err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one error line of a command that must exit 2."""
    code, out, err = run(capsys, *args)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("loveformal: error: "), err
    return lines[0]


# ------------------------------------------------------------------ positions and the solver


def test_solve_a_round_with_one_seat_left_is_refused_not_a_hang(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The end of the turn looked for the next seat still in the round, forever."""
    line = refused(capsys, "solve", ONE_SEAT_LEFT, "--max-nodes", "200000")
    assert "only one seat is still in the round" in line and "(P1)" in line


def test_the_engine_refuses_to_pass_the_turn_when_every_seat_is_out() -> None:
    """The defence behind the check above, for a state built without it: the Princess
    knocks out the last seat still in, and the end of the turn says so instead of looping."""
    state = parse_position(
        SOLVABLE.replace("P1 Guard,Guard", "P1 Guard,Princess").replace(
            "deck Princess", "deck Guard"
        )
    )
    p2 = state.seats[1]
    gone = Seat((), p2.discards + p2.hand, True, False, p2.tokens, p2.spied)
    impossible = evolve(state, seats=(state.seats[0], gone))
    princess = next(
        a for a in legal_actions(impossible) if getattr(a, "card", None) is Card.PRINCESS
    )
    with pytest.raises(MalformedInput, match="no seat is still in the round"):
        apply(impossible, princess)


def test_compare_refuses_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "compare", ONE_SEAT_LEFT, "--presets", "classic,bga-help")
    assert "only one seat is still in the round" in line


def test_a_position_longer_than_a_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    """``Path(text).is_file()`` raised "File name too long" for a valid 4-player position."""
    assert len(LONG) > 255 and "/" not in LONG
    code, out, _ = run(capsys, "compare", LONG, "--presets", "premium,bga-help")
    assert code == 0 and "legal moves" in out
    code, out, err = run(capsys, "scenario", "check", LONG)  # its report: one line per file
    assert code == 2
    assert "no such file or folder (it reads like a position in the notation" in out + err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", SOLVABLE.replace("Guard,Guard", "Guard*²")), "got 'Guard*²'"),
        (("solve", SOLVABLE.replace("Guard,Guard", "Guard*٢")), "got 'Guard*٢'"),
        (("solve", SOLVABLE.replace("play P1", "play P١")), "expected a seat P1..P2, got 'P١'"),
        (("solve", SOLVABLE, "--seat", "P²"), "--seat: unknown seat 'P²'"),
        (("solve", SOLVABLE, "--seat", "P٢"), "--seat: unknown seat 'P٢'"),
        (("solve", SOLVABLE.replace("classic 2p", "classic 2p r" + "9" * 5000)), "(round)"),
        (("verify", "--players", "²"), "--players: '²' is not a player count"),
        (("simulate", "--bots", "ismcts:²", "--games", "1"), "expected ismcts:N with N >= 1"),
        (("rules", "classic", "-o", "tokens_to_win=2:-3"), "got '-3' (it cannot be negative)"),
        (("rules", "classic", "-o", "tokens_to_win=" + "9" * 5000), "5000 digits (at most 9)"),
        (("rules", "classic", "-o", "tokens_to_win=2:" + "9" * 5000), "5000 digits (at most 9)"),
    ],
)
def test_numbers_are_ascii_digits_of_bounded_length(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails; ``int("٢")`` is 2 (a silent guess);
    ``int`` of 5,000 digits raises. Each is now refused, naming the field."""
    line = refused(capsys, *args)
    assert message in line
    assert len(line) < 400  # the 5,000 digits are not echoed back


def test_play_reads_only_ascii_numbers() -> None:
    lines: list[str] = []
    done = play_session(
        stdin=io.StringIO("²\n٢\n"),
        echo=lines.append,
        preset="classic",
        players=2,
        bots=["heuristic"],
        seat=0,
        seed=1,
    )
    text = "\n".join(lines)
    assert not done  # the match goes on to the end of the input, not ended by an error
    assert "'²' is not one of the moves listed" in text
    assert "'٢' is not one of the moves listed" in text


# ------------------------------------------------------------------------- output paths


@pytest.mark.parametrize(
    ("plot", "message"),
    [
        ("{tmp}", "it is a directory"),
        ("{tmp}/nope/x.png", "no directory"),
        ("", "expected a file name"),
    ],
)
def test_simulate_plot_path_is_checked_before_the_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, plot: str, message: str
) -> None:
    path = plot.format(tmp=tmp_path)
    line = refused(capsys, "simulate", "--games", "1", "--plot", path)
    assert line.startswith("loveformal: error: --plot: cannot write") and message in line


def test_diverge_out_and_players_are_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("")
    line = refused(capsys, "diverge", "classic", "z2019", "--out", str(afile))
    assert "it is a file, not a directory" in line
    line = refused(capsys, "diverge", "classic", "z2019", "--out", str(afile / "sub"))
    assert "a-file is a file, not a directory" in line
    for players in ("9", "0", "-2"):
        line = refused(capsys, "diverge", "classic", "z2019", "--players", players)
        assert "both played by 2 to 4 players" in line
    assert not any(tmp_path.iterdir()) or list(tmp_path.iterdir()) == [afile]


def test_prove_timeout_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "prove", "--timeout-ms", "-1")
    assert "--timeout-ms" in line


def test_compare_same_error_under_two_presets_is_not_a_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Both columns refused the z2019 position for one reason, in messages that differ only
    by the preset's name; the row was marked '≠' and blamed on options."""
    z2019 = (
        "z2019 2p start:P2 | P1 Guard,Priest,King d:Baron,Handmaid,Prince,Spy,Countess,"
        "Chancellor t0 | P2 Baron d:Guard,Priest,Handmaid,Prince,Spy,Chancellor t0 | deck Guard"
        " | aside Princess | up Guard*3 | chancellor P1"
    )
    code, out, _ = run(capsys, "compare", z2019, "--presets", "classic,premium")
    assert code == 0
    assert "0 of 14 rows differ" in out and "responsible" not in out
    code, out, _ = run(capsys, "compare", z2019, "--presets", "classic,premium,z2019")
    assert "result: classic <- deck" in out and "result: premium <- deck" in out


# --------------------------------------------------------------------------- the helpers


def test_whole_number_reads_ascii_digits_only() -> None:
    assert whole_number("0") == 0 and whole_number("123456789") == 123456789
    for text in ("", "²", "٢", "1²", "-1", "+1", " 1", "1e3", "1234567890", "1_000"):
        assert whole_number(text) is None, text
    assert whole_number("12", 1) is None
    assert "cannot be negative" in number_problem("-3")
    assert "digits 0-9" in number_problem("٢")
    assert "12 digits" in number_problem("9" * 12)


def test_echo_is_bounded_and_never_raises() -> None:
    class Unshowable:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert echo("abc") == "'abc'"
    assert len(echo("x" * 100_000)) < 80 and "100002 characters" in echo("x" * 100_000)
    assert "cannot be shown" in echo(Unshowable())
    assert "digits" in echo(10**5000)


def test_paths_answer_without_raising(tmp_path: Path) -> None:
    long_name = "x" * 300
    assert kind(long_name) is None and kind(tmp_path) == "dir"
    assert kind("bad\0name") is None
    (tmp_path / "f").write_text("")
    assert kind(tmp_path / "f") == "file"
    assert unwritable_file(tmp_path / "out.png") is None
    assert unwritable_file(tmp_path) == "it is a directory"
    assert unwritable_file(tmp_path / long_name) is not None
    assert unwritable_dir(tmp_path / "new" / "deeper") is None
    assert unwritable_dir(tmp_path / "f") == "it is a file, not a directory"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_scenario_named_by_a_pipe_is_refused_not_waited_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``compare x.toml`` read a named pipe and waited for a writer, forever."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for command in ("compare", "solve"):
        line = refused(capsys, command, str(fifo))
        assert "pipe.toml: is not a regular file (a pipe or a device?)" in line
    code, out, err = run(capsys, "scenario", "check", str(fifo))
    assert code == 2 and "pipe.toml: is not a regular file" in out + err
    line = refused(capsys, "compare", str(tmp_path / "missing.toml"))
    assert "missing.toml: no such file" in line


FIVE = (
    "premium 5p r1 start:P1 | P1 Guard,Priest d:- t0 | P2 Baron d:- t0 | P3 King d:- t0 | P4 "
    "Prince d:- t0 | P5 Handmaid d:- t0 | deck Guard,Countess | aside Princess | up - | play P1"
)


def test_compare_with_a_preset_that_has_no_deck_for_the_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Five players under the default presets (classic stops at 4) raised a KeyError from
    the option table; the player count is the deck's difference, in that column."""
    code, out, _ = run(capsys, "compare", FIVE)
    assert code == 0
    assert "result: classic <- deck" in out and "result: z2019-classic <- deck" in out
    code, out, _ = run(capsys, "compare", FIVE, "--presets", "classic,z2019-classic")
    assert code == 0 and "0 of 14 rows differ" in out
    code, out, _ = run(capsys, "compare", "loveformal/specs/scenarios/example/bishop-redraw.toml")
    assert code == 0 and "rows differ" in out


def test_compare_masks_deck_names_in_a_shared_error(capsys: pytest.CaptureFixture[str]) -> None:
    """The same refusal names each preset's decks ("(classic)", "(premium-16, premium-32)")."""
    text = (
        "z2019 chancellor_short_deck=no_effect_below_two 3p r1 start:P1 | P1 Guard,Baron d:- t0"
        " | P2 Priest d:- t0 | P3 King d:- t0 | deck - / Guard*3,Priest,Baron,Handmaid*2,"
        "Prince*2,Countess,Princess | aside Guard | up - | play P1"
    )
    code, out, _ = run(capsys, "compare", text, "--presets", "classic,premium,z2019-classic")
    assert code == 0 and "0 of 14 rows differ" in out and "premium-16" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rules", "classic", "-o", "tokens_to_win=" + "1" + "0" * 12), "13 digits (at most 9)"),
        (("rules", "classic", "-o", "tokens_to_win=2:6,2:7"), "for 2 players is given twice"),
        (("solve", SOLVABLE, "--graph", ""), "expected a file name, got an empty one"),
        (("solve", SOLVABLE, "--graph", "x.graphml/"), "a name ending in '/' is a directory's"),
        (("simulate", "--games", "1", "--plot", "chart.pdf"), "give a name ending in .png"),
        (("simulate", "--games", "1", "--bots", "random:"), "bot 'random:': nothing after ':'"),
        (("verify", "--players", "2,2"), "--players: '2' is given twice"),
        (("simulate", "--compare-presets", "classic,classic"), "'classic' is given twice"),
        (("simulate", "--compare-presets", ""), "--compare-presets: empty name in ''"),
        (("verify", "--sections", "matches,matches"), "--sections: 'matches' is given twice"),
        (("diverge", "classic", "cn-wiki", "--out", ""), "expected a directory name, got an empty"),
        (("solve", SOLVABLE.replace("play P1", "round_over P1 won:P1")), "round_over needs next:"),
        (
            ("solve", SOLVABLE.replace("play P1", "deal P1")),
            "during the deal a seat holds at most one card",
        ),
    ],
)
def test_second_fuzzing_pass(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    """Found by a second pass: silent last-wins, an empty name read as the current folder,
    a trailing '/' dropped, PNG bytes under another name, a duplicate run twice, a round end
    with no next starter (a chance node without outcomes), a deal with cards played."""
    assert message in refused(capsys, *args)


def test_scenario_check_of_an_empty_name(capsys: pytest.CaptureFixture[str]) -> None:
    """``scenario check ""`` checked every scenario file in the current folder."""
    code, out, err = run(capsys, "scenario", "check", "")
    assert code == 2
    assert "'': an empty name: expected a scenario file or a folder of them" in out + err
    assert ".: " not in out + err  # it named the current folder, as Path("") is
    assert "passed" in out and "0 passed" in out


def test_a_token_count_given_as_an_integer_is_bounded() -> None:
    """The table form was bounded, a single integer was not: 10**12 was accepted and its
    positions did not read back; 10**4400 broke the ruleset's text."""
    for tokens in (10**12, 10**4400):
        with pytest.raises(SpecError, match=r"tokens_to_win for 2 players is too large"):
            make_ruleset("classic", {"tokens_to_win": tokens})
    with pytest.raises(SpecError, match="player count '05': write it as a plain number"):
        make_ruleset("premium", {"tokens_to_win": {"5": 1, "05": 3}})  # was last-wins
    assert make_ruleset("classic", {"tokens_to_win": 10**9 - 1}).options.tokens_for(2) > 0


# ---------------------------------------------------------------- the API (a third pass)

_KING = (
    "classic 2p | P1 King,Guard d:Priest,Baron,Prince,Handmaid t0 | P2 Guard d:Priest,Baron,"
    "Prince,Handmaid t0 | deck Princess | aside Guard | up Countess,Guard,Guard | play P1"
)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play(Card.KING, target=True), "Play.target: expected a seat number .* got bool True"),
        (Play(Card.KING, target=1.0), "Play.target: .* got float 1.0"),  # type: ignore[arg-type]  # the wrong type is the test
        (Play(Card.KING, target="P2"), "Play.target: .* got str 'P2'"),  # type: ignore[arg-type]  # the wrong type is the test
        (Play("King"), "Play.card: expected a Card, got str 'King'"),  # type: ignore[arg-type]  # the wrong type is the test
        (Play(Card.GUARD, target=1, guess=True), "Play.guess: .* got bool True"),
        (Play(Card.KING, targets=[1]), "Play.targets: expected a tuple"),  # type: ignore[arg-type]  # the wrong type is the test
        (5, "expected an action .* got int 5"),
        (None, "expected an action .* got NoneType None"),
    ],
)
def test_apply_names_an_ill_typed_action(action: object, message: str) -> None:
    """A bool seat was read as P2 (``True == 1``) and the King swapped hands; floats, strings
    and lists failed inside a rule with a TypeError or AttributeError."""
    state = parse_position(_KING)
    with pytest.raises(IllegalAction, match="not a well-formed action: " + message):
        apply(state, action)  # type: ignore[arg-type]  # ill-typed on purpose
    assert apply(state, Play(Card.KING, target=1)).seats[0].hand == (Card.GUARD,)


def test_ill_typed_chance_and_bishop_actions() -> None:
    state = parse_position(_KING)
    with pytest.raises(IllegalAction, match="seat: expected a seat number"):
        apply(state, legal_actions(state)[0], seat="P1")  # type: ignore[arg-type]  # on purpose
    draw = Draw("Guard")  # type: ignore[arg-type]  # the wrong type is the test
    assert malformed(draw) == "Draw.card: expected a Card, got str 'Guard'"
    assert malformed(Starter(True)) == "Starter.seat: expected a seat number (int), got bool True"
    redraw = BishopRedraw("no")  # type: ignore[arg-type]  # the wrong type is the test
    assert malformed(redraw) == "BishopRedraw.redraw: expected True or False, got str 'no'"
    chancellor = ChancellorReturn(Card.KING, None)  # type: ignore[arg-type]  # on purpose
    assert malformed(chancellor) == (
        "ChancellorReturn.bottom: expected a tuple of Cards, got NoneType None"
    )
    for good in (*legal_actions(state), Draw(Card.GUARD), Starter(1), BishopRedraw(False)):
        assert malformed(good) is None


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ('spied = ["P1", "P2", "P3"]', "3 seats have played or discarded a Spy, which takes 3"),
        ('spied = ["P1"]\ndiscards = { P2 = ["Spy"], P3 = ["Spy"] }', "3 seats have played"),
        # Both Spies in P2's pile: P1 cannot have played one too (a review's find).
        ('spied = ["P1"]\ndiscards = { P2 = ["Spy", "Spy"] }', "takes 3 Spies out of play"),
    ],
)
def test_a_marker_needs_a_copy_of_its_card_out_of_play(marker: str, message: str) -> None:
    """z2019 has two Spies: three spied seats were accepted, and one won a Spy token."""
    text = (
        'title = "t"\nrulesets = ["z2019"]\n[position]\nplayers = 3\nturn = "P1"\n'
        'deck = ["Baron", "Guard"]\nset_aside = "Priest"\n'
        'hands = { P1 = ["Guard", "Handmaid"], P2 = ["Guard"], P3 = ["Prince"] }\n'
        f'{marker}\n[[moves]]\nplay = "Handmaid"\n[expect]\nprotected = ["P1"]\n'
    )
    with pytest.raises(ScenarioError, match=message):
        parse_text(text, "t.toml")


def test_a_jester_bet_needs_its_players_jester() -> None:
    """The premium deck for 5 players holds one Jester: in P1's discard pile, P3 cannot have
    played it (a bet by P3 earned P3 a token)."""
    hands = {0: (Card.GUARD, Card.PRIEST), 1: (Card.BARON,), 2: (Card.KING,), 3: (Card.PRINCE,)}
    hands[4] = (Card.HANDMAID,)
    rules = make_ruleset("premium")

    def with_jester_in(seat: int) -> State:
        return position(
            rules,
            players=5,
            turn=0,
            hands=hands,
            deck=(Card.GUARD,),
            set_aside=Card.COUNTESS,
            discards={seat: (Card.JESTER,)},
            jester=(2, 1),
        )

    assert with_jester_in(2).jester == (2, 1)
    with pytest.raises(MalformedInput, match="jester: P3 has played a Jester, but every Jester"):
        with_jester_in(0)


def test_too_many_copies_say_where_each_copy_is() -> None:
    """The classic deck holds five Guards: a sixth is refused, and the message lists where
    the six are, so the user can find the one too many."""
    with pytest.raises(
        MalformedInput,
        match=r"Guard appears 6 times \(the draw pile 2, P1's hand 1, P2's discard pile 3\), "
        r"but the classic deck for 2 players holds 5",
    ):
        position(
            make_ruleset("classic"),
            players=2,
            turn=0,
            hands={0: (Card.GUARD, Card.PRIEST), 1: (Card.BARON,)},
            deck=(Card.GUARD, Card.GUARD),
            set_aside=Card.KING,
            discards={1: (Card.GUARD,) * 3},
        )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"3": "4"}, r"tokens_to_win\.3: expected an integer token count, got a string"),
        ({" 3": 2}, r"player count ' 3': write it as a plain number"),
        ({"03": 2}, r"player count '03': write it as a plain number"),
    ],
)
def test_a_token_table_is_read_as_the_format_says(table: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError, match=message):
        make_ruleset("classic", {"tokens_to_win": table})


def test_pettingzoo_refuses_what_is_not_an_action_id() -> None:
    from loveformal.integrations.pettingzoo import env

    e = env("classic", 2)
    with pytest.raises(MalformedInput, match=r"step\(\) before reset\(\)"):
        e.step(0)
    e.reset(seed=1)
    for bad in (21.7, "21", float("nan"), float("inf"), [0], None, 10**6):
        with pytest.raises(MalformedInput, match="is not an action id"):
            e.step(bad)  # type: ignore[arg-type]  # not an action id, on purpose
    for players in ("2", 2.0, True, 1):
        with pytest.raises(MalformedInput, match="players: "):
            env("classic", players)  # type: ignore[arg-type]  # not a count, on purpose
    with pytest.raises(MalformedInput, match="unknown agent 'player_7'"):
        e.observe("player_7")
