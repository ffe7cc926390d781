"""Answer ``hexinfo`` cases: a battle hex's hazard, elevation, neighbours, hexsides (RULES §8.2)."""

from __future__ import annotations

from typing import Any

from engine.battleland import PLAIN, battleland

#: The conformance format reports the walled Tower hexes as Plain (README "Hazard names").
_REPORTED_AS = {"Tower": PLAIN}


def answer_hexinfo(inp: dict[str, Any]) -> dict[str, Any]:
    """``{"hazard", "elevation", "neighbors", "hexsides"}`` of ``inp["hex"]`` in ``inp["terrain"]``.

    Each hexside hazard is listed once, with ``high_side`` ``"this"`` when it lies on this
    hex's side (this hex is the upper one) and ``"neighbor"`` otherwise.
    """
    here = battleland(str(inp["terrain"])).hex(str(inp["hex"]))
    hexsides = []
    for side, neighbour in enumerate(here.neighbours):
        if neighbour is None:
            continue
        for hazard, high in ((here.hexsides[side], "this"), (here.opposite[side], "neighbor")):
            if hazard is not None:
                hexsides.append({"neighbor": neighbour, "hazard": hazard, "high_side": high})
    return {
        "hazard": _REPORTED_AS.get(here.hazard, here.hazard),
        "elevation": here.elevation,
        "neighbors": sorted(n for n in here.neighbours if n is not None),
        "hexsides": hexsides,
    }
