"""Engagements (RULES §5, §7, §6.6): their order, fleeing, deals, and the winner's rights.

A legion's chances come from both legions' contents, which the two players see (§5.2).
Deals are accepted when they beat the expected result of the battle; the favoured side
offers the other's elimination (the opponent may take it) and then fights.
"""

from __future__ import annotations

from engine.ai.appraisal import SPOILS, TITAN_BOUNTY, stake, terrain_of
from engine.ai.knowledge import Knowledge, know
from engine.ai.moving import summon_bonus
from engine.ai.worth import defender_edge, legion_strength, points, win_chance
from engine.battle.position import Side
from engine.characters import ANGEL, ARCHANGEL, character
from engine.game import actions as a
from engine.game.outcome import marker_of
from engine.game.state import GameState, Proposal

#: Share of our legion's points a lost battle still takes from the enemy.
TOLL = 0.4


def choose_engage(state: GameState, seat: int, legal: list[a.Action]) -> a.Action:
    """Resolve the engagement with the most at stake first (errata 9.1)."""
    knowledge = know(state, seat)
    engages = [x for x in legal if isinstance(x, a.Engage)]
    if not engages:
        return legal[0]

    def at_stake(action: a.Engage) -> float:
        enemies = [s for s in knowledge.enemies() if s.land == action.land]
        return enemies[0].points if enemies else 0.0

    return max(engages, key=lambda x: (at_stake(x), -x.land))


def _lost(state: GameState, role: Side) -> float:
    """What losing ``role``'s legion costs its owner: the legion, and its points that go
    to the enemy (RULES §11.4)."""
    ours = state.legion(marker_of(state, role))
    score = state.player(ours.owner).score
    return stake(ours, score) + SPOILS * points(ours.characters, score)


def _battle_value(state: GameState, knowledge: Knowledge, role: Side) -> tuple[float, float]:
    """(chance ``role`` wins the battle, expected gain of fighting it) for its owner; a
    lost battle still slays some of the enemy (up to ``TOLL`` of our points)."""
    engagement = state.engagement
    assert engagement is not None
    ours = state.legion(marker_of(state, role))
    theirs = knowledge.of(marker_of(state, role.other))
    terrain = terrain_of(engagement.land)
    score = state.player(ours.owner).score
    mine = legion_strength(ours.characters, score, terrain)
    other = legion_strength(theirs.known, knowledge.scores[theirs.owner], terrain)
    if role is Side.ATTACKER:
        mine += summon_bonus(state, ours.owner, engagement.land)
        p = win_chance(mine, other * defender_edge(terrain))
    else:
        p = 1 - win_chance(other, mine * defender_edge(terrain))
    toll = TOLL * points(ours.characters, score) * min(1.0, mine / other if other else 1.0)
    gain = theirs.points + theirs.titan * TITAN_BOUNTY
    return p, p * gain - (1 - p) * (_lost(state, role) - toll)


def _flight_value(state: GameState, role: Side) -> float:
    """What fleeing costs: the legion, and half its points to the enemy (RULES §5.3)."""
    ours = state.legion(marker_of(state, role))
    worth = points(ours.characters, state.player(ours.owner).score)
    return -worth - SPOILS * worth / 2


def _deal_value(state: GameState, knowledge: Knowledge, role: Side, proposal: Proposal) -> float:
    """What accepting ``proposal`` is worth to ``role``'s owner (RULES §5.5)."""
    ours = state.legion(marker_of(state, role))
    theirs = knowledge.of(marker_of(state, role.other))
    score = state.player(ours.owner).score
    if proposal.eliminate is role:
        return -_lost(state, role)
    bounty = theirs.titan * TITAN_BOUNTY
    if proposal.eliminate is None:
        return bounty - stake(ours, score)
    return theirs.points + bounty - points(proposal.survivor_losses, score)


def choose_negotiation(state: GameState, seat: int, legal: list[a.Action]) -> a.Action:
    """Flee, accept a deal, propose one, declare no more proposals, or fight (RULES §5.3–§5.6)."""
    engagement = state.engagement
    assert engagement is not None
    knowledge = know(state, seat)
    role = engagement.to_act
    p, fight = _battle_value(state, knowledge, role)
    if a.Flee() in legal and _flight_value(state, role) > fight:
        return a.Flee()
    offers = {o.number: o.proposal for o in engagement.proposals if o.by is not role}
    deals = [x for x in legal if isinstance(x, a.Accept)]
    if deals:
        best = max(deals, key=lambda x: _deal_value(state, knowledge, role, offers[x.number]))
        if _deal_value(state, knowledge, role, offers[best.number]) >= fight:
            return best
    wanted = _wanted_proposal(state, knowledge, role, p, fight)
    if wanted is not None and a.Propose((wanted,)) in legal:
        return a.Propose((wanted,))
    for final in (a.NoMoreProposals(), a.Fight()):
        if final in legal:
            return final
    return next(x for x in legal if not isinstance(x, a.Withdraw | a.Concede))


def _wanted_proposal(
    state: GameState, knowledge: Knowledge, role: Side, p: float, fight: float
) -> Proposal | None:
    """The deal worth offering: the enemy's elimination when we are favoured; a mutual
    elimination when that beats fighting (their Titan for a lesser legion of ours), but
    not while fleeing is still open (a proposal gives it up, RULES §5.3)."""
    if p >= 0.5:
        return Proposal(role.other)
    if _may_flee(state, role):
        return None
    mutual = Proposal(None)
    if _deal_value(state, knowledge, role, mutual) > fight:
        return mutual
    return None


def _may_flee(state: GameState, role: Side) -> bool:
    """Whether ``role`` may still flee: the defender, before any other step, without a
    lord (RULES §5.3)."""
    engagement = state.engagement
    return (
        engagement is not None
        and engagement.may_flee
        and role is Side.DEFENDER
        and not state.legion(marker_of(state, role)).has_lord
    )


def choose_aftermath(state: GameState, seat: int, legal: list[a.Action]) -> a.Action:
    """Summon the best lord, reinforce with the best recruit, acquire the best lord."""
    summons = [x for x in legal if isinstance(x, a.Summon)]
    if summons:
        choice = best_summon(state, summons)
        return choice if choice is not None else a.Decline()
    reinforcements = [x for x in legal if isinstance(x, a.Reinforce)]
    if reinforcements:
        return max(reinforcements, key=lambda x: (character(x.recruit).value_at(), x.recruit))
    for lord in (ARCHANGEL, ANGEL):
        if a.Acquire(lord) in legal:
            return a.Acquire(lord)
    return a.Decline()


def best_summon(state: GameState, summons: list[a.Summon]) -> a.Summon | None:
    """The lord to summon (RULES §7.2): the strongest, from the donor that misses it least;
    never stripping the Titan's legion of its guard when it is small."""

    def cost(x: a.Summon) -> tuple[int, int, str]:
        donor = state.legion(x.donor)
        return (int(donor.has_titan), -character(x.lord).power, x.donor)

    usable = [
        x
        for x in summons
        if not (state.legion(x.donor).has_titan and state.legion(x.donor).height < 5)
    ]
    return min(usable, key=cost) if usable else None
