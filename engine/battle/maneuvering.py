"""The maneuver phase of a battle: moves, take-backs, entering and left-offs (RULES §8.3–§8.5).

Characters move one at a time, each once per phase (§8.5); moves may be taken back, the
later ones first (errata 7.0). Characters off the board enter across their side's edge in
their side's first maneuver phase; the Tower defender instead places his on the Tower hexes
(§8.3). A summoned lord or reinforcement enters the same way in its maneuver phase (§6.6,
§7.2a). A character on the board is named by its hex, one off the board by its name.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.battle.events import (
    Change,
    CharacterMoved,
    EntrantArrived,
    EntrantReturned,
    LeftOff,
    ManeuverEnded,
    ManeuverTakenBack,
)
from engine.battle.maneuver import deployment_hexes, entry_hexes, reachable, reachable_from
from engine.battle.position import Fighter, Position, Side
from engine.battle.state import Battle, BattleStep, Casualty, ManeuverRecord, battle_waiting
from engine.battleland import LABELS
from engine.errors import IllegalManeuver, WrongPhase
from engine.events import Event
from engine.frozen import evolve

_HEXES = frozenset(LABELS)
# The members bound once: an enum class's attributes are looked up through its metaclass's
# ``__getattr__`` hook, several times slower than a global.
_MANEUVER, _DEFENDER = BattleStep.MANEUVER, Side.DEFENDER


def require_maneuver(battle: Battle, doing: str) -> None:
    """Raise :class:`WrongPhase` unless the phasing side may maneuver now."""
    if battle.step is not _MANEUVER or battle.concession is not None:
        raise WrongPhase(
            f"you can {doing} only in your maneuver phase (RULES §8.4); {battle_waiting(battle)}"
        )


def _with_waiting(battle: Battle, side: Side, names: list[str]) -> Mapping[Side, tuple[str, ...]]:
    return {**battle.off_board, side: tuple(sorted(names))}


def may_enter(battle: Battle, side: Side, name: str) -> bool:
    """Whether ``name``, off the board, may enter now: in its side's first maneuver, or as
    the summoned lord or reinforcement of this maneuver phase (RULES §8.4, §6.6, §7.2a)."""
    return name in battle.waiting(side) and _entering_now(battle, side, name)


def _entering_now(battle: Battle, side: Side, name: str) -> bool:
    """:func:`may_enter` for a character known to be off the board."""
    if not battle.entered or side not in battle.entered:
        return True
    return battle.entrant is not None and battle.entrant.name == name


def moved_hexes(battle: Battle) -> frozenset[str]:
    """Hexes of the characters that have moved this phase."""
    return frozenset(record.end for record in battle.moves)


def entry_destinations(battle: Battle, side: Side, name: str) -> frozenset[str]:
    """Where ``name`` may enter to: the Tower hexes for the Tower defender's first maneuver,
    otherwise across its side's edge (RULES §8.3, §8.5.6)."""
    if not may_enter(battle, side, name):
        return frozenset()
    return _entry_ends(battle, side, name)


def _entry_ends(battle: Battle, side: Side, name: str) -> frozenset[str]:
    """:func:`entry_destinations` of a character that may enter now."""
    position = battle.position
    if side is _DEFENDER and side not in battle.entered and battle.land.is_tower:
        return deployment_hexes(position)
    return entry_hexes(position, name, battle.edge(side))


def destinations(battle: Battle) -> dict[str, frozenset[str]]:
    """Every legal move of the phasing side now: character (hex or, off the board, name)
    → destinations (RULES §8.5). Characters with nowhere to go are left out."""
    side = battle.phasing
    position = battle.position
    moved = {record.end for record in battle.moves}
    found: dict[str, frozenset[str]] = {}
    for who in position.fighters:
        if who.side is side and who.hex not in moved and who.alive:
            ends = reachable(position, who)
            if ends:
                found[who.hex] = ends
    waiting = battle.waiting(side)
    for name in sorted(set(waiting)) if waiting else ():
        if _entering_now(battle, side, name):
            entries = _entry_ends(battle, side, name)
            if entries:
                found[name] = entries
    return found


def maneuver(battle: Battle, who: str, to: str) -> Change:
    """Move the phasing side's character ``who`` (a hex, or a name off the board) to ``to``.

    Raises :class:`IllegalManeuver` naming the rule when the move is not allowed.
    """
    require_maneuver(battle, "move characters")
    side = battle.phasing
    if who in _HEXES:
        mover = battle.position.at(who)
        if mover is None or mover.side is not side:
            raise IllegalManeuver(f"you have no character in {who} (RULES §8.5)")
        for record in battle.moves:
            if record.end == who:
                raise IllegalManeuver(
                    f"the {mover.name} in {who} has moved this phase; take the move back "
                    "first (RULES §8.5, errata 7.0)"
                )
        if to not in reachable_from(battle.position, mover):
            raise IllegalManeuver(
                f"the {mover.name} in {who} cannot reach {to} (RULES §8.5, §8.6; an engaged "
                "character may not move)"
            )
        return _move(battle, side, mover.name, who, to)
    waiting = battle.waiting(side)
    if who not in waiting:
        raise IllegalManeuver(f"you have no {who} off the board (RULES §8.5)")
    if not _entering_now(battle, side, who):
        raise IllegalManeuver(
            f"the {who} could enter only in your first maneuver phase (RULES §8.4)"
        )
    if to not in _entry_ends(battle, side, who):
        raise IllegalManeuver(
            f"the {who} cannot enter to {to} across {', '.join(battle.edge(side).hexes)} "
            "(RULES §8.3, §8.5)"
        )
    return _enter(battle, side, waiting, who, to)


def _move(battle: Battle, side: Side, name: str, start: str, end: str) -> Change:
    """The battle after the character in ``start`` moved to ``end`` (recorded, §8.5)."""
    moves = (*battle.moves, ManeuverRecord(side, name, start, end))
    battle = evolve(battle, position=battle.position.moved(start, end), moves=moves)
    return battle, [CharacterMoved(side, name, start, end)]


def _enter(battle: Battle, side: Side, waiting: tuple[str, ...], name: str, end: str) -> Change:
    """The battle after ``name``, one of the ``waiting``, entered to ``end`` (§8.3, §8.5.6)."""
    position = battle.position
    left = list(waiting)
    left.remove(name)
    arrival = Fighter(name, side, end, battle.power_of(side, name))
    battle = evolve(
        battle,
        position=Position(position.terrain, (*position.fighters, arrival)),
        off_board=_with_waiting(battle, side, left),
        moves=(*battle.moves, ManeuverRecord(side, name, None, end)),
    )
    return battle, [CharacterMoved(side, name, None, end)]


def take_back(battle: Battle, hex_label: str) -> Change:
    """Take back the move that ended in ``hex_label`` and every later one (errata 7.0)."""
    require_maneuver(battle, "take back a move")
    index = next((i for i, r in enumerate(battle.moves) if r.end == hex_label), None)
    if index is None:
        raise IllegalManeuver(f"no character has moved to {hex_label} this phase (errata 7.0)")
    events: list[Event] = []
    for record in reversed(battle.moves[index:]):
        battle = _undo(battle, record)
        events.append(ManeuverTakenBack(record.side, record.name, record.start, record.end))
    return evolve(battle, moves=battle.moves[:index], take_backs=battle.take_backs + 1), events


def _undo(battle: Battle, record: ManeuverRecord) -> Battle:
    position = battle.position
    if record.start is None:
        fighters = tuple(f for f in position.fighters if f.hex != record.end)
        waiting = [*battle.waiting(record.side), record.name]
        battle = evolve(battle, off_board=_with_waiting(battle, record.side, waiting))
    else:
        fighters = tuple(
            evolve(f, hex=record.start) if f.hex == record.end else f for f in position.fighters
        )
    return evolve(battle, position=evolve(position, fighters=fighters))


def settle_entrant(battle: Battle) -> Change:
    """The summoned lord or reinforcement arrives if it is on the board, otherwise it goes
    back uncounted (RULES §6.6, §7.2a)."""
    entrant = battle.entrant
    if entrant is None:
        return battle, []
    battle = evolve(battle, entrant=None)
    waiting = list(battle.waiting(entrant.side))
    if entrant.name in waiting:
        waiting.remove(entrant.name)
        battle = evolve(battle, off_board=_with_waiting(battle, entrant.side, waiting))
        return battle, [EntrantReturned(entrant.side, entrant.name)]
    if entrant.donor is not None:
        battle = evolve(battle, summoned=True)
    else:
        battle = evolve(battle, reinforced=True)
    arrived = EntrantArrived(entrant.side, entrant.name, entrant.donor, entrant.revealed)
    return battle, [arrived]


def _forced_loss(battle: Battle) -> bool:
    """Whether none of the defender's characters still off the board could enter, so that
    the movement rules forced their loss (errata 14.2)."""
    side = Side.DEFENDER
    return bool(battle.waiting(side)) and not any(
        entry_destinations(battle, side, name) for name in set(battle.waiting(side))
    )


def end_maneuver(battle: Battle) -> Change:
    """End the phasing side's maneuver phase. After its first one, characters still off the
    board are slain (RULES §8.4, errata 10.1); a summon or reinforcement that did not enter
    goes back uncounted (§6.6, §7.2a)."""
    require_maneuver(battle, "end the maneuver phase")
    side = battle.phasing
    battle, events = settle_entrant(battle)
    events.insert(0, ManeuverEnded(side))
    if side not in battle.entered:
        left = battle.waiting(side)
        if side is Side.DEFENDER:
            battle = evolve(battle, forced_loss=_forced_loss(battle))
        if left:
            dead = tuple(Casualty(n, side, battle.power_of(side, n), on_board=False) for n in left)
            battle = evolve(
                battle,
                casualties=battle.casualties + dead,
                off_board=_with_waiting(battle, side, []),
            )
            forced = battle.forced_loss and side is Side.DEFENDER
            events.append(LeftOff(side, tuple(left), forced=forced))
        battle = evolve(battle, entered=battle.entered | {side})
    return evolve(battle, moves=(), take_backs=0, step=BattleStep.DRIFT), events
