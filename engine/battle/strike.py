"""Normal strikes: who may strike whom, with how many dice, at what strike number (RULES §9.1–§9.3).

Every function is a pure function of a :class:`~engine.battle.position.Position`. The
hazard helpers (:class:`Crossing`, :func:`crossing`, :func:`strike_number`) are public so
that rangestrikes (RULES §10) can share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.battle.position import Fighter, Position, Side, in_contact
from engine.battleland import Battleland, battleland
from engine.characters import character
from engine.errors import IllegalStrike
from engine.frozen import quick_init, shared

#: A 6 always hits; a strike number never exceeds this (RULES §9.2).
MAX_STRIKE_NUMBER = 6
#: The strike number may fall to 1, where every die hits (RULES §9.2, §14).
MIN_STRIKE_NUMBER = 1

BRAMBLE = "Bramble"
VOLCANO = "Volcano"
SLOPE = "Slope"
WALL = "Wall"
DUNE = "Dune"


@quick_init
@dataclass(frozen=True)
class StrikeValues:
    """Dice thrown and strike number of a strike (RULES §9.2); also a declaration (§9.5)."""

    dice: int
    strike_number: int

    def __str__(self) -> str:
        return f"{self.dice} dice at {self.strike_number}"


@quick_init
@dataclass(frozen=True)
class Crossing:
    """The hexside between two adjacent hexes as seen when striking from the first.

    ``hazard`` is the hexside hazard (or None); ``upward`` is True when the hazard lies on
    the far hex's side, so that striking across it goes *up* (RULES §0.3, §8.6).
    """

    hazard: str | None
    upward: bool

    def up(self, hazard: str) -> bool:
        """Whether this crossing goes up across ``hazard``."""
        return self.hazard == hazard and self.upward

    def down(self, hazard: str) -> bool:
        """Whether this crossing goes down across ``hazard``."""
        return self.hazard == hazard and not self.upward


def crossing(land: Battleland, from_hex: str, to_hex: str) -> Crossing:
    """The hexside crossed from ``from_hex`` into adjacent ``to_hex`` (RULES §8.6).

    Raises :class:`~engine.errors.InvalidNotation` when the hexes are not adjacent.
    """
    own, far = land.border(from_hex, to_hex)
    if far is not None:
        return Crossing(far, upward=True)
    return Crossing(own, upward=False)


def strike_number(attacker_skill: int, defender_skill: int) -> int:
    """S = 4 − A + D, at most 6 and at least 1 (RULES §9.2, §14)."""
    raw = 4 - attacker_skill + defender_skill
    return max(MIN_STRIKE_NUMBER, min(MAX_STRIKE_NUMBER, raw))


def dice_modifier(land: Battleland, striker: Fighter, target_hex: str) -> int:
    """Dice added to ``striker``'s Power for a normal strike at ``target_hex`` (RULES §9.3).

    Dragon in the Volcano +2; native striking down a Slope +1; native striking down a
    Dune +2; non-native striking up a Dune −1.
    """
    side = crossing(land, striker.hex, target_hex)
    bonus = 0
    if land.hex(striker.hex).hazard == VOLCANO and striker.is_native_to(VOLCANO):
        bonus += 2
    if side.down(SLOPE) and striker.is_native_to(SLOPE):
        bonus += 1
    if side.down(DUNE) and striker.is_native_to(DUNE):
        bonus += 2
    if side.up(DUNE) and not striker.is_native_to(DUNE):
        bonus -= 1
    return bonus


def skill_modifiers(land: Battleland, striker: Fighter, target: Fighter) -> tuple[int, int]:
    """(attacker skill change, defender skill change) for a normal strike (RULES §9.3).

    Non-native striking out of a Bramble −1 A; non-native striking up a Slope −1 A;
    striking down a Wall +1 A; striking up a Wall −1 A; a Bramble native standing in a
    Bramble, struck by a non-native, +1 D.
    """
    side = crossing(land, striker.hex, target.hex)
    attacker = 0
    if land.hex(striker.hex).hazard == BRAMBLE and not striker.is_native_to(BRAMBLE):
        attacker -= 1
    if side.up(SLOPE) and not striker.is_native_to(SLOPE):
        attacker -= 1
    if side.down(WALL):
        attacker += 1
    if side.up(WALL):
        attacker -= 1
    defender = 0
    if (
        land.hex(target.hex).hazard == BRAMBLE
        and target.is_native_to(BRAMBLE)
        and not striker.is_native_to(BRAMBLE)
    ):
        defender += 1
    return attacker, defender


def strike_problem(position: Position, striker: Fighter, target: Fighter) -> str | None:
    """Why ``striker`` may not strike ``target`` (RULES §9.1), or None when it may.

    A striker slain earlier in the phase still strikes; a slain target may not be struck
    (errata 12.0); the two must be enemies in contact (adjacent, no Cliff between, §8.6).
    """
    if not (position.holds(striker) and position.holds(target)):
        return "both characters must be on the battleland"
    if striker.side is target.side:
        return f"{target.name} in {target.hex} is not an enemy of {striker.name} (RULES §9.1)"
    if not target.alive:
        return f"{target.name} in {target.hex} is already slain (RULES §9.1, errata 12.0)"
    if not in_contact(position.land, striker.hex, target.hex):
        return (
            f"{striker.name} in {striker.hex} is not in contact with {target.hex}: "
            "not adjacent or across a Cliff (RULES §8.6, §9.1)"
        )
    return None


def can_strike(position: Position, striker: Fighter, target: Fighter) -> bool:
    """Whether ``striker`` may make a normal strike at ``target`` (RULES §9.1)."""
    return strike_problem(position, striker, target) is None


def strike_values(position: Position, striker: Fighter, target: Fighter) -> StrikeValues:
    """Dice and strike number of a normal strike, without declared reductions (RULES §9.2, §9.3).

    Raises :class:`~engine.errors.IllegalStrike` when the strike is not allowed.
    """
    problem = strike_problem(position, striker, target)
    if problem is not None:
        raise IllegalStrike(problem)
    return natural_values(
        position.terrain, striker.name, striker.power, striker.hex, target.name, target.hex
    )


@lru_cache(maxsize=1 << 16)
def natural_values(
    terrain: str, striker: str, power: int, at: str, target: str, to: str
) -> StrikeValues:
    """Dice and strike number of character ``striker`` of ``power`` in hex ``at`` striking
    character ``target`` in adjacent ``to`` on ``terrain`` (RULES §9.2, §9.3).

    They depend on nothing else (not the target's Power or damage, nor the sides), so they
    are kept for each such combination: a search asks for the same ones again and again.
    """
    land = battleland(terrain)
    hitter = Fighter(striker, Side.ATTACKER, at, power)
    struck = Fighter(target, Side.DEFENDER, to, character(target).power)
    dice = power + dice_modifier(land, hitter, to)
    attacker, defender = skill_modifiers(land, hitter, struck)
    values = StrikeValues(dice, strike_number(hitter.skill + attacker, struck.skill + defender))
    return shared(values)


def strike_targets(position: Position, striker: Fighter) -> list[Fighter]:
    """The living enemies ``striker`` may strike, in board order (RULES §9.1): those
    :func:`can_strike` allows, found without building a reason for each other character."""
    if not position.holds(striker):
        return []
    land = position.land
    near = land.contact_bits.get(striker.hex)
    if near is None:  # not a hex: as can_strike (which raises for a living enemy)
        return [
            f
            for f in position.fighters
            if f.side is not striker.side
            and f.alive
            and in_contact(land, striker.hex, f.hex)
            and position.holds(f)
        ]
    near &= position.enemy_mask(striker.side, living_only=True)
    if not near:
        return []  # no living enemy in contact: the usual case
    if position.one_per_hex:
        return position.standing_in(near)  # each of those hexes holds one living enemy
    return [
        f
        for f in position.standing_in(near)
        if f.side is not striker.side and f.alive and position.holds(f)
    ]
