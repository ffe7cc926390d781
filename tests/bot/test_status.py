"""``status`` tells each reader what the rules let them know: proposals only to the two
engaged players (RULES §5.4)."""

from __future__ import annotations

import random

from bot.context import Place
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
    for reader in range(3):
        text = (await service.submit(HERE, caller(CHANNEL, reader), "status")).ephemeral.text
        assert ("proposal #1" in text) == (reader in owners), (reader, text)
    spectator = (await service.submit(HERE, caller(CHANNEL, 50), "status")).ephemeral.text
    assert "proposal" not in spectator and f"Engagement in {engagement.land}" in spectator
