"""A one-line text notation for positions (like chess FEN): readable, typeable, exact.

Grammar (sections separated by ``|``; spaces around ``|`` are optional; tokens within a
section are separated by spaces)::

    position := header "|" seat{players} "|" deck "|" aside "|" up "|" status
    header   := PRESET {NAME=VALUE} [Np] [rR] [start:Pk] [syc:Pk] [jester:Pa>Pb] [view:Pk]
    seat     := Pi HAND [d:CARDS] [tN] {out | prot | spied}
    deck     := "deck" TOP ["/" UNSEEN ["/" BOTTOM]]          (full position)
              | "deck" "?"SIZE [mine:CARDS]                    (a seat's view)
    aside    := "aside" (CARD | "-" | "?")
    up       := "up" CARDS
    status   := PHASE Pk [pending:Pk] [draws:N] [won:SEATS] [next:SEATS] [match:SEATS]
    CARDS    := "-" | ITEM {"," ITEM}      ITEM := CARD ["*" COUNT]   (Guard*3 = three Guards)
    CARD     := a card name, spaces written "_" (Dowager_Queen); case-insensitive
    SEATS    := "-" | Pk {"," Pk}

* ``header``: the preset and option overrides (``tie_break=none``, ``tokens_to_win=2:6,3:5``,
  as on the command line), the number of players (``Np``, optional: the seat sections count),
  the round (``r1``, default 1), the round's starter (``start:P1``; default: the seat in
  ``status``), the Sycophant's mark (``syc:P2``), the Jester's bet (``jester:P3>P1``: P3 bet
  on P1), and ``view:Pk`` on a string written for one seat.
* ``seat``: seats in order P1, P2, ...; the hand (sorted; ``-`` when empty), the discard pile
  oldest first (``d:``), tokens (``t2``), and the flags ``out`` (out of the round), ``prot``
  (Handmaid protection) and ``spied`` (played or discarded a Spy, written only when no Spy
  is in the discard pile: a Spy there implies it).
* ``deck``: the draw pile — the known-order top, the unseen cards (a multiset, in any order;
  nobody knows their order), the known-order bottom (Chancellor returns, the last listed is
  the very bottom). ``deck Baron,Priest`` is a wholly known order.
* ``aside``: the face-down set-aside card, ``-`` when there is none (before the deal removed
  it, or after a Prince took it). ``up``: the 2-player face-up cards, in order.
* ``status``: the phase (``deal``, ``turn_draw``, ``play``, ``redraw``, ``chancellor_draw``,
  ``chancellor``, ``bishop_redraw``, ``round_over``, ``game_over``) and the seat whose turn it
  is, then: the seat that must draw or decide (``pending:``), the Chancellor's draws left
  (``draws:``), the round's winners (``won:``), the seats among which the next starter is
  chosen (``next:``) and the match winners (``match:``).

Examples (each is one line; wrapped here after a ``|``)::

    classic 2p r1 start:P1 | P1 Prince,King d:Guard*2 t0 | P2 Priest d:Prince t0 |
    deck - / Guard*2,Priest,Baron*2,Handmaid | aside Guard | up Handmaid,Princess,Countess |
    play P1

    z2019 3p r1 start:P1 | P1 - d:Guard,Baron t0 out | P2 Prince d:Baron t0 |
    P3 Guard,Priest,Spy d:Chancellor t0 | deck - / Guard*4,Priest,Handmaid*2,Prince,King,
    Countess,Princess,Chancellor | aside Spy | up - | chancellor P3

    classic tie_break=none 3p r2 start:P2 | P1 Handmaid d:Guard*2 t1 | P2 Prince d:Baron t0 |
    P3 Prince,King d:Guard t0 | deck - | aside Guard | up - | play P3

The first as P1 sees it (``format_position(state, seat=0)``)::

    classic 2p r1 start:P1 view:P1 | P1 Prince,King d:Guard*2 t0 | P2 ? d:Prince t0 |
    deck ?6 | aside ? | up Handmaid,Princess,Countess | play P1

**Position, not history.** The notation describes a *position*; the event log
(``State.log``: who saw what) is history and is not written. So for every state ``s``
reached by play, ``parse_position(format_position(s)) == position_of(s)`` where
:func:`position_of` drops the log. Knowledge that came from the log (a Priest's look) is
therefore not in a full position string; what the discard piles alone show for sure is read
off them (:func:`loveformal.knowledge.position_sights`, ``position_exclusions``,
``position_tie``).

**A seat's view.** ``format_position(state, seat=P)`` writes what ``P`` knows: other seats'
hands as ``?`` (one per card) except the cards ``P`` knows they hold
(:mod:`loveformal.knowledge`), the pile as ``?SIZE`` plus ``mine:`` (``P``'s own returns
still at the bottom), the set-aside card as ``?`` while it is there; the header carries
``view:P``. It is a function of :func:`loveformal.observation.observation`. A view does not
describe one position: :func:`parse_position` rejects it with :class:`MalformedInput`.

**Validation.** Bad notation raises :class:`~loveformal.errors.MalformedInput` naming the
column and field (``column 31 (P2 hand): unknown card 'Prnce' ...``). Positions at a
decision (``play``) or at a turn's draw (``turn_draw``) are checked with
:func:`loveformal.position.position` (seat card counts, out/protected consistency, tokens,
...); positions inside a card's effect (``redraw``, ``chancellor_draw``, ``chancellor``,
``bishop_redraw``) by :func:`_check_effect_step` (two seats still in, each seat's hand
size for that step, the card that started the effect on top of its player's discard pile,
tokens below the match's count); at every phase, card kinds and copies are checked against
the deck for the player count, seats against the number of players, no seat still in the
round has the Princess on its discard pile, and, when the round is written (``r3``), each
seat's tokens must fit what the rounds so far can have given
(:func:`_check_tokens_for_round`). Numbers are ASCII
digits of bounded length (:mod:`loveformal.literals`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from loveformal.cards import Card, sort_cards
from loveformal.errors import MalformedInput
from loveformal.literals import echo, whole_number
from loveformal.observation import Observation, observation
from loveformal.position import face_up_limit, position, where
from loveformal.rulebook import load_preset, make_ruleset, parse_overrides
from loveformal.ruleset import OptionValue, Ruleset
from loveformal.seats import seat_name
from loveformal.state import DrawPile, Phase, Seat, State

__all__ = [
    "card_list",
    "format_observation",
    "format_position",
    "option_text",
    "parse_position",
    "position_of",
    "ruleset_text",
]

MAX_COPIES = 32
"""No deck holds more cards than this: a larger ``CARD*N`` is rejected before expanding."""


def position_of(state: State) -> State:
    """The position of ``state``: the state without its event log (history)."""
    return state._replace(log=())


# ----------------------------------------------------------------------------- formatting


def _card(card: Card) -> str:
    return card.title.replace(" ", "_")


def card_list(cards: Iterable[Card], *, compress: bool = True) -> str:
    """Cards as ``A,B*2,C`` (runs of equal cards compressed); ``-`` when empty."""
    out: list[str] = []
    items = list(cards)
    i = 0
    while i < len(items):
        j = i
        while compress and j + 1 < len(items) and items[j + 1] is items[i]:
            j += 1
        n = j - i + 1
        out.append(_card(items[i]) + (f"*{n}" if n > 1 else ""))
        i = j + 1
    return ",".join(out) if out else "-"


def _seat_list(seats: Sequence[int]) -> str:
    return ",".join(seat_name(s) for s in seats) if seats else "-"


def option_text(value: OptionValue) -> str:
    """An option value as written in ``NAME=VALUE`` (``true``, ``3``, ``2:6,3:5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(f"{n}:{t}" for n, t in value)
    return str(value)


def ruleset_text(rules: Ruleset) -> str:
    """``classic`` or ``classic tie_break=none ...``: the preset and its overrides."""
    return " ".join([rules.preset, *(f"{k}={option_text(v)}" for k, v in rules.overrides)])


def _header(
    rules: Ruleset,
    players: int,
    round_: int,
    starter: int,
    sycophant: int | None,
    jester: tuple[int, int] | None,
    view: int | None,
) -> str:
    parts = [ruleset_text(rules), f"{players}p", f"r{round_}", f"start:{seat_name(starter)}"]
    if sycophant is not None:
        parts.append(f"syc:{seat_name(sycophant)}")
    if jester is not None:
        parts.append(f"jester:{seat_name(jester[0])}>{seat_name(jester[1])}")
    if view is not None:
        parts.append(f"view:{seat_name(view)}")
    return " ".join(parts)


def _seat_text(
    i: int, hand: str, discards: tuple[Card, ...], s_tokens: int, out: bool, prot: bool, spied: bool
) -> str:
    parts = [seat_name(i), hand, "d:" + card_list(discards), f"t{s_tokens}"]
    if out:
        parts.append("out")
    if prot:
        parts.append("prot")
    if spied and Card.SPY not in discards:
        parts.append("spied")
    return " ".join(parts)


def _status(
    phase: Phase,
    turn: int,
    pending: int | None,
    draws: int,
    won: tuple[int, ...],
    nxt: tuple[int, ...],
    match: tuple[int, ...],
) -> str:
    parts = [phase.value, seat_name(turn)]
    if pending is not None:
        parts.append(f"pending:{seat_name(pending)}")
    if draws:
        parts.append(f"draws:{draws}")
    if won:
        parts.append(f"won:{_seat_list(won)}")
    if nxt:
        parts.append(f"next:{_seat_list(nxt)}")
    if match:
        parts.append(f"match:{_seat_list(match)}")
    return " ".join(parts)


def _pile_text(pile: DrawPile) -> str:
    if not pile.unseen:
        return "deck " + card_list(pile.top)
    text = f"deck {card_list(pile.top)} / {card_list(pile.unseen)}"
    if pile.bottom:
        text += f" / {card_list(pile.bottom)}"
    return text


def format_position(state: State, seat: int | None = None) -> str:
    """The position of ``state`` in one line; with ``seat``, only what that seat knows (a
    *view*, see the module docstring)."""
    if seat is not None:
        return format_observation(observation(state, seat))
    seats = state.seats
    parts = [
        _header(
            state.rules,
            state.players,
            state.round,
            state.starter,
            state.sycophant,
            state.jester,
            None,
        )
    ]
    for i, s in enumerate(seats):
        parts.append(
            _seat_text(i, card_list(s.hand), s.discards, s.tokens, s.out, s.protected, s.spied)
        )
    parts.append(_pile_text(state.pile))
    parts.append("aside " + ("-" if state.set_aside is None else _card(state.set_aside)))
    parts.append("up " + card_list(state.face_up))
    parts.append(
        _status(
            state.phase,
            state.turn,
            state.pending_seat,
            state.chancellor_draws,
            state.round_winners,
            state.next_starters,
            state.game_winners,
        )
    )
    return " | ".join(parts)


def format_observation(obs: Observation) -> str:
    """An :class:`~loveformal.observation.Observation` as a view string (``view:Pk``)."""
    parts = [
        _header(obs.rules, obs.players, obs.round, obs.starter, obs.sycophant, obs.jester, obs.seat)
    ]
    for i in range(obs.players):
        if i == obs.seat:
            hand = card_list(obs.hand)
        else:
            known = obs.known[i]
            unknown = obs.hand_sizes[i] - len(known)
            items = [_card(c) for c in known] + ["?"] * max(0, unknown)
            hand = ",".join(items) if items else "-"
        parts.append(
            _seat_text(
                i, hand, obs.discards[i], obs.tokens[i], obs.out[i], obs.protected[i], obs.spied[i]
            )
        )
    deck = f"deck ?{obs.pile_size}"
    if obs.known_bottom:
        deck += f" mine:{card_list(obs.known_bottom, compress=False)}"
    parts.append(deck)
    parts.append("aside " + ("?" if obs.set_aside_present else "-"))
    parts.append("up " + card_list(obs.face_up))
    parts.append(
        _status(
            obs.phase,
            obs.turn,
            obs.pending_seat,
            obs.chancellor_draws,
            obs.round_winners,
            obs.next_starters,
            obs.game_winners,
        )
    )
    return " | ".join(parts)


# ----------------------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    col: int
    """1-based column of the token's first character in the whole string."""


def _bad(col: int, field: str, message: str) -> MalformedInput:
    return MalformedInput(f"column {col} ({field}): {message}")


_VIEW_HINT = (
    "a seat's view hides cards ('?') and does not describe one position; "
    "give every card to read a full position"
)


def _sections(text: str) -> list[tuple[int, list[_Tok]]]:
    """The ``|``-separated sections, each with its start column and its tokens."""
    out: list[tuple[int, list[_Tok]]] = []
    start = 0
    for part in text.split("|"):
        toks = [_Tok(m.group(), start + m.start() + 1) for m in re.finditer(r"\S+", part)]
        out.append((start + 1, toks))
        start += len(part) + 1
    return out


def _parse_card(tok_text: str, col: int, field: str) -> Card:
    if tok_text == "?":
        raise _bad(col, field, _VIEW_HINT)
    try:
        return Card.parse(tok_text)
    except KeyError:
        known = ", ".join(_card(c) for c in Card)
        raise _bad(
            col, field, f"unknown card {echo(tok_text)} (expected one of: {known})"
        ) from None


def _parse_cards(text: str, col: int, field: str) -> tuple[Card, ...]:
    """``-`` or ``A,B*2,C``."""
    if text == "-":
        return ()
    if not text:
        raise _bad(col, field, "expected cards (A,B*2,...) or '-' for none")
    out: list[Card] = []
    offset = 0
    for item in text.split(","):
        c = col + offset
        offset += len(item) + 1
        name, star, count = item.partition("*")
        if not name:
            raise _bad(c, field, f"expected a card name, got {echo(item)}")
        card = _parse_card(name, c, field)
        n = 1
        if star:
            copies = whole_number(count, 2)
            if copies is None or not 1 <= copies <= MAX_COPIES:
                raise _bad(c, field, f"expected CARD*N with N in 1..{MAX_COPIES}, got {echo(item)}")
            n = copies
        out.extend([card] * n)
    return tuple(out)


def _parse_seat(text: str, col: int, field: str, players: int) -> int:
    m = re.fullmatch(r"[Pp]([0-9]{1,3})", text)
    if m is None or not 1 <= int(m.group(1)) <= players:
        raise _bad(col, field, f"expected a seat P1..P{players}, got {echo(text)}")
    return int(m.group(1)) - 1


def _parse_seats(text: str, col: int, field: str, players: int) -> tuple[int, ...]:
    if text == "-":
        return ()
    seats = tuple(_parse_seat(t, col, field, players) for t in text.split(","))
    if len(set(seats)) != len(seats):
        raise _bad(col, field, f"a seat is listed twice in {echo(text)}")
    return seats


def _int(text: str, col: int, field: str, low: int, high: int) -> int:
    n = whole_number(text, len(str(high)))
    if n is None or not low <= n <= high:
        raise _bad(col, field, f"expected a whole number {low}..{high}, got {echo(text)}")
    return n


_PHASES = {p.value: p for p in Phase}


def _which_sections(rest: Sequence[tuple[int, Sequence[_Tok]]]) -> str:
    """What the sections after the seats look like, by their first words: ": missing up"
    when exactly the known ones are there in order, else what was found."""
    found: list[str] = []
    for _, toks in rest:
        word = toks[0].text.lower().replace("-", "_") if toks else ""
        found.append(
            word if word in ("deck", "aside", "up") else "status" if word in _PHASES else "?"
        )
    expected = ["deck", "aside", "up", "status"]
    missing = [x for x in expected if x not in found]
    if missing and "?" not in found and found == [x for x in expected if x in found]:
        return ": missing " + " and ".join(missing)
    return " (found: " + " | ".join(found) + ")" if found else ""


@dataclass(slots=True)
class _SeatSpec:
    hand: tuple[Card, ...]
    discards: tuple[Card, ...]
    tokens: int
    out: bool
    protected: bool
    spied: bool
    col: int


def parse_position(text: str, *, rules: Ruleset | None = None) -> State:
    """The position written in ``text`` (see the module docstring), with an empty log.

    ``rules``, if given, replaces the notation's ruleset (its own overrides are then not read;
    its preset must still exist), e.g. to play one position under several presets. Raises
    :class:`MalformedInput` naming the column and field of the first problem, or the rule the
    position breaks.
    """
    if not isinstance(text, str):
        raise MalformedInput(f"expected a position string, got {type(text).__name__}")
    sections = _sections(text)
    if len(sections) < 6:
        raise MalformedInput(
            f"expected at least 6 '|'-separated sections (header | seats... | deck | aside | up "
            f"| status), got {len(sections)}"
        )
    for start, toks in sections:
        if not toks:
            raise _bad(start, "section", "empty section (expected text between the '|')")

    # header
    head = sections[0][1]
    preset_tok = head[0]
    name = preset_tok.text
    try:
        load_preset(name)
    except MalformedInput as exc:
        raise _bad(preset_tok.col, "preset", str(exc)) from None
    overrides: list[str] = []
    players_decl: tuple[int, int] | None = None
    round_ = 1
    starter_tok: _Tok | None = None
    syc_tok: _Tok | None = None
    jester_tok: _Tok | None = None
    seen: set[str] = set()
    for tok in head[1:]:
        t = tok.text
        kind = (
            "option"
            if "=" in t
            else "players"
            if re.fullmatch(r"[0-9]+p", t)
            else "round"
            if re.fullmatch(r"r[0-9]+", t)
            else t.partition(":")[0] + ":"
            if ":" in t
            else t
        )
        if kind != "option":
            if kind in seen:
                raise _bad(tok.col, "header", f"{kind.rstrip(':')} is given twice")
            seen.add(kind)
        if kind == "option":
            overrides.append(t)
        elif kind == "players":
            players_decl = (_int(t[:-1], tok.col, "players", 2, 8), tok.col)
        elif kind == "round":
            round_ = _int(t[1:], tok.col, "round", 1, 10_000)
        elif kind == "start:":
            starter_tok = tok
        elif kind == "syc:":
            syc_tok = tok
        elif kind == "jester:":
            jester_tok = tok
        elif kind == "view:":
            raise _bad(tok.col, "view", _VIEW_HINT)
        else:
            raise _bad(
                tok.col,
                "header",
                f"unexpected {echo(t)} "
                "(expected NAME=VALUE, Np, rN, start:Pk, syc:Pk or jester:Pa>Pb)",
            )
    if rules is None:
        try:
            rules = make_ruleset(name, parse_overrides(overrides) or None)
        except MalformedInput as exc:
            col = head[1].col if len(head) > 1 else preset_tok.col
            raise _bad(col, "options", str(exc)) from None

    seat_sections = [s for s in sections[1:] if re.fullmatch(r"[Pp][0-9]+", s[1][0].text)]
    players = len(seat_sections)
    if players_decl is not None and players_decl[0] != players:
        raise _bad(
            players_decl[1],
            "players",
            f"{players_decl[0]} players declared, but {players} seat sections follow",
        )
    rest = sections[1 + players :]
    if [s[1][0].text for s in sections[1 : 1 + players]] != [s[1][0].text for s in seat_sections]:
        raise _bad(sections[1][0], "seats", "expected the seat sections right after the header")
    try:
        deck_spec = rules.deck(players)
    except ValueError as exc:
        raise _bad(sections[0][0], "players", str(exc)) from None
    if len(rest) != 4:
        raise MalformedInput(
            f"expected 4 sections after the {players} seats (deck | aside | up | status), "
            f"got {len(rest)}{_which_sections(rest)}"
        )

    def seat_of(tok: _Tok | None, field: str, text: str | None = None) -> int | None:
        if tok is None:
            return None
        return _parse_seat(
            text if text is not None else tok.text.partition(":")[2], tok.col, field, players
        )

    # seats
    specs: list[_SeatSpec] = []
    for i, (start, toks) in enumerate(seat_sections):
        field = seat_name(i)
        if _parse_seat(toks[0].text, toks[0].col, "seat", players) != i:
            raise _bad(
                toks[0].col, "seat", f"expected {seat_name(i)} here, got {echo(toks[0].text)}"
            )
        if len(toks) < 2:
            raise _bad(start, field, "expected the hand after the seat name ('-' for none)")
        hand = _parse_cards(toks[1].text, toks[1].col, f"{field} hand")
        if len(hand) > 3:
            raise _bad(toks[1].col, f"{field} hand", f"at most 3 cards, got {len(hand)}")
        spec = _SeatSpec(sort_cards(hand), (), 0, False, False, False, start)
        got: set[str] = set()
        for tok in toks[2:]:
            t = tok.text
            key = "d:" if t.startswith("d:") else "t" if re.fullmatch(r"t[0-9]+", t) else t
            if key in got:
                raise _bad(tok.col, field, f"{echo(t)}: given twice")
            got.add(key)
            if key == "d:":
                spec.discards = _parse_cards(t[2:], tok.col + 2, f"{field} discards")
            elif key == "t":
                spec.tokens = _int(t[1:], tok.col, f"{field} tokens", 0, 1000)
            elif key == "out":
                spec.out = True
            elif key == "prot":
                spec.protected = True
            elif key == "spied":
                spec.spied = True
            else:
                raise _bad(
                    tok.col,
                    field,
                    f"unexpected {echo(t)} (expected d:CARDS, tN, out, prot or spied)",
                )
        spec.spied = spec.spied or Card.SPY in spec.discards
        specs.append(spec)

    # deck
    (dstart, dtoks), (astart, atoks), (ustart, utoks), (sstart, stoks) = rest
    if dtoks[0].text != "deck":
        raise _bad(dtoks[0].col, "deck", f"expected 'deck ...', got {echo(dtoks[0].text)}")
    if len(dtoks) > 1 and (dtoks[1].text.startswith("?") or dtoks[1].text.startswith("mine:")):
        raise _bad(dtoks[1].col, "deck", _VIEW_HINT)
    parts: list[list[_Tok]] = [[]]
    for tok in dtoks[1:]:
        pieces = re.split(r"(/)", tok.text)
        offset = 0
        for piece in pieces:
            if piece == "/":
                parts.append([])
            elif piece:
                parts[-1].append(_Tok(piece, tok.col + offset))
            offset += len(piece)
    if len(parts) > 3:
        raise _bad(dstart, "deck", "expected at most 3 parts: TOP / UNSEEN / BOTTOM")
    zones: list[tuple[Card, ...]] = []
    for k, part in enumerate(parts):
        what = ("deck top", "deck unseen", "deck bottom")[k]
        if len(part) != 1:
            col = part[1].col if len(part) > 1 else dstart
            raise _bad(col, what, "expected one card list (A,B*2,...) or '-' (no spaces)")
        zones.append(_parse_cards(part[0].text, part[0].col, what))
    while len(zones) < 3:
        zones.append(())
    top, unseen, bottom = zones
    pile = DrawPile(top, sort_cards(unseen), bottom) if unseen else DrawPile(top + bottom)

    # aside, up
    if atoks[0].text != "aside" or len(atoks) != 2:
        raise _bad(astart, "aside", "expected 'aside CARD' or 'aside -'")
    set_aside = None if atoks[1].text == "-" else _parse_card(atoks[1].text, atoks[1].col, "aside")
    if utoks[0].text != "up" or len(utoks) != 2:
        raise _bad(ustart, "up", "expected 'up CARDS' or 'up -'")
    face_up = _parse_cards(utoks[1].text, utoks[1].col, "up")

    # status
    phase = _PHASES.get(stoks[0].text.lower().replace("-", "_"))
    if phase is None:
        raise _bad(
            stoks[0].col,
            "status",
            f"unknown phase {echo(stoks[0].text)} (expected one of: {', '.join(_PHASES)})",
        )
    if len(stoks) < 2:
        raise _bad(sstart, "status", "expected the seat whose turn it is after the phase")
    turn = _parse_seat(stoks[1].text, stoks[1].col, "status turn", players)
    pending: int | None = None
    draws = 0
    won: tuple[int, ...] = ()
    nxt: tuple[int, ...] = ()
    match: tuple[int, ...] = ()
    sgot: set[str] = set()
    for tok in stoks[2:]:
        key, colon, value = tok.text.partition(":")
        if not colon or key not in ("pending", "draws", "won", "next", "match"):
            raise _bad(
                tok.col,
                "status",
                f"unexpected {echo(tok.text)} (expected pending:Pk, draws:N, won:SEATS, next:SEATS "
                "or match:SEATS)",
            )
        if key in sgot:
            raise _bad(tok.col, "status", f"{key} is given twice")
        sgot.add(key)
        vcol = tok.col + len(key) + 1
        if key == "pending":
            pending = _parse_seat(value, vcol, "pending", players)
        elif key == "draws":
            draws = _int(value, vcol, "draws", 0, 2)
        elif key == "won":
            won = _parse_seats(value, vcol, "won", players)
        elif key == "next":
            nxt = _parse_seats(value, vcol, "next", players)
        else:
            match = _parse_seats(value, vcol, "match", players)

    starter = seat_of(starter_tok, "start")
    sycophant = seat_of(syc_tok, "syc")
    jester: tuple[int, int] | None = None
    if jester_tok is not None:
        a, gt, b = jester_tok.text.partition(":")[2].partition(">")
        if not gt:
            raise _bad(jester_tok.col, "jester", "expected jester:Pa>Pb (Pa bet on Pb)")
        jester = (
            _parse_seat(a, jester_tok.col, "jester", players),
            _parse_seat(b, jester_tok.col, "jester", players),
        )

    # cards against the deck
    used: Counter[Card] = Counter(pile.cards())
    used.update(face_up)
    if set_aside is not None:
        used[set_aside] += 1
    for s in specs:
        used.update(s.hand)
        used.update(s.discards)
    for card, n in sorted(used.items(), key=lambda cn: cn[0].index):
        have = deck_spec.count(card)
        if n > have:
            places = [
                ("the draw pile", pile.cards()),
                ("face up", face_up),
                ("set aside", () if set_aside is None else (set_aside,)),
            ]
            for i, s in enumerate(specs):
                places += [(f"{seat_name(i)}'s hand", s.hand)]
                places += [(f"{seat_name(i)}'s discard pile", s.discards)]
            raise MalformedInput(
                f"{card} appears {_times(n)} ({where(card, places)}), but the {rules.preset} "
                f"deck for {players} players " + (f"holds {have}" if have else "has none")
            )

    if "round" in seen:  # the round is written: every seat's tokens must fit it
        _check_tokens_for_round(rules, players, round_, phase, specs)

    # what the phase and the markers need of the deck (true of every reachable state)
    def lacks(card: Card) -> bool:
        return deck_spec.count(card) == 0

    needs = {
        Phase.CHANCELLOR: Card.CHANCELLOR,
        Phase.CHANCELLOR_DRAW: Card.CHANCELLOR,
        Phase.BISHOP_REDRAW: Card.BISHOP,
    }.get(phase)
    if needs is not None and lacks(needs):
        raise _bad(
            stoks[0].col,
            "status",
            f"the {rules.preset} deck for {players} players has no {needs}: no seat can be at "
            f"the {phase.value} step",
        )
    if phase in (Phase.REDRAW, Phase.BISHOP_REDRAW) and pending is None:
        raise _bad(stoks[0].col, "status", f"{phase.value} needs pending:Pk (the seat it is for)")
    # Each status field belongs to the phases that have it (the engine clears it otherwise).
    belongs = (
        ("pending", pending is not None, (Phase.REDRAW, Phase.BISHOP_REDRAW)),
        ("draws", draws > 0, (Phase.CHANCELLOR_DRAW,)),
        ("won", bool(won), (Phase.ROUND_OVER, Phase.GAME_OVER)),
        ("next", bool(nxt), (Phase.ROUND_OVER,)),
        ("match", bool(match), (Phase.GAME_OVER,)),
    )
    for field_name, given, phases in belongs:
        if given and phase not in phases:
            raise _bad(
                sstart,
                "status",
                f"{field_name}: belongs to the {' or '.join(p.value for p in phases)} step, "
                f"not to {phase.value}",
            )
    if phase is Phase.REDRAW and not pile.size:
        raise _bad(
            dstart,
            "deck",
            "a replacement is drawn from the deck only while it has cards (from an empty deck "
            "the seat takes the set-aside card at once): redraw needs a card in the deck",
        )
    if phase is Phase.CHANCELLOR_DRAW and not 1 <= draws <= pile.size:
        raise _bad(
            sstart,
            "status",
            f"chancellor_draw needs draws:1 or draws:2, at most the {pile.size} card"
            f"{'' if pile.size == 1 else 's'} in the deck (got draws:{draws})",
        )
    if phase is Phase.REDRAW and pending is not None and specs[pending].hand:
        raise _bad(
            specs[pending].col,
            seat_name(pending),
            "the seat that draws a replacement card has discarded its hand (it holds none)",
        )
    markers = ((syc_tok, Card.SYCOPHANT, "syc"), (jester_tok, Card.JESTER, "jester"))
    for marker, card, what in markers:
        if marker is not None and lacks(card):
            raise _bad(
                marker.col, what, f"the {rules.preset} deck for {players} players has no {card}"
            )
    for i, s in enumerate(specs):
        if s.spied and lacks(Card.SPY):
            raise _bad(
                s.col, seat_name(i), f"the {rules.preset} deck for {players} players has no Spy"
            )
    for i, s in enumerate(specs):
        if s.out and s.hand:
            raise _bad(s.col, seat_name(i), "a seat that is out of the round holds no cards")
        if s.out and s.protected:
            raise _bad(s.col, seat_name(i), "a seat that is out of the round is not protected")

    if jester is not None and jester[0] == jester[1] and not rules.options.jester_self:
        raise _bad(
            jester_tok.col if jester_tok else 1,
            "jester",
            "the Jester's player cannot bet on itself here (jester_self = false)",
        )
    if phase is Phase.ROUND_OVER and not nxt:
        raise _bad(sstart, "status", "round_over needs next:SEATS (who may start the next round)")
    if phase is Phase.DEAL:  # the deal gives each seat one card; nothing is played yet
        for i, s in enumerate(specs):
            if len(s.hand) > 1 or s.discards or s.out or s.protected:
                raise _bad(
                    s.col,
                    seat_name(i),
                    "the position cannot exist: during the deal a seat holds at most one "
                    "card, has discarded nothing and is neither out nor protected",
                )
    if phase in _EFFECT_STEPS:
        _check_effect_step(
            rules, phase, turn, pending, draws, specs, pile, players, len(face_up), sycophant
        )
    for i, s in enumerate(specs):  # at every phase (after the effect steps' own)
        if Card.PRINCESS in s.discards and not s.out:
            raise _bad(
                s.col,
                seat_name(i),
                "the position cannot exist: it has discarded the Princess but is still in the "
                "round (whoever plays or discards the Princess is out at once)",
            )
    if phase is Phase.PLAY or phase is Phase.TURN_DRAW:
        # position() rejects a self-bet even under jester_self (checked above instead).
        checked_jester = jester if jester is None or jester[0] != jester[1] else None
        try:
            position(
                rules,
                players=players,
                turn=turn,
                hands={i: s.hand for i, s in enumerate(specs)},
                deck=pile.cards(),
                set_aside=set_aside,
                face_up=face_up,
                discards={i: s.discards for i, s in enumerate(specs)},
                protected=[i for i, s in enumerate(specs) if s.protected],
                out=[i for i, s in enumerate(specs) if s.out],
                tokens={i: s.tokens for i, s in enumerate(specs)},
                sycophant=sycophant,
                jester=checked_jester,
                spied=[i for i, s in enumerate(specs) if s.spied],
                drawn=phase is Phase.PLAY,
                round=round_,
                starter=starter,
            )
        except MalformedInput as exc:
            raise MalformedInput(f"the position cannot exist: {exc}") from None

    seats = tuple(Seat(s.hand, s.discards, s.out, s.protected, s.tokens, s.spied) for s in specs)
    return State(
        rules=rules,
        players=players,
        seats=seats,
        pile=pile,
        set_aside=set_aside,
        face_up=face_up,
        phase=phase,
        turn=turn,
        pending_seat=pending,
        chancellor_draws=draws,
        sycophant=sycophant,
        jester=jester,
        round=round_,
        starter=turn if starter is None else starter,
        round_winners=won,
        next_starters=nxt,
        game_winners=match,
        log=(),
    )


_EFFECT_STEPS = frozenset(
    {Phase.REDRAW, Phase.CHANCELLOR_DRAW, Phase.CHANCELLOR, Phase.BISHOP_REDRAW}
)
_REDRAW_CAUSES = (Card.PRINCE, Card.BISHOP)


def _check_tokens_for_round(
    rules: Ruleset, players: int, round_: int, phase: Phase, specs: Sequence[_SeatSpec]
) -> None:
    """What every state reached by play satisfies, checked when the position writes its
    round: a seat's tokens come from the rounds that have ended, at most one each for
    winning it, for the Spy's bonus (R12) and for a Jester's bet (R23), one per Bishop hit
    (R16) and one for the Constable (R18) a round; and from the round under way, whose
    Bishop hits and Constable pay at once. So in round 1 of a deck without those two cards
    every seat has t0. (A position without ``rN`` is in round 1 by default and states its
    tokens freely, as a scenario's position does.)"""
    deck = rules.deck(players)
    at_once = deck.count(Card.BISHOP) + min(1, deck.count(Card.CONSTABLE))
    gains = [  # (what pays, the most it pays a seat in a round)
        ("one for winning it", 1),
        ("one for the Spy", min(1, deck.count(Card.SPY))),
        ("one for a Jester's bet", min(1, deck.count(Card.JESTER))),
        ("one per Bishop hit", deck.count(Card.BISHOP)),
        ("one for the Constable", min(1, deck.count(Card.CONSTABLE))),
    ]
    sources = [what for what, most in gains if most]
    per_round = sum(most for _, most in gains)
    ended = round_ if phase in (Phase.ROUND_OVER, Phase.GAME_OVER) else round_ - 1
    most = ended * per_round + (at_once if ended < round_ else 0)
    for i, spec in enumerate(specs):
        if spec.tokens > most:
            so_far = (
                "no round has ended"
                if not ended
                else f"{ended} round{_s(ended)} ha{'s' if ended == 1 else 've'} ended"
            )
            now = " and this round's Bishop hits and Constable pay at once" if at_once else ""
            raise _bad(
                spec.col,
                seat_name(i),
                f"the position cannot exist: it has {spec.tokens} token{_s(spec.tokens)} in "
                f"round {round_}, "
                f"but {so_far} and a seat gains at most {per_round} token{_s(per_round)} a "
                f"round ({', '.join(sources)}){now}: it can have at most {most}",
            )


def _check_effect_step(
    rules: Ruleset,
    phase: Phase,
    turn: int,
    pending: int | None,
    draws: int,
    specs: Sequence[_SeatSpec],
    pile: DrawPile,
    players: int,
    face_up: int,
    sycophant: int | None,
) -> None:
    """What every state reached by play at a step inside a card's effect satisfies (the
    ``play`` and ``turn_draw`` steps are checked by :func:`~loveformal.position.position`).

    A card's effect is under way, so: at least two seats are in (with one left the round
    ends at once, §1.1.7a); nobody has reached the match's token count (the match would be
    over); no more cards are face up than the deal removes; a Sycophant's mark is on a seat
    still in; the seat in turn is not protected, and is out only after its Guard chose an
    Assassin (R6, under ``assassin_redraw``); the seat that redraws or may redraw is another
    seat still in, unprotected, that has not just discarded the Princess (R1); a Bishop's
    redraw under ``bishop_redraw = on_hit`` follows a hit, so its player has a token; every
    seat still in holds one card except the seat the effect is about (the Chancellor's
    player: its card and what it drew, R10, D27); and the card that started the effect is on
    top of its player's discard pile.
    """

    def bad(seat: int, message: str) -> MalformedInput:
        return _bad(specs[seat].col, seat_name(seat), f"the position cannot exist: {message}")

    step = f"at the {phase.value} step"
    if sum(not s.out for s in specs) < 2:
        raise bad(
            next((i for i, s in enumerate(specs) if not s.out), turn),
            f"only one seat is still in the round, so the round has ended; no card's effect "
            f"can be under way {step}",
        )
    goal = rules.options.tokens_for(players)
    for i, s in enumerate(specs):
        if s.tokens >= goal:
            raise bad(i, f"it has {s.tokens} tokens; the match ends at {goal}")
    allowed_up = face_up_limit(rules, players)
    if face_up > allowed_up:
        raise bad(
            turn,
            f"{face_up} card{_s(face_up)} face up, but the ruleset removes {allowed_up} face up "
            f"with {players} players",
        )
    if sycophant is not None and specs[sycophant].out:
        raise bad(sycophant, "it is out of the round, so no Sycophant's mark is on it")
    me = specs[turn]
    if me.protected:
        raise bad(
            turn,
            f"{step} it is protected, but a Handmaid's protection ends at the start of its "
            "player's turn",
        )
    # Only a Guard that chose an Assassin knocks its own player out mid-effect (R6).
    assassin = (
        phase is Phase.REDRAW
        and pending is not None
        and pending != turn
        and specs[pending].discards[-1:] == (Card.ASSASSIN,)
    )
    if me.out and not assassin:
        raise bad(turn, f"it is out of the round, but its card's effect is under way {step}")
    if me.out and not rules.options.assassin_redraw:
        raise bad(
            turn,
            f"{step} the Assassin's holder draws a new card only under assassin_redraw = true",
        )
    if me.out and me.discards[-2:-1] != (Card.GUARD,):
        raise bad(
            turn,
            f"{step} it chose the Assassin with a Guard and is out, so its discard pile must "
            "end with the Guard and then the card it held (d:...,Guard,CARD)",
        )
    if pending is not None:
        target = specs[pending]
        if target.out:
            raise bad(pending, f"{step} it is out of the round, so it draws no card")
        if target.protected and pending != turn:
            raise bad(
                pending,
                f"{step} it is protected, so no card could make it discard and draw",
            )
        if phase is Phase.BISHOP_REDRAW and pending == turn:
            raise bad(pending, f"{step} the Bishop chooses another player, not its own")
        if phase is Phase.REDRAW and target.discards[-1:] == (Card.PRINCESS,):
            raise bad(
                pending,
                f"{step} it has just discarded the Princess, which knocks it out: it draws nothing",
            )
    bishop_hit = (
        phase is Phase.BISHOP_REDRAW
        or (phase is Phase.REDRAW and pending != turn and me.discards[-1:] == (Card.BISHOP,))
    ) and rules.options.bishop_redraw == "on_hit"
    if bishop_hit and not me.out and me.tokens == 0:
        raise bad(
            turn,
            f"{step} its Bishop hit (a redraw follows only a hit under bishop_redraw = "
            "on_hit), so it has gained a token, but it has t0",
        )
    held = len(me.hand)
    if phase is Phase.CHANCELLOR or phase is Phase.CHANCELLOR_DRAW:
        if me.discards[-1:] != (Card.CHANCELLOR,):
            raise bad(
                turn,
                f"{step} the seat has just played a Chancellor, so it must be the last card "
                f"of its discard pile (d:...,Chancellor)",
            )
        # It draws 2, or the deck's last card (R10) unless that has no effect (D27).
        short = rules.options.chancellor_short_deck != "no_effect_below_two"
        if phase is Phase.CHANCELLOR_DRAW:
            # draws:2 -> nothing drawn yet; draws:1 -> one drawn, or the deck's last card next.
            allowed = (1,) if draws == 2 else (2, 1) if short and pile.size == 1 else (2,)
            why = f"with draws:{draws} still to come"
        else:
            allowed = (3, 2) if short and not pile.size else (3,)
            why = (
                "its own card and the two it drew, or the deck's last card"
                if len(allowed) == 2
                else "its own card and the two it drew"
                + (
                    f"; it draws fewer only when the deck runs out, and {pile.size} "
                    f"card{_s(pile.size)} {'is' if pile.size == 1 else 'are'} left"
                    if pile.size
                    else "; with one card in the deck the Chancellor has no effect here"
                    if not short
                    else ""
                )
            )
        if held not in allowed:
            want = " or ".join(map(str, allowed))
            raise bad(turn, f"{step} it holds {held} card{_s(held)}; it must hold {want} ({why})")
    elif phase is Phase.BISHOP_REDRAW:
        if me.discards[-1:] != (Card.BISHOP,):
            raise bad(
                turn,
                f"{step} the seat has just played a Bishop, so it must be the last card of "
                "its discard pile (d:...,Bishop)",
            )
    elif pending is not None:  # REDRAW
        if not specs[pending].discards:
            raise bad(
                pending, f"{step} it has just discarded its hand, but its discard pile is empty"
            )
        if pending == turn:
            if me.discards[-2:-1] != (Card.PRINCE,):
                raise bad(
                    turn,
                    f"{step} the seat discarded its own hand with a Prince, so its discard pile "
                    "must end with the Prince and then the discarded card (d:...,Prince,CARD)",
                )
        elif not me.out and me.discards[-1:] not in [(c,) for c in _REDRAW_CAUSES]:
            raise bad(
                turn,
                f"{step} the card it has just played (a Prince, or a Bishop whose target "
                "redraws) must be the last card of its discard pile",
            )
    for i, s in enumerate(specs):
        if s.out or (phase is Phase.REDRAW and i in (pending, turn)):
            continue
        if i == turn and phase is not Phase.BISHOP_REDRAW:
            continue
        if len(s.hand) != 1:
            raise bad(i, f"{step} it holds {len(s.hand)} card{_s(len(s.hand))}; it must hold 1")
    if phase is Phase.REDRAW and pending != turn and not me.out and held != 1:
        raise bad(turn, f"{step} it holds {held} card{_s(held)}; it must hold 1")


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"
