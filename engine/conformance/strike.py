"""Answer ``strike`` cases: may the striker strike, with what dice and strike number (RULES §9)."""

from __future__ import annotations

from typing import Any

from engine.battle.position import Fighter, Position, Side, fighter
from engine.battle.strike import strike_problem, strike_values


def battle_from_input(inp: dict[str, Any]) -> tuple[Position, Fighter, Fighter]:
    """(position, striker, target) from a strike/carry case input.

    The striker is the attacker; the target and ``others`` (with their ``hits``) defend.
    ``striker_score`` / ``target_score`` set each side's Titan Power.
    """
    striker_score = int(inp.get("striker_score", 0))
    target_score = int(inp.get("target_score", 0))

    def defender(raw: dict[str, Any]) -> Fighter:
        return fighter(
            raw["creature"],
            Side.DEFENDER,
            raw["hex"],
            score=target_score,
            hits=int(raw.get("hits", 0)),
        )

    raw_striker = inp["striker"]
    striker = fighter(
        raw_striker["creature"],
        Side.ATTACKER,
        raw_striker["hex"],
        score=striker_score,
        hits=int(raw_striker.get("hits", 0)),
    )
    target = defender(inp["target"])
    others = tuple(defender(raw) for raw in inp.get("others", ()))
    return Position(inp["terrain"], (striker, target, *others)), striker, target


def answer_strike(inp: dict[str, Any]) -> dict[str, Any]:
    """``{"can_strike", "dice", "strike_number"}`` (only ``can_strike`` when it may not)."""
    position, striker, target = battle_from_input(inp)
    if strike_problem(position, striker, target) is not None:
        return {"can_strike": False}
    values = strike_values(position, striker, target)
    return {"can_strike": True, "dice": values.dice, "strike_number": values.strike_number}
