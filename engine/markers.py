"""Colours and legion markers (RULES §1.4), loaded from data."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.data import load
from engine.errors import DataError, InvalidNotation

MARKERS_PER_COLOUR = 12
_MARKER_ID = re.compile(r"^([A-Z][a-z])(\d\d)$")


@dataclass(frozen=True)
class Colour:
    """A colour with its abbreviation and its 12 markers (ids ``Bk01`` … ``Bk12``)."""

    name: str
    abbrev: str
    marker_names: tuple[str, ...]

    @property
    def markers(self) -> tuple[str, ...]:
        return tuple(f"{self.abbrev}{i:02d}" for i in range(1, len(self.marker_names) + 1))


def _load() -> tuple[Colour, ...]:
    colours = tuple(
        Colour(raw["name"], raw["abbrev"], tuple(raw["markers"]))
        for raw in load("markers")["colours"]
    )
    if len(colours) != 6 or len({c.abbrev for c in colours}) != 6:
        raise DataError("expected six colours with distinct abbreviations")
    if any(len(c.marker_names) != MARKERS_PER_COLOUR for c in colours):
        raise DataError("every colour has 12 markers")
    return colours


COLOURS: tuple[Colour, ...] = _load()
_BY_NAME = {c.name: c for c in COLOURS}
_BY_ABBREV = {c.abbrev: c for c in COLOURS}


def colour(name: str) -> Colour:
    """The colour called ``name`` (``"Black"``) or abbreviated so (``"Bk"``)."""
    found = _BY_NAME.get(name) or _BY_ABBREV.get(name)
    if found is None:
        raise InvalidNotation(f"{name!r} is not a colour (choose from {', '.join(_BY_NAME)})")
    return found


def marker_colour(marker: str) -> Colour:
    """The colour a marker id such as ``Bk03`` belongs to."""
    match = _MARKER_ID.match(marker)
    if not match or match.group(1) not in _BY_ABBREV:
        raise InvalidNotation(f"{marker!r} is not a legion marker (like Bk03)")
    number = int(match.group(2))
    if not 1 <= number <= MARKERS_PER_COLOUR:
        raise InvalidNotation(f"{marker!r} is not a legion marker (numbers run 01–12)")
    return _BY_ABBREV[match.group(1)]


def marker_name(marker: str) -> str:
    """The pictogram name of a marker: ``Bk03`` → ``Die``."""
    return marker_colour(marker).marker_names[int(marker[2:]) - 1]
