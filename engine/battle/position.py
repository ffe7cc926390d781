"""Characters on a battleland and the contact between them (RULES §8.5, §8.6, §9.1).

A :class:`Position` is what the battle rules look at: the terrain and the characters on
the board, each with its side, hex, current Power and damage. Rules functions are pure
functions of a position.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from types import MappingProxyType

from engine.battleland import BIT, Battleland, battleland, check_label
from engine.characters import Character, character
from engine.frozen import evolve


class Side(Enum):
    """The two sides of a battle."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


@dataclass(frozen=True)
class Fighter:
    """A character on the battleland.

    ``power`` is its current Power (a Titan's depends on its owner's score, RULES §1.3);
    ``hits`` the damage it has taken; ``slain`` marks a character slain this phase but
    not yet removed (it still strikes and blocks, RULES §9.1, §10.5 L6).
    """

    name: str
    side: Side
    hex: str
    power: int
    hits: int = 0
    slain: bool = False

    @property
    def character(self) -> Character:
        return character(self.name)

    @property
    def skill(self) -> int:
        return self.character.skill

    @property
    def alive(self) -> bool:
        return not self.slain and self.hits < self.power

    @property
    def hits_to_slay(self) -> int:
        """Hits still needed to slay it."""
        return max(0, self.power - self.hits)

    def is_native_to(self, hazard: str | None) -> bool:
        return hazard is not None and self.character.is_native_to(hazard)

    def damaged(self, hits: int) -> Fighter:
        """This character after taking ``hits`` more hits."""
        total = self.hits + hits
        return evolve(self, hits=total, slain=self.slain or total >= self.power)


def fighter(name: str, side: Side, hex_label: str, *, score: int = 0, hits: int = 0) -> Fighter:
    """A fighter of character ``name``; ``score`` is its owner's (it sets a Titan's Power)."""
    return Fighter(name, side, hex_label, character(name).power_at(score), hits)


@dataclass(frozen=True)
class Position:
    """The battleland of ``terrain`` with ``fighters`` on it (at most one per hex).

    Its lookups by hex are worked out once per position, when first asked for
    (``_by_hex``, ``_hexes``, ``occupied_mask``: derived from the fields, never changed,
    not fields themselves; :func:`engine.frozen.evolve` leaves them behind).
    """

    terrain: str
    fighters: tuple[Fighter, ...]

    @property
    def land(self) -> Battleland:
        return battleland(self.terrain)

    @cached_property
    def _by_hex(self) -> Mapping[str, Fighter]:
        index: dict[str, Fighter] = {}
        for f in self.fighters:
            index.setdefault(f.hex, f)
        return MappingProxyType(index)

    @cached_property
    def _hexes(self) -> frozenset[str]:
        return frozenset([f.hex for f in self.fighters])

    @cached_property
    def occupied_mask(self) -> int:
        """The occupied hexes as a set of :data:`BIT`."""
        found = 0
        for f in self.fighters:
            found |= BIT.get(f.hex, 0)
        return found

    def at(self, hex_label: str) -> Fighter | None:
        """The character in ``hex_label``, slain-but-not-removed ones included."""
        return self._by_hex.get(hex_label)

    def holds(self, who: Fighter) -> bool:
        """Whether ``who`` is the character standing in its hex."""
        found = self._by_hex.get(who.hex)
        return found is who or found == who

    def occupied(self) -> frozenset[str]:
        return self._hexes

    def hit(self, hex_label: str, hits: int) -> Position:
        """This position after the character in ``hex_label`` takes ``hits`` more hits."""
        fighters = [f.damaged(hits) if f.hex == hex_label else f for f in self.fighters]
        return evolve(self, fighters=tuple(fighters))

    def of_side(self, side: Side) -> Iterator[Fighter]:
        return (f for f in self.fighters if f.side is side)

    def adjacent_enemies(self, who: Fighter, *, living_only: bool = True) -> list[Fighter]:
        """Enemies in contact with ``who`` (adjacent, not across a Cliff; RULES §8.6)."""
        return [
            f
            for f in self.fighters
            if f.side is not who.side
            and (f.alive or not living_only)
            and in_contact(self.land, who.hex, f.hex)
        ]

    def is_engaged(self, who: Fighter) -> bool:
        """Engaged with a living enemy: it may not move and must strike (RULES §8.5, §9.1)."""
        return self.in_contact_with_enemy(who, living_only=True)

    def in_contact_with_enemy(self, who: Fighter, *, living_only: bool = False) -> bool:
        """Whether :meth:`adjacent_enemies` finds any, through the contact table."""
        land = self.land
        near = land.contacts.get(who.hex)
        if near is None:  # not a hex: as adjacent_enemies (which raises for an enemy)
            return bool(self.adjacent_enemies(who, living_only=living_only))
        if not land.contact_bits[who.hex] & self.occupied_mask:
            return False  # nobody at all in contact
        return any(
            f.hex in near and f.side is not who.side and (f.alive or not living_only)
            for f in self.fighters
        )


def across_cliff(land: Battleland, a: str, b: str) -> bool:
    """Whether adjacent hexes ``a`` and ``b`` are separated by a Cliff hexside."""
    return "Cliff" in land.border(a, b)


def in_contact(land: Battleland, a: str, b: str) -> bool:
    """Adjacent and not separated by a Cliff: the two are engaged (RULES §0.2, §8.6)."""
    near = land.contacts.get(a)
    if near is None:
        near = land.contacts[check_label(a)]  # an unknown hex raises
    return b in near
