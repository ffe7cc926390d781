"""``/titan status`` through the real bot and the fake Discord once the channel's game is
over: the result and the final scores, for anyone who asks, with the record command as a
mention (not the channel's "no game" answer)."""

from __future__ import annotations

from tests.bot.discord.helpers import BOB, CAROL, command, open_game, slash


async def test_status_after_the_end_shows_the_result(fake, titan):
    await open_game(fake)
    during = await command(fake, CAROL, "titan", "status")
    [playing] = fake.ephemeral(during)
    assert "is over" not in playing.content

    withdrawn = await command(fake, BOB, "titan", "withdraw", confirm=True)
    assert any("Game over" in m.content for m in fake.public(withdrawn))

    asked = await command(fake, CAROL, "titan", "status")
    [answer] = fake.ephemeral(asked)
    assert fake.public(asked) == []
    lines = answer.content.splitlines()
    assert lines[0].startswith("Game #1 is over (last Titan standing): **Player 11** wins.")
    assert "Final scores:" in lines
    assert any(
        line.strip().startswith("Player 12 (") and line.endswith("withdrew") for line in lines
    )
    assert slash(fake, "titan info record") in answer.content
    assert "There is no game" not in answer.content, answer.content
