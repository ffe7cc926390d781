"""Engagements before battle: choosing one, fleeing, negotiating, conceding (RULES §5).

The negotiation follows the SoP's complete sequence: the defender acts first; on his step
a player proposes a set of deals (at least one new, none the opponent's), accepts one of
the opponent's earlier proposals, concedes, or declares no more proposals; after one
declaration the other may only accept, concede or fight.
"""

from __future__ import annotations

from collections import Counter

from engine.battle.position import Side
from engine.characters import TITAN
from engine.errors import IllegalEngagement, NotYourTurn
from engine.frozen import evolve
from engine.game.actions import Accept, Concede, Engage, Fight, Flee, NoMoreProposals, Propose
from engine.game.battle_flow import begin_battle
from engine.game.common import Step, require_active, require_phase, sort_names
from engine.game.elimination import value_of
from engine.game.events import (
    ENGAGEMENT,
    EngagementBegun,
    EngagementConceded,
    Event,
    Fled,
    NoMoreProposalsDeclared,
    ProposalAccepted,
    ProposalsMade,
    Revealed,
)
from engine.game.moving import pending_engagements
from engine.game.outcome import Outcome, conclude, eliminators, marker_of, owner_of
from engine.game.state import Engagement, GameState, OfferedProposal, Phase, Proposal, Stage
from engine.game.waiting import waiting_words


def engage(state: GameState, seat: int, action: Engage) -> Step:
    """Pick the next engagement; both legions are shown to the two players (SoP)."""
    require_phase(state, Phase.ENGAGE, doing="choose an engagement", seat=seat)
    require_active(state, seat)
    if state.engagement is not None:
        raise IllegalEngagement(
            f"finish the engagement in {state.engagement.land} first (errata 9.1)"
        )
    if action.land not in pending_engagements(state):
        raise IllegalEngagement(f"there is no engagement in {action.land} (RULES §5.1)")
    legions = state.legions_in(action.land)
    attacker = next(leg for leg in legions if leg.owner == seat)
    defender = next(leg for leg in legions if leg.owner != seat)
    record = next(m for m in reversed(state.turn.moves) if m.marker == attacker.marker)
    entry_side = record.entry_side if record.entry_side is not None else 3
    state = evolve(
        state, engagement=Engagement(action.land, attacker.marker, defender.marker, entry_side)
    )
    both = frozenset({seat, defender.owner})
    events: list[Event] = [
        EngagementBegun(action.land, attacker.marker, defender.marker, entry_side),
        Revealed(attacker.marker, attacker.characters, ENGAGEMENT, audience=both),
        Revealed(defender.marker, defender.characters, ENGAGEMENT, audience=both),
    ]
    if state.player(defender.owner).withdrawing:
        state, more = concede_engagement(state, Side.DEFENDER)
        events += more
    return state, events


def negotiating(state: GameState, seat: int, doing: str) -> tuple[Engagement, Side]:
    """The engagement in negotiation and the side ``seat`` acts for, or an error."""
    require_phase(state, Phase.ENGAGE, doing=doing, seat=seat)
    engagement = state.engagement
    if engagement is None or engagement.stage is not Stage.NEGOTIATE:
        waiting = waiting_words(state, seat)
        raise IllegalEngagement(
            f"you can {doing} only while an engagement is negotiated; {waiting}"
        )
    role = engagement.to_act
    if owner_of(state, role) != seat:
        raise NotYourTurn(f"the {role.value} decides now, not you; {waiting_words(state, seat)}")
    return engagement, role


def flee(state: GameState, seat: int, action: Flee) -> Step:
    """The defender flees: eliminated, half points to the attacker (RULES §5.3)."""
    engagement, role = negotiating(state, seat, "flee")
    defender = state.legion(engagement.defender)
    if role is not Side.DEFENDER or not engagement.may_flee:
        raise IllegalEngagement("only the defender may flee, as his first decision (RULES §5.3)")
    if defender.has_lord:
        raise IllegalEngagement(f"{defender.marker} holds a lord and may not flee (RULES §5.3)")
    points = value_of(state, defender.owner, defender.characters) // 2
    outcome = Outcome(
        "flee",
        Side.ATTACKER,
        {Side.ATTACKER: (), Side.DEFENDER: defender.characters},
        points=points,
    )
    state, events = conclude(state, outcome)
    return state, [Fled(defender.marker), *events]


def _check_proposal(state: GameState, proposal: Proposal) -> None:
    if proposal.eliminate is None:
        if proposal.survivor_losses:
            raise IllegalEngagement("a mutual elimination leaves no survivor to lose more")
        return
    survivor = state.legion(marker_of(state, proposal.eliminate.other))
    missing = Counter(proposal.survivor_losses) - Counter(survivor.characters)
    if missing:
        raise IllegalEngagement(f"{survivor.marker} has no {', '.join(missing)} to give up")
    if len(proposal.survivor_losses) >= survivor.height:
        raise IllegalEngagement("a deal that kills the survivor too is a mutual elimination")
    if TITAN in proposal.survivor_losses:
        raise IllegalEngagement("a surviving legion cannot give up its Titan; eliminate it instead")


def propose(state: GameState, seat: int, action: Propose) -> Step:
    """Make a set of proposals (RULES §5.4)."""
    engagement, role = negotiating(state, seat, "propose")
    if engagement.no_more is not None:
        raise IllegalEngagement("proposals are over: accept, concede or fight (RULES §5.4)")
    made = [o.proposal for o in engagement.proposals]
    theirs = [o.proposal for o in engagement.proposals if o.by is not role]
    if not action.proposals:
        raise IllegalEngagement("make at least one proposal")
    # The same deal in another order is the same deal (SoP: "no proposals previously made").
    action = evolve(
        action,
        proposals=tuple(
            evolve(p, survivor_losses=sort_names(p.survivor_losses)) for p in action.proposals
        ),
    )
    for proposal in action.proposals:
        _check_proposal(state, proposal)
        if proposal in theirs:
            raise IllegalEngagement("your opponent already proposed that: accept it instead (SoP)")
    if all(p in made for p in action.proposals):
        raise IllegalEngagement("a set of proposals needs at least one new proposal (SoP)")
    first = len(engagement.proposals) + 1
    offered = tuple(OfferedProposal(first + i, role, p) for i, p in enumerate(action.proposals))
    engagement = evolve(
        engagement,
        proposals=engagement.proposals + offered,
        to_act=role.other,
        may_flee=False,
    )
    state = evolve(state, engagement=engagement)
    numbered = tuple((o.number, o.proposal) for o in offered)
    # A proposal may name characters of either legion: only the two players hear it.
    return state, [ProposalsMade(role, numbered, audience=engaged_players(state))]


def accept(state: GameState, seat: int, action: Accept) -> Step:
    """Accept an earlier proposal of the opponent: the deal is carried out (RULES §5.5)."""
    engagement, role = negotiating(state, seat, "accept a proposal")
    offered = next(
        (o for o in engagement.proposals if o.number == action.number and o.by is not role), None
    )
    if offered is None:
        theirs = ", ".join(f"#{o.number}" for o in engagement.proposals if o.by is not role)
        made = f"theirs: {theirs}" if theirs else "they have made none yet"
        raise IllegalEngagement(f"your opponent made no proposal #{action.number} ({made})")
    proposal = offered.proposal
    slain: dict[Side, tuple[str, ...]] = {}
    for side in Side:
        legion = state.legion(marker_of(state, side))
        if proposal.eliminate in (side, None):
            slain[side] = legion.characters
        else:
            slain[side] = proposal.survivor_losses
    winner = proposal.eliminate.other if proposal.eliminate is not None else None
    points = 0
    if winner is not None and proposal.eliminate is not None:
        loser = state.legion(marker_of(state, proposal.eliminate))
        points = value_of(state, loser.owner, loser.characters)
    outcome = Outcome(
        "agreement",
        winner,
        slain,
        points=points,
        may_summon=True,
        may_reinforce=True,
        eliminators=eliminators(slain),
    )
    accepted = ProposalAccepted(role, action.number, proposal, audience=engaged_players(state))
    state, events = conclude(state, outcome)
    return state, [accepted, *events]


def engaged_players(state: GameState) -> frozenset[int]:
    """The two players of the engagement in progress (RULES §5.2)."""
    return frozenset(owner_of(state, role) for role in Side)


def concede(state: GameState, seat: int, action: Concede) -> Step:
    """Concede before battle: the opponent scores the whole legion (RULES §5.6)."""
    engagement, role = negotiating(state, seat, "concede")
    if role is Side.DEFENDER and engagement.may_flee:
        engagement = evolve(engagement, may_flee=False)
    return concede_engagement(evolve(state, engagement=engagement), role)


def concede_engagement(state: GameState, role: Side) -> Step:
    """``role`` concedes the engagement in progress (before battle, RULES §5.6)."""
    legion = state.legion(marker_of(state, role))
    slain = {role: legion.characters, role.other: ()}
    outcome = Outcome(
        "concession",
        role.other,
        slain,
        points=value_of(state, legion.owner, legion.characters),
        may_summon=role is Side.DEFENDER,
        may_reinforce=False,
        eliminators=eliminators(slain),
    )
    state, events = conclude(state, outcome)
    return state, [EngagementConceded(role, legion.marker), *events]


def no_more_proposals(state: GameState, seat: int, action: NoMoreProposals) -> Step:
    """Declare no more proposals; the opponent may accept, concede or fight (SoP)."""
    engagement, role = negotiating(state, seat, "declare no more proposals")
    if engagement.no_more is not None:
        raise IllegalEngagement("your opponent declared already: accept, concede or fight")
    engagement = evolve(engagement, no_more=role, to_act=role.other, may_flee=False)
    return evolve(state, engagement=engagement), [NoMoreProposalsDeclared(role)]


def fight(state: GameState, seat: int, action: Fight) -> Step:
    """Fight the battle out once the opponent has declared no more proposals (SoP)."""
    engagement, role = negotiating(state, seat, "fight")
    if engagement.no_more is not role.other:
        raise IllegalEngagement(
            "you can fight once your opponent has declared no more proposals (RULES §5.4); "
            "until then propose, accept, concede or declare no more proposals yourself"
        )
    return begin_battle(state)


__all__ = ["accept", "concede", "engage", "fight", "flee", "no_more_proposals", "propose"]
_ = require_active
