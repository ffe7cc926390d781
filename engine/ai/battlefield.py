"""Shared judgements for battles (RULES §8–§10): what a character is worth to each side,
and the dice and strike number of a strike between two hexes, cached per battleland."""

from __future__ import annotations

from functools import lru_cache

from engine.battle.position import Fighter, Position, Side, in_contact
from engine.battle.strike import dice_modifier, skill_modifiers, strike_number
from engine.battleland import battleland
from engine.characters import TITAN

#: Slaying the enemy Titan wins the battle and puts its player out (RULES §11.1, §12.1).
ENEMY_TITAN = 6.0
#: Our own Titan: losing it loses the game.
OWN_TITAN = 8.0
#: Worth of a wound, per hit, as a share of the character's worth per point of Power:
#: damage lasts the whole battle (RULES §8.4), so wounds count nearly in full (tuned).
PARTIAL = 1.0


def worth(f: Fighter, ours: bool) -> float:
    """What slaying ``f`` means: its value, much more for a Titan."""
    value = float(f.power * f.skill)
    if f.name == TITAN:
        value *= OWN_TITAN if ours else ENEMY_TITAN
    return value


def damage_worth(f: Fighter, damage: int, ours: bool) -> float:
    """What ``damage`` more hits on ``f`` are worth: all of it if they slay it, so the
    last hits on a wounded character are worth the most."""
    if damage >= f.hits_to_slay:
        return worth(f, ours)
    return PARTIAL * worth(f, ours) * damage / f.power


@lru_cache(maxsize=1 << 16)
def blow_values(
    terrain: str, striker: str, power: int, at: str, target: str, target_power: int, to: str
) -> tuple[int, int]:
    """(dice, strike number) of character ``striker`` of ``power`` in ``at`` striking
    ``target`` of ``target_power`` in ``to``, adjacent hexes of ``terrain`` (§9.2, §9.3)."""
    land = battleland(terrain)
    s = Fighter(striker, Side.ATTACKER, at, power)
    t = Fighter(target, Side.DEFENDER, to, target_power)
    dice = power + dice_modifier(land, s, to)
    attack, defence = skill_modifiers(land, s, t)
    return dice, strike_number(s.skill + attack, t.skill + defence)


def blow(position: Position, striker: Fighter, target: Fighter) -> tuple[int, int] | None:
    """(dice, strike number) of ``striker``'s normal strike at ``target`` from where they
    stand, or None when they are not in contact (RULES §9.2, §9.3, §8.6)."""
    if not in_contact(position.land, striker.hex, target.hex):
        return None
    return blow_values(
        position.terrain,
        striker.name,
        striker.power,
        striker.hex,
        target.name,
        target.power,
        target.hex,
    )
