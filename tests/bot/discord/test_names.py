"""Hostile Discord display names through the real bot: cleaned into seat names when they
are the default, escaped when an organiser's name is shown."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import ANN, BOB, CAROL, command, handled

DISPLAY_NAMES = {ANN: "**Ann** 🐉", BOB: "[gift](https://x)", CAROL: "<@123> @everyone\u202e"}


@pytest.fixture
def hostile_display_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every payload of these users carries their hostile display name."""
    plain = p.user

    def user(uid: int) -> dict[str, Any]:
        found = plain(uid)
        return found | {"global_name": DISPLAY_NAMES[uid]} if uid in DISPLAY_NAMES else found

    monkeypatch.setattr(p, "user", user)


async def test_display_names_are_cleaned_into_seat_names(fake, titan, hostile_display_names):
    opened = await command(fake, ANN, "titan", "new", players=3)
    assert fake.public(opened)[0].content.startswith("**Ann** opened game #1")
    seat_bob = p.command_data(("titan", "invite"), {"user": p.Mention(BOB)}, None)
    added = await handled(fake, await fake.push(2, ANN, seat_bob))  # an option named user
    assert "to play as **gift https x**" in fake.public(added)[0].content
    accepted = await command(fake, BOB, "titan", "join")
    assert "**gift https x** takes seat 2 of 3." in fake.public(accepted)[0].content
    joined = await command(fake, CAROL, "titan", "join")
    assert "**123 everyone** takes seat 3 of 3." in fake.public(joined)[0].content


async def test_an_organisers_display_name_is_escaped(fake, titan, hostile_display_names):
    await command(fake, ANN, "titan", "new", players=2)
    aborted = await command(fake, CAROL, "titan-admin", "abort", permissions=p.ORGANISER)
    [news] = fake.public(aborted)
    *_said, last = news.content.splitlines()  # added to the channel's live message
    assert last == "Game #1 was cancelled by \\<\\@123\\> \\@everyone."
