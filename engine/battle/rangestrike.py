"""Rangestrikes and magic missiles: who may, at whom, with what (RULES §10.1–§10.8).

A rangestrike is judged on a :class:`~engine.battle.position.Position`; whether it is the
rangestriker's own strike phase and whether it has already struck this phase are for the
caller (RULES §10.1). Rangestriking is never forced (errata 13.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.battle.los import BRAMBLE, sight_verdict
from engine.battle.position import Fighter, Position, Side, in_contact
from engine.battle.strike import strike_number
from engine.battleland import LABELS, Battleland, battleland, distance
from engine.characters import character
from engine.errors import IllegalStrike
from engine.frozen import quick_init, shared

VOLCANO = "Volcano"
#: Range counts both end hexes; a normal rangestrike needs at least this (RULES §10.2).
MIN_RANGE = 3
#: Range at which a normal rangestriker loses 1 skill (RULES §10.6).
LONG_RANGE = 4
#: Extra rangestrike dice for a Dragon in the Volcano (RULES §10.3).
VOLCANO_DICE = 2


@quick_init
@dataclass(frozen=True)
class RangestrikeValues:
    """Dice and strike-number of a rangestrike (RULES §10.3, §10.6, §10.7).

    ``strike_number`` is the default (the better clear path); ``alternatives`` are the
    higher strike-numbers the striker may choose instead along another clear hexspine
    path (errata 13.3). The dice are fixed: all or none (errata 13.3).
    """

    dice: int
    strike_number: int
    range: int
    magic_missile: bool
    alternatives: tuple[int, ...] = ()

    @property
    def strike_numbers(self) -> tuple[int, ...]:
        """Every strike-number the striker may choose, the default first."""
        return (self.strike_number, *self.alternatives)


def rangestrike_range(a: str, b: str) -> int:
    """Range between two hexes: distance + 1, counting both (RULES §10.2)."""
    found = _RANGES.get((a, b))
    return distance(a, b) + 1 if found is None else found  # an unknown hex raises


_RANGES = {(a, b): distance(a, b) + 1 for a in LABELS for b in LABELS}


def uses_magic_missile(striker: Fighter) -> bool:
    """Whether ``striker``'s rangestrikes are magic missiles (Warlock, RULES §10.7)."""
    return striker.character.magic_missile


def _label(who: Fighter) -> str:
    return f"{who.name} {who.hex}"


def rangestriker_problem(position: Position, striker: Fighter) -> str | None:
    """Why ``striker`` may not rangestrike at all now, or None (RULES §10.1).

    It must be a rangestriker and not be adjacent, other than across a Cliff, to any
    enemy, living or slain but not yet removed.
    """
    if not striker.character.rangestrikes:
        return (
            f"{_label(striker)} cannot rangestrike: only Dragons, Giants, Gorgons, Hydras,"
            " Minotaurs, Rangers and Warlocks can (RULES §10.1)"
        )
    if not position.in_contact_with_enemy(striker):
        return None
    land = position.land
    contact = next(  # the first in board order, to name it
        f
        for f in position.fighters
        if f.side is not striker.side and in_contact(land, striker.hex, f.hex)
    )
    return (
        f"{_label(striker)} cannot rangestrike: it is in contact with"
        f" {_label(contact)} (RULES §10.1)"
    )


def _range_problem(striker: Fighter, target: Fighter, reach: int) -> str | None:
    """Why the range is wrong, or None (RULES §10.2, §10.7)."""
    if reach > striker.skill:
        return (
            f"{_label(striker)} cannot rangestrike {_label(target)}: range {reach} is more"
            f" than its skill {striker.skill} (RULES §10.2)"
        )
    if reach < MIN_RANGE and not uses_magic_missile(striker):
        return (
            f"{_label(striker)} cannot rangestrike {_label(target)}: range {reach} is too"
            f" short, a rangestrike needs range {MIN_RANGE} or more (RULES §10.2)"
        )
    return None


def _target_problem(striker: Fighter, target: Fighter) -> str | None:
    """Why ``target`` is no rangestrike target for ``striker``, or None (RULES §10.4)."""
    if target.side is striker.side:
        why = "it is not an enemy (RULES §10.4)"
    elif not target.alive:
        why = "it is already slain (RULES §10.4, errata 12.0)"
    elif target.character.is_lord and not uses_magic_missile(striker):
        why = "only a magic missile may target a lord (RULES §10.4)"
    else:
        return None
    return f"{_label(striker)} cannot rangestrike {_label(target)}: {why}"


def rangestrike_problem(position: Position, striker: Fighter, target: Fighter) -> str | None:
    """Why ``striker`` may not rangestrike ``target``, or None when it may (RULES §10).

    The message names both characters and the rule, and is safe to show a player.
    """
    return _judge(position, striker, target)[0]


def _judge(
    position: Position, striker: Fighter, target: Fighter
) -> tuple[str | None, tuple[int, ...]]:
    """:func:`rangestrike_problem` and the intervening Brambles of each clear path of the
    line of sight it looked along (none for a magic missile, which needs no line)."""
    reach = rangestrike_range(striker.hex, target.hex)
    kind = striker.character
    magic = kind.magic_missile
    if (  # the tests below, in their order, without a reason for each (§10.1, §10.2, §10.4)
        kind.rangestrikes
        and not position.in_contact_with_enemy(striker)
        and target.side is not striker.side
        and target.alive
        and (magic or not target.character.is_lord)
        and reach <= kind.skill
        and (magic or reach >= MIN_RANGE)
    ):
        return (None, ()) if magic else _sight(position, striker, target)
    reason = (
        rangestriker_problem(position, striker)
        or _target_problem(striker, target)
        or _range_problem(striker, target, reach)
    )
    if reason is not None or magic:
        return reason, ()
    return _sight(position, striker, target)


def _sight(
    position: Position, striker: Fighter, target: Fighter
) -> tuple[str | None, tuple[int, ...]]:
    """Why no line of sight from ``striker`` to ``target`` is clear (None if one is), and
    the Brambles along each clear path (RULES §10.5). Every character blocks sight, slain
    ones not yet removed included (§10.5 L6)."""
    why, brambles = sight_verdict(position.terrain, striker.hex, target.hex, position.occupied_mask)
    if why is None:
        return None, brambles
    return f"{_label(striker)} cannot rangestrike {_label(target)}: {why}", ()


def can_rangestrike(position: Position, striker: Fighter, target: Fighter) -> bool:
    """Whether ``striker`` may rangestrike ``target`` in this position (RULES §10)."""
    return rangestrike_problem(position, striker, target) is None


def rangestrike_targets(position: Position, striker: Fighter) -> tuple[Fighter, ...]:
    """Every character ``striker`` may rangestrike now (RULES §10.1, §10.4): those
    :func:`can_rangestrike` allows, by the same tests without a reason for each other one."""
    return tuple([target for target, _ in _aims(position, striker)])


def rangestrike_choices(
    position: Position, striker: Fighter
) -> list[tuple[Fighter, RangestrikeValues]]:
    """Each of the :func:`rangestrike_targets` of ``striker`` with the
    :func:`rangestrike_values` against it."""
    terrain, name, power, at = position.terrain, striker.name, striker.power, striker.hex
    return [
        (f, _values(terrain, name, power, at, f.name, f.hex, brambles))
        for f, brambles in _aims(position, striker)
    ]


def _aims(position: Position, striker: Fighter) -> list[tuple[Fighter, tuple[int, ...]]]:
    """The :func:`rangestrike_targets` of ``striker``, each with the Brambles along each
    clear path to it (none for a magic missile)."""
    if not striker.character.rangestrikes or rangestriker_problem(position, striker) is not None:
        return []
    terrain, at, skill = position.terrain, striker.hex, striker.skill
    magic = uses_magic_missile(striker)
    found: list[tuple[Fighter, tuple[int, ...]]] = []
    for f in position.fighters:
        if f.side is striker.side or not f.alive or (f.character.is_lord and not magic):
            continue  # §10.4
        reach = rangestrike_range(at, f.hex)
        if reach > skill or (reach < MIN_RANGE and not magic):
            continue  # §10.2
        if magic:
            found.append((f, ()))
            continue
        why, brambles = sight_verdict(terrain, at, f.hex, position.occupied_mask)
        if why is None:
            found.append((f, brambles))  # §10.5
    return found


def rangestrike_dice(land: Battleland, striker: Fighter) -> int:
    """⌊Power / 2⌋, plus 2 for a Dragon in the Volcano (RULES §10.3)."""
    dice = striker.power // 2
    if land.hex(striker.hex).hazard == VOLCANO and striker.is_native_to(VOLCANO):
        dice += VOLCANO_DICE
    return dice


def _defender_skill(land: Battleland, striker: Fighter, target: Fighter) -> int:
    """The target's skill against a normal rangestrike (RULES §10.6)."""
    skill = target.skill
    hazard = land.hex(target.hex).hazard
    if hazard == BRAMBLE and target.is_native_to(BRAMBLE) and not striker.is_native_to(BRAMBLE):
        skill += 1
    if hazard == VOLCANO and target.is_native_to(VOLCANO):
        skill += 1  # even against another Dragon (errata 11.7)
    return skill


def _attacker_skill(land: Battleland, striker: Fighter, target: Fighter, brambles: int) -> int:
    """The rangestriker's skill along a path with ``brambles`` intervening Brambles (§10.6)."""
    skill = striker.skill
    if rangestrike_range(striker.hex, target.hex) == LONG_RANGE:
        skill -= 1
    if not striker.is_native_to(BRAMBLE):
        skill -= brambles
    if land.is_tower:
        skill -= max(0, land.hex(target.hex).elevation - land.hex(striker.hex).elevation)
    return skill


def _path_strike_numbers(
    land: Battleland, striker: Fighter, target: Fighter, brambles: tuple[int, ...]
) -> list[int]:
    """The strike-number along each clear path (with ``brambles`` intervening Brambles
    each), best (lowest) first (RULES §10.6, §10.8)."""
    defence = _defender_skill(land, striker, target)
    numbers = {strike_number(_attacker_skill(land, striker, target, n), defence) for n in brambles}
    return sorted(numbers)


def rangestrike_values(position: Position, striker: Fighter, target: Fighter) -> RangestrikeValues:
    """Dice and strike-number for ``striker`` rangestriking ``target`` (RULES §10.3–§10.8).

    A magic missile uses no terrain or range modifier: S = 4 − the Warlock's skill + the
    target's skill (RULES §10.7). Raises :class:`IllegalStrike` when the rangestrike is
    not allowed, with the reason.
    """
    reason, brambles = _judge(position, striker, target)
    if reason is not None:
        raise IllegalStrike(reason)
    return _values(
        position.terrain,
        striker.name,
        striker.power,
        striker.hex,
        target.name,
        target.hex,
        brambles,
    )


@lru_cache(maxsize=1 << 15)
def _values(
    terrain: str, striker: str, power: int, at: str, target: str, to: str, brambles: tuple[int, ...]
) -> RangestrikeValues:
    """Dice and strike-numbers of character ``striker`` of ``power`` in ``at`` rangestriking
    ``target`` in ``to`` on ``terrain``, along clear paths with ``brambles`` intervening
    Brambles each (none for a magic missile): nothing else matters (RULES §10.3–§10.8)."""
    land = battleland(terrain)
    hitter = Fighter(striker, Side.ATTACKER, at, power)
    aimed = Fighter(target, Side.DEFENDER, to, character(target).power)
    reach = rangestrike_range(at, to)
    dice = rangestrike_dice(land, hitter)
    if uses_magic_missile(hitter):
        number = strike_number(hitter.skill, aimed.skill)
        values = RangestrikeValues(dice, number, reach, magic_missile=True)
    else:
        best, *others = _path_strike_numbers(land, hitter, aimed, brambles)
        values = RangestrikeValues(dice, best, reach, False, tuple(others))
    return shared(values)
