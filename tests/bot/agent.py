"""A random legal-action agent that plays through text commands (tests and benchmarks).

Its choice depends only on (seed, action number), so a game interrupted and resumed in
another process continues exactly as an uninterrupted one. A *fighting* agent mostly
avoids fleeing, negotiating and conceding, so that its games have battles. Asked to, it
shows one of its legions to everyone now and then (errata 4.5).
"""

from __future__ import annotations

import random

from bot.context import Caller, Place
from bot.replies import Replies
from bot.second_look import cost
from bot.service import GameService
from bot.storage.record import Game
from bot.syntax import FORMATTERS, format_action
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState

SKIP = (a.Withdraw, a.TakeBack, a.UndoSplit, a.ExpireTimeLimit, a.Reveal)
PEACEFUL = (a.Flee, a.Concede, a.Propose, a.NoMoreProposals, a.Accept, b.ConcedeInstead)


def user_id(channel: int, seat: int) -> int:
    return channel * 100 + seat + 1


def caller(channel: int, seat: int) -> Caller:
    return Caller(user_id(channel, seat), f"P{seat}")


def pick(
    choices: list[a.Action], rng: random.Random, fighting: bool = False, showing: float = 0.0
) -> a.Action:
    """A random playable action; a fighting agent seldom chooses a peaceful one; with
    probability ``showing`` it shows a legion instead, when it has one to show."""
    playable = [x for x in choices if not isinstance(x, SKIP)]
    warlike = [x for x in playable if not isinstance(x, PEACEFUL)]
    if fighting and warlike and rng.random() < 0.97:
        playable = warlike
    chosen = rng.choice(playable)
    shows = [x for x in choices if isinstance(x, a.Reveal)]
    return rng.choice(shows) if showing and shows and rng.random() < showing else chosen


def command_for(state: GameState, seat: int, action: a.Action) -> str:
    """The command giving ``action``, confirmed when the bot would take a second look (the
    agent means what it picks: ending maneuvers with characters off the board, a
    concession…)."""
    command = format_action(action)
    return f"{command} confirm" if cost(state, seat, action) is not None else command


def choose(
    state: GameState, seed: int, n: int, fighting: bool = False
) -> tuple[int, str | a.Action]:
    """The seat to act and its command after ``n`` actions (an action when no verb exists)."""
    seat = to_act(state)
    assert seat is not None
    action = pick(legal_actions(state, seat), random.Random(f"{seed}:{n}"), fighting)
    return seat, command_for(state, seat, action) if type(action) in FORMATTERS else action


async def open_game(service: GameService, channel: int, players: int) -> None:
    """Open, fill and start a game in ``channel`` with seats P0…"""
    place = Place(channel)
    steps = [(0, f"new players {players}")] + [(s, "join") for s in range(1, players)]
    for seat, text in [*steps, (0, "start")]:
        replies = await service.submit(place, caller(channel, seat), text)
        assert not replies.error, (text, replies.ephemeral)


async def step(
    service: GameService, channel: int, seed: int, fighting: bool = False
) -> tuple[Game, str | a.Action, Replies]:
    """One agent command in ``channel`` (once the AI seats playing there are done); the
    game before it, the command and the replies."""
    await service.ai.idle([channel])
    game = await service.game_in(channel)
    assert game is not None and game.state is not None
    seat, command = choose(game.state, seed, game.n, fighting)
    who = caller(channel, seat)
    if isinstance(command, str):
        replies = await service.submit(Place(channel), who, command)
    else:
        replies = await service.act(Place(channel), who, command)
    assert not replies.error, (command, replies.ephemeral)
    return game, command, replies


async def play(
    service: GameService, channel: int, seed: int, limit: int = 100_000, fighting: bool = False
) -> int:
    """Play until the game is over (or ``limit`` commands); the commands given."""
    for count in range(limit):
        await service.ai.idle([channel])
        game = await service.game_in(channel)
        if game is None:
            return count
        await step(service, channel, seed, fighting)
    return limit
