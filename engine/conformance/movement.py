"""Answer ``movement`` cases: masterboard moves for one roll (RULES §2.3, §4.4, §4.5)."""

from __future__ import annotations

from typing import Any

from engine.movement import MoveContext, normal_moves, titan_teleports, tower_teleports


def answer_movement(inp: dict[str, Any]) -> dict[str, Any]:
    """Normal moves (with the land entered from), teleports and all destinations."""
    ctx = MoveContext.for_legion(
        int(inp["land"]),
        int(inp["roll"]),
        inp.get("legion", ()),
        friendly=(int(n) for n in inp.get("friendly", ())),
        enemy=(int(n) for n in inp.get("enemy", ())),
        score=int(inp.get("score", 0)),
        teleported_this_turn=bool(inp.get("teleported_this_turn", False)),
    )
    normal = normal_moves(ctx)
    tower = [o.destination for o in tower_teleports(ctx)]
    titan = [o.destination for o in titan_teleports(ctx)]
    return {
        "normal": [{"land": o.destination, "from": v} for o in normal for v in o.via],
        "tower_teleport": tower,
        "titan_teleport": titan,
        "destinations": sorted({o.destination for o in normal} | set(tower) | set(titan)),
    }
