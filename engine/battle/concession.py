"""Conceding during a battle (RULES §5.8; errata 9.4, 10.1, 10.5; SoP; §14 C11, C12).

At his own decisions a player may *attempt* to concede; the other may accept or concede
instead; if both insist, a d6 roll-off decides, the higher roller conceding (E25). Some
windows are unconditional (no counter-concession): before counterstrikes for the side
about to counterstrike, before lethal drift damage for the other side, and at the end
check for the phasing side that has not won. Nobody concedes a battle he has already won,
except the phasing side whose strikes slew every enemy while the enemy still has
counterstrikes to make: it gets a window before those counterstrikes, and conceding there
makes a mutual elimination. Nobody concedes while carried-over hits wait to be placed
(rolled dice take effect).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from engine.battle.ending import concession_ending, finish
from engine.battle.events import (
    BattleConceded,
    Change,
    ConcededInstead,
    ConcessionAttempted,
    ConcessionRollOff,
)
from engine.battle.position import Side
from engine.battle.state import Battle, BattleStep, Concession, battle_waiting
from engine.errors import IllegalEngagement, WrongPhase
from engine.frozen import evolve


class ConcedeMode(Enum):
    """What ``Concede`` means for a side now."""

    ATTEMPT = "attempt"
    UNCONDITIONAL = "unconditional"


def has_won(battle: Battle, side: Side) -> bool:
    """Whether ``side`` has already won: every enemy is slain, or the enemy Titan is slain
    and its own is not (RULES §5.8, §11.1)."""
    enemy = side.other
    if not battle.has_living(enemy):
        return True
    return battle.titan_slain(enemy) and not battle.titan_slain(side)


def _counterstrike_exception(battle: Battle, side: Side) -> bool:
    """The phasing side slew every enemy in its strike phase and the enemy still has
    counterstrikes to make (errata 9.4)."""
    return battle.step is BattleStep.SLEW_ALL and side is battle.phasing


def may_concede(battle: Battle, side: Side) -> bool:
    """Whether conceding is open to ``side`` at all now (RULES §5.8)."""
    if battle.step is BattleStep.OVER or battle.carry is not None:
        return False
    return not has_won(battle, side) or _counterstrike_exception(battle, side)


def concede_mode(battle: Battle, side: Side) -> ConcedeMode | None:
    """What a ``Concede`` by ``side`` would be now, or None when it may not concede."""
    if battle.concession is not None or not may_concede(battle, side):
        return None
    if side is not battle.decider:
        return None
    if battle.step in (
        BattleStep.OPEN_ATTACKER,
        BattleStep.OPEN_DEFENDER,
        BattleStep.DRIFT,
        BattleStep.SLEW_ALL,
        BattleStep.END_CHECK,
    ):
        return ConcedeMode.UNCONDITIONAL
    if battle.step is BattleStep.COUNTERSTRIKE and not battle.struck:
        return ConcedeMode.UNCONDITIONAL
    return ConcedeMode.ATTEMPT


def concede(battle: Battle, side: Side) -> Change:
    """``side`` concedes outright: its whole legion is slain (RULES §5.8)."""
    battle, events = finish(battle, concession_ending(battle, side))
    return battle, [BattleConceded(side), *events]


def attempt(battle: Battle, side: Side) -> Change:
    """``side`` concedes at one of its decisions: an attempt, or outright in an
    unconditional window. Raises :class:`IllegalEngagement` when it may not."""
    mode = concede_mode(battle, side)
    if mode is None:
        if has_won(battle, side):
            raise IllegalEngagement(
                "you may not concede a battle you have already won (RULES §5.8, errata 9.4)"
            )
        raise IllegalEngagement(
            "you may concede only at your own decisions, and not while carried-over hits "
            "wait to be placed (RULES §5.8)"
        )
    if mode is ConcedeMode.UNCONDITIONAL:
        return concede(battle, side)
    return evolve(battle, concession=Concession(side)), [ConcessionAttempted(side)]


def _responding(battle: Battle, side: Side) -> Concession:
    concession = battle.concession
    if concession is None:
        raise WrongPhase(f"nobody is trying to concede; {battle_waiting(battle)}")
    if concession.responder is not side:
        raise WrongPhase(f"your opponent answers the concession, not you; {battle_waiting(battle)}")
    return concession


def accept(battle: Battle, side: Side) -> Change:
    """``side`` lets the other side's concession stand (RULES §5.8)."""
    concession = _responding(battle, side)
    conceder = concession.by.other if concession.countered else concession.by
    return concede(battle, conceder)


def instead(battle: Battle, side: Side) -> Change:
    """``side`` concedes instead of the side that tried first (RULES §5.8). The first side
    must then accept this or insist (:func:`roll_off`)."""
    concession = _responding(battle, side)
    if concession.countered:
        raise WrongPhase("both insist: the roll-off decides (RULES §5.6, E25)")
    if not may_concede(battle, side):
        raise IllegalEngagement(
            "you may not concede a battle you have already won (RULES §5.8, errata 9.4)"
        )
    battle = evolve(battle, concession=evolve(concession, countered=True))
    return battle, [ConcededInstead(side)]


def roll_off(battle: Battle, side: Side, rolls: Sequence[tuple[int, int]]) -> Change:
    """``side`` insists on conceding too: each rolls a d6, the higher concedes, ties are
    rolled again (RULES §5.6, errata 9.4, E25). ``rolls`` are (attacker, defender) pairs,
    the last one unequal."""
    concession = _responding(battle, side)
    if not concession.countered:
        raise WrongPhase("answer the concession: accept it or concede instead")
    if not rolls or any(a == d for a, d in rolls[-1:]) or any(a != d for a, d in rolls[:-1]):
        raise ValueError("a roll-off is tied pairs followed by one unequal pair")
    attacker, defender = rolls[-1]
    conceder = Side.ATTACKER if attacker > defender else Side.DEFENDER
    battle, events = concede(battle, conceder)
    return battle, [ConcessionRollOff(tuple(rolls), conceder), *events]
