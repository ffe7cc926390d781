"""A battleland's ground in words (RULES §8.2): what stands on a hex, and the whole map's
hazards and elevations, for readers without the picture (the terminal, a screen reader)."""

from __future__ import annotations

from collections import defaultdict

from engine.battleland import PLAIN, Battleland


def hex_words(land: Battleland | None, label: str) -> str:
    """A hex with what stands on it where it is not plain ground: ``B2 (Bramble)``,
    ``D4 (Volcano, elevation 2)``, ``C3 (elevation 1)``."""
    parts = ground_of(land, label)
    return f"{label} ({', '.join(parts)})" if parts else label


def ground_of(land: Battleland | None, label: str) -> list[str]:
    """What stands on hex ``label``: its hazard and elevation, where not plain and level."""
    if land is None:
        return []
    found = land.hex(label)
    parts = [found.hazard] if found.hazard != PLAIN else []
    return parts + ([f"elevation {found.elevation}"] if found.elevation else [])


def ground_text(land: Battleland) -> str:
    """``Bramble A3 B2 …; elevation 1: B1 B3; Slope B1>A1 …`` in the notation of the rules'
    table (``X>Y``: the hazard on X's side of the border with Y); plain and level ground
    is left out."""
    hazards: dict[str, list[str]] = defaultdict(list)
    heights: dict[int, list[str]] = defaultdict(list)
    sides: dict[str, list[str]] = defaultdict(list)
    for label, found in sorted(land.hexes.items()):
        if found.hazard != PLAIN:
            hazards[found.hazard].append(label)
        if found.elevation:
            heights[found.elevation].append(label)
        for hazard, neighbour in zip(found.hexsides, found.neighbours, strict=True):
            if hazard is not None and neighbour is not None:
                sides[hazard].append(f"{label}>{neighbour}")
    parts = [f"{hazard} {' '.join(labels)}" for hazard, labels in hazards.items()]
    parts += [f"elevation {level}: {' '.join(heights[level])}" for level in sorted(heights)]
    parts += [f"{hazard} {' '.join(sorted(borders))}" for hazard, borders in sides.items()]
    return "; ".join(parts) if parts else "plain and level everywhere"
