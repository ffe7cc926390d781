"""The command language's table of verbs, shared by the local console and Discord.

A command is a verb and its words (``move Bk01 104 side 3``). Each verb is one entry of
:data:`VERBS`: its kind (a game action, a lobby step or an information request), its
usage line, and for game actions the reader that turns the words into an engine action.
New verbs (the battle's) are one :func:`register` call each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from bot.syntax.words import Args, shown, tokens
from engine.errors import InvalidNotation
from engine.game.actions import Action
from engine.game.state import GameState

ActionReader = Callable[[Args, GameState, int], Action]


class VerbKind(Enum):
    """What a verb does: act in the game, manage the lobby, or only inform."""

    GAME = "game"
    LOBBY = "lobby"
    INFO = "info"


@dataclass(frozen=True)
class Verb:
    """One verb of the language."""

    name: str
    kind: VerbKind
    usage: str
    summary: str
    read: ActionReader | None = None
    """For game verbs: words + state + acting seat → the engine action."""
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Command:
    """A parsed command line: the verb's canonical name and the words after it."""

    verb: str
    words: tuple[str, ...] = ()

    @property
    def kind(self) -> VerbKind:
        return VERBS[self.verb].kind

    def args(self) -> Args:
        """A fresh cursor over the words."""
        return Args(self.verb, self.words, VERBS[self.verb].usage)

    def __str__(self) -> str:
        return " ".join((self.verb, *self.words))


VERBS: dict[str, Verb] = {}
_ALIASES: dict[str, str] = {}


def register(verb: Verb) -> Verb:
    """Add a verb (and its aliases) to the language; a name may be registered once."""
    for name in (verb.name, *verb.aliases):
        if name in _ALIASES and _ALIASES[name] != verb.name:
            raise ValueError(f"the verb {name!r} is taken")
    VERBS[verb.name] = verb
    for name in (verb.name, *verb.aliases):
        _ALIASES[name] = verb.name
    return verb


def parse_command(text: str) -> Command:
    """The command written as ``text``; :class:`InvalidNotation` for an unknown verb."""
    words = tokens(text)
    if not words:
        raise InvalidNotation("empty command: `help` lists the commands")
    name = _ALIASES.get(words[0].lower())
    if name is None:
        raise InvalidNotation(f"unknown command {shown(words[0])}: `help` lists the commands")
    return Command(name, tuple(words[1:]))


def to_action(command: Command, state: GameState, seat: int) -> Action:
    """The engine action a game command asks for ``seat``; raises for a non-game verb."""
    verb = VERBS[command.verb]
    if verb.read is None:
        raise InvalidNotation(f"{command.verb} is not a game action")
    return verb.read(command.args(), state, seat)


def help_text(kind: VerbKind | None = None) -> str:
    """One line per verb: usage and summary."""
    lines = [f"`{v.usage}` — {v.summary}" for v in VERBS.values() if kind is None or v.kind is kind]
    return "\n".join(lines)


#: The topics of ``help TOPIC``: each kind of verb, under its title.
HELP_TOPICS = {"game": VerbKind.GAME, "lobby": VerbKind.LOBBY, "info": VerbKind.INFO}
_TITLES = {VerbKind.GAME: "Game", VerbKind.LOBBY: "Lobby", VerbKind.INFO: "Information"}


def help_overview() -> str:
    """Every verb by name, by topic, and how to see how each is used."""
    lines = []
    for topic, kind in HELP_TOPICS.items():
        names = " ".join(f"`{v.name}`" for v in VERBS.values() if v.kind is kind)
        lines.append(f"**{_TITLES[kind]}** (`help {topic}`): {names}")
    lines.append("`help TOPIC` shows how to use a topic's commands, `help COMMAND` one command.")
    return "\n".join(lines)


def help_topic(word: str) -> str:
    """``help WORD``: a topic's commands with their use, or one command's (any alias)."""
    kind = HELP_TOPICS.get(word.lower())
    if kind is not None:
        return f"**{_TITLES[kind]}**\n{help_text(kind)}"
    name = _ALIASES.get(word.lower())
    if name is None:
        topics = ", ".join(HELP_TOPICS)
        raise InvalidNotation(f"help: {shown(word)} is neither a topic ({topics}) nor a command")
    verb = VERBS[name]
    aliases = f" (also {', '.join(f'`{x}`' for x in verb.aliases)})" if verb.aliases else ""
    return f"`{verb.usage}` — {verb.summary}{aliases}"


_LOBBY = (
    (
        "new",
        "new [players N] [record_keeping] [time_limit [DATE]] [deadline 24h] "
        "[timeout ai|pass|pause] [standin easy|normal|hard] [inactivity] [unrated]",
        "open a game in this channel",
    ),
    ("join", "join [NAME]", "take a seat in the game being formed"),
    ("leave", "leave", "give up your seat before the start"),
    ("add", "add USER [NAME]", "invite another user to a seat (the host)"),
    ("invitation", "invitation accept|refuse", "take or refuse the seat you were invited to"),
    ("addai", "addai [NAME] [level easy|normal|hard]", "seat an AI player (the host)"),
    ("start", "start", "start the game (the host; 2 seats or more)"),
    ("cancel", "cancel [GAME]", "cancel this channel's game (the host), or a damaged one"),
    (
        "settings",
        "settings [deadline 24h] [timeout ai|pass|pause] [standin easy|normal|hard] "
        "[remind 0.5,0.9] [before 1h]",
        "change the game's clock (the host or an organiser)",
    ),
    (
        "force",
        "force",
        "end the wait for the awaited player now, as the deadline would (organisers)",
    ),
    (
        "tournament",
        "tournament create|join|leave|add|close|heat|advance|standings|status|remind|extend|force|"
        "pause|resume|adjudicate|replace|eliminator NAME …",
        "tournaments: sign up, and (organisers) run them",
    ),
    (
        "away",
        "away until DATE [standin ai|@user] | away off",
        "you are away: your clocks stop, or the computer or someone plays for you",
    ),
)
_INFO = (
    (
        "help",
        "help [TOPIC|COMMAND]",
        "the commands by topic, and how to use them",
        ("?", "commands"),
    ),
    ("legions", "legions", "your legions and what is known of the others", ()),
    ("board", "board", "the masterboard", ()),
    ("battle", "battle", "the battle being fought: the battleland and every character", ()),
    ("status", "status", "turn, phase, scores and who must act; once over, the result", ()),
    (
        "mygames",
        "mygames",
        "your open games in every channel, those waiting for you first; your own choices",
        (),
    ),
    ("history", "history [N]", "the last N things that happened", ("log",)),
    ("replay", "replay [GAME]", "a finished game's replay: an animation of the board", ()),
    ("legal", "legal", "every command you may give now", ("moves",)),
    ("creature", "creature NAME", "a character's factors and where it musters", ("character",)),
    ("land", "land NUMBER", "a land: terrain, exits, recruits, legions", ()),
    (
        "choices",
        "choices [KIND [WORD…]]",
        "one step of your decision (split, move, muster, maneuver, strike, …), as clicks give",
        (),
    ),
    ("dms", "dms on|off", "whether I send you private news by direct message", ()),
    ("reminders", "reminders on|off", "whether I remind you that a game waits for you", ()),
    ("quiet", "quiet HH:MM-HH:MM [ZONE]|off", "hours when no reminder wakes you", ()),
    (
        "autostrike",
        "autostrike off|forced|all",
        "which battle strikes I make for you: none, those with no choice, all",
        (),
    ),
    (
        "fighton",
        "fighton on|off",
        "whether I answer your chances to concede in battle with fight on",
        (),
    ),
    ("ratings", "ratings", "the server's rating leaderboard", ()),
    ("rating", "rating [@user]", "a player's rating, finished games and reliability here", ()),
    ("export", "export [GAME]", "organisers: the game's record as a file (every legion)", ()),
    ("games", "games", "organisers: every open game of this server, the stalled first", ()),
    (
        "record",
        "record [GAME]",
        "a finished game's public record (every action and die), to check it",
        (),
    ),
)
for _name, _usage, _summary in _LOBBY:
    register(Verb(_name, VerbKind.LOBBY, _usage, _summary))
for _name, _usage, _summary, _aliases in _INFO:
    register(Verb(_name, VerbKind.INFO, _usage, _summary, aliases=_aliases))
