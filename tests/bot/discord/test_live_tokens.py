"""The transport keeps the interactions whose tokens still answer, and only those."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from bot.discord.transport import TOKEN_LIFE, DiscordTransport, InteractionRef


def _interaction(token: str) -> Any:
    return SimpleNamespace(token=token, channel_id=None, application_id=1, app_permissions=None)


def test_an_interaction_is_kept_while_its_token_lives_and_forgotten_after():
    now = [1000.0]
    transport = DiscordTransport(cast(Any, None), clock=lambda: now[0])
    refs = {}
    for minute, token in enumerate(["a", "b", "c"]):
        now[0] = 1000.0 + 60 * minute
        refs[token] = InteractionRef.from_json(transport.reference(_interaction(token), "k", ""))
    assert list(transport._live) == ["a", "b", "c"]
    now[0] = 1000.0 + 180  # "a" comes again: kept as the newest
    transport.reference(_interaction("a"), "k", "")
    assert list(transport._live) == ["b", "c", "a"]
    now[0] = 1000.0 + 120 + TOKEN_LIFE - 1  # "b" has expired, "c" has not
    transport.reference(_interaction("d"), "k", "")
    assert list(transport._live) == ["c", "a", "d"]
    assert not transport._alive(refs["b"]) and transport._alive(refs["c"])
    now[0] = 1000.0 + 180 + TOKEN_LIFE
    transport.reference(_interaction("e"), "k", "")
    assert list(transport._live) == ["d", "e"]
