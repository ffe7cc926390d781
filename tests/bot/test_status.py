"""``status`` tells each reader what the rules let them know: proposals only to the two
engaged players (RULES §5.4)."""

from __future__ import annotations

import random

from bot.context import Place
from bot.narration.table import proposal_text
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from engine.game.state import Stage
from tests.bot.agent import caller, open_game, pick

CHANNEL = 12
HERE = Place(CHANNEL)


async def test_proposals_are_listed_only_to_the_engaged_players(service):
    await open_game(service, CHANNEL, 3)
    rng = random.Random(8)
    for _ in range(5000):
        game = await service.game_in(CHANNEL)
        state = game.state
        seat = to_act(state)
        legal = legal_actions(state, seat)
        engagement = state.engagement
        proposals = [x for x in legal if isinstance(x, a.Propose)]
        if engagement is not None and engagement.proposals:
            break
        if engagement is not None and engagement.stage is Stage.NEGOTIATE and proposals:
            action = proposals[0]
        else:
            action = pick(legal, rng, fighting=True)
        assert not (await service.act(HERE, caller(CHANNEL, seat), action)).error
    else:
        raise AssertionError("no proposal was made")
    owners = {state.legions[m].owner for m in (engagement.attacker, engagement.defender)}
    [first] = engagement.proposals
    terms = f"proposal #1 by the {first.by.value}: {proposal_text(first.proposal)}"
    for reader in range(3):
        text = (await service.submit(HERE, caller(CHANNEL, reader), "status")).ephemeral.text
        assert (terms in text) == (reader in owners), (reader, text)
        assert ("proposal #1" in text) == (reader in owners), (reader, text)
    spectator = (await service.submit(HERE, caller(CHANNEL, 50), "status")).ephemeral.text
    assert "proposal" not in spectator and f"Engagement in {engagement.land}" in spectator
    # Once the battle is chosen the proposals are moot, and no longer listed.
    game = await service.game_in(CHANNEL)
    while game.state.engagement is not None and game.state.engagement.stage is Stage.NEGOTIATE:
        seat = to_act(game.state)
        fight = [
            x for x in legal_actions(game.state, seat) if isinstance(x, a.NoMoreProposals | a.Fight)
        ]
        assert fight, legal_actions(game.state, seat)
        assert not (await service.act(HERE, caller(CHANNEL, seat), fight[0])).error
        game = await service.game_in(CHANNEL)
    assert game.state.engagement is not None and game.state.engagement.stage is Stage.BATTLE
    for reader in owners:
        text = (await service.submit(HERE, caller(CHANNEL, reader), "status")).ephemeral.text
        assert "proposal" not in text and f"Engagement in {engagement.land}" in text, text
