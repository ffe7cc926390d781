"""Buttons: they survive a restart, refuse politely when stale, never acknowledge twice."""

from __future__ import annotations

import copy

from bot.discord.components import choices_view
from bot.offers import Menu, Offer, Offers
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from engine.game.state import Phase
from tests.bot.discord.conftest import mistakes, start_bot
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import Sent
from tests.bot.discord.helpers import ANN, BOB, button, click, command, handled, open_game
from tests.bot.discord.payloads import CHANNEL_ID

#: The first decisions of a game, up to its first movement roll.
FIRST = (a.ChooseColour, a.Split, a.Roll)


async def test_a_button_works_after_a_restart(fake, tmp_path):
    database = tmp_path / "games.sqlite3"
    first = await start_bot(fake, database)
    try:
        news = await open_game(fake)
    finally:
        await first.stop()
    second = await start_bot(fake, database)
    try:
        chooser = news.notified[0]
        clicked = await click(fake, chooser, news, button(news, "colour Red"))
        assert clicked.ack == 5  # a response only the clicker sees, for the answer
        [public] = fake.public(clicked)
        assert "takes Red" in public.content
        assert news.components == []  # the used choices left the clicked message
        [answer] = fake.ephemeral(clicked)  # the clicker's news, in that response
        assert answer.id == clicked.original and "Rd01" in answer.content
        assert not answer.loading
        assert fake.dms_to(chooser) == []  # DMs are for what others did
    finally:
        await second.stop()
    assert mistakes(fake) == []


async def test_a_stale_button_is_refused_to_the_clicker_alone(fake, titan):
    news = await open_game(fake)
    chooser = news.notified[0]
    blue = button(news, "colour Blue")
    shown = copy.deepcopy(news)  # as a client that has not caught up still shows it
    await command(fake, chooser, "turn", "colour", colour="Red")
    assert news.components == []  # the decision was made: its buttons left the message
    stale = await click(fake, chooser, shown, blue)
    [answer] = fake.sent_for(stale)
    assert answer.ephemeral and "out of date" in answer.content


async def test_a_button_of_someone_else_s_decision_is_refused(fake, titan):
    news = await open_game(fake)
    other = ANN if news.notified[0] == BOB else BOB
    refused = await click(fake, other, news, button(news, "colour Red"))
    [answer] = fake.sent_for(refused)
    assert answer.ephemeral and "not your turn" in answer.content


async def test_every_interaction_is_acknowledged_exactly_once(fake, titan):
    news = await open_game(fake)
    chooser = news.notified[0]
    first = await click(fake, chooser, news, button(news, "colour Red"))
    [after] = fake.public(first)
    second = after.notified[0]
    double = await fake.click(second, after, after.custom_ids()[0])
    again = await fake.click(second, after, after.custom_ids()[0])  # a double click
    await handled(fake, double)
    await handled(fake, again)
    callbacks = fake.paths("POST", r"interactions/\d+/[^/]+/callback")
    assert len(callbacks) == len(fake.interactions)
    assert [r for r in fake.rejected if r.body and r.status == 400] == []
    news = fake.public(double) + fake.public(again)
    assert len({m.id for m in news}) == 1  # one click counted
    refusals = [
        m for m in fake.ephemeral(double) + fake.ephemeral(again) if "out of date" in m.content
    ]
    assert len(refusals) == 1  # and one refused


async def test_a_menu_choice_runs_its_command(fake, titan):
    news = await open_game(fake)
    chooser = news.notified[0]
    commands = [f"colour {c}" for c in ("Red", "Blue")] + [f"x{n}" for n in range(20)]
    options = tuple(Offer(c.title(), c) for c in commands)
    view = choices_view(Offers(1, 0, (), (Menu("Choose…", options),)))
    menu = Sent(fake.next_id(), news.channel, "choose", components=view.to_components())
    fake.messages[menu.id] = menu
    [menu_id] = menu.custom_ids()
    picked = await handled(fake, await fake.click(chooser, menu, menu_id, values=["colour Blue"]))
    assert "takes Blue" in fake.public(picked)[0].content


async def test_the_private_move_step_takes_the_mulligan(fake, titan):
    await open_game(fake)
    driver = Driver(fake, titan, seed=3, clicks_only=True)
    while True:  # colours, the first split and roll, as the driver clicks them
        _, _, state = await driver.state()
        if state.phase is Phase.MOVE:
            break
        seat = to_act(state)
        await driver.play(next(x for x in legal_actions(state, seat) if isinstance(x, FIRST)))
    game = await titan.bot.service.game_in(CHANNEL_ID)
    mover = game.user_of(to_act(state))
    board = driver.board()
    opened = await click(fake, mover, board, button(board, "choices move"))
    [move_step] = fake.ephemeral(opened)
    assert move_step.content.startswith(f"You rolled {state.turn.roll}.")
    clicked = await click(fake, mover, move_step, button(move_step, "mulligan"))
    _, _, after = await driver.state()
    assert after.turn.mulligan_used and after.phase is Phase.MOVE
    [news] = fake.public(clicked)
    assert "takes a mulligan and rolls" in news.content
