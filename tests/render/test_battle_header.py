"""The battleland picture a spectator reads: who fights whom, who acts, who waits where.

What the picture says is read back from its layout (:func:`header_layout`,
:func:`battle_scene`), and the drawing is checked against that layout.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from engine.battle.position import Fighter, Position, Side, fighter
from engine.battle.state import Battle, BattleStep, Concession, PendingCarry
from engine.battle.turn import new_battle
from engine.battleland import LABELS
from render.battle_base import DEFAULT_WIDTH, battle_layout
from render.battle_header import Heading, Party, header_layout, heading_of, status_text
from render.battle_scene import WAITING_SHARE, battle_scene, entry_edges, outward, tray_slots
from render.battleland import StrikeMark, battleland_png
from render.style import HIGHLIGHT, LAST_MOVE, PLAYER_COLOURS
from tests.render.helpers import decode, near, pixel

LAYOUT = battle_layout(DEFAULT_WIDTH)
FRAME = LAYOUT.frame
ANN = Party("Gd04", 7, "Ann", "Gold")
BOB = Party("Bk02", 5, "Bob the Bold", "Black")
ATTACKERS = ("Titan", "Angel", "Centaur", "Centaur", "Gargoyle", "Ogre", "Ogre")
DEFENDERS = ("Titan", "Warlock", "Cyclops", "Lion", "Lion", "Troll", "Ranger")


def started(terrain: str = "Plains", entry_side: int = 3) -> Battle:
    """A battle just begun: both legions off the board (RULES §8.3)."""
    legions = {Side.ATTACKER: ATTACKERS, Side.DEFENDER: DEFENDERS}
    markers = {Side.ATTACKER: ANN.marker, Side.DEFENDER: BOB.marker}
    return new_battle(terrain, entry_side, markers, legions, {Side.ATTACKER: 8, Side.DEFENDER: 6})


def waiting(battle: Battle) -> list[Fighter]:
    return [
        Fighter(name, side, "", battle.power_of(side, name))
        for side in Side
        for name in battle.waiting(side)
    ]


def test_the_header_names_both_sides_their_markers_the_turn_and_who_acts():
    heading = Heading("Hills", ANN, BOB, 3, "strikeback", Side.DEFENDER)
    layout = header_layout(heading, LAYOUT.width, FRAME.r)
    assert layout.text("owner", Side.ATTACKER) == "Ann"
    assert layout.text("owner", Side.DEFENDER) == "Bob the Bold"
    assert layout.text("marker", Side.ATTACKER) == "Gd04"
    assert layout.text("marker", Side.DEFENDER) == "Bk02"
    assert layout.text("height", Side.DEFENDER) == "5"
    assert layout.text("colour", Side.ATTACKER) == "Gold"
    assert layout.text("side", Side.ATTACKER) == "ATTACKER"
    assert layout.text("side", Side.DEFENDER) == "DEFENDER"
    assert layout.acting is Side.DEFENDER
    assert (
        layout.text("status") == "Hills, turn 3 of 7: Bob the Bold (Black, defender) strikes back"
    )
    # the attacker on the left, the defender on the right, the acting side framed
    middle = LAYOUT.width / 2
    for label in layout.labels:
        if label.side is Side.ATTACKER:
            assert label.box[2] <= middle, label
        elif label.side is Side.DEFENDER:
            assert label.box[0] >= middle, label
        assert label.box[0] >= 0 and label.box[2] <= LAYOUT.width, label
        assert label.box[1] >= 0 and label.box[3] <= LAYOUT.header_height, label
    assert layout.frame is not None
    inside = [x.box for x in layout.labels if x.side is Side.DEFENDER]
    assert all(_within(box, layout.frame) for box in inside)
    assert not any(_within(x.box, layout.frame) for x in layout.labels if x.side is Side.ATTACKER)


def _within(box: tuple[float, float, float, float], frame: tuple[float, ...]) -> bool:
    return frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2] and box[3] <= frame[3]


def test_a_long_name_is_shortened_within_its_half():
    long = replace(ANN, owner="Alexandra Konstantinopoulou-Wetherington the Third")
    layout = header_layout(Heading("Plains", long, BOB, 1, "maneuver", None), 760, FRAME.r)
    shown = layout.text("owner", Side.ATTACKER)
    assert shown.endswith("...") and long.owner.startswith(shown[:-3])
    owner = next(x for x in layout.labels if x.role == "owner" and x.side is Side.ATTACKER)
    assert owner.box[2] <= LAYOUT.width / 2
    assert layout.frame is None  # nobody acts


@pytest.mark.parametrize(
    ("step", "phasing", "phase", "acting", "words"),
    [
        (BattleStep.MANEUVER, Side.DEFENDER, "maneuver", Side.DEFENDER, "maneuvers"),
        (BattleStep.STRIKE, Side.ATTACKER, "strike", Side.ATTACKER, "strikes"),
        (BattleStep.COUNTERSTRIKE, Side.ATTACKER, "strikeback", Side.DEFENDER, "strikes back"),
        (BattleStep.OPEN_ATTACKER, Side.DEFENDER, "start", Side.ATTACKER, "may concede"),
        (BattleStep.SUMMON, Side.ATTACKER, "summon", Side.ATTACKER, "may summon"),
        (BattleStep.REINFORCE, Side.DEFENDER, "reinforcement", Side.DEFENDER, "reinforcement"),
    ],
)
def test_the_phase_and_the_side_to_act_come_from_the_battle(step, phasing, phase, acting, words):
    on_board = (fighter("Ogre", Side.ATTACKER, "A1"), fighter("Troll", Side.DEFENDER, "F4"))
    battle = replace(
        started(),
        position=Position("Plains", on_board),
        off_board={},
        step=step,
        phasing=phasing,
        turn=4,
    )
    heading = heading_of(battle, ANN, BOB)
    assert (heading.phase, heading.acting) == (phase, acting)
    text = status_text(heading)
    assert words in text and heading.party(acting).owner in text and "turn 4 of 7" in text


def test_entering_a_carry_and_a_concession_are_named():
    battle = replace(started(), step=BattleStep.MANEUVER)
    assert "brings the legion on" in status_text(heading_of(battle, ANN, BOB))
    carry = replace(battle, step=BattleStep.STRIKE, off_board={})
    carry = replace(carry, carry=PendingCarry("A1", 2, ("B2",)))
    assert "carried-over hits" in status_text(heading_of(carry, ANN, BOB))
    asked = replace(carry, carry=None, concession=Concession(Side.ATTACKER))
    heading = heading_of(asked, ANN, BOB)
    assert heading.acting is Side.DEFENDER and "answers the concession" in status_text(heading)


@pytest.mark.parametrize(
    ("terrain", "entry_side"), [("Plains", 1), ("Woods", 3), ("Brush", 5), ("Tower", 3)]
)
def test_at_the_start_both_legions_wait_by_their_own_edges(terrain, entry_side):
    """The battle-start picture shows the two legions as revealed (RULES §5.7), each by
    the edge it enters by (§8.3), clear of the hexes and of one another."""
    battle = started(terrain, entry_side)
    heading = heading_of(battle, ANN, BOB)
    scene = battle_scene(
        battle.position, heading=heading, waiting=waiting(battle), entry_side=entry_side
    )
    assert scene.on_board() == []
    edges = entry_edges(terrain, entry_side)
    for side in Side:
        assert sorted(scene.names(side)) == sorted(battle.legion(side))
        mine = edges[side].hexes
        theirs = edges[side.other].hexes
        for counter in scene.waiting(side):
            assert _nearest(counter.centre, mine) < _nearest(counter.centre, theirs), counter
    placed = scene.waiting()
    half = WAITING_SHARE * FRAME.r / 2
    for i, a in enumerate(placed):
        x, y = a.centre
        assert half <= x <= LAYOUT.width - half, a
        assert LAYOUT.header_height + half <= y <= LAYOUT.track_top - half, a
        assert _nearest(a.centre, LABELS) > 0.87 * FRAME.r + half * 0.8, a
        for b in placed[i + 1 :]:
            apart = max(abs(a.centre[0] - b.centre[0]), abs(a.centre[1] - b.centre[1]))
            assert apart >= 2 * half, (a, b)
    assert scene.header is not None
    assert scene.header.text("owner", Side.ATTACKER) == "Ann"


def _nearest(at: tuple[float, float], hexes: tuple[str, ...] | list[str]) -> float:
    return min(math.hypot(at[0] - x, at[1] - y) for x, y in map(FRAME.centre, hexes))


@pytest.mark.parametrize("edge", range(6))
def test_every_edge_has_room_for_a_whole_legion(edge):
    half = WAITING_SHARE * FRAME.r / 2
    for count in range(1, 8):
        slots, tag = tray_slots(edge, count)
        assert len(slots) == count
        ox, oy = outward(edge)
        cx, cy = LAYOUT.width / 2, FRAME.top + FRAME.map_height / 2
        for x, y in (*slots, tag):
            assert (x - cx) * ox + (y - cy) * oy > 0  # on the edge's side of the map
            assert _nearest((x, y), LABELS) > 0.87 * FRAME.r + half * 0.8


def test_the_picture_draws_its_layout():
    """The header's markers in the owners' colours, the acting side's frame, the waiting
    counters in their side's colour where the scene puts them."""
    battle = started("Plains", 1)
    heading = heading_of(battle, ANN, BOB)
    off = waiting(battle)
    scene = battle_scene(battle.position, heading=heading, waiting=off, entry_side=1)
    image = decode(battleland_png(battle.position, heading=heading, waiting=off, entry_side=1))
    assert image.size == (LAYOUT.width, LAYOUT.height)
    header = scene.header
    assert header is not None and header.frame is not None
    marker = next(x for x in header.labels if x.role == "marker" and x.side is Side.ATTACKER)
    x1, y1, x2, y2 = marker.box
    assert near(pixel(image, x1 + 0.12 * (x2 - x1), (y1 + y2) / 2), PLAYER_COLOURS["Gold"])
    fx1, fy1, _fx2, fy2 = header.frame
    assert near(pixel(image, fx1 + 1, (fy1 + fy2) / 2), HIGHLIGHT, 40)
    for counter in scene.waiting():
        x, y = counter.centre
        colour = PLAYER_COLOURS["Gold" if counter.side is Side.ATTACKER else "Black"]
        assert near(pixel(image, x - 0.4 * counter.size, y), colour), counter


def test_every_maneuver_of_the_phase_and_every_strike_is_drawn():
    fighters = (
        fighter("Ogre", Side.ATTACKER, "B2"),
        fighter("Troll", Side.ATTACKER, "E2"),
        fighter("Lion", Side.DEFENDER, "D4", hits=2),
        fighter("Ranger", Side.DEFENDER, "D6"),
    )
    position = Position("Plains", fighters)
    moves = [("A1", "B2"), ("E4", "E2")]
    plain = decode(battleland_png(position, entry_side=3))
    drawn = decode(
        battleland_png(
            position, entry_side=3, moves=moves, strikes=[StrikeMark("D6", "D4", "1 hit", True)]
        )
    )
    for start, end in moves:
        (x1, y1), (x2, y2) = FRAME.centre(start), FRAME.centre(end)
        at = (x1 + 0.35 * (x2 - x1), y1 + 0.35 * (y2 - y1))
        assert near(pixel(drawn, *at), LAST_MOVE, 30) and not near(pixel(plain, *at), LAST_MOVE)
    (x1, y1), (x2, y2) = FRAME.centre("D6"), FRAME.centre("D4")
    along = [(x1 + (x2 - x1) * t / 20, y1 + (y2 - y1) * t / 20) for t in range(7, 14)]
    assert any(pixel(drawn, *at) != pixel(plain, *at) for at in along)  # the dashed arrow


@pytest.mark.parametrize("entry_side", (1, 3, 5))
def test_edge_tags_stay_off_the_hexes_when_nobody_waits(entry_side):
    """Each side's tag ("Defender · Blue") is placed clear of every hex, where no counter
    standing on the edge can cover it."""
    half = WAITING_SHARE * FRAME.r / 2
    for terrain in ("Plains", "Marsh", "Tower"):
        battle = started(terrain, entry_side)
        scene = battle_scene(
            battle.position, heading=heading_of(battle, ANN, BOB), entry_side=entry_side
        )
        tags = dict(scene.tags)
        assert set(tags) == set(Side)
        for at in tags.values():
            assert _nearest(at, LABELS) > 0.87 * FRAME.r + half * 0.8, (terrain, at)
