"""A tournament table's own place on Discord: a text channel under the heat's category, or
a private thread of a channel the organiser chose.

A table channel lets everyone watch and only its players speak: @everyone may view it
and read its history but not send messages, open threads or add reactions; each player
may send messages (in its battle threads too) and use the bot's commands; the bot keeps
what it needs to tell the game there (view, send, attach files, embed links, read
history, open public threads, manage them and write in them). In a private thread the
players are its members, and only moderators may add others.

Opening a table is idempotent: a channel of that name in that category (a thread of that
name in that channel) is the table's, as when the bot stopped after making it but before
its caller kept the id; its overwrites (members) are then set right. What the bot lacks
is said before anything is asked of Discord: Discord lets a bot allow or deny in an
overwrite only what it has in the server itself, and making channels needs *Manage
Channels* (changing a channel's overwrites *Manage Roles*). The server need not be in
this process's cache (its shard may be another process's): its roles and the bot's
member are then asked of Discord.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final, Literal

import discord

from bot.discord.requests import guarded
from bot.outbox.transport import Refused

TEXT: Final[Literal[0]] = 0
CATEGORY: Final[Literal[4]] = 4
PRIVATE_THREAD: Final[Literal[12]] = 12
ROLE, MEMBER = 0, 1
MAX_NAME = 100
ARCHIVE_AFTER: Final[Literal[10080]] = 10080
"""Minutes of quiet before a table's thread is archived (a week; a post reopens it)."""

EVERYONE_ALLOW = discord.Permissions(view_channel=True, read_message_history=True)
EVERYONE_DENY = discord.Permissions(
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    add_reactions=True,
)
PLAYER_ALLOW = discord.Permissions(
    send_messages=True, send_messages_in_threads=True, use_application_commands=True
)
BOT_ALLOW = discord.Permissions(
    view_channel=True,
    send_messages=True,
    attach_files=True,
    embed_links=True,
    read_message_history=True,
    create_public_threads=True,
    manage_threads=True,
    send_messages_in_threads=True,
)
TABLE_CHANNELS = discord.Permissions(
    discord.Permissions(manage_channels=True).value
    | EVERYONE_ALLOW.value
    | EVERYONE_DENY.value
    | PLAYER_ALLOW.value
    | BOT_ALLOW.value
)
"""What the bot needs in the server to open table channels (an overwrite may allow or
deny only what the bot has there)."""
IN_PARENT = ("view_channel", "create_private_threads", "send_messages_in_threads")
"""What the bot needs in a channel to open private threads there and add players."""


def table_name(name: str) -> str:
    """``name`` as Discord keeps a text channel's: lowercase, dashes for spaces, only
    letters, digits, ``-`` and ``_``, at most 100 characters ("Heat 2 Table 7" →
    ``heat-2-table-7``); raises :class:`Refused` when nothing is left."""
    kept = re.sub(r"[^\w-]+", "", re.sub(r"\s+", "-", name.strip().lower()))
    kept = re.sub(r"-{2,}", "-", kept).strip("-")[:MAX_NAME]
    if not kept:
        raise Refused(f"{name!r} makes no channel name")
    return kept


def permission_names(flags: Iterable[str]) -> str:
    """Discord's names of the permission flags (``manage_channels`` → Manage Channels)."""
    return ", ".join(f.replace("_", " ").title() for f in flags)


def missing(have: discord.Permissions, needed: discord.Permissions) -> list[str]:
    """The flags of ``needed`` that ``have`` lacks (an administrator lacks none)."""
    if have.administrator:
        return []
    return [flag for flag, on in needed if on and not getattr(have, flag)]


def overwrites(guild: int, players: Sequence[int], bot: int) -> list[dict[str, Any]]:
    """A table channel's permission overwrites, as Discord takes them."""

    def one(target: int, kind: int, allow: discord.Permissions, deny: int = 0) -> dict[str, Any]:
        return {"id": str(target), "type": kind, "allow": str(allow.value), "deny": str(deny)}

    found = [one(guild, ROLE, EVERYONE_ALLOW, EVERYONE_DENY.value), one(bot, MEMBER, BOT_ALLOW)]
    return found + [one(p, MEMBER, PLAYER_ALLOW) for p in dict.fromkeys(players) if p != bot]


def _same(found: Sequence[dict[str, Any]], wanted: Sequence[dict[str, Any]]) -> bool:
    def key(items: Sequence[dict[str, Any]]) -> set[tuple[int, int, int, int]]:
        return {(int(o["id"]), int(o["type"]), int(o["allow"]), int(o["deny"])) for o in items}

    return key(found) == key(wanted)


async def _asked(what: str, request: Any) -> Any:
    """One request for a table; a refusal becomes :class:`Refused` naming ``what``."""
    try:
        return await guarded(request)
    except discord.HTTPException as exc:
        raise Refused(f"Discord refused {what} ({exc.code}: {exc.text})") from exc


async def server_permissions(bot: discord.Client, guild: int) -> discord.Permissions:
    """What the bot may do in server ``guild``: from the cache when the server is there,
    else from its roles and the bot's member as Discord gives them. Raises
    :class:`Refused` when the bot is not in that server."""
    if bot.user is None:
        raise Refused("the bot has not logged in")
    here = bot.get_guild(guild)
    if here is not None:
        return here.me.guild_permissions
    try:
        fetched: discord.Guild = await guarded(bot.fetch_guild(guild, with_counts=False))
        me: discord.Member = await guarded(fetched.fetch_member(bot.user.id))
    except (discord.NotFound, discord.Forbidden) as exc:
        raise Refused(f"the bot is not in server {guild} ({exc.code}: {exc.text})") from exc
    except discord.HTTPException as exc:
        raise Refused(f"Discord refused server {guild} ({exc.code}: {exc.text})") from exc
    return me.guild_permissions


async def table_channel(
    bot: discord.Client, guild: int, category: str, name: str, players: Sequence[int]
) -> int:
    """The id of the table's text channel ``name`` in the category ``category`` (both
    made when missing), its overwrites set right."""
    have = await server_permissions(bot, guild)
    if bot.user is None:
        raise Refused("the bot has not logged in")
    lacking = missing(have, TABLE_CHANNELS)
    if lacking:
        raise Refused(f"the bot lacks {permission_names(lacking)} in this server")
    channel, folder = table_name(name), category.strip()[:MAX_NAME]
    if not folder:
        raise Refused("a table's category needs a name")
    wanted = overwrites(guild, players, bot.user.id)
    listed = await _asked("the server's channels", bot.http.get_all_guild_channels(guild))
    made = _find(listed, CATEGORY, folder, None)
    if made is None:
        made = await _asked(
            f"the category {folder!r}", bot.http.create_channel(guild, CATEGORY, name=folder)
        )
    parent = int(made["id"])
    found = _find(listed, TEXT, channel, parent)
    if found is None:
        opened = await _asked(
            f"the channel #{channel}",
            bot.http.create_channel(
                guild, TEXT, name=channel, parent_id=parent, permission_overwrites=wanted
            ),
        )
        return int(opened["id"])
    if not _same(found.get("permission_overwrites") or [], wanted):
        if missing(have, discord.Permissions(manage_roles=True)):
            reason = f"#{channel} exists with other permissions, and the bot lacks Manage Roles"
            raise Refused(f"{reason} to set them right")
        await _asked(
            f"the permissions of #{channel}",
            bot.http.edit_channel(int(found["id"]), permission_overwrites=wanted),
        )
    return int(found["id"])


def _find(
    listed: Sequence[dict[str, Any]], kind: int, name: str, parent: int | None
) -> dict[str, Any] | None:
    """The channel of ``kind`` named ``name`` in ``parent`` (the oldest, if several)."""
    found = [
        c
        for c in listed
        if c.get("type") == kind
        and c.get("name") == name
        and (int(c["parent_id"]) if c.get("parent_id") else None) == parent
    ]
    return min(found, key=lambda c: int(c["id"]), default=None)


async def private_thread(
    bot: discord.Client, guild: int, parent: int, name: str, players: Sequence[int]
) -> int:
    """The id of the table's private thread ``name`` in channel ``parent`` (made when
    missing, only moderators inviting), each player one of its members."""
    thread_name = table_name(name)
    active = await _asked("the server's threads", bot.http.get_active_threads(guild))
    found = [
        t
        for t in active.get("threads", [])
        if t.get("type") == PRIVATE_THREAD
        and t.get("name") == thread_name
        and int(t.get("parent_id") or 0) == parent
    ]
    if found:
        thread = min(found, key=lambda t: int(t["id"]))
        if (thread.get("thread_metadata") or {}).get("invitable", True):
            await _asked(
                f"the thread {thread_name!r}",
                bot.http.edit_channel(int(thread["id"]), invitable=False),
            )
    else:
        thread = await _asked(
            f"the thread {thread_name!r}",
            bot.http.start_thread_without_message(
                parent,
                name=thread_name,
                auto_archive_duration=ARCHIVE_AFTER,
                type=PRIVATE_THREAD,
                invitable=False,
            ),
        )
    number = int(thread["id"])
    for player in dict.fromkeys(players):
        await _asked(
            f"player {player} in the thread {thread_name!r}",
            bot.http.add_user_to_thread(number, player),
        )
    return number
