"""The movement phase (RULES §2, §4): which legion goes where, and when to stop.

Greedy, one move per decision: the move whose arrival is worth most over staying put,
where arrival weighs a recruit (RULES §6), an attack's expected gain (§5) or the danger
from enemies that may reach the land next turn, plus next turn's prospects. The phase ends
when no move gains and the obligations to move are met (RULES §2.6).
"""

from __future__ import annotations

from engine.ai.appraisal import (
    attack_worth,
    muster_worth,
    peril,
    prospects,
)
from engine.ai.knowledge import Knowledge, know
from engine.ai.tiebreak import tiebreaker
from engine.ai.worth import strength
from engine.characters import ANGEL, ARCHANGEL
from engine.game import actions as a
from engine.game.state import GameState, Legion

#: A first-turn roll is rerolled unless some legion could muster at least this (§4.3).
MULLIGAN_BAR = 15
#: Share of a summonable Angel's strength counted when judging an attack (RULES §7.2).
SUMMON_SHARE = 0.6


def choose_move(state: GameState, seat: int, legal: list[a.Action]) -> a.Action:
    """The next movement-phase action for ``seat``."""
    knowledge = know(state, seat)
    if a.Mulligan() in legal and _wants_mulligan(state, seat, legal):
        return a.Mulligan()
    score = state.player(seat).score
    tie = tiebreaker(state, seat)
    stay: dict[str, float] = {}
    best: a.Action | None = None
    best_gain = 0.0
    for action in legal:
        if not isinstance(action, a.Move):
            continue
        legion = state.legion(action.legion)
        if legion.marker not in stay:
            stay[legion.marker] = _staying(state, knowledge, legion, score)
        gain = arrival(state, knowledge, legion, action.land, score) - stay[legion.marker]
        gain += tie(action)
        if best is None or gain > best_gain:
            best, best_gain = action, gain
    if a.EndMovement() in legal and (best is None or best_gain <= 0):
        return a.EndMovement()
    if best is None:
        return next(x for x in legal if not isinstance(x, a.Withdraw))
    return best


def _staying(state: GameState, knowledge: Knowledge, legion: Legion, score: int) -> float:
    land = legion.land
    return prospects(state, knowledge, legion, land, score) - peril(knowledge, legion, land, score)


def summon_bonus(state: GameState, seat: int, engaged_land: int) -> float:
    """Strength an Angel or Archangel summoned into a battle in ``engaged_land`` may add."""
    if state.turn.summoned:
        return 0.0
    enemy_lands = {leg.land for leg in state.legions.values() if leg.owner != seat}
    best = 0.0
    for donor in state.legions_of(seat):
        if donor.land in enemy_lands or donor.land == engaged_land:
            continue
        for lord in (ARCHANGEL, ANGEL):
            if lord in donor.characters:
                best = max(best, strength(lord))
    return SUMMON_SHARE * best


def arrival(state: GameState, knowledge: Knowledge, legion: Legion, land: int, score: int) -> float:
    """What ``legion`` moving to ``land`` is worth: an attack, or a muster and its risks."""
    enemies = [s for s in knowledge.enemies() if s.land == land]
    if enemies:
        bonus = summon_bonus(state, legion.owner, land)
        after = muster_worth(state, legion, land)
        return attack_worth(knowledge, legion, enemies[0], score, bonus, after)
    return (
        muster_worth(state, legion, land)
        + prospects(state, knowledge, legion, land, score)
        - peril(knowledge, legion, land, score)
    )


def _wants_mulligan(state: GameState, seat: int, legal: list[a.Action]) -> bool:
    """Reroll when no legion can reach a land with a good recruit (RULES §4.3)."""
    best = 0.0
    for action in legal:
        if isinstance(action, a.Move):
            legion = state.legion(action.legion)
            best = max(best, muster_worth(state, legion, action.land))
    return best < MULLIGAN_BAR
