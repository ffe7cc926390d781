"""The application commands: six top-level commands a Titan player finds by their names.

* ``/titan`` — the lobby, the whole game and information (:mod:`.titan`);
* ``/turn`` — a turn on the masterboard (:mod:`.turn`);
* ``/battle`` — engagements and battles (:mod:`.battle`);
* ``/done`` — end a phase or step, or pass a chance (:mod:`.done`);
* ``/titan-admin`` — organiser tools for a channel's game (:mod:`.organiser`);
* ``/tournament`` — the organisers' tournament desk (:mod:`.tournament`; players sign up
  with ``/titan tournament``).

Each top-level command stays within Discord's limits (4,000 characters, 25 subcommands;
:func:`bot.discord.sync.problems` checks them before a sync). Each verb of the command
language has one command (``tournament`` has one per subcommand: ``tournament join``),
recorded in the leaf's ``extras["verb"]``, so a hint naming a verb names its command
(:mod:`.mentions`).

May import: the rest of :mod:`bot.discord` and the layers under it.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.discord.commands.battle import BattleCommands
from bot.discord.commands.done import done_command
from bot.discord.commands.organiser import OrganiserCommands
from bot.discord.commands.titan import TitanCommands
from bot.discord.commands.tournament import TournamentCommands
from bot.discord.commands.turn import TurnCommands

TopLevel = app_commands.Group | app_commands.Command[Any, ..., Any]


def top_level_commands() -> list[TopLevel]:
    """Fresh instances of the top-level commands, for one command tree (players' first)."""
    return [
        TitanCommands(),
        TurnCommands(),
        BattleCommands(),
        done_command(),
        OrganiserCommands(),
        TournamentCommands(),
    ]


__all__ = [
    "BattleCommands",
    "OrganiserCommands",
    "TitanCommands",
    "TournamentCommands",
    "TurnCommands",
    "done_command",
    "top_level_commands",
]
