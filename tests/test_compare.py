"""``loveformal compare`` and its move text (``loveformal.compare``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from loveformal.actions import Play
from loveformal.compare import compare, format_move, load_source, parse_move, register
from loveformal.engine import apply, is_terminal, legal_actions, new_match
from loveformal.errors import IllegalAction, MalformedInput
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step, settle
from loveformal.scenarios.run import apply_move
from loveformal.state import CHANCE_PHASES

SCENARIOS = (
    Path(__file__).resolve().parent.parent / "loveformal" / "specs" / "scenarios" / "example"
)

PRINCE_EMPTY = (
    "classic two_player_face_up=3 2p | P1 Prince,Guard d:Guard,Baron t0 | "
    "P2 Priest d:Handmaid t0 | deck - | aside Princess | up King,Handmaid,Countess | play P1"
)
GUARD_NUMBER = (
    "classic 3p | P1 Guard,Priest d:- t0 | P2 Baron d:- t0 | P3 Guard d:- t0 | "
    "deck Prince,Countess,Handmaid | aside Princess | up - | play P1"
)


def app() -> typer.Typer:
    a = typer.Typer()

    @a.callback()
    def _root() -> None:
        """test app"""

    register(a)
    return a


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app(), ["compare", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_prince_on_an_empty_deck_names_prince_empty_deck() -> None:
    code, out, _ = run(PRINCE_EMPTY, "--move", "Prince@P2")
    assert code == 0
    assert "≠ hands" in out and "P2 King" in out and "P2 Princess" in out
    assert "hands: cn-wiki <- prince_empty_deck" in out
    assert "cn-wiki: top_removed  [seed 003" in out


def test_showdown_tie_scenario_json() -> None:
    code, out, _ = run(str(SCENARIOS / "showdown-king-tie.toml"), "--json")
    assert code == 0
    data = json.loads(out)
    rows = {r["row"]: r for r in data["rows"]}
    winners = rows["round winners"]
    assert winners["differs"]
    assert winners["values"]["classic"] == "P2" and winners["values"]["z2019"] == "P1, P2"
    assert winners["responsible"]["z2019"] == ["tie_break"]
    assert "tie_break" in data["options"]
    assert data["options"]["tie_break"]["values"]["z2019"]["value"] == "none"


def test_guard_naming_a_number_is_illegal_under_name_presets() -> None:
    code, out, _ = run(GUARD_NUMBER, "--move", "Guard@P2=3", "--json")
    assert code == 0
    data = json.loads(out)
    cols = {c["preset"]: c for c in data["columns"]}
    assert cols["classic"]["error"] is not None and "names a card" in cols["classic"]["error"]
    assert cols["premium"]["error"] is None and cols["bga-help"]["error"] is None
    result = {r["row"]: r for r in data["rows"]}["result"]
    assert result["responsible"]["classic"] == ["guard_guess"] or "premium" in result["responsible"]
    out_row = {r["row"]: r for r in data["rows"]}["out"]
    assert out_row["values"]["premium"] == "P2"


def test_two_player_deal_face_up_cards() -> None:
    text = (
        "classic 2p | P1 Guard,Priest d:- t0 | P2 Baron d:- t0 | deck Prince,Countess | "
        "aside Princess | up King,Handmaid,Guard | play P1"
    )
    code, out, _ = run(text, "--presets", "classic,bga-help")
    assert code == 0
    assert "illegal: position:" in out and "two_player_face_up" in out


def test_presets_option_and_table_layout() -> None:
    code, out, _ = run(GUARD_NUMBER, "--move", "Guard@P2=Baron", "--presets", "classic,z2019")
    assert code == 0
    assert "classic" in out and "z2019" in out and "cn-wiki" not in out
    assert "P2" in out and "rows differ" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["nonsense"], "neither a file nor a position"),
        (["missing.toml"], "missing.toml"),
        ([GUARD_NUMBER, "--move", "Gaurd@P2=Baron"], "unknown card 'Gaurd'"),
        ([GUARD_NUMBER, "--move", "Guard@P9=Baron"], "expected a seat P1..P3"),
        ([GUARD_NUMBER, "--presets", "classic,nope"], "unknown preset 'nope'"),
        ([GUARD_NUMBER.replace("Baron", "Barron"), "--move", "Handmaid"], "unknown card"),
    ],
)
def test_malformed_input_exits_2(args: list[str], message: str) -> None:
    code, _out, err = run(*args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_illegal_move_shows_in_its_column_not_a_crash() -> None:
    code, out, _ = run(GUARD_NUMBER, "--move", "King@P2", "--json")
    assert code == 0
    errors = [c["error"] for c in json.loads(out)["columns"]]
    assert all(e is not None and "does not hold the King" in e for e in errors)
    code, out, _ = run(GUARD_NUMBER, "--move", "King@P2")
    assert code == 0 and "illegal:" in out


def test_unseen_deck_draw_is_explained() -> None:
    text = (
        "classic 3p | P1 Guard d:- t0 | P2 Baron d:- t0 | P3 Priest d:- t0 | "
        "deck - / Prince,Countess | aside Princess | up - | turn_draw P1"
    )
    src = load_source(text)
    c = compare(src, [parse_move("Guard@P2=Baron", 3)], ["classic"])
    assert c.columns[0].error is not None and "unseen deck" in c.columns[0].error


def test_parse_move_shapes() -> None:
    m = parse_move("P2:Baroness@P3+P1", 3)
    assert m.by == 1 and m.targets == (0, 2) and m.target is None
    m = parse_move("Chancellor keep=Guard bottom=Priest,Baron", 3)
    assert m.keep is not None and m.bottom is not None and len(m.bottom) == 2
    m = parse_move("Bishop@P2=5 redraw=yes", 5)
    assert m.guess == 5 and m.redraw is True
    assert parse_move("redraw=no", 5).redraw is False
    m = parse_move("Dowager_Queen@P2", 5)
    assert m.play is not None and m.play.title == "Dowager Queen"
    for bad in ("", "Guard@P2 look", "Guard@P2 size=3", "keep=Guard keep=Baron", "redraw=maybe"):
        with pytest.raises(MalformedInput):
            parse_move(bad, 3)


@pytest.mark.parametrize("preset,players", [("classic", 2), ("premium", 5), ("z2019", 4)])
def test_move_text_round_trip_over_legal_decisions(preset: str, players: int) -> None:
    rng = random.Random(players)
    s = new_match(make_ruleset(preset), players)
    checked = 0
    for _ in range(300):
        if is_terminal(s):
            break
        if s.phase not in CHANCE_PHASES:
            for action in legal_actions(s):
                move = parse_move(format_move(action), players)
                try:
                    got = apply_move(s, move)
                except IllegalAction:  # pragma: no cover
                    pytest.fail(f"{format_move(action)} rejected")
                assert got == settle(apply(s, action))
                checked += 1
                if isinstance(action, Play) and action.targets:
                    assert "+" in format_move(action) or len(action.targets) == 1
        s, _ = random_step(s, rng)
    assert checked > 20


def test_a_position_saved_in_a_file_and_a_folder(tmp_path: Path) -> None:
    """A file holding a position in notation is compared as the position itself (a file
    without the .toml suffix was read as a scenario); a folder is named as one (it was
    "neither a file nor a position")."""
    saved = tmp_path / "position.txt"
    saved.write_text(PRINCE_EMPTY + "\n")
    assert run(str(saved), "--move", "Prince@P2") == run(PRINCE_EMPTY, "--move", "Prince@P2")
    code, _, err = run(str(tmp_path))
    assert code == 2 and f"{tmp_path}: is a directory, not a scenario file or a position" in err
    code, _, err = run("")
    assert code == 2 and "the position is empty" in err and "directory" not in err


def test_a_move_after_a_redraw_from_an_unseen_deck_says_why() -> None:
    """A Prince on P2 with an unseen deck: P2's replacement cannot be drawn, so a move after
    it is refused with the reason, as a turn's draw from an unseen deck is (it said only "no
    move is possible now (phase redraw)")."""
    unseen = (
        "classic 2p r1 start:P1 | P1 Prince,King d:Guard*2 t0 | P2 Priest d:Prince t0 | "
        "deck - / Guard*2,Priest,Baron*2,Handmaid | aside Guard | up Handmaid,Princess,Countess"
        " | play P1"
    )
    code, out, _ = run(unseen, "--move", "Prince@P2", "--move", "King@P2", "--presets", "classic")
    assert code == 0
    assert "the redraw step must first draw from an unseen deck: write the deck's top" in out
    _, out, _ = run(unseen, "--move", "Prince@P2", "--presets", "classic")
    assert "P2 to draw a replacement" in out  # it said only "redraw", without the seat


def test_a_position_written_at_a_redraw_from_a_known_deck_plays_on() -> None:
    """Written at P2's redraw after P1's Prince, with a known deck: the draws are made and
    P2's Prince is played (it said "no move is possible now (phase redraw)")."""
    known = (
        "classic 2p | P1 Guard d:Priest,Handmaid,Baron,Prince t0 | P2 - d:Baron,Priest,"
        "Handmaid,Guard t0 | deck Guard,Prince,Princess | aside Guard | up King,Countess,Guard"
        " | redraw P1 pending:P2"
    )
    code, out, _ = run(known, "--move", "Prince@P1", "--presets", "classic")
    assert code == 0 and "illegal" not in out
    assert "P1 Princess; P2 Guard" in out and "round over" in out
