"""``loveformal prove``: the obligation table, JSON output, and the exit status."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import loveformal.proofs.cli as prove_cli
from loveformal.cli import app
from loveformal.proofs.obligations import ObligationResult


def test_prove_fast_tier_for_one_preset_passes_with_json() -> None:
    result = CliRunner().invoke(app, ["prove", "--preset", "z2019", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["ok"] is True and doc["tier"] == "fast"
    assert doc["results"] and all(r["status"] == "proved" for r in doc["results"])
    names = {r["invariant"] for r in doc["results"]}
    assert {"card conservation", "hand sizes"} <= names or len(names) > 5


def test_prove_exits_1_when_an_obligation_is_not_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    planted = ObligationResult(
        "classic", 2, "play Baron", "knock-outs justified", "vacuous", 0.0, 1
    )

    def fake_prove(*args: object, **kwargs: object) -> list[ObligationResult]:
        return [planted]

    monkeypatch.setattr(prove_cli, "prove", fake_prove)
    result = CliRunner().invoke(app, ["prove", "--preset", "classic"])
    assert result.exit_code == 1
    assert "vacuous" in result.output


def test_prove_unknown_preset_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["prove", "--preset", "clasic"])
    assert result.exit_code == 2
    assert "clasic" in result.output


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--seed", "-1", "greater than or equal to 0"),
        ("--seed", "4294967296", "less than or equal to 4294967295"),
        ("--timeout-ms", "4294967296", "less than or equal to 4294967295"),
    ],
)
def test_prove_refuses_values_z3_would_ignore(option: str, value: str, message: str) -> None:
    """Z3's seed and time-out are unsigned 32-bit: outside, it warned on stderr and used its
    default, while the run reported success."""
    result = CliRunner().invoke(app, ["prove", "--preset", "classic", option, value])
    assert result.exit_code == 2
    assert message in result.output
