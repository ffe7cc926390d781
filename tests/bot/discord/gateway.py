"""The fake Discord's gateway: its connections, the shard each was identified as, and which
events each one gets (see :mod:`tests.bot.discord.fake`).

A connection is greeted with HELLO, answers heartbeats, and is IDENTIFYed with the bot's
token (else closed with 4004). Discord's rules for shards (developer docs, Gateway →
Sharding) are kept: IDENTIFY's ``shard`` is ``[shard_id, num_shards]``, and a connection
without it is shard 0 of 1; a guild belongs to shard ``(guild_id >> 22) % num_shards``,
and its events (GUILD_CREATE, its channels' and threads', its messages and interactions)
go only to the connections of that shard, while events of no guild (DMs) go to shard 0;
a shard id that is not below the shard count is closed with 4010 (Invalid shard); a
connection that would carry more guilds than one shard may (2,500; the test may lower
:attr:`Gateway.most_guilds`) is closed with 4011 (Sharding required). READY lists the
connection's guilds as unavailable, with ``shard`` when it was identified with one, and a
GUILD_CREATE follows for each. ``GET /gateway/bot`` gives the gateway's url and the shard
count Discord recommends (one shard per 1,000 guilds, at least one, unless the test sets
:attr:`Gateway.recommended`) with the session start limit.

Each connection counts its own sequence numbers. Two connections of the same shard both
get its events, as two sessions would.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.bot.discord import payloads as p
from tests.bot.discord.limits import Answer
from tests.bot.discord.records import Request
from tests.bot.discord.world import World

HELLO, HEARTBEAT, IDENTIFY, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 11, 0
AUTHENTICATION_FAILED, INVALID_SHARD, SHARDING_REQUIRED = 4004, 4010, 4011
MOST_GUILDS = 2500
"""Guilds one shard may carry (Discord closes a connection that would carry more)."""
GUILDS_PER_RECOMMENDED_SHARD = 1000
GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")
"""The events whose payload is the guild itself (the others name it as ``guild_id``)."""
SESSION_START_LIMIT = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}


def shard_of(guild: int, count: int) -> int:
    """The shard of ``count`` that carries ``guild`` (Discord's formula)."""
    return (guild >> 22) % count


def guild_of(event: str, data: Any) -> int | None:
    """The guild an event is about (None: no guild, as a DM's)."""
    if not isinstance(data, dict):
        return None
    if event in GUILD_EVENTS:
        return int(data["id"])
    found = data.get("guild_id")
    return int(found) if found is not None else None


@dataclass(eq=False)
class Connection:
    """One gateway connection: its socket and, once identified, its shard of ``count``."""

    socket: web.WebSocketResponse
    shard: int = 0
    count: int = 1
    identified: bool = False
    sequence: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def carries(self, guild: int | None) -> bool:
        """Whether ``guild``'s events come here (no guild: shard 0's)."""
        if guild is None:
            return self.shard == 0
        return shard_of(guild, self.count) == self.shard

    async def send(self, event: str, data: Any) -> None:
        frame = {"op": DISPATCH, "t": event, "s": next(self.sequence), "d": data}
        await self.socket.send_json(frame)


class Gateway:
    """The gateway of one fake Discord: connections come and go; events are routed."""

    def __init__(self, fake: World) -> None:
        self.fake = fake
        self.connections: list[Connection] = []
        self.most_guilds = MOST_GUILDS
        """Guilds one connection may carry (Discord: 2,500)."""
        self.recommended: int | None = None
        """The shard count ``GET /gateway/bot`` recommends (None: one per 1,000 guilds)."""
        self.closed: list[tuple[tuple[int, int] | None, int]] = []
        """The connections the fake closed: the ``shard`` they asked for, and the code."""

    # --- connections -----------------------------------------------------------------------
    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        connection = Connection(socket)
        self.connections.append(connection)
        try:
            await socket.send_json(
                {"op": HELLO, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None}
            )
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    break
                frame = json.loads(message.data)
                if frame["op"] == HEARTBEAT:
                    await socket.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif frame["op"] == IDENTIFY:
                    await self._identify(connection, frame["d"])
        finally:
            self.connections.remove(connection)
        return socket

    async def _identify(self, connection: Connection, identify: dict[str, Any]) -> None:
        if identify["token"] != self.fake.token:
            await connection.socket.close(
                code=AUTHENTICATION_FAILED, message=b"Authentication failed."
            )
            return
        self.fake.identified.append(identify)
        asked = identify.get("shard")
        shard, count = (int(asked[0]), int(asked[1])) if asked is not None else (0, 1)
        if count < 1 or not 0 <= shard < count:
            await self._close(connection, asked, INVALID_SHARD, b"Invalid shard.")
            return
        connection.shard, connection.count = shard, count
        guilds = [g for g in self.fake.guilds if connection.carries(g)]
        if len(guilds) > self.most_guilds:
            await self._close(connection, asked, SHARDING_REQUIRED, b"Sharding required.")
            return
        connection.identified = True
        session = f"fake-session-{shard}-of-{count}"
        ready = p.ready(
            self.fake.gateway, guilds, (shard, count) if asked is not None else None, session
        )
        await connection.send("READY", ready)
        for guild in guilds:
            await connection.send("GUILD_CREATE", self.fake.guild_json(guild))

    async def _close(self, connection: Connection, asked: Any, code: int, reason: bytes) -> None:
        self.closed.append((tuple(asked) if asked is not None else None, code))
        await connection.socket.close(code=code, message=reason)

    async def close(self, code: int = 1000, shard: int | None = None) -> None:
        """Close every connection (or only those of ``shard``) with ``code``."""
        for connection in list(self.connections):
            if shard is None or connection.shard == shard:
                await connection.socket.close(code=code)

    # --- events ----------------------------------------------------------------------------
    def carrying(self, guild: int | None) -> list[Connection]:
        """The identified connections that get ``guild``'s events."""
        return [c for c in self.connections if c.identified and c.carries(guild)]

    async def dispatch(self, event: str, data: Any) -> tuple[int, ...]:
        """Send ``event`` to the connections of its guild's shard; the shards it went to.
        Raises :class:`AssertionError` when no connection carries that guild."""
        guild = guild_of(event, data)
        found = self.carrying(guild)
        if not found:
            raise AssertionError(f"no bot connection carries guild {guild}")
        for connection in found:
            await connection.send(event, data)
        return tuple(c.shard for c in found)

    async def tell(self, event: str, data: Any) -> None:
        """Send ``event`` to whichever connections carry its guild, if any (Discord tells a
        change to the sessions that are there to hear it)."""
        guild = guild_of(event, data)
        for connection in self.carrying(guild):
            await connection.send(event, data)

    # --- REST ------------------------------------------------------------------------------
    def shards_recommended(self) -> int:
        if self.recommended is not None:
            return self.recommended
        return max(1, math.ceil(len(self.fake.guilds) / GUILDS_PER_RECOMMENDED_SHARD))


def bot_gateway(fake: World, request: Request) -> Answer:
    """``GET /gateway/bot``: where to connect, the recommended shard count, and how many
    sessions may still be started."""
    shards = fake.gate.shards_recommended()
    return 200, {"url": fake.gateway, "shards": shards, "session_start_limit": SESSION_START_LIMIT}
