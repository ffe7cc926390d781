"""A move round a loop back to its start (RULES §2.5) says so, on its choice and in the news."""

from __future__ import annotations

from bot.narration.narrate import Names, narrate
from bot.offers import step
from bot.offers.labels import describe, land_words
from engine.game import actions as a
from engine.game.events import LegionMoved
from tests.engine.game.helpers import act, of_type, pos

#: From 42 a 6 may end in 42 itself (errata 6.2/18.0) or in 6.
LOOP = "Bk01@42:Titan,Troll*2 Rd01@600:Titan | turn=Bk phase=move roll=6"


def test_the_choice_of_a_loop_says_it_comes_back_here_and_a_plain_move_does_not():
    state = pos(LOOP)
    labels = [o.label for o in step(state, 0, "move", ["Bk01"]).choices.offers()]
    loop = f"{land_words(42)}, round a loop back here"
    assert [x for x in labels if x.startswith("42 ")] == [loop]
    assert [x for x in labels if x.startswith("6 ")] == [land_words(6)]
    assert describe(a.Move("Bk01", 42), state) == f"Bk01 to {loop}"


def test_the_news_of_a_loop_says_the_legion_went_round_and_came_back():
    state = pos(LOOP)
    after, events = act(state, 0, a.Move("Bk01", 42))
    lines = narrate(of_type(events, LegionMoved), Names(state, after))
    assert len(lines) == 1 and "moves round a loop from 42 back to 42." in lines[0]
    _, events = act(state, 0, a.Move("Bk01", 6))
    assert "moves 42 → 6." in narrate(of_type(events, LegionMoved), Names(state))[0]
