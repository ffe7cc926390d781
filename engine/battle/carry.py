"""Declared reductions and carry-over of a normal strike (RULES §9.4, §9.5, §14 C1, C2).

A striker may announce fewer dice and/or a higher strike number than its natural ones, but
only to make carry-over possible (errata 12.0, 12.4, 12.5). After the roll, hits beyond
those the target still needs go, one target at a time until it is slain, onto the other
enemies that were eligible under the values used; what is left over is lost (errata 12.4).
:func:`legal_declarations` is the one source of the announcements a striker may make.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.battle.position import Fighter, Position
from engine.battle.strike import (
    DUNE,
    StrikeValues,
    natural_values,
    strike_targets,
    strike_values,
)
from engine.battleland import BIT
from engine.errors import IllegalStrike
from engine.frozen import evolve, quick_init
from engine.words import plural


def dune_barred(position: Position, striker: Fighter, target: Fighter, other: Fighter) -> bool:
    """Whether carry from a strike at ``target`` onto ``other`` is barred by a Dune.

    A non-native may carry up a Dune only if its own strike also goes up a Dune; a native
    may (RULES §9.4 "Dunes"; errata 11.7; §14 C1).
    """
    if striker.is_native_to(DUNE):
        return False
    # Striking up a Dune: the Dune lies on the far hex's side of the border (crossing).
    border = position.land.border
    return border(striker.hex, other.hex)[1] == DUNE and border(striker.hex, target.hex)[1] != DUNE


def other_enemies(position: Position, striker: Fighter, target: Fighter) -> list[Fighter]:
    """The living enemies in contact with ``striker`` other than ``target`` (RULES §9.4)."""
    near = position.land.contact_bits.get(striker.hex)
    if near is not None:
        near &= position.enemy_mask(striker.side, living_only=True) & ~BIT.get(target.hex, 0)
        if not near:
            return []  # the target is the only enemy in contact: the usual case
    return [f for f in strike_targets(position, striker) if f.hex != target.hex]


@quick_init
@dataclass(frozen=True)
class _Other:
    """Another enemy in contact with the striker and the normal strike at it (§9.4)."""

    fighter: Fighter
    normal: StrikeValues


def _others(position: Position, striker: Fighter, target: Fighter) -> list[_Other]:
    return _normals(position, striker, other_enemies(position, striker, target))


def _normals(position: Position, striker: Fighter, enemies: list[Fighter]) -> list[_Other]:
    """``enemies``, which ``striker`` may strike (not checked again), with the normal
    strike at each."""
    terrain, name, power, at = position.terrain, striker.name, striker.power, striker.hex
    return [_Other(o, natural_values(terrain, name, power, at, o.name, o.hex)) for o in enemies]


def _eligible(
    position: Position, striker: Fighter, target: Fighter, others: list[_Other], used: StrikeValues
) -> list[Fighter]:
    """The ``others`` that may take carry-over under ``used`` (see eligible_carry_targets)."""
    dice, number = used.dice, used.strike_number
    found = [
        o.fighter for o in others if o.normal.dice >= dice and o.normal.strike_number <= number
    ]
    if not found or striker.is_native_to(DUNE):
        return found  # no Dune bars a native's carry (RULES §9.4)
    return [f for f in found if not dune_barred(position, striker, target, f)]


def eligible_carry_targets(
    position: Position, striker: Fighter, target: Fighter, used: StrikeValues
) -> list[Fighter]:
    """The enemies that may take carry-over from a strike at ``target`` made with ``used``.

    Those other living enemies X in contact with the striker for which (1) the normal dice
    against X ≥ the dice rolled and (2) the normal strike number against X ≤ the one used,
    and no Dune bars the carry (RULES §9.4). Legality of ``used`` is not checked here.
    """
    others = other_enemies(position, striker, target)
    if not others:
        return others
    dice, number = used.dice, used.strike_number
    terrain, name, power, at = position.terrain, striker.name, striker.power, striker.hex
    found = []
    for other in others:
        normal = natural_values(terrain, name, power, at, other.name, other.hex)
        if normal.dice >= dice and normal.strike_number <= number:
            found.append(other)
    if not found or striker.is_native_to(DUNE):
        return found  # no Dune bars a native's carry (RULES §9.4)
    return [f for f in found if not dune_barred(position, striker, target, f)]


def declaration_problem(
    position: Position, striker: Fighter, target: Fighter, declared: StrikeValues
) -> str | None:
    """Why announcing ``declared`` for a strike at ``target`` is not allowed, or None.

    The natural values are always allowed. Otherwise (RULES §9.5): no extra dice and no lower
    strike number (§9.3); (a) a lowered D′ / raised S′ must equal the normal dice / S against
    another living engaged enemy, and (d) a lowered D′ may not copy the dice against one that
    a Dune bars; (c) D′ must exceed the hits the target still needs; (b) some other enemy
    must become eligible for carry-over that was not under the natural values.
    Raises :class:`~engine.errors.IllegalStrike` when the strike itself is not allowed.
    """
    natural = strike_values(position, striker, target)
    if declared == natural:
        return None
    return _problem(
        position, striker, target, natural, _others(position, striker, target), declared
    )


def _problem(
    position: Position,
    striker: Fighter,
    target: Fighter,
    natural: StrikeValues,
    others: list[_Other],
    declared: StrikeValues,
) -> str | None:
    """:func:`declaration_problem` for a ``declared`` other than the ``natural`` values."""
    if declared.dice > natural.dice or declared.strike_number < natural.strike_number:
        return f"no strike may be made stronger than {natural} (RULES §9.3)"
    if declared.dice < natural.dice and declared.dice not in {
        o.normal.dice for o in others if not dune_barred(position, striker, target, o.fighter)
    }:
        return (
            f"{declared.dice} dice are not the normal dice against another engaged enemy "
            "that may take carry-over (RULES §9.5 a, d)"
        )
    if declared.strike_number > natural.strike_number and declared.strike_number not in {
        o.normal.strike_number for o in others
    }:
        return (
            f"strike number {declared.strike_number} is not the normal one against another "
            "engaged enemy (RULES §9.5 a)"
        )
    if declared.dice <= target.hits_to_slay:
        return (
            f"{plural(declared.dice, 'die', 'dice')} cannot slay {target.name} "
            f"({plural(target.hits_to_slay, 'hit')} needed) with hits to spare "
            "(RULES §9.5 c, errata 12.0)"
        )
    before = {f.hex for f in _eligible(position, striker, target, others, natural)}
    after = {f.hex for f in _eligible(position, striker, target, others, declared)}
    if not after - before:
        return "the announcement makes no other enemy eligible for carry-over (RULES §9.5 b)"
    return None


def is_legal_declaration(
    position: Position, striker: Fighter, target: Fighter, declared: StrikeValues
) -> bool:
    """Whether ``declared`` may be announced for a strike at ``target`` (RULES §9.5)."""
    return declaration_problem(position, striker, target, declared) is None


def check_declaration(
    position: Position, striker: Fighter, target: Fighter, declared: StrikeValues
) -> None:
    """Raise :class:`~engine.errors.IllegalStrike` unless ``declared`` is allowed (RULES §9.5)."""
    problem = declaration_problem(position, striker, target, declared)
    if problem is not None:
        raise IllegalStrike(f"{striker.name} in {striker.hex} at {target.hex}: {problem}")


def carry_targets(
    position: Position, striker: Fighter, target: Fighter, declared: StrikeValues | None = None
) -> list[Fighter]:
    """Eligible carry-over targets under a legal announcement (natural values by default).

    Raises :class:`~engine.errors.IllegalStrike` for an illegal strike or announcement.
    """
    used = strike_values(position, striker, target) if declared is None else declared
    check_declaration(position, striker, target, used)
    return eligible_carry_targets(position, striker, target, used)


@quick_init
@dataclass(frozen=True)
class DeclarationOption:
    """A legal announcement for one strike and the carry-over targets it opens (RULES §9.5).

    ``natural`` marks the plain strike with no voluntary penalty.
    """

    values: StrikeValues
    carry_targets: tuple[Fighter, ...]
    natural: bool = False


def legal_declarations(
    position: Position, striker: Fighter, target: Fighter
) -> list[DeclarationOption]:
    """Every announcement ``striker`` may make at ``target``, the natural one first (RULES §9.5).

    Candidates combine the natural values with the normal dice and strike numbers against
    the other engaged enemies. Raises :class:`~engine.errors.IllegalStrike` for an illegal strike.
    """
    natural = strike_values(position, striker, target)
    return _declarations(position, striker, target, natural, _others(position, striker, target))


def declarations_of(
    position: Position, striker: Fighter
) -> list[tuple[Fighter, DeclarationOption]]:
    """:func:`legal_declarations` at each of the :func:`strike_targets` of ``striker`` in
    turn, as (target, option): every strike it may make now (RULES §9.1, §9.5)."""
    enemies = _normals(position, striker, strike_targets(position, striker))
    found = []
    for mine in enemies:
        target = mine.fighter
        others = [o for o in enemies if o.fighter.hex != target.hex]
        for option in _declarations(position, striker, target, mine.normal, others):
            found.append((target, option))
    return found


def _declarations(
    position: Position,
    striker: Fighter,
    target: Fighter,
    natural: StrikeValues,
    others: list[_Other],
) -> list[DeclarationOption]:
    """:func:`legal_declarations` of a strike known to be allowed."""
    natural_targets = _eligible(position, striker, target, others, natural)
    options = [DeclarationOption(natural, tuple(natural_targets), True)]
    if not others:
        return options  # nothing to copy: no announcement but the natural one
    normals = [o.normal for o in others]
    dice = sorted({natural.dice} | {v.dice for v in normals if v.dice < natural.dice}, reverse=True)
    numbers = sorted(
        {natural.strike_number}
        | {v.strike_number for v in normals if v.strike_number > natural.strike_number}
    )
    for d in dice:
        for s in numbers:
            values = StrikeValues(d, s)
            if (
                values != natural
                and _problem(position, striker, target, natural, others, values) is None
            ):
                targets = _eligible(position, striker, target, others, values)
                options.append(DeclarationOption(values, tuple(targets)))
    return options


@quick_init
@dataclass(frozen=True)
class StrikeResult:
    """A rolled normal strike (RULES §9.2, §9.4).

    ``used`` are the values thrown (natural or declared); ``carry_targets`` the enemies
    eligible for carry-over under them, fixed before the roll.
    """

    striker: Fighter
    target: Fighter
    used: StrikeValues
    rolls: tuple[int, ...]
    carry_targets: tuple[Fighter, ...]

    @property
    def hits(self) -> int:
        """Dice at or above the strike number (RULES §9.2)."""
        return sum(1 for r in self.rolls if r >= self.used.strike_number)

    @property
    def target_slain(self) -> bool:
        return self.hits >= self.target.hits_to_slay

    @property
    def excess(self) -> int:
        """Hits beyond those the target still needed (RULES §9.4)."""
        return max(0, self.hits - self.target.hits_to_slay)

    @property
    def carry_hits(self) -> int:
        """Excess hits that are carried over; the rest is lost (RULES §9.4, errata 12.4)."""
        return min(self.excess, sum(f.hits_to_slay for f in self.carry_targets))


def resolve_strike(
    position: Position,
    striker: Fighter,
    target: Fighter,
    declared: StrikeValues | None,
    rolls: Sequence[int],
) -> StrikeResult:
    """Resolve a normal strike with the given dice results (``declared`` None: natural values).

    Raises :class:`~engine.errors.IllegalStrike` for an illegal strike or announcement, or
    when ``rolls`` are not one result 1–6 per die thrown (RULES §9.2, §9.5).
    """
    targets = carry_targets(position, striker, target, declared)
    used = strike_values(position, striker, target) if declared is None else declared
    check_rolls(used, rolls)
    return StrikeResult(striker, target, used, tuple(rolls), tuple(targets))


def check_rolls(used: StrikeValues, rolls: Sequence[int]) -> None:
    """Raise :class:`~engine.errors.IllegalStrike` unless ``rolls`` are one result 1–6 per
    die thrown with ``used`` (RULES §9.2)."""
    if not rolled(rolls, used.dice):
        raise IllegalStrike(
            f"a strike with {used} needs {plural(used.dice, 'result')} of 1–6 (RULES §9.2)"
        )


def rolled(rolls: Sequence[int], dice: int) -> bool:
    """Whether ``rolls`` are one result 1–6 for each of ``dice`` dice (RULES §9.2)."""
    if len(rolls) != dice:
        return False
    for r in rolls:  # noqa: SIM110 (a loop: no generator to build for each strike)
        if not 1 <= r <= 6:
            return False
    return True


def allocate_carry(result: StrikeResult, order: Sequence[str] = ()) -> tuple[tuple[str, int], ...]:
    """Share the excess of ``result``: ``(hex, hits)`` in the order the hits are placed.

    ``order`` ranks carry targets by hex, the striker's choice after the roll; each takes
    hits until slain before the next (errata 12.4). Where the rest of the placement is
    forced (one eligible target left, or enough hits to slay all of them) it is completed
    without a choice. Raises :class:`~engine.errors.IllegalStrike` for a hex that is not an
    eligible target, a repeated hex, or a missing choice (RULES §9.4).
    """
    by_hex = {f.hex: f for f in result.carry_targets}
    if len(set(order)) != len(order) or any(h not in by_hex for h in order):
        eligible = ", ".join(sorted(by_hex)) or "none"
        raise IllegalStrike(
            f"carry-over must go to distinct eligible targets ({eligible}; RULES §9.4)"
        )
    left = result.carry_hits
    rest = [h for h in by_hex if h not in order]
    unranked = left - sum(by_hex[h].hits_to_slay for h in order)
    if len(rest) > 1 and 0 < unranked < sum(by_hex[h].hits_to_slay for h in rest):
        raise IllegalStrike(
            f"choose where {plural(result.carry_hits, 'carried hit')} "
            f"{'goes' if result.carry_hits == 1 else 'go'}: {', '.join(sorted(rest))} "
            "(RULES §9.4)"
        )
    placed = []
    for hex_label in [*order, *rest]:
        hits = min(left, by_hex[hex_label].hits_to_slay)
        if hits:
            placed.append((hex_label, hits))
            left -= hits
    return tuple(placed)


def apply_strike(
    position: Position, result: StrikeResult, order: Sequence[str] = ()
) -> tuple[Position, tuple[tuple[str, int], ...]]:
    """The position after ``result`` and its carry-over (see :func:`allocate_carry`).

    Returns the new position and the carried ``(hex, hits)``. Slain characters stay on the
    board, marked slain, until the end of the phase (RULES §9.1).
    """
    carried = allocate_carry(result, order)
    damage = {result.target.hex: min(result.hits, result.target.hits_to_slay)}
    damage.update(carried)
    fighters = tuple(
        f.damaged(damage[f.hex]) if damage.get(f.hex) else f for f in position.fighters
    )
    return evolve(position, fighters=fighters), carried
