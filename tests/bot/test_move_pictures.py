"""The boards of the movement phase: the roller's own (every legal move, teleports too) in
his answer and his move steps, the public one in the channel; stored and drawn again."""

from __future__ import annotations

import importlib.util

import pytest

from bot.outbox.codec import message_from_json, message_to_json
from bot.pictures import masterboard_reach, render_with_package
from bot.replies import Message, Picture, PictureKind
from bot.syntax import format_action
from engine.game import actions as a
from engine.game.legal import legal_actions, to_act
from engine.game.reach import reach
from tests.bot.agent import caller
from tests.bot.test_service import CHANNEL, HERE, to_split_phase
from tests.engine.game.helpers import pos

TOWER_SIX = "Bk01@100:Angel,Ogre*2 Bk02@7:Troll Rd01@600:Titan | turn=Bk phase=move roll=6"


async def rolled(service):
    """The first player's first turn, split and rolled: the game, the seat and the roll's
    replies."""
    game = await to_split_phase(service)
    seat = to_act(game.state)
    me = caller(CHANNEL, seat)
    split = next(x for x in legal_actions(game.state, seat) if isinstance(x, a.Split))
    assert not (await service.submit(HERE, me, format_action(split))).error
    replies = await service.submit(HERE, me, "roll")
    assert not replies.error
    return await service.game_in(CHANNEL), seat, replies


async def test_the_roller_is_answered_with_his_legions_to_move_on_his_own_board(service):
    game, seat, replies = await rolled(service)
    answer = replies.ephemeral
    assert answer is not None and answer.text.startswith(f"You rolled {game.state.turn.roll}.")
    assert answer.picture is not None and answer.picture.kind is PictureKind.MASTERBOARD
    assert answer.picture.viewer == seat and answer.picture.legion is None
    assert answer.offers is not None
    movers = {r.marker for r in reach(game.state, seat)}
    assert {f"choices move {m}" for m in movers} <= set(answer.offers.choices.commands())
    board = replies.public.picture
    assert board.kind is PictureKind.MASTERBOARD and board.viewer is None  # the channel's


async def test_choosing_a_legion_shows_its_lands_on_the_movers_board(service):
    game, seat, _ = await rolled(service)
    me = caller(CHANNEL, seat)
    marker = reach(game.state, seat)[0].marker
    chosen = await service.submit(HERE, me, f"choices move {marker}")
    picture = chosen.ephemeral.picture
    assert picture.viewer == seat and picture.legion == marker
    land = reach(game.state, seat)[0].destinations[0]
    how = await service.submit(HERE, me, f"choices move {marker} {land}")
    assert how.ephemeral.picture.legion == marker and how.ephemeral.picture.land == land


async def test_a_move_chosen_in_a_step_is_followed_by_the_next_step_with_its_board(service):
    game, seat, _ = await rolled(service)
    first = reach(game.state, seat)[0]
    command = f"move {first.marker} {first.lands[0]}"
    replies = await service.submit(HERE, caller(CHANNEL, seat), command, step=True)
    assert not replies.error
    after = await service.game_in(CHANNEL)
    left = reach(after.state, seat)
    assert left and first.marker not in {r.marker for r in left}
    picture = replies.ephemeral.picture
    assert picture is not None and picture.viewer == seat and picture.legion is None


def test_the_chosen_legion_is_stored_with_the_picture_and_old_rows_still_read():
    state = pos(TOWER_SIX)
    chosen = Picture(PictureKind.MASTERBOARD, state, viewer=0, legion="Bk01")
    stored = message_from_json(message_to_json(Message("Where to?", chosen)))
    assert stored.drawing is not None and stored.drawing.of(state) == chosen
    plain = Picture(PictureKind.MASTERBOARD, state, land=100)
    text = message_to_json(Message("Moved.", plain))
    assert '"picture":["masterboard",null,100,null]' in text  # as rows were stored before
    old = message_from_json(text)
    assert old.drawing is not None and old.drawing.of(state) == plain


needs_render = pytest.mark.skipif(
    importlib.util.find_spec("render.masterboard") is None, reason="render/ is not there yet"
)


@needs_render
def test_the_board_is_drawn_with_the_reach_its_viewer_may_know():
    from render.masterboard import masterboard_png

    state = pos(TOWER_SIX)
    mine = Picture(PictureKind.MASTERBOARD, state, viewer=0)
    public = Picture(PictureKind.MASTERBOARD, state)
    assert masterboard_reach(mine) == reach(state, 0)
    assert masterboard_reach(public) == reach(state, None) != reach(state, 0)
    assert render_with_package(mine) == masterboard_png(state, reach=reach(state, 0))
    assert render_with_package(public) == masterboard_png(state, reach=reach(state, None))
    assert render_with_package(mine) != render_with_package(public)  # the Angel's teleports
