"""The fake Discord's guilds and their channels: categories and text channels made
through the API, their permission overwrites, who may do what in them, and the members of
private threads (see :mod:`tests.bot.discord.fake`).

Each guild has its @everyone role (the guild's id) and the bot's own role; the bot's role
gives it the same permissions in every guild (:attr:`World.role_permissions`).
Every user is a member of every guild (the fake keeps no member lists); ``GET
/guilds/{id}`` and ``GET /guilds/{id}/members/{user}`` answer for any guild the bot is
in, whichever shard carries it, as Discord's REST API does.

Strict like Discord: making a channel needs *Manage Channels* in the guild (else
403/50013), and its overwrites may allow or deny only what the bot itself has in the guild
(an administrator excepted); changing a channel's overwrites needs *Manage Roles* there. A
text channel's name is Discord's normalised form (lowercase, no spaces, ≤ 100 characters):
Discord would silently rename "Heat 2" to "heat-2", and a caller that looks its channel up
by name would then not find it again, so the fake refuses what Discord would rename. A
category holds at most 50 channels, a guild 500. Overwrites are ``{id, type (0 role, 1
member), allow, deny}`` with the bits as strings of digits. A member's permissions in a
channel follow Discord's order: the roles', then @everyone's overwrite, the roles'
overwrites, the member's; without *Send Messages*, no embeds, files, TTS or @everyone. A
private thread is seen only by its members (and whoever has *Manage Threads*); adding a
member needs *Send Messages in Threads*, in a thread not archived.
"""

from __future__ import annotations

import re
from typing import Any

from tests.bot.discord import channels as c
from tests.bot.discord import payloads as p
from tests.bot.discord.limits import Answer, Problems, error, refuse, refuse_if
from tests.bot.discord.records import CATEGORY, DM, PRIVATE_THREAD, TEXT, Channel, Request
from tests.bot.discord.world import World

MAX_NAME, MAX_IN_CATEGORY, MAX_CHANNELS, MAX_OVERWRITES = 100, 50, 500, 100
TEXT_NAME = re.compile(r"^[-_\w]{1,100}$")
ROLE, MEMBER = 0, 1
ALL = (1 << 53) - 1
SEND_TTS, MENTION_EVERYONE = 1 << 12, 1 << 17


# --- who may do what --------------------------------------------------------------------------
def guild_permissions(fake: World, user: int) -> int:
    """What ``user`` may do in the guild: @everyone's, and the bot's role for the bot."""
    found = p.PLAYER | (fake.role_permissions if user == p.BOT_ID else 0)
    return ALL if found & p.ADMINISTRATOR else found


def computed(
    fake: World, overwrites: list[dict[str, Any]], user: int, guild: int = p.GUILD_ID
) -> int:
    """``user``'s permissions in a channel of ``guild`` with ``overwrites``, in Discord's
    order."""
    found = guild_permissions(fake, user)
    if found == ALL:
        return ALL
    roles = {guild} | ({p.bot_role_id(guild)} if user == p.BOT_ID else set())
    by = {(int(o["type"]), int(o["id"])): (int(o["allow"]), int(o["deny"])) for o in overwrites}
    allow, deny = by.get((ROLE, guild), (0, 0))
    found = (found & ~deny) | allow
    allow = deny = 0
    for role in roles - {guild}:
        more, less = by.get((ROLE, role), (0, 0))
        allow, deny = allow | more, deny | less
    found = (found & ~deny) | allow
    allow, deny = by.get((MEMBER, user), (0, 0))
    found = (found & ~deny) | allow
    if not found & p.SEND:  # Discord's implicit permissions: no posting, no extras
        found &= ~(SEND_TTS | MENTION_EVERYONE | p.EMBED_LINKS | p.ATTACH_FILES)
    return found if found & p.VIEW else 0


def member_permissions(fake: World, channel: Channel, user: int) -> int:
    """What ``user`` may do in ``channel``: in a channel a test set up, what @everyone may
    (the bot: what the test set); in a thread, what they may in its parent, unless it is a
    private thread they are not in (nothing then, unless they may manage threads)."""
    if channel.thread and channel.parent is not None:
        found = member_permissions(fake, fake.channels[channel.parent], user)
        if channel.kind == PRIVATE_THREAD and user not in channel.members:
            return found if found & p.MANAGE_THREADS else 0
        return found
    if channel.overwrites is not None:
        return computed(fake, channel.overwrites, user, channel.guild)
    return channel.permissions if user == p.BOT_ID else p.PLAYER


def sees(fake: World, channel: Channel, user: int) -> bool:
    return channel.kind == DM or bool(member_permissions(fake, channel, user) & p.VIEW)


# --- the guilds --------------------------------------------------------------------------------
def _guild(fake: World, gid: str) -> int:
    """The guild ``gid``, or Discord's refusal (10004)."""
    if int(gid) not in fake.guilds:
        refuse(error(404, 10004, "Unknown Guild"))
    return int(gid)


def in_guild(fake: World, guild: int) -> list[Channel]:
    """The categories and text channels of ``guild``."""
    return [x for x in fake.channels.values() if x.kind in (TEXT, CATEGORY) and x.guild == guild]


def get_guild(fake: World, request: Request, gid: str) -> Answer:
    """The guild with its roles (its channels and members have routes of their own)."""
    guild = _guild(fake, gid)
    return 200, p.rest_guild(fake.role_permissions, guild, fake.guilds[guild])


def get_member(fake: World, request: Request, gid: str, uid: str) -> Answer:
    """A member of the guild: the bot with its role, anyone else with none."""
    guild = _guild(fake, gid)
    user = int(uid)
    if user == p.BOT_ID:
        return 200, p.member(user, fake.role_permissions) | {"roles": [str(p.bot_role_id(guild))]}
    return 200, p.member(user)


def guild_channel_json(fake: World, channel: Channel) -> dict[str, Any]:
    """A category or a text channel made through the API, with its overwrites."""
    assert channel.overwrites is not None
    return p.guild_channel(channel.id, channel.kind, channel.name, channel.overwrites,
                           channel.category, channel.guild)  # fmt: skip


def listed(fake: World, request: Request, gid: str) -> Answer:
    """The guild's channels (not its threads), whoever may see them."""
    guild = _guild(fake, gid)
    return 200, [c.channel_json(fake, x) for x in in_guild(fake, guild)]


def create(fake: World, request: Request, gid: str) -> Answer:
    """A new category (type 4) or text channel (type 0), announced as CHANNEL_CREATE."""
    guild = _guild(fake, gid)
    if not guild_permissions(fake, p.BOT_ID) & p.MANAGE_CHANNELS:
        refuse(error(403, 50013, "Missing Permissions"))
    body = request.body if isinstance(request.body, dict) else {}
    kind = body.get("type", TEXT)
    refuse_if(_form(fake, guild, body, kind))
    overwrites = _overwrites_allowed(fake, body.get("permission_overwrites") or [])
    if len(in_guild(fake, guild)) >= MAX_CHANNELS:
        refuse(error(400, 30013, "Maximum number of guild channels reached (500)"))
    parent = int(body["parent_id"]) if body.get("parent_id") is not None else None
    made = Channel(
        fake.next_id(), kind, body["name"], guild, category=parent, overwrites=overwrites
    )
    made.permissions = computed(fake, overwrites, p.BOT_ID, guild)
    fake.channels[made.id] = made
    fake.later("CHANNEL_CREATE", c.channel_json(fake, made))
    return 201, c.channel_json(fake, made)


def _form(fake: World, guild: int, body: dict[str, Any], kind: Any) -> Answer | None:
    problems = Problems()
    if kind not in (TEXT, CATEGORY):
        problems.add(("type",), "BASE_TYPE_CHOICES", "The fake makes types 0 and 4 only.")
    name = body.get("name")
    problems.between(("name",), name, 1, MAX_NAME)
    if kind == TEXT and isinstance(name, str) and not _normalised(name):
        message = "A text channel's name is lowercase, without spaces (Discord would rename it)"
        problems.add(("name",), "CHANNEL_NAME_INVALID", message)
    parent = body.get("parent_id")
    if parent is not None:
        found = fake.channels.get(int(parent)) if str(parent).isdigit() else None
        if found is None or found.kind != CATEGORY or found.guild != guild or kind == CATEGORY:
            problems.add(("parent_id",), "CHANNEL_PARENT_INVALID", "Not a category.")
        elif sum(x.category == found.id for x in fake.channels.values()) >= MAX_IN_CATEGORY:
            message = f"Maximum number of channels in category reached ({MAX_IN_CATEGORY})"
            problems.add(("parent_id",), "CHANNEL_PARENT_MAX_CHANNELS", message)
    _overwrite_form(problems, body.get("permission_overwrites", []), guild)
    return problems.answer()


def _normalised(name: str) -> bool:
    return TEXT_NAME.match(name) is not None and name == name.lower()


def _overwrite_form(problems: Problems, overwrites: Any, guild: int) -> None:
    where = ("permission_overwrites",)
    if overwrites is None:
        return
    if not isinstance(overwrites, list):
        problems.add(where, "LIST_TYPE_CONVERT", "Must be a list.")
        return
    problems.at_most(where, overwrites, MAX_OVERWRITES)
    for i, item in enumerate(overwrites):
        if not isinstance(item, dict):
            problems.add((*where, i), "DICT_TYPE_CONVERT", "Must be an object.")
            continue
        if not str(item.get("id", "")).isdigit():
            problems.add((*where, i, "id"), "NUMBER_TYPE_COERCE", "Must be a snowflake.")
        if item.get("type") not in (ROLE, MEMBER):
            problems.add((*where, i, "type"), "BASE_TYPE_CHOICES", "Must be one of (0, 1).")
        elif item["type"] == ROLE and int(item.get("id") or 0) not in (guild, p.bot_role_id(guild)):
            problems.add((*where, i, "id"), "UNKNOWN_ROLE", "Unknown Role")
        for key in ("allow", "deny"):
            bits = item.get(key, "0")
            if not isinstance(bits, str) or not bits.isdigit():
                problems.add((*where, i, key), "BASE_TYPE_STRING", "Must be a string of digits.")


def _overwrites_allowed(fake: World, overwrites: list[dict[str, Any]]) -> list[Any]:
    """The overwrites as Discord keeps them (bits as strings), refused (50013) when one
    allows or denies what the bot does not have in the guild."""
    mine = guild_permissions(fake, p.BOT_ID)
    kept = []
    for item in overwrites:
        allow, deny = int(item.get("allow", "0")), int(item.get("deny", "0"))
        if (allow | deny) & ~mine:
            refuse(error(403, 50013, "Missing Permissions"))
        kept.append({"id": str(item["id"]), "type": int(item["type"]),
                     "allow": str(allow), "deny": str(deny)})  # fmt: skip
    return kept


def set_overwrites(fake: World, channel: Channel, body: dict[str, Any]) -> None:
    """``PATCH /channels/{id}`` with ``permission_overwrites``: needs *Manage Roles*."""
    c.need(fake, channel, p.MANAGE_ROLES)
    problems = Problems()
    _overwrite_form(problems, body["permission_overwrites"], channel.guild)
    refuse_if(problems.answer())
    channel.overwrites = _overwrites_allowed(fake, body["permission_overwrites"] or [])
    channel.permissions = computed(fake, channel.overwrites, p.BOT_ID, channel.guild)


# --- private threads' members -----------------------------------------------------------------
def add_member(fake: World, request: Request, cid: str, uid: str) -> Answer:
    """Add ``uid`` to a thread (again: nothing changes), as THREAD_MEMBERS_UPDATE."""
    thread = c.known(fake, cid)
    if not thread.thread:
        refuse(error(400, 50024, "Cannot execute action on this channel type"))
    if not sees(fake, thread, p.BOT_ID):
        refuse(error(403, 50001, "Missing Access"))
    c.need(fake, thread, p.SEND_IN_THREADS)
    if thread.archived:
        refuse(error(400, 50083, "Thread is archived"))
    user = p.BOT_ID if uid == "@me" else int(uid)
    if user not in thread.members:
        thread.members.add(user)
        added = {"id": str(thread.id), "user_id": str(user), "join_timestamp": p.STAMP, "flags": 0}
        fake.later("THREAD_MEMBERS_UPDATE", {
            "id": str(thread.id), "guild_id": str(thread.guild),
            "member_count": len(thread.members), "added_members": [added],
        })  # fmt: skip
    return 204, None


def active_threads(fake: World, request: Request, gid: str) -> Answer:
    """The guild's threads not archived that the bot may see, and its own memberships."""
    guild = _guild(fake, gid)
    found = [
        x for x in fake.channels.values()
        if x.thread and x.guild == guild and not x.archived and sees(fake, x, p.BOT_ID)
    ]  # fmt: skip
    members = [
        {"id": str(x.id), "user_id": str(p.BOT_ID), "join_timestamp": p.STAMP, "flags": 0}
        for x in found
        if p.BOT_ID in x.members
    ]
    return 200, {"threads": [c.channel_json(fake, x) for x in found], "members": members}


def patch_channel(fake: World, request: Request, cid: str) -> Answer:
    """``PATCH /channels/{id}``: a text channel's overwrites replaced (with *Manage
    Channels* and *Manage Roles*), then what :func:`channels.patch_channel` changes."""
    channel = c.known(fake, cid)
    body = request.body if isinstance(request.body, dict) else {}
    if channel.kind in (TEXT, CATEGORY) and "permission_overwrites" in body:
        c.need(fake, channel, p.MANAGE_CHANNELS)
        set_overwrites(fake, channel, body)
    return c.patch_channel(fake, request, cid)
