"""Answer ``carry`` and ``resolve`` cases: announcements and carry-over (RULES §9.4, §9.5)."""

from __future__ import annotations

from typing import Any

from engine.battle.carry import (
    carry_targets,
    declaration_problem,
    resolve_strike,
)
from engine.battle.strike import StrikeValues, strike_problem, strike_values
from engine.conformance.strike import battle_from_input


def _declared(inp: dict[str, Any]) -> StrikeValues | None:
    raw = inp.get("declared")
    if raw is None:
        return None
    return StrikeValues(int(raw["dice"]), int(raw["strike_number"]))


def answer_carry(inp: dict[str, Any]) -> dict[str, Any]:
    """``{"can_strike", "natural", "declaration_legal", "carry_targets"}``."""
    position, striker, target = battle_from_input(inp)
    if strike_problem(position, striker, target) is not None:
        return {"can_strike": False}
    natural = strike_values(position, striker, target)
    declared = _declared(inp) or natural
    legal = declaration_problem(position, striker, target, declared) is None
    targets = carry_targets(position, striker, target, declared) if legal else []
    return {
        "can_strike": True,
        "natural": [natural.dice, natural.strike_number],
        "declaration_legal": legal,
        "carry_targets": [f.hex for f in targets],
    }


def answer_resolve(inp: dict[str, Any]) -> dict[str, Any]:
    """``{"hits", "target_slain", "carry_hits"}`` of a strike with the given ``rolls``."""
    position, striker, target = battle_from_input(inp)
    result = resolve_strike(position, striker, target, _declared(inp), inp["rolls"])
    return {
        "hits": result.hits,
        "target_slain": result.target_slain,
        "carry_hits": result.carry_hits,
    }
