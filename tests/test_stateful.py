"""Hypothesis stateful tests: whole matches of every preset at every player count, with
every invariant of :mod:`loveformal.testing.invariants` checked after each step.

One ``TestCase`` per configuration, e.g. ``TestStateful_classic_2``; the example budget comes
from the Hypothesis profile chosen in ``tests/conftest.py``.
"""

from __future__ import annotations

from loveformal.rulebook import make_ruleset, preset_names
from loveformal.testing.invariants import INVARIANTS
from loveformal.testing.stateful import LoveLetterMachine, make_machine
from tests.conftest import stateful_settings

CONFIGS: tuple[tuple[str, int], ...] = tuple(
    (preset, n)
    for preset in preset_names()
    for n in range(make_ruleset(preset).min_players, make_ruleset(preset).max_players + 1)
)

for _preset, _players in CONFIGS:
    _case = make_machine(_preset, _players).TestCase
    _case.settings = stateful_settings()
    _name = f"TestStateful_{_preset.replace('-', '_')}_{_players}"
    _case.__name__ = _case.__qualname__ = _name
    globals()[_name] = _case
del _case


def test_every_preset_and_player_count_has_a_machine() -> None:
    names = {f"TestStateful_{p.replace('-', '_')}_{n}" for p, n in CONFIGS}
    assert names <= set(globals())
    assert ("classic", 2) in CONFIGS and ("premium", 8) in CONFIGS and ("z2019", 6) in CONFIGS


def test_machine_has_one_invariant_per_property() -> None:
    for name in INVARIANTS:
        assert callable(getattr(LoveLetterMachine, name, None)), name


def test_settings_come_from_the_profile() -> None:
    from hypothesis import Phase, settings

    case = globals()["TestStateful_classic_2"]
    default = settings.default
    assert default is not None
    assert case.settings.max_examples == default.max_examples
    assert case.settings.stateful_step_count == default.stateful_step_count
    if default.derandomize:  # the ci profile
        assert Phase.shrink not in case.settings.phases
