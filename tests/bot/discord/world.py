"""What the fake Discord's parts (channels, guilds, gateway, routes) read and change of
the whole fake: its objects and its clock. :class:`~tests.bot.discord.fake.FakeDiscord`
is one; the parts take it as a :class:`World`, so they never import the fake back."""

from __future__ import annotations

from typing import Any, Protocol

from tests.bot.discord.records import Channel, Interactions, Messages, Sent


class Shards(Protocol):
    def shards_recommended(self) -> int: ...


class World(Protocol):
    token: str
    gateway: str
    """The gateway's address (``ws://…``)."""
    messages: Messages
    interactions: Interactions
    commands: dict[str, list[Any]]
    guilds: dict[int, str]
    channels: dict[int, Channel]
    dms_closed: set[int]
    nonces: dict[tuple[int, str], tuple[int, float]]
    identified: list[dict[str, Any]]

    @property
    def gate(self) -> Shards: ...

    @property
    def role_permissions(self) -> int: ...

    def next_id(self) -> int: ...

    def now(self) -> float: ...

    def later(self, event: str, data: Any) -> None: ...

    def dm_channel(self, user: int) -> Channel: ...

    def guild_json(self, guild: int) -> dict[str, Any]: ...

    def message_json(self, message: Sent) -> dict[str, Any]: ...
