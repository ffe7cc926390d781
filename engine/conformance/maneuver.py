"""Answer ``maneuver`` cases: the hexes a character may reach in one maneuver (RULES §8.5)."""

from __future__ import annotations

from typing import Any

from engine.battle.maneuver import deployment_hexes, entry_hexes, reachable
from engine.battle.position import Position, Side, fighter
from engine.battleland import (
    EDGES,
    TOWER_ATTACKER_EDGE,
    Edge,
    attacker_edge,
    battleland,
    check_label,
    defender_edge,
    edge_name,
)
from engine.errors import InvalidNotation

#: Other characters only occupy hexes here; who they are does not matter to a maneuver.
STAND_IN = "Ogre"
ENTRANCE = "entrance"


def _side(raw: object) -> Side:
    try:
        return Side(raw)
    except ValueError:
        raise InvalidNotation(f"{raw!r} is not a side (attacker or defender)") from None


def _entry_edge(raw: object, side: Side, tower: bool) -> Edge:
    """The edge ``side`` enters by, given the attacker's edge named like ``A1-D1`` (§8.3)."""
    if raw is None and tower:
        raw = edge_name(EDGES[TOWER_ATTACKER_EDGE])
    attacker = [e for e in EDGES if e.role == "attacker" and edge_name(e) == raw]
    if not attacker:
        raise InvalidNotation(f"{raw!r} is not an attacker's edge (A1-D1, F1-F4, A3-D6)")
    choose = attacker_edge if side is Side.ATTACKER else defender_edge
    return choose(attacker[0].index, tower=tower)


def answer_maneuver(inp: dict[str, Any]) -> dict[str, Any]:
    """``{"moves": [...]}``: the hexes the character may end its maneuver in, sorted."""
    terrain = str(inp["terrain"])
    name = str(inp["creature"])
    side = _side(inp["side"])
    others = tuple(
        fighter(STAND_IN, owner, check_label(str(h)))
        for owner, key in ((side, "friendly"), (side.other, "enemy"))
        for h in inp.get(key, ())
    )
    start = str(inp["hex"])
    tower = battleland(terrain).is_tower
    if inp.get("tower_first_turn") and side is Side.DEFENDER and tower:
        moves = deployment_hexes(Position(terrain, others))
    elif start == ENTRANCE:
        edge = _entry_edge(inp.get("entry_edge"), side, tower)
        moves = entry_hexes(Position(terrain, others), name, edge)
    else:
        who = fighter(name, side, start)
        moves = reachable(Position(terrain, (who, *others)), who)
    return {"moves": sorted(moves)}
