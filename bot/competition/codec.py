"""A game result as stored (JSON), and back."""

from __future__ import annotations

from typing import Any

from bot.tournament.places import Ending, GameResult, Place
from bot.tournament.rolloff import RollOff
from engine.dice import Dice


def result_to_json(result: GameResult) -> dict[str, Any]:
    rolled = result.rolloff
    return {
        "ending": result.ending.value,
        "places": [
            {"player": p.player, "place": p.place, "titan_kills": p.titan_kills, "score": p.score}
            for p in result.places
        ],
        "rolloff": None
        if rolled is None
        else {
            "attacker": rolled.attacker,
            "defender": rolled.defender,
            "rolls": list(rolled.rolls),
        },
    }


def result_from_json(data: dict[str, Any]) -> GameResult:
    places = tuple(
        Place(str(p["player"]), int(p["place"]), int(p["titan_kills"]), int(p["score"]))
        for p in data["places"]
    )
    raw = data.get("rolloff")
    rolled = None
    if raw is not None:
        rolls = tuple(int(r) for r in raw["rolls"])
        rolled = RollOff(str(raw["attacker"]), str(raw["defender"]), rolls, Dice(0))
    return GameResult(places, Ending(data["ending"]), rolled)
