"""On Discord the bot speaks Discord: every command it names is a slash command, as a
clickable mention with the id of the sync; help lists the slash commands within one
message; a mention with any other word than ``sync`` gets a pointer to them."""

from __future__ import annotations

import logging
import re

import pytest

from bot.dialect import hints
from bot.discord.commands.help import MAX_HELP, TOPICS, help_text
from bot.discord.commands.mentions import leaves, slash_commands
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver, audience, sent_strings
from tests.bot.discord.helpers import (
    ANN,
    CAROL,
    bot_tree,
    command,
    open_game,
    registered,
    settle,
    slash,
)

MENTION = re.compile(r"</([-_a-z ]+):(\d+)>")
PLAIN_NAME = re.compile(r"`/[a-z]")
"""A command named without its id (``/turn move``): the ids were known, so never."""
LARGEST_ID = 2**64 - 1
"""The longest id Discord gives (20 digits)."""


def named_rightly(fake, text: str) -> list[str]:
    """What is wrong with how ``text`` names commands: a hint left in the terminal's words, a
    plain name, or a mention of a command or id the sync did not register."""
    ids = registered(fake)
    wrong = [f"a bare command {h} in {text!r}" for h in hints(text)]
    if PLAIN_NAME.search(text):
        wrong.append(f"a plain name in {text!r}")
    for name, id_ in MENTION.findall(text):
        if ids.get(name.split()[0]) != int(id_):
            wrong.append(f"{name}:{id_} is not a registered command")
    return wrong


async def test_the_lobby_tells_players_which_slash_commands_to_use(fake, titan):
    opened = await command(fake, ANN, "titan", "new", players=2)
    [news] = fake.public(opened)
    join, start = slash(fake, "titan join"), slash(fake, "titan start")
    assert f"Take a seat with {join}; the host starts the game with {start}." in news.content
    early = await command(fake, ANN, "titan", "start")
    assert f"others take a seat with {join}" in fake.ephemeral(early)[0].content
    assert named_rightly(fake, news.content) == []


async def test_a_whole_game_names_every_command_as_a_slash_command(fake, titan):
    """Every message any player receives in a whole game (the channel's news, the waiting
    lines and their tasks, answers, refusals, DMs) names commands only by mention."""
    await open_game(fake)
    driver = Driver(fake, titan, seed=11)
    wrong: list[str] = []
    waiting = 0
    while (step := await driver.step()) is not None:
        for request in step.requests:
            if audience(fake, request) is None:
                continue
            for text in sent_strings(request):
                wrong += named_rightly(fake, text)
                for line in re.findall(r"Waiting for \*\*.+", text):
                    waiting += 1
                    if MENTION.search(line) is None:
                        wrong.append(f"a waiting line naming no command: {line!r}")
        assert not wrong, "\n".join(wrong[:10])
    assert waiting > 100
    assert (await driver.state()) is None  # the game is over


async def test_help_lists_the_slash_commands_by_topic(fake, titan):
    overview = await command(fake, CAROL, "titan", "help")
    [answer] = fake.sent_for(overview)
    assert answer.ephemeral and answer.content.startswith("**TITAN** is played with slash")
    assert slash(fake, "titan join") in answer.content and slash(fake, "done") in answer.content
    battle = await command(fake, CAROL, "titan", "help", topic="battle")
    [answer] = fake.sent_for(battle)
    lines = answer.content.splitlines()
    assert lines[0].startswith("**Battles**")
    strike = slash(fake, "battle strike")
    assert f"{strike} — Strike an enemy in contact (or strike back)" in lines
    assert len(lines) == 1 + len(TOPICS["battle"].commands)
    assert all(named_rightly(fake, line) == [] for line in lines)


@pytest.mark.parametrize("topic", [None, *TOPICS])
@pytest.mark.parametrize("ids", [True, False])
def test_every_help_page_fits_one_message(topic, ids):
    tree = bot_tree()
    top = {c.name: LARGEST_ID for c in tree.get_commands()} if ids else {}
    text = help_text(slash_commands(tree, None, top), topic)
    assert 0 < len(text) <= MAX_HELP


def test_help_covers_every_command_and_names_only_real_ones():
    names = {leaf.qualified_name for leaf in leaves(bot_tree())}
    listed = {name for topic in TOPICS.values() for name in topic.commands}
    assert listed == names
    assert all(set(t.main) <= set(t.commands) for t in TOPICS.values())


async def test_a_mention_with_another_word_gets_a_pointer_and_no_traceback(fake, titan, caplog):
    with caplog.at_level(logging.INFO):
        await fake.mention(ANN, "join")
        await fake.wait_for(lambda: fake.paths("POST", rf"channels/{p.CHANNEL_ID}/messages"))
        await settle(fake, quiet=0.1)
    [reply] = fake.paths("POST", rf"channels/{p.CHANNEL_ID}/messages")
    assert "I answer slash commands" in reply.body["content"]
    assert slash(fake, "titan help") in reply.body["content"]
    assert named_rightly(fake, reply.body["content"]) == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


async def test_a_bare_mention_gets_the_pointer_too_and_sync_stays_the_owners(fake, titan):
    await fake.mention(ANN, "")
    await fake.wait_for(lambda: fake.paths("POST", rf"channels/{p.CHANNEL_ID}/messages"))
    await fake.mention(ANN, "sync")  # not the owner: no answer, no sync
    await settle(fake, quiet=0.1)
    [reply] = fake.paths("POST", rf"channels/{p.CHANNEL_ID}/messages")
    assert "I answer slash commands" in reply.body["content"]
    assert len(fake.paths("PUT", r"commands$")) == 1
