"""Masterboard movement for one roll: normal moves and teleports (RULES §2.3–§2.7, §4.4–§4.8).

Pure functions over a :class:`MoveContext` (where the legion stands, the roll, which lands
hold other legions). :func:`legal_moves` is the one source of legality; :func:`check_move`
validates a player's choice against it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache

from engine.characters import TITAN, can_titan_teleport, has_lord
from engine.errors import IllegalMove, InvalidNotation
from engine.masterboard import ENTRY_SIDES, LANDS, TOWER_ENTRY_SIDE, TOWERS, land

#: The roll both teleports need (RULES §4.4, §4.5).
TELEPORT_ROLL = 6
#: How far a Tower teleport reaches, in lands (RULES §4.4a).
TOWER_TELEPORT_RANGE = 6


class MoveKind(Enum):
    """How a legion gets to its destination."""

    NORMAL = "normal"
    TOWER_TELEPORT = "tower_teleport"
    TITAN_TELEPORT = "titan_teleport"


@dataclass(frozen=True)
class MoveOption:
    """One legal destination of one kind of move.

    ``via``: the distinct lands the legion is in just before entering ``destination``
    (normal moves only; empty for teleports). ``entry_sides``: the sides (1, 3, 5) it may
    enter by, which matter when an enemy legion is there (RULES §2.7, §4.8).
    """

    destination: int
    kind: MoveKind
    entry_sides: tuple[int, ...]
    via: tuple[int, ...] = ()


@dataclass(frozen=True)
class MoveContext:
    """The situation of one legion about to move.

    ``start`` is the land where the legion began the movement phase. ``friendly`` holds the
    lands with *other* legions of the mover (the start land too when a split-off sibling
    stays there); ``enemy`` the lands with enemy legions. A land may be in both (an
    engagement made earlier this turn). Raises :class:`InvalidNotation` for an unknown land
    or a roll outside 1–6.
    """

    start: int
    roll: int
    friendly: frozenset[int] = frozenset()
    enemy: frozenset[int] = frozenset()
    has_lord: bool = False
    has_titan: bool = False
    score: int = 0
    teleported_this_turn: bool = False
    towers_barred: bool = False
    """A Tower teleport may not land in a Tower (the 2-player event's first turn,
    ``Options.first_turn_teleport_no_tower``)."""

    def __post_init__(self) -> None:
        land(self.start)
        if not 1 <= self.roll <= 6:
            raise InvalidNotation(f"{self.roll!r} is not a movement roll (1-6, RULES §4.2)")
        object.__setattr__(self, "friendly", frozenset(self.friendly))
        object.__setattr__(self, "enemy", frozenset(self.enemy))
        for number in self.friendly | self.enemy:
            land(number)

    @classmethod
    def for_legion(
        cls,
        start: int,
        roll: int,
        characters: Iterable[str],
        *,
        friendly: Iterable[int] = (),
        enemy: Iterable[int] = (),
        score: int = 0,
        teleported_this_turn: bool = False,
        towers_barred: bool = False,
    ) -> MoveContext:
        """A context for a legion of the named ``characters`` (its lords decide teleports)."""
        names = tuple(characters)
        return cls(
            start=start,
            roll=roll,
            friendly=frozenset(friendly),
            enemy=frozenset(enemy),
            has_lord=has_lord(names),
            has_titan=TITAN in names,
            score=score,
            teleported_this_turn=teleported_this_turn,
            towers_barred=towers_barred,
        )


def _usable_exits(number: int, previous: int | None) -> tuple[int, ...]:
    """Lands one step away following the signs (RULES §2.2, §2.3 steps 1 and 2)."""
    here = land(number)
    if previous is None:
        block = here.block
        return (block.to,) if block else tuple(e.to for e in here.exits)
    return tuple(e.to for e in here.exits if not e.sign.first_step_only and e.to != previous)


def _normal_destinations(ctx: MoveContext) -> dict[int, set[int]]:
    """Destination → lands it is entered from, by walking the signs (RULES §2.3)."""
    found: dict[int, set[int]] = defaultdict(set)
    # A state is (land, land just left): the border just crossed may not be recrossed.
    states: set[tuple[int, int | None]] = {(ctx.start, None)}
    for step in range(1, ctx.roll + 1):
        following: set[tuple[int, int | None]] = set()
        for here, previous in states:
            for there in _usable_exits(here, previous):
                if there in ctx.enemy:
                    if there not in ctx.friendly:  # engagement: the move ends here
                        found[there].add(here)
                    continue  # own + enemy: neither entered nor crossed (errata 7.1)
                if step < ctx.roll:
                    following.add((there, here))
                elif there not in ctx.friendly:
                    found[there].add(here)
        states = following
    return found


def _entry_sides(destination: int, via: Iterable[int]) -> tuple[int, ...]:
    """Entry sides for entering ``destination`` from the lands ``via`` (RULES §2.7)."""
    target = land(destination)
    if target.is_tower:
        return (TOWER_ENTRY_SIDE,)
    return tuple(sorted({target.entry_side_from(v) for v in via}))


def normal_moves(ctx: MoveContext) -> list[MoveOption]:
    """Every legal normal move for the roll, loops included (RULES §2.3, §2.5)."""
    return [
        MoveOption(dest, MoveKind.NORMAL, _entry_sides(dest, via), tuple(sorted(via)))
        for dest, via in sorted(_normal_destinations(ctx).items())
    ]


def has_normal_move(ctx: MoveContext) -> bool:
    """Whether the legion has a legal normal move (RULES §2.6; teleports never count)."""
    return bool(_normal_destinations(ctx))


@cache
def tower_teleport_range(tower: int) -> frozenset[int]:
    """Lands within 6 steps of ``tower`` across borders with a sign on either side,
    whatever its type or direction (RULES §4.4a). The tower itself is not included."""
    links: dict[int, set[int]] = defaultdict(set)
    for here in LANDS.values():
        for e in here.exits:
            links[here.number].add(e.to)
            links[e.to].add(here.number)
    reached = {tower}
    frontier = {tower}
    for _ in range(TOWER_TELEPORT_RANGE):
        frontier = {n for f in frontier for n in links[f]} - reached
        reached |= frontier
    return frozenset(reached - {tower})


def tower_teleport_refusal(ctx: MoveContext) -> str | None:
    """Why the legion may not Tower teleport now (RULES §4.4, §4.6), or None if it may."""
    if ctx.roll != TELEPORT_ROLL:
        return f"Tower teleport needs a roll of 6, not {ctx.roll} (RULES §4.4)"
    if not land(ctx.start).is_tower:
        return f"Tower teleport must start in a Tower, not land {ctx.start} (RULES §4.4)"
    if not ctx.has_lord:
        return "Tower teleport needs a lord in the legion (RULES §4.4)"
    if ctx.teleported_this_turn:
        return "only one legion may teleport each turn (RULES §4.6)"
    return None


def tower_teleports(ctx: MoveContext) -> list[MoveOption]:
    """Tower teleport destinations: empty lands within 6 and empty other Towers (RULES §4.4);
    never the start land (errata 8.1); no Tower at all with ``ctx.towers_barred``."""
    if tower_teleport_refusal(ctx) is not None:
        return []
    occupied = ctx.friendly | ctx.enemy | {ctx.start}
    targets = (tower_teleport_range(ctx.start) | frozenset(TOWERS)) - occupied
    if ctx.towers_barred:
        targets -= frozenset(TOWERS)
    return [
        MoveOption(dest, MoveKind.TOWER_TELEPORT, _teleport_entry_sides(dest))
        for dest in sorted(targets)
    ]


def titan_teleport_refusal(ctx: MoveContext) -> str | None:
    """Why the legion may not Titan teleport now (RULES §4.5, §4.6), or None if it may."""
    if ctx.roll != TELEPORT_ROLL:
        return f"Titan teleport needs a roll of 6, not {ctx.roll} (RULES §4.5)"
    if not ctx.has_titan:
        return "Titan teleport needs the Titan in the legion (RULES §4.5)"
    if not can_titan_teleport(ctx.score):
        return f"Titan teleport needs a score of 400, not {ctx.score} (RULES §4.5)"
    if ctx.teleported_this_turn:
        return "only one legion may teleport each turn (RULES §4.6)"
    return None


def _teleport_entry_sides(destination: int) -> tuple[int, ...]:
    """Any side, even one facing off the board (errata 10.4); side 3 in a Tower (§4.5)."""
    return (TOWER_ENTRY_SIDE,) if land(destination).is_tower else ENTRY_SIDES


def titan_teleports(ctx: MoveContext) -> list[MoveOption]:
    """Titan teleport destinations: lands with an enemy legion and none of the mover's
    (RULES §4.5, errata 7.1/8.2); never the start land (errata 8.1)."""
    if titan_teleport_refusal(ctx) is not None:
        return []
    targets = ctx.enemy - ctx.friendly - {ctx.start}
    return [
        MoveOption(dest, MoveKind.TITAN_TELEPORT, _teleport_entry_sides(dest))
        for dest in sorted(targets)
    ]


def legal_moves(ctx: MoveContext) -> list[MoveOption]:
    """Every legal move of the legion: normal moves, then Tower and Titan teleports."""
    return normal_moves(ctx) + tower_teleports(ctx) + titan_teleports(ctx)


_FINDERS = {
    MoveKind.NORMAL: normal_moves,
    MoveKind.TOWER_TELEPORT: tower_teleports,
    MoveKind.TITAN_TELEPORT: titan_teleports,
}


def _refusal(ctx: MoveContext, destination: int, kind: MoveKind, who: str) -> str:
    """The player-readable reason a move of ``kind`` to ``destination`` is not legal."""
    both = destination in ctx.friendly and destination in ctx.enemy
    if kind is MoveKind.NORMAL:
        if both:
            return f"{who} may not enter {destination}: your legion is engaged there (errata 7.1)"
        vacated = replace(ctx, friendly=ctx.friendly - {destination})
        if destination in ctx.friendly and destination in _normal_destinations(vacated):
            return (
                f"{who} may not end on {destination}: another of your legions is there (RULES §2.3)"
            )
        return f"{who} cannot reach {destination} with a {ctx.roll} (RULES §2.3)"
    if destination == ctx.start:
        return f"{who} may not teleport back into {destination}, where it started (errata 8.1)"
    if kind is MoveKind.TOWER_TELEPORT:
        reason = tower_teleport_refusal(ctx)
        if reason is None and ctx.towers_barred and land(destination).is_tower:
            reason = "on your first turn it may not land in a Tower (2-player event rules)"
        elif reason is None and destination in ctx.friendly | ctx.enemy:
            reason = f"{destination} is occupied (RULES §4.4)"
        return f"{who} cannot teleport to {destination}: {reason or 'out of range (RULES §4.4)'}"
    reason = titan_teleport_refusal(ctx)
    if reason is None and both:
        reason = "it holds your legion and an enemy's (errata 7.1/8.2)"
    return f"{who} cannot teleport to {destination}: {reason or 'no enemy there (RULES §4.5)'}"


def check_move(
    ctx: MoveContext,
    destination: int,
    kind: MoveKind = MoveKind.NORMAL,
    entry_side: int | None = None,
    *,
    label: str = "the legion",
) -> MoveOption:
    """The legal move of ``kind`` to ``destination``, narrowed to ``entry_side`` if given
    (its ``via`` then keeps the lands entered from by that side; RULES §4.8).

    Raises :class:`InvalidNotation` for an unknown land or side, :class:`IllegalMove`
    (naming ``label`` and the rule) when the rules forbid the move.
    """
    land(destination)
    if entry_side is not None and entry_side not in ENTRY_SIDES:
        raise InvalidNotation(f"{entry_side!r} is not an entry side (1, 3 or 5; RULES §2.7)")
    option = next((o for o in _FINDERS[kind](ctx) if o.destination == destination), None)
    if option is None:
        raise IllegalMove(_refusal(ctx, destination, kind, label))
    if entry_side is None:
        return option
    if entry_side not in option.entry_sides:
        sides = ", ".join(map(str, option.entry_sides))
        raise IllegalMove(
            f"{label} may enter {destination} only by side {sides}, not {entry_side} (RULES §4.8)"
        )
    via = tuple(v for v in option.via if _entry_sides(destination, (v,)) == (entry_side,))
    return replace(option, entry_sides=(entry_side,), via=via)
