"""The fast battle queries give the answers of their straightforward versions (issue 24).

Every maneuver, strike, announcement, carry, line of sight and rangestrike query is
compared with :mod:`tests.engine.battle.reference` on the positions of battles fought out
by two computer players on all 11 battlelands, and on random positions (hypothesis). The
cheap state updates (:func:`engine.frozen.evolve`) are compared with
:func:`dataclasses.replace` on every transition of those battles.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import frozen
from engine.battle import carry, los, maneuver, rangestrike, strike
from engine.battle.maneuvering import destinations, end_maneuver, may_enter
from engine.battle.maneuvering import maneuver as move
from engine.battle.position import Fighter, Position, Side
from engine.battle.state import Battle, BattleStep, Supplies
from engine.battle.striking import (
    end_strikes,
    rangestrike_options,
    strike_options,
)
from engine.battle.striking import (
    rangestrike as rangestrike_now,
)
from engine.battle.striking import (
    strike as strike_now,
)
from engine.battle.turn import advance
from engine.battleland import (
    BATTLELANDS,
    EDGES,
    LABELS,
    distance,
    hexside_toward,
    neighbours,
)
from engine.characters import CHARACTERS, TITAN
from engine.errors import TitanError
from tests.engine.battle import reference as ref
from tests.engine.battle.corpus import TERRAINS, battles, random_starts

#: Battles fought out from one random start on each battleland.
_BATTLES: list[Battle] = battles(random_starts(2024, 1))


def _positions() -> list[Position]:
    seen: dict[Position, None] = {}
    for battle in _BATTLES:
        seen.setdefault(battle.position, None)
    return list(seen)


POSITIONS = _positions()


def test_the_corpus_covers_every_battleland_and_step():
    assert {b.terrain for b in _BATTLES} == set(TERRAINS)
    steps = {b.step for b in _BATTLES}
    assert {BattleStep.MANEUVER, BattleStep.STRIKE, BattleStep.COUNTERSTRIKE} <= steps
    assert any(rangestrike_options(b) for b in _BATTLES if b.step is BattleStep.STRIKE)
    assert any(
        len(o) > 1 for b in _BATTLES if b.step is BattleStep.STRIKE for o in [strike_options(b)]
    )


# --- the battleland tables ---------------------------------------------------------------
def test_tables_match_the_hexes_data():
    for a in LABELS:
        for b in LABELS:
            assert distance(a, b) == ref.distance(a, b)
            side = neighbours(a).index(b) if b in neighbours(a) else None
            assert hexside_toward(a, b) == side
    for land in BATTLELANDS.values():
        for a in LABELS:
            near = {b for b in LABELS if ref.in_contact(land, a, b)}
            assert land.contacts[a] == near
            for b in filter(None, neighbours(a)):
                assert land.border(a, b) == ref.border(land, a, b)


# --- the queries on one position ---------------------------------------------------------
def check_position(position: Position) -> None:
    """Every query of every character and pair of characters, fast against reference."""
    land = position.land
    hexes = frozenset(f.hex for f in position.fighters)
    for f in position.fighters:
        costs = maneuver.move_costs(position, f)
        assert dict(costs) == ref.move_costs(position, f), (position, f)
        assert maneuver.reachable(position, f) == frozenset(costs)
        assert strike.strike_targets(position, f) == ref.strike_targets(position, f)
        assert rangestrike.rangestrike_targets(position, f) == ref.rangestrike_targets(position, f)
    for pair in ref.pairs(position):
        a, b = pair.striker, pair.target
        assert los.line_of_sight(land, a.hex, b.hex, hexes) == ref.line_of_sight(
            land, a.hex, b.hex, hexes
        )
        assert strike.strike_problem(position, a, b) == ref.strike_problem(position, a, b)
        if ref.strike_problem(position, a, b) is None:
            check_strike(position, a, b)
        reason = ref.rangestrike_problem(position, a, b)
        assert rangestrike.rangestrike_problem(position, a, b) == reason
        if reason is None:
            values = rangestrike.rangestrike_values(position, a, b)
            assert values == ref.rangestrike_values(position, a, b)


def check_strike(position: Position, a: Fighter, b: Fighter) -> None:
    natural = strike.strike_values(position, a, b)
    assert natural == ref.strike_values(position, a, b)
    assert carry.legal_declarations(position, a, b) == ref.legal_declarations(position, a, b)
    others = [strike.strike_values(position, a, o) for o in ref.others(position, a, b)]
    dice = {natural.dice, natural.dice - 1, natural.dice + 1} | {v.dice for v in others}
    numbers = {natural.strike_number, natural.strike_number + 1} | {v.strike_number for v in others}
    for d in dice:
        for s in numbers:
            used = strike.StrikeValues(d, s)
            assert carry.declaration_problem(position, a, b, used) == ref.declaration_problem(
                position, a, b, used
            )
            assert carry.eligible_carry_targets(position, a, b, used) == ref.eligible(
                position, a, b, used
            )


@pytest.mark.parametrize("terrain", TERRAINS)
def test_fast_queries_on_played_positions(terrain):
    played = [p for p in POSITIONS if p.terrain == terrain]
    assert played
    for position in played:
        check_position(position)


def test_entries_on_played_battles():
    for battle in _BATTLES:
        for side in Side:
            for name in sorted(set(battle.waiting(side))):
                for edge in EDGES:
                    fast = maneuver.entry_costs(battle.position, name, edge)
                    assert dict(fast) == ref.entry_costs(battle.position, name, edge)
        if battle.step is BattleStep.MANEUVER and battle.concession is None:
            assert destinations(battle) == reference_destinations(battle)


def reference_destinations(battle: Battle) -> dict[str, frozenset[str]]:
    side, position = battle.phasing, battle.position
    moved = {r.end for r in battle.moves}
    found = {}
    for who in position.of_side(side):
        ends = frozenset(ref.move_costs(position, who))
        if who.hex not in moved and who.alive and ends:
            found[who.hex] = ends
    for name in sorted(set(battle.waiting(side))):
        if not may_enter(battle, side, name):
            continue
        if side is Side.DEFENDER and side not in battle.entered and battle.land.is_tower:
            ends = battle.land.tower_interior - ref.occupied(position)
        else:
            ends = frozenset(ref.entry_costs(position, name, battle.edge(side)))
        if ends:
            found[name] = ends
    return found


# --- every hazard border and every line of sight ------------------------------------------
#: Strikers native to Dune, Sand and Slope, to Bramble, to Drift, to Volcano, to nothing.
STRIKERS = ("Lion", "Cyclops", "Warbear", "Dragon", "Titan")


@pytest.mark.parametrize("terrain", TERRAINS)
def test_strikes_and_carries_across_every_border(terrain):
    """A striker in each hex with enemies in two of its neighbours, one of them wounded:
    strike values, announcements and carries across every pair of hexsides (§9.3–§9.5)."""
    land = BATTLELANDS[terrain]
    for a in LABELS:
        around = [h for h in neighbours(a) if h is not None]
        for i, b in enumerate(around):
            for c in around[i + 1 :]:
                borders = {*ref.border(land, a, b), *ref.border(land, a, c)} - {None}
                hazards = {land.hexes[h].hazard for h in (a, b, c)} - {"Plain"}
                if not borders and not hazards:
                    continue  # as any other three plain hexes
                for name in STRIKERS:
                    striker = Fighter(name, Side.ATTACKER, a, 6)
                    target = Fighter("Ogre", Side.DEFENDER, b, 6, hits=4)
                    other = Fighter("Gorgon", Side.DEFENDER, c, 6, hits=1)
                    position = Position(terrain, (striker, target, other))
                    for x, y in ((striker, target), (striker, other)):
                        if ref.strike_problem(position, x, y) is None:
                            check_strike(position, x, y)


@pytest.mark.parametrize("terrain", TERRAINS)
def test_rangestrikes_along_every_line(terrain):
    """A Ranger and a Warlock against an enemy at distance 1–3 from every hex, with and
    without a character in each hex of the way (§10.2–§10.8)."""
    for a in LABELS:
        for b in LABELS:
            if not 1 <= distance(a, b) <= 3:
                continue
            way = {h for path in los.intervening_paths(a, b) for h in path}
            for name in ("Ranger", "Warlock"):
                for blocker in (None, *sorted(way)):
                    striker = Fighter(name, Side.ATTACKER, a, 4)
                    target = Fighter("Troll", Side.DEFENDER, b, 8)
                    fighters = [striker, target]
                    if blocker is not None:
                        fighters.append(Fighter("Ogre", Side.ATTACKER, blocker, 6))
                    check_rangestrike(Position(terrain, tuple(fighters)), striker, target)


def check_rangestrike(position: Position, striker: Fighter, target: Fighter) -> None:
    land, a, b = position.land, striker.hex, target.hex
    hexes = ref.occupied(position)
    assert los.line_of_sight(land, a, b, hexes) == ref.line_of_sight(land, a, b, hexes)
    reason = ref.rangestrike_problem(position, striker, target)
    assert rangestrike.rangestrike_problem(position, striker, target) == reason
    fast = rangestrike.rangestrike_targets(position, striker)
    assert fast == ref.rangestrike_targets(position, striker)
    if reason is None:
        values = rangestrike.rangestrike_values(position, striker, target)
        assert values == ref.rangestrike_values(position, striker, target)


# --- random positions --------------------------------------------------------------------
@st.composite
def positions(draw: st.DrawFn) -> Position:
    terrain = draw(st.sampled_from(TERRAINS))
    where = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=14, unique=True))
    fighters = []
    for label in where:
        name = draw(st.sampled_from(sorted(CHARACTERS)))
        power = draw(st.integers(6, 20)) if name == TITAN else CHARACTERS[name].power
        hits = draw(st.integers(0, power + 1))
        side = draw(st.sampled_from(list(Side)))
        fighters.append(Fighter(name, side, label, power, hits, slain=hits >= power))
    return Position(terrain, tuple(fighters))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_fast_queries_on_random_positions(position):
    check_position(position)
    for edge in EDGES:
        for name in ("Ogre", "Dragon", "Unicorn", "Lion", "Serpent"):
            fast = maneuver.entry_costs(position, name, edge)
            assert dict(fast) == ref.entry_costs(position, name, edge)


@st.composite
def crowded_positions(draw: st.DrawFn) -> Position:
    """Positions where two characters may share a hex (conformance cases write such)."""
    terrain = draw(st.sampled_from(TERRAINS))
    hexes = draw(st.lists(st.sampled_from(LABELS), min_size=2, max_size=5, unique=True))
    where = draw(st.lists(st.sampled_from(hexes), min_size=2, max_size=8))
    names = st.sampled_from(("Ogre", "Ranger", "Warlock", "Gorgon", "Troll", "Lion"))
    fighters = []
    for label in where:
        name = draw(names)
        hits = draw(st.integers(0, 7))
        side = draw(st.sampled_from(list(Side)))
        power = CHARACTERS[name].power
        fighters.append(Fighter(name, side, label, power, hits, slain=hits >= power))
    return Position(terrain, tuple(fighters))


def outcome(query, *args):
    """What a query answers, or the error it raises."""
    try:
        answer = query(*args)
    except (TitanError, AssertionError) as error:
        return type(error).__name__, str(error)
    return dict(answer) if isinstance(answer, Mapping) else answer


@settings(max_examples=150, deadline=None)
@given(crowded_positions())
def test_shared_hexes_answer_as_the_straightforward_versions(position):
    for f in position.fighters:
        assert position.is_engaged(f) == bool(ref.enemies_in_contact(position, f, True))
        fast = outcome(maneuver.move_costs, position, f)
        if ref.at(position, f.hex) == f:
            assert fast == outcome(ref.move_costs, position, f)
        assert outcome(strike.strike_targets, position, f) == ref.strike_targets(position, f)
        for t in position.fighters:
            assert outcome(rangestrike.rangestrike_problem, position, f, t) == (
                ref.rangestrike_problem(position, f, t)
            )
            assert outcome(strike.strike_problem, position, f, t) == (
                ref.strike_problem(position, f, t)
            )
        assert outcome(rangestrike.rangestrike_targets, position, f) == (
            ref.rangestrike_targets(position, f)
        )


# --- cheap state updates -----------------------------------------------------------------
def test_evolve_is_replace():
    for battle in _BATTLES[::7]:
        changes = {"turn": battle.turn + 1, "struck": frozenset({"A1"}), "carry": None}
        assert frozen.evolve(battle, **changes) == dataclasses.replace(battle, **changes)
        assert frozen.evolve(battle) == battle
        for f in battle.position.fighters:
            assert frozen.evolve(f, hits=1) == dataclasses.replace(f, hits=1)
    with pytest.raises(TypeError):
        frozen.evolve(_BATTLES[0], no_such_field=1)


def _transitions(battle: Battle) -> Iterator[tuple[str, object]]:
    """Every transition the battle's decider may make now, with fixed dice."""
    rng = random.Random(f"{battle.turn}{battle.position}")
    if battle.step is BattleStep.MANEUVER and battle.concession is None:
        for who, ends in sorted(destinations(battle).items()):
            for to in sorted(ends):
                yield "maneuver", (battle, who, to)
        yield "end_maneuver", (battle,)
    if battle.step in (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE) and battle.carry is None:
        for s, t, option in strike_options(battle):
            rolls = tuple(rng.randint(1, 6) for _ in range(option.values.dice))
            declared = None if option.natural else option.values
            yield "strike", (battle, s.hex, t.hex, declared, rolls)
        for s, t, values in rangestrike_options(battle):
            rolls = tuple(rng.randint(1, 6) for _ in range(values.dice))
            yield "rangestrike", (battle, s.hex, t.hex, None, rolls)
        if battle.step is BattleStep.STRIKE:
            yield "end_strikes", (battle,)


_STEPS = {
    "maneuver": move,
    "end_maneuver": end_maneuver,
    "strike": strike_now,
    "rangestrike": rangestrike_now,
    "end_strikes": end_strikes,
}


def _run(kind: str, args: tuple) -> object:
    try:
        battle, events = _STEPS[kind](*args)
        return advance(battle, Supplies())[0], events
    except TitanError as error:
        return type(error), str(error)


def test_transitions_with_evolve_equal_those_with_replace(monkeypatch):
    cases = [c for b in _BATTLES[::3] for c in _transitions(b)]
    assert {kind for kind, _ in cases} == set(_STEPS)
    fast = [_run(kind, args) for kind, args in cases]

    def replaced(obj, **changes):
        return dataclasses.replace(obj, **changes)

    users = list(_modules_using_evolve())
    assert len(users) >= 6
    monkeypatch.setattr(frozen, "evolve", replaced)
    for module in users:
        monkeypatch.setattr(module, "evolve", replaced)
    slow = [_run(kind, args) for kind, args in cases]
    assert fast == slow


def _modules_using_evolve() -> Iterator[object]:
    import sys

    for name, module in list(sys.modules.items()):
        if name.startswith("engine.") and getattr(module, "evolve", None) is frozen.evolve:
            yield module
