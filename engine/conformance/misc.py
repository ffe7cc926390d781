"""Answer ``misc`` cases: Titan power, characters, nativity, acquisitions, lands, edges."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.acquisition import best_acquisition
from engine.battleland import attacker_edge, edge_name
from engine.characters import ANGEL, ARCHANGEL, can_titan_teleport, character, titan_power
from engine.errors import InvalidNotation
from engine.masterboard import ENTRY_SIDES, TOWER_ENTRY_SIDE, land

#: Hazard spellings of the shared reference data that the engine writes otherwise.
HAZARD_ALIASES = {"Brambles": "Bramble"}


def _titan_power(inp: dict[str, Any]) -> dict[str, Any]:
    score = int(inp["score"])
    return {"power": titan_power(score), "can_titan_teleport": can_titan_teleport(score)}


def _creature(inp: dict[str, Any]) -> dict[str, Any]:
    c = character(str(inp["creature"]))
    score = int(inp.get("score", 0))
    return {
        "power": c.power_at(score),
        "skill": c.skill,
        "points": c.value_at(score),
        "flies": c.flies,
        "rangestrikes": c.rangestrikes,
        "magic_missile": c.magic_missile,
        "character_type": c.kind.value,
    }


def _native(inp: dict[str, Any]) -> dict[str, Any]:
    hazard = str(inp["hazard"])
    return {
        "native": character(str(inp["creature"])).is_native_to(HAZARD_ALIASES.get(hazard, hazard))
    }


def _angels(inp: dict[str, Any]) -> dict[str, Any]:
    before, points = int(inp["score_before"]), int(inp["points"])
    taken = best_acquisition(before, before + points, int(inp["legion_height"]))
    return {
        "angels": taken.count(ANGEL),
        "archangels": taken.count(ARCHANGEL),
        "score_after": before + points,
    }


def _land(inp: dict[str, Any]) -> dict[str, Any]:
    return {"terrain": land(int(inp["land"])).terrain}


def _teleport_entry_edges(inp: dict[str, Any]) -> dict[str, Any]:
    """A Titan teleport may enter by any side, off-board ones too (errata 10.4)."""
    here = land(int(inp["land"]))
    sides = (TOWER_ENTRY_SIDE,) if here.is_tower else ENTRY_SIDES
    return {"edges": sorted({edge_name(attacker_edge(s, here.is_tower)) for s in sides})}


def _offboard_edges(inp: dict[str, Any]) -> dict[str, Any]:
    here = land(int(inp["land"]))
    off = [s for s in ENTRY_SIDES if here.across_entry_side(s) is None]
    return {"edges": sorted({edge_name(attacker_edge(s, here.is_tower)) for s in off})}


QUERIES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "titan_power": _titan_power,
    "creature": _creature,
    "native": _native,
    "angels": _angels,
    "land": _land,
    "teleport_entry_edges": _teleport_entry_edges,
    "offboard_edges": _offboard_edges,
}


def answer_misc(inp: dict[str, Any]) -> dict[str, Any]:
    """The answer to one ``misc`` query (see the conformance README's table)."""
    query = QUERIES.get(str(inp.get("query")))
    if query is None:
        raise InvalidNotation(f"unknown misc query {inp.get('query')!r}")
    return query(inp)
