"""The battle maneuver phase (RULES §8.3–§8.5): where each character goes.

Greedy, one move per decision: the move that most improves the position. A position is
judged by the coming *clash* (every character in contact strikes the enemy it can hurt
most; the blows on each target combine into the chance it is slain, RULES §9) and by the
mover's *placement*: its hazard, its rangestrikes (§10), its distance to the enemy (an
attacker must close in before the time loss, §11.1; a weaker defender need not), and, for
a Titan, the enemies that could reach it next turn. Characters off the board always enter
(none is left off without reason, RULES §8.4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from engine.ai.battlefield import blow, damage_worth, worth
from engine.ai.entering import entering, leaves_way_in
from engine.ai.odds import combine, hits
from engine.battle.maneuver import entry_hexes, reachable
from engine.battle.maneuvering import maneuver
from engine.battle.position import Fighter, Position, Side, in_contact
from engine.battle.rangestrike import rangestrike_problem, rangestrike_values
from engine.battle.state import Battle
from engine.battle.strike import strike_number
from engine.battleland import LABELS, distance, neighbours
from engine.characters import TITAN, character
from engine.frozen import evolve
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_legal import maneuver_actions

#: A character left off the board is slain (RULES §8.4): entering is worth far more.
LEFT_OFF = 200.0
#: Attacker's pull toward the enemy per hex, and its growth per battle turn.
ATTACK_PULL = 1.5
ATTACK_PULL_PER_TURN = 0.75
#: A defender stronger than the attacker by this much seeks the fight.
DEFENDER_CONFIDENCE = 1.2
#: Penalty for blocking the entry edge while friends still wait to enter.
EDGE_BLOCK = 4.0
#: Bonus per level of elevation (walls and slopes favour the higher side, RULES §8.6).
HEIGHT = 1.0
#: Share of the blows enemies may bring next turn counted against a character.
EXPOSURE = 0.5
#: The share of the attacker's pull its Titan follows: others do the fighting.
TITAN_CAUTION = 0.3
#: Rough hazards a native stands well in (RULES §8.6).
NATIVE_HAZARDS = frozenset({"Bramble", "Bog", "Sand", "Drift", "Volcano"})


@dataclass(frozen=True)
class Stance:
    """How one side plays this maneuver phase."""

    side: Side
    pull: float
    """Worth of one hex closer to the nearest enemy (negative: keep away)."""
    edge: frozenset[str]
    """The side's entry hexes, to keep free while friends wait."""
    waiting: frozenset[str]
    threats: tuple[tuple[Fighter, frozenset[str]], ...] = ()
    """Each enemy with the hexes it may stand in after its next maneuver."""
    titan_caution: float = TITAN_CAUTION
    """The share of ``pull`` a Titan follows when closing in."""


def stance(battle: Battle, side: Side) -> Stance:
    """The attacker closes in harder each turn; the defender fights only when stronger.
    An attacking Titan keeps back while friends do the fighting; left alone it closes in
    whatever the blows to come, each hex closer worth the Titan itself: a time loss
    would slay it for certain (RULES §11.1)."""
    edge = frozenset(battle.edge(side).hexes)
    waiting = frozenset(battle.waiting(side))
    if side is Side.ATTACKER:
        pull = ATTACK_PULL + ATTACK_PULL_PER_TURN * battle.turn
        titan = _titan_alone(battle, side)
        if titan is not None:
            return Stance(side, worth(titan, True), edge, waiting, titan_caution=1.0)
    else:
        mine, theirs = _force(battle, side), _force(battle, side.other)
        pull = 1.0 if mine >= DEFENDER_CONFIDENCE * theirs else 0.0
    return Stance(side, pull, edge, waiting, _threats(battle, side))


def _titan_alone(battle: Battle, side: Side) -> Fighter | None:
    """``side``'s Titan when it is all that is left of the side, on the board and
    waiting (None otherwise)."""
    living = [f for f in battle.position.of_side(side) if f.alive]
    if battle.waiting(side) or [f.name for f in living] != [TITAN]:
        return None
    return living[0]


def _threats(battle: Battle, side: Side) -> tuple[tuple[Fighter, frozenset[str]], ...]:
    """Where each enemy may stand after its next maneuver (RULES §8.5): where it is or
    any hex it may reach; an enemy still off the board, any hex it may enter to."""
    position = battle.position
    enemy = side.other
    found = [(e, reachable(position, e) | {e.hex}) for e in position.of_side(enemy) if e.alive]
    if enemy not in battle.entered:
        edge = battle.edge(enemy)
        for name in battle.waiting(enemy):
            ends = entry_hexes(position, name, edge)
            if ends:
                found.append((Fighter(name, enemy, min(ends), battle.power_of(enemy, name)), ends))
    return tuple(found)


def _force(battle: Battle, side: Side) -> float:
    """The summed value of ``side``'s living characters, on the board or waiting."""
    living = [f.power * f.skill for f in battle.position.of_side(side) if f.alive]
    waiting = [battle.power_of(side, n) * character(n).skill for n in battle.waiting(side)]
    return float(sum(living) + sum(waiting))


def choose_maneuver(
    battle: Battle,
    side: Side,
    legal: list[a.Action],
    tie: Callable[[object], float],
    plan: Stance | None = None,
) -> a.Action:
    """The next maneuver-phase action: the most useful move, or the end of the phase."""
    best, gain = best_maneuver(battle, side, legal, tie, plan or stance(battle, side))
    if best is not None and gain > 0:
        return best
    if b.EndManeuver() in legal:
        return b.EndManeuver()
    return best if best is not None else legal[0]


def phase_moves(battle: Battle, side: Side) -> tuple[tuple[str, str], ...]:
    """The whole maneuver phase :func:`choose_maneuver` plays for ``side`` from ``battle``,
    as (hex, or name of a character waiting to enter, destination) moves; a tie goes to
    the move the engine lists first."""
    moves: list[tuple[str, str]] = []
    while True:
        chosen = choose_maneuver(battle, side, maneuver_actions(battle), _no_tie)
        if not isinstance(chosen, b.Maneuver):
            return tuple(moves)
        battle, _ = maneuver(battle, chosen.character, chosen.to)
        moves.append((chosen.character, chosen.to))


def _no_tie(_: object) -> float:
    return 0.0


def best_maneuver(
    battle: Battle,
    side: Side,
    legal: list[a.Action],
    tie: Callable[[object], float],
    plan: Stance,
) -> tuple[b.Maneuver | None, float]:
    """The move among ``legal`` that most improves ``side``'s position under ``plan``,
    and its gain (None when there is no move)."""
    best: b.Maneuver | None = None
    best_gain = 0.0
    for gain, action in move_gains(battle, side, legal, tie, plan):
        if best is None or gain > best_gain:
            best, best_gain = action, gain
    return best, best_gain


def move_gains(
    battle: Battle,
    side: Side,
    legal: list[a.Action],
    tie: Callable[[object], float],
    plan: Stance,
) -> list[tuple[float, b.Maneuver]]:
    """How much each move among ``legal`` improves ``side``'s position under ``plan``.
    While friends wait to enter, the moves that would leave one of them no way in are
    left out when another move will do: one left off is slain, or goes back unused
    (RULES §6.6, §7.2a, §8.4)."""
    if entering(battle, side):
        kept = [
            x
            for x in legal
            if not isinstance(x, b.Maneuver) or leaves_way_in(battle, side, x.character, x.to)
        ]
        if any(isinstance(x, b.Maneuver) for x in kept):
            legal = kept
    position = battle.position
    now = clash(position, side)
    land = position.land
    enemies = [f.hex for f in position.fighters if f.side is not side and f.alive]

    def engaged(hex_: str) -> bool:
        return any(in_contact(land, hex_, e) or in_contact(land, e, hex_) for e in enemies)

    alone: dict[str, float] = {}
    found: list[tuple[float, b.Maneuver]] = []
    for action in legal:
        if not isinstance(action, b.Maneuver):
            continue
        if action.character in LABELS:
            mover = position.at(action.character)
            if mover is None:
                continue
            if mover.hex not in alone:
                alone[mover.hex] = placement(position, mover, plan)
            start = alone[mover.hex]
            rest = tuple(f for f in position.fighters if f.hex != mover.hex)
            was_engaged = engaged(mover.hex)
        else:
            power = battle.power_of(side, action.character)
            mover = Fighter(action.character, side, action.to, power)
            start = -LEFT_OFF - worth(mover, True)
            rest = position.fighters
            was_engaged = False
        moved = evolve(mover, hex=action.to)
        after = evolve(position, fighters=(*rest, moved))
        # A move from and to hexes out of every enemy's contact leaves every blow of the
        # exchange as it was: the clash is the same, to the last bit.
        then = clash(after, side) if was_engaged or engaged(action.to) else now
        gain = placement(after, moved, plan) - start + then - now + tie(action)
        found.append((gain, action))
    return found


def clash(position: Position, side: Side) -> float:
    """The expected worth of the coming exchange of blows for ``side``: each character in
    contact strikes the enemy it can hurt most, and the blows on each target combine."""
    living = [f for f in position.fighters if f.alive]
    ours = [f for f in living if f.side is side]
    theirs = [f for f in living if f.side is not side]
    total = 0.0
    for strikers, targets, sign in ((ours, theirs, 1.0), (theirs, ours, -1.0)):
        blows: dict[str, list[tuple[int, int]]] = {}
        for f in strikers:
            options = [(v, e) for e in targets if (v := blow(position, f, e)) is not None]
            if options:
                v, e = max(options, key=lambda o: _strikes_worth([o[0]], o[1], ours=False))
                blows.setdefault(e.hex, []).append(v)
        for e in targets:
            if e.hex in blows:
                total += sign * _strikes_worth(blows[e.hex], e, ours=sign < 0)
    return total


def _strikes_worth(strikes: list[tuple[int, int]], target: Fighter, ours: bool) -> float:
    """Worth of the damage several strikes together do to ``target``."""
    return _worth_of_strikes(tuple(strikes), target.name, target.power, target.hits_to_slay, ours)


@lru_cache(maxsize=1 << 16)
def _worth_of_strikes(
    strikes: tuple[tuple[int, int], ...], name: str, power: int, need: int, ours: bool
) -> float:
    """:func:`_strikes_worth` of a target known by what its worth depends on: its name
    (a Titan's counts more), its power and the hits that would slay it."""
    target = Fighter(name, Side.DEFENDER, "", power, hits=power - need)
    dist: tuple[float, ...] = (1.0,)
    for values in strikes:
        dist = combine(dist, hits(*values))
    return sum(p * damage_worth(target, min(k, need), ours) for k, p in enumerate(dist))


def placement(position: Position, f: Fighter, plan: Stance) -> float:
    """How well ``f`` stands apart from the exchange of blows: its hazard, its
    rangestrikes when out of contact, and its distance to the enemy."""
    land = position.land
    enemies = [e for e in position.fighters if e.side is not f.side and e.alive]
    score = _terrain(position, f, plan)
    if f.name == TITAN:
        score -= _exposure(position, f, plan)
    if not enemies:
        return score
    if any(in_contact(land, f.hex, e.hex) for e in enemies):
        gap = 1
    else:
        if f.character.rangestrikes:
            score += _rangestrike(position, f, enemies)
        gap = min(distance(f.hex, e.hex) for e in enemies)
    pull = plan.pull * (plan.titan_caution if f.name == TITAN and plan.pull > 0 else 1.0)
    return score - pull * gap


def _exposure(position: Position, f: Fighter, plan: Stance) -> float:
    """What ``f`` stands to lose to the enemies that may come into contact with it next
    (each at its natural values; they pick their targets, so half of it counts)."""
    land = position.land
    near = {h for h in neighbours(f.hex) if h is not None and in_contact(land, f.hex, h)}
    strikes = [
        (e.power, strike_number(e.skill, f.skill))
        for e, ends in plan.threats
        if e.alive and ends & near
    ]
    if not strikes:
        return 0.0
    return EXPOSURE * _strikes_worth(strikes, f, ours=True)


def _rangestrike(position: Position, f: Fighter, enemies: list[Fighter]) -> float:
    """The best rangestrike ``f`` could make from where it stands (RULES §10)."""
    best = 0.0
    for e in enemies:
        if rangestrike_problem(position, f, e) is not None:
            continue
        values = rangestrike_values(position, f, e)
        need = e.hits_to_slay
        gain = sum(
            p * damage_worth(e, min(k, need), False)
            for k, p in enumerate(hits(values.dice, values.strike_number))
        )
        best = max(best, gain)
    return best


def _terrain(position: Position, f: Fighter, plan: Stance) -> float:
    """Hazards: natives like their rough hexes, non-natives fear Drift (RULES §8.6, §8.7);
    height helps; the entry edge stays free while friends wait."""
    here = position.land.hex(f.hex)
    score = HEIGHT * here.elevation
    if here.hazard in NATIVE_HAZARDS and f.is_native_to(here.hazard):
        score += 1.0
    if here.hazard == "Drift" and not f.is_native_to("Drift"):
        score -= worth(f, True) / f.power
    if f.hex in plan.edge and len(plan.waiting - {f.name}) > 0:
        score -= EDGE_BLOCK
    return score
