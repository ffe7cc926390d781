"""The bot on some of its shards, against the fake Discord: it identifies as its shards
only and gets only their guilds; only the process of shard 0 syncs the commands, the
others name them by the ids Discord gave; the log says which shards a process runs."""

from __future__ import annotations

import logging

import pytest

from bot.discord.client import TitanBot
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import mistakes, start_bot
from tests.bot.discord.helpers import ANN, BOB, command, registered, settle

COMMANDS = r"applications/\d+/commands$"


async def test_a_process_of_shard_0_of_2_identifies_so_and_gets_only_its_guilds(
    fake, tmp_path, caplog
):
    mine = await fake.add_guild("first", shard=(0, 2))  # the game's guild is on shard 1
    caplog.set_level(logging.INFO, logger="bot.discord.client")
    running = await start_bot(fake, tmp_path / "games.sqlite3", shard_count=2, shard_ids=(0,))
    try:
        bot = running.bot
        [identify] = fake.identified
        assert identify["shard"] == [0, 2]
        assert fake.paths("GET", r"^gateway/bot$") == []  # the count was given
        assert [g.id for g in bot.guilds] == [mine.guild]
        assert bot.get_channel(mine.id) is not None and bot.get_channel(p.CHANNEL_ID) is None
        assert bot.shard_count == 2 and sorted(bot.shards) == [0]
        assert any(
            "in 1 guilds on shard 0 of 2 (it syncs the commands)" in r.getMessage()
            for r in caplog.records
        )
        new = await command(fake, ANN, "titan", "new", players=2, channel=mine.id)
        assert new.shards == (0,)
        await command(fake, BOB, "titan", "join", channel=mine.id)
        assert any("takes seat 2" in m.content for m in fake.in_channel(mine.id))
        with pytest.raises(AssertionError, match="no bot connection carries"):
            await fake.slash(ANN, "titan", "status")  # shard 1's guild: not this process's
    finally:
        await running.stop()
    assert len(fake.paths("PUT", COMMANDS)) == 1
    assert mistakes(fake) == []


async def test_with_no_shards_configured_one_process_runs_those_discord_recommends(
    fake, tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger="bot.discord.client")
    running = await start_bot(fake, tmp_path / "games.sqlite3")
    try:
        assert len(fake.paths("GET", r"^gateway/bot$")) == 1
        [identify] = fake.identified
        assert identify["shard"] == [0, 1]
        assert running.bot.syncs_commands and running.bot.shards_text() == "shard 0 of 1"
        assert any("on shard 0 of 1" in r.getMessage() for r in caplog.records)
    finally:
        await running.stop()


async def test_a_process_without_shard_0_does_not_sync_and_names_commands_by_id(
    fake, tmp_path, caplog
):
    zero = await start_bot(fake, tmp_path / "zero" / "games.sqlite3", shard_count=2, shard_ids=(0,))
    await zero.stop()
    ids = registered(fake)
    caplog.set_level(logging.INFO, logger="bot.discord.client")
    one = await start_bot(fake, tmp_path / "one" / "games.sqlite3", shard_count=2, shard_ids=(1,))
    try:
        assert not one.bot.syncs_commands
        assert one.bot.dialect.mention("turn move") == f"</turn move:{ids['turn']}>"
        assert any(
            "on shard 1 of 2 (shard 0's process syncs)" in r.getMessage() for r in caplog.records
        )
    finally:
        await one.stop()
    assert len(fake.paths("PUT", COMMANDS)) == 1  # shard 0's alone
    assert len(fake.paths("GET", COMMANDS)) == 1  # no sync file where shard 1 runs: asked
    assert not (tmp_path / "one" / "games.sqlite3.commands.json").exists()


async def test_a_process_beside_shard_0s_sync_file_reads_the_ids_there(fake, tmp_path):
    database = tmp_path / "games.sqlite3"
    zero = await start_bot(fake, database, shard_count=2, shard_ids=(0,))
    await zero.stop()
    one = await start_bot(fake, database, shard_count=2, shard_ids=(1,))
    try:
        assert one.bot.dialect.mention("done") == f"</done:{registered(fake)['done']}>"
    finally:
        await one.stop()
    assert len(fake.paths("PUT", COMMANDS)) == 1 and fake.paths("GET", COMMANDS) == []


async def test_commands_registered_after_a_process_started_are_named_once_there(
    fake, tmp_path, monkeypatch
):
    monkeypatch.setattr(TitanBot, "name_again_after", (0.05,) * 200)
    one = await start_bot(fake, tmp_path / "one" / "games.sqlite3", shard_count=2, shard_ids=(1,))
    try:
        assert fake.paths("PUT", COMMANDS) == []
        assert one.bot.dialect.mention("turn move") == "`/turn move`"  # nothing registered yet
        zero = await start_bot(
            fake, tmp_path / "zero" / "games.sqlite3", shard_count=2, shard_ids=(0,)
        )
        await zero.stop()
        move = f"</turn move:{registered(fake)['turn']}>"
        await fake.wait_for(lambda: one.bot.dialect.mention("turn move") == move)
        asked = len(fake.paths("GET", COMMANDS))
        await settle(fake, quiet=0.3)
        assert len(fake.paths("GET", COMMANDS)) == asked  # named: no more asking
    finally:
        await one.stop()


async def test_the_owners_sync_is_refused_where_shard_0_is_not_run(fake, tmp_path):
    one = await start_bot(fake, tmp_path / "games.sqlite3", shard_count=2, shard_ids=(1,))
    try:
        await fake.mention(p.OWNER_ID, "sync")
        await fake.wait_for(lambda: fake.paths("POST", r"channels/\d+/messages"))
        [reply] = fake.paths("POST", r"channels/\d+/messages")
        assert reply.body["content"] == (
            "Commands are synced by the process that runs shard 0; this one runs shard 1 of 2."
        )
    finally:
        await one.stop()
    assert fake.paths("PUT", COMMANDS) == []
