"""The adapter to the render package: each kind of picture, drawn when render can draw it."""

from __future__ import annotations

import importlib.util

import pytest

from bot.pictures import default_renderer, render_with_package
from bot.replies import Picture, PictureKind
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
