"""What a command is to the service, before it runs: whether it means something in a
channel without a game, whether it stores a change (and so runs in a unit with what it
tells), whether it is an organiser's tool acting on a tournament table's game, and the
refusal of a choice made for an older version of the game."""

from __future__ import annotations

from bot.competition.tabletools import TABLE_TOOLS, Tool
from bot.competition.verbs import is_reading
from bot.records.command import RECORDS
from bot.syntax import Command, VerbKind
from engine.errors import WrongPhase
from engine.game.actions import Action

WITHOUT_GAME = frozenset(
    {
        "new",
        "help",
        "status",
        "creature",
        "land",
        "cancel",
        "mygames",
        "dms",
        "reminders",
        "autostrike",
        "fighton",
        "quiet",
        "away",
        "tournament",
        "ratings",
        "rating",
    }
)
"""Verbs that mean something in a channel without a game; any other verb in a channel
whose game is damaged is answered with the damage notice."""
STALE = (
    "this choice is out of date: the game has moved on since it was offered (the newest "
    "message offers what it waits for now; `status` says it)"
)


class StaleChoice(WrongPhase):
    """A choice made for a version of the game it has moved past."""


def stores(command: Command | Action) -> bool:
    """Whether ``command`` may change something (a lobby step or a game action): it runs in
    a unit, with what it must tell."""
    if isinstance(command, Command):
        if command.verb == "tournament" and is_reading(command.words):
            return False  # standings, the desk, the archive: answered, nothing stored
        return command.kind in (VerbKind.LOBBY, VerbKind.GAME) and command.verb not in RECORDS
    return True


def plays(command: Command | Action) -> bool:
    """Whether ``command`` is a game action: the play handler stores it, checking the game's
    revision as it logs it (:func:`bot.storage.record.store_action`), so the unit needs no
    claim of its own."""
    if isinstance(command, Command):
        return command.kind is VerbKind.GAME and command.verb not in RECORDS
    return True


def table_tool(command: Command | Action) -> Tool | None:
    """The organiser's tool a ``tournament`` command names, when it changes a table's game
    (:mod:`bot.competition.tabletools`)."""
    if not isinstance(command, Command) or command.verb != "tournament" or not command.words:
        return None
    return TABLE_TOOLS.get(command.words[0].lower())
