"""The game service: turns, refusals that change nothing, replies, pictures, errors."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

import bot.handlers.play
from bot.context import Caller, Place
from bot.replies import PictureKind
from bot.syntax import format_action, parse_command, to_action
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from tests.bot.agent import caller, open_game
from tests.bot.conftest import dump

CHANNEL = 5
HERE = Place(CHANNEL)


async def to_split_phase(service, players=2):
    """A started game with every colour chosen: the first player's split phase."""
    await open_game(service, CHANNEL, players)
    while True:
        game = await service.game_in(CHANNEL)
        if game.state.phase.value != "colours":
            return game
        seat = to_act(game.state)
        text = format_action(legal_actions(game.state, seat)[0])
        assert not (await service.submit(HERE, caller(CHANNEL, seat), text)).error


async def as_actor(service, text):
    game = await service.game_in(CHANNEL)
    return await service.submit(HERE, caller(CHANNEL, to_act(game.state)), text)


async def test_out_of_turn_names_whose_turn_it_is(service):
    await open_game(service, CHANNEL, 3)
    game = await service.game_in(CHANNEL)
    chooser = to_act(game.state)
    other = (chooser + 1) % 3
    replies = await service.submit(HERE, caller(CHANNEL, other), "colour Red")
    assert replies.error
    assert replies.ephemeral.text == (
        f"it is not your turn: waiting for {game.name_of(chooser)} to choose a colour "
        "(`colour COLOUR`)"
    )


async def test_only_seated_users_act(service):
    await open_game(service, CHANNEL, 2)
    watcher = Caller(999, "Watcher")
    assert "not playing" in (await service.submit(HERE, watcher, "colour Red")).ephemeral.text
    assert not (await service.submit(HERE, watcher, "status")).error
    assert not (await service.submit(HERE, watcher, "board")).error


@pytest.mark.parametrize(
    "text",
    [
        "split",
        "split Bk01 Bk02 Titan",
        "move Bk01 104",
        "roll",
        "fight",
        "accept 3",
        "muster Bk01 Troll",
        "frobnicate",
        "Bk01",
        "colour",
        "engage 999",
        'split "x',
    ],
)
async def test_a_refused_command_changes_nothing(service, db_target, text):
    await to_split_phase(service)
    before = dump(db_target)
    cached = await service.game_in(CHANNEL)
    replies = await as_actor(service, text)
    assert replies.error and replies.public is None and not replies.private
    assert replies.ephemeral.text
    assert dump(db_target) == before
    assert await service.game_in(CHANNEL) is cached


async def test_an_unexpected_error_is_logged_with_the_game_and_apologised(
    service, db_target, monkeypatch, caplog
):
    await to_split_phase(service)
    game = await service.game_in(CHANNEL)
    before = dump(db_target)

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(bot.handlers.play, "apply", broken)
    with caplog.at_level(logging.ERROR, logger="bot.damaged_games"):
        replies = await as_actor(service, "roll")
    assert replies.error and replies.ephemeral.text.startswith("Sorry, something went wrong")
    assert replies.fault  # only the apology is marked so
    record = next(r for r in caplog.records if r.name == "bot.damaged_games")
    assert f"game {game.id}" in record.getMessage() and record.exc_info is not None
    assert dump(db_target) == before
    monkeypatch.undo()
    seat = to_act(game.state)
    split = next(x for x in legal_actions(game.state, seat) if isinstance(x, a.Split))
    assert not (await as_actor(service, format_action(split))).error
    refused = await as_actor(service, "roll now")
    assert refused.error and not refused.fault


async def test_a_rules_error_while_storing_is_no_refusal_and_stores_nothing(
    service, db_target, monkeypatch
):
    """An error of the engine's kind raised once the action is being written (here as the
    host's powers would pass on) is a fault, not a refusal: apologised, and nothing of the
    action stays (not even its logged row), so nothing can go on from half of it."""
    from engine.errors import DataError

    await to_split_phase(service)
    before = dump(db_target)
    written = bot.handlers.play.hand_over_host

    async def broken(db, game):
        await written(db, game)
        raise DataError("boom")

    monkeypatch.setattr(bot.handlers.play, "hand_over_host", broken)
    game = await service.game_in(CHANNEL)
    seat = to_act(game.state)
    split = next(x for x in legal_actions(game.state, seat) if isinstance(x, a.Split))
    replies = await as_actor(service, format_action(split))
    assert replies.error and replies.fault, replies.ephemeral.text
    assert dump(db_target) == before


async def test_a_split_is_public_by_height_and_private_by_contents(service):
    game = await to_split_phase(service)
    seat = to_act(game.state)
    split = next(x for x in legal_actions(game.state, seat) if isinstance(x, a.Split))
    replies = await as_actor(service, format_action(split))
    assert not replies.error
    assert "splits in" in replies.public.text and "takes 4" in replies.public.text
    assert "Titan" not in replies.public.text and "Angel" not in replies.public.text
    assert replies.public.mention == ()  # the same player goes on deciding:
    assert replies.public.picture.viewer is None  # the board everyone sees, not the split
    owner = game.user_of(seat)
    assert list(replies.private) == [owner]
    assert "Your legions:" in replies.private[owner].text
    assert "Titan" in replies.private[owner].text


async def test_the_next_decider_is_pinged_and_the_board_attached(service, renderer):
    await open_game(service, CHANNEL, 2)
    game = await service.game_in(CHANNEL)
    first = to_act(game.state)
    replies = await service.submit(HERE, caller(CHANNEL, first), "colour Red")
    second = 1 - first
    assert replies.public.mention == (game.user_of(second),)
    assert replies.public.picture.kind is PictureKind.MASTERBOARD
    assert replies.public.image is None  # the answer does not wait for the picture
    painted = await service.paint(replies.public, CHANNEL)
    assert painted is not None and painted.image == b"\x89PNG-masterboard"
    main = threading.get_ident()
    assert renderer.threads and all(t != main for t in renderer.threads)


async def test_without_a_renderer_or_when_it_fails_there_is_no_image(service):
    await open_game(service, CHANNEL, 3)

    def failing(picture):
        raise OSError("no fonts")

    service.painter.renderer = failing
    replies = await as_actor(service, "colour Red")
    assert not replies.error and (await service.paint(replies.public, CHANNEL)).image is None
    service.painter.renderer = None
    replies = await as_actor(service, "colour Blue")
    assert not replies.error and (await service.paint(replies.public, CHANNEL)).image is None
    assert replies.public.picture is not None


async def test_information_commands(service):
    game = await to_split_phase(service)
    seat = to_act(game.state)
    me = caller(CHANNEL, seat)
    them = caller(CHANNEL, 1 - seat)
    mine = await service.submit(HERE, me, "legions")
    assert "Titan" in mine.ephemeral.text and "8 characters" in mine.ephemeral.text
    assert mine.ephemeral.picture.kind is PictureKind.LEGIONS
    spectator = await service.submit(HERE, Caller(999, "W"), "legions")
    assert "Titan" not in spectator.ephemeral.text
    legal = await service.submit(HERE, me, "legal")
    commands = [line.strip("`") for line in legal.ephemeral.text.splitlines()[1:]]
    assert commands and all(
        to_action(parse_command(c), game.state, seat) for c in commands if not c.startswith("…")
    )
    assert "withdraw" in (await service.submit(HERE, them, "legal")).ephemeral.text
    history = (await service.submit(HERE, me, "history 5")).ephemeral.text
    assert history.splitlines()[-1].startswith(f"#{game.n} ")
    assert "takes" in history
    assert "Waiting for" in (await service.submit(HERE, me, "status")).ephemeral.text
    board = await service.submit(HERE, me, "board")
    assert (await service.paint(board.ephemeral)).image == b"\x89PNG-masterboard"
    assert "power 9, skill 3" in (await service.submit(HERE, me, "creature dragons")).ephemeral.text
    land = (await service.submit(HERE, me, f"land {game.state.player(seat).tower}")).ephemeral
    assert "Tower" in land.text and "8 characters" not in land.text.split("Musters")[0]
    assert "`move`" in (await service.submit(HERE, me, "help")).ephemeral.text
    assert "`move LEGION LAND" in (await service.submit(HERE, me, "help game")).ephemeral.text
    assert (await service.submit(Place(77), me, "creature Dragon")).ephemeral.text


async def test_commands_in_one_channel_are_serialised(service):
    await open_game(service, CHANNEL, 2)
    game = await service.game_in(CHANNEL)
    chooser = caller(CHANNEL, to_act(game.state))
    results = await asyncio.gather(*(service.submit(HERE, chooser, "colour Red") for _ in range(5)))
    assert sum(not r.error for r in results) == 1
    assert (await service.game_in(CHANNEL)).n == 1


async def test_direct_actions_go_through_the_same_checks(service):
    await open_game(service, CHANNEL, 2)
    game = await service.game_in(CHANNEL)
    seat = to_act(game.state)
    wrong = await service.act(HERE, caller(CHANNEL, 1 - seat), a.ChooseColour("Red"))
    assert wrong.error and "not your turn" in wrong.ephemeral.text
    right = await service.act(HERE, caller(CHANNEL, seat), a.ChooseColour("Red"))
    assert not right.error


async def test_the_time_limit_option_reaches_the_engine(service):
    place = Place(60)
    ann, bob = Caller(1, "Ann"), Caller(2, "Bob")
    await service.submit(place, ann, "new players 2 time_limit")
    await service.submit(place, bob, "join")
    await service.submit(place, ann, "start")
    game = await service.game_in(60)
    for _ in range(2):
        seat = to_act(game.state)
        chooser = ann if game.user_of(seat) == 1 else bob
        await service.submit(place, chooser, format_action(legal_actions(game.state, seat)[0]))
        game = await service.game_in(60)
    idle = bob if game.user_of(game.state.active) == 1 else ann
    expired = await service.submit(place, idle, "expire")  # any seat, at any time
    assert not expired.error and "time limit has expired" in expired.public.text
    await open_game(service, CHANNEL, 2)
    game = await service.game_in(CHANNEL)
    refused = await service.submit(HERE, caller(CHANNEL, 1 - to_act(game.state)), "expire")
    assert refused.error and "time limit" in refused.ephemeral.text


def test_long_answers_are_clipped_keeping_the_right_end():
    from bot.handlers.info import clip

    lines = [f"line {i}" for i in range(1000)]
    head = clip(lines, 100)
    assert head.startswith("line 0") and head.endswith("more") and len(head) <= 100
    tail = clip(lines, 100, latest=True)
    assert tail.startswith("…") and tail.endswith("line 999") and len(tail) <= 100
    assert clip(["a", "b"]) == "a\nb"
    hinted = clip(lines, 200, rest=": `choices` goes through them")
    assert hinted.endswith("more: `choices` goes through them") and len(hinted) <= 200
    assert clip(["a", "b"], rest=": elsewhere") == "a\nb"  # said only when lines are left out
