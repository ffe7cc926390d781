"""What a choice says: an action in the words of a player, for a button or a menu option.

A label says what the click does, not which command it runs (``Fight`` rather than
``decline``, ``Accept #1: the defender is eliminated`` rather than ``accept 1``). Labels
are built from what the reader of the message may know: a public board's from public
facts only, a private step's also from its owner's legions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.narration.table import article, listing, proposal_text
from bot.offers.model import MAX_LABEL, Offer, Style
from bot.syntax import format_action
from engine.battle.rangestrike import rangestrike_values
from engine.battle.state import BattleStep
from engine.battle.strike import strike_values
from engine.errors import IllegalStrike
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.state import GameState
from engine.masterboard import land as land_of
from engine.movement import MoveKind

_DANGER = (a.Concede, b.ConcedeInstead, a.Withdraw)
_QUIET = (
    a.EndMovement, a.EndTurn, a.Decline, a.NoMoreProposals, a.Roll, a.Mulligan,
    b.EndManeuver, b.EndStrikes, a.TakeBack, a.UndoSplit, b.TakeBackManeuver,
)  # fmt: skip
_FIGHT_ON = (BattleStep.DRIFT, BattleStep.SLEW_ALL, BattleStep.END_CHECK)


def offer(action: a.Action, state: GameState | None = None, label: str | None = None) -> Offer:
    """The choice that asks for ``action``: its words (``label``, or a player's words for
    it, more precise with ``state``), its command and its style."""
    words = label if label is not None else describe(action, state)
    return Offer(words[:MAX_LABEL], format_action(action), style(action, state))


def style(action: a.Action, state: GameState | None = None) -> Style:
    if isinstance(action, _DANGER):
        return Style.DANGER
    if isinstance(action, a.Decline) and state is not None and _opening(state):
        return Style.PRIMARY  # "Fight" is the usual answer
    if isinstance(action, _QUIET):
        return Style.QUIET
    return Style.PRIMARY


def describe(action: a.Action, state: GameState | None = None) -> str:
    """``action`` in a player's words."""
    words = _WORDS.get(type(action))
    if words is None:
        command = format_action(action)
        return command[:1].upper() + command[1:]
    return words(action, state)


def land_words(land: int) -> str:
    """``104 (Plains)``."""
    return f"{land} ({land_of(land).terrain})"


def _shown(revealed: Sequence[str] | None) -> str:
    return f", showing {listing(revealed)}" if revealed else ""


def _move(action: a.Move, state: GameState | None) -> str:
    return f"{action.legion} to {land_words(action.land)}{move_detail(action, state)}"


def move_detail(action: a.Move, state: GameState | None) -> str:
    """How a move goes where it is not plain: round a loop back to its start (RULES §2.5),
    a teleport, the lord shown, the entry side, the enemy attacked."""
    parts = []
    mover = state.legions.get(action.legion) if state is not None else None
    if mover is not None and mover.land == action.land:
        parts.append("round a loop back here")
    if action.kind is MoveKind.TOWER_TELEPORT:
        parts.append("by tower teleport")
    elif action.kind is MoveKind.TITAN_TELEPORT:
        parts.append("by Titan teleport")
    if action.lord is not None:
        parts.append(f"showing {article(action.lord)}")
    if action.entry_side is not None:
        parts.append(f"entering from side {action.entry_side}")
    enemy = _enemy_in(state, action.land, action.legion) if state is not None else None
    if enemy is not None:
        parts.append(f"attacking {enemy}")
    return f", {', '.join(parts)}" if parts else ""


def _enemy_in(state: GameState, land: int, marker: str) -> str | None:
    mover = state.legions.get(marker)
    for legion in state.legions.values():
        if legion.land == land and mover is not None and legion.owner != mover.owner:
            return f"{legion.marker} ({legion.height})"
    return None


def _undo_split(action: a.UndoSplit, state: GameState | None) -> str:
    parent = state.turn.split_parents.get(action.marker) if state is not None else None
    return f"Put {action.marker} back into {parent}" if parent else f"Put {action.marker} back"


def _engage(action: a.Engage, state: GameState | None) -> str:
    if state is None:
        return f"Engage in {land_words(action.land)}"
    markers = [leg.marker for leg in state.legions.values() if leg.land == action.land]
    active = [m for m in markers if state.legions[m].owner == state.active]
    others = [m for m in markers if m not in active]
    return f"Battle in {land_words(action.land)}: {' '.join(active)} v {' '.join(others)}"


def _accept(action: a.Accept, state: GameState | None) -> str:
    proposal = _proposal(state, action.number)
    return f"Accept #{action.number}: {proposal}" if proposal else f"Accept #{action.number}"


def _proposal(state: GameState | None, number: int) -> str | None:
    engagement = state.engagement if state is not None else None
    if engagement is None:
        return None
    found = next((o for o in engagement.proposals if o.number == number), None)
    return proposal_text(found.proposal) if found is not None else None


def _propose(action: a.Propose, state: GameState | None) -> str:
    return "Propose: " + " or ".join(proposal_text(p) for p in action.proposals)


def _concede(action: a.Concede, state: GameState | None) -> str:
    if state is not None and battle_of(state) is not None:
        return "Concede the battle"
    return "Concede the engagement"


def _decline(action: a.Decline, state: GameState | None) -> str:
    if state is None:
        return "Decline"
    battle = battle_of(state)
    if battle is not None and _opening(state):
        return "Fight"
    if battle is not None and battle.step in _FIGHT_ON:
        return "Fight on"
    if battle is not None and battle.step is BattleStep.SUMMON:
        return "No summon"
    if battle is not None and battle.step is BattleStep.REINFORCE:
        return "No reinforcement"
    aftermath = state.engagement.aftermath if state.engagement is not None else None
    if aftermath is not None and aftermath.may_summon:
        return "No summon"
    if aftermath is not None and aftermath.may_reinforce:
        return "No reinforcement"
    return "Take nothing"


def _opening(state: GameState) -> bool:
    battle = battle_of(state)
    return battle is not None and battle.step in (
        BattleStep.OPEN_ATTACKER,
        BattleStep.OPEN_DEFENDER,
    )


def fighter_words(state: GameState | None, hex_or_name: str) -> str:
    """``Ogre (D4)`` for the character in a hex; a name off the board as it is."""
    battle = battle_of(state) if state is not None else None
    found = battle.position.at(hex_or_name) if battle is not None else None
    return f"{found.name} ({hex_or_name})" if found is not None else hex_or_name


def _maneuver(action: b.Maneuver, state: GameState | None) -> str:
    battle = battle_of(state) if state is not None else None
    if battle is not None and battle.position.at(action.character) is None:
        return f"{action.character} enters at {action.to}"
    return f"{fighter_words(state, action.character)} to {action.to}"


def _take_back_maneuver(action: b.TakeBackManeuver, state: GameState | None) -> str:
    return f"Take back the move to {fighter_words(state, action.hex)}"


def _strike(action: b.Strike, state: GameState | None) -> str:
    text = f"{fighter_words(state, action.striker)} strikes {fighter_words(state, action.target)}"
    if action.dice is not None or action.strike_number is not None:
        dice = f"{action.dice} dice" if action.dice is not None else "all dice"
        at = f" at {action.strike_number}" if action.strike_number is not None else ""
        return text + f" with {dice}{at}, to carry over"
    return text + _odds(state, action)


def _rangestrike(action: b.Rangestrike, state: GameState | None) -> str:
    target = fighter_words(state, action.target)
    text = f"{fighter_words(state, action.striker)} rangestrikes {target}"
    if action.strike_number is not None:
        return text + f" at {action.strike_number}"
    return text + _odds(state, action)


def _odds(state: GameState | None, action: b.Strike | b.Rangestrike) -> str:
    """``: 6 dice at 4+``, the dice and strike number of a natural strike or rangestrike
    (RULES §9.2–9.3, §10.3–10.7), so the choice shows what it is worth."""
    battle = battle_of(state) if state is not None else None
    if battle is None:
        return ""
    position = battle.position
    striker, target = position.at(action.striker), position.at(action.target)
    if striker is None or target is None:
        return ""
    reckon = rangestrike_values if isinstance(action, b.Rangestrike) else strike_values
    try:
        values = reckon(position, striker, target)
    except IllegalStrike:
        return ""
    return f": {values.dice} {'die' if values.dice == 1 else 'dice'} at {values.strike_number}+"


def _concede_instead(action: b.ConcedeInstead, state: GameState | None) -> str:
    battle = battle_of(state) if state is not None else None
    if battle is not None and battle.concession is not None and battle.concession.countered:
        return "Insist on conceding (a roll-off decides)"
    return "Concede instead"


_WORDS: dict[type[a.Action], Callable[[Any, GameState | None], str]] = {
    a.ChooseColour: lambda x, s: x.colour,
    a.Split: lambda x, s: f"Split {listing(x.characters)} off {x.legion} as {x.new_marker}",
    a.UndoSplit: _undo_split,
    a.Roll: lambda x, s: "Done splitting: roll",
    a.Mulligan: lambda x, s: "Mulligan: roll again",
    a.Move: _move,
    a.TakeBack: lambda x, s: f"Take back {x.legion}'s move",
    a.EndMovement: lambda x, s: "Done moving",
    a.Engage: _engage,
    a.Flee: lambda x, s: "Flee",
    a.Propose: _propose,
    a.Accept: _accept,
    a.Concede: _concede,
    a.NoMoreProposals: lambda x, s: "No more proposals",
    a.Fight: lambda x, s: "Fight",
    a.Summon: lambda x, s: f"Summon the {x.lord} of {x.donor}",
    a.Reinforce: lambda x, s: f"Reinforce with {x.recruit}{_shown(x.revealed)}",
    a.Acquire: lambda x, s: f"Acquire {article(x.lord)}",
    a.Decline: _decline,
    a.Muster: lambda x, s: f"{x.legion}: {x.recruit}{_shown(x.revealed)}",
    a.EndTurn: lambda x, s: "End the turn",
    a.Withdraw: lambda x, s: "Withdraw from the game",
    b.Maneuver: _maneuver,
    b.TakeBackManeuver: _take_back_maneuver,
    b.EndManeuver: lambda x, s: "Done maneuvering",
    b.Strike: _strike,
    b.Rangestrike: _rangestrike,
    b.CarryOver: lambda x, s: f"Carry over to {fighter_words(s, x.target)}",
    b.EndStrikes: lambda x, s: "Done striking",
    b.ConcedeInstead: _concede_instead,
    b.AcceptConcession: lambda x, s: "Accept the concession",
}
