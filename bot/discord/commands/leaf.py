"""The decorator of every leaf command: its description and the verb it writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from discord import app_commands
from discord.app_commands.commands import CommandCallback

Leaf = app_commands.Command[Any, ..., Any]


def command(
    verb: str | None, description: str, *, name: str | None = None
) -> Callable[[CommandCallback[Any, ..., Any]], Leaf]:
    """A slash command described by ``description`` that writes the command-language verb
    ``verb`` (kept in ``extras["verb"]``; None for an organiser tool that writes none), so
    that a hint naming the verb can name the command (:mod:`bot.dialect`)."""
    extras = {"verb": verb}
    if name is None:
        return app_commands.command(description=description, extras=extras)
    return app_commands.command(name=name, description=description, extras=extras)
