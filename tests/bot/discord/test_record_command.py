"""``/titan info record`` through the real bot and the fake Discord: refused while the
game is played (no file), then, once the game has ended, the two files of its public
record for whoever asks, the start's commitment and the end's reveal in the channel."""

from __future__ import annotations

import re

from bot.records.check_record import Announced, check_record
from bot.records.public import read_record
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import SEED
from tests.bot.discord.helpers import CAROL, command, open_game

COMMITTED = re.compile(r"Game commitment: `([0-9a-f]{64})`")
DIGESTED = re.compile(r"Record digest: `([0-9a-f]{64})`")


async def test_the_record_is_refused_while_played_and_given_once_ended(fake, titan):
    news = await open_game(fake)
    [announced] = COMMITTED.findall(news.content)
    assert "Dice revealed" not in news.content  # the seed stays secret until the end

    early = await command(fake, CAROL, "titan", "info", "record")
    [refusal] = fake.ephemeral(early)
    assert "game #1 is still being played" in refusal.content and refusal.files == []
    assert fake.public(early) == []

    aborted = await command(fake, CAROL, "titan-admin", "abort", permissions=p.ORGANISER)
    [public] = fake.public(aborted)
    assert f"Dice revealed: seed {SEED}, salt `" in public.content
    [sealed] = DIGESTED.findall(public.content)

    given = await command(fake, CAROL, "titan", "info", "record", game=1)
    [answer] = fake.ephemeral(given)
    assert fake.public(given) == [] and fake.dms_to(CAROL) == []
    assert [name for name, _ in answer.files] == ["titan-record-1.json", "titan-record-1.txt"]
    assert "titanbot verify titan-record-1.json --commitment" in answer.content
    document = read_record(answer.files[0][1])
    assert document["dice"]["commitment"] == announced and document["dice"]["seed"] == str(SEED)
    assert document["result"]["ended"] == "cancelled"
    assert check_record(document, Announced(announced, sealed)).ok
    text = answer.files[1][1].decode()
    assert text.startswith("TITAN, game #1") and text.endswith("The game was cancelled.\n")
