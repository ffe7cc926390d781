"""`/titan invite` on Discord: an invitation with buttons only the invited user can use."""

from __future__ import annotations

from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import ANN, BOB, CAROL, click, command, handled


async def test_the_invited_user_alone_takes_the_seat_and_nobody_is_pinged(fake, titan):
    await command(fake, ANN, "titan", "new", players=3)
    data = p.command_data(("titan", "invite"), {"user": p.Mention(CAROL)}, None)
    invited = await handled(fake, await fake.push(2, ANN, data))
    [invitation] = fake.public(invited)
    assert f"<@{CAROL}>" in invitation.content and invitation.notified == ()
    assert fake.dms_to(CAROL) == []
    accept = next(c for c in invitation.custom_ids() if ":invitation accept:" in c)
    stolen = await click(fake, BOB, invitation, accept)
    [refusal] = fake.sent_for(stolen)
    assert refusal.ephemeral and "no invitation for you" in refusal.content
    taken = await click(fake, CAROL, invitation, accept)
    [news] = fake.public(taken)
    assert "takes seat 2 of 3" in news.content
    # The used choices left the invitation, which now offers the lobby's own.
    verbs = [c.split(":")[2] for c in invitation.custom_ids()]
    assert verbs == ["join", "start"]
    game = await titan.bot.service.game_in(p.CHANNEL_ID)
    assert [s.user for s in game.seats] == [ANN, CAROL]
