"""The command language shared by the local console and Discord (see :mod:`.verbs`).

May import: the engine only (a building block).
"""

from bot.syntax import battle_verbs as _battle_verbs  # noqa: F401  (registers the verbs)
from bot.syntax.game_verbs import DONE_RESOLVERS, FORMATTERS, format_action, formatter, game_verb
from bot.syntax.verbs import (
    VERBS,
    Command,
    Verb,
    VerbKind,
    help_overview,
    help_text,
    help_topic,
    parse_command,
    register,
    to_action,
)
from bot.syntax.words import Args

__all__ = [
    "DONE_RESOLVERS",
    "FORMATTERS",
    "VERBS",
    "Args",
    "Command",
    "Verb",
    "VerbKind",
    "format_action",
    "formatter",
    "game_verb",
    "help_overview",
    "help_text",
    "help_topic",
    "parse_command",
    "register",
    "to_action",
]
