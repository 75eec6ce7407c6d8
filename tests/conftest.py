"""Hypothesis profiles for the test suite.

* ``ci`` — loaded when the environment variable ``CI`` is set: derandomized, no deadline,
  no example database, modest example and step counts (the stateful tests of every preset
  and player count then run in well under 3 minutes on 2 cores). The stateful tests take
  :func:`stateful_settings`, which under ``ci`` drops **shrinking**: a stateful failure
  shrinks for up to Hypothesis' 5-minute cap per test class, and one engine bug fails many
  classes at once. A failure prints its reproduction blob; rerun it under ``dev`` to shrink.
* ``dev`` — the default: the same budget, randomized, with the local example database.
* ``thorough`` — long runs: ``HYPOTHESIS_PROFILE=thorough pytest tests/test_stateful.py``.

``HYPOTHESIS_PROFILE`` names the profile explicitly and wins over ``CI``.

Every test runs without ``COLUMNS`` and ``LINES`` in its environment: the command line's
tables then take their width for output through a pipe (160 columns), whatever terminal
the suite is run from. pytest-xdist's workers, which ``make test`` uses, set both to the
terminal's size, 80 × 24 when there is none.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings

_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=15,
    stateful_step_count=60,
    suppress_health_check=_SUPPRESS,
    print_blob=True,
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=15,
    stateful_step_count=60,
    suppress_health_check=_SUPPRESS,
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=400,
    stateful_step_count=150,
    suppress_health_check=_SUPPRESS,
)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def stateful_settings() -> settings:
    """The loaded profile's settings for state machines (no shrinking under ``ci``)."""
    if PROFILE == "ci":
        return settings(settings.default, phases=[Phase.explicit, Phase.reuse, Phase.generate])
    return settings(settings.default)


@pytest.fixture(autouse=True)
def _no_terminal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``COLUMNS`` or ``LINES`` during a test (see the module docstring)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
