"""A user's prior over the root deals and a user's opponent models (API and ``loveformal
solve --prior / --opponents``). OpenSpiel checks both independently
(``tests/test_openspiel.py``)."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from typer.testing import CliRunner

from loveformal import cli
from loveformal.actions import Action, Play
from loveformal.cards import Card
from loveformal.engine import new_match
from loveformal.errors import MalformedInput
from loveformal.knowledge import knowledge_table
from loveformal.notation import parse_position
from loveformal.observation import Observation
from loveformal.rulebook import make_ruleset
from loveformal.sampling import random_step
from loveformal.solver.analysis import EndgameResult, ObservationModel, Opponents, solve_position
from loveformal.solver.endgame import Deal, build_endgame, enumerate_deals
from loveformal.solver.expectimax import exact_number, user_number, user_weights
from loveformal.solver.pimc import minimax_values
from loveformal.solver.plugins import load_function
from loveformal.state import Phase, State
from tests.support import guards_naming_known_cards, priest_seen_by_another

from .test_endgame import D, endgame

# Classic, three players all still in, one card left, P3 to play.
THREE = (
    "classic 3p r1 start:P1 | P1 Princess d:Guard*2,Prince t0 | "
    "P2 Handmaid d:Prince,Priest,Countess,Guard t0 | P3 Baron,King d:Priest,Guard*2 t0 | "
    "deck - / Baron | aside Handmaid | up - | play P3"
)

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(cli.app, list(args))


def _same(a: EndgameResult, b: EndgameResult) -> None:
    assert a.value == b.value and a.bracket == b.bracket
    assert [(x.action, x.probability, x.value) for x in a.actions] == [
        (x.action, x.probability, x.value) for x in b.actions
    ]


# ----------------------------------------------------------------------------- the prior


def test_a_prior_proportional_to_the_arrangements_changes_nothing() -> None:
    state = endgame("classic", 2, 3)
    uniform = solve_position(state, pimc=False, reduce=True)
    scaled = solve_position(state, prior=lambda s, n: 3 * n, pimc=False, reduce=True)
    _same(uniform, scaled)
    assert any("weighted by the given prior" in n for n in scaled.notes)
    assert not any("prior" in n for n in uniform.notes)
    assert uniform.prior is None and uniform.to_json()["prior"] is None
    assert scaled.prior is not None and "lambda" in scaled.prior


def test_a_prior_on_one_deal_is_that_deal_solved_face_up() -> None:
    """All weight on one deal: every seat knows every card but the order of the pile, so the
    equilibrium value is that deal's perfect-information value (chance averaged) — computed
    here by the determinized solver on the uniform tree, an independent code path."""
    state = parse_position(D)
    game = build_endgame(state, merge_dead_guesses=True).game
    children = [int(c) for c in game.edge_child[game.child_start[0] : game.child_start[1]]]
    face_up = minimax_values(game, [0, *children])
    deals = enumerate_deals(state)
    assert len({face_up[c] for c in children}) > 1  # the deals differ: the test can fail
    for deal, child in zip(deals, children, strict=True):

        def only(s: State, n: int, deal: Deal = deal) -> int:
            hands = tuple(seat.hand for seat in s.seats)
            return n if (hands, s.set_aside) == (deal.hands, deal.set_aside) else 0

        for reduce in (True, False):
            r = solve_position(state, prior=only, pimc=False, reduce=reduce)
            assert r.sizes.deals == 1 and r.exploitability == 0
            assert r.value == face_up[child]


def test_a_prior_that_rules_out_the_seats_hand_leaves_no_action_table() -> None:
    state = parse_position(D)  # P1 holds Guard, Guard

    def no_double_guard(s: State, n: int) -> int:
        return 0 if s.seats[0].hand == state.seats[0].hand else n

    r = solve_position(state, prior=no_double_guard, pimc=False)
    assert r.actions == () and r.value is not None and r.exploitability == 0
    assert any("actual hand (Guard, Guard) probability 0" in n for n in r.notes)
    other = solve_position(state, seat=1, prior=no_double_guard, pimc=False)
    assert other.value == -r.value  # zero-sum: the same game seen from P2


def _contradicted_state() -> State:
    """A 2-player classic state reached by play in which P2 knows a card P1 holds, then that
    card swapped with the set-aside card (of another kind): P1, to play, holds a hand no
    consistent deal gives it."""
    seed = 0
    while True:
        rng = random.Random(seed)
        s = new_match(make_ruleset("classic"), 2)
        while not s.round_over:
            known = knowledge_table(s, 1)[0] if s.phase is Phase.PLAY else ()
            if s.turn == 0 and s.pile.size <= 2 and len(known) == 1:
                (card,) = known
                hand = list(s.seats[0].hand)
                aside = s.set_aside
                if aside is not None and aside is not card and hand.count(card) == 1:
                    hand[hand.index(card)] = aside
                    seats = (s.seats[0]._replace(hand=tuple(hand)), *s.seats[1:])
                    return s._replace(seats=seats, set_aside=card)
                break
            s, _ = random_step(s, rng)
        seed += 1


def test_a_prior_does_not_hide_a_contradictory_position() -> None:
    state = _contradicted_state()
    for prior in (None, lambda s, n: n):
        with pytest.raises(MalformedInput, match="own deal is not among the consistent deals"):
            solve_position(state, prior=prior, pimc=False)


def test_a_one_argument_prior_is_told_the_signature() -> None:
    with pytest.raises(MalformedInput, match=r"prior\(deal_state, arrangements\).*one argument"):
        solve_position(parse_position(D), prior=cast(Any, lambda s: 1), pimc=False)


def test_a_prior_sees_each_deal_once_with_its_uniform_weight() -> None:
    state = parse_position(D)
    seen: list[tuple[object, int]] = []

    def record(s: State, n: int) -> int:
        seen.append(((tuple(seat.hand for seat in s.seats), s.set_aside), n))
        assert not s.log
        return n

    deals = enumerate_deals(state, prior=record)
    assert deals == enumerate_deals(state)
    assert seen == [((d.hands, d.set_aside), int(d.weight)) for d in deals]


@pytest.mark.parametrize(
    "weight",
    [0.3, np.float64(0.3), np.float32(0.3), Decimal("0.3"), Fraction(3, 10)],
)
def test_a_weight_is_read_exactly_as_it_prints(weight: Any) -> None:
    deals = enumerate_deals(parse_position(D), prior=lambda s, n: weight)
    assert {d.weight for d in deals} == {Fraction(3, 10)}


def test_floats_are_read_as_the_fraction_they_stand_for() -> None:
    """The LP's floats (and the floats of a policy over information-set keys)."""
    assert exact_number(1 / 3, "w") == Fraction(1, 3)
    assert exact_number(0.1 + 0.2, "w") == Fraction(3, 10)
    assert exact_number(np.float32(0.3), "w") == Fraction(3, 10)  # as it prints: 0.3
    pi = exact_number(3.141592653589793, "w")  # no simple fraction: the 2^-64 grid, where
    assert pi == Fraction(3.141592653589793)  # this float lies (its denominator is 2^48)
    tiny = exact_number(1e-30, "w")  # its nearest fraction with a 9-digit denominator: 0
    assert tiny == 0


def test_a_users_float_that_stands_for_no_simple_fraction_is_read_as_it_prints() -> None:
    """A prior's weights and an opponent model's probabilities, read by their size: the
    simple fraction the float stands for at its power of ten, else the decimal it prints
    as, exactly — never 0 for a positive float, nor rounded to the LP's 2^-64 grid."""
    assert user_number(1 / 3, "w") == Fraction(1, 3)
    assert user_number(0.1 + 0.2, "w") == Fraction(3, 10)
    assert user_number(2.0, "w") == 2 and user_number(0.0, "w") == 0
    assert user_number(2e-10, "w") == Fraction(1, 5 * 10**9)  # exact_number: 0
    assert user_number(3 * 2e-10, "w") == Fraction(3, 5 * 10**9)  # 6.000000000000001e-10
    assert user_number(1e-11 / 3, "w") == Fraction(1, 3 * 10**11)
    assert user_number(5e-324, "w") == Fraction("5e-324")
    assert user_number(0.1234567, "w") == Fraction(1234567, 10**7)  # exact_number: the grid
    assert user_number(3.141592653589793, "w") == Fraction("3.141592653589793")
    assert user_number(np.float32(2e-10), "w") == Fraction(1, 5 * 10**9)  # as it prints
    assert user_number(Fraction(1, 7), "w") == Fraction(1, 7)
    assert user_number(0.3 - 0.1 - 0.2, "w") == 0  # -2.8e-17: float noise, as before
    with pytest.raises(MalformedInput, match="is negative"):
        user_number(-2e-9, "w")


def test_float_noise_in_a_models_answer_is_0_at_any_scale() -> None:
    """``1 - 0.7 - 0.2 - 0.1`` is 2.8e-17: next to weights of 0.1 and more it is noise, read
    as 0 (so it may even go to an action that is not legal), while 2e-10 next to 6e-10 is a
    weight."""
    assert user_weights([0.7, 0.2, 0.1, 1 - 0.7 - 0.2 - 0.1], "abcd") == [
        Fraction(7, 10),
        Fraction(1, 5),
        Fraction(1, 10),
        0,
    ]
    assert user_weights([6e-10, 2e-10, 0.3 - 0.1 - 0.2], "abc") == [
        Fraction(3, 5 * 10**9),
        Fraction(1, 5 * 10**9),
        0,
    ]
    assert user_weights([Fraction(1), 1e-13], "ab") == [1, 0]
    assert user_weights([10**400, 1.0], "ab") == [10**400, 0]  # compared exactly: no overflow
    with pytest.raises(MalformedInput, match=r"b: -0\.1 is negative"):
        user_weights([1.0, -0.1], "ab")

    def noisy(obs: Observation, legal: tuple[Action, ...]) -> dict[object, float]:
        rest = 1 - 0.7 - 0.2 - 0.1  # 2.8e-17
        return {
            legal[0]: 0.7,
            "play Nothing": rest,
            **{a: 0.3 / (len(legal) - 1) for a in legal[1:]},
        }

    state = parse_position(THREE)
    r = solve_position(state, opponents=ObservationModel("noisy", noisy), pimc=False)

    def clean(obs: Observation, legal: tuple[Action, ...]) -> dict[object, float]:
        return {legal[0]: 0.7, **{a: 0.3 / (len(legal) - 1) for a in legal[1:]}}

    _same(r, solve_position(state, opponents=ObservationModel("clean", clean), pimc=False))


TWO_LEFT = (
    "classic 2p r1 start:P1 | P1 Baron,Handmaid d:Guard*3 t0 | "
    "P2 Priest d:Prince,Handmaid,Guard,Prince t0 | deck - / Guard,Princess | aside King | "
    "up Priest,Baron,Countess | play P1"
)


def _thrice_if_high(s: State, n: int) -> int:
    """Deals where P2 holds a card worth 5 or more weigh three times as much."""
    return n * (3 if s.rules.value(s.seats[1].hand[0]) >= 5 else 1)


@pytest.mark.parametrize("scale", [2e-10, 2e-9, 1e-300, 0.7])
def test_float_weights_scaled_alike_give_the_same_answer(scale: float) -> None:
    """Only the ratios of a prior's weights count: the weights times a float give the exact
    answer of the integer weights. (Before: 2e-10 and 1e-300 read as 0, which left out
    deals or refused the prior, and 2e-9 rounded to the 2^-64 grid, off the 1 : 3.)"""
    state = parse_position(TWO_LEFT)
    exact = solve_position(state, prior=_thrice_if_high, pimc=False)
    scaled = solve_position(state, prior=lambda s, n: _thrice_if_high(s, n) * scale, pimc=False)
    assert exact.value != solve_position(state, pimc=False).value  # the prior matters
    _same(exact, scaled)


def test_integer_weights_of_any_kind() -> None:
    weights: list[Any] = [3, np.int64(3), np.uint8(3), Fraction(6, 2)]
    for weight in weights:

        def constant(s: State, n: int, w: Any = weight) -> Any:
            return w

        deals = enumerate_deals(parse_position(D), prior=constant)
        assert {d.weight for d in deals} == {Fraction(3)}


@pytest.mark.parametrize(
    ("prior", "message"),
    [
        (lambda s, n: -1, "weight: -1 is negative"),
        (lambda s, n: "x", "weight: expected a number >= 0"),
        (lambda s, n: True, "weight: expected a number >= 0"),
        (lambda s, n: np.bool_(True), "weight: expected a number >= 0"),
        (lambda s, n: None, "weight: expected a number >= 0"),
        (lambda s, n: 1j, "weight: 1j is not a number >= 0"),
        (lambda s, n: float("nan"), "is not finite"),
        (lambda s, n: np.float64("inf"), "is not finite"),
        (lambda s, n: Decimal("NaN"), "is not finite"),
        (lambda s, n: 1 / 0, "raised ZeroDivisionError"),
        (lambda s, n: sys.exit(5), "raised SystemExit: 5"),
        (lambda s, n: 0, "weight 0 to every one of the 4 deals"),
        (lambda s, n: _Unshowable(), "expected a number >= 0 .*got <a _Unshowable that cannot"),
    ],
)
def test_a_bad_prior_is_refused_naming_the_deal(
    prior: Callable[[State, int], Any], message: str
) -> None:
    with pytest.raises(MalformedInput, match=message) as caught:
        solve_position(parse_position(D), prior=prior, pimc=False)
    if "every one" not in message:
        assert "the prior, for the deal P1:" in str(caught.value)


# ----------------------------------------------------------------------------- opponent models


def _uniform(obs: Observation, legal: tuple[Action, ...]) -> dict[Action, int]:
    return {a: 1 for a in legal}


def _uniform_by_text(obs: Observation, legal: tuple[Action, ...]) -> dict[str, float]:
    return {str(a).upper(): 0.25 for a in legal}  # weights, normalised; text in any case


def _first(obs: Observation, legal: tuple[Action, ...]) -> Action:
    return legal[0]


def _first_by_mapping(obs: Observation, legal: tuple[Action, ...]) -> dict[Action, Fraction]:
    return {legal[0]: Fraction(1), **{a: Fraction(0) for a in legal[1:]}}


def _first_thrice(scale: float) -> ObservationModel:
    def choose(obs: Observation, legal: tuple[Action, ...]) -> dict[Action, float]:
        return {a: (3.0 if i == 0 else 1.0) * scale for i, a in enumerate(legal)}

    return ObservationModel(f"first thrice x{scale}", choose)


@pytest.mark.parametrize("scale", [2e-10, 1e-320, 0.7])
def test_an_opponent_models_weights_scaled_alike_give_the_same_answer(scale: float) -> None:
    """An opponent model's weights are normalised per information set: times a float they
    give the exact answer of 3 : 1 : 1... (Before: 2e-10 was read as 0, which made the
    first action the only one, and 1e-320 was refused as "every probability is 0".)"""
    state = parse_position(THREE)
    exact = solve_position(state, opponents=_first_thrice(1.0), pimc=False)
    assert exact.value != solve_position(state, opponents="random", pimc=False).value
    _same(exact, solve_position(state, opponents=_first_thrice(scale), pimc=False))


@pytest.mark.parametrize("text", [THREE, D])
def test_a_uniform_observation_model_is_the_random_model(text: str) -> None:
    state = parse_position(text)
    random = solve_position(state, opponents="random", pimc=False)
    for fn in (_uniform, _uniform_by_text):
        _same(random, solve_position(state, opponents=ObservationModel("u", fn), pimc=False))


def test_seats_as_numpy_integers() -> None:
    state = parse_position(THREE)
    seats: Any = {np.int64(0): "random", np.int32(1): "random"}  # typed int in the API
    r = solve_position(state, opponents=seats)
    _same(solve_position(state, opponents="random"), r)


def test_models_per_seat() -> None:
    state = parse_position(THREE)
    random = solve_position(state, opponents="random", pimc=False)
    mixed: Opponents = {0: "random", 1: ObservationModel("u", _uniform)}
    r = solve_position(state, opponents=mixed, pimc=False)
    _same(random, r)
    assert r.opponents == "P1: random, P2: u"
    first = solve_position(state, opponents={0: "random", 1: ObservationModel("f", _first)})
    assert first.value != random.value  # the model is used, not ignored
    _same(
        first,
        solve_position(state, opponents={0: "random", 1: ObservationModel("g", _first_by_mapping)}),
    )


class _Seat:
    """A seat index of a user's own integer type."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __index__(self) -> int:
        return self.index


class _Unequal:
    def __eq__(self, other: object) -> bool:
        raise TypeError("no comparison")

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "unequal"


class _Unshowable:
    """An answer whose repr raises (found by fuzzing: the message then was a traceback)."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _Unreadable(dict[str, float]):
    """A mapping whose items() raises."""

    def items(self) -> Any:
        raise RuntimeError("no items")


class _BadFloat(float):
    """A float whose __float__ raises: its value is still read (float's own)."""

    def __float__(self) -> float:
        raise ValueError("nope")


def _returning(answer: object) -> Callable[[Observation, tuple[Action, ...]], object]:
    return lambda obs, legal: answer


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("play Nothing", r"'play Nothing' is not a legal action \(legal: play "),
        ({"play Princess": -1}, "probability of play Princess: -1 is negative"),
        ({"play Princess": "1"}, "expected a number"),
        ({"play Princess": 0}, "every probability is 0"),
        ({"play Princess": 1, "PLAY princess": 1}, "play Princess is given twice"),
        ({"play Princess": 1, "play Nothing": 0.5}, "'play Nothing' is not a legal action"),
        ({"play Princess": np.float64("nan")}, "probability of play Princess: .* not finite"),
        (3, "3 is not a legal action"),
        (None, "None is not a legal action"),
        (np.array([1, 2]), r"array\(\[1, 2\]\) is not a legal action"),
        (_Unequal(), "unequal is not a legal action"),
        (_Unshowable(), "<a _Unshowable that cannot be shown> is not a legal action"),
        (_Unreadable(), r"answer \(a _Unreadable\) cannot be read .*RuntimeError: 'no items'"),
        (
            {"play Nothing": _Unshowable()},
            "probability of 'play Nothing': expected a number .*got <a _Unshowable",
        ),
        ("x" * 10_000, r"'xxx.*\.\.\. \(10002 characters\) is not a legal action"),
    ],
)
def test_a_bad_model_answer_is_refused_naming_the_seat(answer: object, message: str) -> None:
    model = ObservationModel("mine", _returning(answer))
    with pytest.raises(MalformedInput, match=message) as caught:
        solve_position(parse_position(THREE), opponents=model, pimc=False)
    assert "opponent model mine for P1 holding " in str(caught.value)


@pytest.mark.parametrize("error", [KeyError("nope"), SystemExit(3)])
def test_a_model_that_raises_is_refused(error: BaseException) -> None:
    def boom(obs: Observation, legal: tuple[Action, ...]) -> Action:
        raise error

    name = type(error).__name__
    with pytest.raises(MalformedInput, match=rf"model boom for P1 holding .*raised {name}"):
        solve_position(parse_position(THREE), opponents=ObservationModel("boom", boom))


def test_a_float_subclass_is_read_by_its_value() -> None:
    """Found by fuzzing: a float subclass whose ``__float__`` raised gave the bare message
    "nope"; its value is read without calling it."""
    assert exact_number(_BadFloat(0.25), "w") == Fraction(1, 4)


def test_probabilities_of_any_number_type_and_zeros_for_illegal_actions() -> None:
    state = parse_position(THREE)
    random = solve_position(state, opponents="random", pimc=False)

    def numpy_uniform(obs: Observation, legal: tuple[Action, ...]) -> dict[object, object]:
        weights: dict[object, object] = {a: np.float64(0.5) for a in legal}
        weights["play Nothing"] = 0  # not legal, probability 0: ignored
        return weights

    _same(random, solve_position(state, opponents=ObservationModel("n", numpy_uniform)))


# A 4-player 2019 position where P2 and P3 are out of the round.
TWO_OUT = (
    "z2019 4p r1 start:P1 | P1 Prince,Spy d:Baron,Chancellor*2,Guard t0 | P2 - d:Guard t0 out"
    " | P3 - d:Guard,Prince,Handmaid,Priest,Spy,Princess t0 out | P4 Guard d:Handmaid,Priest,"
    "Guard*2 t0 | deck Countess,Baron | aside King | up - | play P1"
)


def test_seats_out_of_the_round_need_no_model() -> None:
    state = parse_position(TWO_OUT)
    r = solve_position(state, opponents={3: ObservationModel("u", _uniform)}, pimc=False)
    _same(solve_position(state, opponents="random", pimc=False), r)
    assert r.opponents == "P4: u"


def test_a_model_for_the_seat_solved_for_is_left_unused() -> None:
    state = parse_position(THREE)
    models: Opponents = {0: "random", 1: "random", 2: ObservationModel("f", _first)}
    r = solve_position(state, opponents=models, pimc=False)
    _same(solve_position(state, opponents="random", pimc=False), r)
    assert any("model given for P3 is not used" in n for n in r.notes)


def test_a_plain_function_is_refused_with_what_to_do() -> None:
    state = parse_position(THREE)
    with pytest.raises(MalformedInput, match=r"only as ObservationModel\(name, function\)"):
        solve_position(state, opponents=cast(Any, _first))
    with pytest.raises(MalformedInput, match=r"P2: a policy function is called with an"):
        solve_position(state, opponents={0: "random", 1: cast(Any, _first)})


@pytest.mark.parametrize(
    ("opponents", "message"),
    [
        ({0: "random"}, "none given for P2"),
        ({0: "random", 2: "random"}, "none given for P2"),
        ({0: "random", 5: "random"}, "there is no seat 5"),
        ({0: "random", 1: "clever"}, "P2: unknown opponent model 'clever'"),
        ("clever", "unknown opponent model 'clever'"),
        ({True: "random", 2: "random"}, "there is no seat True"),
        ({0: "random", 1: 3}, "P2: 3 is not a model"),
        ({0: "random", 1: "random", _Seat(1): "random"}, "P2 is given twice"),
        (3, "3 is not a model"),
    ],
)
def test_bad_opponent_models_are_refused_before_building(
    opponents: Any, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import loveformal.solver.analysis as analysis

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("built")

    monkeypatch.setattr(analysis, "build_endgame", no_build)
    with pytest.raises(MalformedInput, match=message):
        solve_position(parse_position(THREE), opponents=opponents)


# ----------------------------------------------------------------------------- the command line

PLUGIN = """
from loveformal.actions import Play

def lowest(obs, legal):
    low = min(obs.rules.value(a.card) for a in legal if isinstance(a, Play))
    return {a: 1 for a in legal if isinstance(a, Play) and obs.rules.value(a.card) == low}

def uniform(obs, legal):
    return {str(a): 1 for a in legal}

def no_p2_princess(state, arrangements):
    return 0 if any(c.title == "Princess" for c in state.seats[1].hand) else arrangements

NOT_A_FUNCTION = 3
"""


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(PLUGIN)
    return path


def _lowest(obs: Observation, legal: tuple[Action, ...]) -> Mapping[Action, int]:
    low = min(obs.rules.value(a.card) for a in legal if isinstance(a, Play))
    return {a: 1 for a in legal if isinstance(a, Play) and obs.rules.value(a.card) == low}


def test_cli_opponents_from_a_file(plugin: Path) -> None:
    r = invoke("solve", THREE, "--opponents", f"{plugin}:lowest", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    expected = solve_position(parse_position(THREE), opponents=ObservationModel("x", _lowest))
    assert data["value_exact"] == str(expected.value)
    assert data["opponents"] == f"{plugin}:lowest" and data["prior"] is None
    assert data["method"] == f"exact best response against {plugin}:lowest"
    r = invoke("solve", THREE, "--opponents", f"P1=random,P2={plugin}:uniform", "--json")
    assert r.exit_code == 0, r.output
    random = solve_position(parse_position(THREE), opponents="random")
    assert json.loads(r.output)["value_exact"] == str(random.value)


def test_cli_prior_from_a_file(plugin: Path) -> None:
    r = invoke("solve", D, "--prior", f"{plugin}:no_p2_princess")
    assert r.exit_code == 0, r.output
    assert "exact value: -3/4" in r.output and "3 deals" in r.output
    assert f"\nprior over the deals: {plugin}:no_p2_princess\n" in r.output
    data = json.loads(invoke("solve", D, "--prior", f"{plugin}:no_p2_princess", "--json").output)
    assert data["prior"] == f"{plugin}:no_p2_princess" and data["value_exact"] == "-3/4"


def test_cli_paths_with_equals_signs_and_commas(tmp_path: Path) -> None:
    odd = tmp_path / "a=b,c"
    odd.mkdir()
    (odd / "mine.py").write_text(PLUGIN)
    random = solve_position(parse_position(THREE), opponents="random")
    for spec in (f"{odd}/mine.py:uniform", f"P1=random,P2={odd}/mine.py:uniform"):
        r = invoke("solve", THREE, "--opponents", spec, "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["value_exact"] == str(random.value)


def test_cli_user_code_imports_from_its_directory_and_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "neighbour_lf.py").write_text(
        "def weights(legal):\n    return {a: 1 for a in legal}\n"
    )
    (tmp_path / "uses_neighbour_lf.py").write_text(
        "import neighbour_lf\n\ndef uniform(obs, legal):\n    return neighbour_lf.weights(legal)\n"
    )
    monkeypatch.setattr(sys, "path", list(sys.path))  # the loader adds the directories
    random = solve_position(parse_position(THREE), opponents="random")
    r = invoke("solve", THREE, "--opponents", f"{tmp_path}/uses_neighbour_lf.py:uniform", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value_exact"] == str(random.value)
    here = tmp_path / "here"  # not the directory above, which the loader put on the path
    here.mkdir()
    (here / "in_cwd_lf.py").write_text(PLUGIN)
    monkeypatch.chdir(here)
    r = invoke("solve", THREE, "--opponents", "in_cwd_lf:uniform", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value_exact"] == str(random.value)


EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "opponent_models.py"


def test_the_documented_examples_run() -> None:
    r = invoke("solve", THREE, "--opponents", f"{EXAMPLES}:cautious", "--json")
    assert r.exit_code == 0, r.output
    cautious = ObservationModel("c", load_function(f"{EXAMPLES}:cautious", "--opponents"))
    expected = solve_position(parse_position(THREE), opponents=cautious)
    random = solve_position(parse_position(THREE), opponents="random")
    assert json.loads(r.output)["value_exact"] == str(expected.value) != str(random.value)
    r = invoke("solve", D, "--prior", f"{EXAMPLES}:p2_kept_a_high_card", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["exploitability"] == 0 and data["prior"].endswith(":p2_kept_a_high_card")
    assert data["value_exact"] != "-4/5"  # the uniform value: the prior matters here


def test_one_file_is_loaded_once(plugin: Path) -> None:
    first = load_function(f"{plugin}:lowest", "--opponents")
    again = load_function(f"{plugin}:uniform", "--opponents")
    assert sys.modules[first.__module__] is sys.modules[again.__module__]


def test_cli_loads_a_module_function() -> None:
    # Any importable module: this one's uniform model is the random model.
    r = invoke("solve", THREE, "--opponents", f"{__name__}:_uniform", "--json")
    assert r.exit_code == 0, r.output
    random = solve_position(parse_position(THREE), opponents="random")
    assert json.loads(r.output)["value_exact"] == str(random.value)


@pytest.mark.parametrize(
    ("option", "spec", "message"),
    [
        ("--opponents", "{dir}/absent.py:f", "no such file"),
        ("--opponents", "{dir}:f", "is a directory"),
        ("--opponents", "a" * 300 + ".py:f", "no such file a"),  # too long: OSError before
        ("--prior", "a" * 300 + ".txt:f", "cannot load a"),
        ("--opponents", "{plugin}:absent", "has no 'absent'"),
        ("--opponents", "{plugin}:NOT_A_FUNCTION", "is not a function"),
        ("--opponents", "{broken}:f", "cannot load .*SyntaxError"),
        ("--opponents", "{exits}:f", "cannot load .*SystemExit: 5"),
        ("--opponents", "{lazy}:f", "cannot load .*RuntimeError: no such name"),
        ("--opponents", "{parses}:f", "--opponents .*parses.py:f: cannot load .*MalformedInput"),
        ("--opponents", "no_such_module_xyz:f", "cannot load no_such_module_xyz: "),
        ("--opponents", "clever", "unknown model 'clever'"),
        ("--opponents", "P2=", "is not SEAT=MODEL"),
        ("--opponents", "P9=random", "unknown seat"),
        ("--opponents", "P1=random,P1=random", "P1 is given twice"),
        ("--opponents", "P2:random", "a seat's model is given as P2=random"),
        ("--prior", "{plugin}", "expected FILE.py:FUNCTION or MODULE:FUNCTION"),
        ("--prior", "{plugin}:lowest", "the prior, for the deal .*raised"),
    ],
)
def test_cli_bad_user_code_is_one_line(
    option: str, spec: str, message: str, plugin: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    exits = tmp_path / "exits.py"
    exits.write_text("import sys\nsys.exit(5)\n")
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def __getattr__(name):\n    raise RuntimeError('no such name')\n")
    parses = tmp_path / "parses.py"
    parses.write_text("from loveformal.notation import parse_position\nparse_position('x')\n")
    text = spec.format(
        dir=tmp_path, plugin=plugin, broken=broken, exits=exits, lazy=lazy, parses=parses
    )
    position = D if option == "--prior" else THREE
    r = invoke("solve", position, option, text)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    error = lines[0]
    assert error.startswith("loveformal: error: ")
    assert re.search(message, error), error


def test_a_best_response_does_not_know_what_only_other_seats_saw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Against models, the seat solved for reasons from what it has seen: P3 did not see P2's
    Princess, so naming it with a Guard hits as often as it names any one of the five cards
    it has not seen (1/5 here), not for sure, and the play is worth 0.19 to P3 (a round won
    against random play), not 0.57. (With two players the equilibrium's deals keep
    every seat's knowledge: what one seat saw of the other's hand, both know.)"""
    from loveformal.cards import Card
    from loveformal.solver import analysis
    from loveformal.solver.endgame import enumerate_deals as deals_of

    s = priest_seen_by_another()
    everyone = deals_of(s)
    assert {d.hands[1] for d in everyone} == {(Card.PRINCESS,)}
    p3 = deals_of(s, knower=2)
    p3_hand = [d for d in p3 if d.hands[2] == s.seats[2].hand]
    total = sum(d.weight for d in p3_hand)
    princess = sum(d.weight for d in p3_hand if d.hands[1] == (Card.PRINCESS,))
    assert princess / total == Fraction(1, 5)

    def value(r: EndgameResult) -> Fraction:
        return next(a.value for a in r.actions if a.text == "play Guard on P2 guessing Princess")

    fair = value(solve_position(s))
    # Planted bug: the deals keep what every seat saw; P3 then "knows" P2's Princess.
    real = build_endgame

    def leaky(*args: Any, **kwargs: Any) -> Any:
        kwargs["knower"] = None
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "build_endgame", leaky)
    leaked = value(solve_position(s))
    assert (fair, leaked) == (Fraction(1141, 6120), Fraction(41, 72))


def test_a_best_response_deal_carries_what_the_other_seats_knew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deals P3 cannot rule out leave the others' knowledge open, so each deal carries
    it: P2 knows the card the deal gives P1 (its Priest saw it), P3 does not. P1's Priest
    saw P2's card too, but P2 has played a card since, which P3 cannot tell apart from the
    one seen: that knowledge is left out. The heuristic opponents act on what is carried,
    which is worth 22021/45360 to P3; planted bug, deals without it: 3113/6480."""
    from loveformal.solver import endgame as eg_module
    from loveformal.solver.endgame import deal_state

    s = priest_seen_by_another()
    deals = enumerate_deals(s, knower=2)
    for d in deals:
        ds = deal_state(s, d)
        assert knowledge_table(ds, 0) == {1: (), 2: ()}
        assert knowledge_table(ds, 1) == {0: d.hands[0], 2: ()}
        assert knowledge_table(ds, 2) == {0: (), 1: ()}
    r = solve_position(s, seat=2, opponents="heuristic", pimc=False)
    assert r.actions  # P3's actual information set is found (its events' public forms)
    monkeypatch.setattr(eg_module, "_sights", lambda state, knower: {})
    blind_deals = enumerate_deals(s, knower=2)
    assert [(d.hands, d.weight) for d in blind_deals] == [(d.hands, d.weight) for d in deals]
    blind = solve_position(s, seat=2, opponents="heuristic", pimc=False)
    assert (r.value, blind.value) == (Fraction(22021, 45360), Fraction(3113, 6480))


def test_a_known_older_card_splits_the_deal_by_the_order_of_the_hand() -> None:
    """P2 knows P1's older card (its Priest saw the Handmaid), then P3's Guard missed naming
    the Priest and P1 drew. For P3, P1 holds two cards; P2 knows one of them: either, with
    equal chances, unless one is the Priest, which P1's older card is not."""
    from loveformal.cards import Card
    from loveformal.engine import apply
    from loveformal.sampling import sample_chance
    from loveformal.solver.endgame import deal_state

    s = priest_seen_by_another()
    s = apply(s, Play(Card.GUARD, target=0, guess=Card.PRIEST))
    s = apply(s, sample_chance(s, random.Random(1)))
    assert s.phase is Phase.PLAY and s.turn == 0 and len(s.seats[0].hand) == 2
    deals = enumerate_deals(s, knower=2)
    shares: dict[tuple[Card, ...], dict[Card, Fraction]] = {}
    for d in deals:
        (known,) = knowledge_table(deal_state(s, d), 1)[0]
        assert known in d.hands[0]
        by_card = shares.setdefault(d.hands[0], {})
        by_card[known] = by_card.get(known, Fraction(0)) + d.weight
    assert len(shares) > 10
    for hand, by_card in shares.items():
        total = sum(by_card.values())
        if Card.PRIEST in hand:
            assert set(by_card) == set(hand) - {Card.PRIEST}
        else:
            assert all(w / total == Fraction(1, len(set(hand))) for w in by_card.values())
    assert sum(d.weight for d in deals) == 360


def _name_a_known_card(obs: Observation, legal: tuple[Action, ...]) -> dict[Action, int]:
    """An opponent model: a Guard naming a card it knows the target holds, else any play."""
    return {a: 1 for a in (guards_naming_known_cards(obs, legal) or legal)}


def test_a_seat_knows_which_of_its_cards_another_seat_saw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """P2's Priest saw P1's Guard, then P1 drew a Baron. A deal of P1's hand that another
    order splits (P2 knows the Guard, or the Baron) is two different information sets for
    P1, which knows what P2 saw of its hand: the deals of P1's actual information set all
    say P2 knows its Guard, and its best response to a model that names known cards is worth
    73/168. Planted bug, the look seen by P2 alone: P1 'may' have shown its Baron, 169/420."""
    from loveformal.actions import Draw
    from loveformal.cards import Card
    from loveformal.engine import apply
    from loveformal.observation import observation
    from loveformal.solver import endgame as eg_module
    from loveformal.solver.endgame import actual_deal, deal_state
    from tests.support import pos

    s = pos(
        "classic",
        turn="P2",
        hands={"P1": ("Guard",), "P2": ("Priest", "Princess")},
        deck=("Baron", "Guard", "Countess"),
        set_aside="Guard",
        face_up=("Priest", "Baron", "Handmaid"),
        discards={"P1": ("Guard", "Prince", "King"), "P2": ("Guard", "Handmaid", "Prince")},
    )
    s = apply(apply(s, Play(Card.PRIEST, target=0)), Draw(Card.BARON))
    assert knowledge_table(s, 1) == {0: (Card.GUARD,)}

    def infoset_labels() -> set[str]:
        deals = enumerate_deals(s, knower=0)
        key = observation(deal_state(s, actual_deal(s, 0)), 0).key
        return {d.label() for d in deals if observation(deal_state(s, d), 0).key == key}

    model = ObservationModel("names known cards", _name_a_known_card)
    labels = infoset_labels()
    assert labels and all(label.endswith("P2-knows-P1:Guard") for label in labels)
    assert solve_position(s, seat=0, opponents=model, pimc=False).value == Fraction(73, 168)
    original = eg_module._sight_event

    def seen_by_the_observer_alone(*args: Any) -> Any:
        event = original(*args)
        assert event.seat is not None
        return event._replace(visible_to=(event.seat,))

    monkeypatch.setattr(eg_module, "_sight_event", seen_by_the_observer_alone)
    assert any(label.endswith("P2-knows-P1:Baron") for label in infoset_labels())
    assert solve_position(s, seat=0, opponents=model, pimc=False).value == Fraction(169, 420)


def _looked_then_played(seen: str, drawn: str, *, play: bool = True) -> State:
    """Classic, three players: P1's Priest sees P2's card ``seen``; P2 draws ``drawn`` and
    (``play``) plays its Handmaid, keeping a Guard; P3 draws a Prince."""
    from loveformal.actions import Draw
    from loveformal.cards import Card
    from loveformal.engine import apply
    from tests.support import pos

    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ("Priest", "Baron"), "P2": (seen,), "P3": ("Guard",)},
        deck=(drawn, "Prince", "Princess"),
        set_aside="Countess",
        discards={
            "P1": ("Guard", "Guard"),
            "P2": ("Guard", "Prince", "Baron"),
            "P3": ("King", "Priest", "Handmaid"),
        },
    )
    s = apply(apply(s, Play(Card.PRIEST, target=1)), Draw(Card.parse(drawn)))
    if not play:
        return s
    return apply(apply(s, Play(Card.HANDMAID)), Draw(Card.PRINCE))


def test_whether_another_seat_still_knows_a_hand_is_not_read_off_hidden_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """P1's Priest saw P2's card; P2 then played its Handmaid and kept a Guard. P1 still
    knows the Guard if it saw the Guard, and knows nothing if it saw the Handmaid: P3 cannot
    tell these two pasts apart (the same observation), so its best response must not depend
    on which is true. Neither carries P1's knowledge (P3 cannot be sure it lasted), while
    before P2's play it is carried. Planted bug, the knowledge read off the actual past:
    the two pasts' values differ (191/540 and 121/360)."""
    from loveformal.observation import observation
    from loveformal.solver import endgame as eg_module

    saw_handmaid = _looked_then_played("Handmaid", "Guard")
    saw_guard = _looked_then_played("Guard", "Handmaid")
    assert observation(saw_handmaid, 2).key == observation(saw_guard, 2).key
    assert knowledge_table(saw_handmaid, 0)[1] == () and knowledge_table(saw_guard, 0)[1] != ()

    def results() -> list[Fraction | None]:
        return [
            solve_position(s, seat=2, opponents="heuristic", pimc=False).value
            for s in (saw_handmaid, saw_guard)
        ]

    for s in (saw_handmaid, saw_guard):
        assert not any(d.seen for d in enumerate_deals(s, knower=2))
    first, second = results()
    assert first == second
    before = _looked_then_played("Guard", "Handmaid", play=False)
    assert all(d.seen for d in enumerate_deals(before, knower=2))
    monkeypatch.setattr(eg_module, "knowledge_unsure_to", lambda *args: frozenset())
    assert results() == [Fraction(191, 540), Fraction(121, 360)]


def test_the_seat_solved_for_is_sure_of_what_another_knows_of_a_card_it_took() -> None:
    """P1's Priest saw P3's Baron; P2 (solved for) took it with its King, and kept it since:
    P2 can tell P1 still knows it (it was marked unsure once P2 played)."""
    from loveformal.knowledge import knowledge_unsure_to
    from tests.support import play, pos

    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ["Priest", "Guard"], "P2": ["Guard"], "P3": ["Baron"]},
        deck=["King", "Handmaid", "Priest", "Prince", "Countess", "Guard"],
        set_aside="Princess",
    )
    s = play(s, "Priest", "P3")
    s = play(s, "King", "P3")  # P2 draws the King, gives its Guard, takes the Baron
    s = play(s, "Guard", "P1", guess="Princess")
    s = play(s, "Guard", "P2", guess="Princess")
    s = play(s, "Prince", "P1")  # P2 keeps the Baron
    assert s.seats[1].hand == (Card.BARON,) and knowledge_table(s, 0)[1] == (Card.BARON,)
    assert knowledge_unsure_to(s, 0, 1) == frozenset()


def test_a_model_in_a_file_not_ending_in_py_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--opponents P2=model.txt:f`` with model.txt in the current folder: without a '/' or
    '.py' the name reads as a module path, which said "No module named 'model'"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model.txt").write_text("def f(o, l):\n    return l[0]\n")
    r = invoke("solve", THREE, "--opponents", "P2=model.txt:f")
    assert r.exit_code == 2
    assert "model.txt is a file, but not a Python file: its name must end in .py" in r.output


async def _async_prior(s: State, n: int) -> int:
    return n


async def _async_choose(obs: Observation, legal: tuple[Action, ...]) -> Action:
    return legal[0]


def test_an_async_function_is_refused_by_name() -> None:
    """An ``async def`` prior or model returns a coroutine, which is refused by name (and
    closed, so that Python does not warn of a coroutine never awaited): it was refused as
    "not a number" or "not a legal action"."""
    message = r"got a coroutine \(the function is async\); give a plain function"
    with pytest.raises(MalformedInput, match=message):
        solve_position(parse_position(D), prior=cast(Any, _async_prior), pimc=False)
    model = ObservationModel("async", _async_choose)
    with pytest.raises(MalformedInput, match=message):
        solve_position(parse_position(THREE), opponents=model, pimc=False)
