"""A Hypothesis state machine that plays whole Love Letter matches and checks every invariant.

``make_machine(preset, players)`` returns a :class:`RuleBasedStateMachine` subclass:

* ``start`` (initialize): a new match with a drawn first starter and drawn tokens below the
  threshold (so matches also end within a short run);
* ``step``: one dispatching rule: at a decision it draws one of ``legal_actions``, at a
  chance node one of the outcomes (``sampled_from`` over the outcomes in a fixed order); it
  also tries one action drawn from :func:`~loveformal.testing.invariants.candidate_actions`
  and checks that it is accepted exactly when legal (``rejection_explained``);
* ``restart_when_over``: always enabled; starts a fresh match once the match is over;
* one ``@invariant()`` per property of :mod:`loveformal.testing.invariants`, named after it.

Use it as ``TestX = make_machine("classic", 2).TestCase`` (with ``settings`` from a profile),
or with :func:`hypothesis.stateful.run_state_machine_as_test`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from loveformal.actions import Action, BishopRedraw, ChancellorReturn, Draw, Play, Starter
from loveformal.cards import Card
from loveformal.engine import apply, chance_outcomes, is_terminal, legal_actions, new_match
from loveformal.rulebook import make_ruleset
from loveformal.ruleset import Ruleset
from loveformal.state import CHANCE_PHASES, Phase, State
from loveformal.testing import invariants as inv

__all__ = ["LoveLetterMachine", "make_machine", "outcome_key", "probe_actions"]


def outcome_key(action: Action) -> tuple[int, int]:
    """A total order on chance outcomes (draws by card, then starters by seat)."""
    if isinstance(action, Draw):
        return (0, action.card.index)
    if isinstance(action, Starter):
        return (1, action.seat)
    raise TypeError(f"{action!r} is not a chance outcome")


def probe_actions(state: State) -> st.SearchStrategy[Action]:
    """Actions drawn from the space of :func:`~loveformal.testing.invariants.candidate_actions`
    (legal or not): plays of any card of the edition with any target, guess or seat set, any
    Chancellor return, Bishop choice, draw or starter."""
    return _probe_strategy(state.rules, state.players)


@cache
def _probe_strategy(rules: Ruleset, n: int) -> st.SearchStrategy[Action]:
    kinds = [s.card for s in rules.edition.cards]
    seat = st.integers(-1, n)
    guesses: list[Card | int | None] = [None, *Card, *range(-1, 11)]
    single = st.builds(
        Play, st.sampled_from(kinds), st.none() | seat, st.just(()), st.sampled_from(guesses)
    )
    multi = st.builds(
        Play,
        st.sampled_from(kinds),
        st.none(),
        st.lists(st.integers(0, n - 1), max_size=3).map(tuple),
        st.none(),
        st.none() | seat,
    )
    cards = st.sampled_from(sorted(Card, key=lambda c: c.index))
    chancellor = st.builds(ChancellorReturn, cards, st.lists(cards, max_size=3).map(tuple))
    other: st.SearchStrategy[Action] = st.one_of(
        st.builds(BishopRedraw, st.booleans()),
        st.builds(Draw, cards),
        st.builds(Starter, seat),
    )
    return st.one_of(single, multi, chancellor, other)


def _ok(violations: list[str]) -> None:
    assert not violations, "\n".join(violations)


class LoveLetterMachine(RuleBasedStateMachine):
    """Plays matches of one ruleset and player count; see the module docstring."""

    preset: str = "classic"
    players: int = 2
    overrides: dict[str, object] | None = None

    def __init__(self) -> None:
        super().__init__()
        self.ruleset = make_ruleset(self.preset, self.overrides)
        self.state: State = new_match(self.ruleset, self.players)
        self.last: tuple[State, State, Action, State] | None = None
        """``(before, deep copy of before, action, after)`` of the last transition."""
        self.probe: list[str] = []
        """Violations found by the last probe of ``rejection_explained``."""
        self.round_start_bound: int | None = None
        self.turns_this_round = 0
        self._checked: dict[str, State] = {}
        self.matches = 0

    # ----------------------------------------------------------------- rules

    def _fresh(self, starter: int, tokens: list[int]) -> None:
        state = new_match(self.ruleset, self.players, starter)
        seats = tuple(s._replace(tokens=t) for s, t in zip(state.seats, tokens, strict=True))
        self.state = state._replace(seats=seats)
        self.last = None
        self.probe = []
        self.round_start_bound = None
        self.turns_this_round = 0
        self.matches += 1

    def _draw_fresh(self, data: st.DataObject) -> None:
        goal = inv.threshold(self.state)
        starter = data.draw(st.integers(0, self.players - 1), label="starter")
        tokens = data.draw(
            st.lists(st.integers(0, goal - 1), min_size=self.players, max_size=self.players),
            label="tokens",
        )
        self._fresh(starter, tokens)

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self._draw_fresh(data)

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """One move: a legal decision, or a chance outcome (a fresh match once it is over)."""
        state = self.state
        if is_terminal(state):
            self._draw_fresh(data)
            return
        if state.phase in CHANCE_PHASES:
            outcomes = sorted((o for o, _ in chance_outcomes(state)), key=outcome_key)
            action: Action = data.draw(st.sampled_from(outcomes), label="outcome")
        else:
            action = data.draw(st.sampled_from(legal_actions(state)), label="decision")
        probe = data.draw(probe_actions(state), label="probe")
        self.probe = inv.rejection_explained(state, probe)
        before_copy = inv.snapshot(state)
        after = apply(state, action)
        self.last = (state, before_copy, action, after)
        self.state = after
        if after.phase is Phase.TURN_DRAW and state.phase is Phase.DEAL:
            self.round_start_bound = inv.turns_left_bound(after)
            self.turns_this_round = 0
        if state.phase is Phase.TURN_DRAW:
            self.turns_this_round += 1

    @rule(data=st.data())
    def restart_when_over(self, data: st.DataObject) -> None:
        """Always enabled: once the match is over, a fresh one starts."""
        if is_terminal(self.state):
            self._draw_fresh(data)

    # ----------------------------------------------------------------- invariants

    def _once(self, name: str, check: Callable[[State], list[str]]) -> None:
        """Run a state check once per state (no-op rules do not re-run it)."""
        if self._checked.get(name) is self.state:
            return
        _ok(check(self.state))
        self._checked[name] = self.state

    def _transition(self, check: Callable[[State, Action, State], list[str]]) -> None:
        if self.last is not None and self.last[3] is self.state:
            before, _, action, after = self.last
            _ok(check(before, action, after))

    @invariant()
    def card_conservation(self) -> None:
        self._once("card_conservation", inv.card_conservation)

    @invariant()
    def one_princess(self) -> None:
        self._once("one_princess", inv.one_princess)

    @invariant()
    def hand_sizes(self) -> None:
        self._once("hand_sizes", inv.hand_sizes)

    @invariant()
    def out_seats_consistent(self) -> None:
        self._once("out_seats_consistent", inv.out_seats_consistent)

    @invariant()
    def protection_expires(self) -> None:
        self._once("protection_expires", inv.protection_expires)

    @invariant()
    def player_to_act(self) -> None:
        self._once("player_to_act", inv.player_to_act)

    @invariant()
    def legal_actions_chosen_seats(self) -> None:
        self._once("legal_actions_chosen_seats", inv.legal_actions_chosen_seats)

    @invariant()
    def legal_actions_apply(self) -> None:
        self._once("legal_actions_apply", inv.legal_actions_apply)

    @invariant()
    def chance_probabilities(self) -> None:
        self._once("chance_probabilities", inv.chance_probabilities)

    @invariant()
    def terminal_absorbing(self) -> None:
        self._once("terminal_absorbing", inv.terminal_absorbing)

    @invariant()
    def match_end_at_threshold(self) -> None:
        self._once("match_end_at_threshold", inv.match_end_at_threshold)

    @invariant()
    def action_legal(self) -> None:
        self._transition(lambda b, act, a: inv.action_legal(b, act))

    @invariant()
    def chosen_seats_legal(self) -> None:
        self._transition(lambda b, act, a: inv.chosen_seats_legal(b, act))

    @invariant()
    def deterministic(self) -> None:
        self._transition(inv.deterministic)

    @invariant()
    def tokens_monotone(self) -> None:
        self._transition(lambda b, act, a: inv.tokens_monotone(b, a))

    @invariant()
    def round_progress(self) -> None:
        self._transition(lambda b, act, a: inv.round_progress(b, a))

    @invariant()
    def round_ends_within_bound(self) -> None:
        """The turns a round has taken never exceed its turns-left bound at its first turn."""
        bound = self.round_start_bound
        if bound is not None:
            assert self.turns_this_round <= bound, (
                f"round bound: {self.turns_this_round} turns, bound {bound}"
            )

    @invariant()
    def input_unchanged(self) -> None:
        if self.last is not None and self.last[3] is self.state:
            before, before_copy, _, _ = self.last
            _ok(inv.input_unchanged(before_copy, before))

    @invariant()
    def rejection_explained(self) -> None:
        _ok(self.probe)


def make_machine(
    preset: str, players: int, overrides: dict[str, object] | None = None
) -> type[LoveLetterMachine]:
    """A :class:`LoveLetterMachine` subclass for ``preset`` with ``players`` players (and
    option ``overrides``), named e.g. ``LoveLetter_classic_2``."""
    make_ruleset(preset, overrides).deck(players)  # fail early on an impossible combination
    name = f"LoveLetter_{preset.replace('-', '_')}_{players}"
    attrs: dict[str, Any] = {"preset": preset, "players": players, "overrides": overrides}
    machine = type(name, (LoveLetterMachine,), attrs)
    return machine
