"""``/titan help``: the slash commands as clickable mentions, by topic, within one message.

The overview names each topic's main commands; a topic lists every command of it with its
one-line description (the one Discord shows). Both are built from the live command tree
(:class:`~bot.dialect.Slash`), so they name the commands as registered, with their ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.dialect import Slash

MAX_HELP = 2000
"""One Discord message."""


@dataclass(frozen=True)
class Topic:
    """A group of commands: its title, what it is for, its commands (by name) and the
    few the overview names."""

    title: str
    purpose: str
    commands: tuple[str, ...]
    main: tuple[str, ...]


TOPICS: dict[str, Topic] = {
    "lobby": Topic(
        "Lobby and the whole game",
        "open a game, take seats, start; leave it, or withdraw later",
        (
            "titan new",
            "titan join",
            "titan leave",
            "titan invite",
            "titan ai",
            "titan start",
            "titan cancel",
            "titan settings",
            "titan withdraw",
            "titan expire",
        ),
        ("titan new", "titan join", "titan start"),
    ),
    "turn": Topic(
        "Your turn",
        "colour, split, roll, move and muster on the masterboard",
        (
            "turn colour",
            "turn split",
            "turn unsplit",
            "turn roll",
            "turn mulligan",
            "turn move",
            "turn takeback",
            "turn muster",
            "done",
        ),
        ("turn split", "turn roll", "turn move", "turn muster", "done"),
    ),
    "engagement": Topic(
        "Engagements",
        "choose the next one, flee, negotiate or fight; what follows a battle",
        (
            "battle engage",
            "battle flee",
            "battle propose",
            "battle accept",
            "battle nomore",
            "battle concede",
            "battle fight",
            "battle acquire",
            "battle decline",
        ),
        ("battle engage", "battle flee", "battle propose", "battle fight"),
    ),
    "battle": Topic(
        "Battles",
        "maneuver, strike and rangestrike on the battleland",
        (
            "battle maneuver",
            "battle takeback",
            "battle strike",
            "battle carry",
            "battle rangestrike",
            "battle summon",
            "battle reinforce",
            "battle concede",
            "battle accept",
            "battle insist",
            "battle decline",
            "battle board",
            "done",
        ),
        ("battle maneuver", "battle strike", "battle rangestrike", "done"),
    ),
    "information": Topic(
        "Information",
        "only you see the answers",
        (
            "titan status",
            "titan mygames",
            "titan board",
            "titan legions",
            "titan dms",
            "titan me reminders",
            "titan me quiet",
            "titan me autostrike",
            "titan me fighton",
            "titan me away",
            "titan history",
            "titan info record",
            "titan info replay",
            "titan legal",
            "titan creature",
            "titan land",
            "titan reveal",
            "titan help",
        ),
        ("titan status", "titan mygames", "titan board", "titan legions", "titan legal"),
    ),
    "tournament": Topic(
        "Tournaments",
        "sign up and see the standings; organisers (Manage Server) run them",
        (
            "titan tournament join",
            "titan tournament leave",
            "titan tournament standings",
            "titan ratings",
            "titan me rating",
            "tournament create",
            "tournament add",
            "tournament close",
            "tournament heat",
            "tournament status",
            "tournament archive",
            "tournament remind",
            "tournament extend",
            "tournament force",
            "tournament pause",
            "tournament resume",
            "tournament adjudicate",
            "tournament replace",
            "tournament eliminator",
            "tournament advance",
        ),
        ("titan tournament join", "titan tournament standings", "titan ratings"),
    ),
    "organiser": Topic(
        "Organisers",
        "for Manage Channels, or whom the server allows",
        (
            "titan-admin replace",
            "titan-admin remove",
            "titan-admin abort",
            "titan-admin settings",
            "titan-admin force",
            "titan-admin games",
            "titan-admin export",
        ),
        ("titan-admin replace", "titan-admin abort"),
    ),
}


def help_text(commands: Slash, topic: str | None = None) -> str:
    """The overview (``topic`` None) or one topic's commands, named as ``commands`` has
    them; raises :class:`KeyError` for an unknown topic."""
    if topic is None:
        return overview(commands)
    chosen = TOPICS[topic]
    lines = [f"**{chosen.title}** — {chosen.purpose}"]
    for name in chosen.commands:
        command = commands.by_name.get(name)
        if command is not None:
            lines.append(f"{command.mention()} — {command.description}")
    return "\n".join(lines)


def overview(commands: Slash) -> str:
    """Each topic's main commands, and how to see a topic's every command."""
    lines = ["**TITAN** is played with slash commands: click one, or type `/` to see them all."]
    for topic in TOPICS.values():
        named = [commands.by_name[n].mention() for n in topic.main if n in commands.by_name]
        lines.append(f"**{topic.title}** ({topic.purpose}): " + ", ".join(named))
    helper = commands.by_name.get("titan help")
    where = helper.mention() if helper is not None else "`/titan help`"
    lines.append(f"Every command of a topic: {where} with a topic (" + ", ".join(TOPICS) + ").")
    return "\n".join(lines)
