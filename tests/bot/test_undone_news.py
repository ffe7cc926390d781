"""The news without the moves taken back (:mod:`bot.narration.undone`), read in the words
the narrators write: a take-back and the move it undid leave together, last move first
(RULES §4.7); what was shown stays told."""

from __future__ import annotations

from bot.narration.narrate import Names, narrate
from bot.narration.undone import without_taken_back
from engine.battle import events as bv
from engine.battle.position import Side
from engine.events import Event
from engine.game import events as ev
from engine.movement import MoveKind
from tests.engine.battle.helpers import battle_game
from tests.engine.game.helpers import pos

D = Side.DEFENDER
NORMAL, TOWER = MoveKind.NORMAL, MoveKind.TOWER_TELEPORT


def battle_news(*events: Event) -> tuple[str, ...]:
    """The lines of ``events`` during the battle of ``Rd02`` (Ann) against ``Bk01`` (Bob)."""
    return tuple(narrate(events, Names(battle_game("Plains t2: Bk01 Ogre@A1 | Rd02 Troll@F4"))))


def board_news(*events: Event) -> tuple[str, ...]:
    state = pos("Bk01@100:Titan,Angel,Ogre Bk02@42:Troll Rd01@600:Titan | turn=Bk phase=move")
    return tuple(narrate(events, Names(state)))


def test_a_character_moved_and_taken_back_leaves_no_line():
    news = battle_news(
        bv.CharacterMoved(D, "Ogre", None, "E1"),
        bv.CharacterMoved(D, "Ogre", "A1", "B2"),
        bv.ManeuverTakenBack(D, "Ogre", "A1", "B2"),
        bv.CharacterMoved(D, "Ogre", "A1", "C3"),
    )
    assert without_taken_back(news) == ("Bk01's Ogre enters at E1.", "Bk01's Ogre moves A1 → C3.")


def test_two_characters_of_one_name_are_taken_back_last_first():
    news = battle_news(
        bv.CharacterMoved(D, "Ogre", None, "E1"),
        bv.CharacterMoved(D, "Ogre", None, "E2"),
        bv.ManeuverTakenBack(D, "Ogre", None, "E2"),
        bv.ManeuverTakenBack(D, "Ogre", None, "E1"),
        bv.CharacterMoved(D, "Ogre", None, "D1"),
    )
    assert without_taken_back(news) == ("Bk01's Ogre enters at D1.",)


def test_a_take_back_whose_move_is_not_in_the_news_stays():
    news = battle_news(bv.ManeuverTakenBack(D, "Ogre", "A1", "B2"))
    assert without_taken_back(news) == news
    assert len(news) == 1 and "goes back from B2 to A1" in news[0]


def test_a_legion_moved_and_taken_back_leaves_no_line_the_others_stay():
    news = board_news(
        ev.LegionMoved("Bk02", 42, 6, NORMAL, None),
        ev.LegionMoved("Bk01", 100, 7, NORMAL, None),
        ev.MoveTakenBack("Bk01", 100),
        ev.LegionMoved("Bk01", 100, 8, NORMAL, None),
        ev.MoveTakenBack("Bk01", 100),
        ev.MoveTakenBack("Bk02", 42),
        ev.LegionMoved("Bk02", 42, 42, NORMAL, None),
    )
    kept = without_taken_back(news)
    assert len(news) == 7 and len(kept) == 1
    assert "Bk02" in kept[0] and "round a loop from 42 back to 42" in kept[0]


def test_a_teleport_that_showed_a_lord_stays_told_with_its_take_back():
    news = board_news(
        ev.LegionMoved("Bk01", 100, 4, TOWER, None, lord="Angel"),
        ev.MoveTakenBack("Bk01", 100),
    )
    assert without_taken_back(news) == news
    assert "revealing Angel" in news[0] and "taken back" in news[1]
