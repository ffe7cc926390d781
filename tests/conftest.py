"""Fixtures for the whole suite: nothing in any test can reach Discord.

Every test runs with discord.py's REST base and gateway pointed at a closed loopback port;
the Discord tests point them at their local fake Discord instead.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import discord
import pytest
import yarl


def closed_port() -> int:
    """A loopback port nobody listens on (connections to it are refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point discord.py's REST base and gateway at a closed local port."""
    port = closed_port()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    gateway = yarl.URL(f"ws://127.0.0.1:{port}/")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    yield
