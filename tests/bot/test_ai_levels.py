"""AI seats keep the level they were given (issue 24): ``addai NAME level hard``, the
slash command's option, the stored seat, and the level the AI plays at."""

from __future__ import annotations

from types import SimpleNamespace

from bot.context import Caller, Place
from bot.discord.commands.titan import ADD_AI
from bot.handlers import ai_seats
from bot.handlers.info import computer_lines
from bot.replies import Replies
from bot.service import GameService
from bot.storage import games as rows
from bot.storage.games import SeatRow
from bot.storage.record import load_game
from engine.game.legal import legal_actions
from tests.bot.agent import caller, play

CHANNEL = 6
HUMAN = caller(CHANNEL, 0)


async def submit(service: GameService, text: str, who: Caller = HUMAN) -> Replies:
    return await service.submit(Place(CHANNEL), who, text)


async def test_addai_stores_the_level_with_the_seat(service):
    assert not (await submit(service, "new players 4")).error
    added = await submit(service, "addai Hal level hard")
    assert added.public is not None and added.public.text == "**Hal** (AI, hard) takes seat 2 of 4."
    assert not (await submit(service, "addai level EASY")).error
    assert not (await submit(service, "addai")).error
    refused = await submit(service, "addai Deep level genius")
    assert refused.error and "no level" in refused.ephemeral.text
    game = await service.game_in(CHANNEL)
    assert [s.name for s in game.seats][1:] == ["Hal", "Bot 1", "Bot 2"]
    assert [s.level for s in game.seats] == [None, "hard", "easy", None]
    assert [game.level_of(s) for s in range(1, 4)] == ["hard", "easy", "normal"]
    async with service.db.reading() as db:  # the level is in the database, not just in memory
        row = await rows.game(db, game.id)
        stored = await load_game(db, row)
    assert [s.level for s in stored.seats] == [None, "hard", "easy", None]


async def test_status_names_the_computer_seats_and_their_levels(service):
    for text in ["new players 3", "addai Hal level hard", "addai"]:
        assert not (await submit(service, text)).error
    forming = (await submit(service, "status")).ephemeral.text
    assert "2. Hal (AI, hard)" in forming and "3. Bot 1 (AI, normal)" in forming
    assert not (await submit(service, "start")).error
    playing = (await submit(service, "status")).ephemeral.text
    assert "Played by the computer: **Hal** (hard), **Bot 1** (normal)." in playing


async def test_each_ai_seat_plays_at_its_level(service, monkeypatch):
    asked: dict[int, set[str]] = {}
    real = ai_seats.choose_action

    def recording(state, seat, level):
        asked.setdefault(seat, set()).add(level)
        return real(state, seat, "normal")

    monkeypatch.setattr(ai_seats, "choose_action", recording)
    for text in ["new players 3", "addai Hal level hard", "addai Eve level easy", "start"]:
        assert not (await submit(service, text)).error
    await play(service, CHANNEL, seed=3, limit=30)
    assert asked[1] == {"hard"} and asked[2] == {"easy"}


def test_a_timeout_or_stand_in_plays_hard_unless_told(monkeypatch):
    from engine.game.setup import new_game

    levels: list[str] = []

    def recording(state, seat, level):
        levels.append(level)
        return legal_actions(state, seat)[0]

    monkeypatch.setattr(ai_seats, "choose_action", recording)
    state, _ = new_game(["A", "B"], 5)
    ai_seats.decide(state, 0)
    ai_seats.decide(state, 0, "easy")
    assert levels == ["hard", "easy"]


def test_the_slash_command_writes_the_level():
    assert ADD_AI.text({"name": "Deep Thought", "level": "hard"}) == "addai Deep Thought level hard"
    assert ADD_AI.text({"name": None, "level": "easy"}) == "addai level easy"
    assert ADD_AI.text({}) == "addai"


def test_status_leaves_out_the_computer_seats_already_eliminated():
    from engine.frozen import evolve
    from engine.game.setup import new_game

    state, _ = new_game(["Ann", "Hal", "Bot 1"], 1)
    players = tuple(evolve(p, eliminated=p.seat == 1) for p in state.players)
    seats = [SeatRow(0, 5, "Ann"), SeatRow(1, -1, "Hal", "hard"), SeatRow(2, -2, "Bot 1")]
    game = SimpleNamespace(seats=seats, playing=lambda: evolve(state, players=players))
    assert computer_lines(game) == ["🤖 Played by the computer: **Bot 1** (normal)."]
