"""Appraising legions on the masterboard: threats, attacks and prospects (RULES §2, §5, §6).

Movement reach is taken on an empty board (a legion that meets an enemy stops earlier,
RULES §2.3), which is close enough for judging where enemies may strike next turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.ai.knowledge import Knowledge, Sighting
from engine.ai.worth import (
    defender_edge,
    exhausted,
    legion_strength,
    points,
    recruit_value,
    win_chance,
)
from engine.game.state import GameState, Legion
from engine.masterboard import land as land_of
from engine.movement import MoveContext, normal_moves
from engine.muster import FULL_HEIGHT

#: What losing our own Titan costs: the game (RULES §12.1).
TITAN_STAKE = 300.0
#: What slaying an enemy Titan is worth beyond its points: its player is out (§12.2).
TITAN_BOUNTY = 150.0
#: Share of a lost legion's points counted for what they give the enemy (RULES §7.1).
SPOILS = 0.5
#: How much a chance next turn counts against one taken now.
FUTURE = 0.5


@cache
def reach(start: int, roll: int) -> frozenset[int]:
    """Lands a normal move of ``roll`` from ``start`` ends in, on an empty board (§2.3)."""
    return frozenset(o.destination for o in normal_moves(MoveContext(start, roll)))


@cache
def reach_odds(start: int) -> Mapping[int, float]:
    """For each land, the chance that the movement roll lets a legion in ``start`` reach it."""
    odds: dict[int, float] = {}
    for roll in range(1, 7):
        for dest in reach(start, roll):
            odds[dest] = odds.get(dest, 0.0) + 1 / 6
    return odds


def terrain_of(land: int) -> str:
    return land_of(land).terrain


def stake(legion: Legion, score: int) -> float:
    """What losing ``legion`` costs its owner."""
    return points(legion.characters, score) + (TITAN_STAKE if legion.has_titan else 0.0)


def sighted_strength(sighting: Sighting, knowledge: Knowledge, terrain: str) -> float:
    """A sighted legion's strength in ``terrain``: exact when its contents are known."""
    if sighting.full:
        return legion_strength(sighting.known, knowledge.scores[sighting.owner], terrain)
    return sighting.strength


def peril(knowledge: Knowledge, legion: Legion, land: int, score: int) -> float:
    """Expected loss of ``legion`` standing in ``land`` until our next turn: each enemy
    that may reach it attacks and wins with the chances of its strength."""
    terrain = terrain_of(land)
    ours = legion_strength(legion.characters, score, terrain) * defender_edge(terrain)
    survive = 1.0
    for enemy in knowledge.enemies():
        q = reach_odds(enemy.land).get(land, 0.0)
        if q:
            theirs = sighted_strength(enemy, knowledge, terrain)
            survive *= 1 - q * win_chance(theirs, ours)
    return (1 - survive) * stake(legion, score)


def attack_worth(
    knowledge: Knowledge,
    legion: Legion,
    enemy: Sighting,
    score: int,
    bonus: float = 0.0,
    after: float = 0.0,
) -> float:
    """Expected gain of attacking ``enemy`` with ``legion`` (``bonus``: extra strength, e.g.
    an Angel that may be summoned; ``after``: what winning adds, e.g. a muster). Losses
    when winning grow with the enemy's strength; a loss also feeds the enemy's score."""
    terrain = terrain_of(enemy.land)
    ours = legion_strength(legion.characters, score, terrain) + bonus
    theirs = sighted_strength(enemy, knowledge, terrain) * defender_edge(terrain)
    p = win_chance(ours, theirs)
    ratio = theirs / ours if ours else 1.0
    share: float = 0.5 * ratio**1.5
    losses = min(0.8, share) * points(legion.characters, score)
    won = enemy.points + enemy.titan * TITAN_BOUNTY - losses + after
    lost = stake(legion, score) + SPOILS * points(legion.characters, score)
    return p * won - (1 - p) * lost


def muster_worth(state: GameState, legion: Legion, land: int) -> float:
    """Value of the best recruit ``legion`` could muster in ``land`` (RULES §6.1–§6.4)."""
    if legion.height >= FULL_HEIGHT:
        return 0.0
    return float(recruit_value(terrain_of(land), legion.characters, exhausted(state.caretaker)))


def opportunity(
    state: GameState, knowledge: Knowledge, legion: Legion, land: int, score: int
) -> float:
    """The best thing ``legion`` could do on arriving in ``land``: attack or muster."""
    here = knowledge.by_land.get(land, ())
    enemies = [s for s in here if s.owner != knowledge.seat]
    if enemies:
        return max(0.0, attack_worth(knowledge, legion, enemies[0], score))
    if here:
        return 0.0  # one of ours is there
    return muster_worth(state, legion, land)


def prospects(
    state: GameState, knowledge: Knowledge, legion: Legion, land: int, score: int
) -> float:
    """The expected best opportunity next turn from ``land`` over the six rolls."""
    total = 0.0
    for roll in range(1, 7):
        best = max(
            (opportunity(state, knowledge, legion, dest, score) for dest in reach(land, roll)),
            default=0.0,
        )
        total += best / 6
    return FUTURE * total
