"""The live message stays readable over a whole long game on the fake Discord.

After every action of a three-player game of more than 700 actions: every message of the
game's channel and threads fits Discord's 2,000 characters and says at most once what the
game waits for, in its last line (no pile of old prompts); the newest ends with the
current prompt (the current player and task) and, once the turns begin, is headed by
where the game stands.
"""

from __future__ import annotations

from bot.narration.describe import waiting_for
from bot.narration.heading import HEAD, WAITING
from engine.game.state import Phase
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Sent
from tests.bot.discord.helpers import ANN, BOB, CAROL
from tests.bot.discord.test_clicking import open_table

SEED = 21
LONG = 700
MOST_STEPS = 4000
LIMIT = 2000


def game_messages(fake: FakeDiscord, archived: bool = True) -> list[Sent]:
    """The bot's public messages in the game's channel and its threads (but those archived,
    where a battle's end was told, unless ``archived``), as they are now."""
    places = {p.CHANNEL_ID} | {t.id for t in fake.threads() if archived or not t.archived}
    return [
        m
        for m in fake.messages.values()
        if m.channel in places and not m.ephemeral and not m.deleted and m.token is None
    ]


async def test_the_live_message_fits_and_ends_with_the_current_prompt_over_a_long_game(fake, titan):
    await open_table(fake, [ANN, BOB, CAROL])
    driver = Driver(fake, titan, seed=SEED)
    steps = cut = 0
    while await driver.step() is not None:
        steps += 1
        assert steps < MOST_STEPS
        game = await titan.bot.service.game_in(p.CHANNEL_ID)
        messages = game_messages(fake)
        assert all(len(m.content) <= LIMIT for m in messages)
        for message in messages:
            lines = message.content.splitlines()
            waiting = [i for i, line in enumerate(lines) if WAITING in line]
            assert waiting in ([], [len(lines) - 1]), message.content
        live = max(game_messages(fake, archived=False), key=lambda m: max(m.id, m.said))
        if game is None:  # over: nothing is waited for any more
            assert WAITING not in live.content, live.content
            continue
        seat, task = waiting_for(game.state)
        prompt = f"{WAITING}{game.name_of(seat)}** to {task}"
        lines = live.content.splitlines()
        assert titan.bot.dialect.render(prompt) in lines[-1], (prompt, lines[-1])
        head = lines[1] if lines[0].startswith("<@") else lines[0]  # pings: a line of their own
        assert head.startswith(HEAD) or game.state.phase is Phase.COLOURS, live.content
        cut += any(line.startswith("… ") and "earlier line" in line for line in lines)
    assert steps >= LONG, f"a game of {steps} actions: choose a seed for a longer one"
    print(f"\n{steps} actions; the live message left earlier lines out {cut} times")
