"""Battle events in words (RULES §5.8, §6.6, §7.2a, §8–§11): short lines, dice shown.

A battle is fought in public, so every line may be read by everyone. Characters are
named with their legion and hex: ``Bk01's Troll (C3)``.
"""

from __future__ import annotations

from bot.narration.heading import BATTLE_ENDS
from bot.narration.table import Names, article, listing, narrator, plural
from engine.battle import events as bv
from engine.battle.position import Side

#: How a passed chance reads, keyed on :attr:`ChanceDeclined.what`.
_PASSES = {
    "concession as the battle begins": "does not concede as the battle begins",
    "summon": "summons no lord",
    "reinforcement": "takes no reinforcement",
    "concession before drift damage": "does not concede before the drift damage",
    "concession before the counterstrikes": "does not concede before the counterstrikes",
    "concession at the end check": "does not concede at the end check",
}


def dice_text(dice: int, strike_number: int, rolls: tuple[int, ...]) -> str:
    """``8 dice at 4+ → 6 4 4 2 1 5 1 3``."""
    word = "die" if dice == 1 else "dice"
    return f"{dice} {word} at {strike_number}+ → {' '.join(map(str, rolls))}"


def _whose(n: Names, side: Side) -> str:
    """``Bk01 (the attacker)``."""
    return f"{n.side(side)} (the {side.value})"


@narrator(bv.HalfTurnBegun)
def _half_turn(e: bv.HalfTurnBegun, n: Names) -> str:
    return f"— Battle turn {e.turn} of 7: {_whose(n, e.side)} moves —"


@narrator(bv.EntrantCalled)
def _called(e: bv.EntrantCalled, n: Names) -> str:
    if e.donor is not None:
        how = f"summons {article(e.name)} from {e.donor}"
    else:
        shown = f" (showing {listing(e.revealed)})" if e.revealed else ""
        how = f"calls {article(e.name)} as its reinforcement{shown}"
    return f"{n.side(e.side)} {how}: it must enter in this maneuver phase."


@narrator(bv.EntrantArrived)
def _arrived(e: bv.EntrantArrived, n: Names) -> str:
    return f"The {e.name} has entered the battle and joins {n.side(e.side)}."


@narrator(bv.EntrantReturned)
def _returned(e: bv.EntrantReturned, n: Names) -> str:
    return f"{n.side(e.side)}'s {e.name} did not enter: it goes back and does not count."


@narrator(bv.ChanceDeclined)
def _declined(e: bv.ChanceDeclined, n: Names) -> str:
    return f"{_whose(n, e.side)} {_PASSES.get(e.what, f'passes on the {e.what}')}."


@narrator(bv.CharacterMoved)
def _moved(e: bv.CharacterMoved, n: Names) -> str:
    if e.start is None:
        return f"{n.fighter(e.side, e.name)} enters at {e.end}."
    return f"{n.fighter(e.side, e.name)} moves {e.start} → {e.end}."


@narrator(bv.ManeuverTakenBack)
def _taken_back(e: bv.ManeuverTakenBack, n: Names) -> str:
    back = "off the board" if e.start is None else f"to {e.start}"
    return f"{n.fighter(e.side, e.name)} goes back from {e.end} {back}."


@narrator(bv.ManeuverEnded)
def _maneuver_ended(e: bv.ManeuverEnded, n: Names) -> str:
    return f"{n.side(e.side)} ends its maneuver."


@narrator(bv.LeftOff)
def _left_off(e: bv.LeftOff, n: Names) -> str:
    verb = "were" if len(e.names) > 1 else "was"
    why = "could not enter" if e.forced else f"{verb} left off the board"
    return f"{n.side(e.side)}'s {listing(e.names)} {why}: slain (RULES §8.4)."


@narrator(bv.DriftDamage)
def _drift(e: bv.DriftDamage, n: Names) -> str:
    text = f"Drift: 1 hit to each of {n.side(e.side)}'s characters in {', '.join(e.hexes)}"
    return text + (f"; slain in {', '.join(e.slain)}." if e.slain else ".")


def _outcome(hits: int, slain: bool, name: str) -> str:
    return plural(hits, "hit") + (f", {name} slain" if slain else "")


@narrator(bv.Struck)
def _struck(e: bv.Struck, n: Names) -> str:
    verb = "strikes back at" if e.counter else "strikes"
    announced = " (announced)" if e.declared else ""
    text = (
        f"{n.fighter(e.side, e.striker_name, e.striker)} {verb} "
        f"{n.fighter(e.side.other, e.target_name, e.target)}: "
        f"{dice_text(e.dice, e.strike_number, e.rolls)}{announced}: "
        f"{_outcome(e.hits, e.slain, e.target_name)}"
    )
    if not e.excess:
        return text + "."
    carried = isinstance(n.upcoming, bv.CarriedOver | bv.CarryToPlace)
    return text + (
        f", {plural(e.excess, 'hit')} to carry."
        if carried
        else f", {plural(e.excess, 'excess hit')} lost."
    )


@narrator(bv.CarryToPlace)
def _carry_to_place(e: bv.CarryToPlace, n: Names) -> str:
    where = " or ".join(f"`carry {h}`" for h in e.targets)
    return f"{n.side(e.side)} places {plural(e.hits, 'carried-over hit')}: {where}."


@narrator(bv.CarriedOver)
def _carried(e: bv.CarriedOver, n: Names) -> str:
    slain = f": {e.name} slain" if e.slain else ""
    return f"{plural(e.hits, 'hit')} carried over to the {e.name} ({e.target}){slain}."


@narrator(bv.Rangestruck)
def _rangestruck(e: bv.Rangestruck, n: Names) -> str:
    return (
        f"{n.fighter(e.side, e.striker_name, e.striker)} rangestrikes "
        f"{n.fighter(e.side.other, e.target_name, e.target)}: "
        f"{dice_text(e.dice, e.strike_number, e.rolls)}: "
        f"{_outcome(e.hits, e.slain, e.target_name)}."
    )


@narrator(bv.StrikesEnded)
def _strikes_ended(e: bv.StrikesEnded, n: Names) -> str:
    return f"{n.side(e.side)}'s {'counterstrikes are' if e.counter else 'strike phase is'} over."


@narrator(bv.SlainRemoved)
def _removed(e: bv.SlainRemoved, n: Names) -> str:
    gone = ", ".join(f"{name} ({h})" for name, h in zip(e.names, e.hexes, strict=False))
    return f"The slain leave the battleland: {gone}."


@narrator(bv.ConcessionAttempted)
def _attempted(e: bv.ConcessionAttempted, n: Names) -> str:
    return (
        f"{_whose(n, e.side)} offers to concede: {n.side(e.side.other)} may `accept` "
        "or concede instead (`insist`)."
    )


@narrator(bv.ConcededInstead)
def _instead(e: bv.ConcededInstead, n: Names) -> str:
    return (
        f"{_whose(n, e.side)} concedes instead: {n.side(e.side.other)} may `accept` "
        "that or `insist` (then a roll-off decides)."
    )


@narrator(bv.ConcessionRollOff)
def _roll_off(e: bv.ConcessionRollOff, n: Names) -> str:
    rolls = ", ".join(f"{a}–{d}" for a, d in e.rolls)
    return (
        f"Both insist on conceding. Roll-off (attacker–defender): {rolls}; "
        f"the higher roller, {_whose(n, e.conceder)}, concedes."
    )


@narrator(bv.BattleConceded)
def _conceded(e: bv.BattleConceded, n: Names) -> str:
    return f"{_whose(n, e.side)} concedes the battle."


@narrator(bv.BattleEnded)
def _ended(e: bv.BattleEnded, n: Names) -> str:
    who = f"{_whose(n, e.winner)} wins" if e.winner is not None else "nobody wins"
    return f"{BATTLE_ENDS}{e.turn} ({e.kind.value}): {who}."
