"""The masterboard after the roll: where each legion may go, and a legend of what is drawn."""

from __future__ import annotations

from PIL import Image

from engine.game.reach import Reach, reach
from engine.game.state import GameState
from render.board_base import DEFAULT_WIDTH, layout
from render.board_info import board_info
from render.legend import BADGE_FILL, Key
from render.marks import band_ring, letter_centres, plan
from render.masterboard import legion_centres, masterboard, tag_centre
from render.style import ENGAGED, HIGHLIGHT, REACHABLE, RGB, TELEPORT
from tests.engine.game.helpers import pos
from tests.render.helpers import near, pixel

LAY = layout(DEFAULT_WIDTH)
FRAME = LAY.frame
#: Bk01 in a Tower with a lord, on a 6 (RULES §4.4); Bk02 in the open, no lord.
TOWER_SIX = "Bk01@100:Angel,Ogre*2 Bk02@7:Troll Rd01@600:Titan | turn=Bk phase=move roll=6"
BANDS: dict[Key, RGB] = {
    Key.ENGAGED: ENGAGED,
    Key.REACHABLE: REACHABLE,
    Key.TELEPORT_TO: TELEPORT,
    Key.HIGHLIGHT: HIGHLIGHT,
}


def band_colour(image: Image.Image, number: int, depth: int = 0) -> tuple[int, int, int]:
    """The colour in the middle of a land's ``depth``-th band, on its second side."""
    ring = band_ring(FRAME, number, depth)
    (x1, y1), (x2, y2) = ring[1], ring[2]
    return pixel(image, (x1 + x2) / 2, (y1 + y2) / 2)


def of(found: tuple[Reach, ...], marker: str) -> Reach:
    return next(r for r in found if r.marker == marker)


def test_the_movers_own_board_marks_his_teleport_destinations():
    state = pos(TOWER_SIX)
    mine = reach(state, 0)
    image = masterboard(state, reach=mine)
    teleports = of(mine, "Bk01").teleports
    assert {200, 300, 400, 500} <= set(teleports)
    for number in teleports:
        assert near(band_colour(image, number), TELEPORT), number
    for legion in mine:
        for number in legion.lands:
            assert near(band_colour(image, number), REACHABLE), number


def test_the_public_board_marks_the_moves_but_no_teleport_of_a_hidden_lord():
    state = pos(TOWER_SIX)
    public = reach(state, None)
    image = masterboard(state, reach=public)
    for number in of(reach(state, 0), "Bk01").teleports:
        assert not near(band_colour(image, number), TELEPORT), number
    assert of(public, "Bk01").lands
    for legion in public:
        for number in legion.lands:
            assert near(band_colour(image, number), REACHABLE), number
    assert Key.TELEPORT_TO not in plan(board_info(state), reach=public).legend()


def test_several_legions_are_told_apart_by_letters_on_their_markers_and_lands():
    state = pos(TOWER_SIX)
    mine = reach(state, 0)
    marks = plan(board_info(state), reach=mine)
    assert marks.letters == {"Bk01": "A", "Bk02": "B"}
    assert marks.lands is not None
    for legion in mine:
        letter = marks.letters[legion.marker]
        assert {n for n, found in marks.lands.items() if letter in found} == set(
            legion.destinations
        )
    image = masterboard(state, reach=mine)
    for legion, centre in legion_centres(FRAME, board_info(state)):
        tag = tag_centre(FRAME, centre)
        shown = near(pixel(image, tag[0] - 0.3 * FRAME.s, tag[1]), BADGE_FILL)
        assert shown == (legion.marker in marks.letters), legion.marker
    number, letters = next((n, found) for n, found in marks.lands.items() if len(found) == 1)
    occupied = len(board_info(state).legions_in(number))
    (x, y) = letter_centres(FRAME, number, len(letters), occupied)[0]
    assert near(pixel(image, x - 0.35 * FRAME.s, y), BADGE_FILL)


def test_a_chosen_legion_shows_its_lands_alone():
    state = pos(TOWER_SIX)
    mine = reach(state, 0)
    image = masterboard(state, reach=mine, selected="Bk02")
    marks = plan(board_info(state), reach=mine, selected="Bk02")
    assert marks.letters is None and marks.teleports == ()
    assert set(marks.reachable) == set(of(mine, "Bk02").lands)
    for number in of(mine, "Bk01").destinations:
        if number not in marks.reachable:
            assert not near(band_colour(image, number), REACHABLE), number
            assert not near(band_colour(image, number), TELEPORT), number


def test_a_land_with_two_marks_shows_both_bands():
    state = pos("Bk01@1:Titan,Troll Rd01@3:Ogre Rd02@600:Titan | turn=Bk roll=2")
    mine = reach(state, 0)
    assert 3 in of(mine, "Bk01").lands  # an engagement there: attacked, not yet engaged
    image = masterboard(state, reach=mine, engagements=(3,))
    assert near(band_colour(image, 3, 0), ENGAGED) and near(band_colour(image, 3, 1), REACHABLE)


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[RGB]:
    found = image.crop(box).getcolors(maxcolors=1 << 22)
    assert found is not None
    return {colour for _, colour in found}  # type: ignore[misc]


def _pictures(state: GameState) -> list[dict[str, object]]:
    """Options of several pictures of ``state``, each drawing other marks."""
    return [
        {},
        {"reach": reach(state, None)},
        {"reach": reach(state, 0)},
        {"reach": reach(state, 0), "selected": "Bk02"},
        {"highlights": (20,)},
        {"engagements": (41,), "reach": reach(state, None)},
    ]


def test_the_legend_lists_exactly_the_marks_the_board_shows():
    """Read from the picture: a mark's colour is on the board exactly when its swatch is in
    the legend (the strip); the letters' row exactly when letters are drawn."""
    state = pos(TOWER_SIX)
    info = board_info(state)
    board_box = (0, 0, LAY.strip_left, LAY.height)
    strip_box = (LAY.strip_left, 0, LAY.width, LAY.height)
    seen: set[Key] = set()
    for options in _pictures(state):
        image = masterboard(state, **options)  # type: ignore[arg-type]
        keys = plan(info, **options).legend()  # type: ignore[arg-type]
        on_board, in_strip = colours(image, board_box), colours(image, strip_box)
        assert not info.moves  # teleport arrows would share the colour of their lands
        for key, colour in BANDS.items():
            # The chosen legion's ring is cyan too.
            drawn = key in keys or (key is Key.HIGHLIGHT and Key.SELECTED in keys)
            assert (colour in on_board) == drawn == (colour in in_strip), (key, options)
        chosen = "selected" in options
        several = len(options.get("reach", ())) > 1  # type: ignore[arg-type]
        assert (Key.SELECTED in keys) == chosen
        assert (Key.LETTERS in keys) == (several and not chosen)
        seen |= set(keys)
    assert set(Key) - {Key.LAST_MOVE, Key.TELEPORTED} <= seen


def test_the_legend_lists_the_last_moves_only_when_there_are_some():
    moved = pos("Bk01@3:Angel,Ogre Rd01@600:Titan | turn=Bk roll=2 moves=Bk01:1>3")
    teleported = pos("Bk01@3:Angel,Ogre Rd01@600:Titan | turn=Bk roll=6 moves=Bk01:100>3+tower")
    assert plan(board_info(moved)).legend() == (Key.LAST_MOVE,)
    assert plan(board_info(teleported)).legend() == (Key.TELEPORTED,)
    assert plan(board_info(pos(TOWER_SIX))).legend() == ()
