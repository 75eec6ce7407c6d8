"""Golden replays: seeded random play, every step's action, events and resulting position,
compared with files under ``tests/golden/``. Any change of behaviour shows up as a diff.

Regenerate after an *intended* rules change with::

    LOVEFORMAL_REGEN_GOLDEN=1 .venv/bin/python -m pytest -q tests/test_golden_replays.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from loveformal.engine import is_terminal, new_match
from loveformal.notation import format_position
from loveformal.observation import event_text
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = [
    ("classic", 2),
    ("classic", 4),
    ("premium", 6),
    ("z2019", 3),
    ("z2019-classic", 2),
    ("bga-help", 8),
    ("cn-wiki", 5),
]
STEPS = 120


def replay(preset: str, players: int, seed: int = 7) -> str:
    """The text of a seeded random replay: one block per step."""
    rng = random.Random(f"{seed}:{preset}:{players}")
    state = new_match(make_ruleset(preset), players)
    lines = [f"# {preset} {players} players, seed {seed}", format_position(state)]
    for i in range(STEPS):
        if is_terminal(state):
            break
        seen = len(state.log)
        before_round = state.round
        state, action = random_step(state, rng)
        lines.append(f"{i + 1}. {action}")
        events = state.log if state.round != before_round else state.log[seen:]
        lines.extend(f"   {event_text(e)}" for e in events)
        lines.append(f"   = {format_position(state)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_golden_replay(preset: str, players: int) -> None:
    path = GOLDEN / f"replay-{preset}-{players}p.txt"
    text = replay(preset, players)
    if os.environ.get("LOVEFORMAL_REGEN_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; regenerate (see module docstring)"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        exp_lines, got_lines = expected.splitlines(), text.splitlines()
        for n, (e, g) in enumerate(zip(exp_lines, got_lines, strict=False), 1):
            if e != g:
                pytest.fail(f"{path.name} line {n} differs:\n expected: {e}\n got:      {g}")
        pytest.fail(f"{path.name}: {len(exp_lines)} lines expected, {len(got_lines)} produced")


def test_golden_replays_catch_a_changed_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a planted rule change (the Handmaid protects nobody) changes a replay."""
    import loveformal.effects as effects
    from loveformal.cards import Card

    monkeypatch.setitem(effects.EFFECTS, Card.HANDMAID, effects.no_effect)
    changed = [
        (preset, players)
        for preset, players in CASES
        if replay(preset, players)
        != (GOLDEN / f"replay-{preset}-{players}p.txt").read_text(encoding="utf-8")
    ]
    assert len(changed) >= 3, changed
