"""Battles through the service: text commands only, their words, pictures and info."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import pytest

from bot.context import Place
from bot.pictures import render_with_package
from bot.replies import BattleMarks, BattleStage, Picture, PictureKind, Replies
from bot.service import GameService
from bot.storage import Status
from bot.storage import games as rows
from bot.syntax import parse_command
from engine.game.battle_flow import battle_of
from tests.bot.agent import caller, open_game, step
from tests.engine.battle.helpers import battle_game

CHANNEL = 12
AGENTS = (5, 6, 7, 8, 9)
LIMIT = 20_000
Watch = Callable[[str, Replies], None]


async def play_fighting(
    service: GameService, channel: int, agent: int, watch: Watch | None = None
) -> list[str]:
    """A whole game by the fighting agent; every command is text. The commands."""
    commands: list[str] = []
    while len(commands) < LIMIT:
        game = await service.game_in(channel)
        if game is None:
            return commands
        _, command, replies = await step(service, channel, agent, fighting=True)
        assert isinstance(command, str), f"no command writes {command!r}"
        commands.append(command)
        if watch is not None:
            watch(command, replies)
    raise AssertionError("the game did not end")


class PictureRules:
    """Checks each public message: every action's news carries the picture of the state
    it leaves — the battleland while a battle is fought, else the masterboard — and says
    where a battle's news goes."""

    def __init__(self) -> None:
        self.battle_news = self.battle_pictures = 0

    def __call__(self, command: str, replies: Replies) -> None:
        public = replies.public
        assert public is not None and public.picture is not None, command
        assert public.picture.viewer is None  # the board everyone sees
        fighting = public.battle is not None and public.battle.stage is BattleStage.DURING
        if "— Battle turn" in public.text or "Battle in " in public.text:
            self.battle_news += 1
        if public.picture.kind is PictureKind.BATTLELAND:
            self.battle_pictures += 1
        if fighting:
            assert public.picture.kind is PictureKind.BATTLELAND, public.text


async def test_whole_games_with_battles_through_text_commands(db_target):
    """Random games (seeded agents that would rather fight) end, commanded in text only;
    at least one of them fights battles with maneuvers and strikes."""
    service = await GameService.open(db_target, seeds=lambda: 9, snapshot_every=25)
    pictures = PictureRules()
    verbs: set[str] = set()
    try:
        for channel, agent in enumerate(AGENTS, start=CHANNEL):
            await open_game(service, channel, 2)
            game_id = (await service.game_in(channel)).id
            commands = await play_fighting(service, channel, agent, pictures)
            async with service.db.reading() as db:
                row = await rows.game(db, game_id)
            assert row is not None and row.status is Status.OVER
            verbs |= {parse_command(c).verb for c in commands}
            if {"maneuver", "strike", "done"} <= verbs:
                break
    finally:
        await service.close()
    assert {"maneuver", "strike", "done"} <= verbs
    assert pictures.battle_news > 0 and pictures.battle_pictures >= pictures.battle_news


async def until_battle(service: GameService) -> int:
    """Play games (a channel each) until one is in a battle; that channel."""
    for channel, agent in enumerate(AGENTS, start=CHANNEL):
        await open_game(service, channel, 2)
        for _ in range(LIMIT):
            game = await service.game_in(channel)
            if game is None:
                break
            if battle_of(game.state) is not None:
                return channel
            await step(service, channel, agent, fighting=True)
    raise AssertionError("no game came to a battle")


async def test_battle_and_legions_information_during_a_battle(service):
    await open_game(service, 99, 2)
    replies = await service.submit(Place(99), caller(99, 0), "battle")
    assert replies.error and "no battle" in replies.ephemeral.text
    channel = await until_battle(service)
    here = Place(channel)
    game = await service.game_in(channel)
    answer = (await service.submit(here, caller(channel, 1), "battle")).ephemeral
    assert answer is not None and answer.text.startswith("**Battle in ")
    assert "Attacker " in answer.text and "Defender " in answer.text and "Now: " in answer.text
    assert answer.picture is not None and answer.picture.kind is PictureKind.BATTLELAND
    assert (await service.paint(answer)).image == b"\x89PNG-battleland"
    mine = (await service.submit(here, caller(channel, 0), "legions")).ephemeral
    assert mine is not None and mine.picture is not None
    assert mine.picture.kind is PictureKind.LEGIONS and mine.picture.viewer == 0
    status = (await service.submit(here, caller(channel, 0), "status")).ephemeral
    assert status is not None and f"(battle in {game.state.engagement.land}, turn" in status.text


needs_render = pytest.mark.skipif(
    importlib.util.find_spec("render.battleland") is None, reason="render/ is not there"
)


@needs_render
def test_the_battleland_is_drawn_with_its_highlights():
    state = battle_game(
        "Tower t2 attacker strike: Bk01 Centaur@D4:2 Lion@E3 | Rd01 Serpent@D3 Ranger@A2"
    )
    marks = BattleMarks(last_move=("C3", "D3"), last_strike=("D3", "D4"), strike_result="2 hits")
    for picture in (
        Picture(PictureKind.BATTLELAND, state, land=1, marks=marks),
        Picture(PictureKind.BATTLELAND, state, marks=BattleMarks(entered="A2")),
        Picture(PictureKind.BATTLELAND, state),
        Picture(PictureKind.LEGIONS, state, viewer=0),
    ):
        image = render_with_package(picture)
        assert image is not None and image.startswith(b"\x89PNG")
