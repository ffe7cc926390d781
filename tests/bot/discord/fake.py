"""A strict fake Discord on loopback: the REST routes the bot uses and a gateway.

The real, unmodified bot logs in, syncs its commands and connects to the gateway, which
sends HELLO, READY and GUILD_CREATE and answers heartbeats. A test pushes interactions
(slash commands, autocomplete, button clicks) and mentions, then reads what the bot sent
from :attr:`FakeDiscord.requests` and :attr:`FakeDiscord.messages`.

Strict like Discord: an acknowledgement later than 3 s is refused (10062), a second one
too (40060); files over 10 MiB are refused (40005); users whose DMs are closed refuse DMs
(403, 50007). A follow-up right after a deferred ("thinking") response edits it instead
of creating a message, and only a *created* message notifies the users it may mention.
Every request is recorded with its time; every refusal also in :attr:`rejected`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from tests.bot.discord import payloads as p
from tests.bot.discord.records import EPHEMERAL, SILENT, Pushed, Request, Sent
from tests.bot.discord.routes import route

T = TypeVar("T")
__all__ = ["EPHEMERAL", "SILENT", "FakeDiscord", "Pushed", "Request", "Sent"]


class FakeDiscord:
    """The fake: start it, point discord.py at :attr:`base` and :attr:`gateway`."""

    def __init__(self, token: str = "fake-token") -> None:
        self.token = token
        self.requests: list[Request] = []
        self.rejected: list[Request] = []
        self.messages: dict[int, Sent] = {}
        self.interactions: dict[int, Pushed] = {}
        self.commands: dict[str, list[Any]] = {}
        self.dms_closed: set[int] = set()
        self.dm_channels: dict[int, int] = {}
        self.identified: list[dict[str, Any]] = []
        self._ids = itertools.count(800_000_000_000_000_000)
        self._seq = itertools.count(1)
        self._socket: web.WebSocketResponse | None = None
        self._runner: web.AppRunner | None = None
        self.base = self.gateway = ""

    # --- running ---------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=30 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        self.gateway = f"ws://127.0.0.1:{port}/gateway"

    async def stop(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def next_id(self) -> int:
        return next(self._ids)

    # --- the gateway -----------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_json(
            {"op": 10, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None}
        )
        async for message in socket:
            if message.type is not WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if frame["op"] == 1:
                await socket.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif frame["op"] == 2 and frame["d"]["token"] != self.token:
                await socket.close(code=4004, message=b"Authentication failed.")
            elif frame["op"] == 2:
                self.identified.append(frame["d"])
                self._socket = socket
                await self.dispatch("READY", p.ready(self.gateway))
                await self.dispatch("GUILD_CREATE", p.guild())
        if self._socket is socket:
            self._socket = None
        return socket

    async def drop(self, code: int) -> None:
        """Close the bot's gateway connection with ``code`` (4004: authentication failed)."""
        if self._socket is not None:
            await self._socket.close(code=code)

    async def dispatch(self, event: str, data: Any) -> None:
        if self._socket is None:
            raise AssertionError("no bot is connected to the gateway")
        await self._socket.send_json({"op": 0, "t": event, "s": next(self._seq), "d": data})

    # --- what a test does ------------------------------------------------------------------
    async def push(self, kind: int, user: int, data: dict[str, Any], **extra: Any) -> Pushed:
        """Send an interaction to the bot, as Discord would."""
        permissions = extra.pop("permissions", p.PLAYER)
        pushed = Pushed(self.next_id(), f"token-{self.next_id()}", kind, user, time.monotonic())
        payload = p.interaction(pushed.id, pushed.token, kind, user, data, permissions) | extra
        if "message" in extra:
            pushed.message = int(extra["message"]["id"])
        self.interactions[pushed.id] = pushed
        await self.dispatch("INTERACTION_CREATE", payload)
        return pushed

    async def slash(
        self, user: int, *path: str, permissions: int = p.PLAYER, **options: object
    ) -> Pushed:
        """A slash command: ``slash(user, "titan", "lobby", "new", players=2)``."""
        data = p.command_data(path, options, None)
        return await self.push(2, user, data, permissions=permissions)

    async def autocomplete(self, user: int, *path: str, focus: str, **options: object) -> Pushed:
        """Typing in option ``focus`` of a command: the bot answers with choices."""
        return await self.push(4, user, p.command_data(path, options, focus))

    async def click(
        self, user: int, message: Sent, custom_id: str, values: list[str] | None = None
    ) -> Pushed:
        """A click on a button (or a choice in a menu, with ``values``) of ``message``."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data |= {"component_type": 3, "values": values}
        return await self.push(3, user, data, message=self.message_json(message))

    async def mention(self, user: int, text: str) -> None:
        """A message in the channel mentioning the bot (its content is delivered)."""
        message = {
            "id": str(self.next_id()),
            "channel_id": str(p.CHANNEL_ID),
            "guild_id": str(p.GUILD_ID),
            "author": p.user(user),
            "member": {k: v for k, v in p.member(user).items() if k != "user"},
            "content": f"<@{p.BOT_ID}> {text}",
            "timestamp": p.STAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [p.user(p.BOT_ID)],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
        }
        await self.dispatch("MESSAGE_CREATE", message)

    async def wait_for(self, probe: Callable[[], T | None], timeout: float = 5.0) -> T:
        """Poll ``probe`` until it returns something truthy (bounded by ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            found = probe()
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing came within {timeout} s")
            await asyncio.sleep(0.01)

    def sent_for(self, pushed: Pushed) -> list[Sent]:
        """The messages made with ``pushed``'s token (the original response first)."""
        return [m for m in self.messages.values() if m.token == pushed.token and not m.deleted]

    def public(self, pushed: Pushed) -> list[Sent]:
        """The channel messages ``pushed`` led to: its own public follow-ups, and the bot's
        posts in a guild channel made after it and before the next interaction (the news
        the outbox posts for it)."""
        later = [i.id for i in self.interactions.values() if i.id > pushed.id]
        until = min(later, default=None)
        dms = set(self.dm_channels.values())
        return [
            m
            for m in self.messages.values()
            if not m.deleted and not m.ephemeral and not m.loading
            and (
                m.token == pushed.token
                or (m.token is None and m.channel not in dms and m.id > pushed.id
                    and (until is None or m.id < until))
            )
        ]  # fmt: skip

    def ephemeral(self, pushed: Pushed) -> list[Sent]:
        return [m for m in self.sent_for(pushed) if m.ephemeral and not m.loading]

    def dms_to(self, user: int) -> list[Sent]:
        channel = self.dm_channels.get(user)
        return [m for m in self.messages.values() if channel is not None and m.channel == channel]

    def paths(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and re.search(pattern, r.path)]

    def message_json(self, message: Sent) -> dict[str, Any]:
        attachments = [
            {"id": str(i), "filename": name, "size": len(data), "url": "", "proxy_url": ""}
            for i, (name, data) in enumerate(message.files)
        ]
        return {
            "id": str(message.id),
            "channel_id": str(message.channel),
            "author": p.user(p.BOT_ID),
            "content": message.content,
            "timestamp": p.STAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": message.flags,
            "components": message.components,
            "webhook_id": str(p.APP_ID),
            "application_id": str(p.APP_ID),
        }

    # --- REST ------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        body, files = await _read(request)
        record = Request(time.monotonic(), request.method, request.match_info["tail"], body, files)
        self.requests.append(record)
        status, answer = route(self, record, request.headers.get("Authorization"))
        record.status, record.answer = status, answer
        if status >= 400:
            self.rejected.append(record)
        body = b"" if answer is None else json.dumps(answer).encode()
        # Exactly "application/json": discord.py does not parse JSON with a charset.
        headers = {"Content-Type": "application/json"}
        return web.Response(status=status, body=body, headers=headers)


async def _read(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body (``payload_json`` of a multipart body) and the uploaded files."""
    if request.content_type.startswith("multipart/"):
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
