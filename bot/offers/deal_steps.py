"""The steps of an engagement before and after its battle: the negotiation (RULES §5.3–5.6)
and what the winner may do after it (summon, reinforce, acquire: RULES §6.6, §7.1, §7.2).

The negotiation is its two players' (RULES §5.4): its choices reach the one it waits for,
each proposal written out in full where it can be accepted, in the legions' own names.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.legality import legal
from bot.narration.describe import legion_text
from bot.narration.table import listing
from bot.offers.battle_steps import NO_DONOR, no_recruit
from bot.offers.labels import offer
from bot.offers.model import Offer, laid_out
from bot.offers.steps import Step, kind, of_types
from engine.battle.position import Side
from engine.game import actions as a
from engine.game.state import Engagement, GameState, Proposal
from engine.game.view import view


def proposal_words(engagement: Engagement, proposal: Proposal) -> str:
    """A proposal in the legions' names: ``Rd01 (the attacker) is eliminated and Bk03
    loses Ogre``."""
    markers = {Side.ATTACKER: engagement.attacker, Side.DEFENDER: engagement.defender}
    if proposal.eliminate is None:
        return f"both {engagement.attacker} and {engagement.defender} are eliminated"
    loser = proposal.eliminate
    text = f"{markers[loser]} (the {loser.value}) is eliminated"
    if proposal.survivor_losses:
        text += f" and {markers[loser.other]} loses {listing(proposal.survivor_losses)}"
    return text


@kind("negotiate", "Negotiate…", a.Flee, a.Accept, a.Propose, a.NoMoreProposals, a.Fight,
      a.Concede)  # fmt: skip
def negotiate_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """Flee, accept a proposal, propose, declare no more proposals, fight, or concede."""
    engagement = state.engagement
    actions = legal(state, seat)
    if engagement is None:
        return Step("No engagement is being negotiated.", laid_out([], "Negotiate…"))
    seen = {leg.marker: leg for leg in view(state, seat).legions}
    lines = [f"Engagement in {engagement.land}:"]
    for side, marker in (
        (Side.ATTACKER, engagement.attacker),
        (Side.DEFENDER, engagement.defender),
    ):
        owner = state.player(state.legion(marker).owner).name
        lines.append(f"  {side.value} {owner}: {legion_text(seen[marker])}")
    for made in engagement.proposals:
        by = state.player(state.legion(_marker(engagement, made.by)).owner).name
        lines.append(f"  #{made.number} by {by}: {proposal_words(engagement, made.proposal)}")
    if engagement.no_more is not None:
        lines.append(f"  the {engagement.no_more.value} makes no more proposals")
    choices: list[Offer] = []
    for action in actions:
        if isinstance(action, a.Accept):
            choices.append(offer(action, state, _accept_label(engagement, action)))
        elif isinstance(action, a.Propose):
            words_ = " or ".join(proposal_words(engagement, p) for p in action.proposals)
            choices.append(offer(action, state, f"Propose: {words_}"))
        elif isinstance(action, a.Flee | a.NoMoreProposals | a.Fight | a.Concede):
            choices.append(offer(action, state))
    return Step("\n".join(lines), laid_out(choices, "Answer…"))


def _marker(engagement: Engagement, side: Side) -> str:
    return engagement.attacker if side is Side.ATTACKER else engagement.defender


def _accept_label(engagement: Engagement, action: a.Accept) -> str:
    found = next(o for o in engagement.proposals if o.number == action.number)
    return f"Accept #{action.number}: {proposal_words(engagement, found.proposal)}"


@kind("aftermath", "After the engagement…", a.Summon, a.Reinforce, a.Acquire, a.Decline)
def aftermath_step(state: GameState, seat: int, words: Sequence[str]) -> Step:
    """What the engagement's winner may still do: summon (the attacker), reinforce (the
    defender), acquire an Angel or Archangel (RULES §6.6, §7.1, §7.2)."""
    actions = legal(state, seat)
    found = [
        offer(x, state) for x in of_types(actions, a.Summon, a.Reinforce, a.Acquire, a.Decline)
    ]
    return Step(_aftermath_text(state, len(found) > 1), laid_out(found, "Choose…"))


def _aftermath_text(state: GameState, choosing: bool) -> str:
    """What the winner's step says: the choice, or why only passing is left."""
    engagement = state.engagement
    aftermath = engagement.aftermath if engagement is not None else None
    if choosing or engagement is None or aftermath is None:
        return "After the engagement:"
    if aftermath.may_summon:
        return NO_DONOR
    if aftermath.may_reinforce:
        return no_recruit(engagement.defender)
    return "Nothing more to do here."
