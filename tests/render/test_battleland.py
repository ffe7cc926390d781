"""The battleland picture: hexes, hazards, hexside hazards, edges and counters."""

from __future__ import annotations

import pytest

from engine.battle.position import Position, Side, fighter
from engine.battleland import BATTLELANDS, EDGES, LABELS, attacker_edge, defender_edge
from render.battle_base import DEFAULT_WIDTH, battle_layout, hex_fill, hexside_anchor
from render.battleland import battleland_png, counter_size
from render.style import HEXSIDE_COLOURS, HIGHLIGHT, PLAYER_COLOURS, REACHABLE
from tests.render.helpers import decode, near, pixel

LAYOUT = battle_layout(DEFAULT_WIDTH)
FRAME = LAYOUT.frame
TERRAINS = sorted(BATTLELANDS)


def empty(terrain: str) -> Position:
    return Position(terrain, ())


@pytest.fixture(scope="module")
def pictures() -> dict[str, object]:
    return {t: decode(battleland_png(empty(t))) for t in TERRAINS}


def test_every_terrain_draws_a_png_of_the_layout_size(pictures):
    assert len(pictures) == 11
    for image in pictures.values():
        assert image.size == (LAYOUT.width, LAYOUT.height)


@pytest.mark.parametrize("terrain", TERRAINS)
def test_every_hex_has_its_hazard_colour(pictures, terrain):
    image = pictures[terrain]
    for label in LABELS:
        cx, cy = FRAME.centre(label)
        probe = (cx + 0.16 * FRAME.r, cy + 0.3 * FRAME.r)  # clear of icons and text
        expected = hex_fill(terrain, BATTLELANDS[terrain].hexes[label])
        assert near(pixel(image, *probe), expected), (terrain, label)


@pytest.mark.parametrize("terrain", TERRAINS)
def test_hexside_hazards_are_drawn_on_their_owners_side(pictures, terrain):
    image = pictures[terrain]
    for label, hexagon in BATTLELANDS[terrain].hexes.items():
        for side, hazard in enumerate(hexagon.hexsides):
            (x1, y1), (x2, y2) = hexside_anchor(FRAME, label, side)
            colour = pixel(image, (x1 + x2) / 2, (y1 + y2) / 2)
            if hazard is not None:
                assert near(colour, HEXSIDE_COLOURS[hazard], 20), (label, side, hazard)
            elif hexagon.opposite[side] is None:  # a lower hex sees its neighbour's ticks
                assert not any(near(colour, c, 8) for c in HEXSIDE_COLOURS.values()), (label, side)


def test_counters_stand_in_their_hexes_in_their_sides_colour():
    fighters = (
        fighter("Titan", Side.ATTACKER, "A1", score=300),
        fighter("Serpent", Side.DEFENDER, "F4", hits=5),
        fighter("Ogre", Side.DEFENDER, "D4"),
    )
    image = decode(battleland_png(Position("Plains", fighters), attacker_colour="Green"))
    colours = {Side.ATTACKER: PLAYER_COLOURS["Green"], Side.DEFENDER: PLAYER_COLOURS["Blue"]}
    for who in fighters:
        cx, cy = FRAME.centre(who.hex)
        assert near(pixel(image, cx - 0.4 * counter_size(FRAME), cy), colours[who.side]), who


def _outside(label: str, side: int) -> tuple[float, float]:
    band = max(4, round(FRAME.r * 0.12))
    (x1, y1), (x2, y2) = FRAME.side(label, side, shrink=-band * 0.7)
    return (x1 + x2) / 2, (y1 + y2) / 2


@pytest.mark.parametrize(("terrain", "entry_side"), [("Plains", 1), ("Woods", 3), ("Tower", 5)])
def test_entry_edges_are_marked_in_the_sides_colours(terrain, entry_side):
    tower = terrain == "Tower"
    image = decode(battleland_png(empty(terrain), entry_side=entry_side, defender_colour="Gold"))
    for edge, colour in (
        (attacker_edge(entry_side, tower), PLAYER_COLOURS["Red"]),
        (defender_edge(entry_side, tower), PLAYER_COLOURS["Gold"]),
    ):
        for label in edge.hexes:
            sides = (edge.index, (edge.index + 1) % 6)
            off = [s for s in sides if BATTLELANDS[terrain].hexes[label].neighbours[s] is None]
            assert any(near(pixel(image, *_outside(label, s)), colour) for s in off), label


def test_without_an_entry_side_the_attacker_edges_are_shown():
    image = decode(battleland_png(empty("Plains")))
    a1 = pixel(image, *_outside("A1", 3))
    assert a1 == pixel(image, *_outside("F1", 1))
    assert a1 != pixel(image, *_outside("A2", 4))  # edge 4 is a defender edge
    assert {e.index for e in EDGES if e.role == "attacker"} == {1, 3, 5}


def test_destinations_are_dotted_and_the_selected_hex_ringed():
    who = fighter("Gorgon", Side.ATTACKER, "C3")
    image = decode(
        battleland_png(Position("Plains", (who,)), selected="C3", destinations={"D4", "A1"})
    )
    for label in ("D4", "A1"):
        assert near(pixel(image, *FRAME.centre(label)), REACHABLE), label
    assert not near(pixel(image, *FRAME.centre("B2")), REACHABLE)
    band = max(3, round(FRAME.r * 0.09))
    (x1, y1), (x2, y2) = FRAME.side("C3", 0, shrink=band / 2 + FRAME.r * 0.04)
    assert near(pixel(image, (x1 + x2) / 2, (y1 + y2) / 2), HIGHLIGHT)


def test_highlights_and_track_draw_without_error():
    fighters = (fighter("Ranger", Side.ATTACKER, "C2"), fighter("Troll", Side.DEFENDER, "E3"))
    plain = battleland_png(Position("Hills", fighters))
    marked = battleland_png(
        Position("Hills", fighters),
        turn=7,
        last_move=("B1", "C2"),
        last_strike=("C2", "E3"),
        strike_result="1 hit",
        rangestrike=True,
    )
    assert plain != marked
    decode(marked)
