"""A second look before a click throws something away: what an action would cost.

Some decisions give up what the player could keep: ending a battle's first maneuvers with
characters still off the board (they are slain, RULES §8.4), a deal or a concession that
eliminates his own legion (§5.4–5.8) — his Titan's, and he is out of the game (§12.1) —,
withdrawing from the game (§12.4), ending the muster phase with a muster left undone
(§6), ending the split phase with a legion 7 high, which cannot muster (§6.1). Before such
an action is applied the player is told exactly what it would cost and asked to confirm
(:func:`cost`). The words come from the rules' certain consequences: where an action is
simulated to see them, nothing it rolls is ever told (the simulation is used only when it
rolls no die).
"""

from __future__ import annotations

from bot.legality import legal
from bot.narration.table import listing
from engine.battle.concession import ConcedeMode, concede_mode
from engine.battle.position import Side
from engine.characters import TITAN
from engine.errors import TitanError
from engine.events import Event
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.apply import apply
from engine.game.battle_flow import battle_of
from engine.game.battle_legal import battle_seat
from engine.game.events import PlayerEliminated
from engine.game.state import Engagement, GameState, Proposal
from engine.muster import FULL_HEIGHT

OUT = "you are out of the game"


def cost(state: GameState, seat: int, action: a.Action) -> str | None:
    """What ``action`` by ``seat`` would throw away, in words, or None when nothing."""
    if isinstance(action, b.EndManeuver):
        return _left_off(state, seat, action)
    if isinstance(action, a.Accept):
        return _accepting(state, seat, action)
    if isinstance(action, a.Propose):
        return _proposing(state, seat, action)
    if isinstance(action, a.Concede | b.ConcedeInstead):
        return _conceding(state, seat, action)
    if isinstance(action, a.Withdraw):
        return _withdrawing(state, seat)
    if isinstance(action, a.EndTurn):
        return _unmustered(state, seat)
    if isinstance(action, a.Roll):
        return _full(state, seat)
    return None


def _simulated(state: GameState, seat: int, action: a.Action) -> list[Event] | None:
    """The events of ``action``, when it rolls no die (else None: nothing is told that a
    die decides)."""
    try:
        after, events = apply(state, seat, action)
    except TitanError:
        return None
    return events if after.dice.rolled == state.dice.rolled else None


def _out(events: list[Event], seat: int) -> bool:
    return any(isinstance(e, PlayerEliminated) and e.seat == seat for e in events)


def _legion_words(state: GameState, marker: str) -> str:
    legion = state.legions[marker]
    return f"{marker} ({listing(legion.characters)})"


def _left_off(state: GameState, seat: int, action: b.EndManeuver) -> str | None:
    battle = battle_of(state)
    if battle is None or battle.phasing in battle.entered or battle_seat(state) != seat:
        return None
    left = battle.waiting(battle.phasing)
    if not left:
        return None
    verb = "stays" if len(left) == 1 else "stay"
    text = f"{listing(left)} {verb} off the board and {'is' if len(left) == 1 else 'are'} slain"
    events = _simulated(state, seat, action)
    if events is not None and _out(events, seat):
        return f"{text}: {OUT} (RULES §8.4, §12.1)."
    if TITAN in left:
        return f"{text}: your Titan among them, and {OUT} (RULES §8.4, §12.1)."
    if not battle.fighters(battle.phasing):
        return f"{text}: the whole legion is lost (RULES §8.4)."
    return f"{text} (RULES §8.4)."


def _engaged(state: GameState, seat: int) -> tuple[Engagement, Side] | None:
    """The engagement being resolved and ``seat``'s side in it, if it fights it."""
    engagement = state.engagement
    if engagement is None:
        return None
    if state.legions[engagement.attacker].owner == seat:
        return engagement, Side.ATTACKER
    if state.legions[engagement.defender].owner == seat:
        return engagement, Side.DEFENDER
    return None


def _marker(engagement: Engagement, side: Side) -> str:
    return engagement.attacker if side is Side.ATTACKER else engagement.defender


def _deal_cost(state: GameState, engagement: Engagement, mine: Side, deal: Proposal) -> str | None:
    """What ``deal`` costs the side ``mine``: its legion, or the survivor's losses."""
    own = _marker(engagement, mine)
    if deal.eliminate is None or deal.eliminate is mine:
        lost = f"your legion {_legion_words(state, own)} is eliminated"
        if state.legions[own].has_titan:
            return f"{lost}: your Titan with it, and {OUT} (RULES §12.1)"
        return lost
    if deal.survivor_losses:
        return f"your legion {own} loses {listing(deal.survivor_losses)}"
    return None


def _accepting(state: GameState, seat: int, action: a.Accept) -> str | None:
    engaged = _engaged(state, seat)
    if engaged is None:
        return None
    engagement, mine = engaged
    made = next((o for o in engagement.proposals if o.number == action.number), None)
    if made is None:
        return None
    lost = _deal_cost(state, engagement, mine, made.proposal)
    return f"Accepting proposal #{action.number}: {lost}." if lost else None


def _proposing(state: GameState, seat: int, action: a.Propose) -> str | None:
    """A proposal is only a risk when it gives the Titan away: if it is accepted, the
    proposer is out of the game."""
    engaged = _engaged(state, seat)
    if engaged is None:
        return None
    engagement, mine = engaged
    own = _marker(engagement, mine)
    if not state.legions[own].has_titan:
        return None
    for deal in action.proposals:
        if deal.eliminate is None or deal.eliminate is mine:
            return (
                f"If this proposal is accepted, your legion {own} is eliminated with your "
                f"Titan, and {OUT} (RULES §5.4, §12.1)."
            )
    return None


def _conceding(state: GameState, seat: int, action: a.Action) -> str | None:
    engaged = _engaged(state, seat)
    if engaged is None:
        return None
    engagement, mine = engaged
    own = _marker(engagement, mine)
    lost = f"your legion {_legion_words(state, own)} is eliminated"
    titan = state.legions[own].has_titan
    if titan:
        lost += f": your Titan with it, and {OUT}"
    out = ", §12.1" if titan else ""  # the rule of a lost Titan, cited once with the other
    battle = battle_of(state)
    if battle is None:
        return f"Conceding the engagement: {lost} (RULES §5.6{out})."
    if isinstance(action, b.ConcedeInstead):
        if battle.concession is not None and battle.concession.countered:
            return (
                "Insisting on conceding: a roll-off decides who concedes, the higher roller "
                f"(errata 9.4, E25). If it is you, {lost}" + (" (RULES §12.1)." if titan else ".")
            )
        return f"Conceding the battle instead: {lost} (RULES §5.8{out})."
    if concede_mode(battle, mine) is ConcedeMode.ATTEMPT:
        return (
            f"You offer to concede the battle; if your opponent accepts, {lost} (RULES §5.8{out})."
        )
    return f"Conceding the battle: {lost} (RULES §5.8{out})."


def _withdrawing(state: GameState, seat: int) -> str:
    legions = sorted(leg.marker for leg in state.legions_of(seat))
    what = f"your legions ({', '.join(legions)}) leave the board" if legions else "you leave"
    when = "now" if seat == state.active or state.engagement is None else "as the rules allow"
    return f"Withdrawing concedes the whole game: {what} and {OUT}, {when} (RULES §12.4)."


def _unmustered(state: GameState, seat: int) -> str | None:
    musters = [x for x in legal(state, seat) if isinstance(x, a.Muster)]
    legions = list(dict.fromkeys(x.legion for x in musters))
    if not legions:
        return None
    these = " and ".join(legions)
    return f"{these} could still muster: ending the turn now gives that up (RULES §6)."


def _full(state: GameState, seat: int) -> str | None:
    if not any(isinstance(x, a.Split) for x in legal(state, seat)):
        return None
    full = sorted(leg.marker for leg in state.legions_of(seat) if leg.height >= FULL_HEIGHT)
    if not full:
        return None
    these = " and ".join(full)
    verb = "is" if len(full) == 1 else "are"
    return (
        f"{these} {verb} {FULL_HEIGHT} high: a legion that full cannot muster this turn "
        "unless it splits first (RULES §6.1)."
    )
