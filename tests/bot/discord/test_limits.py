"""The configured limits reach the bot: a user over the command rate is answered politely,
to them alone, while others go on."""

from __future__ import annotations

from bot.config import Limits
from tests.bot.discord.conftest import mistakes, start_bot
from tests.bot.discord.helpers import ANN, BOB, command


async def test_a_user_over_the_rate_is_told_when_to_try_again_and_others_go_on(fake, tmp_path):
    limits = Limits(commands_per_minute=1, command_burst=2)
    running = await start_bot(fake, tmp_path / "games.sqlite3", limits=limits)
    try:
        await command(fake, ANN, "titan", "new", players=2)
        status = await command(fake, ANN, "titan", "status")
        assert "forming" in fake.ephemeral(status)[0].content
        over = await command(fake, ANN, "titan", "cancel")
        [answer] = fake.ephemeral(over)
        assert answer.content.startswith("You are sending commands faster than this bot allows")
        assert "(2 at once, 1 a minute): please try again in" in answer.content
        assert fake.public(over) == []
        joined = await command(fake, BOB, "titan", "join")
        [news] = fake.public(joined)
        assert "takes seat 2 of 2" in news.content  # the game was not cancelled
    finally:
        await running.stop()
    assert mistakes(fake) == []
