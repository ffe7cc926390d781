"""The state of a battle in progress (RULES §8–§11): frozen, JSON-serialisable data.

A :class:`Battle` holds everything the battle rules need between two decisions: the
position on the battleland, the characters still off the board, the turn track, the
phasing side and step, the casualties so far, a pending carry-over or concession, and the
summon and reinforcement bookkeeping. It knows nothing of the masterboard: the game layer
(``engine.game.battle_flow``) supplies what it needs (:class:`Supplies`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.battle.position import Fighter, Position, Side
from engine.battleland import Battleland, Edge, attacker_edge, defender_edge
from engine.characters import TITAN, character
from engine.frozen import quick_init

#: Battle turns are numbered 1–7 (RULES §8.4).
LAST_TURN = 7
#: The defender's reinforcement comes at the start of his 4th turn (RULES §6.6).
REINFORCEMENT_TURN = 4


class BattleStep(Enum):
    """Where a half battle-turn stands (RULES §8.4, SoP complete sequence)."""

    OPEN_ATTACKER = "attacker may concede"
    """The battle begins: the attacker may concede before anyone enters (SoP)."""
    OPEN_DEFENDER = "defender may concede"
    """Then the defender may concede (SoP)."""
    REINFORCE = "reinforce"
    """Defender, turn 4: muster a reinforcement or decline (§6.6)."""
    SUMMON = "summon"
    """Attacker: summon an Angel or Archangel or decline (§7.2a)."""
    MANEUVER = "maneuver"
    DRIFT = "drift"
    """Drift would slay a phasing character: the other side may concede first (§8.7)."""
    STRIKE = "strike"
    SLEW_ALL = "slew all"
    """The phasing side slew every enemy, who still has counterstrikes to make: it may
    concede first, for a mutual elimination (errata 9.4)."""
    COUNTERSTRIKE = "counterstrike"
    END_CHECK = "end check"
    """The battle is ending: the phasing side, not having won, may concede (§5.8)."""
    OVER = "over"


class EndKind(Enum):
    """How a battle ended (RULES §11.1, §5.8)."""

    WIPED_OUT = "legion wiped out"
    TITAN_SLAIN = "Titan slain"
    BOTH_TITANS = "both Titans slain"
    MUTUAL = "mutual elimination"
    TIME_LOSS = "time loss"
    CONCESSION = "concession"


@dataclass(frozen=True)
class Ending:
    """The result of a battle: ``loser`` is the side wiped out, whose Titan fell, that
    lost on time or that conceded (None when both sides fell alike)."""

    kind: EndKind
    winner: Side | None
    loser: Side | None = None


@quick_init
@dataclass(frozen=True)
class ManeuverRecord:
    """One character's move in the current maneuver phase, kept for take-backs (errata 7.0).

    ``start`` is None for a character entering from off the board.
    """

    side: Side
    name: str
    start: str | None
    end: str


@quick_init
@dataclass(frozen=True)
class PendingCarry:
    """Excess hits of a strike still to be placed by the striker (RULES §9.4, errata 12.4).

    ``targets`` are the eligible carry targets (hexes) that are still alive.
    """

    striker: str
    hits: int
    targets: tuple[str, ...]


@dataclass(frozen=True)
class Concession:
    """An attempt to concede awaiting the other side's answer (RULES §5.8, errata 9.4).

    Once ``countered`` (the other side conceded instead), ``by`` must accept that or
    insist, which leads to the roll-off.
    """

    by: Side
    countered: bool = False

    @property
    def responder(self) -> Side:
        """The side that answers now."""
        return self.by if self.countered else self.by.other


@dataclass(frozen=True)
class Entrant:
    """A summoned lord (``donor`` set) or a reinforcement (``revealed`` recruiters) that
    must enter in the current maneuver phase or go back uncounted (RULES §6.6, §7.2a)."""

    name: str
    side: Side
    donor: str | None = None
    revealed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Casualty:
    """A character removed as slain, with its Power when slain (RULES §11.4).

    ``on_board`` is False for a character left off the board (errata 10.1).
    """

    name: str
    side: Side
    power: int
    on_board: bool = True

    @property
    def value(self) -> int:
        return self.power * character(self.name).skill


@dataclass(frozen=True)
class Supplies:
    """What the masterboard offers the battle now: the attacker's possible summons as
    (donor marker, lord) pairs, and the caretaker's stacks (RULES §6.6, §7.2)."""

    donors: tuple[tuple[str, str], ...] = ()
    caretaker: Mapping[str, int] = field(default_factory=dict)
    summon_spent: bool = False
    """The attacker has summoned already this engagement phase (public, RULES §7.2)."""


@dataclass(frozen=True)
class Battle:
    """A battle in progress (RULES §8–§11)."""

    entry_side: int
    attacker: str
    defender: str
    position: Position
    off_board: Mapping[Side, tuple[str, ...]]
    """Characters not (yet) on the battleland: whole legions before their first
    maneuver, later only a pending summon or reinforcement (RULES §8.4)."""
    titan_power: Mapping[Side, int]
    turn: int = 1
    phasing: Side = Side.DEFENDER
    step: BattleStep = BattleStep.MANEUVER
    moves: tuple[ManeuverRecord, ...] = ()
    take_backs: int = 0
    """Take-backs made in the current maneuver phase (the game may limit them)."""
    struck: frozenset[str] = frozenset()
    """Hexes of the characters that have struck or rangestruck in this strike phase."""
    carry: PendingCarry | None = None
    concession: Concession | None = None
    casualties: tuple[Casualty, ...] = ()
    entered: frozenset[Side] = frozenset()
    """Sides whose first maneuver phase is over."""
    summon_due: bool = False
    """An on-board defender has been slain: the attacker's summon chance comes (§7.2a)."""
    summon_used: bool = False
    summoned: bool = False
    reinforce_used: bool = False
    reinforced: bool = False
    entrant: Entrant | None = None
    forced_loss: bool = False
    """The defender could not bring every character on in his first maneuver (errata 14.2)."""
    ending: Ending | None = None

    # --- lookups ---------------------------------------------------------------------
    @property
    def terrain(self) -> str:
        return self.position.terrain

    @property
    def land(self) -> Battleland:
        return self.position.land

    def marker(self, side: Side) -> str:
        return self.attacker if side is Side.ATTACKER else self.defender

    def edge(self, side: Side) -> Edge:
        """The edge ``side`` enters by (RULES §8.3; in a Tower the attacker uses side 3)."""
        tower = self.land.is_tower
        if side is _ATTACKER:
            return attacker_edge(self.entry_side, tower)
        return defender_edge(self.entry_side, tower)

    def power_of(self, side: Side, name: str) -> int:
        """Power of a character of ``side`` (a Titan's from its owner's score, §1.3)."""
        return self.titan_power[side] if name == TITAN else character(name).power

    def waiting(self, side: Side) -> tuple[str, ...]:
        return self.off_board.get(side, ())

    def fighters(self, side: Side) -> list[Fighter]:
        return list(self.position.of_side(side))

    @property
    def striking_side(self) -> Side:
        """Who strikes in the current strike step: the phasing side, or the other one
        in the counterstrike step (RULES §9.1)."""
        return self.phasing.other if self.step is _COUNTERSTRIKE else self.phasing

    @property
    def decider(self) -> Side | None:
        """The side whose decision the battle waits for, or None when it is over."""
        if self.step is BattleStep.OVER:
            return None
        if self.concession is not None:
            return self.concession.responder
        if self.carry is not None:
            return self.striking_side
        if self.step in (BattleStep.REINFORCE, BattleStep.OPEN_DEFENDER):
            return Side.DEFENDER
        if self.step is BattleStep.OPEN_ATTACKER:
            return Side.ATTACKER
        if self.step is BattleStep.SUMMON:
            return Side.ATTACKER
        if self.step in (BattleStep.DRIFT, BattleStep.COUNTERSTRIKE):
            return self.phasing.other
        return self.phasing

    def has_living(self, side: Side) -> bool:
        """Whether ``side`` still has a living character, on the board or waiting to enter."""
        return bool(self.waiting(side)) or any(f.alive for f in self.position.of_side(side))

    def titan_slain(self, side: Side) -> bool:
        """Whether ``side``'s Titan is slain, removed or not (RULES §11.1)."""
        return any(c.side is side and c.name == TITAN for c in self.casualties) or any(
            f.name == TITAN and not f.alive for f in self.position.of_side(side)
        )

    def slain(self, side: Side) -> tuple[str, ...]:
        """Every character of ``side`` slain so far, removed or not (RULES §11.4)."""
        removed = [c.name for c in self.casualties if c.side is side]
        return tuple(removed + [f.name for f in self.position.of_side(side) if not f.alive])

    def legion(self, side: Side) -> tuple[str, ...]:
        """The whole legion of ``side`` in this battle: slain, on the board and waiting,
        but not a summoned lord or reinforcement that has yet to arrive (§6.6, §7.2a)."""
        names = [c.name for c in self.casualties if c.side is side]
        names += [f.name for f in self.position.of_side(side)] + list(self.waiting(side))
        if self.entrant is not None and self.entrant.side is side:
            names.remove(self.entrant.name)
        return tuple(sorted(names))

    def value(self, side: Side, names: tuple[str, ...]) -> int:
        """The summed value of ``side``'s characters ``names`` (RULES §0.2, §11.4)."""
        return sum(self.power_of(side, n) * character(n).skill for n in names)


# The members bound once: an enum class's attributes are looked up through its metaclass's
# ``__getattr__`` hook, several times slower than a global.
_ATTACKER, _COUNTERSTRIKE = Side.ATTACKER, BattleStep.COUNTERSTRIKE

#: The decision each step waits for, in words (see :func:`decision_words`).
_DECISIONS = {
    BattleStep.OPEN_ATTACKER: "concede or decline, before anyone enters",
    BattleStep.OPEN_DEFENDER: "concede or decline, before anyone enters",
    BattleStep.REINFORCE: "reinforce or decline",
    BattleStep.SUMMON: "summon or decline",
    BattleStep.MANEUVER: "maneuver, then end the maneuver phase",
    BattleStep.DRIFT: "concede or decline, before the drift damage",
    BattleStep.STRIKE: "strike, then end the strike phase",
    BattleStep.SLEW_ALL: "concede or decline, before the counterstrikes",
    BattleStep.COUNTERSTRIKE: "strike back",
    BattleStep.END_CHECK: "concede or decline, at the end check",
}


def decision_words(battle: Battle) -> str:
    """What the battle waits for its decider to do: ``strike, then end the strike phase``
    (RULES §8.4; the SoP's complete sequence)."""
    concession = battle.concession
    if concession is not None:
        if concession.countered:
            return "accept the concession made instead, or insist on conceding"
        return "answer the concession: accept it, or concede instead"
    if battle.carry is not None:
        return "place the carried-over hits"
    return _DECISIONS.get(battle.step, "see the battle end")


def battle_waiting(battle: Battle) -> str:
    """``the battle waits for the attacker to maneuver, then end the maneuver phase``."""
    side = battle.decider
    if side is None:
        return "the battle is over"
    return f"the battle waits for the {side.value} to {decision_words(battle)}"
