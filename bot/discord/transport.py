"""Discord as the outbox's transport: channel posts, DMs, and answers to interactions.

A channel's news is a message of the bot in the channel, sent with the outbox row's nonce
(``enforce_nonce``: Discord returns the first message when a resend comes within minutes,
and creates nothing). Where the bot may not attach files (checked up front from its
permissions in the channel, or refused with 50013) the news goes as text. Where it may not
post at all, the command's interaction can still post (while it lives: 15 minutes). The
caller's answer goes to the interaction; once that has expired, the deliverer sends its
private news by DM. A DM refused with 50007 means the user accepts none; other refusals
are not that. Failures that may pass (a 5xx, a timeout, a rate limit discord.py did not
absorb) are retried by the deliverer. A tournament table's channel or private thread is
opened here too (:mod:`bot.discord.tables`).

Any process of a sharded bot may deliver for any channel, also one whose server is on a
shard another process runs, so nothing here needs the channel or its server in this
process's cache: a channel not there is addressed by its id (a partial messageable), a
thread is started by id, and what the bot may do there is what the last interaction
from there said, or else what Discord answers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, cast

import discord

from bot.dialect import Dialect
from bot.discord import tables
from bot.discord.components import choices_view
from bot.discord.messages import PLAIN, content, extras, files, pings
from bot.discord.requests import guarded
from bot.outbox.transport import DmsClosed, Expired, Refused
from bot.outbox.writer import RECEIPT
from bot.replies import Message

log = logging.getLogger(__name__)

TOKEN_LIFE = 15 * 60 - 30
"""Seconds an interaction can still be answered (Discord: 15 minutes; a margin kept)."""
DMS_REFUSED = 50007
"""Discord's code for "Cannot send messages to this user"."""
MISSING_PERMISSIONS = 50013
THREAD_EXISTS = 160004
"""Discord's code for "A thread has already been created for this message"."""
THREADING = ("create_public_threads", "send_messages_in_threads")
"""What the bot needs to tell a battle in a thread of its own."""
EXPIRED_CODES = frozenset({10015, 50027})
"""Unknown Webhook, Invalid Webhook Token: the interaction can no longer be answered."""
UNKNOWN_MESSAGE = 10008
IN_PLACE = frozenset({"command", "choice", "step"})
"""The interactions whose answer is their own response, edited in place: a slash command
and a click on a public message (both deferred with a private "thinking" response), and a
click in a private step (its response is the step's message)."""
ORIGINAL = cast(int, "@original")
"""How Discord names an interaction's response among its token's messages (discord.py's
webhook puts the id it is given into the path as it is)."""


@dataclass(frozen=True)
class InteractionRef:
    """What the outbox keeps of an interaction to answer it later: its application, token,
    when it came, whether it was a slash command or a click, and what the caller asked."""

    application: int
    token: str
    at: float
    kind: str
    receipt: str = ""

    @classmethod
    def of(
        cls, interaction: discord.Interaction[Any], at: float, kind: str, receipt: str = ""
    ) -> InteractionRef:
        """``interaction`` as it came at ``at`` (seconds since the epoch)."""
        assert interaction.application_id is not None
        return cls(interaction.application_id, interaction.token, at, kind, receipt)

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> InteractionRef:
        data = json.loads(text)
        return cls(int(data["application"]), str(data["token"]), float(data["at"]),
                   str(data["kind"]), str(data.get("receipt", "")))  # fmt: skip


class DiscordTransport:
    """Sends the outbox's messages through the bot."""

    def __init__(self, bot: discord.Client, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self._clock = clock
        self._live: dict[str, tuple[float, discord.Interaction[Any]]] = {}
        self._permissions: dict[int, discord.Permissions] = {}
        self._parents: dict[int, int] = {}
        self._tables = asyncio.Lock()

    def reference(self, interaction: discord.Interaction[Any], kind: str, receipt: str) -> str:
        """The stored reference to ``interaction``, which is kept to answer it through
        discord.py while it lasts; what the bot may do in its channel is noted too (the
        interaction carries the bot's permissions there)."""
        now = self._clock()
        live = self._live
        live.pop(interaction.token, None)  # kept in the order they came: the oldest first
        while live and now - next(iter(live.values()))[0] >= TOKEN_LIFE:
            del live[next(iter(live))]
        live[interaction.token] = (now, interaction)
        if interaction.channel_id is not None:
            self._permissions[interaction.channel_id] = interaction.app_permissions
        return InteractionRef.of(interaction, now, kind, receipt).to_json()

    @property
    def dialect(self) -> Dialect:
        """How the bot names its commands (its slash commands, once they are synced)."""
        found: Dialect | None = getattr(self.bot, "dialect", None)
        return found if found is not None else PLAIN

    def _alive(self, ref: InteractionRef) -> bool:
        return self._clock() - ref.at < TOKEN_LIFE

    # --- the channel -----------------------------------------------------------------------
    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        target = self._target(channel)
        attach = self._may(channel, target, "attach_files")
        uploads = files(message, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES) if attach else []
        outcome = "sent" if uploads or message.image is None else "sent as text"
        try:
            sent = await self._send(target, message, uploads, nonce)
            return outcome, sent.id
        except discord.Forbidden as exc:
            refused = exc
        if refused.code == MISSING_PERMISSIONS and uploads:
            try:
                sent = await self._send(target, message, [], nonce)  # the picture was refused
                return "sent as text", sent.id
            except discord.Forbidden as exc:
                refused = exc
        ref = InteractionRef.from_json(reply_to) if reply_to else None
        if ref is None or not self._alive(ref):
            raise Refused(f"Discord refused the post ({refused.code}: {refused.text})")
        sent = await guarded(
            self._webhook(ref).send(
                content(message, dialect=self.dialect),
                allowed_mentions=pings(message),
                silent=message.silent,
                wait=True,
                **extras(choices_view(message.offers), []),
            )
        )
        return "sent through the interaction: the bot may not post in the channel", None

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        """The live message says ``message`` now: the text, the current picture (when one
        may be attached there; ``kept``: the one it carries is that picture, and stays),
        the choices of the decision now waited for."""
        target = self._target(channel)
        attach = self._may(channel, target, "attach_files")
        uploads = files(message, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES) if attach else []
        # Without ``attachments`` an edit leaves the message's files as they are.
        changes: dict[str, Any] = {} if kept else {"attachments": uploads}
        partial = target.get_partial_message(message_id)
        try:
            await guarded(
                partial.edit(
                    content=content(message, dialect=self.dialect),
                    view=choices_view(message.offers),
                    allowed_mentions=discord.AllowedMentions.none(),
                    **changes,
                )
            )
        except discord.Forbidden as exc:
            if exc.code != MISSING_PERMISSIONS or kept or not uploads:
                raise Refused(f"Discord refused the edit ({exc.code}: {exc.text})") from exc
            await guarded(partial.edit(content=content(message, dialect=self.dialect)))
            return "edited as text"
        except discord.NotFound as exc:
            raise Refused(f"the message to edit is gone ({exc.code}: {exc.text})") from exc
        if kept:
            return "edited, its files kept"
        return "edited" if uploads or message.image is None else "edited as text"

    async def unbutton(self, channel: int, message_id: int) -> None:
        try:
            await guarded(self._target(channel).get_partial_message(message_id).edit(view=None))
        except discord.HTTPException as exc:  # a message deleted, a thread archived: no matter
            log.info("the choices of message %s stay: %s", message_id, exc)

    def measure(self, message: Message) -> int:
        return len(content(message, dialect=self.dialect, whole=True))

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        target = self._target(channel)
        for needed in THREADING:
            if not self._may(channel, target, needed):
                raise Refused(f"the bot lacks {needed.replace('_', ' ')} here")
        try:  # by id: discord.py's Message.create_thread needs the server in the cache
            thread = await guarded(
                self.bot.http.start_thread_with_message(
                    channel, message_id, name=name[:100], auto_archive_duration=10080
                )
            )
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:  # made before a restart: it has the message's id
                return message_id
            raise Refused(f"Discord refused the thread ({exc.code}: {exc.text})") from exc
        self._parents[int(thread["id"])] = channel
        return int(thread["id"])

    async def close_thread(self, thread: int) -> None:
        try:
            await guarded(self.bot.http.edit_channel(thread, archived=True))
        except discord.HTTPException as exc:
            log.warning("thread %s could not be archived: %s", thread, exc)

    # --- tournament tables -----------------------------------------------------------------
    async def open_table(
        self,
        guild: int,
        category: str,
        name: str,
        players: tuple[int, ...],
        private_thread: bool,
        parent: int | None,
    ) -> int:
        """The table's channel under ``category``, or its private thread in ``parent``
        (see :mod:`bot.discord.tables`); one table at a time, so that two never make the
        same category."""
        async with self._tables:
            if not private_thread:
                return await tables.table_channel(self.bot, guild, category, name, players)
            if parent is None:
                raise Refused("a table's private thread needs the channel to open it in")
            target = self._target(parent)
            lacking = [f for f in tables.IN_PARENT if not self._may(parent, target, f)]
            if lacking:
                raise Refused(f"the bot lacks {tables.permission_names(lacking)} in <#{parent}>")
            thread = await tables.private_thread(self.bot, guild, parent, name, players)
            self._parents[thread] = parent
            return thread

    def _target(self, channel: int) -> Any:
        return self.bot.get_channel(channel) or self.bot.get_partial_messageable(channel)

    def _parent(self, channel: int) -> int:
        """The channel a thread belongs to (a channel is its own)."""
        return self._parents.get(channel, channel)

    def _may(self, channel: int, target: Any, what: str) -> bool:
        """Whether the bot may do ``what`` (a :class:`discord.Permissions` flag) in
        ``channel``: as the last interaction from there (or from its parent) said, else
        from the guild as the gateway told it; True when it cannot be told (Discord then
        refuses what the bot may not do, and the news makes do without it)."""
        known = self._permissions.get(channel) or self._permissions.get(self._parent(channel))
        if known is not None:
            return bool(getattr(known, what))
        guild = getattr(target, "guild", None)
        me = guild.me if guild is not None else None
        if me is None or not hasattr(target, "permissions_for"):
            return True
        return bool(getattr(target.permissions_for(me), what))

    async def _send(
        self, target: Any, message: Message, uploads: list[discord.File], nonce: str
    ) -> discord.Message:
        for upload in uploads:
            upload.reset()
        sent: discord.Message = await guarded(
            target.send(
                content(message, dialect=self.dialect),
                allowed_mentions=pings(message),
                silent=message.silent,
                nonce=nonce,
                **extras(choices_view(message.offers), uploads),
            )
        )
        return sent

    # --- DMs -------------------------------------------------------------------------------
    async def dm(self, user: int, channel: int, message: Message, nonce: str) -> str:
        try:
            dm = await guarded(self.bot.create_dm(discord.Object(user)))
            uploads = files(message, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES)
            text = content(message, f"<#{channel}>: ", self.dialect)
            await guarded(dm.send(text, nonce=nonce, **extras(None, uploads)))
        except discord.Forbidden as exc:
            if exc.code == DMS_REFUSED:
                raise DmsClosed("the user accepts no direct messages") from exc
            raise Refused(f"Discord refused the DM ({exc.code}: {exc.text})") from exc
        return "sent"

    # --- the caller ------------------------------------------------------------------------
    async def answer(self, reply_to: str | None, message: Message | None, user: int | None) -> str:
        """The caller's answer becomes the interaction's own response: the deferred
        ("thinking") response of a slash command or of a click on a public message, or the
        private step's message clicked. It is edited (or, with nothing to say, deleted) by
        the interaction's token, with or without the interaction at hand (after a restart),
        so that doing it again shows nothing twice. A click stored by an older version (its
        response the public message clicked) is answered, as then, by a follow-up."""
        if reply_to is None:
            return "nothing to answer"
        ref = InteractionRef.from_json(reply_to)
        if ref.kind == "click" and message is None:
            return "nothing to say: the click's message shows what it did"
        if not self._alive(ref):
            raise Expired("the interaction has expired")
        try:
            if ref.kind not in IN_PLACE:
                if message is None:
                    return "nothing to say: the news shows what was done"
                await self._tell(ref, self._shown(ref, message))
                return "sent"
            if message is None:
                return await self._drop_response(ref)
            await self._edit_response(ref, self._shown(ref, message))
        except discord.HTTPException as exc:
            if exc.code in EXPIRED_CODES:
                raise Expired("the interaction has expired") from exc
            raise Refused(f"Discord refused the answer ({exc.code}: {exc.text})") from exc
        return "sent"

    @staticmethod
    def _shown(ref: InteractionRef, message: Message) -> Message:
        return Message(f"✓ `{ref.receipt}`") if message.text == RECEIPT else message

    async def _edit_response(self, ref: InteractionRef, message: Message) -> None:
        """The interaction's response says ``message`` (the same edit twice shows it once)."""
        live = self._live.get(ref.token)
        limit = live[1].filesize_limit if live else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
        await guarded(
            self._webhook(ref).edit_message(
                ORIGINAL,
                content=content(message, dialect=self.dialect),
                attachments=files(message, limit),
                view=choices_view(message.offers),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )

    async def _drop_response(self, ref: InteractionRef) -> str:
        """The interaction's response goes (gone already: deleted before a restart)."""
        try:
            await guarded(self._webhook(ref).delete_message(ORIGINAL))
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
        return "acknowledged: the news shows what was done"

    async def tell(self, reply_to: str, message: Message) -> str:
        ref = InteractionRef.from_json(reply_to)
        if not self._alive(ref):
            raise Expired("the interaction has expired")
        try:
            await self._tell(ref, message)
        except discord.HTTPException as exc:
            if exc.code in EXPIRED_CODES:
                raise Expired("the interaction has expired") from exc
            raise Refused(f"Discord refused the message ({exc.code}: {exc.text})") from exc
        return "sent"

    async def _tell(self, ref: InteractionRef, message: Message) -> None:
        uploads = files(message, discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES)
        await guarded(
            self._webhook(ref).send(
                content(message, dialect=self.dialect),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                **extras(choices_view(message.offers), uploads),
            )
        )

    def _webhook(self, ref: InteractionRef) -> discord.Webhook:
        """The interaction's follow-up webhook, as discord.py makes it for a live one
        (``Interaction.followup``): an application webhook, which may speak ephemerally."""
        live = self._live.get(ref.token)
        if live is not None:
            return live[1].followup
        data: Any = {"id": ref.application, "type": 3, "token": ref.token}
        return discord.Webhook.from_state(data=data, state=self.bot._connection)
