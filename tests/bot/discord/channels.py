"""The fake Discord's channels: messages posted, read and edited, DMs, threads, and the
bot's permissions in each (see :mod:`tests.bot.discord.fake`).

A text channel's permissions for the bot are set by a test (or follow from the overwrites
it was made with, see :mod:`tests.bot.discord.guild`); a thread has its parent's. A
post needs *View Channel* (else 403/50001) and *Send Messages* (*Send Messages in
Threads* in a thread), an upload *Attach Files*, a thread *Create Public* (or *Private*)
*Threads* (else 403/50013). An edit notifies nobody; a message may not become empty.
"""

from __future__ import annotations

import re
from typing import Any

from tests.bot.discord import payloads as p
from tests.bot.discord.limits import (
    Answer,
    Problems,
    check_message,
    error,
    is_empty,
    refuse,
    refuse_if,
)
from tests.bot.discord.records import (
    DM,
    HAS_THREAD,
    NONCE_WINDOW,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    Channel,
    Request,
    Sent,
)
from tests.bot.discord.world import World

IN_DMS = p.VIEW | p.SEND | p.EMBED_LINKS | p.ATTACH_FILES | p.READ_HISTORY
ARCHIVE_AFTER = (60, 1440, 4320, 10080)
MAX_THREAD_NAME = 100


# --- permissions ------------------------------------------------------------------------------
def bot_permissions(fake: World, channel: Channel) -> int:
    """What the bot may do in ``channel``: a thread inherits its parent's permissions."""
    if channel.kind == DM:
        return IN_DMS
    if channel.thread and channel.parent is not None:
        return fake.channels[channel.parent].permissions
    return channel.permissions


def need(fake: World, channel: Channel, needed: int) -> None:
    """Refuse the request when the bot lacks any of ``needed`` in ``channel``."""
    permissions = bot_permissions(fake, channel)
    if not permissions & p.VIEW:
        refuse(error(403, 50001, "Missing Access"))
    if permissions & needed != needed:
        refuse(error(403, 50013, "Missing Permissions"))


def known(fake: World, cid: str) -> Channel:
    """The channel ``cid``, or Discord's refusal (10003)."""
    channel = fake.channels.get(int(cid))
    if channel is None:
        refuse(error(404, 10003, "Unknown Channel"))
    return channel


def channel_json(fake: World, channel: Channel) -> dict[str, Any]:
    if channel.kind == DM and channel.recipient is not None:
        return p.dm_channel(channel.id, channel.recipient)
    if channel.thread and channel.parent is not None:
        return p.thread(
            channel.id,
            channel.parent,
            channel.name,
            kind=channel.kind,
            owner=channel.owner or p.BOT_ID,
            archived=channel.archived,
            locked=channel.locked,
            auto_archive=channel.auto_archive,
            invitable=channel.invitable,
            members=len(channel.members),
            guild=channel.guild,
        )
    if channel.overwrites is not None:  # made through the API: as it was asked for
        overwrites, category = channel.overwrites, channel.category
        return p.guild_channel(
            channel.id, channel.kind, channel.name, overwrites, category, channel.guild
        )
    return p.text_channel(
        channel.id, channel.name, channel.permissions, fake.role_permissions, channel.guild
    )


# --- the message store ------------------------------------------------------------------------
def message_json(fake: World, message: Sent) -> dict[str, Any]:
    attachments = [
        {"id": str(i), "filename": name, "size": len(data), "url": "", "proxy_url": ""}
        for i, (name, data) in zip(message.file_ids, message.files, strict=False)
    ]
    found: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel),
        "author": p.user(p.BOT_ID),
        "content": message.content,
        "timestamp": p.STAMP,
        "edited_timestamp": p.STAMP if message.edits else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": message.embeds,
        "pinned": False,
        "type": 0,
        "flags": message.flags,
        "components": message.components,
        "webhook_id": str(p.APP_ID),
        "application_id": str(p.APP_ID),
    }
    if message.nonce is not None:
        found["nonce"] = message.nonce
    if message.thread is not None and message.thread in fake.channels:
        found["thread"] = channel_json(fake, fake.channels[message.thread])
    return found


def create(
    fake: World, channel: int, body: Any, files: list[tuple[str, bytes]], token: str | None
) -> Sent:
    """Store a new message in ``channel`` (its mentions notified as allowed)."""
    body = body or {}
    made = Sent(fake.next_id(), channel, body.get("content") or "", body.get("flags") or 0)
    made.files, made.file_ids = list(files), [fake.next_id() for _ in files]
    made.components, made.embeds = body.get("components") or [], body.get("embeds") or []
    made.token, made.nonce = token, body.get("nonce")
    made.notified = _notified(made, body.get("allowed_mentions"))
    fake.messages[made.id] = made
    return made


def _notified(message: Sent, allowed: dict[str, Any] | None) -> tuple[int, ...]:
    """Who a new message notifies (each once, however often named): mentioned and
    allowed, unless ephemeral or silent."""
    if message.ephemeral or message.silent:
        return ()
    mentioned = list(dict.fromkeys(int(u) for u in re.findall(r"<@!?(\d+)>", message.content)))
    if allowed is None or "users" in allowed.get("parse", []):
        return tuple(mentioned)
    listed = {int(u) for u in allowed.get("users", [])}
    return tuple(u for u in mentioned if u in listed)


def edit(fake: World, message: Sent, body: Any, files: list[tuple[str, bytes]]) -> Answer:
    """Edit a message: never notifies anyone; refused if it would leave the message empty.
    ``attachments`` names the attachments kept (by id) besides the new uploads."""
    body = body or {}
    content = (body["content"] or "") if "content" in body else message.content
    components = (body["components"] or []) if "components" in body else message.components
    embeds = (body["embeds"] or []) if "embeds" in body else message.embeds
    kept = list(zip(message.file_ids, message.files, strict=False))
    if "attachments" in body:
        named = {str(a.get("id")) for a in body["attachments"] or []}
        kept = [(i, f) for i, f in kept if str(i) in named]
    kept += [(fake.next_id(), f) for f in files]
    after = {"content": content, "components": components, "embeds": embeds}
    if is_empty(after, len(kept)):
        refuse(error(400, 50006, "Cannot send an empty message"))
    message.content, message.components, message.embeds = content, components, embeds
    message.file_ids, message.files = [i for i, _ in kept], [f for _, f in kept]
    message.loading = False
    message.edits += 1
    if "content" in body:
        message.said = fake.next_id()
    return 200, message_json(fake, message)


# --- messages in channels ---------------------------------------------------------------------
def post(fake: World, request: Request, cid: str) -> Answer:
    """A new message; with ``enforce_nonce``, a repeat of a recent nonce returns the first."""
    channel = known(fake, cid)
    body = request.body or {}
    if channel.kind == DM and channel.recipient in fake.dms_closed:
        refuse(error(403, 50007, "Cannot send messages to this user"))
    if channel.kind != DM:
        sending = p.SEND_IN_THREADS if channel.thread else p.SEND
        need(fake, channel, sending | (p.ATTACH_FILES if request.files else 0))
    refuse_if(check_message(body, len(request.files)))
    _unarchive(fake, channel)
    nonce = body.get("nonce")
    key = (channel.id, str(nonce))
    if nonce is not None and body.get("enforce_nonce") and key in fake.nonces:
        first, at = fake.nonces[key]
        if fake.now() - at <= NONCE_WINDOW:
            return 200, message_json(fake, fake.messages[first])
    made = create(fake, channel.id, body, request.files, None)
    if nonce is not None:
        fake.nonces[key] = (made.id, fake.now())
    if channel.recipient is not None:
        made.notified = (channel.recipient,)
    return 200, message_json(fake, made)


def _unarchive(fake: World, channel: Channel) -> None:
    """A post to an archived thread reopens it, unless it is locked (50083)."""
    if not channel.thread or not channel.archived:
        return
    if channel.locked:
        refuse(error(400, 50083, "Thread is archived"))
    channel.archived = False
    fake.later("THREAD_UPDATE", channel_json(fake, channel))


def _message_in(fake: World, channel: Channel, mid: str) -> Sent:
    """A message of ``channel`` others can see (an ephemeral one is unknown)."""
    message = fake.messages.get(int(mid))
    if message is None or message.channel != channel.id or message.deleted or message.ephemeral:
        refuse(error(404, 10008, "Unknown Message"))
    return message


def get_message(fake: World, request: Request, cid: str, mid: str) -> Answer:
    channel = known(fake, cid)
    message = _message_in(fake, channel, mid)
    need(fake, channel, p.READ_HISTORY)
    return 200, message_json(fake, message)


def patch_message(fake: World, request: Request, cid: str, mid: str) -> Answer:
    """Edit a message of the channel (needs *Attach Files* to upload; not in an archived
    thread, 50083)."""
    channel = known(fake, cid)
    message = _message_in(fake, channel, mid)
    need(fake, channel, p.ATTACH_FILES if request.files else 0)
    if channel.archived:
        refuse(error(400, 50083, "Thread is archived"))
    refuse_if(check_message(request.body or {}, len(request.files), creating=False))
    return edit(fake, message, request.body, request.files)


def open_dm(fake: World, request: Request) -> Answer:
    channel = fake.dm_channel(int(request.body["recipient_id"]))
    return 200, channel_json(fake, channel)


# --- channels and threads ---------------------------------------------------------------------
def get_channel(fake: World, request: Request, cid: str) -> Answer:
    channel = known(fake, cid)
    need(fake, channel, 0)
    return 200, channel_json(fake, channel)


def patch_channel(fake: World, request: Request, cid: str) -> Answer:
    """Rename a channel (needs *Manage Channels*), or rename, archive or lock a thread (its
    owner may rename and archive it; locking needs *Manage Threads*)."""
    channel = known(fake, cid)
    body = request.body or {}
    if channel.kind == DM:
        refuse(error(400, 50003, "Cannot execute action on a DM channel"))
    if not channel.thread:
        need(fake, channel, p.MANAGE_CHANNELS)
        channel.name = body.get("name", channel.name)
        fake.later("CHANNEL_UPDATE", channel_json(fake, channel))
        return 200, channel_json(fake, channel)
    manages = channel.owner != p.BOT_ID or "locked" in body or channel.locked
    manages = manages or body.get("invitable", channel.invitable) != channel.invitable
    need(fake, channel, p.MANAGE_THREADS if manages else 0)
    if channel.archived and body.get("archived", True):
        refuse(error(400, 50083, "Thread is archived"))
    refuse_if(_thread_form(body, creating=False))
    channel.name = body.get("name", channel.name)
    channel.archived = bool(body.get("archived", channel.archived))
    channel.locked = bool(body.get("locked", channel.locked))
    channel.invitable = bool(body.get("invitable", channel.invitable))
    channel.auto_archive = body.get("auto_archive_duration") or channel.auto_archive
    fake.later("THREAD_UPDATE", channel_json(fake, channel))
    return 200, channel_json(fake, channel)


def _thread_form(body: dict[str, Any], *, creating: bool) -> Answer | None:
    problems = Problems()
    if "invitable" in body and not isinstance(body["invitable"], bool):
        problems.add(("invitable",), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
    if creating or "name" in body:
        problems.between(("name",), body.get("name"), 1, MAX_THREAD_NAME)
    archive = body.get("auto_archive_duration")
    if archive is not None and archive not in ARCHIVE_AFTER:
        message = "Must be one of (60, 1440, 4320, 10080)."
        problems.add(("auto_archive_duration",), "BASE_TYPE_CHOICES", message)
    return problems.answer()


def _new_thread(fake: World, parent: Channel, tid: int, kind: int, body: Any) -> Channel:
    thread = Channel(tid, kind, body["name"], parent.guild, parent=parent.id, owner=p.BOT_ID)
    thread.auto_archive = body.get("auto_archive_duration") or 1440
    thread.members = {p.BOT_ID}
    thread.invitable = kind != PRIVATE_THREAD or body.get("invitable", True) is not False
    fake.channels[thread.id] = thread
    fake.later("THREAD_CREATE", channel_json(fake, thread) | {"newly_created": True})
    return thread


def _thread_parent(fake: World, cid: str) -> Channel:
    channel = known(fake, cid)
    if channel.kind != TEXT:
        refuse(error(400, 50024, "Cannot execute action on this channel type"))
    return channel


def thread_from_message(fake: World, request: Request, cid: str, mid: str) -> Answer:
    """Start a public thread from a message: the thread has the message's id."""
    channel = _thread_parent(fake, cid)
    message = _message_in(fake, channel, mid)
    body = request.body or {}
    need(fake, channel, p.CREATE_PUBLIC_THREADS)
    if message.thread is not None:
        refuse(error(400, 160004, "A thread has already been created for this message"))
    refuse_if(_thread_form(body, creating=True))
    thread = _new_thread(fake, channel, message.id, PUBLIC_THREAD, body)
    message.thread, message.flags = thread.id, message.flags | HAS_THREAD
    return 200, channel_json(fake, thread)


def thread_alone(fake: World, request: Request, cid: str) -> Answer:
    """Start a thread without a message: private unless ``type`` says 11 (as discord.py
    asks by default)."""
    channel = _thread_parent(fake, cid)
    body = request.body or {}
    kind = body.get("type") or PRIVATE_THREAD
    if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
        problems = Problems()
        problems.add(("type",), "BASE_TYPE_CHOICES", "Must be one of (11, 12).")
        refuse_if(problems.answer())
    need(
        fake,
        channel,
        p.CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else p.CREATE_PRIVATE_THREADS,
    )
    refuse_if(_thread_form(body, creating=True))
    thread = _new_thread(fake, channel, fake.next_id(), kind, body)
    return 200, channel_json(fake, thread)
