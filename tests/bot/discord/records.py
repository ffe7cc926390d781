"""What the fake Discord records: requests, messages and the interactions a test sent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ACK_WINDOW = 3.0
"""Seconds within which an interaction must be acknowledged (else 10062)."""
EPHEMERAL, SILENT = 1 << 6, 1 << 12


@dataclass
class Request:
    at: float
    method: str
    path: str
    body: Any
    files: list[tuple[str, bytes]]
    status: int = 200
    answer: Any = None


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

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def silent(self) -> bool:
        return bool(self.flags & SILENT)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])]


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
