"""The conformance suite: the scenario files under ``specs/scenarios`` (rulings and disputes).

* Every file passes ``loveformal.scenarios.check_paths`` from the installed package data.
* Every ruling R1-R25 (``rules.md`` §2) has a file ``rulings/rNN-*.toml``, and every
  disagreement D1-D29 (§3) that can arise in play has a file ``disputes/dNN-*.toml``.
* The suite is not vacuous: changing one expectation of a file makes its check fail.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from pathlib import Path

import pytest

from loveformal.scenarios import check_paths, check_scenario, parse_text

SKIPPED_DISPUTES = {
    17: "turn direction is fixed (clockwise); no option, no position can differ",
    18: "a note on seed 000's text: the Assassin is not in the 2-4 player deck",
    24: "token supply is not rule-relevant; the engine does not limit it",
}


def _suite_root() -> Path:
    root = Path(str(importlib.resources.files("loveformal") / "specs" / "scenarios"))
    assert root.is_dir(), f"the package data has no scenario folder at {root}"
    return root


SUITE = _suite_root()
RULINGS = SUITE / "rulings"
DISPUTES = SUITE / "disputes"
SUITE_FILES = sorted([*RULINGS.glob("*.toml"), *DISPUTES.glob("*.toml")])


def _numbers(folder: Path, letter: str) -> set[int]:
    found: set[int] = set()
    for p in folder.glob("*.toml"):
        m = re.fullmatch(rf"{letter}(\d\d)-[a-z0-9-]+", p.stem)
        assert m, f"{p.name}: expected a name {letter}NN-short-name.toml"
        found.add(int(m.group(1)))
    return found


# ----------------------------------------------------------------------------- the suite


def test_the_whole_suite_passes() -> None:
    report = check_paths([SUITE])
    assert not report.errors, "\n".join(str(e) for e in report.errors)
    assert report.failed == 0, "\n".join(r.line() for r in report.results if not r.passed)
    assert report.passed >= 300


def test_every_ruling_has_a_scenario() -> None:
    assert _numbers(RULINGS, "r") == set(range(1, 26))


def test_every_expressible_dispute_has_a_scenario() -> None:
    found = _numbers(DISPUTES, "d")
    assert found == set(range(1, 30)) - set(SKIPPED_DISPUTES)


def test_the_skipped_disputes_are_listed_in_the_first_dispute_file() -> None:
    first = sorted(DISPUTES.glob("*.toml"))[0]
    head = first.read_text(encoding="utf-8").split("\ntitle", 1)[0]
    for row in SKIPPED_DISPUTES:
        assert f"D{row} " in head, f"{first.name} should list D{row} as skipped"


def test_every_file_names_its_source_and_rulesets() -> None:
    for path in SUITE_FILES:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        number = int(path.stem[1:3])
        tag = f"{path.stem[0].upper()}{number}"
        assert re.search(rf"\b{tag}\b", data["source"]), f"{path.name}: source must name {tag}"
        assert data["rulesets"], path.name


# ----------------------------------------------------------------------------- mutations

_EXPECT = re.compile(r"^\[expect\]\n(.*?)(?=^\[|\Z)", re.MULTILINE | re.DOTALL)


def _mutate_expect(body: str) -> tuple[str, str]:
    """One changed expectation of an ``[expect]`` body, and what was changed."""
    flips = (
        (r"^round_over = (true|false)", "round_over"),
        (r"^game_over = (true|false)", "game_over"),
    )
    for pattern, name in flips:
        m = re.search(pattern, body, re.MULTILINE)
        if m:
            flipped = "false" if m.group(1) == "true" else "true"
            return body[: m.start(1)] + flipped + body[m.end(1) :], name
    m = re.search(r"^winners = \[(.*?)\]", body, re.MULTILINE)
    if m:
        other = '"P1"' if m.group(1).strip() == "" else ""
        return body[: m.start(1)] + other + body[m.end(1) :], "winners"
    m = re.search(r'^error = "(.*?)"', body, re.MULTILINE)
    if m:
        return body[: m.start(1)] + "no such message" + body[m.end(1) :], "error"
    m = re.search(r'^turn = "P(\d)"', body, re.MULTILINE)
    if m:
        other = "P2" if m.group(1) == "1" else "P1"
        return body[: m.start()] + f'turn = "{other}"' + body[m.end() :], "turn"
    return "round = 99\n" + body, "round"


def _mutated(text: str) -> tuple[str, str]:
    m = _EXPECT.search(text)
    assert m, "a scenario must have an [expect] table"
    body, what = _mutate_expect(m.group(1))
    return text[: m.start(1)] + body + text[m.end(1) :], what


@pytest.mark.parametrize("path", SUITE_FILES, ids=lambda p: p.name)
def test_a_changed_expectation_fails(path: Path) -> None:
    """Changing one expectation of the base scenario makes its first check fail."""
    text = path.read_text(encoding="utf-8")
    assert check_scenario(parse_text(text, path.name))[0].outcome == "PASS"
    broken, what = _mutated(text)
    assert broken != text
    results = check_scenario(parse_text(broken, path.name))
    assert results[0].outcome == "FAIL", f"{path.name}: changing `{what}` went unnoticed"


def test_the_mutations_mostly_change_outcomes() -> None:
    """Most files are mutated in an outcome (round_over, winners, error), not a fallback."""
    kinds = [_mutated(p.read_text(encoding="utf-8"))[1] for p in SUITE_FILES]
    outcome = sum(k in {"round_over", "game_over", "winners", "error"} for k in kinds)
    assert outcome * 2 >= len(kinds), kinds


@pytest.mark.parametrize(
    "name",
    ["r13-tie-residual.toml", "d03-showdown-tie.toml", "d29-bishop-princess-count.toml"],
)
def test_a_changed_variant_winner_fails(name: str) -> None:
    """The variants are checked too: giving a variant the base's winners makes it fail."""
    path = next(p for p in SUITE_FILES if p.name == name)
    text = path.read_text(encoding="utf-8")
    results = check_scenario(parse_text(text, name))
    assert all(r.outcome == "PASS" for r in results)
    head, sep, tail = text.partition("[[variant]]")
    assert sep
    base = re.search(r"^winners = (\[.*?\])", head, re.MULTILINE)
    assert base
    tail2 = re.sub(r"winners = \[.*?\]", f"winners = {base.group(1)}", tail)
    assert tail2 != tail
    changed = check_scenario(parse_text(head + sep + tail2, name))
    assert any(r.outcome == "FAIL" and r.variant is not None for r in changed)
