"""Whole games played by clicking alone: every decision a button or a menu on the fake Discord.

Three and four players play whole games in which, once the game is opened (``/titan
new``), everything is a click: the seats and the start are the lobby's buttons, and the
driver may only click (buttons and menus: the board's, then the private steps'); it fails
at the first decision no click gives. The test reports the share of decisions made by
clicking and the pictures the channel received.
"""

from __future__ import annotations

import pytest

from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import mistakes
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Sent
from tests.bot.discord.helpers import ANN, BOB, CAROL, button, click, command

DAVE = 700_000_000_000_000_014
MOST_STEPS = 4000


async def open_table(fake: FakeDiscord, players: list[int], *, clicking: bool = False) -> None:
    """The first player opens a game for all of them (``/titan new``), the others take a
    seat, the host starts: by commands, or ``clicking`` the lobby's buttons."""
    await command(fake, players[0], "titan", "new", players=len(players))
    for user in players[1:]:
        if clicking:
            await click(fake, user, lobby(fake), button(lobby(fake), "join"))
        else:
            await command(fake, user, "titan", "join")
    if clicking:
        await click(fake, players[0], lobby(fake), button(lobby(fake), "start"))
    else:
        await command(fake, players[0], "titan", "start")


def lobby(fake: FakeDiscord) -> Sent:
    """The channel's message with the lobby's buttons."""
    found = [m for m in fake.in_channel(p.CHANNEL_ID) if not m.ephemeral and m.components]
    return found[-1]


def pictures(fake: FakeDiscord) -> int:
    """The news the game's channel and its threads received with a picture: each post or
    edit of a message's words after which it shows one (uploaded with it, or kept from
    before when the picture is the same)."""
    places = {p.CHANNEL_ID} | {t.id for t in fake.threads()}
    shown = [
        r
        for r in fake.requests
        if r.status < 300 and r.method in ("POST", "PATCH")
        and (r.path.startswith("channels/") and int(r.path.split("/")[1]) in places)
        and "content" in (r.body or {}) and isinstance(r.answer, dict)
        and any(a["filename"].endswith(".png") for a in r.answer.get("attachments", []))
    ]  # fmt: skip
    return len(shown)


@pytest.mark.parametrize(
    ("players", "seed"), [([ANN, BOB, CAROL], 3), ([ANN, BOB, CAROL, DAVE], 4)]
)
async def test_a_whole_game_is_played_by_clicking_alone(fake, titan, players, seed):
    await open_table(fake, players, clicking=True)
    driver = Driver(fake, titan, seed=seed, clicks_only=True)
    steps = 0
    while await driver.step() is not None:
        steps += 1
        assert steps < MOST_STEPS, "the game did not end"
    clicked = driver.ways.get("button", 0) + driver.ways.get("private step", 0)
    share = clicked / steps
    drawn = pictures(fake)
    print(
        f"\n{len(players)} players: {steps} decisions, {share:.0%} by clicking "
        f"({driver.ways}), {driver.confirmations} confirmed after a second look, "
        f"{drawn} pictures"
    )
    assert driver.ways.get("command", 0) == 0 and share == 1.0
    assert drawn >= steps // 2  # a picture with (nearly) every action's news
    assert mistakes(fake) == []
