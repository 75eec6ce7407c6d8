"""Reusable test machinery: invariant checks and a Hypothesis state machine.

* :mod:`loveformal.testing.invariants` — pure property checks returning violation messages.
* :mod:`loveformal.testing.stateful` — ``make_machine(preset, players)``: a
  ``RuleBasedStateMachine`` playing whole matches and checking every invariant.
"""

from loveformal.testing.invariants import INVARIANTS, check_state, check_transition

__all__ = ["INVARIANTS", "check_state", "check_transition"]
