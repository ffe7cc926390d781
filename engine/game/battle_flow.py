"""The interface between an engagement and its battle (RULES §5.7, §8–§11).

The battle rules (``engine.battle``) know only the battleland. This module gives them what
the masterboard offers (summon donors, the caretaker's stacks), rolls their dice from the
game's generator, keeps the legions' contents in step with the battle (a summoned lord
joins the attacker and a reinforcement the defender once it has entered), and when the
battle is over turns its verdict into an :class:`~engine.game.outcome.Outcome`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.battle.concession import concede
from engine.battle.ending import verdict
from engine.battle.events import EntrantArrived, HalfTurnBegun
from engine.battle.position import Side
from engine.battle.state import Battle, BattleStep, Casualty, EndKind, Supplies
from engine.battle.turn import advance, new_battle
from engine.characters import ANGEL, ARCHANGEL, titan_power
from engine.frozen import evolve
from engine.game.aftermath import summon_lord
from engine.game.common import Step, add_revealed, contents, sort_names, take_from_caretaker
from engine.game.events import BATTLE, BattleBegun, Event, Mustered, Revealed
from engine.game.outcome import Outcome, conclude, eliminators, marker_of
from engine.game.state import GameState, Stage
from engine.masterboard import land as land_of


def battle_of(state: GameState) -> Battle | None:
    """The battle in progress, if any."""
    engagement = state.engagement
    if engagement is None or engagement.stage is not Stage.BATTLE:
        return None
    return engagement.battle


def supplies(state: GameState) -> Supplies:
    """What the masterboard offers the battle now (RULES §7.2, §6.6): the attacker's
    other legions, not in a land with an enemy, holding an Angel or Archangel (none once
    he has summoned this engagement phase), and the caretaker's stacks."""
    engagement = state.engagement
    assert engagement is not None
    owner = state.legion(engagement.attacker).owner
    donors: list[tuple[str, str]] = []
    if not state.turn.summoned:
        enemy_lands = {leg.land for leg in state.legions.values() if leg.owner != owner}
        for donor in sorted(state.legions_of(owner), key=lambda leg: leg.marker):
            if donor.marker == engagement.attacker or donor.land in enemy_lands:
                continue
            lords = [lord for lord in (ARCHANGEL, ANGEL) if lord in donor.characters]
            donors += [(donor.marker, lord) for lord in lords]
    return Supplies(tuple(donors), dict(state.caretaker), summon_spent=state.turn.summoned)


def begin_battle(state: GameState) -> Step:
    """Both legions become public (RULES §5.7) and the battle begins on the battleland of
    the land's terrain, the defender moving first (§8.3, §8.4)."""
    engagement = state.engagement
    assert engagement is not None
    terrain = land_of(engagement.land).terrain
    legions = {role: state.legion(marker_of(state, role)) for role in Side}
    battle = new_battle(
        terrain,
        engagement.entry_side,
        {side: legion.marker for side, legion in legions.items()},
        {side: legion.characters for side, legion in legions.items()},
        {side: titan_power(state.player(legion.owner).score) for side, legion in legions.items()},
    )
    attacker, defender = legions[Side.ATTACKER], legions[Side.DEFENDER]
    events: list[Event] = [
        BattleBegun(engagement.land, terrain, attacker.marker, defender.marker, battle.entry_side),
        Revealed(attacker.marker, attacker.characters, BATTLE),
        Revealed(defender.marker, defender.characters, BATTLE),
        HalfTurnBegun(1, Side.DEFENDER),
    ]
    for legion in (attacker, defender):  # everyone saw them: record keeping may recall it
        state = state.with_legion(add_revealed(legion, legion.characters))
    state = evolve(state, engagement=evolve(engagement, stage=Stage.BATTLE, battle=battle))
    return settle(state, battle, events)


def roll(state: GameState, count: int) -> tuple[GameState, tuple[int, ...]]:
    """``count`` dice from the game's generator."""
    values, dice = state.dice.roll(count)
    return evolve(state, dice=dice), values


def roll_off(state: GameState) -> tuple[GameState, tuple[tuple[int, int], ...]]:
    """(attacker, defender) d6 pairs until they differ (RULES §5.6, E25)."""
    pairs: list[tuple[int, int]] = []
    while not pairs or pairs[-1][0] == pairs[-1][1]:
        state, (a, d) = roll(state, 2)
        pairs.append((a, d))
    return state, tuple(pairs)


def settle(state: GameState, battle: Battle, events: Sequence[Event]) -> Step:
    """Store ``battle`` after a rules step: run the steps that need no decision, let an
    arrived lord or recruit join its legion, and conclude the engagement when it is over."""
    found = list(events)
    if battle.step is not BattleStep.OVER:
        battle, more = advance(battle, supplies(state))
        found += more
    engagement = state.engagement
    assert engagement is not None
    before = engagement.battle.casualties if engagement.battle is not None else ()
    state = evolve(state, engagement=evolve(engagement, battle=battle))
    state = _remove_casualties(state, battle.casualties[len(before) :])
    for event in list(found):
        if isinstance(event, EntrantArrived):
            state, more = _join(state, event)
            found += more
    if battle.step is BattleStep.OVER:
        state, more = _conclude(state, battle)
        found += more
    return state, found


def _remove_casualties(state: GameState, fallen: Sequence[Casualty]) -> GameState:
    """The slain leave their legion as they leave the board (step 6, RULES §8.4), so a
    legion never lists more than its living characters."""
    for casualty in fallen:
        legion = state.legion(marker_of(state, casualty.side))
        left = list(legion.characters)
        left.remove(casualty.name)
        state = state.with_legion(add_revealed(evolve(legion, characters=tuple(left)), ()))
    return state


def _join(state: GameState, arrived: EntrantArrived) -> Step:
    """A summoned lord leaves its donor for the attacker (errata 18.1: an emptied donor is
    gone); a reinforcement comes from the caretaker (RULES §6.6, §7.2a)."""
    engagement = state.engagement
    assert engagement is not None
    if arrived.donor is not None:
        state, events = summon_lord(state, arrived.donor, engagement.attacker, arrived.name)
        return evolve(state, turn=evolve(state.turn, summoned=True)), events
    legion = state.legion(engagement.defender)
    legion = evolve(legion, characters=sort_names([*legion.characters, arrived.name]))
    legion = add_revealed(legion, [*arrived.revealed, arrived.name])
    state = take_from_caretaker(state.with_legion(legion), [arrived.name])
    mustered = Mustered(legion.marker, arrived.name, arrived.revealed, reinforcement=True)
    return state, [mustered, contents(legion)]


def _how(kind: EndKind) -> str:
    return "concession" if kind is EndKind.CONCESSION else f"battle: {kind.value}"


def _conclude(state: GameState, battle: Battle) -> Step:
    """The battle's verdict as the engagement's outcome (RULES §11.3, §11.4)."""
    found = verdict(battle)
    slain = {side: names for side, names in found.slain.items()}
    gone = {side: tuple(c.name for c in battle.casualties if c.side is side) for side in Side}
    outcome = Outcome(
        _how(found.kind),
        found.winner if found.winner is not None else None,
        slain,
        points=found.points,
        may_summon=found.may_summon,
        may_reinforce=found.may_reinforce,
        eliminators=eliminators(slain),
        removed_earlier=gone,
    )
    return conclude(state, outcome)


def concede_battle(state: GameState, role: Side) -> Step:
    """``role`` concedes the battle in progress outright, as when its player withdraws
    from the game (RULES §5.8, §12.4)."""
    battle = battle_of(state)
    assert battle is not None
    battle, events = concede(battle, role)
    return settle(state, battle, events)
