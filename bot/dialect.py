"""How a text names a command to a player: one markup, one rendering per transport.

Every text the service writes (lobby news, the waiting line, refusals, notices) names a
command the way the terminal types it, as a code span, verb first, placeholders in
capitals: `` `join` ``, `` `colour COLOUR` ``, `` `carry D4` ``. That code span *is* the
markup: a code span is a command hint exactly when its words read as a command of the
language (:func:`bot.syntax.parse_command`), so texts written anywhere — the engine's
refusals included — follow one rule, and this module alone decides how hints are shown.

* :data:`TERMINAL` shows a text as it is: the markup is the terminal's own wording.
* :class:`Slash` (Discord) replaces each hint by its slash command: the clickable mention
  ``</turn move:ID>`` (or, before the command's id is known, the plain ``/turn move``),
  followed by the hint's concrete values (`` `D4` ``); placeholders are dropped, since a
  slash command asks for its options by name. A verb with subcommands has a slash command
  for each (``tournament join`` → ``/titan tournament join``), named by both words. A
  verb without a slash command is left as written.

A moment is written as Discord writes a timestamp, ``<t:UNIX:R>`` (:func:`timestamp`):
Discord shows it in each reader's own time zone (``R``: "3 hours ago"), so :class:`Slash`
keeps it, and :data:`TERMINAL` shows the UTC time (``2026-12-01 14:05 UTC``).
:func:`without_hints` gives a text's words with no command hint, for a text read out of
the channel the commands would act in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from bot.syntax import parse_command
from engine.errors import TitanError
from engine.words import plural

HINT = re.compile(r"(?<!\\)`([^`\n]+)(?<!\\)`")
"""A code span (not an escaped backtick): the markup of a command hint."""
_PLACEHOLDER = re.compile(r"[A-Z_]*")
_DECORATION = str.maketrans("", "", "[]…|")
TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::([tTdDfFR]))?>")
"""Discord's markup of a moment: ``<t:UNIX>`` or ``<t:UNIX:STYLE>``."""


def timestamp(moment: datetime | float, style: str = "R") -> str:
    """The markup of ``moment`` (an aware datetime, or seconds since the Unix epoch) in
    ``style`` (``R``: relative, "3 hours ago"; ``f``: date and time)."""
    seconds = moment.timestamp() if isinstance(moment, datetime) else moment
    return f"<t:{int(seconds)}:{style}>"


def utc_time(match: re.Match[str]) -> str:
    """A timestamp's moment as the terminal shows it: ``2026-12-01 14:05 UTC``."""
    try:
        moment = datetime.fromtimestamp(int(match[1]), UTC)
    except (OverflowError, OSError, ValueError):
        return match[0]  # outside the years a datetime holds: left as written
    return moment.strftime("%Y-%m-%d %H:%M UTC")


class Dialect(Protocol):
    """A way of naming commands: it renders the hints of a text."""

    def render(self, text: str) -> str:
        """``text`` with its command hints in this dialect."""
        ...


class Terminal:
    """The terminal's dialect: the hints as they are written, moments in UTC."""

    def render(self, text: str) -> str:
        return TIMESTAMP.sub(utc_time, text)


TERMINAL = Terminal()


def read_hint(span: str) -> tuple[str, tuple[str, ...]] | None:
    """The verb of a code span's command and its concrete values (placeholders left out),
    or None when the span is no command of the language."""
    try:
        command = parse_command(span)
    except TitanError:
        return None
    return command.verb, tuple(w for w in command.words if not is_placeholder(w))


def is_placeholder(word: str) -> bool:
    """Whether ``word`` stands for a value (``COLOUR``, ``[NAME]``, ``CHARACTER…``, ``N``)
    rather than being one (``D4``, ``Bk01``, ``104``, ``Ogre``, ``side``)."""
    return _PLACEHOLDER.fullmatch(word.translate(_DECORATION)) is not None


@dataclass(frozen=True)
class SlashCommand:
    """One slash command: its path (``("turn", "move")``), what it is for, the verb of the
    command language it writes (None: an organiser tool that writes none), and the id
    Discord gave its top-level command (None until known)."""

    path: tuple[str, ...]
    description: str = ""
    verb: str | None = None
    id: int | None = None

    @property
    def name(self) -> str:
        """``turn move``: how Discord names it."""
        return " ".join(self.path)

    def mention(self) -> str:
        """The clickable mention, or the plain name while the id is unknown."""
        return f"</{self.name}:{self.id}>" if self.id is not None else f"`/{self.name}`"


class Slash:
    """Discord's dialect: hints become slash commands.

    ``commands`` come in the tree's order; where two write the same verb (an organiser's
    tool and a player's command), the first named for it wins, so players' commands are
    listed first.
    """

    def __init__(self, commands: Iterable[SlashCommand] = ()) -> None:
        self.commands = tuple(commands)
        self.by_verb: dict[str, SlashCommand] = {}
        for command in self.commands:
            if command.verb is not None:
                self.by_verb.setdefault(command.verb, command)
        self.by_name = {c.name: c for c in self.commands}

    def with_ids(self, ids: Mapping[str, int]) -> Slash:
        """The same commands with the ids of their top-level commands (by name)."""
        return Slash(tuple(_with_id(c, ids.get(c.path[0])) for c in self.commands))

    def mention(self, name: str) -> str:
        """The mention of the command called ``name`` (``turn move``)."""
        return self.by_name[name].mention()

    def render(self, text: str) -> str:
        return HINT.sub(self._hint, text)  # timestamps stay: Discord shows them

    def _hint(self, match: re.Match[str]) -> str:
        found = read_hint(match[1])
        if found is None:
            return match[0]
        verb, values = found
        # a verb with subcommands (``tournament join NAME``) has a command for each
        command = self.by_verb.get(f"{verb} {values[0].lower()}") if values else None
        if command is not None:
            values = values[1:]
        else:
            command = self.by_verb.get(verb)
        if command is None:
            return match[0]
        shown = " ".join(values)
        return command.mention() + (f" `{shown}`" if shown else "")


def _with_id(command: SlashCommand, id_: int | None) -> SlashCommand:
    return SlashCommand(command.path, command.description, command.verb, id_)


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: its first lines and ``… and N more lines``
    (a rendered text grows: its mentions are longer than the terminal's words). A first line
    too long alone is cut between words, ending in ``…``; a mention is never cut in two."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    room = limit - len(f"\n… and {plural(len(lines), 'more line')}")
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) > room:
            break
        kept.append(line)
    if kept:
        return "\n".join(kept) + f"\n… and {plural(len(lines) - len(kept), 'more line')}"
    head = text[: limit - 1]
    opened = head.rfind("</")
    if opened > head.rfind(">"):
        head = head[:opened]
    return head.rstrip() + "…"


_ASIDE = re.compile(r"(\s?)\(([^()\n]*)\)")
"""A parenthesis: the place of a task's hints (``move (rolled 4; `move LEGION LAND`)``)."""
_THEN = re.compile(r",?\s+then\s+(" + HINT.pattern + ")")
"""A closing hint: ``…, then `done```."""


def without_hints(text: str) -> str:
    """``text``'s words without its command hints, for a reader out of the channel the
    commands would act in: parentheses holding hints lose them (and go when nothing is
    left), a closing ``then `done``` goes, and a hint within the words becomes its plain
    words (`` `accept` it `` → ``accept it``). Code spans that are no command stay."""
    text = _ASIDE.sub(_aside, text)
    text = _THEN.sub(lambda m: "" if hints(m[1]) else m[0], text)
    return HINT.sub(_plain, text)


def _aside(match: re.Match[str]) -> str:
    kept = [part.strip() for part in match[2].split(";") if not hints(part)]
    return f"{match[1]}({'; '.join(kept)})" if kept else ""


def _plain(match: re.Match[str]) -> str:
    found = read_hint(match[1])
    return " ".join((found[0], *found[1])) if found is not None else match[0]


def hints(text: str) -> list[str]:
    """The command hints (code spans naming a command) left in ``text``."""
    return [m[0] for m in HINT.finditer(text) if read_hint(m[1]) is not None]
