"""What the fake Discord records: requests, messages, channels, the interactions a test sent,
and the refusals a test asked for."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID

ACK_WINDOW = 3.0
"""Seconds within which an interaction must be acknowledged (else 10062)."""
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token lives: later follow-ups and edits are refused (50027)."""
NONCE_WINDOW = 5 * 60.0
"""Seconds within which a second post with the same enforced nonce returns the first."""
EPHEMERAL, SILENT, HAS_THREAD = 1 << 6, 1 << 12, 1 << 5
TEXT, DM, CATEGORY, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 4, 11, 12
THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)


@dataclass
class Request:
    """One request as the fake received it. ``at`` is the real monotonic time of arrival
    (what waits for a quiet bot compare); ``clock`` the fake's own clock then."""

    at: float
    method: str
    path: str
    body: Any
    files: list[tuple[str, bytes]]
    status: int = 200
    answer: Any = None
    clock: float = 0.0
    injected: bool = False
    """Refused because a test asked for it (a 429, a server error, a DM refusal)."""
    paced: bool = False
    """Answered 429 by a rate limit bucket (see :mod:`tests.bot.discord.pacing`)."""


@dataclass
class Sent:
    """A message as the fake Discord holds it."""

    id: int
    channel: int
    content: str
    flags: int = 0
    files: list[tuple[str, bytes]] = field(default_factory=list)
    components: list[Any] = field(default_factory=list)
    token: str | None = None
    notified: tuple[int, ...] = ()
    loading: bool = False
    edits: int = 0
    deleted: bool = False
    embeds: list[Any] = field(default_factory=list)
    file_ids: list[int] = field(default_factory=list)
    """The attachments' ids, one per file (an edit names the attachments it keeps)."""
    nonce: str | None = None
    thread: int | None = None
    """The thread started from this message."""
    said: int = 0
    """When its words last changed by an edit (a snowflake of that moment; 0: never)."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def silent(self) -> bool:
        return bool(self.flags & SILENT)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])]


@dataclass
class Channel:
    """A channel of the fake: a guild's categories, text channels, their threads and DMs."""

    id: int
    kind: int
    name: str = ""
    guild: int = GUILD_ID
    """The guild of a category, text channel or thread (a DM's is meaningless)."""
    parent: int | None = None
    """A thread's channel."""
    recipient: int | None = None
    """A DM's user."""
    permissions: int = 0
    """What the bot may do in a text channel (a thread has its parent's)."""
    owner: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive: int = 1440
    category: int | None = None
    """The category a text channel is in."""
    overwrites: list[dict[str, Any]] | None = None
    """A channel made through the API: its permission overwrites as Discord keeps them
    (``permissions`` then follows from them); None for a channel a test set up."""
    members: set[int] = field(default_factory=set)
    """A thread's members (its owner among them)."""
    invitable: bool = True

    @property
    def thread(self) -> bool:
        return self.kind in THREADS


@dataclass
class Pushed:
    """An interaction the test sent, and how the bot answered it."""

    id: int
    token: str
    kind: int
    user: int
    at: float
    message: int | None = None
    ack: int | None = None
    acked_at: float | None = None
    original: int | None = None
    choices: list[Any] | None = None
    channel: int = CHANNEL_ID
    shards: tuple[int, ...] = ()
    """The shards of the gateway connections it was dispatched to."""


class Interactions(dict[int, Pushed]):
    """The interactions by id, and found by their token at once (a long game sends
    thousands; every follow-up names one by its token)."""

    def __init__(self) -> None:
        super().__init__()
        self._tokens: dict[str, Pushed] = {}

    def __setitem__(self, key: int, pushed: Pushed) -> None:
        super().__setitem__(key, pushed)
        self._tokens[pushed.token] = pushed

    def by_token(self, token: str | None) -> Pushed | None:
        return self._tokens.get(token) if token is not None else None


class Messages(dict[int, Sent]):
    """The messages by id, and those made with an interaction's token by that token."""

    def __init__(self) -> None:
        super().__init__()
        self._tokens: dict[str, list[Sent]] = {}

    def __setitem__(self, key: int, message: Sent) -> None:
        if key not in self and message.token is not None:
            self._tokens.setdefault(message.token, []).append(message)
        super().__setitem__(key, message)

    def with_token(self, token: str) -> list[Sent]:
        """The messages made with ``token``, in the order they were made."""
        return list(self._tokens.get(token, ()))


@dataclass
class Trouble:
    """An answer a test asked for: the next ``times`` requests (every one: None) matching
    ``method`` and the ``pattern`` (searched in the path) get ``status``, ``body`` and
    ``headers``."""

    method: str
    pattern: str
    times: int | None
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    def matches(self, method: str, path: str) -> bool:
        due = self.times is None or self.times > 0
        return due and method == self.method and re.search(self.pattern, path) is not None

    def use(self) -> None:
        if self.times is not None:
            self.times -= 1
