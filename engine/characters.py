"""The characters of TITAN and their factors (RULES §1.1–§1.3), loaded from data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from engine.data import load
from engine.errors import DataError, InvalidNotation

#: Hazards a character may be native to (RULES §1.2); nothing is native to the others.
NATIVE_HAZARDS = frozenset({"Bramble", "Bog", "Drift", "Sand", "Dune", "Volcano", "Slope"})

TITAN = "Titan"
ANGEL = "Angel"
ARCHANGEL = "Archangel"
GUARDIAN = "Guardian"
WARLOCK = "Warlock"


class Kind(Enum):
    """The three classes of character (RULES §0.2)."""

    LORD = "lord"
    DEMILORD = "demilord"
    CREATURE = "creature"


@dataclass(frozen=True)
class Character:
    """One type of character counter. A Titan's ``power`` is its starting Power (6)."""

    name: str
    plural: str
    kind: Kind
    power: int
    skill: int
    flies: bool
    rangestrikes: bool
    magic_missile: bool
    native: frozenset[str]
    count: int
    summonable: bool
    acquirable_every: int | None

    @property
    def is_lord(self) -> bool:
        return self.kind is Kind.LORD

    @property
    def is_demilord(self) -> bool:
        return self.kind is Kind.DEMILORD

    @property
    def is_creature(self) -> bool:
        return self.kind is Kind.CREATURE

    @property
    def is_titan(self) -> bool:
        return self.name == TITAN

    @property
    def regenerates(self) -> bool:
        """Slain Angels, Archangels, Guardians and Warlocks return to the stacks (§1.5)."""
        return self.name != TITAN and not self.is_creature

    def is_native_to(self, hazard: str) -> bool:
        """Whether this character is native to ``hazard`` (RULES §1.2)."""
        return hazard in self.native

    def power_at(self, score: int) -> int:
        """Power; a Titan's grows by 1 per 100 points scored (rule 19.1, RULES §1.3)."""
        if self.is_titan:
            return titan_power(score)
        return self.power

    def value_at(self, score: int = 0) -> int:
        """Power × Skill (RULES §0.2); ``score`` matters only for a Titan."""
        return self.power_at(score) * self.skill


def _load() -> tuple[Mapping[str, Character], tuple[str, ...], int, int]:
    data = load("characters")
    characters: dict[str, Character] = {}
    for name, raw in data["characters"].items():
        native = frozenset(raw["native"])
        if not native <= NATIVE_HAZARDS:
            raise DataError(f"{name}: unknown native hazards {sorted(native - NATIVE_HAZARDS)}")
        if raw["power"] < 1 or not 1 <= raw["skill"] <= 4 or raw["count"] < 1:
            raise DataError(f"{name}: factors or count out of range")
        characters[name] = Character(
            name=name,
            plural=raw["plural"],
            kind=Kind(raw["kind"]),
            power=raw["power"],
            skill=raw["skill"],
            flies=raw["flies"],
            rangestrikes=raw["rangestrikes"],
            magic_missile=raw["magic_missile"],
            native=native,
            count=raw["count"],
            summonable=raw["summonable"],
            acquirable_every=raw.get("acquirable_every"),
        )
    kinds = [c.kind for c in characters.values()]
    if (kinds.count(Kind.LORD), kinds.count(Kind.DEMILORD), kinds.count(Kind.CREATURE)) != (
        3,
        2,
        19,
    ):
        raise DataError("expected 3 lords, 2 demi-lords and 19 creatures")
    setup = data["setup"]
    start = tuple(setup["starting_legion"])
    if any(name not in characters for name in start) or len(start) != 8:
        raise DataError("the starting legion must be 8 known characters")
    return (
        MappingProxyType(characters),
        start,
        setup["titan_power_per_points"],
        setup["titan_teleport_score"],
    )


CHARACTERS, STARTING_LEGION, TITAN_POWER_PER_POINTS, TITAN_TELEPORT_SCORE = _load()


def character(name: str) -> Character:
    """The character called ``name``; raises :class:`InvalidNotation` for an unknown name."""
    try:
        return CHARACTERS[name]
    except KeyError:
        raise InvalidNotation(f"{name!r} is not a character of TITAN") from None


def titan_power(score: int) -> int:
    """6 + ⌊score / 100⌋ (rule 19.1): 327 → 9, 1163 → 17."""
    return CHARACTERS[TITAN].power + score // TITAN_POWER_PER_POINTS


def can_titan_teleport(score: int) -> bool:
    """A score of 400 or more grants Titan teleportation (rule 19.2)."""
    return score >= TITAN_TELEPORT_SCORE


def has_lord(names: Iterable[str]) -> bool:
    """Whether any of the named characters is a lord (Titan, Angel or Archangel)."""
    return any(character(n).is_lord for n in names)


def legion_value(names: Iterable[str], score: int = 0) -> int:
    """The summed value of the characters; ``score`` is their owner's (for a Titan)."""
    return sum(character(n).value_at(score) for n in names)
