"""Events in words: one line per event a reader may see (RULES §1.7 audiences respected).

:data:`NARRATORS` is a table keyed on the event's type; events without an entry (the
battle's, until it registers its own) get a plain generic line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import fields
from enum import Enum
from typing import Any, TypeVar

from engine.game import events as ev
from engine.game.state import GameState, Proposal
from engine.movement import MoveKind

E = TypeVar("E", bound=ev.Event)


class Names:
    """Player names for seats and markers, from game states (the first state wins)."""

    def __init__(self, *states: GameState | None) -> None:
        self._seats: dict[int, str] = {}
        self._markers: dict[str, str] = {}
        for state in reversed([s for s in states if s is not None]):
            self._seats |= {p.seat: p.name for p in state.players}
            self._markers |= {m: p.name for p in state.players for m in p.markers}

    def seat(self, seat: int | None) -> str:
        return self._seats.get(seat, "nobody") if seat is not None else "nobody"

    def legion(self, marker: str) -> str:
        """``Bk01 (Ann)``."""
        owner = self._markers.get(marker)
        return f"{marker} ({owner})" if owner else marker


Narrator = Callable[[Any, Names], str | None]
NARRATORS: dict[type[ev.Event], Narrator] = {}


def narrator(event_type: type[E]) -> Callable[[Callable[[E, Names], str | None]], Narrator]:
    """Register the function describing ``event_type``."""

    def wrap(function: Callable[[E, Names], str | None]) -> Narrator:
        NARRATORS[event_type] = function
        return function

    return wrap


def narrate(events: Iterable[ev.Event], names: Names, seat: int | None = None) -> list[str]:
    """The lines ``seat`` (None: everyone) may read. Private events are left out for None."""
    lines = []
    for event in events:
        if not event.visible_to(seat):
            continue
        function = NARRATORS.get(type(event), _generic)
        line = function(event, names)
        if line:
            lines.append(line)
    return lines


def private_events(events: Iterable[ev.Event], seat: int) -> list[ev.Event]:
    """The events addressed to a set of seats that includes ``seat``."""
    return [e for e in events if e.audience is not None and seat in e.audience]


def _generic(event: ev.Event, names: Names) -> str:
    """``Battle ended: kind concession, winner defender.`` for events without a narrator."""
    title = re.sub(r"(?<!^)(?=[A-Z])", " ", type(event).__name__).capitalize()
    parts = [
        f"{f.name.replace('_', ' ')} {_plain(getattr(event, f.name))}"
        for f in fields(event)
        if f.name != "audience"
    ]
    return f"{title}: {', '.join(parts)}." if parts else f"{title}."


def _plain(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple | list | frozenset):
        return "(" + " ".join(_plain(v) for v in value) + ")"
    return str(value)


def listing(names: Iterable[str]) -> str:
    """``Ogre ×2, Titan`` — a multiset of characters."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in counts.items()) or "nothing"


def proposal_text(proposal: Proposal) -> str:
    if proposal.eliminate is None:
        return "both legions are eliminated"
    text = f"the {proposal.eliminate.value} is eliminated"
    if proposal.survivor_losses:
        losses = listing(proposal.survivor_losses)
        text += f" and the {proposal.eliminate.other.value} loses {losses}"
    return text


@narrator(ev.TowersAssigned)
def _towers(e: ev.TowersAssigned, n: Names) -> str:
    towers = ", ".join(f"{n.seat(s)} {t}" for s, t in enumerate(e.towers))
    return f"Towers by roll: {towers}."


@narrator(ev.ColourChosen)
def _colour(e: ev.ColourChosen, n: Names) -> str:
    return f"{n.seat(e.seat)} takes {e.colour}: legion {e.marker} stands in tower {e.land}."


@narrator(ev.TurnStarted)
def _turn(e: ev.TurnStarted, n: Names) -> str:
    return f"— Turn {e.number}: {n.seat(e.seat)} —"


@narrator(ev.LegionContents)
def _contents(e: ev.LegionContents, n: Names) -> str:
    return f"{e.marker} now holds {listing(e.characters)}."


@narrator(ev.Revealed)
def _revealed(e: ev.Revealed, n: Names) -> str:
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
        f"Battle in {e.land} ({e.terrain}): {n.legion(e.attacker)} against {n.legion(e.defender)}."
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
    return f"{n.seat(e.seat)} scores {e.points} points ({e.reason}): {e.score} in all."


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


@narrator(ev.Declined)
def _declined(e: ev.Declined, n: Names) -> str:
    return f"The {e.what} is declined."


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
    by = f" by {n.seat(e.by)}" if e.by is not None else ""
    return f"{n.seat(e.seat)} is out of the game{by} ({e.reason})."


@narrator(ev.MarkersInherited)
def _inherited(e: ev.MarkersInherited, n: Names) -> str:
    return f"{n.seat(e.seat)} takes the markers {', '.join(e.markers)}."


@narrator(ev.WithdrawalQueued)
def _withdrawing(e: ev.WithdrawalQueued, n: Names) -> str:
    return f"{n.seat(e.seat)} will withdraw from the game as soon as the rules allow."


@narrator(ev.TimeLimitExpired)
def _time(e: ev.TimeLimitExpired, n: Names) -> str:
    return f"The time limit has expired: {e.final_turns} more player turns."


@narrator(ev.TurnEnded)
def _turn_ended(e: ev.TurnEnded, n: Names) -> None:
    return None


@narrator(ev.GameOver)
def _over(e: ev.GameOver, n: Names) -> str:
    winners = " and ".join(n.seat(s) for s in e.winners)
    verb = "win" if len(e.winners) > 1 else "wins"
    return f"Game over ({e.reason}): {winners or 'nobody'} {verb}."
