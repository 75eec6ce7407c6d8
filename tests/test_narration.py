"""Every event kind reads as a sentence, and hidden cards stay hidden."""

from __future__ import annotations

import random

from loveformal.engine import is_terminal, new_match
from loveformal.events import EventKind
from loveformal.narration import narrate
from loveformal.rulebook import make_ruleset, preset_names
from loveformal.sampling import random_step


def test_every_event_of_random_play_is_narrated_without_leaking_hidden_cards() -> None:
    kinds: set[EventKind] = set()
    for preset in preset_names():
        rules = make_ruleset(preset)
        for players in (rules.min_players, rules.max_players):
            rng = random.Random(players)
            state = new_match(rules, players)
            for _ in range(400):
                if is_terminal(state):
                    break
                state, _ = random_step(state, rng)
                for event in state.log[-3:]:
                    kinds.add(event.kind)
                    text = narrate(event)
                    assert text.endswith((".", "!")) and "?" not in text
                    hidden = narrate(event.public())
                    if event.visible_to is not None and event.card is not None:
                        assert event.card.title not in hidden
    assert {EventKind.PLAYED, EventKind.DREW, EventKind.KNOCKED_OUT} <= kinds
    assert len(kinds) >= 15
