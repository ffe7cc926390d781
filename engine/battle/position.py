"""Characters on a battleland and the contact between them (RULES §8.5, §8.6, §9.1).

A :class:`Position` is what the battle rules look at: the terrain and the characters on
the board, each with its side, hex, current Power and damage. Rules functions are pure
functions of a position.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from engine.battleland import BIT, Battleland, battleland, check_label
from engine.characters import CHARACTERS, Character, character
from engine.frozen import derived, evolve, quick_init

#: Each battle hex by its :data:`BIT`.
_LABEL_OF_BIT: dict[int, str] = {bit: label for label, bit in BIT.items()}


class Side(Enum):
    """The two sides of a battle."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return _DEFENDER if self is _ATTACKER else _ATTACKER


# The members bound once: an enum class's attributes are looked up through its metaclass's
# ``__getattr__`` hook, several times slower than a global.
_ATTACKER, _DEFENDER = Side.ATTACKER, Side.DEFENDER


@quick_init
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
        found = CHARACTERS.get(self.name)
        return character(self.name) if found is None else found  # an unknown name raises

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
        """This character after taking ``hits`` more hits (itself when nothing changes)."""
        total = self.hits + hits
        slain = self.slain or total >= self.power
        if not hits and slain == self.slain:
            return self
        return Fighter(self.name, self.side, self.hex, self.power, total, slain)


def fighter(name: str, side: Side, hex_label: str, *, score: int = 0, hits: int = 0) -> Fighter:
    """A fighter of character ``name``; ``score`` is its owner's (it sets a Titan's Power)."""
    return Fighter(name, side, hex_label, character(name).power_at(score), hits)


@quick_init
@dataclass(frozen=True)
class Position:
    """The battleland of ``terrain`` with ``fighters`` on it (at most one per hex).

    Its lookups by hex are worked out once per position, when first asked for
    (``land``, ``_by_hex``, ``_slots``, ``_hexes``, ``occupied_mask``, ``_bits``,
    ``_side_masks``, ``_rangestriking``: derived from the fields, never changed, not
    fields themselves; :func:`engine.frozen.evolve` leaves them behind).
    """

    terrain: str
    fighters: tuple[Fighter, ...]

    @derived
    def land(self) -> Battleland:
        return battleland(self.terrain)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without what is derived from the fields (a battleland's tables cannot
        be): it is worked out again when asked for."""
        return {"terrain": self.terrain, "fighters": self.fighters}

    @derived
    def _by_hex(self) -> Mapping[str, Fighter]:
        index: dict[str, Fighter] = {}
        for f in self.fighters:
            index.setdefault(f.hex, f)
        return MappingProxyType(index)

    @derived
    def _slots(self) -> Mapping[str, int]:
        """Each occupied hex → the index in ``fighters`` of the first character in it."""
        index: dict[str, int] = {}
        for i, f in enumerate(self.fighters):
            index.setdefault(f.hex, i)
        return index

    @derived
    def _hexes(self) -> frozenset[str]:
        return frozenset([f.hex for f in self.fighters])

    @derived
    def occupied_mask(self) -> int:
        """The occupied hexes as a set of :data:`BIT`."""
        found = 0
        for f in self.fighters:
            found |= BIT.get(f.hex, 0)
        return found

    @derived
    def _bits(self) -> tuple[int, ...]:
        """Each character's hex as a :data:`BIT` (0 for no hex), in board order."""
        return tuple([BIT.get(f.hex, 0) for f in self.fighters])

    @property
    def one_per_hex(self) -> bool:
        """Whether no hex holds two characters (as in play; a rules case may set two)."""
        return len(self._slots) == len(self.fighters)

    def standing_in(self, hexes: int) -> list[Fighter]:
        """The characters standing in ``hexes`` (a set of :data:`BIT`), in board order."""
        fighters = self.fighters
        if not self.one_per_hex:  # some hex holds two: each of them stands there
            return [f for f, bit in zip(fighters, self._bits, strict=True) if bit & hexes]
        slots = self._slots
        found = []
        while hexes:  # the few hexes asked for, not every character
            low = hexes & -hexes
            hexes ^= low
            slot = slots.get(_LABEL_OF_BIT[low])
            if slot is not None:
                found.append(slot)
        if len(found) > 1:
            found.sort()
        return [fighters[i] for i in found]

    @derived
    def _side_masks(self) -> tuple[int, int, int, int]:
        """The hexes of the attacker's characters, of his living ones, of the defender's
        and of the defender's living ones, each as a set of :data:`BIT`."""
        masks = [0, 0, 0, 0]
        for f in self.fighters:
            i = 0 if f.side is _ATTACKER else 2
            bit = BIT.get(f.hex, 0)
            masks[i] |= bit
            if f.alive:
                masks[i + 1] |= bit
        return masks[0], masks[1], masks[2], masks[3]

    def enemy_mask(self, side: Side, living_only: bool) -> int:
        """The hexes holding an enemy of ``side`` (a living one if ``living_only``)."""
        return self._side_masks[(0 if side is _DEFENDER else 2) + living_only]

    @derived
    def _rangestriking(self) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]]:
        """The attacker's and the defender's rangestrikers (see :meth:`rangestriking`)."""
        by_side: tuple[list[Fighter], list[Fighter]] = ([], [])
        for f in self.fighters:
            if f.character.rangestrikes:
                by_side[f.side is _DEFENDER].append(f)
        return tuple(by_side[0]), tuple(by_side[1])

    def rangestriking(self, side: Side) -> tuple[Fighter, ...]:
        """The characters of ``side`` that are rangestrikers, in board order, whether or
        not they may rangestrike now (RULES §10.1)."""
        return self._rangestriking[side is _DEFENDER]

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
        """This position after the character in ``hex_label`` takes ``hits`` more hits
        (itself when nothing changes)."""
        before = self.fighters
        slot = self._slots.get(hex_label)
        if slot is None:
            return self  # nobody there
        if len(self._slots) < len(before):  # some hex holds two: each of them is hit
            after = tuple([f.damaged(hits) if f.hex == hex_label else f for f in before])
            return self if all(map(operator.is_, after, before)) else Position(self.terrain, after)
        hit = before[slot].damaged(hits)
        if hit is before[slot]:
            return self
        return Position(self.terrain, (*before[:slot], hit, *before[slot + 1 :]))

    def moved(self, start: str, end: str) -> Position:
        """This position after the character in ``start`` moved to ``end``."""
        before = self.fighters
        slot = self._slots.get(start)
        if slot is None:
            return self  # nobody there
        if len(self._slots) < len(before):  # some hex holds two: each of them moves
            after = tuple([evolve(f, hex=end) if f.hex == start else f for f in before])
            return Position(self.terrain, after)
        moved = evolve(before[slot], hex=end)
        return Position(self.terrain, (*before[:slot], moved, *before[slot + 1 :]))

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
        near = self.land.contact_bits.get(who.hex)
        if near is None:  # not a hex: as adjacent_enemies (which raises for an enemy)
            return bool(self.adjacent_enemies(who, living_only=living_only))
        # enemy_mask, written out: engagement is asked for every character of a move.
        return bool(near & self._side_masks[(0 if who.side is _DEFENDER else 2) + living_only])


def across_cliff(land: Battleland, a: str, b: str) -> bool:
    """Whether adjacent hexes ``a`` and ``b`` are separated by a Cliff hexside."""
    return "Cliff" in land.border(a, b)


def in_contact(land: Battleland, a: str, b: str) -> bool:
    """Adjacent and not separated by a Cliff: the two are engaged (RULES §0.2, §8.6)."""
    near = land.contacts.get(a)
    if near is None:
        near = land.contacts[check_label(a)]  # an unknown hex raises
    return b in near
