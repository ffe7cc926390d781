"""Command registration: the payload, skipped when unchanged, the dev guild, the owner."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from bot.discord.sync import OverLimits, Synced, fingerprint, sync_commands
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.helpers import ANN, bot_tree, registered, settle

TREE = {
    "titan": "new join leave invite ai start cancel settings withdraw expire reveal status "
    "mygames board legions dms me tournament ratings history info legal creature land help",
    "turn": "colour split unsplit roll mulligan move takeback muster",
    "battle": "engage flee fight propose accept concede nomore acquire decline maneuver takeback "
    "strike carry rangestrike summon reinforce insist board",
    "titan-admin": "replace remove abort settings force games export",
    "tournament": "create add close heat status archive remind extend force pause resume "
    "adjudicate replace eliminator advance",
}
TOP = ["battle", "done", "titan", "titan-admin", "tournament", "turn"]
GROUPS = ("me", "tournament", "info")


def _options(command: dict) -> dict[str, dict]:
    return {o["name"]: o for o in command.get("options", [])}


def _puts(fake, scope: str = r"commands$") -> list:
    return fake.paths("PUT", rf"applications/\d+/{scope}")


async def test_the_registered_command_tree(fake, titan):
    [put] = _puts(fake)
    commands = {c["name"]: c for c in put.body}
    assert sorted(commands) == TOP
    for name, leaves in TREE.items():
        assert commands[name]["contexts"] == [0]
        assert [o["name"] for o in commands[name]["options"]] == leaves.split()
        kinds = {o["name"]: o["type"] for o in commands[name]["options"]}
        assert all(kind == (2 if leaf in GROUPS else 1) for leaf, kind in kinds.items())
    me = _options(_options(commands["titan"])["me"])
    assert list(me) == ["reminders", "autostrike", "fighton", "rating", "quiet", "away"]
    assert all(o["type"] == 1 for o in me.values())
    info = _options(_options(commands["titan"])["info"])
    assert list(info) == ["record", "replay"]
    assert list(_options(info["record"])) == list(_options(info["replay"])) == ["game"]
    players = [c for name, c in commands.items() if name not in ("titan-admin", "tournament")]
    assert all(c.get("default_member_permissions") is None for c in players)
    done = commands["done"]
    assert done["contexts"] == [0] and list(_options(done)) == ["keep", "confirm"]
    # What may throw something away takes `confirm` (no second look), a boolean.
    battle, turn, titan = (_options(commands[n]) for n in ("battle", "turn", "titan"))
    for leaf in (battle["concede"], battle["accept"], battle["propose"], battle["insist"],
                 turn["roll"], titan["withdraw"], done):  # fmt: skip
        assert _options(leaf)["confirm"]["type"] == 5  # BOOLEAN
        assert not _options(leaf)["confirm"].get("required")
    move = _options(_options(commands["turn"])["move"])
    completed = [name for name, option in move.items() if option.get("autocomplete")]
    assert completed == ["legion", "land", "side", "lord"]
    assert [c["value"] for c in move["teleport"]["choices"]] == ["tower", "titan"]
    admin = commands["titan-admin"]
    assert int(admin["default_member_permissions"]) == p.MANAGE_CHANNELS
    desk = commands["tournament"]
    assert int(desk["default_member_permissions"]) == p.MANAGE_GUILD
    signup = _options(_options(commands["titan"])["tournament"])
    assert list(signup) == ["join", "leave", "standings"]
    assert all(_options(o)["name"].get("autocomplete") for o in signup.values())


async def test_the_bot_names_its_commands_by_the_ids_of_the_sync(fake, titan):
    ids = registered(fake)
    assert titan.bot.dialect.mention("turn move") == f"</turn move:{ids['turn']}>"
    assert titan.bot.dialect.mention("done") == f"</done:{ids['done']}>"


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
    assert sorted(c["name"] for c in put.body) == TOP


async def test_the_owner_forces_a_sync_by_mentioning_the_bot(fake, titan):
    await fake.mention(ANN, "sync")  # not the owner: ignored
    await settle(fake, quiet=0.1)
    assert len(_puts(fake)) == 1 and fake.paths("POST", r"channels/\d+/messages") == []
    await fake.mention(p.OWNER_ID, "sync")
    await fake.wait_for(lambda: fake.paths("POST", r"channels/\d+/messages"))
    assert len(_puts(fake)) == 2
    [reply] = fake.paths("POST", r"channels/\d+/messages")
    assert reply.body["content"] == "Synced 6 commands (global)."


async def test_a_skipped_sync_still_names_the_commands_by_the_ids_of_the_last(fake, tmp_path):
    database = tmp_path / "games.sqlite3"
    first = await start_bot(fake, database)
    mention = first.bot.dialect.mention("battle strike")
    await first.stop()
    again = await start_bot(fake, database)
    try:
        assert again.bot.dialect.mention("battle strike") == mention
        assert mention == f"</battle strike:{registered(fake)['battle']}>"
    finally:
        await again.stop()
    assert len(_puts(fake)) == 1 and fake.paths("GET", r"commands$") == []


def _registered(names: dict[str, int]) -> list[SimpleNamespace]:
    return [SimpleNamespace(name=name, id=id_) for name, id_ in names.items()]


async def test_an_older_sync_file_without_ids_has_them_fetched_once(tmp_path, monkeypatch):
    tree, path = bot_tree(), tmp_path / "games.sqlite3.commands.json"
    path.write_text(json.dumps({"5:global": fingerprint(tree, None)}), encoding="utf-8")
    fetched = []

    async def fetch_commands(*, guild=None):
        fetched.append(guild)
        return _registered({"titan": 41, "done": 42})

    async def sync(*, guild=None):
        raise AssertionError("unchanged commands are not synced")

    monkeypatch.setattr(tree, "fetch_commands", fetch_commands)
    monkeypatch.setattr(tree, "sync", sync)
    for _ in range(2):
        synced = await sync_commands(tree, 5, None, path)
        assert synced == Synced(None, {"titan": 41, "done": 42})
    assert fetched == [None]  # the second time, the ids come from the file


async def test_commands_over_discords_limits_are_not_sent(tmp_path, monkeypatch):
    tree = bot_tree()
    [titan] = [c for c in tree.get_commands() if c.name == "titan"]
    titan.description = "x" * 101

    async def sync(*, guild=None):
        raise AssertionError("Discord would refuse it: not sent")

    monkeypatch.setattr(tree, "sync", sync)
    with pytest.raises(OverLimits, match="/titan: a description of 101 characters"):
        await sync_commands(tree, 5, None, tmp_path / "commands.json")
    assert not (tmp_path / "commands.json").exists()
