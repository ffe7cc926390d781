"""What the players read: a game played by clicks on the fake Discord, told message by message.

``python -m tests.bot.discord.transcript [--players 3] [--steps 60] [--seed 3]`` plays the
first decisions of a game by clicking (as :mod:`tests.bot.discord.test_clicking` does) and
prints, after each decision, every message that was posted or changed: where (the
channel, the battle's thread, someone's private answer, a DM), its text, and its buttons
and menus as they are labelled. A way to read a game as its players read it.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

import discord
import yarl

from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Sent
from tests.bot.discord.helpers import ANN, BOB, CAROL, command

DAVE = 700_000_000_000_000_014
NAMES = {ANN: "Ann", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


def where(fake: FakeDiscord, message: Sent) -> str:
    """Who reads ``message``."""
    dms = {c: u for u, c in fake.dm_channels.items()}
    if message.channel in dms:
        return f"DM to {NAMES.get(dms[message.channel], dms[message.channel])}"
    if message.ephemeral:
        found = fake.interactions.by_token(message.token)
        user = found.user if found is not None else None
        return f"only {NAMES.get(user, user)} sees"
    if message.channel != p.CHANNEL_ID:
        return "battle thread"
    return "channel"


def told(fake: FakeDiscord, message: Sent) -> str:
    """``message`` as text: its words, its pictures, its choices."""
    marks = (" (edited)" if message.edits else "") + (" (deleted)" if message.deleted else "")
    lines = [f"--- [{where(fake, message)}] #{message.id % 100000}{marks}"]
    lines += [f"    {line}" for line in message.content.splitlines()]
    lines += [f"    [picture {name}]" for name, _ in message.files]
    for row in message.components:
        items = []
        for item in row.get("components", []):
            if item.get("type") == 2:
                items.append(f"[{item.get('label')}]")
            else:
                options = ", ".join(o["label"] for o in item.get("options", []))
                items.append(f"<{item.get('placeholder')}: {options}>")
        lines.append("    " + " ".join(items))
    return "\n".join(lines)


async def main(players: int, steps: int, seed: int) -> None:
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.base  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway)
    users = [ANN, BOB, CAROL, DAVE][:players]
    with tempfile.TemporaryDirectory() as folder:
        running = await start_bot(fake, Path(folder) / "games.sqlite3")
        try:
            await command(fake, users[0], "titan", "new", players=players)
            for user in users[1:]:
                await command(fake, user, "titan", "join")
            await command(fake, users[0], "titan", "start")
            driver = Driver(fake, running, seed=seed, clicks_only=True)
            seen: dict[int, tuple[str, int, bool]] = {}
            for number in range(steps):
                step = await driver.step()
                if step is None:
                    break
                clicks = " → ".join(NAMES.get(x.user, "?") + " clicks" for x in step.pushed)
                print(f"\n===== decision {number + 1}: {step.how} ({clicks})")
                for message in sorted(fake.messages.values(), key=lambda m: m.id):
                    state = (message.content, message.edits, message.deleted)
                    if seen.get(message.id) != state and not message.loading:
                        seen[message.id] = state
                        print(told(fake, message))
        finally:
            await running.stop()
            await fake.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.steps, arguments.seed))
