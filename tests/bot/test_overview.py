"""``games`` (organisers): every open game of the server, the stalled ones first, each with
its channel, players, turn, whom it waits for and since when; nothing of another server,
no legion's contents, and nothing for a player who is no organiser."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.context import Caller, Place
from bot.schedule.clock import ManualClock
from bot.service import GameService
from engine.characters import CHARACTERS

GUILD, OTHER = 8_100_000_000_000_000, 8_200_000_000_000_000
ANN = Caller(1_000_000_000_000_000_001, "Ann")
BOB = Caller(1_000_000_000_000_000_002, "Bob")
CAT = Caller(1_000_000_000_000_000_003, "Cat")
ORGANISER = Caller(1_000_000_000_000_000_009, "Org", organiser=True)
DAY = 86400.0
STAMP = re.compile(r"<t:(\d+):R>")


@pytest.fixture
async def clocked(db_target):
    clock = ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())
    service = await GameService.open(db_target, seeds=lambda: 7, wall_clock=clock)
    yield service, clock
    await service.close()


async def _say(service: GameService, place: Place, who: Caller, text: str) -> str:
    replies = await service.submit(place, who, text)
    assert not replies.error, (text, replies.ephemeral)
    return replies.ephemeral.text if replies.ephemeral is not None else ""


async def _game(service: GameService, place: Place, *players: Caller, options: str = "") -> None:
    host, *guests = players
    await _say(service, place, host, f"new players {len(players)} {options}".strip())
    for guest in guests:
        await _say(service, place, guest, "join")
    await _say(service, place, host, "start")


async def test_the_stalled_games_come_first_and_only_this_servers(clocked):
    service, clock = clocked
    slow, quick, forming = Place(11, GUILD), Place(12, GUILD), Place(13, GUILD)
    elsewhere = Place(21, OTHER)
    await _game(service, slow, ANN, BOB)
    clock.advance(2 * DAY)  # the first game waits two days for its first colour
    await _game(service, quick, BOB, CAT, options="deadline 4h")
    await _say(service, forming, CAT, "new players 3")
    await _game(service, elsewhere, ANN, CAT)
    listed = await _say(service, Place(99, GUILD), ORGANISER, "games")
    head, *lines = listed.splitlines()
    assert head == "3 open games on this server; ⚠️ 1 stalled:"
    assert [line.split(" game #")[0] for line in lines] == ["- <#11>", "- <#12>", "- <#13>"]
    assert lines[0].startswith("- <#11> game #1 (Ann, Bob), before turn 1: waits for **")
    assert lines[0].endswith(f"to choose a colour since <t:{int(clock.now() - 2 * DAY)}:R>")
    assert [int(t) for t in STAMP.findall(lines[1])] == [
        int(clock.now()),
        int(clock.now() + 4 * 3600),
    ]
    assert lines[2] == "- <#13> game #3: forming, 1 of 3 seats taken (Cat)"
    assert "`" not in listed  # no command hint: they would act in the organiser's channel
    assert not any(name in listed for name in CHARACTERS)  # no legion's contents


async def test_a_game_past_its_deadline_is_stalled_and_a_player_may_not_list(clocked):
    service, clock = clocked
    await _game(service, Place(11, GUILD), ANN, BOB, options="deadline 4h timeout pause")
    clock.advance(5 * 3600)
    listed = await _say(service, Place(11, GUILD), ORGANISER, "games")
    assert listed.splitlines()[0] == "1 open game on this server; ⚠️ 1 stalled:"
    refused = await service.submit(Place(11, GUILD), ANN, "games")
    assert refused.error and refused.ephemeral is not None
    assert refused.ephemeral.text.endswith("only an organiser may list this server's games")
    empty = await _say(service, Place(31, OTHER + 1), ORGANISER, "games")
    assert empty == "No game is open on this server."
    terminal = await _say(service, Place(41), ORGANISER, "games")  # no server: the terminal's
    assert terminal == "No game is open here."
