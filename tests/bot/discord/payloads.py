"""Discord JSON objects for the fake Discord: users, members, the guild, interactions."""

from __future__ import annotations

from typing import Any

APP_ID = 700_000_000_000_000_001
BOT_ID = APP_ID
OWNER_ID = 700_000_000_000_000_009
GUILD_ID = 700_000_000_000_000_100
CHANNEL_ID = 700_000_000_000_000_200
STAMP = "2024-01-01T00:00:00.000000+00:00"
UPLOAD_LIMIT = 10 * 1024 * 1024

VIEW, SEND, MANAGE_CHANNELS, COMMANDS = 1 << 10, 1 << 11, 1 << 4, 1 << 31
PLAYER = VIEW | SEND | COMMANDS
ORGANISER = PLAYER | MANAGE_CHANNELS
APP_PERMISSIONS = 117760 | COMMANDS


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


def channel() -> dict[str, Any]:
    return {
        "id": str(CHANNEL_ID),
        "type": 0,
        "guild_id": str(GUILD_ID),
        "name": "titan",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def guild() -> dict[str, Any]:
    everyone = {
        "id": str(GUILD_ID),
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
        "id": str(GUILD_ID),
        "name": "Titan Club",
        "icon": None,
        "owner_id": str(OWNER_ID),
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "features": [],
        "member_count": 1,
        "members": [member(BOT_ID, APP_PERMISSIONS)],
        "channels": [channel()],
        "threads": [],
        "presences": [],
        "voice_states": [],
        "large": False,
        "unavailable": False,
        "joined_at": STAMP,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "system_channel_flags": 0,
    }


def ready(session_gateway: str) -> dict[str, Any]:
    return {
        "v": 10,
        "user": user(BOT_ID) | {"verified": True, "mfa_enabled": False, "flags": 0},
        "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
        "session_id": "fake-session",
        "resume_gateway_url": session_gateway,
        "application": {"id": str(APP_ID), "flags": 0},
        "private_channels": [],
        "relationships": [],
    }


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
    iid: int, token: str, kind: int, uid: int, data: dict[str, Any], permissions: int = PLAYER
) -> dict[str, Any]:
    return {
        "id": str(iid),
        "application_id": str(APP_ID),
        "type": kind,
        "token": token,
        "version": 1,
        "guild_id": str(GUILD_ID),
        "channel_id": str(CHANNEL_ID),
        "channel": channel(),
        "member": member(uid, permissions),
        "app_permissions": str(APP_PERMISSIONS),
        "locale": "en-US",
        "guild_locale": "en-US",
        "attachment_size_limit": UPLOAD_LIMIT,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
        "data": data,
    }
