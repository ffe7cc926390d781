"""Command registration: the payload, skipped when unchanged, the dev guild, the owner."""

from __future__ import annotations

from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.helpers import ANN, settle

GROUPS = {
    "lobby": "new join leave add ai start cancel",
    "turn": "colour split unsplit roll mulligan move takeback done muster",
    "engagement": "engage flee fight propose accept concede nomore acquire decline",
    "battle": "maneuver takeback done strike carry rangestrike summon reinforce decline concede "
    "accept insist",
    "game": "withdraw expire reveal",
    "info": "board battle status history legal creature land help",
}


def _options(command: dict) -> dict[str, dict]:
    return {o["name"]: o for o in command.get("options", [])}


def _puts(fake, scope: str = r"commands$") -> list:
    return fake.paths("PUT", rf"applications/\d+/{scope}")


async def test_the_registered_command_tree(fake, titan):
    [put] = _puts(fake)
    commands = {c["name"]: c for c in put.body}
    assert sorted(commands) == ["titan", "titan-admin"]
    titan_ = commands["titan"]
    assert titan_["contexts"] == [0] and titan_.get("default_member_permissions") is None
    top = _options(titan_)
    assert top["legions"]["type"] == 1
    for group, names in GROUPS.items():
        assert top[group]["type"] == 2
        assert [o["name"] for o in top[group]["options"]] == names.split()
    move = _options(_options(top["turn"])["move"])
    completed = [name for name, option in move.items() if option.get("autocomplete")]
    assert completed == ["legion", "land", "side", "lord"]
    assert [c["value"] for c in move["teleport"]["choices"]] == ["tower", "titan"]
    admin = commands["titan-admin"]
    assert admin["contexts"] == [0]
    assert int(admin["default_member_permissions"]) == p.MANAGE_CHANNELS
    assert sorted(_options(admin)) == ["abort", "export", "remove", "replace"]


async def test_sync_is_skipped_when_the_commands_did_not_change(fake, tmp_path):
    database = tmp_path / "games.sqlite3"
    for _ in range(2):
        running = await start_bot(fake, database)
        await running.stop()
    assert len(_puts(fake)) == 1


async def test_a_dev_guild_gets_the_commands_and_global_sync_is_not_done(fake, tmp_path):
    running = await start_bot(fake, tmp_path / "games.sqlite3", dev_guild=p.GUILD_ID)
    await running.stop()
    assert _puts(fake) == []
    [put] = _puts(fake, rf"guilds/{p.GUILD_ID}/commands$")
    assert sorted(c["name"] for c in put.body) == ["titan", "titan-admin"]


async def test_the_owner_forces_a_sync_by_mentioning_the_bot(fake, titan):
    await fake.mention(ANN, "sync")  # not the owner: ignored
    await settle(fake, quiet=0.1)
    assert len(_puts(fake)) == 1 and fake.paths("POST", r"channels/\d+/messages") == []
    await fake.mention(p.OWNER_ID, "sync")
    await fake.wait_for(lambda: fake.paths("POST", r"channels/\d+/messages"))
    assert len(_puts(fake)) == 2
    [reply] = fake.paths("POST", r"channels/\d+/messages")
    assert reply.body["content"] == "Synced 2 commands (global)."
