"""Discord JSON objects for the fake Discord: users, members, channels, threads, the guild,
interactions; and the permission bits the fake enforces."""

from __future__ import annotations

import math
import time
from typing import Any

APP_ID = 700_000_000_000_000_001
BOT_ID = APP_ID
OWNER_ID = 700_000_000_000_000_009
GUILD_ID = 700_000_000_000_000_100
BOT_ROLE_ID = 700_000_000_000_000_101
CHANNEL_ID = 700_000_000_000_000_200
STAMP = "2024-01-01T00:00:00.000000+00:00"
UPLOAD_LIMIT = 10 * 1024 * 1024
"""Bytes one file may have."""
REQUEST_UPLOAD_LIMIT = 25 * 1024 * 1024
"""Bytes all the files of one request may have."""

VIEW, SEND, MANAGE_CHANNELS, COMMANDS = 1 << 10, 1 << 11, 1 << 4, 1 << 31
ADMINISTRATOR, ADD_REACTIONS, MANAGE_ROLES = 1 << 3, 1 << 6, 1 << 28
MANAGE_GUILD = 1 << 5
EMBED_LINKS, ATTACH_FILES, READ_HISTORY = 1 << 14, 1 << 15, 1 << 16
MANAGE_THREADS, CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS = 1 << 34, 1 << 35, 1 << 36
SEND_IN_THREADS = 1 << 38
PLAYER = VIEW | SEND | COMMANDS
ORGANISER = PLAYER | MANAGE_CHANNELS
TOURNAMENT_ORGANISER = PLAYER | MANAGE_GUILD
"""A member with Manage Server: who may use /tournament by default."""
INVITE = VIEW | SEND | EMBED_LINKS | ATTACH_FILES | READ_HISTORY
INVITE |= CREATE_PUBLIC_THREADS | SEND_IN_THREADS
"""What the README's invite grants the bot (309237763072)."""
APP_PERMISSIONS = INVITE | COMMANDS
"""The bot's permissions in the guild (its role), and in a channel unless a test sets them."""


def user(uid: int) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": f"user{uid % 1000}",
        "global_name": f"Player {uid % 1000}" if uid != BOT_ID else "titanbot",
        "discriminator": "0",
        "avatar": None,
        "bot": uid == BOT_ID,
        "public_flags": 0,
    }


def member(uid: int, permissions: int = PLAYER) -> dict[str, Any]:
    return {
        "user": user(uid),
        "roles": [],
        "joined_at": STAMP,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "nick": None,
        "permissions": str(permissions),
    }


def bot_role_id(guild: int = GUILD_ID) -> int:
    """The id of the bot's own role in ``guild`` (a role's id is unique across guilds: the
    fake keeps the snowflake after a guild's for it)."""
    return BOT_ROLE_ID if guild == GUILD_ID else guild + 1


def text_channel(
    cid: int = CHANNEL_ID,
    name: str = "titan",
    permissions: int = APP_PERMISSIONS,
    role: int = APP_PERMISSIONS,
    guild: int = GUILD_ID,
) -> dict[str, Any]:
    """A text channel of ``guild`` where the bot has ``permissions`` (an overwrite for the
    bot's member says what differs from its ``role``'s)."""
    return guild_channel(cid, 0, name, overwrites(permissions, role), guild=guild)


def guild_channel(
    cid: int,
    kind: int,
    name: str,
    permission_overwrites: list[dict[str, Any]],
    parent: int | None = None,
    guild: int = GUILD_ID,
) -> dict[str, Any]:
    """A channel of ``guild`` (``kind`` 0 text, 4 category) with its overwrites, under the
    category ``parent`` if any."""
    return {
        "id": str(cid),
        "type": kind,
        "guild_id": str(guild),
        "name": name,
        "position": 0,
        "permission_overwrites": permission_overwrites,
        "nsfw": False,
        "parent_id": None if parent is None else str(parent),
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "default_auto_archive_duration": 1440,
    }


def channel() -> dict[str, Any]:
    """The guild's game channel, as it is when a test has changed nothing."""
    return text_channel()


def overwrites(permissions: int, role: int = APP_PERMISSIONS) -> list[dict[str, Any]]:
    """The bot member's overwrite giving it ``permissions`` instead of its ``role``'s."""
    if permissions == role:
        return []
    allow, deny = permissions & ~role, role & ~permissions
    return [{"id": str(BOT_ID), "type": 1, "allow": str(allow), "deny": str(deny)}]


def thread(
    tid: int,
    parent: int,
    name: str,
    *,
    kind: int = 11,
    owner: int = BOT_ID,
    archived: bool = False,
    locked: bool = False,
    auto_archive: int = 1440,
    invitable: bool = True,
    members: int = 1,
    guild: int = GUILD_ID,
) -> dict[str, Any]:
    """A thread (``kind`` 11 public, 12 private: ``invitable`` if its members may add
    others) of the text channel ``parent``, with ``members`` members."""
    metadata: dict[str, Any] = {
        "archived": archived,
        "auto_archive_duration": auto_archive,
        "archive_timestamp": STAMP,
        "locked": locked,
        "create_timestamp": STAMP,
    }
    if kind == 12:
        metadata["invitable"] = invitable
    return {
        "id": str(tid),
        "type": kind,
        "guild_id": str(guild),
        "parent_id": str(parent),
        "owner_id": str(owner),
        "name": name,
        "last_message_id": None,
        "message_count": 0,
        "member_count": members,
        "rate_limit_per_user": 0,
        "flags": 0,
        "total_message_sent": 0,
        "thread_metadata": metadata,
    }


def dm_channel(cid: int, uid: int) -> dict[str, Any]:
    return {"id": str(cid), "type": 1, "recipients": [user(uid)], "last_message_id": None}


def guild(
    channels: list[dict[str, Any]] | None = None,
    threads: list[dict[str, Any]] | None = None,
    role: int = APP_PERMISSIONS,
    gid: int = GUILD_ID,
    name: str = "Titan Club",
) -> dict[str, Any]:
    """GUILD_CREATE's guild ``gid``: its channels (the game channel unless given), active
    threads, the @everyone role and the bot's own role, which gives it ``role`` (by
    default :data:`APP_PERMISSIONS`)."""
    bot = member(BOT_ID, role) | {"roles": [str(bot_role_id(gid))]}
    return rest_guild(role, gid, name) | {
        "member_count": 1,
        "members": [bot],
        "channels": [channel()] if channels is None else channels,
        "threads": threads or [],
        "presences": [],
        "voice_states": [],
        "large": False,
        "unavailable": False,
        "joined_at": STAMP,
    }


def rest_guild(
    role: int = APP_PERMISSIONS, gid: int = GUILD_ID, name: str = "Titan Club"
) -> dict[str, Any]:
    """The guild as ``GET /guilds/{id}`` gives it: no channels, members or threads (those
    come by the gateway, or by their own routes)."""
    mine = bot_role(role, gid)
    everyone = {
        "id": str(gid),
        "name": "@everyone",
        "permissions": str(PLAYER),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(gid),
        "name": name,
        "icon": None,
        "owner_id": str(OWNER_ID),
        "roles": [everyone, mine],
        "emojis": [],
        "stickers": [],
        "features": [],
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "system_channel_flags": 0,
    }


def bot_role(permissions: int = APP_PERMISSIONS, guild: int = GUILD_ID) -> dict[str, Any]:
    """The bot's own role in ``guild``, which gives it ``permissions`` in the whole guild."""
    return {
        "id": str(bot_role_id(guild)),
        "name": "titanbot",
        "permissions": str(permissions),
        "position": 1,
        "color": 0,
        "hoist": False,
        "managed": True,
        "mentionable": False,
        "flags": 0,
        "tags": {"bot_id": str(BOT_ID)},
    }


def guild_message(
    mid: int,
    cid: int,
    uid: int,
    content: str,
    mentions: list[dict[str, Any]],
    guild: int = GUILD_ID,
) -> dict[str, Any]:
    """A message ``uid`` wrote in channel ``cid`` of ``guild`` (as MESSAGE_CREATE has it)."""
    return {
        "id": str(mid),
        "channel_id": str(cid),
        "guild_id": str(guild),
        "author": user(uid),
        "member": {k: v for k, v in member(uid).items() if k != "user"},
        "content": content,
        "timestamp": STAMP,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": mentions,
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }


def rate_limited(
    retry_after: float, scope: str, bucket: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """A 429's body and headers: ``Via`` (without it discord.py takes a 429 for a ban by
    Cloudflare), ``Retry-After`` and the ``X-RateLimit-*`` headers of bucket ``bucket``."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": scope == "global",
    }
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": scope,
    }
    if scope == "global":
        headers["X-RateLimit-Global"] = "true"
    return body, headers


def ready(
    session_gateway: str,
    guilds: list[int] | None = None,
    shard: tuple[int, int] | None = None,
    session: str = "fake-session",
) -> dict[str, Any]:
    """READY: the connection's guilds (unavailable until their GUILD_CREATE; the game's
    guild unless given) and, for a connection identified with one, its ``shard``."""
    found = {
        "v": 10,
        "user": user(BOT_ID) | {"verified": True, "mfa_enabled": False, "flags": 0},
        "guilds": [
            {"id": str(g), "unavailable": True} for g in ([GUILD_ID] if guilds is None else guilds)
        ],
        "session_id": session,
        "resume_gateway_url": session_gateway,
        "application": {"id": str(APP_ID), "flags": 0},
        "private_channels": [],
        "relationships": [],
    }
    if shard is not None:
        found["shard"] = list(shard)
    return found


def application() -> dict[str, Any]:
    return {
        "id": str(APP_ID),
        "name": "titanbot",
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user(OWNER_ID),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "interactions_endpoint_url": None,
    }


def option(name: str, value: object, focused: bool = False) -> dict[str, Any]:
    """A command option: bool → 5, int → 4, :class:`Mention` → 6 (user), else 3 (text)."""
    if isinstance(value, Mention):
        kind, value = 6, str(value.id)
    elif isinstance(value, bool):
        kind = 5
    elif isinstance(value, int):
        kind = 4
    else:
        kind = 3
    found = {"name": name, "type": kind, "value": value}
    return found | {"focused": True} if focused else found


class Mention:
    """A user given to a command's user option."""

    def __init__(self, uid: int) -> None:
        self.id = uid


def command_data(
    path: tuple[str, ...], options: dict[str, object], focus: str | None
) -> dict[str, Any]:
    """``data`` of a slash command interaction: ``("titan", "lobby", "new")`` + options."""
    leaf: list[dict[str, Any]] = [
        option(k, v, k == focus) for k, v in options.items() if v is not None
    ]
    for depth, name in reversed(list(enumerate(path[1:], start=1))):
        kind = 1 if depth == len(path) - 1 else 2
        leaf = [{"name": name, "type": kind, "options": leaf}]
    data: dict[str, Any] = {"id": "1", "name": path[0], "type": 1, "options": leaf}
    users = [v.id for v in options.values() if isinstance(v, Mention)]
    if users:
        data["resolved"] = {
            "users": {str(u): user(u) for u in users},
            "members": {str(u): {k: v for k, v in member(u).items() if k != "user"} for u in users},
        }
    return data


def interaction(
    iid: int,
    token: str,
    kind: int,
    uid: int,
    data: dict[str, Any],
    permissions: int = PLAYER,
    *,
    place: dict[str, Any] | None = None,
    app_permissions: int = APP_PERMISSIONS,
) -> dict[str, Any]:
    """An interaction of ``uid`` (with ``permissions``) in the channel or thread ``place``
    (the game channel unless given; in the guild ``place`` names), where the bot has
    ``app_permissions``."""
    place = channel() if place is None else place
    guild = place.get("guild_id", str(GUILD_ID))
    return {
        "id": str(iid),
        "application_id": str(APP_ID),
        "type": kind,
        "token": token,
        "version": 1,
        "guild_id": guild,
        "channel_id": place["id"],
        "channel": place,
        "member": member(uid, permissions),
        "app_permissions": str(app_permissions),
        "locale": "en-US",
        "guild_locale": "en-US",
        "attachment_size_limit": UPLOAD_LIMIT,
        "entitlements": [],
        "authorizing_integration_owners": {"0": guild},
        "context": 0,
        "data": data,
    }
