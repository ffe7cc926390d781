"""Runs of like events told in one line (:mod:`bot.narration.runs`): an eliminated player's
legions (RULES §12.1) and the legions shown at the game's end, so that a game's last news
keep what decided it within one message."""

from __future__ import annotations

from bot.narration.narrate import Names, narrate
from engine.game import events as ev
from tests.engine.game.helpers import pos
from tests.engine.game.test_engagements import DUEL

#: Seat 0 is Black (Bk…), seat 1 Red (Rd…).
NAMES = Names(pos(DUEL))


def test_an_eliminated_players_legions_are_told_in_one_line():
    lines = narrate(
        [
            ev.CharactersSlain("Bk01", ("Titan", "Troll"), "survivors of a slain Titan"),
            ev.CharactersSlain("Bk02", ("Angel", "Ogre"), "player eliminated"),
            ev.LegionEliminated("Bk02", 0),
            ev.CharactersSlain("Bk03", ("Lion", "Lion"), "player eliminated"),
            ev.LegionEliminated("Bk03", 0),
            ev.PlayerEliminated(0, 1, ev.TITAN_LOST),
        ],
        NAMES,
    )
    assert len(lines) == 3
    assert lines[0] == "Bk01 (Black) loses Titan, Troll (survivors of a slain Titan)."
    assert lines[1] == "Black's legions are eliminated: Bk02 (Angel, Ogre), Bk03 (Lion ×2)."
    assert lines[2].startswith("Black is out of the game")


def test_the_legions_shown_at_the_end_are_told_a_line_a_player():
    shown = [
        ev.Revealed("Rd01", ("Lion", "Ogre"), ev.GAME_OVER),
        ev.Revealed("Rd02", ("Titan",), ev.GAME_OVER),
        ev.Revealed("Bk01", ("Titan", "Troll", "Troll"), ev.GAME_OVER),
    ]
    assert narrate(shown, NAMES) == [
        "Red's legions at the game's end: Rd01 (Lion, Ogre), Rd02 (Titan).",
        "Bk01 (Black) shows Titan, Troll ×2 (game over).",
    ]
    engaged = ev.Revealed("Rd01", ("Lion", "Ogre"), ev.ENGAGEMENT)
    assert narrate([engaged, engaged], NAMES) == ["Rd01 (Red) shows Lion, Ogre (engagement)."] * 2
