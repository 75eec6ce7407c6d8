"""Shared helpers for tests: write positions and moves the way a rulebook would."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loveformal.actions import Action, Draw, Guess, Play
from loveformal.cards import Card
from loveformal.engine import apply
from loveformal.observation import Observation
from loveformal.position import position
from loveformal.rulebook import make_ruleset
from loveformal.ruleset import Ruleset
from loveformal.sampling import settle
from loveformal.seats import parse_seat
from loveformal.state import Phase, State


def card(name: str) -> Card:
    return Card.parse(name)


def cards(names: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(n) for n in names)


def rules(preset: str = "classic", **overrides: object) -> Ruleset:
    return make_ruleset(preset, overrides or None)


def seat(name: str, players: int = 8) -> int:
    return parse_seat(name, players)


def pos(
    preset: str | Ruleset = "classic",
    *,
    turn: str,
    hands: Mapping[str, Sequence[str]],
    deck: Sequence[str] = (),
    set_aside: str | None = None,
    face_up: Sequence[str] = (),
    discards: Mapping[str, Sequence[str]] | None = None,
    protected: Sequence[str] = (),
    out: Sequence[str] = (),
    tokens: Mapping[str, int] | None = None,
    sycophant: str | None = None,
    jester: tuple[str, str] | None = None,
    drawn: bool = True,
    players: int | None = None,
    **overrides: object,
) -> State:
    """A position written with card names and seat names ("P1"...)."""
    r = preset if isinstance(preset, Ruleset) else rules(preset, **overrides)
    n = players if players is not None else len(hands)

    def s(name: str) -> int:
        return parse_seat(name, n)

    return position(
        r,
        players=n,
        turn=s(turn),
        hands={s(k): cards(v) for k, v in hands.items()},
        deck=cards(deck),
        set_aside=card(set_aside) if set_aside else None,
        face_up=cards(face_up),
        discards={s(k): cards(v) for k, v in (discards or {}).items()},
        protected=[s(p) for p in protected],
        out=[s(p) for p in out],
        tokens={s(k): v for k, v in (tokens or {}).items()},
        sycophant=s(sycophant) if sycophant else None,
        jester=(s(jester[0]), s(jester[1])) if jester else None,
        drawn=drawn,
    )


def play(
    state: State,
    card_name: str,
    target: str | None = None,
    *,
    guess: str | int | None = None,
    targets: Sequence[str] = (),
    look: str | None = None,
) -> State:
    """The seat in turn (drawing first if it has not) plays a card; certain redraws are then
    resolved. Seats by name, guesses by card name or number."""
    state = settle(state, turn_draw=True)
    n = state.players
    g: Guess | None = card(guess) if isinstance(guess, str) else guess
    action = Play(
        card(card_name),
        target=parse_seat(target, n) if target else None,
        targets=tuple(sorted(parse_seat(t, n) for t in targets)),
        guess=g,
        look=parse_seat(look, n) if look else None,
    )
    return settle(apply(state, action))


def step(state: State, action: Action) -> State:
    return settle(apply(state, action))


def draw(state: State) -> State:
    """Resolve the pending turn draw from the known top of the deck."""
    assert state.phase is Phase.TURN_DRAW
    return apply(state, Draw(state.pile.cards()[0]))


def hand(state: State, name: str) -> tuple[Card, ...]:
    return state.seats[parse_seat(name, state.players)].hand


def priest_seen_by_another() -> State:
    """Classic, three players: P1's Priest saw P2's Princess, P2's Priest saw P1's Handmaid;
    P3, who saw neither, is to play Guard or Baron (two cards left, unseen)."""
    import random

    from loveformal.cards import sort_cards
    from loveformal.sampling import sample_chance
    from loveformal.state import DrawPile

    s = pos(
        "classic",
        turn="P1",
        hands={"P1": ("Priest", "Handmaid"), "P2": ("Princess",), "P3": ("Guard",)},
        deck=("Priest", "Baron", "Prince", "Guard"),
        set_aside="Handmaid",
        discards={
            "P1": ("Guard", "Guard"),
            "P2": ("Guard", "Baron"),
            "P3": ("King", "Prince", "Countess"),
        },
    )
    s = apply(s, Play(Card.PRIEST, target=1))
    s = apply(s, sample_chance(s, random.Random(0)))  # P2 draws the Priest
    s = apply(s, Play(Card.PRIEST, target=0))
    s = apply(s, sample_chance(s, random.Random(0)))  # P3 draws the Baron
    assert s.seats[2].hand == (Card.GUARD, Card.BARON) and s.seats[1].hand == (Card.PRINCESS,)
    return s._replace(pile=DrawPile((), sort_cards(s.pile.cards()), ()))


def guards_naming_known_cards(obs: Observation, legal: Sequence[Action]) -> list[Action]:
    """The legal Guard plays naming a card the seat knows its target holds (for opponent
    models that act on what a seat knows)."""
    return [
        a
        for a in legal
        if isinstance(a, Play)
        and a.card is Card.GUARD
        and a.target is not None
        and a.guess in obs.known[a.target]
    ]
