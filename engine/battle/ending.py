"""The end of a battle: removing the slain, the end check and the verdict (RULES §11).

:func:`end_check` reads the situation after step 6 (§11.1); :func:`verdict` turns a
finished battle into what the game needs: the characters each side lost, the battle
points and the winner's remaining rights (§11.4, §6.6, §7.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.battle.events import BattleEnded, Change, SlainRemoved
from engine.battle.maneuvering import settle_entrant
from engine.battle.position import Side
from engine.battle.state import LAST_TURN, Battle, BattleStep, Casualty, Ending, EndKind
from engine.frozen import evolve


def remove_slain(battle: Battle) -> Change:
    """Step 6: the slain leave the board and are kept as casualties (RULES §8.4, §11.1).

    The first on-board defender removed makes the attacker's summon due (§7.2a; drift
    victims count, left-offs do not, errata 15.3).
    """
    dead = [f for f in battle.position.fighters if not f.alive]
    if not dead:
        return battle, []
    living = tuple(f for f in battle.position.fighters if f.alive)
    casualties = tuple(Casualty(f.name, f.side, f.power) for f in dead)
    due = battle.summon_due or any(f.side is Side.DEFENDER for f in dead)
    battle = evolve(
        battle,
        position=evolve(battle.position, fighters=living),
        casualties=battle.casualties + casualties,
        summon_due=due,
    )
    return battle, [SlainRemoved(tuple(f.hex for f in dead), tuple(f.name for f in dead))]


def end_check(battle: Battle) -> Ending | None:
    """How the battle ends after this half's step 6, or None to go on (RULES §11.1)."""
    titans = [side for side in Side if battle.titan_slain(side)]
    if len(titans) == 2:
        return Ending(EndKind.BOTH_TITANS, None)
    if titans:
        fallen = titans[0]
        winner = fallen.other if battle.has_living(fallen.other) else None
        return Ending(EndKind.TITAN_SLAIN, winner, fallen)
    living = [side for side in Side if battle.has_living(side)]
    if not living:
        return Ending(EndKind.MUTUAL, None)
    if len(living) == 1:
        return Ending(EndKind.WIPED_OUT, living[0], living[0].other)
    if battle.phasing is Side.ATTACKER and battle.turn >= LAST_TURN:
        return Ending(EndKind.TIME_LOSS, Side.DEFENDER, Side.ATTACKER)
    return None


def finish(battle: Battle, ending: Ending) -> Change:
    """Close the battle with ``ending``; a summon or reinforcement on the board counts."""
    battle, events = settle_entrant(battle)
    battle = evolve(
        battle, ending=ending, step=BattleStep.OVER, concession=None, carry=None, moves=()
    )
    return battle, [*events, BattleEnded(ending.kind, ending.winner, battle.turn)]


def concession_ending(battle: Battle, conceder: Side) -> Ending:
    """``conceder`` gives up: the other side wins unless it has no living character left or
    its Titan is slain too, which makes it a mutual elimination (RULES §5.8, errata 9.4)."""
    other = conceder.other
    winner = other if battle.has_living(other) and not battle.titan_slain(other) else None
    return Ending(EndKind.CONCESSION, winner, conceder)


@dataclass(frozen=True)
class Verdict:
    """A finished battle as the game scores it (RULES §11.4).

    ``slain``: the characters each side lost (a conceding or time-losing legion loses them
    all; a slain Titan's survivors are the game's to handle, §11.2). ``points``: the
    winner's battle points.
    """

    kind: EndKind
    winner: Side | None
    slain: Mapping[Side, tuple[str, ...]]
    points: int
    may_summon: bool
    may_reinforce: bool


def reinforcement_barred(battle: Battle) -> bool:
    """No reinforcement after an attacker's concession before he placed any character on
    the battleland, unless the defender was forced to leave characters off (errata 14.2,
    RULES §6.6, §14 C13)."""
    ending = battle.ending
    placed = Side.ATTACKER in battle.entered or any(
        f.side is Side.ATTACKER for f in battle.position.fighters
    )
    return (
        ending is not None
        and ending.kind is EndKind.CONCESSION
        and ending.loser is Side.ATTACKER
        and not placed
        and not battle.forced_loss
    )


def verdict(battle: Battle) -> Verdict:
    """What the finished ``battle`` means for scoring and rights (RULES §11.4, §6.6, §7.2)."""
    ending = battle.ending
    if ending is None:
        raise ValueError("the battle is not over")
    slain = {side: tuple(sorted(battle.slain(side))) for side in Side}
    if ending.kind in (EndKind.CONCESSION, EndKind.TIME_LOSS) and ending.loser is not None:
        slain[ending.loser] = battle.legion(ending.loser)
    winner = ending.winner
    points = 0
    if winner is not None and ending.kind is not EndKind.TIME_LOSS:
        points = battle.value(winner.other, slain[winner.other])
    return Verdict(
        ending.kind,
        winner,
        slain,
        points,
        may_summon=winner is Side.ATTACKER and not battle.summoned,
        may_reinforce=(
            winner is Side.DEFENDER and not battle.reinforced and not reinforcement_barred(battle)
        ),
    )
