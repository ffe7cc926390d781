"""Straightforward versions of the battle queries, to check the engine's fast ones against.

Each is the plain reading of its rule, assembled from the engine's per-rule helpers (a
step's cost, a strike's modifiers, one sight line judged against L1–L6) with no table,
cache or shortcut: maneuvers by trying every walk, contact and borders from the hexes'
own data, every strike and announcement worked out from scratch.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from engine.battle.carry import DeclarationOption
from engine.battle.los import LineOfSight, intervening_paths, sight_line
from engine.battle.maneuver import ground_entry_cost, landing_cost, may_pass_over, step_cost
from engine.battle.position import Fighter, Position
from engine.battle.rangestrike import (
    MIN_RANGE,
    RangestrikeValues,
    _attacker_skill,
    _defender_skill,
    rangestrike_dice,
    rangestrike_range,
    uses_magic_missile,
)
from engine.battle.strike import (
    DUNE,
    StrikeValues,
    dice_modifier,
    skill_modifiers,
    strike_number,
)
from engine.battleland import Battleland, Edge, axial, neighbours
from engine.characters import Character, character
from engine.words import plural


# --- the battleland (RULES §8.1, §8.6) --------------------------------------------------
def border(land: Battleland, a: str, b: str) -> tuple[str | None, str | None]:
    side = neighbours(a).index(b)
    return land.hexes[a].hexsides[side], land.hexes[a].opposite[side]


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)


def in_contact(land: Battleland, a: str, b: str) -> bool:
    return adjacent(a, b) and "Cliff" not in border(land, a, b)


def distance(a: str, b: str) -> int:
    (qa, ra), (qb, rb) = axial(a), axial(b)
    return max(abs(qb - qa), abs(rb - ra), abs(qb - qa + rb - ra))


def at(position: Position, hex_label: str) -> Fighter | None:
    return next((f for f in position.fighters if f.hex == hex_label), None)


def occupied(position: Position) -> frozenset[str]:
    return frozenset(f.hex for f in position.fighters)


def enemies_in_contact(position: Position, who: Fighter, living_only: bool) -> list[Fighter]:
    return [
        f
        for f in position.fighters
        if f.side is not who.side
        and (f.alive or not living_only)
        and in_contact(position.land, who.hex, f.hex)
    ]


# --- maneuver (RULES §8.5, §8.6) --------------------------------------------------------
def walk(
    who: Character, land: Battleland, blocked: Collection[str], sources: dict[str, int]
) -> dict[str, int]:
    """Cheapest cost of every hex some walk within Skill reaches (every walk tried)."""
    best: dict[str, int] = {}

    def go(here: str, spent: int) -> None:
        if spent > who.skill or best.get(here, who.skill + 1) <= spent:
            return
        best[here] = spent
        for there in neighbours(here):
            if there is not None and there not in blocked:
                step = step_cost(who, land, here, there)
                if step is not None:
                    go(there, spent + step)

    for label, cost in sources.items():
        go(label, cost)
    return best


def fly(
    who: Character, land: Battleland, blocked: Collection[str], sources: dict[str, int]
) -> dict[str, int]:
    """Landing hexes of a flyer: fewest hexes crossed (over anything it may pass), − 1,
    plus the landing cost, within Skill."""
    crossed = dict(sources)
    frontier = sorted(crossed, key=crossed.__getitem__)
    while frontier:
        later = []
        for here in frontier:
            for there in neighbours(here):
                passable = there is not None and may_pass_over(who, land.hexes[there].hazard)
                if passable and there not in crossed:
                    crossed[there] = crossed[here] + 1
                    later.append(there)
        frontier = later
    costs = {}
    for label, n in crossed.items():
        landing = landing_cost(who, land.hexes[label].hazard)
        if n and label not in blocked and landing is not None and n - 1 + landing <= who.skill:
            costs[label] = n - 1 + landing
    return costs


def move_costs(position: Position, who: Fighter) -> dict[str, int]:
    if enemies_in_contact(position, who, living_only=True):
        return {}
    blocked = occupied(position) - {who.hex}
    move = fly if who.character.flies else walk
    costs = move(who.character, position.land, blocked, {who.hex: 0})
    costs.pop(who.hex, None)
    return costs


def entry_costs(position: Position, name: str, edge: Edge) -> dict[str, int]:
    who, land, blocked = character(name), position.land, occupied(position)
    if who.flies:
        sources = {h: 1 for h in edge.hexes if may_pass_over(who, land.hexes[h].hazard)}
        return fly(who, land, blocked, sources)
    sources = {}
    for label in edge.hexes:
        cost = ground_entry_cost(who, land.hexes[label].hazard)
        if label not in blocked and cost is not None:
            sources[label] = cost
    return walk(who, land, blocked, sources)


# --- strikes (RULES §9) -----------------------------------------------------------------
def strike_problem(position: Position, striker: Fighter, target: Fighter) -> str | None:
    if at(position, striker.hex) != striker or at(position, target.hex) != target:
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


def strike_values(position: Position, striker: Fighter, target: Fighter) -> StrikeValues:
    assert strike_problem(position, striker, target) is None
    land = position.land
    dice = striker.power + dice_modifier(land, striker, target.hex)
    attacker, defender = skill_modifiers(land, striker, target)
    return StrikeValues(dice, strike_number(striker.skill + attacker, target.skill + defender))


def strike_targets(position: Position, striker: Fighter) -> list[Fighter]:
    return [f for f in position.fighters if strike_problem(position, striker, f) is None]


def up_dune(land: Battleland, a: str, b: str) -> bool:
    return border(land, a, b)[1] == DUNE


def dune_barred(land: Battleland, striker: Fighter, target: Fighter, other: Fighter) -> bool:
    if striker.is_native_to(DUNE):
        return False
    return up_dune(land, striker.hex, other.hex) and not up_dune(land, striker.hex, target.hex)


def others(position: Position, striker: Fighter, target: Fighter) -> list[Fighter]:
    return [f for f in strike_targets(position, striker) if f.hex != target.hex]


def eligible(
    position: Position, striker: Fighter, target: Fighter, used: StrikeValues
) -> list[Fighter]:
    found = []
    for other in others(position, striker, target):
        normal = strike_values(position, striker, other)
        if (
            normal.dice >= used.dice
            and normal.strike_number <= used.strike_number
            and not dune_barred(position.land, striker, target, other)
        ):
            found.append(other)
    return found


def declaration_problem(
    position: Position, striker: Fighter, target: Fighter, declared: StrikeValues
) -> str | None:
    natural = strike_values(position, striker, target)
    if declared == natural:
        return None
    if declared.dice > natural.dice or declared.strike_number < natural.strike_number:
        return f"no strike may be made stronger than {natural} (RULES §9.3)"
    rest = others(position, striker, target)
    normals = {o.hex: strike_values(position, striker, o) for o in rest}
    carriable = [o for o in rest if not dune_barred(position.land, striker, target, o)]
    if declared.dice < natural.dice and declared.dice not in {
        normals[o.hex].dice for o in carriable
    }:
        return (
            f"{declared.dice} dice are not the normal dice against another engaged enemy "
            "that may take carry-over (RULES §9.5 a, d)"
        )
    if declared.strike_number > natural.strike_number and declared.strike_number not in {
        v.strike_number for v in normals.values()
    }:
        return (
            f"strike number {declared.strike_number} is not the normal one against another "
            "engaged enemy (RULES §9.5 a)"
        )
    if declared.dice <= target.hits_to_slay:
        return (
            f"{plural(declared.dice, 'die', 'dice')} cannot slay {target.name} "
            f"({plural(target.hits_to_slay, 'hit')} needed) with hits to spare "
            "(RULES §9.5 c, errata 12.0)"
        )
    before = {f.hex for f in eligible(position, striker, target, natural)}
    after = {f.hex for f in eligible(position, striker, target, declared)}
    if not after - before:
        return "the announcement makes no other enemy eligible for carry-over (RULES §9.5 b)"
    return None


def legal_declarations(
    position: Position, striker: Fighter, target: Fighter
) -> list[DeclarationOption]:
    """Every candidate (natural values and the other enemies' normal ones) that passes."""
    natural = strike_values(position, striker, target)
    normals = [strike_values(position, striker, o) for o in others(position, striker, target)]
    dice = sorted({natural.dice} | {v.dice for v in normals if v.dice < natural.dice}, reverse=True)
    numbers = sorted(
        {natural.strike_number}
        | {v.strike_number for v in normals if v.strike_number > natural.strike_number}
    )
    options = [
        DeclarationOption(natural, tuple(eligible(position, striker, target, natural)), True)
    ]
    for d in dice:
        for s in numbers:
            values = StrikeValues(d, s)
            if values != natural and declaration_problem(position, striker, target, values) is None:
                options.append(
                    DeclarationOption(values, tuple(eligible(position, striker, target, values)))
                )
    return options


# --- rangestrikes (RULES §10) -----------------------------------------------------------
def line_of_sight(
    land: Battleland, a: str, b: str, occupied: Collection[str] = frozenset()
) -> LineOfSight:
    paths = intervening_paths(a, b)
    return LineOfSight(a, b, tuple(sight_line(land, a, b, p, occupied) for p in paths))


def _label(who: Fighter) -> str:
    return f"{who.name} {who.hex}"


def rangestrike_problem(position: Position, striker: Fighter, target: Fighter) -> str | None:
    reach = distance(striker.hex, target.hex) + 1
    magic = uses_magic_missile(striker)
    name = f"{_label(striker)} cannot rangestrike {_label(target)}"
    if not striker.character.rangestrikes:
        return (
            f"{_label(striker)} cannot rangestrike: only Dragons, Giants, Gorgons, Hydras,"
            " Minotaurs, Rangers and Warlocks can (RULES §10.1)"
        )
    contact = enemies_in_contact(position, striker, living_only=False)
    if contact:
        return (
            f"{_label(striker)} cannot rangestrike: it is in contact with"
            f" {_label(contact[0])} (RULES §10.1)"
        )
    if target.side is striker.side:
        return f"{name}: it is not an enemy (RULES §10.4)"
    if not target.alive:
        return f"{name}: it is already slain (RULES §10.4, errata 12.0)"
    if target.character.is_lord and not magic:
        return f"{name}: only a magic missile may target a lord (RULES §10.4)"
    if reach > striker.skill:
        return f"{name}: range {reach} is more than its skill {striker.skill} (RULES §10.2)"
    if reach < MIN_RANGE and not magic:
        return (
            f"{name}: range {reach} is too short, a rangestrike needs range {MIN_RANGE} or"
            " more (RULES §10.2)"
        )
    if not magic:
        sight = line_of_sight(position.land, striker.hex, target.hex, occupied(position))
        if not sight.clear:
            return f"{name}: {sight.reason}"
    return None


def rangestrike_targets(position: Position, striker: Fighter) -> tuple[Fighter, ...]:
    return tuple(f for f in position.fighters if rangestrike_problem(position, striker, f) is None)


def rangestrike_values(position: Position, striker: Fighter, target: Fighter) -> RangestrikeValues:
    assert rangestrike_problem(position, striker, target) is None
    land = position.land
    reach = rangestrike_range(striker.hex, target.hex)
    dice = rangestrike_dice(land, striker)
    if uses_magic_missile(striker):
        number = strike_number(striker.skill, target.skill)
        return RangestrikeValues(dice, number, reach, magic_missile=True)
    sight = line_of_sight(land, striker.hex, target.hex, occupied(position))
    defence = _defender_skill(land, striker, target)
    numbers = sorted(
        {
            strike_number(_attacker_skill(land, striker, target, line.brambles), defence)
            for line in sight.clear_lines
        }
    )
    best, *rest = numbers
    return RangestrikeValues(dice, best, reach, magic_missile=False, alternatives=tuple(rest))


@dataclass(frozen=True)
class Pair:
    """A striker and another character of one position."""

    striker: Fighter
    target: Fighter


def pairs(position: Position) -> list[Pair]:
    return [Pair(a, b) for a in position.fighters for b in position.fighters if a is not b]
