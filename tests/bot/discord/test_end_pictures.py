"""The end of a game in pictures, through the real bot, the real renderer and the fake
Discord: ``/titan info replay`` is refused while the game is played (no file), the
channel's end news carries the final card (with the chart of the scores), and the replay
then answers with an animated GIF of the masterboard."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.pictures import render_with_package
from tests.bot.discord.conftest import mistakes, start_bot
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import BOB, CAROL, command, open_game


async def test_the_end_posts_the_final_card_and_the_replay_answers_once_over(
    fake: FakeDiscord, tmp_path: Path
):
    titan = await start_bot(fake, tmp_path / "games.sqlite3", renderer=render_with_package)
    try:
        news = await open_game(fake)
        assert not any(name.startswith(("final", "replay")) for name, _ in news.files)
        early = await command(fake, CAROL, "titan", "info", "replay")
        [refusal] = fake.ephemeral(early)
        assert "game #1 is not over" in refusal.content and refusal.files == []
        assert fake.public(early) == []

        withdrawn = await command(fake, BOB, "titan", "withdraw", confirm=True)
        [end] = [m for m in fake.public(withdrawn) if "Game over" in m.content]
        [(name, card)] = end.files
        assert name == "final.png"
        with Image.open(io.BytesIO(card)) as image:
            assert image.format == "PNG" and image.width >= 900

        asked = await command(fake, CAROL, "titan", "info", "replay")
        [answer] = fake.ephemeral(asked)
        assert fake.public(asked) == [] and fake.dms_to(CAROL) == []
        assert "The replay of game #1" in answer.content
        [(name, gif)] = answer.files
        assert name == "replay.gif" and len(gif) < 10 * 2**20
        with Image.open(io.BytesIO(gif)) as image:
            assert image.format == "GIF" and image.n_frames >= 1
        assert mistakes(fake) == []
    finally:
        await titan.stop()
