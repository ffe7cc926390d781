"""What happened in a battle: public events, every die roll included (RULES §5.7, §8–§11).

A battle is fought in public (SoP), so every battle event is seen by everyone. Hexes name
characters on the battleland; ``start`` None means "from off the board".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.battle.position import Side
from engine.battle.state import Battle, EndKind
from engine.events import Event
from engine.frozen import quick_init

#: A battle after a rules step, and what happened in it.
Change = tuple[Battle, list[Event]]


@quick_init
@dataclass(frozen=True)
class HalfTurnBegun(Event):
    turn: int
    side: Side


@quick_init
@dataclass(frozen=True)
class EntrantCalled(Event):
    """A summoned lord (from ``donor``) or a reinforcement (showing ``revealed``)."""

    side: Side
    name: str
    donor: str | None = None
    revealed: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True)
class EntrantArrived(Event):
    """The summoned lord or reinforcement entered the battleland and now counts."""

    side: Side
    name: str
    donor: str | None = None
    revealed: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True)
class EntrantReturned(Event):
    """It did not enter: it goes back without counting (RULES §6.6, §7.2a)."""

    side: Side
    name: str


@quick_init
@dataclass(frozen=True)
class ChanceDeclined(Event):
    side: Side
    what: str


@quick_init
@dataclass(frozen=True)
class CharacterMoved(Event):
    side: Side
    name: str
    start: str | None
    end: str


@quick_init
@dataclass(frozen=True)
class ManeuverTakenBack(Event):
    side: Side
    name: str
    start: str | None
    end: str


@quick_init
@dataclass(frozen=True)
class ManeuverEnded(Event):
    side: Side


@quick_init
@dataclass(frozen=True)
class LeftOff(Event):
    """Characters not brought on in their first maneuver are slain (RULES §8.4)."""

    side: Side
    names: tuple[str, ...]
    forced: bool = False


@quick_init
@dataclass(frozen=True)
class DriftDamage(Event):
    """One hit to each of the phasing side's non-natives in Drift (RULES §8.7)."""

    side: Side
    hexes: tuple[str, ...]
    slain: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class Struck(Event):
    """A normal strike (or counterstrike) and its dice (RULES §9)."""

    side: Side
    striker: str
    striker_name: str
    target: str
    target_name: str
    dice: int
    strike_number: int
    rolls: tuple[int, ...]
    hits: int
    slain: bool
    excess: int
    declared: bool = False
    counter: bool = False


@quick_init
@dataclass(frozen=True)
class CarryToPlace(Event):
    """The striker must choose where ``hits`` carried hits go (RULES §9.4)."""

    side: Side
    hits: int
    targets: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class CarriedOver(Event):
    target: str
    name: str
    hits: int
    slain: bool


@quick_init
@dataclass(frozen=True)
class Rangestruck(Event):
    """A rangestrike or magic missile and its dice (RULES §10)."""

    side: Side
    striker: str
    striker_name: str
    target: str
    target_name: str
    dice: int
    strike_number: int
    rolls: tuple[int, ...]
    hits: int
    slain: bool


@quick_init
@dataclass(frozen=True)
class StrikesEnded(Event):
    side: Side
    counter: bool


@quick_init
@dataclass(frozen=True)
class SlainRemoved(Event):
    """Step 6: the slain leave the battleland (RULES §8.4)."""

    hexes: tuple[str, ...]
    names: tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class ConcessionAttempted(Event):
    side: Side


@quick_init
@dataclass(frozen=True)
class ConcededInstead(Event):
    side: Side


@quick_init
@dataclass(frozen=True)
class ConcessionRollOff(Event):
    """Both insist on conceding: d6 each (attacker, defender), higher concedes (E25)."""

    rolls: tuple[tuple[int, int], ...]
    conceder: Side


@quick_init
@dataclass(frozen=True)
class BattleConceded(Event):
    side: Side


@quick_init
@dataclass(frozen=True)
class BattleEnded(Event):
    kind: EndKind
    winner: Side | None
    turn: int
