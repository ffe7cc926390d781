"""Counts in words agree with their number: ``1 legion``, ``2 legions`` (engine.words.plural),
in the narration, the status, the pictures' texts and the tournament's words."""

from __future__ import annotations

from dataclasses import replace

from bot.competition.settings import TournamentSettings
from bot.narration.describe import legion_text, status_text
from bot.narration.narrate import Names, narrate
from engine.game.events import PointsScored, TimeLimitExpired
from engine.game.notation import parse_position
from engine.game.view import LegionView
from engine.words import plural

ONE_EACH = "Bk01@41:Titan Rd01@600:Titan,Ogre Rd02@300:Troll,Ogre | turn=Bk phase=split scores=Bk:1"


def test_plural_says_one_and_many():
    assert [plural(n, "legion") for n in (0, 1, 2)] == ["0 legions", "1 legion", "2 legions"]
    assert plural(1, "die", "dice") == "1 die" and plural(3, "die", "dice") == "3 dice"


def test_status_counts_points_and_legions_in_agreement():
    lines = status_text(parse_position(ONE_EACH)).splitlines()
    black = next(line for line in lines if line.startswith("  Black:"))
    red = next(line for line in lines if line.startswith("  Red:"))
    assert black.endswith(", 1 point, 1 legion") and red.endswith(", 0 points, 2 legions")


def test_a_legion_of_one_has_1_character():
    hidden = LegionView("Rd01", 1, "Red", 41, 1, None, ())
    assert legion_text(hidden) == "Rd01 in 41 (Marsh): 1 character"
    assert legion_text(replace(hidden, height=2)) == "Rd01 in 41 (Marsh): 2 characters"


def test_points_and_the_time_limit_in_words():
    names = Names(parse_position(ONE_EACH))
    lines = narrate([PointsScored(0, 1, 2, "a test"), TimeLimitExpired(3)], names)
    assert lines == [
        "Black scores 1 point (a test): 2 in all.",
        "The time limit has expired: this turn is played out, then every player takes one "
        "more turn (errata 21.1).",
    ]


def test_a_tournament_of_one_heat_counting_a_player_s_first_game():
    words = TournamentSettings(heats=1, max_games=1).describe()
    assert words.startswith("1 heat of 3–4-player games, ")
    assert ", a player's first game counts; " in words
    many = TournamentSettings(heats=3, max_games=2).describe()
    assert many.startswith("3 heats of ") and ", a player's first 2 games count; " in many


def test_a_tournament_of_one_table_size_names_it_once():
    two = TournamentSettings(heats=2, min_players=2, max_players=2).describe()
    assert two.startswith("2 heats of 2-player games, "), two
