"""Setting up a battle and running its turns (RULES §8.1–§8.4, §8.7, §6.6, §7.2a; SoP).

The defender's half comes first, then the attacker's, for turns 1–7. A half is: the
defender's reinforcement on turn 4 or the attacker's summon when due; the maneuver phase;
drift damage; the phasing side's strikes and rangestrikes; the other side's
counterstrikes; removal of the slain and the end check. :func:`advance` runs every step that
needs no decision and stops at the next decision (or the end).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.battle.concession import has_won, may_concede
from engine.battle.ending import end_check, finish, remove_slain
from engine.battle.events import (
    ChanceDeclined,
    Change,
    DriftDamage,
    EntrantCalled,
    HalfTurnBegun,
)
from engine.battle.position import Fighter, Position, Side
from engine.battle.state import (
    REINFORCEMENT_TURN,
    Battle,
    BattleStep,
    EndKind,
    Entrant,
    Supplies,
    battle_waiting,
)
from engine.battle.striking import begin_counterstrikes, due_strikers, rangestrikers
from engine.characters import ANGEL, ARCHANGEL
from engine.errors import IllegalMuster, IllegalSummon, WrongPhase
from engine.events import Event
from engine.frozen import evolve
from engine.muster import FULL_HEIGHT, MusterOption, check_muster, in_reveal_order, muster_options

DRIFT = "Drift"


def new_battle(
    terrain: str,
    entry_side: int,
    markers: Mapping[Side, str],
    legions: Mapping[Side, tuple[str, ...]],
    titan_power: Mapping[Side, int],
) -> Battle:
    """A battle about to begin: every character off the board, the defender to move first
    (RULES §8.3, §8.4). ``titan_power`` is each side's Titan Power (§1.3)."""
    return Battle(
        entry_side=entry_side,
        attacker=markers[Side.ATTACKER],
        defender=markers[Side.DEFENDER],
        position=Position(terrain, ()),
        off_board={side: tuple(sorted(legions[side])) for side in Side},
        titan_power=dict(titan_power),
        step=BattleStep.OPEN_ATTACKER,
    )


# --- summon and reinforcement (RULES §6.6, §7.2a) -------------------------------------
def _living_names(battle: Battle, side: Side) -> list[str]:
    return [f.name for f in battle.position.of_side(side) if f.alive] + list(battle.waiting(side))


def summon_options(battle: Battle, supplies: Supplies) -> list[tuple[str, str]]:
    """(donor, lord) pairs the attacker may summon now (RULES §7.2)."""
    if len(_living_names(battle, Side.ATTACKER)) >= FULL_HEIGHT:
        return []
    return [(d, lord) for d, lord in supplies.donors if lord in (ANGEL, ARCHANGEL)]


def reinforcement_options(battle: Battle, supplies: Supplies) -> list[MusterOption]:
    """What the defender may muster as a reinforcement now (RULES §6.6, §6.2–§6.4), with
    every way to reveal it, least revealing first (:mod:`engine.reveals`)."""
    living = _living_names(battle, Side.DEFENDER)
    if len(living) >= FULL_HEIGHT:
        return []
    return in_reveal_order(muster_options(battle.terrain, living, dict(supplies.caretaker)))


def summon(battle: Battle, donor: str, lord: str, supplies: Supplies) -> Change:
    """The attacker calls ``lord`` from ``donor``; it must enter this maneuver phase."""
    if battle.step is not BattleStep.SUMMON or battle.concession is not None:
        raise WrongPhase("you may summon only at the start of your maneuver phase (RULES §7.2a)")
    if (donor, lord) not in summon_options(battle, supplies):
        raise IllegalSummon(
            f"{donor} cannot send a {lord}: the donor must be another legion of yours, not "
            "with an enemy, holding that lord, and your legion must have room (RULES §7.2)"
        )
    entrant = Entrant(lord, Side.ATTACKER, donor=donor)
    return _call(battle, entrant), [EntrantCalled(Side.ATTACKER, lord, donor=donor)]


def reinforce(
    battle: Battle, recruit: str, revealed: tuple[str, ...], supplies: Supplies
) -> tuple[Battle, list[Event], tuple[str, ...]]:
    """The defender calls ``recruit``; it must enter this maneuver phase (RULES §6.6).

    Returns the recruiters shown (``revealed``, or when empty the least revealing
    sufficient set, the first of :func:`reinforcement_options`).
    """
    if battle.step is not BattleStep.REINFORCE or battle.concession is not None:
        raise WrongPhase("you may reinforce only at the start of your 4th turn (RULES §6.6)")
    living = _living_names(battle, Side.DEFENDER)
    if len(living) >= FULL_HEIGHT:
        raise IllegalMuster("a legion of 7 living characters cannot reinforce (RULES §6.6)")
    caretaker = dict(supplies.caretaker)
    if not revealed:
        options = reinforcement_options(battle, supplies)
        first = next((o.recruiters[0] for o in options if o.recruit == recruit), ())
        revealed = tuple(first)
    option = check_muster(battle.terrain, living, recruit, revealed, caretaker)
    entrant = Entrant(option.recruit, Side.DEFENDER, revealed=tuple(revealed))
    event = EntrantCalled(Side.DEFENDER, option.recruit, revealed=tuple(revealed))
    return _call(battle, entrant), [event], tuple(revealed)


def _call(battle: Battle, entrant: Entrant) -> Battle:
    waiting = tuple(sorted([*battle.waiting(entrant.side), entrant.name]))
    battle = evolve(
        battle,
        entrant=entrant,
        off_board={**battle.off_board, entrant.side: waiting},
        step=BattleStep.MANEUVER,
    )
    if entrant.donor is not None:
        return evolve(battle, summon_used=True)
    return evolve(battle, reinforce_used=True)


def decline(battle: Battle, side: Side) -> Change:
    """``side`` passes on a summon, a reinforcement, or a concession window."""
    if battle.decider is not side or battle.concession is not None or battle.carry is not None:
        raise WrongPhase(f"there is nothing for you to decline now; {battle_waiting(battle)}")
    step = battle.step
    if step is BattleStep.OPEN_ATTACKER:
        battle = evolve(battle, step=BattleStep.OPEN_DEFENDER)
        return battle, [ChanceDeclined(side, "concession as the battle begins")]
    if step is BattleStep.OPEN_DEFENDER:
        battle = evolve(battle, step=BattleStep.MANEUVER)
        return battle, [ChanceDeclined(side, "concession as the battle begins")]
    if step is BattleStep.SUMMON:
        battle = evolve(battle, summon_used=True, step=BattleStep.MANEUVER)
        return battle, [ChanceDeclined(side, "summon")]
    if step is BattleStep.REINFORCE:
        battle = evolve(battle, reinforce_used=True, step=BattleStep.MANEUVER)
        return battle, [ChanceDeclined(side, "reinforcement")]
    if step is BattleStep.DRIFT:
        battle, events = apply_drift(battle)
        return battle, [ChanceDeclined(side, "concession before drift damage"), *events]
    if step is BattleStep.SLEW_ALL:
        battle = evolve(battle, step=BattleStep.COUNTERSTRIKE)
        return battle, [ChanceDeclined(side, "concession before the counterstrikes")]
    if step is BattleStep.END_CHECK and battle.ending is not None:
        battle, events = finish(battle, battle.ending)
        return battle, [ChanceDeclined(side, "concession at the end check"), *events]
    raise WrongPhase(f"there is nothing for you to decline now; {battle_waiting(battle)}")


# --- drift (RULES §8.7) -----------------------------------------------------------------
def drift_victims(battle: Battle) -> list[Fighter]:
    """The phasing side's living non-natives standing in Drift (RULES §8.7, §14 C5)."""
    land = battle.land
    return [
        f
        for f in battle.position.of_side(battle.phasing)
        if f.alive and land.hexes[f.hex].hazard == DRIFT and not f.is_native_to(DRIFT)
    ]


def apply_drift(battle: Battle) -> Change:
    """One hit each to the drift victims; then the strike phase (RULES §8.7)."""
    victims = {f.hex for f in drift_victims(battle)}
    battle = evolve(battle, step=BattleStep.STRIKE, struck=frozenset())
    if not victims:
        return battle, []
    fighters = tuple(f.damaged(1) if f.hex in victims else f for f in battle.position.fighters)
    battle = evolve(battle, position=evolve(battle.position, fighters=fighters))
    slain = tuple(f.hex for f in fighters if f.hex in victims and not f.alive)
    return battle, [DriftDamage(battle.phasing, tuple(sorted(victims)), slain)]


# --- running the steps -------------------------------------------------------------------
def end_window(battle: Battle) -> bool:
    """Whether the phasing side may concede at the end check: it has not won, still has
    living characters, and its concession would change the result (RULES §5.8, §14 C12)."""
    ending = battle.ending
    side = battle.phasing
    return (
        ending is not None
        and ending.kind is not EndKind.BOTH_TITANS
        and ending.winner is not side
        and battle.has_living(side)
        and not has_won(battle, side)
    )


def _close_half(battle: Battle) -> Change:
    """Step 6: remove the slain and check for the end (RULES §8.4, §11.1)."""
    battle, events = remove_slain(battle)
    ending = end_check(battle)
    if ending is not None:
        battle = evolve(battle, ending=ending, step=BattleStep.END_CHECK, struck=frozenset())
        if end_window(battle):
            return battle, events
        battle, more = finish(battle, ending)
        return battle, events + more
    if battle.phasing is Side.DEFENDER:
        battle = evolve(battle, phasing=Side.ATTACKER, step=BattleStep.SUMMON)
    else:
        turn = battle.turn + 1
        step = BattleStep.REINFORCE if turn == REINFORCEMENT_TURN else BattleStep.MANEUVER
        battle = evolve(battle, turn=turn, phasing=Side.DEFENDER, step=step)
    battle = evolve(battle, struck=frozenset(), moves=())
    return battle, [*events, HalfTurnBegun(battle.turn, battle.phasing)]


def _step(battle: Battle, supplies: Supplies) -> Change | None:
    """The next automatic step, or None when a side must decide."""
    step = battle.step
    if battle.concession is not None or battle.carry is not None:
        return None
    if step is BattleStep.REINFORCE:
        if not battle.reinforce_used and reinforcement_options(battle, supplies):
            return None
        return evolve(battle, reinforce_used=True, step=BattleStep.MANEUVER), []
    if step is BattleStep.SUMMON:
        if not battle.summon_due or battle.summon_used:
            return evolve(battle, step=BattleStep.MANEUVER), []
        # Asked even without a donor: skipping would reveal the other legions (§1.7).
        if len(_living_names(battle, Side.ATTACKER)) < FULL_HEIGHT and not supplies.summon_spent:
            return None
        return evolve(battle, summon_used=True, step=BattleStep.MANEUVER), []
    if step is BattleStep.DRIFT:
        lethal = any(f.hits_to_slay <= 1 for f in drift_victims(battle))
        if lethal and may_concede(battle, battle.phasing.other):
            return None
        return apply_drift(battle)
    if step is BattleStep.STRIKE:
        if due_strikers(battle) or rangestrikers(battle):
            return None
        return begin_counterstrikes(battle)
    if step is BattleStep.COUNTERSTRIKE:
        if due_strikers(battle):
            return None
        return _close_half(battle)
    return None


def advance(battle: Battle, supplies: Supplies) -> Change:
    """Run the steps that need no decision until a side must decide or the battle is over
    (RULES §8.4). ``supplies`` tell which summons and reinforcements exist."""
    events: list[Event] = []
    while True:
        change = _step(battle, supplies)
        if change is None:
            return battle, events
        battle, more = change
        events += more
