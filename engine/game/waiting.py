"""What the game waits for: whose decision it is, and the decision in words.

:func:`deciding_seat` is the one answer to "who decides now" (``engine.game.legal.to_act``
is it); :func:`waiting_words` says it to a player, for the refusals that tell him what to
do instead (an action out of its phase, a battle action with no battle being fought).
"""

from __future__ import annotations

from engine.battle.position import Side
from engine.battle.state import decision_words
from engine.game.state import GameState, Phase, Stage

_TASKS = {
    Phase.COLOURS: "choose a colour",
    Phase.SPLIT: "split legions or roll for movement",
    Phase.MUSTER: "muster or end the turn",
}


def deciding_seat(state: GameState) -> int | None:
    """The seat whose decision the game waits for, or None when it is over (or when no
    one's decision is due, which the rules never leave the game in)."""
    if state.result is not None:
        return None
    engagement = state.engagement
    if state.phase is not Phase.ENGAGE or engagement is None:
        return state.active
    if engagement.stage is Stage.AFTERMATH:
        aftermath = engagement.aftermath
        return _owner(state, aftermath.winner) if aftermath is not None else None
    if engagement.stage is Stage.NEGOTIATE:
        return _owner(state, engagement.to_act)
    battle = engagement.battle
    return _owner(state, battle.decider) if battle is not None else None


def _owner(state: GameState, role: Side | None) -> int | None:
    engagement = state.engagement
    if role is None or engagement is None:
        return None
    marker = engagement.attacker if role is Side.ATTACKER else engagement.defender
    legion = state.legions.get(marker)
    return legion.owner if legion is not None else None


def waiting_words(state: GameState, seat: int | None = None) -> str:
    """``the game waits for you to move legions (roll 4), then end the movement`` — the
    decision the game waits for, said to ``seat`` (``you`` when it is his)."""
    decider = deciding_seat(state)
    if state.result is not None:
        return "the game is over"
    if decider is None:
        return f"the game is in its {state.phase.value} phase"
    who = "you" if decider == seat else state.player(decider).name
    return f"the game waits for {who} to {_task(state)}"


def _task(state: GameState) -> str:
    engagement = state.engagement
    if state.phase in _TASKS:
        return _TASKS[state.phase]
    if state.phase is Phase.MOVE:
        return f"move legions (roll {state.turn.roll}), then end the movement"
    if engagement is None:
        return "choose the next engagement"
    if engagement.stage is Stage.NEGOTIATE:
        return f"answer as the {engagement.to_act.value} in {engagement.land}"
    if engagement.stage is Stage.AFTERMATH:
        return f"summon, reinforce, acquire or decline after the engagement in {engagement.land}"
    battle = engagement.battle
    if battle is None or battle.decider is None:
        return f"fight the battle in {engagement.land}"
    where = f"the {battle.decider.value} in the battle in {engagement.land}"
    return f"{decision_words(battle)} ({where})"
