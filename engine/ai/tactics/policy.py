"""A fast maneuver policy (RULES §8.3–§8.6, §9, §10): one pass over the movers.

Each character that may move, the strongest first and the Titan last, goes to the hex
where it stands best given where the others stand now: the blow it could deal there
against the blows it would take (each enemy in contact shares its strike among the
characters it touches), or, out of contact, its rangestrike, the enemies that could reach
it next half, and a pull toward (or away from) the enemy. One whose better hex lies
behind friends yet to move moves after them (no character moves through another, §8.5).
The :class:`Stance` weighs these; the planner tries several stances and judges the plans
by forecast.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.ai.battlefield import blow_values
from engine.ai.entering import entering, leaves_way_in
from engine.ai.tactics.damage import blow_share, worth
from engine.ai.tactics.phase import Move
from engine.battle.maneuver import entry_hexes, reachable
from engine.battle.maneuvering import destinations, entry_destinations, maneuver, may_enter
from engine.battle.position import Fighter, Position, Side
from engine.battle.rangestrike import rangestrike_targets, rangestrike_values
from engine.battle.state import Battle
from engine.battle.strike import strike_number
from engine.battleland import LABELS, distance
from engine.characters import TITAN, character
from engine.frozen import evolve

#: Rough hazards a native stands well in (RULES §8.6), and what standing there is worth.
NATIVE_HAZARDS = frozenset({"Bramble", "Bog", "Sand", "Drift", "Volcano"})
NATIVE_BONUS = 1.5
#: Worth of a level of elevation (Slopes, Walls and Dunes favour the higher side, §8.6).
HEIGHT = 1.0
#: Blocking the entry edge while friends still wait to enter (RULES §8.4).
EDGE_BLOCK = 6.0
#: Share of an enemy's possible blow next half that counts as a threat (it picks one target).
THREAT_SHARE = 0.5


@dataclass(frozen=True)
class Stance:
    """How one side places its characters."""

    pull: float
    """Worth of one hex closer to the nearest enemy, out of contact (negative: keep away)."""
    caution: float = 1.0
    """Weight of the blows a character would take against those it would deal."""
    exposure: float = 1.0
    """Weight of the blows enemies could bring next half."""
    titan_pull: float = 0.0
    """The pull on the Titan."""
    titan_caution: float = 1.0


class Board:
    """The position as the policy sees it while placing one side."""

    def __init__(self, battle: Battle, side: Side, stance: Stance) -> None:
        self.side = side
        self.stance = stance
        self.terrain = battle.terrain
        self.land = battle.land
        self.edge = frozenset(battle.edge(side).hexes)
        self.zones = _enemy_zones(battle, side)

    def score(self, position: Position, mover: Fighter, to: str, waiting: int) -> float:
        """How well ``mover`` stands in ``to`` (``position`` holds everyone else): the
        blows it would deal and take there, or its rangestrike, and :meth:`standing`."""
        foes = self.foes(position, to)
        if foes:
            value = self.exchange(position, mover, to, foes)
        elif mover.character.rangestrikes:
            value = _rangestrike(position, evolve(mover, hex=to))
        else:
            value = 0.0
        return value + self.standing(position, mover, to, waiting, bool(foes))

    def foes(self, position: Position, to: str) -> list[Fighter]:
        """The living enemies in contact with hex ``to``."""
        near = self.land.contacts[to]
        side = self.side
        return [e for e in position.fighters if e.side is not side and e.alive and e.hex in near]

    def exchange(self, position: Position, mover: Fighter, to: str, foes: list[Fighter]) -> float:
        """The best blow ``mover`` could deal from ``to`` against its share of the blows
        the enemies in contact would deal it (each shares its strike among those it
        touches)."""
        side, land, terrain = self.side, self.land, self.terrain
        own_worth = worth(mover.name, mover.power, mover.skill, True)
        offence = 0.0
        defence = 0.0
        for e in foes:
            dice, number = blow_values(terrain, mover.name, mover.power, to, e.name, e.power, e.hex)
            dealt = blow_share(dice, number, e.hits, e.power) * worth(
                e.name, e.power, e.skill, False
            )
            offence = max(offence, dealt)
            dice, number = blow_values(terrain, e.name, e.power, e.hex, mover.name, mover.power, to)
            touching = sum(
                1
                for f in position.fighters
                if f.side is side and f.alive and f.hex in land.contacts[e.hex]
            )
            taken = blow_share(dice, number, mover.hits, mover.power) * own_worth
            defence += taken / (1 + touching)
        caution = self.stance.titan_caution if mover.name == TITAN else self.stance.caution
        return offence - caution * defence

    def standing(
        self, position: Position, mover: Fighter, to: str, waiting: int, engaged: bool
    ) -> float:
        """How ``mover`` stands in ``to`` apart from the coming blows: the hazard and the
        height, the entry edge kept free, the pull toward the enemy when out of contact,
        and the enemies that could reach it next half."""
        land, stance = self.land, self.stance
        titan = mover.name == TITAN
        near = land.contacts[to]
        own_worth = worth(mover.name, mover.power, mover.skill, True)
        hex_ = land.hexes[to]
        value = HEIGHT * hex_.elevation
        hazard = hex_.hazard
        if hazard in NATIVE_HAZARDS and mover.is_native_to(hazard):
            value += NATIVE_BONUS
        elif hazard == "Drift":
            value -= own_worth / mover.power
        if waiting and to in self.edge:
            value -= EDGE_BLOCK
        if not engaged:
            side = self.side
            gap = min(
                (distance(to, e.hex) for e in position.fighters if e.side is not side), default=1
            )
            value -= (stance.titan_pull if titan else stance.pull) * (gap - 1)
        threat = 0.0
        for e, zone in self.zones:
            if to in zone and e.hex not in near:
                number = strike_number(e.skill, mover.skill)
                threat += blow_share(e.power, number, mover.hits, mover.power)
        return value - stance.exposure * THREAT_SHARE * threat * own_worth


def _enemy_zones(battle: Battle, side: Side) -> list[tuple[Fighter, frozenset[str]]]:
    """Each free enemy with the hexes it could be in contact with after its next move."""
    position = battle.position
    land = battle.land
    enemy = side.other
    found = []
    for e in position.fighters:
        if e.side is enemy and e.alive:
            ends = reachable(position, e)
            if ends:
                zone: set[str] = set()
                for h in ends | {e.hex}:
                    zone |= land.contacts[h]
                found.append((e, frozenset(zone)))
    if enemy not in battle.entered:
        edge = battle.edge(enemy)
        for name in battle.waiting(enemy):
            zone = set()
            for h in entry_hexes(position, name, edge):
                zone |= land.contacts[h]
            found.append(
                (Fighter(name, enemy, edge.hexes[0], battle.power_of(enemy, name)), frozenset(zone))
            )
    return found


def _rangestrike(position: Position, shooter: Fighter) -> float:
    """The best rangestrike ``shooter`` could make from where it stands (RULES §10)."""
    rest = tuple(f for f in position.fighters if f.hex != shooter.hex)
    sight = Position(position.terrain, (*rest, shooter))
    best = 0.0
    for target in rangestrike_targets(sight, shooter):
        values = rangestrike_values(sight, shooter, target)
        gain = blow_share(values.dice, values.strike_number, target.hits, target.power)
        best = max(best, gain * worth(target.name, target.power, target.skill, False))
    return best


def movers(battle: Battle, side: Side, titan_last: bool = True) -> list[str]:
    """The characters that may move now, the strongest first and the Titan last (or,
    ``titan_last`` False, first): hexes of those on the board, names of those waiting
    to enter. Last come those who may enter this phase but find the way in taken now:
    the others' moves may free it (RULES §8.5.6)."""
    found = destinations(battle)
    who = [x for x in found if x in LABELS]
    who += [name for name in battle.waiting(side) if name in found]
    blocked = [
        name for name in battle.waiting(side) if name not in found and may_enter(battle, side, name)
    ]

    def key(x: str) -> tuple[bool, int, str]:
        f = battle.position.at(x) if x in LABELS else None
        name = f.name if f is not None else x
        power = f.power if f is not None else battle.power_of(side, x)
        return ((name == TITAN) is titan_last, -power * character(name).skill, x)

    return sorted(who, key=key) + sorted(blocked, key=key)


def ranked(
    board: Board, battle: Battle, who: str, later: tuple[str, ...] | None = None
) -> list[tuple[float, str]]:
    """Where ``who`` may stand at the end of its move, best first by ``board``'s score;
    staying put (its own hex) included for a character on the board. ``later`` names the
    characters still to enter after it, in the order they will move (default: by name)."""
    side = board.side
    position = battle.position
    waiting = len(battle.waiting(side))
    if who in LABELS:
        mover = position.at(who)
        if mover is None:
            return []
        ends = reachable(position, mover)
        rest = Position(position.terrain, tuple(f for f in position.fighters if f.hex != who))
        scored = [(board.score(rest, mover, who, waiting), who)]
    else:
        ends = entry_destinations(battle, side, who)
        mover = Fighter(who, side, "", battle.power_of(side, who))
        rest = position
        scored = []
        waiting -= 1
    if waiting:
        ends = _leaving_way_in(battle, side, who, ends, later)
    scored += [(board.score(rest, mover, to, waiting), to) for to in sorted(ends)]
    scored.sort(key=lambda item: -item[0])
    return scored


def _leaving_way_in(
    battle: Battle, side: Side, who: str, ends: frozenset[str], later: tuple[str, ...] | None
) -> frozenset[str]:
    """``ends`` without the hexes that would leave a friend still waiting with no way onto
    the board, when another hex will do: one left off is slain, or goes back unused
    (RULES §6.6, §7.2a, §8.4). The friends are tried in the order they will move
    (``later``), each going as deep as it may; as the deepest hex of the next one always
    passes this test in its turn, a phase whose first mover passes it brings everyone in."""
    if not entering(battle, side):
        return ends
    kept = frozenset(to for to in ends if leaves_way_in(battle, side, who, to, later))
    return kept if kept else ends


def _waits_for_friends(
    board: Board, battle: Battle, who: str, unmoved: list[str], best: float
) -> bool:
    """Whether ``who`` on the board would stand better in a hex that friends yet to move
    keep it from reaching now (characters block the way, RULES §8.5): it then moves after
    them. Not while friends wait to enter (their way in is planned in order)."""
    if who not in LABELS or battle.waiting(board.side):
        return False
    position = battle.position
    mover = position.at(who)
    blockers = {h for h in unmoved if h in LABELS and h != who}
    if mover is None or not blockers:
        return False
    now = reachable(position, mover)
    free = Position(position.terrain, tuple(f for f in position.fighters if f.hex not in blockers))
    extra = reachable(free, mover) - now - blockers
    if not extra:
        return False
    rest = Position(position.terrain, tuple(f for f in position.fighters if f.hex != who))
    return any(board.score(rest, mover, to, 0) > best for to in extra)


def entering_after(order: list[str], i: int) -> tuple[str, ...]:
    """The characters still to enter after the ``i``-th of the movers ``order``."""
    return tuple(x for x in order[i + 1 :] if x not in LABELS)


@dataclass(frozen=True)
class Played:
    """A maneuver phase played by the policy."""

    moves: tuple[Move, ...]
    battle: Battle
    """The battle after the moves."""
    options: tuple[tuple[str, ...], ...]
    """For each mover in the policy's order, its best destinations (staying put is its
    own hex), best first."""


def play(
    battle: Battle,
    side: Side,
    stance: Stance,
    force: Mapping[int, str] | None = None,
    keep: int = 0,
    titan_last: bool = True,
) -> Played:
    """The moves of a whole maneuver phase under ``stance``: the ``i``-th mover goes to
    ``force[i]`` when it may; ``keep`` best destinations of each mover are listed. A mover
    whose better hex is behind friends yet to move waits for them once. When the Titan,
    moving last, found no way onto the board, the Titan goes first."""
    start = battle
    board = Board(battle, side, stance)
    moves: list[Move] = []
    order = movers(battle, side, titan_last)
    options: list[tuple[str, ...]] = [()] * len(order)
    queue = list(range(len(order)))
    deferred: set[int] = set()
    while queue:
        i = queue.pop(0)
        who = order[i]
        scored = ranked(board, battle, who, entering_after(order, i))
        if (
            i not in deferred
            and scored
            and _waits_for_friends(board, battle, who, [order[j] for j in queue], scored[0][0])
        ):
            deferred.add(i)
            queue.append(i)
            continue
        options[i] = tuple(to for _, to in scored[:keep])
        if not scored:
            continue
        best = scored[0][1]
        wanted = force.get(i) if force else None
        if wanted is not None and any(to == wanted for _, to in scored):
            best = wanted
        if best != who:
            battle, _ = maneuver(battle, who, best)
            moves.append((who, best))
    if titan_last and TITAN in battle.waiting(side) and side not in battle.entered:
        return play(start, side, stance, force, keep, titan_last=False)
    return Played(tuple(moves), battle, tuple(options))
