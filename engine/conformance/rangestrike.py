"""Answer ``rangestrike`` cases: range, line of sight, legality and values (RULES §10)."""

from __future__ import annotations

from typing import Any

from engine.battle.los import line_of_sight
from engine.battle.position import Fighter, Position, Side, fighter
from engine.battle.rangestrike import (
    can_rangestrike,
    rangestrike_range,
    rangestrike_values,
)
from engine.battleland import check_label

#: The creature standing in for a blocker given as a bare hex.
_DEFAULT_BLOCKER = "Ogre"


def _blocker(raw: str | dict[str, Any]) -> Fighter:
    """A blocker: a bare hex (a character of the rangestriker's side) or an object."""
    if isinstance(raw, str):
        return fighter(_DEFAULT_BLOCKER, Side.ATTACKER, check_label(raw))
    side = Side(raw.get("side", Side.ATTACKER.value))
    return fighter(raw.get("creature", _DEFAULT_BLOCKER), side, check_label(raw["hex"]))


def _end(inp: dict[str, Any], role: str, side: Side) -> Fighter:
    """The striker or the target; a Titan's Power follows its owner's score."""
    raw = inp[role]
    score = int(raw.get("score", inp.get(f"{role}_score", 0)))
    return fighter(raw["creature"], side, check_label(raw["hex"]), score=score)


def answer_rangestrike(inp: dict[str, Any]) -> dict[str, Any]:
    """The answer to one ``rangestrike`` case (see the conformance README)."""
    striker = _end(inp, "striker", Side.ATTACKER)
    target = _end(inp, "target", Side.DEFENDER)
    blockers = tuple(_blocker(raw) for raw in inp.get("blockers", ()))
    position = Position(inp["terrain"], (striker, target, *blockers))
    sight = line_of_sight(position.land, striker.hex, target.hex, position.occupied())
    answer: dict[str, Any] = {
        "range": rangestrike_range(striker.hex, target.hex),
        "los_blocked": not sight.clear,
        "can_rangestrike": can_rangestrike(position, striker, target),
    }
    if answer["can_rangestrike"]:
        values = rangestrike_values(position, striker, target)
        answer["dice"] = values.dice
        answer["strike_number"] = values.strike_number
    return answer
