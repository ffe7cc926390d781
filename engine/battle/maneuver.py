"""Maneuver: the hexes a character may move to in one maneuver phase (RULES §8.3, §8.5, §8.6).

A character has Skill movement points (§8.5.3) and ends its move in an empty hex. A ground
character steps from hex to hex through empty hexes, paying each hex's entry cost plus the
cost of the hexside crossed (§8.5.4, §8.6). A flyer passes over any hexes, occupied or not,
at 1 point each and pays the landing cost of the hex it ends in (§8.5.5); since flying is
never worse than walking, a flyer's moves are its flights. An engaged character may not move
(§8.5.2). Characters off the board enter across their side's edge (§8.3, §8.5.6), or, for the
Tower defender's first maneuver, are placed on the Tower hexes (§8.3).

Characters on the board are named by the hex they stand in (one per hex).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType

from engine.battle.position import Fighter, Position, Side
from engine.battleland import BIT as _BIT
from engine.battleland import LABELS, Battleland, Edge, battleland, check_label, neighbours
from engine.characters import Character, character
from engine.errors import IllegalManeuver, InvalidNotation

# Hex hazards whose cost depends on nativity: native 1, other 2 (§8.6).
_ROUGH = frozenset({"Bramble", "Drift", "Sand"})
# Hex hazards only natives may enter or land on, at 1 point (§8.6: Bog; Volcano, Dragon only).
_NATIVES_ONLY = frozenset({"Bog", "Volcano"})


def ground_entry_cost(who: Character, hazard: str) -> int | None:
    """Points to walk into a hex of ``hazard``, or None if ``who`` may not enter it (§8.6)."""
    if hazard == "Tree":
        return None
    if hazard in _ROUGH:
        return 1 if who.is_native_to(hazard) else 2
    if hazard in _NATIVES_ONLY:
        return 1 if who.is_native_to(hazard) else None
    return 1  # Plain, Tower


def landing_cost(who: Character, hazard: str) -> int | None:
    """Points for a flyer to land in a hex of ``hazard``, or None if it may not (§8.6).

    As walking, except that every flyer lands on Sand for 1 (§8.6; §14 "flyers land on Sand
    for 1 point"); no one lands on a Tree, and only natives on Bog or the Volcano.
    """
    if hazard == "Sand":
        return 1
    return ground_entry_cost(who, hazard)


def may_pass_over(who: Character, hazard: str) -> bool:
    """Whether a flyer may fly over a hex of ``hazard``: all but the Volcano, save for a
    Dragon (§8.5.5; the Dragon is the Volcano's only native)."""
    return hazard != "Volcano" or who.is_native_to("Volcano")


def hexside_cost(who: Character, land: Battleland, start: str, end: str) -> int | None:
    """Extra points for walking from ``start`` into adjacent ``end`` across their hexside.

    Going down, or across a Dune, is free; going up a Slope costs 1 for a non-native, up a
    Wall 1 for everyone; no one crosses a Cliff either way (§8.6, §14 C3). Returns None for a
    Cliff.
    """
    # A hazard on start's side is crossed going down; one on end's side going up.
    down, up = land.border(start, end)
    if "Cliff" in (down, up):
        return None
    if up == "Wall" or (up == "Slope" and not who.is_native_to("Slope")):
        return 1
    return 0


def step_cost(who: Character, land: Battleland, start: str, end: str) -> int | None:
    """Points for walking one step from ``start`` into adjacent ``end``, or None (§8.5.4)."""
    entry = ground_entry_cost(who, land.hexes[end].hazard)
    side = hexside_cost(who, land, start, end)
    if entry is None or side is None:
        return None
    return entry + side


@cache
def _walk_steps(terrain: str, name: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each hex (by index in LABELS), the steps character ``name`` may walk out of it
    on ``terrain`` as (points, the neighbours a step of that many points reaches), by the
    step costs of :func:`step_cost`."""
    who, land = character(name), battleland(terrain)
    table = []
    for here in LABELS:
        by_cost: dict[int, int] = {}
        for there in neighbours(here):
            cost = None if there is None else step_cost(who, land, here, there)
            if there is not None and cost is not None:
                by_cost[cost] = by_cost.get(cost, 0) | _BIT[there]
        table.append(tuple(sorted(by_cost.items())))
    return tuple(table)


def _walk(
    who: Character, land: Battleland, blocked: int, sources: Mapping[str, int]
) -> dict[str, int]:
    """Cheapest walking cost, within Skill, of every hex reachable from ``sources``
    (hex → points already spent), stepping only into hexes not in ``blocked`` (§8.5.4).

    Costs are whole points up to Skill and every step costs at least one point, so the
    hexes are settled cost by cost: those first reached at the lowest cost of a round."""
    steps = _walk_steps(land.terrain, who.name)
    skill = who.skill
    free = ~blocked
    due = [0] * (skill + 1)
    for label, cost in sources.items():
        if cost <= skill:
            due[cost] |= _BIT[label]
    settled = 0
    best = {}
    for spent in range(skill + 1):
        layer = due[spent] & ~settled
        settled |= layer
        while layer:
            low = layer & -layer
            layer ^= low
            index = low.bit_length() - 1
            best[LABELS[index]] = spent
            for cost, ends in steps[index]:
                if spent + cost <= skill:
                    due[spent + cost] |= ends & free
    return best


def _crossings(who: Character, land: Battleland, sources: Mapping[str, int]) -> dict[str, int]:
    """Fewest hexes crossed to reach each hex a flyer can fly to from ``sources`` (hex →
    hexes already crossed), passing over anything but a forbidden Volcano (§8.5.5)."""
    crossed = dict(sources)
    queue = deque(sorted(crossed, key=crossed.__getitem__))
    while queue:
        here = queue.popleft()
        for there in neighbours(here):
            if there is None or there in crossed:
                continue
            if may_pass_over(who, land.hexes[there].hazard):
                crossed[there] = crossed[here] + 1
                queue.append(there)
    return crossed


@cache
def _flights(
    terrain: str, name: str, sources: tuple[tuple[str, int], ...]
) -> tuple[tuple[str, int], ...]:
    """Every hex flyer ``name`` could land in from ``sources`` were none of them occupied,
    with its cost: crossing n hexes costs (n − 1) plus the landing cost (§8.5.5). Flights
    pass over occupied hexes, so only the landing hex's occupant matters."""
    who, land = character(name), battleland(terrain)
    found = []
    for label, crossed in _crossings(who, land, dict(sources)).items():
        landing = landing_cost(who, land.hexes[label].hazard)
        if crossed == 0 or landing is None:
            continue
        if crossed - 1 + landing <= who.skill:
            found.append((label, crossed - 1 + landing))
    return tuple(found)


def _fly(
    who: Character, land: Battleland, blocked: int, sources: Mapping[str, int]
) -> dict[str, int]:
    """Cost, within Skill, of every hex not in ``blocked`` a flyer can land in (§8.5.5)."""
    flights = _flights(land.terrain, who.name, tuple(sources.items()))
    return {label: cost for label, cost in flights if not _BIT[label] & blocked}


def move_costs(position: Position, who: Fighter) -> Mapping[str, int]:
    """Every hex ``who`` may end its maneuver in, with the points it costs (RULES §8.5).

    Empty when ``who`` is engaged (§8.5.2). The starting hex is not included. Raises
    :class:`InvalidNotation` when ``who`` is not on the board of ``position``.
    """
    if not position.holds(who):
        raise InvalidNotation(f"no {who.name} of the {who.side.value} in {who.hex}")
    if position.is_engaged(who):
        return MappingProxyType({})  # it may not move (§8.5.2)
    return MappingProxyType(dict(_costs_from(position, who)))


def reachable(position: Position, who: Fighter) -> frozenset[str]:
    """The hexes ``who`` may maneuver to (RULES §8.5); empty when engaged."""
    if not position.holds(who):
        raise InvalidNotation(f"no {who.name} of the {who.side.value} in {who.hex}")
    return reachable_from(position, who)


def reachable_from(position: Position, who: Fighter) -> frozenset[str]:
    """:func:`reachable` for a character known to stand in its hex (``position.at``)."""
    if position.is_engaged(who):
        return _NOWHERE  # it may not move (§8.5.2)
    terrain, name, start = position.terrain, who.name, who.hex
    return _hexes(_reachable(terrain, name, start, _blocked(position, terrain, name, start)))


_NOWHERE: frozenset[str] = frozenset()


def _costs_from(position: Position, who: Fighter) -> tuple[tuple[str, int], ...]:
    """:func:`move_costs` of a character on the board that is not engaged."""
    terrain, name, start = position.terrain, who.name, who.hex
    return _moves(terrain, name, start, _blocked(position, terrain, name, start))


def _blocked(position: Position, terrain: str, name: str, start: str) -> int:
    """The occupied hexes that matter to the moves of ``name`` from ``start``: those of
    its :func:`_span` but its own."""
    bit = _BIT.get(start)
    if bit is None:
        check_label(start)  # not a hex: raises
    return position.occupied_mask & _span(terrain, name, start) & ~(bit or 0)


@lru_cache(maxsize=1 << 14)
def _reachable(terrain: str, name: str, start: str, blocked: int) -> int:
    """The hexes of :func:`_moves` as a set of :data:`BIT`."""
    return _mask(_moves(terrain, name, start, blocked))


def _mask(costs: tuple[tuple[str, int], ...]) -> int:
    """The hexes of ``costs`` as a set of :data:`BIT`."""
    found = 0
    for label, _ in costs:
        found |= _BIT[label]
    return found


@lru_cache(maxsize=1 << 12)
def _hexes(mask: int) -> frozenset[str]:
    """The labels of the hexes in ``mask``. The long memos keep masks and moves as
    numbers and tuples, which the garbage collector stops tracking; the sets themselves
    are kept once per mask, in this shorter one."""
    return frozenset(label for label in LABELS if _BIT[label] & mask)


@cache
def _span(terrain: str, name: str, start: str) -> int:
    """The hexes character ``name`` could move to from ``start`` on an empty ``terrain``,
    as a set of :data:`BIT`: only whether these are occupied matters for its moves."""
    return _mask(_moves(terrain, name, start, 0))


@lru_cache(maxsize=1 << 12)
def _moves(terrain: str, name: str, start: str, blocked: int) -> tuple[tuple[str, int], ...]:
    """The hexes character ``name`` may move to from ``start`` on ``terrain`` with the
    hexes ``blocked`` occupied, with their costs: it walks, or flies (§8.5.4, §8.5.5).
    A search asks for the same moves again and again, so they are kept."""
    kind, land = character(name), battleland(terrain)
    costs = (_fly if kind.flies else _walk)(kind, land, blocked, {start: 0})
    costs.pop(start, None)
    return tuple(costs.items())


def entry_costs(position: Position, name: str, edge: Edge) -> Mapping[str, int]:
    """Every hex character ``name``, off the board, may reach by entering across ``edge``,
    with the points it costs (RULES §8.5.6).

    Walking in, the first step is into an empty hex of the edge at its entry cost, with no
    hexside cost. A flyer flies in from beyond the edge: the edge hex is the first hex it
    crosses, so it may pass over an occupied edge hex and pays the landing cost of the hex
    it lands in, the edge hex included (§8.5.5). Either way the move continues within the
    same Skill.
    """
    return MappingProxyType(dict(_entries(*_entry_key(position, name, edge))))


def entry_hexes(position: Position, name: str, edge: Edge) -> frozenset[str]:
    """The hexes character ``name``, off the board, may enter to across ``edge`` (§8.5.6)."""
    return _hexes(_entry_hexes(*_entry_key(position, name, edge)))


def _entry_key(position: Position, name: str, edge: Edge) -> tuple[str, str, tuple[str, ...], int]:
    """What :func:`entry_costs` depends on: the terrain, the character, the edge's hexes
    and the occupied ones of its :func:`_entry_span` (an unknown name or terrain raises)."""
    terrain, hexes = position.terrain, edge.hexes
    return terrain, name, hexes, position.occupied_mask & _entry_span(terrain, name, hexes)


@lru_cache(maxsize=1 << 12)
def _entry_hexes(terrain: str, name: str, edge: tuple[str, ...], blocked: int) -> int:
    """The hexes of :func:`_entries` as a set of :data:`BIT`."""
    return _mask(_entries(terrain, name, edge, blocked))


@cache
def _entry_span(terrain: str, name: str, edge: tuple[str, ...]) -> int:
    """As :func:`_span`, for a character entering across the edge of hexes ``edge``."""
    return _mask(_entries(terrain, name, edge, 0))


@lru_cache(maxsize=1 << 12)
def _entries(
    terrain: str, name: str, edge: tuple[str, ...], blocked: int
) -> tuple[tuple[str, int], ...]:
    """:func:`entry_costs` on ``terrain`` with the hexes ``blocked`` occupied."""
    who, land = character(name), battleland(terrain)
    if who.flies:
        sources = {h: 1 for h in edge if may_pass_over(who, land.hexes[h].hazard)}
        return tuple(_fly(who, land, blocked, sources).items())
    sources = {}
    for label in edge:
        cost = ground_entry_cost(who, land.hexes[label].hazard)
        if not _BIT[label] & blocked and cost is not None:
            sources[label] = cost
    return tuple(_walk(who, land, blocked, sources).items())


def deployment_hexes(position: Position) -> frozenset[str]:
    """Where the Tower defender may place a character in his first maneuver: any empty
    Tower hex (RULES §8.3). Empty for any other battleland."""
    return position.land.tower_interior - position.occupied()


def maneuvers(position: Position, side: Side) -> dict[str, frozenset[str]]:
    """Legal destinations of each of ``side``'s characters on the board, keyed by the hex
    it stands in; characters that cannot move (engaged, or boxed in) are left out (§8.5)."""
    moves = {f.hex: reachable(position, f) for f in position.of_side(side) if f.alive}
    return {start: ends for start, ends in moves.items() if ends}


def check_maneuver(position: Position, start: str, end: str) -> Fighter:
    """The character in ``start``, after checking it may move to ``end`` (RULES §8.5).

    Raises :class:`InvalidNotation` when no character stands in ``start`` and
    :class:`IllegalManeuver` when ``end`` is not one of its destinations.
    """
    who = position.at(start)
    if who is None:
        raise InvalidNotation(f"no character in {start}")
    if position.is_engaged(who):
        raise IllegalManeuver(f"the {who.name} in {start} is engaged and may not move (RULES §8.5)")
    if end not in reachable(position, who):
        raise IllegalManeuver(
            f"the {who.name} in {start} cannot reach {end} this maneuver (RULES §8.5, §8.6)"
        )
    return who
