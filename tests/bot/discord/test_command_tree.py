"""The bot's command tree as discord.py serialises it for a sync, against Discord's limits,
and the verbs its commands write (offline: no fake Discord needed)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.discord.commands.mentions import leaves, slash_commands
from bot.discord.sync import MAX_CHARACTERS, payload, problems, size
from bot.syntax import VERBS
from tests.bot.discord.helpers import bot_tree

WITHOUT_COMMAND = {"invitation", "choices"}
"""Verbs given by buttons only: an invitation's answer, a private step's choices."""
ORGANISER_TOOLS = {"titan-admin replace", "titan-admin remove"}
"""Organiser commands that write no command of the language."""
TOURNAMENT = (
    "join leave standings create add close heat status archive remind extend force pause"
    " resume adjudicate replace eliminator advance"
)
"""The subcommands of ``tournament``, each its own slash command."""


def test_the_commands_break_none_of_discords_limits():
    commands = payload(bot_tree(), None)
    assert problems(commands) == []
    names = [c["name"] for c in commands]
    assert names == ["titan", "turn", "battle", "done", "titan-admin", "tournament"]
    for command in commands:
        assert size(command) <= MAX_CHARACTERS


def _everything(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [item, *(x for o in item.get("options", []) for x in _everything(o))]


def test_every_command_and_option_is_described():
    for command in payload(bot_tree(), None):
        for item in _everything(command):
            assert item["description"] not in ("", "…"), item["name"]


def test_every_leaf_records_the_verb_it_writes_and_each_verb_has_one_command():
    found: dict[str | None, list[str]] = {}
    for leaf in leaves(bot_tree()):
        assert "verb" in leaf.extras, leaf.qualified_name
        found.setdefault(leaf.extras["verb"], []).append(leaf.qualified_name)
    assert sorted(found.pop(None)) == sorted(ORGANISER_TOOLS)
    assert found.pop("cancel") == ["titan cancel", "titan-admin abort"]  # players' first
    assert found.pop("settings") == ["titan settings", "titan-admin settings"]
    assert found.pop("export") == ["titan-admin export"]
    assert all(len(names) == 1 for names in found.values()), found
    subcommands = {verb for verb in found if " " in verb}  # tournament join, … create
    assert {verb.split()[0] for verb in subcommands} == {"tournament"}
    assert sorted(s.split()[1] for s in subcommands) == sorted(TOURNAMENT.split())
    verbs = {verb for verb in found if verb not in subcommands} | {"tournament"}
    assert verbs | {"cancel", "settings", "export"} | WITHOUT_COMMAND == set(VERBS)


def test_the_dialect_names_each_verb_by_its_players_command():
    dialect = slash_commands(bot_tree(), None, {"titan": 7, "battle": 8, "done": 9})
    assert dialect.by_verb["cancel"].name == "titan cancel"
    assert dialect.by_verb["undo"].mention() == "</battle takeback:8>"
    assert dialect.by_verb["done"].mention() == "</done:9>"
    assert dialect.by_verb["move"].mention() == "`/turn move`"  # no id known for /turn


def _command(name: str = "titan", **fields: Any) -> dict[str, Any]:
    return {"name": name, "description": "Play", "type": 1, "options": [], **fields}


def _option(name: str, required: bool = False, **fields: Any) -> dict[str, Any]:
    return {"name": name, "description": "an option", "type": 3, "required": required, **fields}


def _broken(command: dict[str, Any], path: list[str | int], key: str, value: Any) -> dict:
    broken = copy.deepcopy(command)
    item: Any = broken
    for step in path:
        item = item["options"][step] if isinstance(step, int) else item[step]
    item[key] = value
    return broken


GOOD = _command(options=[_option("legion", required=True), _option("side")])


@pytest.mark.parametrize(
    ("path", "key", "value", "said"),
    [
        ([], "name", "Titan", "lowercase"),
        ([0], "name", "a" * 33, "1–32"),
        ([0], "name", "two words", "1–32"),
        ([], "description", "d" * 101, "description of 101"),
        ([1], "description", "", "description of 0"),
        ([1], "description", "…", "no description"),
        ([], "options", [_option(f"o{i}") for i in range(26)], "26 options"),
        ([1], "choices", [{"name": str(i), "value": str(i)} for i in range(26)], "26 choices"),
        ([], "options", [_option("side"), _option("legion", required=True)], "optional option"),
        ([], "options", [_option("side"), _option("side")], "two options have one name"),
    ],
)
def test_the_limit_check_finds_each_broken_limit(path, key, value, said):
    assert problems([GOOD]) == []
    found = problems([_broken(GOOD, path, key, value)])
    assert len(found) >= 1 and any(said in problem for problem in found), found


def test_the_combined_characters_count_names_descriptions_and_choices_recursively():
    choices = [{"name": "tower", "value": "tower"}, {"name": "titan", "value": 12}]
    option = _option("teleport", choices=choices)  # 8 + 9 + 10 + 5 + 2 = 34 characters
    sub = _command("move", options=[option], description="Move it")  # 4 + 7
    command = _command("turn", options=[sub], description="Turn")  # 4 + 4
    assert size(command) == 34 + 11 + 8
    sub = _command("sub", description="y" * 100, options=[_option("o", description="z" * 100)])
    wide = _command("turn", options=[sub | {"name": f"s{i:02d}"} for i in range(20)])
    assert size(wide) == 8 + 20 * (3 + 100 + 1 + 100) > MAX_CHARACTERS
    assert any("characters, more than 4000" in p for p in problems([wide]))
    assert any("more than 100" in p for p in problems([_command(f"c{i}") for i in range(101)]))
