"""Strike and counterstrike phases: strikes, carry-over and rangestrikes (RULES §9, §10).

Each character of the striking side strikes at most once a phase. One engaged with a living
enemy must strike one of them, and the phase cannot end while such a strike remains
(§9.1); rangestrikes are optional and only in the side's own strike phase (§10.1, errata
13.4). Dice are rolled by the caller and passed in, so that every roll is recorded.
Characters slain during the phase still strike; they leave the board at step 6 (§8.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.battle.carry import (
    DeclarationOption,
    check_rolls,
    declarations_of,
    eligible_carry_targets,
    legal_declarations,
    rolled,
)
from engine.battle.events import (
    CarriedOver,
    CarryToPlace,
    Change,
    Rangestruck,
    StrikesEnded,
    Struck,
)
from engine.battle.position import Fighter, Position
from engine.battle.rangestrike import (
    RangestrikeValues,
    rangestrike_choices,
    rangestrike_targets,
    rangestrike_values,
)
from engine.battle.state import Battle, BattleStep, PendingCarry, battle_waiting
from engine.battle.strike import StrikeValues, strike_targets, strike_values
from engine.errors import IllegalStrike, WrongPhase
from engine.events import Event
from engine.frozen import evolve
from engine.words import plural

_STRIKE_STEPS = (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE)
# The steps bound once: an enum class's attributes are looked up through its metaclass's
# ``__getattr__`` hook, several times slower than a global.
_STRIKE, _COUNTERSTRIKE = _STRIKE_STEPS


def due_strikers(battle: Battle) -> list[Fighter]:
    """The striking side's characters that must still strike this phase (RULES §9.1)."""
    if battle.step not in _STRIKE_STEPS:
        return []
    position = battle.position
    return [
        f
        for f in position.of_side(battle.striking_side)
        if f.hex not in battle.struck and strike_targets(position, f)
    ]


def rangestrikers(battle: Battle) -> list[Fighter]:
    """The phasing side's characters that may still rangestrike (RULES §10.1)."""
    if battle.step is not _STRIKE:
        return []
    position = battle.position
    return [
        f
        for f in position.rangestriking(battle.phasing)
        if f.hex not in battle.struck and rangestrike_targets(position, f)
    ]


def strike_options(battle: Battle) -> list[tuple[Fighter, Fighter, DeclarationOption]]:
    """Every strike the striking side may make now, with every legal declaration (§9.5)."""
    if battle.step not in _STRIKE_STEPS:
        return []
    position, struck = battle.position, battle.struck
    return [
        (striker, target, option)  # strikers with no target have no option: not due
        for striker in position.of_side(battle.striking_side)
        if striker.hex not in struck
        for target, option in declarations_of(position, striker)
    ]


def rangestrike_options(battle: Battle) -> list[tuple[Fighter, Fighter, RangestrikeValues]]:
    """Every rangestrike the phasing side may make now (RULES §10)."""
    if battle.step is not _STRIKE:
        return []
    position = battle.position
    candidates = position.rangestriking(battle.phasing)
    if not candidates:
        return []  # no rangestriker on the side: the usual case
    struck = battle.struck
    return [
        (striker, target, values)
        for striker in candidates
        if striker.hex not in struck
        for target, values in rangestrike_choices(position, striker)
    ]


def _character(position: Position, hex_label: str) -> Fighter:
    found = position.at(hex_label)
    if found is None:
        raise IllegalStrike(f"there is no character in {hex_label}")
    return found


def _striker(battle: Battle, hex_label: str) -> Fighter:
    """The character in ``hex_label`` if it may strike now, else an error."""
    if battle.step not in _STRIKE_STEPS or battle.concession is not None:
        raise WrongPhase(
            "you can strike only in a strike or counterstrike phase (RULES §8.4); "
            f"{battle_waiting(battle)}"
        )
    if battle.carry is not None:
        raise WrongPhase("place the carried-over hits first (RULES §9.4)")
    striker = _character(battle.position, hex_label)
    if striker.side is not battle.striking_side:
        raise IllegalStrike(f"the {striker.name} in {hex_label} is not yours to strike with")
    if hex_label in battle.struck:
        raise IllegalStrike(
            f"the {striker.name} in {hex_label} has already struck this phase (RULES §9.1)"
        )
    return striker


def strike_plan(
    battle: Battle, striker_hex: str, target_hex: str, declared: StrikeValues | None = None
) -> tuple[Fighter, Fighter, StrikeValues]:
    """Striker, target and the values to roll for a strike (RULES §9.2–§9.5).

    ``declared`` is an announced reduction (None: the natural values). Raises
    :class:`IllegalStrike` when the strike or the announcement is not allowed.
    """
    striker, target, _, used = _strike_plan(battle, striker_hex, target_hex, declared)
    return striker, target, used


def _strike_plan(
    battle: Battle, striker_hex: str, target_hex: str, declared: StrikeValues | None
) -> tuple[Fighter, Fighter, StrikeValues, StrikeValues]:
    """:func:`strike_plan` and the natural values: striker, target, natural, used."""
    striker = _striker(battle, striker_hex)
    target = _character(battle.position, target_hex)
    natural = strike_values(battle.position, striker, target)
    if declared is None or declared == natural:
        return striker, target, natural, natural  # always allowed (§9.5)
    options = legal_declarations(battle.position, striker, target)
    if declared not in {o.values for o in options}:
        allowed = "; ".join(str(o.values) for o in options)
        raise IllegalStrike(
            f"the {striker.name} in {striker_hex} may strike {target_hex} with {allowed}, "
            f"not {declared} (RULES §9.5)"
        )
    return striker, target, natural, declared


def strike(
    battle: Battle,
    striker_hex: str,
    target_hex: str,
    declared: StrikeValues | None,
    rolls: Sequence[int],
) -> Change:
    """Make a strike with the rolled ``rolls``; excess hits carry over (RULES §9.4)."""
    striker, target, natural, used = _strike_plan(battle, striker_hex, target_hex, declared)
    check_rolls(used, rolls)
    position = battle.position
    number = used.strike_number
    hits = sum([r >= number for r in rolls])
    need = target.hits_to_slay
    excess = max(0, hits - need)
    # Eligible under the values used, fixed before the roll (RULES §9.4).
    carry = eligible_carry_targets(position, striker, target, used) if excess else ()
    battle = evolve(
        battle,
        position=position.hit(target_hex, min(hits, need)),
        struck=battle.struck | {striker_hex},
    )
    event = Struck(
        striker.side,
        striker_hex,
        striker.name,
        target_hex,
        target.name,
        used.dice,
        number,
        tuple(rolls),
        hits,
        hits >= need,
        excess,
        declared=used is not natural,
        counter=battle.step is _COUNTERSTRIKE,
    )
    if carry:
        targets = tuple([f.hex for f in carry])
        battle = evolve(battle, carry=PendingCarry(striker_hex, excess, targets))
        battle, events = _settle_carry(battle)
        return battle, [event, *events]
    return battle, [event]


def _hit(battle: Battle, hex_label: str, hits: int) -> tuple[Battle, Event]:
    target = _character(battle.position, hex_label)
    battle = evolve(battle, position=battle.position.hit(hex_label, hits))
    return battle, CarriedOver(hex_label, target.name, hits, hits >= target.hits_to_slay)


def _settle_carry(battle: Battle) -> Change:
    """Place carried hits where there is no choice; otherwise wait for the striker's
    choice (RULES §9.4, errata 12.4). Hits left with no eligible target are lost."""
    carry = battle.carry
    assert carry is not None
    position = battle.position
    targets = [h for h in carry.targets if _character(position, h).alive]
    need = {h: _character(position, h).hits_to_slay for h in targets}
    if carry.hits and len(targets) > 1 and carry.hits < sum(need.values()):
        battle = evolve(battle, carry=evolve(carry, targets=tuple(targets)))
        return battle, [CarryToPlace(battle.striking_side, carry.hits, tuple(targets))]
    battle = evolve(battle, carry=None)
    events: list[Event] = []
    left = carry.hits
    for hex_label in targets:
        hits = min(left, need[hex_label])
        if hits:
            battle, event = _hit(battle, hex_label, hits)
            events.append(event)
            left -= hits
    return battle, events


def carry_over(battle: Battle, hex_label: str) -> Change:
    """Put carried hits on the eligible target in ``hex_label`` until it is slain
    (RULES §9.4, errata 12.4)."""
    carry = battle.carry
    if carry is None or battle.concession is not None:
        raise WrongPhase("there are no carried-over hits to place")
    if hex_label not in carry.targets:
        raise IllegalStrike(
            f"{hex_label} may not take carry-over; choose one of "
            f"{', '.join(carry.targets)} (RULES §9.4)"
        )
    target = _character(battle.position, hex_label)
    hits = min(carry.hits, target.hits_to_slay)
    battle, event = _hit(battle, hex_label, hits)
    rest = tuple(h for h in carry.targets if h != hex_label)
    battle = evolve(battle, carry=PendingCarry(carry.striker, carry.hits - hits, rest))
    battle, events = _settle_carry(battle)
    return battle, [event, *events]


def rangestrike_plan(
    battle: Battle, striker_hex: str, target_hex: str, number: int | None = None
) -> tuple[Fighter, Fighter, RangestrikeValues, int]:
    """Striker, target, values and the strike number chosen for a rangestrike (§10).

    ``number`` may pick a higher strike number along another clear hexspine path
    (errata 13.3). Raises :class:`IllegalStrike` when not allowed.
    """
    if battle.step is _COUNTERSTRIKE:
        raise IllegalStrike("rangestrikes are made only in your own strike phase (RULES §10.1)")
    striker = _striker(battle, striker_hex)
    target = _character(battle.position, target_hex)
    values = rangestrike_values(battle.position, striker, target)
    if number is None:
        return striker, target, values, values.strike_number  # the default (§10.8)
    chosen = number
    if chosen not in values.strike_numbers:
        allowed = " or ".join(str(n) for n in values.strike_numbers)
        raise IllegalStrike(
            f"the rangestrike of the {striker.name} in {striker_hex} at {target_hex} uses "
            f"strike number {allowed}, not {chosen} (RULES §10.8, errata 13.3)"
        )
    return striker, target, values, chosen


def rangestrike(
    battle: Battle, striker_hex: str, target_hex: str, number: int | None, rolls: Sequence[int]
) -> Change:
    """Make a rangestrike with all its dice, ``rolls`` (RULES §10; no carry-over)."""
    striker, target, values, chosen = rangestrike_plan(battle, striker_hex, target_hex, number)
    if not rolled(rolls, values.dice):
        raise IllegalStrike(
            f"a rangestrike needs {plural(values.dice, 'result')} of 1–6 (errata 13.3)"
        )
    hits = sum([r >= chosen for r in rolls])
    need = target.hits_to_slay
    battle = evolve(
        battle,
        position=battle.position.hit(target_hex, min(hits, need)),
        struck=battle.struck | {striker_hex},
    )
    event = Rangestruck(
        striker.side,
        striker_hex,
        striker.name,
        target_hex,
        target.name,
        values.dice,
        chosen,
        tuple(rolls),
        hits,
        hits >= need,
    )
    return battle, [event]


def end_strikes(battle: Battle) -> Change:
    """End the phasing side's strike phase once no forced strike remains (RULES §9.1)."""
    if battle.step is not BattleStep.STRIKE or battle.concession is not None:
        raise WrongPhase(f"you can end only your own strike phase; {battle_waiting(battle)}")
    if battle.carry is not None:
        raise WrongPhase("place the carried-over hits first (RULES §9.4)")
    due = due_strikers(battle)
    if due:
        names = ", ".join(f"the {f.name} in {f.hex}" for f in due)
        raise IllegalStrike(f"{names} must strike first: engaged characters must (RULES §9.1)")
    return begin_counterstrikes(battle)


def begin_counterstrikes(battle: Battle) -> Change:
    """The strike phase is over: the counterstrikes come, after the phasing side's chance
    to concede if it slew every enemy (errata 9.4)."""
    event = StrikesEnded(battle.phasing, counter=False)
    battle = evolve(battle, step=BattleStep.COUNTERSTRIKE, struck=frozenset())
    if not battle.has_living(battle.phasing.other) and due_strikers(battle):
        battle = evolve(battle, step=BattleStep.SLEW_ALL)
    return battle, [event]
