"""The adapter to the render package: each kind of picture, drawn when render can draw it."""

from __future__ import annotations

import importlib.util

import pytest

from bot.pictures import default_renderer, render_message, render_with_package
from bot.replies import Message, Picture, PictureKind
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game

needs_render = pytest.mark.skipif(
    importlib.util.find_spec("render.masterboard") is None, reason="render/ is not there yet"
)


def coloured_state():
    state, _ = new_game(["Ann", "Bob"], 5)
    while state.phase.value == "colours":
        seat = to_act(state)
        state, _ = apply(state, seat, legal_actions(state, seat)[0])
    return state


@needs_render
def test_the_render_package_draws_the_board_and_a_players_legions():
    state = coloured_state()
    assert default_renderer() is render_with_package
    board = render_with_package(Picture(PictureKind.MASTERBOARD, state, land=100))
    assert board is not None and board.startswith(b"\x89PNG")
    mine = render_with_package(Picture(PictureKind.LEGIONS, state, viewer=0))
    assert mine is None or mine.startswith(b"\x89PNG")
    assert render_with_package(Picture(PictureKind.LEGIONS, state)) is None  # nobody's
    assert render_with_package(Picture(PictureKind.BATTLELAND, state)) is None  # no battle


async def test_no_picture_no_renderer_no_work():
    plain = Message("text")
    assert await render_message(plain, lambda p: b"x") is plain
    assert await render_message(None, lambda p: b"x") is None
    with_picture = Message("text", Picture(PictureKind.MASTERBOARD, coloured_state()))
    assert await render_message(with_picture, None) is with_picture
    drawn = await render_message(with_picture, lambda p: b"png")
    assert drawn is not None and drawn.image == b"png" and drawn.picture is with_picture.picture
