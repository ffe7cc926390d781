"""A strict fake Discord on loopback: the REST routes the bot uses and a gateway.

The real, unmodified bot logs in, syncs its commands and connects to the gateway, which
sends HELLO, READY and GUILD_CREATE and answers heartbeats. A test pushes interactions
(slash commands, autocomplete, button clicks; in the game channel, another channel or a
thread) and mentions, then reads what the bot sent from :attr:`FakeDiscord.requests`,
:attr:`FakeDiscord.messages` and :attr:`FakeDiscord.channels`.

There is one guild unless a test adds more (:meth:`FakeDiscord.add_guild`, on the shard
it chooses). The gateway keeps Discord's shards (:mod:`~tests.bot.discord.gateway`): each
connection gets only its shard's guilds and their events, an invalid shard is closed with
4010, a connection carrying too many guilds with 4011; ``GET /gateway/bot`` recommends a
shard count. The REST routes answer for every guild, whichever shard carries it.

Strict like Discord (the rules are in :mod:`~tests.bot.discord.routes`,
:mod:`~tests.bot.discord.channels` and :mod:`~tests.bot.discord.limits`): acknowledgements
within 3 s and once; tokens for 15 minutes; messages, embeds, components, autocomplete
choices and command trees within Discord's limits; files within 10 MiB; the bot's
permissions in each channel; closed DMs refused (403, 50007); an enforced nonce posts
once. Categories and text channels made through the API keep their overwrites, and
who may see and write there follows from them (:mod:`~tests.bot.discord.guild`); private
threads are seen by their members only; making channels is paced by a rate limit bucket
that answers 429 as Discord does and counts the requests that did not wait
(:mod:`~tests.bot.discord.pacing`). A follow-up right after a deferred ("thinking")
response edits it instead of creating a message, and only a *created* message notifies
the users it may mention.

A test controls time (:meth:`FakeDiscord.advance`, or an injected clock) and trouble:
rate limits (:meth:`~FakeDiscord.rate_limit`), server errors (:meth:`~FakeDiscord.fail`),
DM refusals (:meth:`~FakeDiscord.refuse_dms`), permissions
(:meth:`~FakeDiscord.set_permissions`, :meth:`~FakeDiscord.set_guild_permissions`), the
pace (:meth:`~FakeDiscord.pace`). Every request is recorded with its time; every
refusal also in :attr:`rejected` (those a test asked for marked ``injected``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import aiohttp
from aiohttp import hdrs, web

from tests.bot.discord import channels as c
from tests.bot.discord import guild as g
from tests.bot.discord import payloads as p
from tests.bot.discord.gateway import Gateway, shard_of
from tests.bot.discord.pacing import Bucket, channel_creation
from tests.bot.discord.records import (
    DM,
    EPHEMERAL,
    SILENT,
    TEXT,
    Channel,
    Interactions,
    Messages,
    Pushed,
    Request,
    Sent,
    Trouble,
)
from tests.bot.discord.routes import route

T = TypeVar("T")
DISCORD_EPOCH = 1_420_070_400_000
"""Milliseconds from 1970 to 2015, where snowflakes count from."""
__all__ = ["EPHEMERAL", "SILENT", "Channel", "FakeDiscord", "Pushed", "Request", "Sent"]
DM_REFUSALS = {
    50007: "Cannot send messages to this user",
    50278: "Cannot send messages to this user due to having no mutual guilds",
    50001: "Missing Access",
    50013: "Missing Permissions",
}


class Hold:
    """A request held by the fake until :meth:`release` (see :meth:`FakeDiscord.hold`)."""

    def __init__(self, method: str, pattern: str, answered: bool) -> None:
        self.method, self.pattern, self.answered = method, pattern, answered
        self.arrived = asyncio.Event()
        self._released = asyncio.Event()

    def matches(self, method: str, path: str) -> bool:
        return method == self.method and re.search(self.pattern, path) is not None

    async def wait(self) -> None:
        self.arrived.set()
        await self._released.wait()

    def release(self) -> None:
        self._released.set()


class FakeDiscord:
    """The fake: start it, point discord.py at :attr:`base` and :attr:`gateway`."""

    def __init__(self, token: str = "fake-token", clock: Callable[[], float] | None = None) -> None:
        self.token = token
        self.requests: list[Request] = []
        self.rejected: list[Request] = []
        self.messages = Messages()
        self.interactions = Interactions()
        self._asked = asyncio.Event()
        """Set (and replaced) when a request has been answered (:meth:`wait_for`)."""
        self.commands: dict[str, list[Any]] = {}
        self.guilds: dict[int, str] = {p.GUILD_ID: "Titan Club"}
        """The guilds the bot is in, by id, with their names."""
        self.channels: dict[int, Channel] = {
            p.CHANNEL_ID: Channel(p.CHANNEL_ID, TEXT, "titan", permissions=p.APP_PERMISSIONS)
        }
        self.dms_closed: set[int] = set()
        self.allowed_commands: dict[str, set[int]] = {}
        """Who may use a command whatever its default permissions (:meth:`allow_command`)."""
        self.dm_channels: dict[int, int] = {}
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.troubles: list[Trouble] = []
        self.holds: list[Hold] = []
        self.identified: list[dict[str, Any]] = []
        self._role_permissions = p.APP_PERMISSIONS
        self.buckets: list[Bucket] = [channel_creation()]
        """The rate limits Discord keeps per route (see :mod:`~tests.bot.discord.pacing`)."""
        self._clock = clock or time.monotonic
        self._offset = 0.0
        self._later: list[tuple[str, Any]] = []
        self._last_id = 0
        self.gate = Gateway(self)
        """The gateway's connections and their shards (:mod:`~tests.bot.discord.gateway`)."""
        self._runner: web.AppRunner | None = None
        self.base = self.gateway = ""

    # --- running ---------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_get("/gateway", self.gate.serve)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        self.gateway = f"ws://127.0.0.1:{port}/gateway"

    async def stop(self) -> None:
        await self.gate.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def next_id(self) -> int:
        """A new snowflake, made at Discord's time on the wall clock (so discord.py's
        ``created_at`` and ``Interaction.is_expired`` see a fresh object as fresh)."""
        millis = int((time.time() + self._offset) * 1000) - DISCORD_EPOCH
        self._last_id = max(self._last_id + 1, millis << 22)
        return self._last_id

    def now(self) -> float:
        """Discord's time: the clock plus every :meth:`advance`."""
        return self._clock() + self._offset

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for Discord at once (acknowledgement windows, token lives,
        nonce windows), without waiting."""
        self._offset += seconds

    # --- the gateway -----------------------------------------------------------------------
    def guild_json(self, guild: int) -> dict[str, Any]:
        """GUILD_CREATE of ``guild``: its channels, and the threads the bot may see."""
        texts = g.in_guild(self, guild)
        threads = [
            x
            for x in self.channels.values()
            if x.thread and x.guild == guild and not x.archived and g.sees(self, x, p.BOT_ID)
        ]
        return p.guild(
            [c.channel_json(self, x) for x in texts],
            [c.channel_json(self, x) for x in threads],
            self.role_permissions,
            guild,
            self.guilds[guild],
        )

    async def drop(self, code: int, shard: int | None = None) -> None:
        """Close the bot's gateway connections (or those of ``shard``) with ``code`` (4004:
        authentication failed)."""
        await self.gate.close(code, shard)

    async def dispatch(self, event: str, data: Any) -> tuple[int, ...]:
        """Send ``event`` to the connections of its guild's shard (events of no guild: shard
        0's); the shards it went to. Raises :class:`AssertionError` when none carries it."""
        return await self.gate.dispatch(event, data)

    def connected(self, guild: int = p.GUILD_ID) -> bool:
        """Whether a connection of the bot carries ``guild``."""
        return bool(self.gate.carrying(guild))

    def later(self, event: str, data: Any) -> None:
        """Send ``event`` to the connections that carry its guild once the current request
        is answered."""
        self._later.append((event, data))

    # --- what a test does ------------------------------------------------------------------
    async def push(
        self,
        kind: int,
        user: int,
        data: dict[str, Any],
        *,
        channel: int = p.CHANNEL_ID,
        permissions: int | None = None,
        **extra: Any,
    ) -> Pushed:
        """Send an interaction in ``channel`` (a text channel or a thread) to the bot, as
        Discord would: with the bot's permissions there as ``app_permissions``, and the
        user's (``permissions``, or as they follow from the channel's overwrites). Discord
        shows nobody a channel they may not see, nor lets a slash command come from
        where its user may not use them: the fake raises :class:`ValueError` for those."""
        place = self.channels[channel]
        if permissions is None:
            permissions = g.member_permissions(self, place, user)
        if not g.sees(self, place, user):
            raise ValueError(f"user {user} cannot see channel {channel}")
        if kind in (2, 4) and not permissions & p.COMMANDS:
            raise ValueError(f"user {user} may not use application commands in {channel}")
        if kind in (2, 4):
            self._may_use(user, str(data["name"]), permissions)
        pushed = Pushed(self.next_id(), f"token-{self.next_id()}", kind, user, self.now())
        pushed.channel = channel
        payload = p.interaction(
            pushed.id,
            pushed.token,
            kind,
            user,
            data,
            permissions,
            place=c.channel_json(self, place),
            app_permissions=c.bot_permissions(self, place),
        )
        if "message" in extra:
            pushed.message = int(extra["message"]["id"])
        self.interactions[pushed.id] = pushed
        pushed.shards = await self.dispatch("INTERACTION_CREATE", payload | extra)
        return pushed

    def allow_command(self, name: str, user: int) -> None:
        """The server lets ``user`` use the top-level command ``name`` whatever its
        ``default_member_permissions`` (Server Settings → Integrations)."""
        self.allowed_commands.setdefault(name, set()).add(user)

    def _may_use(self, user: int, name: str, permissions: int) -> None:
        """Discord lets a command with ``default_member_permissions`` come only from members
        with all of them, administrators, and those the server allowed: else it is not
        even shown (the fake raises :class:`ValueError`)."""
        for made in self.commands.values():
            for command in made:
                needed = command.get("default_member_permissions")
                if command["name"] != name or needed is None:
                    continue
                needed = int(needed)
                if permissions & p.ADMINISTRATOR or user in self.allowed_commands.get(name, ()):
                    return
                if needed and permissions & needed == needed:
                    return
                raise ValueError(f"user {user} may not use /{name} (it needs {needed})")

    async def slash(
        self,
        user: int,
        *path: str,
        permissions: int | None = None,
        channel: int = p.CHANNEL_ID,
        **options: object,
    ) -> Pushed:
        """A slash command: ``slash(user, "titan", "lobby", "new", players=2)``."""
        data = p.command_data(path, options, None)
        return await self.push(2, user, data, permissions=permissions, channel=channel)

    async def autocomplete(
        self, user: int, *path: str, focus: str, channel: int = p.CHANNEL_ID, **options: object
    ) -> Pushed:
        """Typing in option ``focus`` of a command: the bot answers with choices."""
        return await self.push(4, user, p.command_data(path, options, focus), channel=channel)

    async def click(
        self, user: int, message: Sent, custom_id: str, values: list[str] | None = None
    ) -> Pushed:
        """A click on a button (or a choice in a menu, with ``values``) of ``message``."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data |= {"component_type": 3, "values": values}
        clicked = self.message_json(message)
        return await self.push(3, user, data, channel=message.channel, message=clicked)

    async def mention(self, user: int, text: str, channel: int = p.CHANNEL_ID) -> None:
        """A message in ``channel`` mentioning the bot (its content is delivered); Discord
        would refuse it (the fake raises :class:`ValueError`) from a user who may not see
        the channel or send messages there."""
        allowed = g.member_permissions(self, self.channels[channel], user)
        sending = p.SEND_IN_THREADS if self.channels[channel].thread else p.SEND
        if not allowed & p.VIEW or (
            self.channels[channel].overwrites is not None and not allowed & sending
        ):
            raise ValueError(f"user {user} may not post in channel {channel}")
        content = f"<@{p.BOT_ID}> {text}"
        guild = self.channels[channel].guild
        mentions = [p.user(p.BOT_ID)]
        message = p.guild_message(self.next_id(), channel, user, content, mentions, guild)
        await self.dispatch("MESSAGE_CREATE", message)

    # --- the world a test sets up ----------------------------------------------------------
    async def add_channel(
        self, name: str, permissions: int = p.APP_PERMISSIONS, guild: int = p.GUILD_ID
    ) -> Channel:
        """A further text channel of ``guild`` (announced to a connection carrying it)."""
        made = Channel(self.next_id(), TEXT, name, guild, permissions=permissions)
        self.channels[made.id] = made
        await self.gate.tell("CHANNEL_CREATE", c.channel_json(self, made))
        return made

    async def add_guild(
        self, name: str, *, shard: tuple[int, int] | None = None, channel: str = "titan"
    ) -> Channel:
        """A further guild the bot is in, with a text channel ``channel`` (returned): on
        shard ``shard`` = (id, count) when given (its id chosen so). Announced as
        GUILD_CREATE to a connection carrying it, as when the bot joins a server."""
        guild = self.next_id()
        while shard is not None and shard_of(guild, shard[1]) != shard[0]:
            guild += 1 << 22  # a millisecond later: the shard follows the snowflake's time
        self._last_id = max(self._last_id, p.bot_role_id(guild))  # the bot's role's id
        self.guilds[guild] = name
        made = Channel(self.next_id(), TEXT, channel, guild, permissions=p.APP_PERMISSIONS)
        self.channels[made.id] = made
        await self.gate.tell("GUILD_CREATE", self.guild_json(guild))
        return made

    async def set_permissions(self, channel: int, permissions: int) -> None:
        """What the bot may do in text channel ``channel`` (and its threads) from now on: the
        next interactions' ``app_permissions``, the channel's overwrite for the bot (sent to
        a connected bot as CHANNEL_UPDATE) and what the fake allows."""
        place = self.channels[channel]
        if place.kind != TEXT:
            raise ValueError("permissions are set on text channels; threads inherit them")
        place.permissions = permissions
        await self.gate.tell("CHANNEL_UPDATE", c.channel_json(self, place))

    @property
    def role_permissions(self) -> int:
        """What the bot's role gives it in every guild. Set, it changes what the bot
        may do in the channels made through the API, without a word to a connected bot
        (as when its news is late); :meth:`set_guild_permissions` tells it."""
        return self._role_permissions

    @role_permissions.setter
    def role_permissions(self, permissions: int) -> None:
        self._role_permissions = permissions
        for place in self.channels.values():
            if place.overwrites is not None:
                place.permissions = g.computed(self, place.overwrites, p.BOT_ID, place.guild)

    async def set_guild_permissions(self, permissions: int) -> None:
        """What the bot's role gives it in every guild from now on (sent to the connections
        as GUILD_ROLE_UPDATE; the channels a test set up keep the bot's permissions
        there, so their overwrites are sent again as CHANNEL_UPDATE)."""
        self.role_permissions = permissions
        for guild in self.guilds:
            role = {"guild_id": str(guild), "role": p.bot_role(permissions, guild)}
            await self.gate.tell("GUILD_ROLE_UPDATE", role)
        for place in list(self.channels.values()):
            if place.kind == TEXT and place.overwrites is None:
                await self.gate.tell("CHANNEL_UPDATE", c.channel_json(self, place))

    def pace(self, bucket: Bucket) -> Bucket:
        """Keep the rate limit ``bucket`` instead of any other for the same route."""
        self.buckets = [b for b in self.buckets if b.pattern != bucket.pattern] + [bucket]
        return bucket

    def bucket(self, method: str, path: str) -> Bucket | None:
        """The rate limit bucket of a request (``"POST", "guilds/1/channels"``), if any."""
        return next((b for b in self.buckets if b.major(method, path) is not None), None)

    def dm_channel(self, user: int) -> Channel:
        """The DM channel with ``user`` (made when first asked for)."""
        number = self.dm_channels.setdefault(user, self.next_id())
        return self.channels.setdefault(number, Channel(number, DM, recipient=user))

    def rate_limit(
        self,
        method: str,
        pattern: str,
        times: int = 1,
        retry_after: float = 0.01,
        scope: str = "user",
    ) -> None:
        """The next ``times`` requests matching ``method`` and ``pattern`` answer 429, with
        ``retry_after`` and the headers discord.py reads (``scope`` "global": the global
        limit)."""
        bucket = f"fake-bucket-{len(self.troubles)}"
        body, headers = p.rate_limited(retry_after, scope, bucket)
        self.troubles.append(Trouble(method, pattern, times, 429, body, headers))

    def hold(self, method: str, pattern: str, *, answered: bool) -> Hold:
        """Hold the next request matching ``method`` and ``pattern`` until the test lets it
        go: before anything is made (``answered`` False), or made but not yet answered
        (True: the sender never learns it went through, as when it dies meanwhile)."""
        found = Hold(method, pattern, answered)
        self.holds.append(found)
        return found

    def fail(self, method: str, pattern: str, status: int = 500, times: int = 1) -> None:
        """The next ``times`` requests matching ``method`` and ``pattern`` fail with the
        server error ``status`` (discord.py retries 500, 502, 504 itself, after a second)."""
        body = {"message": f"{status}: Server Error", "code": 0}
        self.troubles.append(Trouble(method, pattern, times, status, body))

    def refuse_dms(
        self, user: int, code: int = 50278, times: int | None = None, status: int = 403
    ) -> None:
        """DMs to ``user`` are refused with ``code`` (``times`` times, or until further
        notice): refusals other than "DMs closed" (50007, see :attr:`dms_closed`)."""
        channel = self.dm_channel(user).id
        body = {"code": code, "message": DM_REFUSALS.get(code, "Forbidden")}
        self.troubles.append(
            Trouble("POST", rf"^channels/{channel}/messages$", times, status, body)
        )

    # --- what a test reads -----------------------------------------------------------------
    async def wait_for(self, probe: Callable[[], T | None], timeout: float = 60.0) -> T:
        """Ask ``probe`` until it returns something truthy (bounded by ``timeout``: a guard
        against a hang, generous for a busy machine): at once, again as soon as the bot has
        asked the fake anything, and at the latest every so often (from half a millisecond
        to 10 ms: a probe may read what the fake is not told, e.g. the bot's database)."""
        deadline = time.monotonic() + timeout
        pause = 0.0005
        while True:
            found = probe()
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing came within {timeout} s")
            asked = self._asked
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asked.wait(), pause)
            pause = min(2 * pause, 0.01)

    def sent_for(self, pushed: Pushed) -> list[Sent]:
        """The messages made with ``pushed``'s token (the original response first)."""
        return [m for m in self.messages.with_token(pushed.token) if not m.deleted]

    def public(self, pushed: Pushed) -> list[Sent]:
        """The channel messages ``pushed`` led to, in the order they said it: its own public
        follow-ups, and the bot's messages in a guild channel or thread made — or whose
        words were edited — after it and before the next interaction (the news the outbox
        tells for it: a new message for a hand-off, else an edit of the live one)."""
        later = [i.id for i in self.interactions.values() if i.id > pushed.id]
        until = min(later, default=None)
        dms = set(self.dm_channels.values())

        def when(m: Sent) -> int:
            return max(m.id, m.said)

        found = [
            m
            for m in self.messages.values()
            if not m.deleted and not m.ephemeral and not m.loading
            and (
                m.token == pushed.token
                or (m.token is None and m.channel not in dms and when(m) > pushed.id
                    and (until is None or when(m) < until))
            )
        ]  # fmt: skip
        return sorted(found, key=when)

    def ephemeral(self, pushed: Pushed) -> list[Sent]:
        return [m for m in self.sent_for(pushed) if m.ephemeral and not m.loading]

    def dms_to(self, user: int) -> list[Sent]:
        channel = self.dm_channels.get(user)
        return [m for m in self.messages.values() if channel is not None and m.channel == channel]

    def in_channel(self, channel: int) -> list[Sent]:
        """The messages of ``channel`` (a text channel, thread or DM), oldest first."""
        return [m for m in self.messages.values() if m.channel == channel and not m.deleted]

    def threads(self, parent: int = p.CHANNEL_ID) -> list[Channel]:
        """The threads of text channel ``parent``, oldest first."""
        return [x for x in self.channels.values() if x.thread and x.parent == parent]

    def paths(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and re.search(pattern, r.path)]

    def message_json(self, message: Sent) -> dict[str, Any]:
        return c.message_json(self, message)

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        files: Sequence[tuple[str, bytes]] = (),
    ) -> tuple[int, Any, dict[str, str]]:
        """Make a request as the bot could (for what discord.py would not let a test send):
        the status, the JSON answer (None if empty) and the headers."""
        headers = {"Authorization": f"Bot {self.token}"}
        data: Any = None
        if files:
            data = aiohttp.FormData(quote_fields=False)
            data.add_field("payload_json", json.dumps(body or {}))
            for i, (name, content) in enumerate(files):
                data.add_field(f"files[{i}]", content, filename=name)
        elif body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        async with (
            aiohttp.ClientSession() as session,
            session.request(method, f"{self.base}/{path}", data=data, headers=headers) as answer,
        ):
            text = await answer.text()
            return answer.status, json.loads(text) if text else None, dict(answer.headers)

    # --- REST ------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        body, files = await _read(request)
        path = request.match_info["tail"]
        record = Request(time.monotonic(), request.method, path, body, files, clock=self.now())
        self.requests.append(record)
        trouble = next((t for t in self.troubles if t.matches(record.method, path)), None)
        held = next((h for h in self.holds if h.matches(record.method, path)), None)
        if held is not None:
            self.holds.remove(held)
            if not held.answered:
                await held.wait()
        headers = {"Content-Type": "application/json"}
        paced = self.bucket(record.method, path) if trouble is None else None
        limited = None
        if paced is not None:
            limited, more = paced.take(paced.major(record.method, path) or "")
            headers |= more
        if limited is not None:
            status, answer = limited
            record.paced = True
        elif trouble is not None:
            trouble.use()
            status, answer = trouble.status, trouble.body
            record.injected = True
            headers |= trouble.headers
        else:
            self._later = []
            try:
                status, answer = route(self, record, request.headers.get("Authorization"))
            except Exception as exc:  # a fault of the fake: refuse loudly, not with a retried 500
                status, answer = 400, {"code": 0, "message": f"the fake Discord failed: {exc!r}"}
            for event, data in self._later if status < 400 else []:
                await self.gate.tell(event, data)
        record.status, record.answer = status, answer
        if held is not None and held.answered:
            await held.wait()
        if status >= 400:
            self.rejected.append(record)
        self._asked.set()  # a test waiting on what the bot does asks again
        self._asked = asyncio.Event()
        payload = b"" if answer is None else json.dumps(answer).encode()
        if answer is None:  # Discord's 204 has no body, so no type
            headers.pop("Content-Type")
        # Exactly "application/json": discord.py does not parse JSON with a charset.
        return web.Response(status=status, body=payload, headers=headers)


async def _read(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body (``payload_json`` of a multipart body) and the uploaded files."""
    kind = request.headers.get(hdrs.CONTENT_TYPE, "")  # not ``content_type``: slow to parse
    if kind.lstrip().lower().startswith("multipart/"):
        payload, files = None, []
        reader = await request.multipart()
        async for part in reader:
            data = await part.read()  # type: ignore[union-attr]
            if part.name == "payload_json":  # type: ignore[union-attr]
                payload = json.loads(data)
            else:
                files.append((part.filename or "", bytes(data)))  # type: ignore[union-attr]
        return payload, files
    if request.body_exists:
        text = await request.text()
        return (json.loads(text) if text else None), []
    return None, []
