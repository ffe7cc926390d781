"""Nothing said is lost or said twice: the bot killed (SIGKILL) between storing a change and
telling it, then started again against the same fake Discord, tells it exactly once.

The change is an organiser handing a seat over: its news pings the substitute in the
channel and a DM sends them their legions. The fake holds one of those requests — made
but never answered, or not yet made — while the bot's process is killed; the restarted bot
delivers what its outbox still holds, with the same nonces, which the fake (like Discord)
recognises.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.bot.discord import payloads as p
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import ANN, BOB, CAROL, settle

REPO = Path(__file__).resolve().parents[3]
POSTS = r"^channels/700000000000000200/messages$"


async def start(fake: FakeDiscord, database: Path) -> asyncio.subprocess.Process:
    """A bot process, connected and ready."""
    known = len(fake.identified)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.discord.bot_process",
        fake.base, fake.gateway, fake.token, str(database),
        cwd=REPO, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    await fake.wait_for(lambda: len(fake.identified) > known, timeout=20)
    await asyncio.sleep(0.5)  # the guild arrives, the outbox is read
    return process


async def kill(process: asyncio.subprocess.Process) -> None:
    process.send_signal(signal.SIGKILL)
    await process.wait()


def in_channel(fake: FakeDiscord, words: str) -> list[object]:
    return [
        m
        for m in fake.messages.values()
        if m.channel == p.CHANNEL_ID and not m.ephemeral and words in m.content
    ]


async def slash(fake: FakeDiscord, user: int, *path: str, **options: object) -> None:
    permissions = p.ORGANISER if path[0] == "titan-admin" else p.PLAYER
    data = p.command_data(path, options, None)
    await fake.push(2, user, data, permissions=permissions)


async def game_with_a_seat_to_hand_over(fake: FakeDiscord) -> None:
    await slash(fake, ANN, "titan", "new", players=2)
    await fake.wait_for(lambda: in_channel(fake, "opened game"), timeout=10)
    await slash(fake, BOB, "titan", "join")
    await fake.wait_for(lambda: in_channel(fake, "takes seat 2"), timeout=10)
    await slash(fake, ANN, "titan", "start")
    await fake.wait_for(lambda: in_channel(fake, "begins"), timeout=10)
    chooser = in_channel(fake, "begins")[0].notified[0]  # type: ignore[attr-defined]
    await slash(fake, chooser, "turn", "colour", colour="Red")
    await fake.wait_for(lambda: in_channel(fake, "takes Red"), timeout=10)


@pytest.mark.parametrize(
    ("held", "answered"),
    [("post", True), ("post", False), ("dm", True)],
    ids=["post made, never answered", "post not yet made", "DM made, never answered"],
)
async def test_a_killed_bot_tells_what_it_stored_exactly_once_after_a_restart(
    fake, tmp_path, held, answered
):
    database = tmp_path / "games.sqlite3"
    bot = await start(fake, database)
    try:
        await game_with_a_seat_to_hand_over(fake)
        pattern = POSTS if held == "post" else rf"^channels/{fake.dm_channel(CAROL).id}/messages$"
        gate = fake.hold("POST", pattern, answered=answered)
        await slash(fake, ANN, "titan-admin", "replace",
                    player=p.Mention(BOB), substitute=p.Mention(CAROL))  # fmt: skip
        await asyncio.wait_for(gate.arrived.wait(), timeout=10)
        await kill(bot)  # stored, and not (all) told
        gate.release()
        bot = await start(fake, database)
        await fake.wait_for(lambda: fake.dms_to(CAROL), timeout=10)
        await asyncio.sleep(0.5)  # anything said twice would be said by now
    finally:
        await kill(bot)
    [news] = in_channel(fake, "seat over")
    assert CAROL in news.notified  # the ping came, once
    [dm] = fake.dms_to(CAROL)
    assert "Your legions" in dm.content
    assert not [r for r in fake.rejected if not r.injected and r.status >= 400]


RESPONSE = r"^webhooks/\d+/[^/]+/messages/@original$"
"""An edit of an interaction's response (how the bot answers a command)."""


@pytest.mark.parametrize(
    ("answered", "late"),
    [(True, False), (False, True)],
    ids=["answer made, never acknowledged", "answer not made, the token expired meanwhile"],
)
async def test_an_answer_cut_short_by_a_kill_is_shown_once(fake, tmp_path, answered, late):
    """The restarted bot answers again by editing the command's own response, which shows
    the answer once; when the command can no longer be answered, its news go by DM, once."""
    database = tmp_path / "games.sqlite3"
    bot = await start(fake, database)
    try:
        await slash(fake, ANN, "titan", "new", players=2)
        await fake.wait_for(lambda: in_channel(fake, "opened game"), timeout=10)
        await slash(fake, BOB, "titan", "join")
        await fake.wait_for(lambda: in_channel(fake, "takes seat 2"), timeout=10)
        await slash(fake, ANN, "titan", "start")
        await fake.wait_for(lambda: in_channel(fake, "begins"), timeout=10)
        chooser = in_channel(fake, "begins")[0].notified[0]  # type: ignore[attr-defined]
        gate = fake.hold("PATCH", RESPONSE, answered=answered)
        pushed = await fake.slash(chooser, "turn", "colour", colour="Red")
        await asyncio.wait_for(gate.arrived.wait(), timeout=10)
        await kill(bot)  # the answer stored, and sent or not, but not marked delivered
        if late:
            fake.advance(15 * 60 + 1)
        gate.release()
        bot = await start(fake, database)
        if late:
            await fake.wait_for(lambda: fake.dms_to(chooser), timeout=10)
        else:
            await fake.wait_for(lambda: len(fake.paths("PATCH", RESPONSE)) > 1, timeout=10)
        await settle(fake, quiet=0.5)  # anything said twice would be said by now
    finally:
        await kill(bot)
    [response, *others] = [m for m in fake.messages.values() if m.token == pushed.token]
    assert others == [] and response.id == pushed.original and response.ephemeral
    told = [m for m in fake.dms_to(chooser) if "Rd01" in m.content]
    if late:
        assert response.loading  # never answered in place
        assert len(told) == 1, "its news by DM, once"
    else:
        assert "Rd01" in response.content and not response.loading
        assert told == []
