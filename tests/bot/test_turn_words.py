"""Turns as players count them, everywhere: ``Turn 11 · Bob`` in the narration and the
pictures, ``turn 11, Bob's`` in ``status`` — the game turn (every player's Nth turn), not
the player turns the state counts, and right after an elimination too."""

from __future__ import annotations

import re

from bot.context import Place
from bot.narration.describe import status_text
from bot.narration.narrate import Names, narrate
from bot.service import GameService
from engine.game import actions as a
from engine.game.events import TurnStarted
from engine.game.game_turns import game_turn
from engine.game.legal import legal_actions, to_act
from engine.game.notation import parse_position
from engine.game.state import GameState
from engine.game.view import view
from render.board_info import PlayerInfo, board_info
from render.strip import heading_lines, player_detail
from tests.bot.agent import caller, open_game

CHANNEL = 31
HERE = Place(CHANNEL)
QUICK = (a.ChooseColour, a.Split, a.Roll, a.EndMovement, a.EndTurn, a.Move, a.Engage, a.Flee)
"""The agent's preferences: through every turn with the least that can be done."""


async def state_of(service: GameService) -> GameState:
    game = await service.game_in(CHANNEL)
    assert game is not None and game.state is not None
    return game.state


async def quick_turns(service: GameService, until) -> list[str]:
    """Play the quickest actions until ``until(state)``; the public texts."""
    said = []
    for _ in range(400):
        state = await state_of(service)
        if until(state):
            return said
        seat = to_act(state)
        assert seat is not None
        legal = [x for x in legal_actions(state, seat) if not isinstance(x, a.Withdraw)]
        action = next((x for kind in QUICK for x in legal if isinstance(x, kind)), legal[0])
        replies = await service.act(HERE, caller(CHANNEL, seat), action)
        assert not replies.error, replies.ephemeral
        said.append(replies.public.text if replies.public is not None else "")
    raise AssertionError("never happened")


async def ask(service: GameService, seat: int, text: str) -> str:
    replies = await service.submit(HERE, caller(CHANNEL, seat), text)
    assert not replies.error and replies.ephemeral is not None, (text, replies.ephemeral)
    return replies.ephemeral.text


async def test_turns_are_game_turns_before_and_after_an_elimination(service):
    await open_game(service, CHANNEL, 3)
    said = await quick_turns(service, lambda s: s.turn.number == 1)
    state = await state_of(service)
    first = state.active
    assert f"— Turn 1 · P{first} —" in said[-1]
    said = await quick_turns(service, lambda s: s.turn.number == 4)
    headings = re.findall(r"— Turn (\d+) · (P\d) —", "\n".join(said))
    order = [first, *(int(p[1]) for _, p in headings[:2])]
    assert headings == [("1", f"P{order[1]}"), ("1", f"P{order[2]}"), ("2", f"P{first}")]
    assert (await ask(service, 0, "status")).splitlines()[1] == f"Turn 2, P{first}'s split phase"
    # the last of the turn order withdraws; his turn of game turn 2 begins and ends at once
    leaver = order[2]
    replies = await service.submit(HERE, caller(CHANNEL, leaver), "withdraw confirm")
    assert not replies.error, replies.ephemeral
    said = await quick_turns(service, lambda s: s.turn.number == 11)
    state = await state_of(service)
    assert state.player(leaver).eliminated and state.active == first
    assert game_turn(state) == 5  # player turn 11: 6 of three players, then 5 of two
    told = "\n".join(said)
    assert f"— Turn 2 · P{leaver} —" in told and f"P{leaver} withdrew from the game." in told
    assert re.findall(r"— Turn (\d+) · (P\d) —", told)[-3:] == [
        ("4", f"P{first}"),
        ("4", f"P{order[1]}"),
        ("5", f"P{first}"),
    ]
    status = (await ask(service, order[1], "status")).splitlines()
    assert status[1] == f"Turn 5, P{first}'s split phase"
    history = await ask(service, first, "history 50")
    assert re.findall(r"— Turn (\d+) · (P\d) —", history)[-3:] == [
        ("4", f"P{first}"),
        ("4", f"P{order[1]}"),
        ("5", f"P{first}"),
    ]
    assert f"— Turn 2 · P{leaver} —" in history and "Turn 11" not in history


def test_a_turn_the_states_do_not_place_is_told_without_a_number():
    assert narrate([TurnStarted(1, 7)], Names()) == ["— nobody's turn —"]


async def test_the_masterboard_shows_the_game_turn_and_the_active_player(service):
    await open_game(service, CHANNEL, 2)
    before = board_info(await state_of(service))
    assert heading_lines(before)[0] == "Before turn 1"
    await quick_turns(service, lambda s: s.turn.number == 3)
    state = await state_of(service)
    info = board_info(state)
    assert info.turn == game_turn(state) == 2 == board_info(view(state, None)).turn
    name = state.player(state.active).name
    assert heading_lines(info) == (f"Turn 2 · {name}", "Phase: Split", "Roll: -")


def test_the_strip_counts_legions_and_points_in_agreement():
    one = PlayerInfo("Ann", "Red", 1, False)
    assert player_detail(one, 1) == "1 pt · Titan 6 · 1 legion"
    bob = PlayerInfo("Bob", "Blue", 236, False)
    assert player_detail(bob, 3) == "236 pts · Titan 8 · 3 legions"
    assert player_detail(PlayerInfo("Cat", "Gold", 0, True), 0) == "Gold · eliminated · 0 pts"


def test_status_of_a_game_over_says_in_which_turn_it_ended():
    over = parse_position("Bk01@41:Titan Rd01@600:Titan | turn=Rd phase=muster winners=Bk")
    lines = status_text(over).splitlines()
    assert lines[0] == f"The game ended in turn {game_turn(over)}, Red's"
    assert lines[-1] == "Game over (position): Black"
