"""Every colour legible on its ground (issue 23): the WCAG 2.x contrast ratio of markers,
counters, edges and texts against what they are drawn on is at least 3:1, computed from
the palette the drawing code uses, for all six player colours; and no player is told
apart by hue alone (their colour's abbreviation or name is drawn too)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

import render.battleland
from engine.battle.position import Side
from engine.battleland import BATTLELANDS
from engine.markers import COLOURS
from engine.masterboard import LANDS
from render.battle_base import hex_fill
from render.battleland import battleland_image, edge_tag
from render.board_base import BORDER, CASTLE, DEFAULT_WIDTH, land_fill, layout
from render.board_info import PlayerInfo, board_info
from render.counters import (
    UNKNOWN,
    UNKNOWN_FILL,
    badge_ink_on,
    draw_counter,
    draw_marker,
    face,
    mark_casing,
    outer_ring,
)
from render.demo import demo_position, demo_state
from render.geometry import Point
from render.strip import ACTIVE_BAND, ALERT, MUTED, draw_strip, swatch_fill
from render.style import (
    BACKGROUND,
    DAMAGE,
    ENGAGED,
    INK,
    LEGIBLE,
    NEUTRAL,
    PAPER,
    PLAYER_COLOURS,
    RGB,
    STRIP,
    casing,
    contrast,
    ink_on,
    player_rgb,
    player_tag,
)
from tests.render.helpers import pixel

#: What a player's colour fills: the six colours, and the grey of an unchosen colour.
FILLS: dict[str, RGB] = {**PLAYER_COLOURS, "unchosen": NEUTRAL}
#: Counter fills: the players' and the grey of a character nobody knows.
COUNTER_FILLS: dict[str, RGB] = {**FILLS, "unknown": UNKNOWN_FILL}

#: What a marker may stand on: a land, its border, a tower's castle, another marker.
BOARD_GROUNDS: set[RGB] = {land_fill(n) for n in LANDS} | {BORDER, CASTLE, *FILLS.values()}
#: What a counter may stand on: any hex of any battleland (raised ones darker).
BATTLE_GROUNDS: set[RGB] = {
    hex_fill(terrain, hexagon)
    for terrain, land in BATTLELANDS.items()
    for hexagon in land.hexes.values()
}
#: Legion cards and the ground round a battleland (where its entry edges are drawn).
CARD_GROUNDS: set[RGB] = {BACKGROUND}
#: The player strip, and the band behind the player whose turn it is.
STRIP_GROUNDS: set[RGB] = {STRIP, ACTIVE_BAND}


def stands_out(fill: RGB, ground: RGB) -> float:
    """How well a cased shape of ``fill`` stands out from ``ground``: the best contrast of
    its fill or either ring against the ground."""
    return max(contrast(tone, ground) for tone in (fill, *casing(fill)))


def test_contrast_is_the_wcag_ratio() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21)
    assert contrast((90, 90, 90), (90, 90, 90)) == pytest.approx(1)
    # WCAG's own example: #767676 is the lightest grey that reads at 4.5:1 on white.
    assert contrast((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast((0x77, 0x77, 0x77), (255, 255, 255)) < 4.5


@given(st.tuples(*[st.integers(0, 255)] * 3))
def test_one_of_the_two_casing_tones_stands_out_from_any_ground(ground: RGB) -> None:
    assert max(contrast(PAPER, ground), contrast(INK, ground)) >= 4


@given(st.tuples(*[st.integers(0, 255)] * 3))
def test_the_inner_ring_stands_out_from_its_fill(fill: RGB) -> None:
    inner, outer = casing(fill)
    assert {inner, outer} == {PAPER, INK}
    assert contrast(inner, fill) >= contrast(outer, fill)


def test_every_player_colour_of_the_rules_has_a_drawing_colour() -> None:
    assert set(PLAYER_COLOURS) == {c.name for c in COLOURS}
    assert player_rgb(None) == NEUTRAL


@pytest.mark.parametrize(
    ("fills", "grounds"),
    [
        (FILLS, BOARD_GROUNDS),
        (FILLS, CARD_GROUNDS),
        (COUNTER_FILLS, BATTLE_GROUNDS),
        (COUNTER_FILLS, CARD_GROUNDS),
    ],
    ids=["markers on the masterboard", "markers on cards", "counters", "counters on cards"],
)
def test_markers_and_counters_stand_out_from_their_grounds(
    fills: dict[str, RGB], grounds: set[RGB]
) -> None:
    weak = [(n, g) for n, f in fills.items() for g in grounds if stands_out(f, g) < LEGIBLE]
    assert not weak
    assert min(contrast(casing(f)[0], f) for f in fills.values()) >= LEGIBLE


def test_black_alone_would_vanish_on_the_dark_ground() -> None:
    """The casing is what makes Black legible (the check above is not vacuous)."""
    assert contrast(PLAYER_COLOURS["Black"], BACKGROUND) < LEGIBLE
    assert stands_out(PLAYER_COLOURS["Black"], BACKGROUND) >= LEGIBLE


def edge_pixels(image: Image.Image, centre: Point, half: float, reach: int) -> Iterable[RGB]:
    """The pixels across the four sides of a square of half side ``half`` (``reach`` px
    either side of its edge, through the middle of each side)."""
    cx, cy = centre
    for d in range(-reach, reach + 1):
        yield pixel(image, cx - half + d, cy)
        yield pixel(image, cx + half + d, cy)
        yield pixel(image, cx, cy - half + d)
        yield pixel(image, cx, cy + half + d)


def drawn_on(ground: RGB, draw_it: object) -> Image.Image:
    image = Image.new("RGB", (200, 200), ground)
    assert callable(draw_it)
    draw_it(ImageDraw.Draw(image))
    return image


@pytest.mark.parametrize("name", list(FILLS))
def test_a_drawn_marker_has_an_edge_that_stands_out_from_every_ground(name: str) -> None:
    size, centre = 60.0, (100.0, 100.0)
    reach = outer_ring(size) + max(2, round(size * 0.05)) + 1
    for ground in BOARD_GROUNDS | CARD_GROUNDS:
        image = drawn_on(ground, lambda d: draw_marker(d, centre, size, "Bk01", 5, FILLS[name]))
        best = max(contrast(p, ground) for p in edge_pixels(image, centre, size / 2, reach))
        assert best >= LEGIBLE, (name, ground)


@pytest.mark.parametrize("name", list(FILLS))
def test_a_drawn_counter_has_an_edge_that_stands_out_from_every_ground(name: str) -> None:
    size, centre = 68.0, (100.0, 100.0)
    reach = outer_ring(size) + max(2, round(size * 0.035)) + 1
    counters = (face("Ogre"), face(UNKNOWN), face("Ogre", hits=3, slain=True))
    for ground in BATTLE_GROUNDS | CARD_GROUNDS:
        for counter in counters:
            image = drawn_on(
                ground, lambda d, c=counter: draw_counter(d, centre, size, c, FILLS[name], tag="Bk")
            )
            best = max(contrast(p, ground) for p in edge_pixels(image, centre, size / 2, reach))
            assert best >= LEGIBLE, (name, ground, counter.name)


@pytest.mark.parametrize("fill", list(COUNTER_FILLS.values()), ids=list(COUNTER_FILLS))
def test_texts_and_marks_on_markers_and_counters_are_legible(fill: RGB) -> None:
    assert contrast(ink_on(fill), fill) >= LEGIBLE  # id, height, name, factors, tag
    assert contrast(badge_ink_on(fill), fill) >= LEGIBLE  # F and R
    # The hits dot and the slain cross: red, cased in the tone that stands out from the
    # counter (red on Red would vanish), the casing itself apart from the red.
    assert max(contrast(DAMAGE, fill), contrast(mark_casing(fill), fill)) >= LEGIBLE
    assert contrast(mark_casing(fill), DAMAGE) >= LEGIBLE
    assert contrast(ink_on(DAMAGE), DAMAGE) >= LEGIBLE  # the number of hits


@pytest.mark.parametrize("name", list(PLAYER_COLOURS))
def test_battle_edges_and_their_tags_stand_out_from_the_ground(name: str) -> None:
    colour = PLAYER_COLOURS[name]
    edge_casing = casing(colour)[0]
    assert max(contrast(colour, BACKGROUND), contrast(edge_casing, BACKGROUND)) >= LEGIBLE
    assert contrast(edge_casing, colour) >= LEGIBLE
    assert contrast(ink_on(colour), colour) >= LEGIBLE  # "Attacker · Black"


def test_the_strip_swatches_and_texts_are_legible() -> None:
    for colour in [*PLAYER_COLOURS, None]:
        for eliminated in (False, True):
            swatch = swatch_fill(PlayerInfo("Ann", colour, 0, eliminated))
            for ground in STRIP_GROUNDS:
                assert stands_out(swatch, ground) >= LEGIBLE, (colour, eliminated, ground)
            assert contrast(ink_on(swatch), swatch) >= LEGIBLE  # its tag
            assert contrast(casing(swatch)[0], swatch) >= LEGIBLE
    for ink in (PAPER, MUTED):  # names and details (muted: eliminated, never active)
        assert contrast(ink, STRIP) >= LEGIBLE
    assert contrast(PAPER, ACTIVE_BAND) >= LEGIBLE
    assert contrast(ALERT, STRIP) >= LEGIBLE and contrast(ENGAGED, STRIP) >= LEGIBLE


def test_land_and_hex_labels_are_legible() -> None:
    assert min(contrast(ink_on(land_fill(n)), land_fill(n)) for n in LANDS) >= LEGIBLE
    assert min(contrast(ink_on(g), g) for g in BATTLE_GROUNDS) >= LEGIBLE
    assert contrast(PAPER, BACKGROUND) >= LEGIBLE  # titles, the turn track, card titles


class TextSpy(ImageDraw.ImageDraw):
    """A drawing context that remembers every text it draws."""

    def __init__(self, image: Image.Image, mode: str | None = None) -> None:
        super().__init__(image, mode)
        self.texts: list[str] = []
        self.boxes: dict[str, tuple[float, float, float, float]] = {}

    def text(self, xy: object, text: object, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        self.texts.append(str(text))
        where = {k: v for k, v in kwargs.items() if k in ("font", "anchor")}
        self.boxes[str(text)] = self.textbbox(xy, str(text), **where)  # type: ignore[arg-type]
        super().text(xy, text, *args, **kwargs)  # type: ignore[arg-type]


def test_players_are_named_by_colour_not_hue_alone_on_the_strip() -> None:
    state = demo_state()
    lay = layout(DEFAULT_WIDTH)
    spy = TextSpy(Image.new("RGB", (lay.width, lay.height)))
    draw_strip(spy, lay, board_info(state), ())
    tags = [player_tag(p.colour) for p in state.players]
    assert len(set(tags)) == len(tags) and all(tags)
    assert all(tag in spy.texts for tag in tags)


def test_markers_carry_their_colours_abbreviation() -> None:
    for colour in COLOURS:
        spy = TextSpy(Image.new("RGB", (100, 100)))
        draw_marker(spy, (50, 50), 60, colour.markers[0], 3, PLAYER_COLOURS[colour.name])
        assert spy.texts[0].startswith(player_tag(colour.name))


def test_battle_counters_and_edges_name_their_owners_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spies: list[TextSpy] = []

    def spying(image: Image.Image, mode: str | None = None) -> TextSpy:
        spies.append(TextSpy(image, mode))
        return spies[-1]

    monkeypatch.setattr(render.battleland.ImageDraw, "Draw", spying)
    position, _, _ = demo_position("Mountains")
    battleland_image(position, attacker_colour="Black", defender_colour="Green", entry_side=3)
    texts = [t for spy in spies for t in spy.texts]
    sides = {f.side for f in position.fighters}
    assert sides == {Side.ATTACKER, Side.DEFENDER}
    attackers = sum(f.side is Side.ATTACKER for f in position.fighters)
    assert texts.count("Bk") == attackers
    assert texts.count("Gr") == len(position.fighters) - attackers
    assert edge_tag(Side.ATTACKER, "Black") in texts and "Black" in edge_tag(Side.ATTACKER, "Black")
    assert edge_tag(Side.DEFENDER, "Green") in texts


@pytest.mark.parametrize("terrain", ["Plains", "Tower"])
@pytest.mark.parametrize("entry", [1, 3, 5])
def test_the_edge_tags_lie_wholly_in_the_picture(
    monkeypatch: pytest.MonkeyPatch, terrain: str, entry: int
) -> None:
    spies: list[TextSpy] = []

    def spying(image: Image.Image, mode: str | None = None) -> TextSpy:
        spies.append(TextSpy(image, mode))
        return spies[-1]

    monkeypatch.setattr(render.battleland.ImageDraw, "Draw", spying)
    position, _, _ = demo_position("Mountains")
    picture = battleland_image(
        replace(position, terrain=terrain),
        attacker_colour="Green",
        defender_colour="Brown",
        entry_side=entry,
    )
    boxes = {t: b for spy in spies for t, b in spy.boxes.items()}
    for tag in (edge_tag(Side.ATTACKER, "Green"), edge_tag(Side.DEFENDER, "Brown")):
        left, top, right, bottom = boxes[tag]
        assert left >= 0 and top >= 0 and right <= picture.width and bottom <= picture.height
