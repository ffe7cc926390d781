"""A battle in progress in words and pictures: what it waits for, who stands where, and
what its picture highlights (RULES §5.7–§5.8, §8–§11)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.narration.ground import ground_of, ground_text
from bot.narration.table import listing, plural
from bot.replies import BattleMarks, Picture, PictureKind
from engine.battle import events as bv
from engine.battle.position import Fighter, Side
from engine.battle.state import LAST_TURN, Battle, BattleStep
from engine.battle.striking import rangestrike_options, strike_options
from engine.battleland import Battleland
from engine.events import Event
from engine.game.battle_flow import battle_of
from engine.game.state import GameState

_CONCEDE_OR_DONE = "fight on (`done`) or concede {when} (`concede`)"
_OPENING = (
    "fight the battle (`done`) or concede it before anyone enters (`concede`), now that "
    "both legions are shown"
)
_STEPS = {
    BattleStep.OPEN_ATTACKER: _OPENING,
    BattleStep.OPEN_DEFENDER: _OPENING,
    BattleStep.REINFORCE: "take a reinforcement (`reinforce CHARACTER`) or not (`done`)",
    BattleStep.SUMMON: "summon an Angel or Archangel (`summon DONOR LORD`) or not (`done`)",
    BattleStep.DRIFT: _CONCEDE_OR_DONE.format(when="before the drift damage"),
    BattleStep.SLEW_ALL: _CONCEDE_OR_DONE.format(when="before the counterstrikes"),
    BattleStep.COUNTERSTRIKE: "strike back (`strike HEX HEX`)",
    BattleStep.END_CHECK: _CONCEDE_OR_DONE.format(when="at the end check"),
    BattleStep.OVER: "wait: the battle is over",
}


def battle_task(battle: Battle) -> str:
    """What the side the battle waits for must do, with the commands to type."""
    concession = battle.concession
    if concession is not None and concession.countered:
        return "`accept` the other side's concession or `insist` on conceding (roll-off)"
    if concession is not None:
        return "answer the concession: `accept` it or concede instead (`insist`)"
    if battle.carry is not None:
        where = " or ".join(f"`carry {h}`" for h in battle.carry.targets)
        return f"place {plural(battle.carry.hits, 'carried-over hit')} ({where})"
    if battle.step is BattleStep.MANEUVER:
        waiting = battle.waiting(battle.phasing)
        if waiting:
            return f"bring {listing(waiting)} on (`maneuver CHARACTER HEX`), then `done`"
        if battle.moves:  # a move made this phase may be taken back (RULES §4.7)
            return "maneuver (`maneuver HEX HEX`, `undo`), then `done`"
        return "maneuver (`maneuver HEX HEX`), then `done`"
    if battle.step is BattleStep.STRIKE:
        return _strike_task(battle)
    return _STEPS[battle.step]


def _strike_task(battle: Battle) -> str:
    """The strike phase's commands, a rangestrike only where one may be made (RULES §10)."""
    ranged = bool(rangestrike_options(battle))
    if not strike_options(battle):
        if ranged:
            return "rangestrike (`rangestrike HEX HEX`), then `done`"
        return "end the strike phase (`done`)"
    if ranged:
        return "strike (`strike HEX HEX`, `rangestrike HEX HEX`), then `done`"
    return "strike (`strike HEX HEX`), then `done`"


def _owner(state: GameState, marker: str) -> str:
    legion = state.legions.get(marker)
    if legion is None:
        return marker
    player = state.player(legion.owner)
    return f"{marker} ({player.name}, {player.colour or 'no colour'})"


def fighter_text(fighter: Fighter, land: Battleland | None = None) -> str:
    """``Troll (C3, 2 hits)``; ``Ogre (D4, slain)``; on ``land``, with the ground where it
    is not plain and level: ``Troll (B2, Bramble, 2 hits)``."""
    parts = [fighter.hex, *ground_of(land, fighter.hex)]
    if not fighter.alive:
        parts.append("slain")
    elif fighter.hits:
        parts.append(plural(fighter.hits, "hit"))
    return f"{fighter.name} ({', '.join(parts)})"


def _side_lines(state: GameState, battle: Battle, side: Side) -> list[str]:
    on_board = ", ".join(fighter_text(f, battle.land) for f in battle.fighters(side)) or "nobody"
    lines = [f"{side.value.capitalize()} {_owner(state, battle.marker(side))}: {on_board}"]
    if battle.waiting(side):
        lines.append(f"  off the board: {listing(battle.waiting(side))}")
    slain = [c.name for c in battle.casualties if c.side is side]
    if slain:
        lines.append(f"  slain: {listing(slain)}")
    return lines


def battle_text(state: GameState) -> str:
    """The battle in progress: turn, phasing side, step, and every character."""
    battle = battle_of(state)
    if battle is None:
        return "No battle is being fought."
    land = state.engagement.land if state.engagement is not None else "?"
    lines = [
        f"**Battle in {land} ({battle.terrain})**, entered by side {battle.entry_side}: "
        f"turn {battle.turn} of {LAST_TURN}, the {battle.phasing.value} moves "
        f"({battle.step.value})"
    ]
    lines.append(f"Ground: {ground_text(battle.land)}")
    for side in (Side.ATTACKER, Side.DEFENDER):
        lines += _side_lines(state, battle, side)
    if battle.decider is not None:
        who = _owner(state, battle.marker(battle.decider))
        lines.append(f"Now: {who} must {battle_task(battle)}.")
    return "\n".join(lines)


def battle_marks(
    battle: Battle, events: Sequence[Event] = (), before: Battle | None = None
) -> BattleMarks:
    """The last maneuver (this action's, this phase's, or else the one before the action,
    from ``before``) and the action's last strike; every maneuver of that phase and every
    strike of the action."""
    moves = battle.moves or (before.moves if before is not None else ())
    marks = _moved(moves[-1].start, moves[-1].end) if moves else BattleMarks()
    strikes: list[tuple[str, str, str | None, bool]] = []
    for event in events:
        if isinstance(event, bv.CharacterMoved):
            marks = _moved(event.start, event.end)
        elif isinstance(event, bv.Struck | bv.Rangestruck):
            result = plural(event.hits, "hit") + (", slain" if event.slain else "")
            ranged = isinstance(event, bv.Rangestruck)
            strikes.append((event.striker, event.target, result, ranged))
            marks = BattleMarks(
                marks.last_move,
                marks.entered,
                (event.striker, event.target),
                result,
                rangestrike=ranged,
            )
    phase = tuple((m.start, m.end) for m in moves)
    return replace(marks, moves=phase, strikes=tuple(strikes))


def _moved(start: str | None, end: str) -> BattleMarks:
    return BattleMarks(entered=end) if start is None else BattleMarks(last_move=(start, end))


def battle_picture(
    state: GameState, events: Sequence[Event] = (), before: GameState | None = None
) -> Picture | None:
    """The battleland picture of the battle in progress, or None when there is none;
    ``before`` is the state before the action (its last maneuver may be shown)."""
    battle = battle_of(state)
    if battle is None or state.engagement is None:
        return None
    earlier = battle_of(before) if before is not None else None
    marks = battle_marks(battle, events, earlier)
    return Picture(PictureKind.BATTLELAND, state, land=state.engagement.land, marks=marks)
