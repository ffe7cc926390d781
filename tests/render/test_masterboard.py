"""The masterboard picture: size, land colours, signs, markers, highlights, no secrets."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from engine.game.state import GameState, Legion, MoveRecord
from engine.game.view import view
from engine.markers import COLOURS
from engine.masterboard import LANDS, TOWERS
from engine.movement import MoveKind
from render.board_base import CASTLE, DEFAULT_WIDTH, land_fill, layout
from render.board_info import BoardInfo, MarkerInfo, MoveInfo, PlayerInfo
from render.demo import demo_state
from render.geometry import inset
from render.masterboard import marker_positions, marker_size, masterboard_png
from render.signs import PROBES, place
from render.style import (
    ENGAGED,
    LAST_MOVE,
    PLAYER_COLOURS,
    REACHABLE,
    SIGN,
    TELEPORT,
    TERRAIN_COLOURS,
)
from tests.render.helpers import decode, near, pixel

FRAME = layout(DEFAULT_WIDTH).frame
PLAYERS = tuple(PlayerInfo(f"P{i}", c.name, 100 * i, False) for i, c in enumerate(COLOURS))


def board(legions: tuple[MarkerInfo, ...] = (), moves: tuple[MoveInfo, ...] = ()) -> BoardInfo:
    return BoardInfo(PLAYERS, legions, "move", 0, 5, 3, moves, None)


@pytest.fixture(scope="module")
def empty() -> object:
    return decode(masterboard_png(board()))


def test_picture_is_a_png_of_the_layout_size(empty):
    lay = layout(DEFAULT_WIDTH)
    assert empty.size == (lay.width, lay.height)
    assert 1600 <= lay.width <= 2000


def test_size_sets_the_width():
    image = decode(masterboard_png(board(), size=1200))
    assert image.size == (1200, layout(1200).height)


def test_terrain_colours_are_distinct():
    colours = list(TERRAIN_COLOURS.values())
    for i, a in enumerate(colours):
        for b in colours[i + 1 :]:
            assert not near(a, b, 30)


@pytest.mark.parametrize("number", sorted(LANDS))
def test_empty_land_centre_has_its_terrain_colour(empty, number):
    expected = CASTLE if number in TOWERS else land_fill(number)
    assert near(pixel(empty, *FRAME.centre(number)), expected)


def test_every_sign_is_drawn_on_its_hexside(empty):
    for number, land in LANDS.items():
        for exit_ in land.exits:
            anchor, along, out = FRAME.sign_anchor(number, exit_.side)
            (x, y) = place([PROBES[exit_.sign]], anchor, along, out, FRAME.s)[0]
            assert near(pixel(empty, x, y), SIGN, 30), (number, exit_)


def test_long_sides_without_an_exit_carry_no_sign(empty):
    checked = 0
    for number, land in LANDS.items():
        used = {e.side for e in land.exits}
        for side in set(land.long_sides) - used:
            anchor, _, _ = FRAME.sign_anchor(number, side)
            assert not near(pixel(empty, *anchor), SIGN, 30), (number, side)
            checked += 1
    assert checked > 50


def _marker_probe(centre: tuple[float, float]) -> tuple[float, float]:
    """A point of a marker's fill, left of its text."""
    return centre[0] - 0.4 * marker_size(FRAME), centre[1]


def test_each_legion_marker_stands_on_its_land():
    legions = tuple(
        MarkerInfo(f"{COLOURS[i % 6].abbrev}{i // 6 % 12 + 1:02d}", i % 6, number, 1 + i % 7)
        for i, number in enumerate(sorted(LANDS))
    )
    image = decode(masterboard_png(board(legions)))
    for legion in legions:
        colour = PLAYER_COLOURS[COLOURS[legion.owner].name]
        centre = marker_positions(FRAME, legion.land, 1)[0]
        assert near(pixel(image, *_marker_probe(centre)), colour), legion


@pytest.mark.parametrize("count", [2, 3])
def test_split_legions_stand_side_by_side(count):
    legions = tuple(MarkerInfo(f"Gd0{i + 1}", 3, 14, 2 + i) for i in range(count))
    image = decode(masterboard_png(board(legions)))
    centres = marker_positions(FRAME, 14, count)
    assert len({round(x) for x, _ in centres}) == count
    for centre in centres:
        assert near(pixel(image, *_marker_probe(centre)), PLAYER_COLOURS["Gold"])


def _band_probe(number: int) -> tuple[float, float]:
    ring = inset(FRAME.vertices(number), max(3, round(FRAME.s * 0.2)) / 2 + FRAME.s * 0.05)
    (x1, y1), (x2, y2) = ring[1], ring[2]
    return (x1 + x2) / 2, (y1 + y2) / 2


def test_reachable_lands_and_engagements_are_outlined():
    legions = (MarkerInfo("Rd01", 5, 23, 7), MarkerInfo("Bu03", 1, 23, 3))
    image = decode(masterboard_png(board(legions), reachable={1, 3, 101}))
    for number in (1, 3, 101):
        assert near(pixel(image, *_band_probe(number)), REACHABLE)
    assert near(pixel(image, *_band_probe(23)), ENGAGED)
    assert not near(pixel(image, *_band_probe(24)), ENGAGED)


def test_last_moves_are_arrows_teleports_in_their_own_colour():
    moves = (MoveInfo("Rd01", 21, 23, False), MoveInfo("Rd05", 500, 128, True))
    image = decode(masterboard_png(board(moves=moves)))
    (x1, y1), (x2, y2) = FRAME.centre(21), FRAME.centre(23)
    assert near(pixel(image, (x1 + x2) / 2, (y1 + y2) / 2), LAST_MOVE)
    (x1, y1), (x2, y2) = FRAME.centre(500), FRAME.centre(128)
    steps = math.ceil(math.hypot(x2 - x1, y2 - y1))
    line = [
        pixel(image, x1 + (x2 - x1) * t / steps, y1 + (y2 - y1) * t / steps) for t in range(steps)
    ]
    assert any(near(p, TELEPORT) for p in line)


def _with_other_secrets(state: GameState) -> GameState:
    """The same board with different legion contents (same heights) and dice."""
    legions = {
        marker: Legion(leg.marker, leg.owner, leg.land, ("Ogre",) * leg.height, ("Ogre",))
        for marker, leg in state.legions.items()
    }
    return replace(state, legions=legions, dice=replace(state.dice, seed=state.dice.seed + 1))


def test_public_picture_carries_no_hidden_information():
    state = demo_state()
    other = _with_other_secrets(state)
    assert other.legions != state.legions
    assert masterboard_png(state) == masterboard_png(other)
    assert masterboard_png(view(state, 0)) == masterboard_png(view(other, 2))
    assert masterboard_png(view(state, None)) == masterboard_png(state)


def test_a_state_draws_its_turn_moves():
    state = demo_state()
    moved = replace(
        state,
        turn=replace(state.turn, moves=(MoveRecord("Rd01", 23, 23, MoveKind.NORMAL, None),)),
    )
    assert masterboard_png(state) != masterboard_png(moved)
