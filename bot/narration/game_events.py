"""Game events in words (RULES §1.7 audiences respected): one narrator per event type."""

from __future__ import annotations

from bot.narration.table import Names, listing, narrator, plural, proposal_text
from engine.battle.position import Side
from engine.game import events as ev
from engine.movement import MoveKind


@narrator(ev.TowersAssigned)
def _towers(e: ev.TowersAssigned, n: Names) -> str:
    towers = ", ".join(f"{n.seat(s)} {t}" for s, t in enumerate(e.towers))
    return f"Towers by roll: {towers}."


@narrator(ev.ColourChosen)
def _colour(e: ev.ColourChosen, n: Names) -> str:
    return f"{n.seat(e.seat)} takes {e.colour}: legion {e.marker} stands in tower {e.land}."


@narrator(ev.TurnStarted)
def _turn(e: ev.TurnStarted, n: Names) -> str:
    """``— Turn 11 · Bob —``: the game turn, as players count them (``e.number`` counts
    player turns); ``— Bob's turn —`` when the states told do not say which."""
    turn = n.game_turn(e.seat, e.number)
    if turn is None:
        return f"— {n.seat(e.seat)}'s turn —"
    return f"— Turn {turn} · {n.seat(e.seat)} —"


@narrator(ev.LegionContents)
def _contents(e: ev.LegionContents, n: Names) -> str:
    return f"{e.marker} now holds {listing(e.characters)}."


@narrator(ev.Revealed)
def _revealed(e: ev.Revealed, n: Names) -> str:
    if e.reason == ev.SHOWN_BY_OWNER:
        return f"{n.legion(e.marker)} shows: {listing(e.characters)}."
    return f"{n.legion(e.marker)} shows {listing(e.characters)} ({e.reason})."


@narrator(ev.LegionSplit)
def _split(e: ev.LegionSplit, n: Names) -> str:
    return (
        f"{n.legion(e.parent)} splits in {e.land}: {e.child} takes {e.child_height}, "
        f"{e.parent_height} stay."
    )


@narrator(ev.SplitUndone)
def _unsplit(e: ev.SplitUndone, n: Names) -> str:
    return f"{e.child} rejoins {n.legion(e.parent)} (height {e.height})."


@narrator(ev.MovementRolled)
def _rolled(e: ev.MovementRolled, n: Names) -> str:
    how = "takes a mulligan and rolls" if e.mulligan else "rolls"
    return f"{n.seat(e.seat)} {how} a {e.roll} for movement."


@narrator(ev.LegionMoved)
def _moved(e: ev.LegionMoved, n: Names) -> str:
    if e.start == e.land:  # RULES §2.5: a normal move may loop back to its start
        text = f"{n.legion(e.marker)} moves round a loop from {e.start} back to {e.land}"
    else:
        text = f"{n.legion(e.marker)} moves {e.start} → {e.land}"
    if e.kind is not MoveKind.NORMAL:
        text += f" by {e.kind.value.replace('_', ' ')}"
    if e.lord:
        text += f", revealing {e.lord}"
    if e.entry_side is not None:
        text += f", entering by side {e.entry_side}"
    return text + "."


@narrator(ev.MoveTakenBack)
def _taken_back(e: ev.MoveTakenBack, n: Names) -> str:
    return f"{n.legion(e.marker)}'s move is taken back: it is in {e.land} again."


@narrator(ev.Recombined)
def _recombined(e: ev.Recombined, n: Names) -> str:
    return f"{', '.join(e.merged)} recombine into {n.legion(e.marker)} in {e.land} ({e.height})."


@narrator(ev.MovementEnded)
def _movement_ended(e: ev.MovementEnded, n: Names) -> str:
    lands = ", ".join(map(str, e.engagements))
    return f"Movement ends; engagements in {lands}." if lands else "Movement ends."


@narrator(ev.EngagementBegun)
def _engagement(e: ev.EngagementBegun, n: Names) -> str:
    return (
        f"Engagement in {e.land}: {n.legion(e.attacker)} attacks {n.legion(e.defender)} "
        f"from side {e.entry_side}."
    )


@narrator(ev.Fled)
def _fled(e: ev.Fled, n: Names) -> str:
    return f"{n.legion(e.marker)} flees."


@narrator(ev.ProposalsMade)
def _proposals(e: ev.ProposalsMade, n: Names) -> str:
    offers = "; ".join(f"#{k}: {proposal_text(p)}" for k, p in e.numbered)
    return f"The {e.by.value} proposes {offers}."


@narrator(ev.ProposalAccepted)
def _accepted(e: ev.ProposalAccepted, n: Names) -> str:
    return f"The {e.by.value} accepts #{e.number}: {proposal_text(e.proposal)}."


@narrator(ev.NoMoreProposalsDeclared)
def _no_more(e: ev.NoMoreProposalsDeclared, n: Names) -> str:
    return f"The {e.by.value} makes no more proposals."


@narrator(ev.EngagementConceded)
def _conceded(e: ev.EngagementConceded, n: Names) -> str:
    return f"{n.legion(e.marker)}, the {e.by.value}, concedes."


@narrator(ev.BattleBegun)
def _battle(e: ev.BattleBegun, n: Names) -> str:
    return (
        f"Battle in {e.land} ({e.terrain}): {n.legion(e.attacker)} attacks "
        f"{n.legion(e.defender)} from side {e.entry_side}. Before anyone enters, the "
        "attacker and then the defender may concede."
    )


@narrator(ev.CharactersSlain)
def _slain(e: ev.CharactersSlain, n: Names) -> str:
    return f"{n.legion(e.marker)} loses {listing(e.characters)} ({e.reason})."


@narrator(ev.LegionEliminated)
def _eliminated(e: ev.LegionEliminated, n: Names) -> str:
    return f"{e.marker} ({n.seat(e.owner)}) is eliminated."


@narrator(ev.EngagementResolved)
def _resolved(e: ev.EngagementResolved, n: Names) -> str:
    who = f"the {e.winner.value} wins" if e.winner else "nobody survives"
    return f"The engagement in {e.land} ends by {e.how}: {who}."


@narrator(ev.PointsScored)
def _points(e: ev.PointsScored, n: Names) -> str:
    return f"{n.seat(e.seat)} scores {plural(e.points, 'point')} ({e.reason}): {e.score} in all."


@narrator(ev.LordSummoned)
def _summoned(e: ev.LordSummoned, n: Names) -> str:
    return f"{n.legion(e.marker)} summons {e.lord} from {e.donor}."


@narrator(ev.LordAcquired)
def _acquired(e: ev.LordAcquired, n: Names) -> str:
    return f"{n.legion(e.marker)} acquires {e.lord}."


@narrator(ev.Mustered)
def _mustered(e: ev.Mustered, n: Names) -> str:
    how = "takes a reinforcement:" if e.reinforcement else "musters"
    shown = f" (revealing {listing(e.revealed)})" if e.revealed else ""
    return f"{n.legion(e.marker)} {how} {e.recruit}{shown}."


#: Who may take what an engagement's aftermath offers, and how passing it reads (RULES
#: §7.2b–c: the attacker's summon; §6.6: the defender's reinforcement).
_AFTERMATH_CHANCES = {
    "summon": (Side.ATTACKER, "summons no lord"),
    "reinforcement": (Side.DEFENDER, "takes no reinforcement"),
}


@narrator(ev.Declined)
def _declined(e: ev.Declined, n: Names) -> str:
    side, passes = _AFTERMATH_CHANCES.get(e.what, (None, ""))
    marker = n.marker(side) if side is not None else None
    if marker is None:
        return f"The {e.what} is declined."
    return f"{n.legion(marker)} {passes}."


@narrator(ev.CharactersReturned)
def _returned(e: ev.CharactersReturned, n: Names) -> str | None:
    parts = []
    if e.regenerated:
        parts.append(f"back to the stacks: {listing(e.regenerated)}")
    if e.dead:
        parts.append(f"to the dead pile: {listing(e.dead)}")
    text = "; ".join(parts)
    return f"{text[:1].upper()}{text[1:]}." if parts else None


@narrator(ev.PlayerEliminated)
def _player_out(e: ev.PlayerEliminated, n: Names) -> str:
    if e.reason == ev.WITHDREW:
        return f"{n.seat(e.seat)} withdrew from the game."
    by = f", eliminated by {n.seat(e.by)}" if e.by is not None else ""
    return f"{n.seat(e.seat)} is out of the game ({e.reason}){by}."


@narrator(ev.MarkersInherited)
def _inherited(e: ev.MarkersInherited, n: Names) -> str:
    return f"{n.seat(e.seat)} takes the markers {', '.join(e.markers)}."


@narrator(ev.WithdrawalQueued)
def _withdrawing(e: ev.WithdrawalQueued, n: Names) -> str:
    return f"{n.seat(e.seat)} will withdraw from the game as soon as the rules allow."


@narrator(ev.TimeLimitExpired)
def _time(e: ev.TimeLimitExpired, n: Names) -> str:
    return (
        "The time limit has expired: this turn is played out, then every player takes one "
        "more turn (errata 21.1)."
    )


@narrator(ev.TurnEnded)
def _turn_ended(e: ev.TurnEnded, n: Names) -> None:
    return None


@narrator(ev.GameOver)
def _over(e: ev.GameOver, n: Names) -> str:
    winners = " and ".join(n.seat(s) for s in e.winners)
    verb = "win" if len(e.winners) > 1 else "wins"
    return f"Game over ({e.reason}): {winners or 'nobody'} {verb}."
