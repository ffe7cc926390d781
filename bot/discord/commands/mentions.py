"""The Discord dialect built from the command tree: each verb's slash command, with ids.

A leaf command records the command-language verb it writes in ``extras["verb"]``
(:func:`bot.discord.commands.leaf.command`); walking the tree gives each verb its command,
players' commands before the organisers' (so ``cancel`` names ``/titan cancel``, not
``/titan-admin abort``). The ids come from the sync (or from Discord when it was skipped).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.dialect import Slash, SlashCommand


def leaves(
    tree: app_commands.CommandTree[Any], guild: discord.Object | None = None
) -> Iterator[app_commands.Command[Any, ..., Any]]:
    """Every leaf command of a scope, players' commands first."""
    top = sorted(tree.get_commands(guild=guild), key=_for_organisers)
    for command in top:
        if isinstance(command, app_commands.Command):
            yield command
        elif isinstance(command, app_commands.Group):
            yield from (c for c in command.walk_commands() if isinstance(c, app_commands.Command))


def _for_organisers(command: object) -> bool:
    return getattr(command, "default_permissions", None) is not None


def slash_commands(
    tree: app_commands.CommandTree[Any],
    guild: discord.Object | None = None,
    ids: Mapping[str, int] | None = None,
) -> Slash:
    """The dialect naming ``tree``'s commands (of ``guild``'s scope), with the ids of the
    top-level commands (by name) where known."""
    found = [
        SlashCommand(tuple(c.qualified_name.split()), c.description, c.extras.get("verb"))
        for c in leaves(tree, guild)
    ]
    return Slash(found).with_ids(ids or {})
