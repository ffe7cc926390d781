"""Game situations in words: legions, status, and what the game waits for.

Legions are described through :func:`engine.game.view.view`, so each reader sees only
what the rules show them (RULES §1.7).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.narration.battle_text import battle_task
from bot.narration.narrate import listing, plural, proposal_text
from bot.narration.turns import turn_phrase
from engine.battle.position import Side
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from engine.game.state import Engagement, GameState, Phase, Stage
from engine.game.view import LegionView, legion_view, view
from engine.masterboard import land as land_of


def legion_text(legion: LegionView) -> str:
    """``Bk01 in 104 (Plains): Titan, Ogre ×2``, or the height and what is known."""
    head = f"{legion.marker} in {legion.land} ({land_of(legion.land).terrain})"
    if legion.characters is not None:
        return f"{head}: {listing(legion.characters)}"
    text = f"{head}: {plural(legion.height, 'character')}"
    return text + (f", known: {listing(legion.known)}" if legion.known else "")


def legions_text(state: GameState, viewer: int | None) -> str:
    """Every legion by player, the viewer's first; hidden contents stay hidden."""
    seen = view(state, viewer)
    players = sorted(seen.players, key=lambda p: (p.seat != viewer, p.seat))
    blocks = []
    for player in players:
        own = [leg for leg in seen.legions if leg.owner == player.seat]
        out = ", out of the game" if player.eliminated else ""
        colour = player.colour or "no colour yet"
        head = f"**{player.name}** ({colour}, {plural(player.score, 'point')}{out})"
        lines = [f"  {legion_text(leg)}" for leg in own] or ["  no legions"]
        blocks.append("\n".join([head, *lines]))
    return "\n".join(blocks)


def own_legions_text(state: GameState, seat: int) -> str:
    """The private list a player receives after a change."""
    own = sorted(state.legions_of(seat), key=lambda leg: leg.marker)
    lines = [legion_text(legion_view(state, leg, seat)) for leg in own]
    if lines:
        return "Your legions:\n" + "\n".join(lines)
    out = " left: you are out of the game" if state.player(seat).eliminated else ""
    return f"Your legions: none{out}."


def contents_by_seat(state: GameState | None) -> dict[int, dict[str, tuple[str, ...]]]:
    """Per seat: marker → characters (to notice private changes)."""
    found: dict[int, dict[str, tuple[str, ...]]] = {}
    if state is not None:
        for legion in state.legions.values():
            found.setdefault(legion.owner, {})[legion.marker] = legion.characters
    return found


def waiting_for(state: GameState) -> tuple[int | None, str]:
    """The seat the game waits for and what it must do (None when the game is over)."""
    seat = to_act(state)
    if seat is None:
        return None, "the game is over"
    return seat, _task(state)


def _task(state: GameState) -> str:
    engagement = state.engagement
    if state.phase is Phase.COLOURS:
        return "choose a colour (`colour COLOUR`)"
    if state.phase is Phase.SPLIT:
        return _split_task(state)
    if state.phase is Phase.MOVE:
        return f"move (rolled {state.turn.roll}; `move LEGION LAND`, then `done`)"
    if state.phase is Phase.MUSTER:
        return "muster (`muster LEGION CHARACTER`) or end the turn (`done`)"
    if state.phase is not Phase.ENGAGE:
        return "wait"
    if engagement is None:
        return "choose the next engagement (`engage LAND`)"
    if engagement.stage is Stage.NEGOTIATE:
        role = engagement.to_act.value
        hints = [f"`{verb}`" for verb in _negotiation_verbs(engagement)]
        named = f"{', '.join(hints[:-1])} or {hints[-1]}" if len(hints) > 1 else hints[0]
        return f"answer as the {role} in {engagement.land} ({named})"
    if engagement.stage is Stage.AFTERMATH:
        return _aftermath_task(state, engagement)
    battle = engagement.battle
    if battle is None:
        return f"act in the battle in {engagement.land}"
    return f"{battle_task(battle)} (battle in {engagement.land}, turn {battle.turn})"


def _split_task(state: GameState) -> str:
    """A split and the roll, as the rules allow them now (RULES §3): the first turn's split
    comes before the roll, and a split needs a legion four high and a free marker (whether
    one may be made follows from the heights and the markers, known to all)."""
    legal = legal_actions(state, state.active)
    splits = any(isinstance(x, a.Split) for x in legal)
    if splits and a.Roll() in legal:
        return "split (`split LEGION CHARACTER…`) or `roll`"
    if splits:
        return "split (`split LEGION CHARACTER…`) before the roll"
    return "roll for movement (`roll`)"


def _negotiation_verbs(engagement: Engagement) -> list[str]:
    """The commands the rules leave the side to act in a negotiation, from what all may know
    (RULES §5.3–§5.6): fleeing at the defender's first step only (a lord in his legion,
    which forbids it, stays unsaid), proposals until one side declares no more, accepting
    once the other side has proposed (every other step is announced, so that it did is
    known), battle once the other side has declared no more."""
    role = engagement.to_act
    open_ = engagement.no_more is None
    verbs = ["flee"] if role is Side.DEFENDER and engagement.may_flee else []
    verbs += ["propose"] if open_ else []
    verbs += ["accept"] if any(o.by is not role for o in engagement.proposals) else []
    verbs += ["concede", "nomore"] if open_ else ["concede"]
    verbs += ["fight"] if engagement.no_more is role.other else []
    return verbs


def _aftermath_task(state: GameState, engagement: Engagement) -> str:
    """The winner's one choice now after an engagement, as the engine asks them in turn:
    a summon (RULES §7.2), a reinforcement (§6.6), then each acquisition (§7.1). No
    character is named: the legion's contents are hidden again once its battle is over."""
    aftermath = engagement.aftermath
    winner = aftermath.winner if aftermath is not None else None
    marker = engagement.defender if winner is Side.DEFENDER else engagement.attacker
    step = aftermath.step if aftermath is not None else "acquire"
    return _AFTERMATH[step].format(marker=marker)


#: The winner's step after an engagement, in the waiting line.
_AFTERMATH = {
    "summon": "summon a lord into {marker} (`summon DONOR LORD`) or not (`decline`)",
    "reinforce": "take a reinforcement into {marker} (`reinforce CHARACTER`) or not (`decline`)",
    "acquire": "take a lord into {marker} (`acquire LORD`) or not (`decline`)",
}


#: Where an engagement stands, in ``status`` (RULES §5).
_STAGES = {
    Stage.NEGOTIATE: "in negotiation",
    Stage.BATTLE: "in battle",
    Stage.AFTERMATH: "decided (the winner's choices)",
}


def status_text(state: GameState, viewer: int | None = None) -> str:
    """Turn, phase, scores and who must act; the engagement's proposals, with their terms,
    only for its two players and while they negotiate (RULES §5.4: the negotiation is
    theirs), as :func:`view` shows them."""
    seat, task = waiting_for(state)
    lines = [_turn_line(state)]
    engagement = state.engagement
    if engagement is not None:
        attacker = _name(state, owner_of_safe(state, engagement.attacker))
        defender = _name(state, owner_of_safe(state, engagement.defender))
        lines.append(
            f"Engagement in {engagement.land}: {engagement.attacker} ({attacker}) against "
            f"{engagement.defender} ({defender}), {_STAGES[engagement.stage]}"
        )
        seen = view(state, viewer).engagement
        talking = engagement.stage is Stage.NEGOTIATE  # a battle or its end makes them moot
        proposals = seen.proposals if seen is not None and talking else ()
        lines += [
            f"  proposal #{o.number} by the {o.by.value}: {proposal_text(o.proposal)}"
            for o in proposals
        ]
    lines += [_score_line(state, p.seat) for p in state.players]
    if state.result is not None:
        winners = " and ".join(_name(state, s) for s in state.result.winners)
        lines.append(f"Game over ({state.result.reason}): {winners}")
    elif seat is not None:
        lines.append(f"Waiting for {_name(state, seat)} to {task}.")
    return "\n".join(lines)


def _turn_line(state: GameState) -> str:
    """``Turn 11, Bob's move phase (movement roll 4)``: the game turn, as players count
    them, and whose it is."""
    if state.phase is Phase.COLOURS:
        return "Before turn 1: the colours are chosen"
    turn = turn_phrase(state)
    if state.result is not None or state.phase is Phase.OVER:
        return f"The game ended in {turn}"
    line = f"{turn[:1].upper()}{turn[1:]} {state.phase.value} phase"
    if state.turn.roll is not None and state.phase in (Phase.MOVE, Phase.ENGAGE, Phase.MUSTER):
        line += f" (movement roll {state.turn.roll})"
    return line


def owner_of_safe(state: GameState, marker: str) -> int | None:
    legion = state.legions.get(marker)
    return legion.owner if legion is not None else None


def _score_line(state: GameState, seat: int) -> str:
    player = state.player(seat)
    legions = list(state.legions_of(seat))
    out = ", out" if player.eliminated else ""
    return (
        f"  {player.name}: {player.colour or 'no colour'}, tower {player.tower}, "
        f"{plural(player.score, 'point')}, {plural(len(legions), 'legion')}{out}"
    )


def _name(state: GameState, seat: int | None) -> str:
    return state.player(seat).name if seat is not None else "nobody"


def lands_text(state: GameState, lands: Iterable[int], viewer: int | None = None) -> str:
    """The legions in some lands, as ``viewer`` sees them."""
    wanted = set(lands)
    names = {p.seat: p.name for p in state.players}
    return "\n".join(
        f"{legion_text(leg)} — {names[leg.owner]}"
        for leg in view(state, viewer).legions
        if leg.land in wanted
    )
