"""Battle maneuver (RULES §8.3, §8.5, §8.6; errata 10.1, 14.2): rule cases and random boards.

Positions are written one line each: ``"Desert: a Hydra B4, d Ogre C2"`` puts an attacking
Hydra on B4 and a defending Ogre on C2.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battle.maneuver import (
    check_maneuver,
    deployment_hexes,
    entry_costs,
    entry_hexes,
    hexside_cost,
    landing_cost,
    maneuvers,
    may_pass_over,
    move_costs,
    reachable,
    step_cost,
)
from engine.battle.position import Position, Side, fighter
from engine.battleland import BATTLELANDS, EDGES, LABELS, battleland, defender_edge, neighbours
from engine.characters import CHARACTERS, character
from engine.errors import IllegalManeuver, InvalidNotation

SIDES = {"a": Side.ATTACKER, "d": Side.DEFENDER}


def position(line: str) -> Position:
    """A position from ``"Terrain: a Name HEX, d Name HEX, ..."``."""
    terrain, _, rest = line.partition(":")
    fighters = []
    for item in filter(None, (part.strip() for part in rest.split(","))):
        side, name, hex_label = item.split()
        fighters.append(fighter(name, SIDES[side], hex_label))
    return Position(terrain.strip(), tuple(fighters))


def moves(line: str, start: str) -> set[str]:
    """Where the character on ``start`` of the position ``line`` may move."""
    pos = position(line)
    who = pos.at(start)
    assert who is not None
    return set(reachable(pos, who))


def entering(line: str, name: str, edge_hexes: str) -> set[str]:
    """Where ``name`` may get to entering across the edge made of ``edge_hexes``."""
    edge = next(e for e in EDGES if e.hexes == tuple(edge_hexes.split()))
    return set(entry_hexes(position(line), name, edge))


# --- V9: battle movement on empty boards ---------------------------------------------


def test_v9_plains_defender_via_d1_e1_f1():
    ogre = {"C1", "D1", "D2", "E1", "E2", "F1", "F2"}
    gargoyle = {"B1", "C1", "C2", "D1", "D2", "D3", "E1", "E2", "E3", "F1", "F2", "F3"}
    assert entering("Plains:", "Ogre", "D1 E1 F1") == ogre
    assert entering("Plains:", "Gargoyle", "D1 E1 F1") == gargoyle
    four = gargoyle | {"A1", "B2", "C3", "D4", "E4", "F4"}
    assert entering("Plains:", "Titan", "D1 E1 F1") == four
    assert entering("Plains:", "Centaur", "D1 E1 F1") == four


def test_v9_desert_defender_via_d6_e5_f4():
    titan = {"B4", "C4", "C5", "D5", "D6", "E3", "E4", "E5", "F2", "F3", "F4"}
    assert entering("Desert:", "Ogre", "D6 E5 F4") == {"D6", "E5", "F4"}
    assert entering("Desert:", "Titan", "D6 E5 F4") == titan
    assert entering("Desert:", "Gargoyle", "D6 E5 F4") == titan | {"D4"}


def test_v9_desert_hydra_cannot_descend_cliff_b2_b1():
    hydra = moves("Desert: a Hydra B4", "B4")
    assert "B2" in hydra
    assert "B1" not in hydra


def test_v9_tower_reinforcing_ogre_via_d6_e5_f4():
    assert entering("Tower:", "Ogre", "D6 E5 F4") == {"C5", "D6", "E5", "F3", "F4"}
    assert defender_edge(3, tower=True).hexes == ("D6", "E5", "F4")


# --- E18 (errata 14.2): seven Serpents entering the Jungle via D6 E5 F4 -------------------


def test_e18_jungle_serpents_via_d6_e5_f4_reach_only_six_hexes():
    edge = defender_edge(3)
    reach = entry_hexes(position("Jungle:"), "Serpent", edge)
    assert reach == {"D6", "E5", "F4", "C5", "D5", "E4"}
    # Entering one by one, farthest first, at most six of the seven get on the board.
    pos = position("Jungle:")
    placed = 0
    for _ in range(7):
        costs = entry_costs(pos, "Serpent", edge)
        if not costs:
            break
        target = max(sorted(costs), key=costs.__getitem__)
        pos = Position(pos.terrain, (*pos.fighters, fighter("Serpent", Side.DEFENDER, target)))
        placed += 1
    assert placed == 6


# --- Cliffs are impassable both ways (§8.6, §14 C3) ------------------------------------


def test_cliff_may_not_be_crossed_up_or_down():
    desert = battleland("Desert")
    for who in ("Ogre", "Hydra", "Lion"):
        assert step_cost(character(who), desert, "D3", "D4") is None
        assert step_cost(character(who), desert, "D4", "D3") is None
        assert hexside_cost(character(who), desert, "B2", "B1") is None
    # Boxed in on top of the Cliffs D4>D3 and D4>C3, the Ogre cannot step down.
    assert moves("Desert: a Ogre D4, a Ogre C4, a Ogre D5, a Ogre E4, a Ogre E3", "D4") == set()
    # From below, the Hydra (a Sand native) cannot climb to D4, but a flyer may fly up.
    assert "D4" not in moves("Desert: a Hydra D3, a Ogre E3, a Ogre C4", "D3")
    assert "D4" in moves("Desert: a Gargoyle D3, a Ogre E3, a Ogre C4", "D3")


def test_adjacent_across_a_cliff_is_not_engaged():
    # V4: a Lion on C3 is across Cliff D4>C3 from a Dragon in the Volcano.
    line = "Mountains: a Dragon D4, d Lion C3"
    assert moves(line, "D4")
    assert moves(line, "C3")


# --- Engagement (§8.5.2) -----------------------------------------------------------------


def test_engaged_character_cannot_move():
    line = "Plains: a Ogre C3, d Troll D3"
    assert moves(line, "C3") == set()
    assert moves(line, "D3") == set()
    with pytest.raises(IllegalManeuver, match="engaged"):
        check_maneuver(position(line), "C3", "B2")


def test_friends_do_not_engage_and_enemies_may_be_passed():
    assert "B2" in moves("Plains: a Ogre C3, a Troll D3", "C3")
    # §8.5.3: passing next to an enemy does not stop a move (D2 touches the Troll on E2).
    assert "D3" in moves("Plains: a Ogre D1, d Troll E3", "D1")
    assert "D3" in moves("Plains: a Ogre D1, d Troll F2", "D1")


# --- Flyers and the Volcano, Bog and Tree (§8.5.5, §8.6) -----------------------------------


def test_only_a_dragon_passes_over_or_lands_on_the_volcano():
    assert may_pass_over(character("Dragon"), "Volcano")
    assert not may_pass_over(character("Gargoyle"), "Volcano")
    # D3 to D5 is two hexes straight over the Volcano: a Guardian (skill 2) would need 3.
    assert "D5" not in moves("Mountains: a Guardian D3", "D3")
    assert "D6" in moves("Mountains: a Dragon D3", "D3")
    assert "D6" not in moves("Mountains: a Gargoyle D3", "D3")
    assert "D4" in moves("Mountains: a Dragon D3", "D3")
    assert "D4" not in moves("Mountains: a Gargoyle D3", "D3")


def test_bog_natives_only():
    assert "C2" in moves("Marsh: a Ogre C1", "C1")
    assert "C2" not in moves("Marsh: a Centaur C1", "C1")
    assert landing_cost(character("Gargoyle"), "Bog") is None
    assert landing_cost(character("Wyvern"), "Bog") == 1
    assert "C2" not in moves("Marsh: a Gargoyle C1", "C1")
    assert "C2" in moves("Marsh: a Wyvern C1", "C1")


def test_flyers_pass_over_occupied_hexes_and_trees_but_never_land_on_a_tree():
    # From B3 to D4 a Guardian (skill 2) crosses the Tree C3 or the occupied C4.
    reach = moves("Woods: a Guardian B3, a Ogre C4", "B3")
    assert "D4" in reach
    assert {"C3", "C4"}.isdisjoint(reach)
    assert "D4" not in moves("Woods: a Ogre B3, a Ogre C4", "B3")
    assert landing_cost(character("Gargoyle"), "Tree") is None


def test_sand_costs_flyers_one_and_non_native_walkers_two():
    # C2 to B2 goes up the Dune B2>C2, which costs nothing (§8.6).
    for name, cost in (("Gargoyle", 1), ("Ogre", 2), ("Hydra", 1)):
        pos = position(f"Desert: a {name} C2")
        assert move_costs(pos, pos.fighters[0])["B2"] == cost


# --- Entering and Tower deployment (§8.3, §8.5.6) -----------------------------------------


def test_entering_flyer_passes_over_an_occupied_edge_hex():
    line = "Jungle: d Ogre C5, d Ogre D6, d Ogre F4, a Ogre C4, a Ogre D5, a Ogre F1"
    assert entering(line, "Gargoyle", "D6 E5 F4") == {"D4", "E3", "E4", "E5", "F2"}


def test_entering_walker_needs_an_empty_enterable_edge_hex():
    line = "Desert: d Ogre D3, d Ogre E1, d Ogre E3, d Ogre F2, a Ogre D1, a Ogre D4, a Ogre F1"
    assert entering(line, "Serpent", "D1 E1 F1") == set()


def test_tower_defender_first_maneuver_is_placement_on_the_tower_hexes():
    pos = position("Tower: d Ogre D4")
    assert deployment_hexes(pos) == {"C3", "C4", "D3", "D5", "E3", "E4"}
    assert deployment_hexes(position("Plains:")) == frozenset()


# --- The one source of legal maneuvers ---------------------------------------------------


def test_maneuvers_per_character_and_check():
    pos = position("Plains: a Ogre A1, a Titan F4, d Troll B2")
    legal = maneuvers(pos, Side.ATTACKER)
    assert set(legal) == {"F4"}  # the Ogre on A1 is engaged with the Troll
    assert legal["F4"] == reachable(pos, pos.at("F4"))
    assert check_maneuver(pos, "F4", "D4") == pos.at("F4")
    with pytest.raises(IllegalManeuver):
        check_maneuver(pos, "F4", "A3")
    with pytest.raises(InvalidNotation):
        check_maneuver(pos, "C3", "C4")


# --- Random positions against an independent cost computation -----------------------------

ENTRY = {"Plain": 1, "Tower": 1, "Bramble": 2, "Drift": 2, "Sand": 2}


def _enter(name: str, hazard: str, *, flying: bool) -> int | None:
    """RULES §8.6 hex table, written out again for the test."""
    native = hazard in CHARACTERS[name].native
    if hazard == "Tree":
        return None
    if hazard in ("Bog", "Volcano"):
        return 1 if native else None
    if flying and hazard == "Sand":
        return 1
    return 1 if native else ENTRY[hazard]


def _side(name: str, terrain: str, a: str, b: str) -> int | None:
    land = BATTLELANDS[terrain]
    side = neighbours(a).index(b)
    mine, theirs = land.hexes[a].hexsides[side], land.hexes[a].opposite[side]
    if "Cliff" in (mine, theirs):
        return None
    if theirs == "Wall" or (theirs == "Slope" and "Slope" not in CHARACTERS[name].native):
        return 1
    return 0


def expected_costs(
    terrain: str, name: str, start: str, occupied: set[str], *, flying: bool
) -> dict[str, int]:
    """Cheapest cost to each empty hex, by relaxing every edge until nothing changes."""
    land = BATTLELANDS[terrain]
    if flying:  # crossings through passable hexes, then (n - 1) + landing
        over = {h for h in LABELS if land.hexes[h].hazard != "Volcano" or name == "Dragon"}
        hops = {start: 0}
        for _ in range(27):
            for a in list(hops):
                for b in filter(None, neighbours(a)):
                    if b in over and hops.get(b, 99) > hops[a] + 1:
                        hops[b] = hops[a] + 1
        result = {}
        for h, n in hops.items():
            land_cost = _enter(name, land.hexes[h].hazard, flying=True)
            if n and h not in occupied and land_cost is not None:
                result[h] = n - 1 + land_cost
        return result
    best = {start: 0}
    for _ in range(27):
        for a in list(best):
            for b in filter(None, neighbours(a)):
                entry = _enter(name, land.hexes[b].hazard, flying=False)
                side = _side(name, terrain, a, b)
                if b in occupied or entry is None or side is None:
                    continue
                best[b] = min(best.get(b, 99), best[a] + entry + side)
    best.pop(start)
    return best


@st.composite
def random_positions(draw):
    terrain = draw(st.sampled_from(sorted(BATTLELANDS)))
    hexes = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=10, unique=True))
    names = draw(st.lists(st.sampled_from(sorted(CHARACTERS)), min_size=1, max_size=1))
    sides = draw(st.lists(st.sampled_from(list(Side)), min_size=len(hexes), max_size=len(hexes)))
    mover = fighter(names[0], Side.ATTACKER, hexes[0])
    others = tuple(fighter("Ogre", s, h) for s, h in zip(sides[1:], hexes[1:], strict=True))
    return Position(terrain, (mover, *others)), mover


@settings(max_examples=300, deadline=None)
@given(random_positions())
def test_reachable_hexes_are_empty_affordable_and_never_trees(case):
    pos, who = case
    land = pos.land
    costs = move_costs(pos, who)
    occupied = set(pos.occupied()) - {who.hex}
    if pos.is_engaged(who):
        assert costs == {}
        return
    flies = who.character.flies
    expected = expected_costs(pos.terrain, who.name, who.hex, occupied, flying=flies)
    assert dict(costs) == {h: c for h, c in expected.items() if c <= who.skill}
    if flies:  # §8.5.5: flying is never worse than walking
        walking = expected_costs(pos.terrain, who.name, who.hex, occupied, flying=False)
        assert all(costs[h] <= c for h, c in walking.items() if c <= who.skill)
    for label, cost in costs.items():
        assert label not in pos.occupied()
        assert cost <= who.skill
        assert land.hexes[label].hazard != "Tree"
