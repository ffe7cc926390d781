"""The fake Discord's REST routes, and the rules of interactions and commands (see
:mod:`tests.bot.discord.fake`; the channel routes are in :mod:`tests.bot.discord.channels`).

An interaction is acknowledged once (40060) within 3 s (10062), with a response its kind
allows; its token then lives 15 minutes (follow-ups and edits after it: 401/50027). Every
message, autocomplete answer and command tree is checked by :mod:`tests.bot.discord.limits`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.bot.discord import channels as c
from tests.bot.discord import guild as g
from tests.bot.discord import payloads as p
from tests.bot.discord.gateway import bot_gateway
from tests.bot.discord.limits import (
    Answer,
    Problems,
    Refused,
    check_choices,
    check_commands,
    check_message,
    error,
    refuse,
    refuse_if,
)
from tests.bot.discord.records import ACK_WINDOW, EPHEMERAL, TOKEN_LIFETIME, Pushed, Request, Sent
from tests.bot.discord.world import World

MESSAGE, LOADING, DEFER_UPDATE, UPDATE, CHOICES, MODAL = 4, 5, 6, 7, 8, 9
COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
#: The responses each kind of interaction may be given.
RESPONSES = {
    COMMAND: {MESSAGE, LOADING, MODAL},
    COMPONENT: {MESSAGE, LOADING, DEFER_UPDATE, UPDATE, MODAL},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {MESSAGE, LOADING, DEFER_UPDATE, UPDATE},
}


def route(fake: World, request: Request, auth: str | None) -> Answer:
    """Answer one request: the first route whose pattern matches the method and path."""
    sizes = [len(data) for _, data in request.files]
    if any(size > p.UPLOAD_LIMIT for size in sizes) or sum(sizes) > p.REQUEST_UPLOAD_LIMIT:
        return error(413, 40005, "Request entity too large")
    for method, pattern, handler, authorised in ROUTES:
        found = re.fullmatch(pattern, request.path)
        if method == request.method and found:
            if authorised and auth != f"Bot {fake.token}":
                return error(401, 0, "401: Unauthorized")
            try:
                return handler(fake, request, *found.groups())
            except Refused as refusal:
                return refusal.answer
    return error(404, 0, f"404: Not Found ({request.method} {request.path})")


def _me(fake: World, request: Request) -> Answer:
    return 200, p.user(p.BOT_ID) | {"verified": True, "mfa_enabled": False, "flags": 0}


def _application(fake: World, request: Request) -> Answer:
    return 200, p.application()


def _commands(fake: World, request: Request, app: str, guild: str | None = None) -> Answer:
    """Replace a scope's commands, unless any breaks a limit (then none is changed)."""
    refuse_if(check_commands(request.body))
    made = [
        command | {"id": str(fake.next_id()), "application_id": app, "version": "1"}
        for command in request.body
    ]
    fake.commands[guild or "global"] = made
    return 200, made


def _guild_commands(fake: World, request: Request, app: str, guild: str) -> Answer:
    return _commands(fake, request, app, guild)


def _listed(fake: World, request: Request, app: str, guild: str | None = None) -> Answer:
    return 200, fake.commands.get(guild or "global", [])


def _guild_listed(fake: World, request: Request, app: str, guild: str) -> Answer:
    return _listed(fake, request, app, guild)


# --- interactions -----------------------------------------------------------------------------
def _callback(fake: World, request: Request, iid: str, token: str) -> Answer:
    pushed = fake.interactions.get(int(iid))
    now = fake.now()
    if pushed is None or pushed.token != token or now - pushed.at > ACK_WINDOW:
        refuse(error(404, 10062, "Unknown interaction"))
    if pushed.ack is not None:
        refuse(error(400, 40060, "Interaction has already been acknowledged."))
    kind, data = request.body["type"], request.body.get("data") or {}
    if kind not in RESPONSES.get(pushed.kind, set()):
        problems = Problems()
        message = f"Response type {kind} is invalid for interaction type {pushed.kind}"
        problems.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID", message)
        refuse_if(problems.answer())
    _respond(fake, pushed, request, kind, data)
    pushed.ack, pushed.acked_at = kind, now
    resource: dict[str, Any] = {"type": kind}
    if kind in (MESSAGE, LOADING) and pushed.original is not None:
        resource["message"] = fake.message_json(fake.messages[pushed.original])
    about = {
        "id": iid,
        "type": pushed.kind,
        "response_message_loading": kind == LOADING,
        "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL),
    }
    if pushed.original is not None:
        about["response_message_id"] = str(pushed.original)
    return 200, {"interaction": about, "resource": resource}


def _respond(fake: World, pushed: Pushed, request: Request, kind: int, data: Any) -> None:
    """Carry out an acknowledgement (or refuse it, changing nothing)."""
    if kind == MESSAGE:
        refuse_if(check_message(data, len(request.files), ("data",)))
    if kind in (MESSAGE, UPDATE):
        _may_upload(fake, pushed, request)
    if kind == UPDATE:
        refuse_if(check_message(data, len(request.files), ("data",), creating=False))
        if pushed.message is not None:
            c.edit(fake, fake.messages[pushed.message], data, request.files)
    if kind == CHOICES:
        refuse_if(check_choices(data.get("choices", [])))
        pushed.choices = data.get("choices", [])
    if kind in (MESSAGE, LOADING):
        made = c.create(fake, pushed.channel, data, request.files, pushed.token)
        made.loading = kind == LOADING
        pushed.original = made.id
    elif kind in (DEFER_UPDATE, UPDATE):
        pushed.original = pushed.message


def _may_upload(fake: World, pushed: Pushed, request: Request) -> None:
    """An answer's files need *Attach Files* in the interaction's channel (app_permissions)."""
    if request.files:
        c.need(fake, fake.channels[pushed.channel], p.ATTACH_FILES)


def _live(fake: World, token: str) -> Pushed:
    """The acknowledged interaction of ``token`` whose token has not expired."""
    pushed = fake.interactions.by_token(token)
    if pushed is None:
        refuse(error(404, 10015, "Unknown Webhook"))
    if fake.now() - pushed.at > TOKEN_LIFETIME:
        refuse(error(401, 50027, "Invalid Webhook Token"))
    if pushed.ack is None or pushed.ack == CHOICES:
        refuse(error(404, 10015, "Unknown Webhook"))
    return pushed


def _followup(fake: World, request: Request, app: str, token: str) -> Answer:
    pushed = _live(fake, token)
    refuse_if(check_message(request.body or {}, len(request.files)))
    _may_upload(fake, pushed, request)
    original = fake.messages.get(pushed.original or 0)
    if pushed.ack == LOADING and original is not None and original.loading:
        # Deprecated but real: the first follow-up after a deferred response edits it.
        return c.edit(fake, original, request.body, request.files)
    made = c.create(fake, pushed.channel, request.body, request.files, token)
    return 200, fake.message_json(made)


def _target(fake: World, token: str, mid: str) -> tuple[Pushed, Sent]:
    pushed = _live(fake, token)
    number = pushed.original if mid == "@original" else int(mid)
    message = fake.messages.get(number or 0)
    if message is None or message.deleted:
        refuse(error(404, 10008, "Unknown Message"))
    return pushed, message


def _get(fake: World, request: Request, app: str, token: str, mid: str) -> Answer:
    return 200, fake.message_json(_target(fake, token, mid)[1])


def _patch(fake: World, request: Request, app: str, token: str, mid: str) -> Answer:
    pushed, message = _target(fake, token, mid)
    refuse_if(check_message(request.body or {}, len(request.files), creating=False))
    _may_upload(fake, pushed, request)
    return c.edit(fake, message, request.body, request.files)


def _delete(fake: World, request: Request, app: str, token: str, mid: str) -> Answer:
    _target(fake, token, mid)[1].deleted = True
    return 204, None


Handler = Callable[..., Answer]
MESSAGE_ID = r"(@original|\d+)"
ROUTES: list[tuple[str, str, Handler, bool]] = [
    ("GET", r"users/@me", _me, True),
    ("GET", r"gateway/bot", bot_gateway, True),
    ("GET", r"oauth2/applications/@me", _application, True),
    ("PUT", r"applications/(\d+)/commands", _commands, True),
    ("PUT", r"applications/(\d+)/guilds/(\d+)/commands", _guild_commands, True),
    ("GET", r"applications/(\d+)/commands", _listed, True),
    ("GET", r"applications/(\d+)/guilds/(\d+)/commands", _guild_listed, True),
    ("POST", r"interactions/(\d+)/([^/]+)/callback", _callback, False),
    ("POST", r"webhooks/(\d+)/([^/]+)", _followup, False),
    ("GET", rf"webhooks/(\d+)/([^/]+)/messages/{MESSAGE_ID}", _get, False),
    ("PATCH", rf"webhooks/(\d+)/([^/]+)/messages/{MESSAGE_ID}", _patch, False),
    ("DELETE", rf"webhooks/(\d+)/([^/]+)/messages/{MESSAGE_ID}", _delete, False),
    ("POST", r"users/@me/channels", c.open_dm, True),
    ("GET", r"channels/(\d+)", c.get_channel, True),
    ("PATCH", r"channels/(\d+)", g.patch_channel, True),
    ("POST", r"channels/(\d+)/messages", c.post, True),
    ("GET", r"channels/(\d+)/messages/(\d+)", c.get_message, True),
    ("PATCH", r"channels/(\d+)/messages/(\d+)", c.patch_message, True),
    ("POST", r"channels/(\d+)/messages/(\d+)/threads", c.thread_from_message, True),
    ("POST", r"channels/(\d+)/threads", c.thread_alone, True),
    ("PUT", r"channels/(\d+)/thread-members/(\d+|@me)", g.add_member, True),
    ("GET", r"guilds/(\d+)", g.get_guild, True),
    ("GET", r"guilds/(\d+)/members/(\d+)", g.get_member, True),
    ("GET", r"guilds/(\d+)/channels", g.listed, True),
    ("POST", r"guilds/(\d+)/channels", g.create, True),
    ("GET", r"guilds/(\d+)/threads/active", g.active_threads, True),
]
