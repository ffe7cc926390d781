"""The fake Discord's REST routes and their rules (see :mod:`tests.bot.discord.fake`)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tests.bot.discord import payloads as p
from tests.bot.discord.records import ACK_WINDOW, EPHEMERAL, Pushed, Request, Sent

if TYPE_CHECKING:
    from tests.bot.discord.fake import FakeDiscord

Answer = tuple[int, Any]
LOADING, DEFER_UPDATE = 5, 6


def error(status: int, code: int, message: str) -> Answer:
    return status, {"code": code, "message": message}


def route(fake: FakeDiscord, request: Request, auth: str | None) -> Answer:
    """Answer one request: the first route whose pattern matches the method and path."""
    if any(len(data) > p.UPLOAD_LIMIT for _, data in request.files):
        return error(413, 40005, "Request entity too large")
    for method, pattern, handler, authorised in ROUTES:
        found = re.fullmatch(pattern, request.path)
        if method == request.method and found:
            if authorised and auth != f"Bot {fake.token}":
                return error(401, 0, "401: Unauthorized")
            return handler(fake, request, *found.groups())
    return error(404, 0, f"404: Not Found ({request.method} {request.path})")


def _me(fake: FakeDiscord, request: Request) -> Answer:
    return 200, p.user(p.BOT_ID) | {"verified": True, "mfa_enabled": False, "flags": 0}


def _application(fake: FakeDiscord, request: Request) -> Answer:
    return 200, p.application()


def _commands(fake: FakeDiscord, request: Request, app: str, guild: str | None = None) -> Answer:
    scope = guild or "global"
    fake.commands[scope] = request.body
    made = [
        command | {"id": str(fake.next_id()), "application_id": app, "version": "1"}
        for command in request.body
    ]
    return 200, made


def _guild_commands(fake: FakeDiscord, request: Request, app: str, guild: str) -> Answer:
    return _commands(fake, request, app, guild)


def _interaction(fake: FakeDiscord, iid: str, token: str) -> Pushed | None:
    pushed = fake.interactions.get(int(iid))
    return pushed if pushed is not None and pushed.token == token else None


def _callback(fake: FakeDiscord, request: Request, iid: str, token: str) -> Answer:
    pushed = _interaction(fake, iid, token)
    now = time.monotonic()
    if pushed is None or now - pushed.at > ACK_WINDOW:
        return error(404, 10062, "Unknown interaction")
    if pushed.ack is not None:
        return error(400, 40060, "Interaction has already been acknowledged.")
    kind, data = request.body["type"], request.body.get("data") or {}
    pushed.ack, pushed.acked_at = kind, now
    resource: dict[str, Any] = {"type": kind}
    if kind in (4, LOADING):
        made = _create(fake, p.CHANNEL_ID, data, request.files, pushed.token)
        made.loading = kind == LOADING
        pushed.original = made.id
        resource["message"] = fake.message_json(made)
    elif kind in (DEFER_UPDATE, 7):
        pushed.original = pushed.message
        if kind == 7 and pushed.message is not None:
            _edit(fake.messages[pushed.message], data, request.files)
    elif kind == 8:
        pushed.choices = data.get("choices", [])
    flags = data.get("flags", 0)
    about = {
        "id": iid,
        "type": pushed.kind,
        "response_message_loading": kind == LOADING,
        "response_message_ephemeral": bool(flags & EPHEMERAL),
    }
    if pushed.original is not None:
        about["response_message_id"] = str(pushed.original)
    return 200, {"interaction": about, "resource": resource}


def _by_token(fake: FakeDiscord, token: str) -> Pushed | None:
    return next((i for i in fake.interactions.values() if i.token == token), None)


def _followup(fake: FakeDiscord, request: Request, app: str, token: str) -> Answer:
    pushed = _by_token(fake, token)
    if pushed is None or pushed.ack is None or pushed.ack == 8:
        return error(404, 10015, "Unknown Webhook")
    original = fake.messages.get(pushed.original or 0)
    if pushed.ack == LOADING and original is not None and original.loading:
        # Deprecated but real: the first follow-up after a deferred response edits it.
        _edit(original, request.body, request.files)
        return 200, fake.message_json(original)
    made = _create(fake, p.CHANNEL_ID, request.body, request.files, token)
    return 200, fake.message_json(made)


def _target(fake: FakeDiscord, token: str, mid: str) -> Sent | None:
    pushed = _by_token(fake, token)
    if pushed is None or pushed.ack is None:
        return None
    number = pushed.original if mid == "@original" else int(mid)
    message = fake.messages.get(number or 0)
    return message if message is not None and not message.deleted else None


def _patch(fake: FakeDiscord, request: Request, app: str, token: str, mid: str) -> Answer:
    message = _target(fake, token, mid)
    if message is None:
        return error(404, 10008, "Unknown Message")
    _edit(message, request.body, request.files)
    return 200, fake.message_json(message)


def _delete(fake: FakeDiscord, request: Request, app: str, token: str, mid: str) -> Answer:
    message = _target(fake, token, mid)
    if message is None:
        return error(404, 10008, "Unknown Message")
    message.deleted = True
    return 204, None


def _open_dm(fake: FakeDiscord, request: Request) -> Answer:
    user = int(request.body["recipient_id"])
    channel = fake.dm_channels.setdefault(user, fake.next_id())
    return 200, {"id": str(channel), "type": 1, "recipients": [p.user(user)]}


def _post(fake: FakeDiscord, request: Request, channel: str) -> Answer:
    number = int(channel)
    recipient = next((u for u, c in fake.dm_channels.items() if c == number), None)
    if recipient is not None and recipient in fake.dms_closed:
        return error(403, 50007, "Cannot send messages to this user")
    if recipient is None and number != p.CHANNEL_ID:
        return error(404, 10003, "Unknown Channel")
    made = _create(fake, number, request.body, request.files, None)
    if recipient is not None:
        made.notified = (recipient,)
    return 200, fake.message_json(made)


def _create(
    fake: FakeDiscord, channel: int, body: Any, files: list[tuple[str, bytes]], token: str | None
) -> Sent:
    body = body or {}
    made = Sent(fake.next_id(), channel, body.get("content") or "", body.get("flags") or 0)
    made.files, made.components, made.token = list(files), body.get("components") or [], token
    made.notified = _notified(made, body.get("allowed_mentions"))
    fake.messages[made.id] = made
    return made


def _notified(message: Sent, allowed: dict[str, Any] | None) -> tuple[int, ...]:
    """Who a new message notifies: mentioned and allowed, unless ephemeral or silent."""
    if message.ephemeral or message.silent:
        return ()
    mentioned = [int(u) for u in re.findall(r"<@!?(\d+)>", message.content)]
    if allowed is None or "users" in allowed.get("parse", []):
        return tuple(mentioned)
    listed = {int(u) for u in allowed.get("users", [])}
    return tuple(u for u in mentioned if u in listed)


def _edit(message: Sent, body: Any, files: list[tuple[str, bytes]]) -> None:
    """Edit a message: an edit never notifies anyone."""
    body = body or {}
    if "content" in body:
        message.content = body["content"] or ""
    if "components" in body:
        message.components = body["components"] or []
    if files:
        message.files = list(files)
    elif body.get("attachments") == []:
        message.files = []
    message.loading = False
    message.edits += 1


Handler = Callable[..., Answer]
ROUTES: list[tuple[str, str, Handler, bool]] = [
    ("GET", r"users/@me", _me, True),
    ("GET", r"oauth2/applications/@me", _application, True),
    ("PUT", r"applications/(\d+)/commands", _commands, True),
    ("PUT", r"applications/(\d+)/guilds/(\d+)/commands", _guild_commands, True),
    ("POST", r"interactions/(\d+)/([^/]+)/callback", _callback, False),
    ("POST", r"webhooks/(\d+)/([^/]+)", _followup, False),
    ("PATCH", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", _patch, False),
    ("DELETE", r"webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", _delete, False),
    ("POST", r"users/@me/channels", _open_dm, True),
    ("POST", r"channels/(\d+)/messages", _post, True),
]
