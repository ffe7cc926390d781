"""Strikes, rangestrikes and carry-over (RULES §9, §10): choose the blows that slay most.

Every strike is valued by its hit distribution: the worth of the damage it does (slaying a
wounded character earns its whole worth for the few hits it still needs), plus the
carry-over its excess hits may place (RULES §9.4)
under the announced values (§9.5). Strikers with a single target strike first, so that the
others see their damage; then the best blow goes next. Rangestrikes are made whenever they
may do harm; the phase ends when nothing useful is left (RULES §9.1, §10.1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.ai.battlefield import blow, damage_worth, worth
from engine.ai.odds import hits
from engine.battle.carry import eligible_carry_targets
from engine.battle.position import Fighter, Position
from engine.battle.rangestrike import rangestrike_values
from engine.battle.state import Battle
from engine.battle.strike import StrikeValues
from engine.game import actions as a
from engine.game import battle_actions as b


def choose_strike(
    battle: Battle, legal: list[a.Action], tie: Callable[[object], float]
) -> a.Action:
    """The next strike-phase action: a carry-over, a strike, a rangestrike or the end."""
    if battle.carry is not None:
        return choose_carry(battle, legal)
    position = battle.position
    strikes = [x for x in legal if isinstance(x, b.Strike)]
    targets: dict[str, set[str]] = {}
    for s in strikes:
        targets.setdefault(s.striker, set()).add(s.target)
    single = [s for s in strikes if len(targets[s.striker]) == 1]
    pool: Sequence[a.Action] = single or [
        x for x in legal if isinstance(x, b.Strike | b.Rangestrike)
    ]
    best: a.Action | None = None
    best_gain = 0.0
    for action in pool:
        if isinstance(action, b.Strike):
            gain = strike_gain(position, action)
        elif isinstance(action, b.Rangestrike):
            gain = rangestrike_gain(position, action)
        else:
            continue
        gain += tie(action)
        if best is None or gain > best_gain:
            best, best_gain = action, gain
    if best is not None and (isinstance(best, b.Strike) or best_gain > 0):
        return best
    if b.EndStrikes() in legal:
        return b.EndStrikes()
    return best if best is not None else legal[0]


def carry_worth(targets: Sequence[Fighter], excess: int) -> float:
    """Worth of ``excess`` hits carried over: the best targets slain first (RULES §9.4)."""
    total = 0.0
    left = excess
    ranked = sorted(targets, key=lambda f: worth(f, False), reverse=True)
    for f in ranked:
        if 0 < f.hits_to_slay <= left:
            total += worth(f, False)
            left -= f.hits_to_slay
    if left and ranked:
        rest = [f for f in ranked if f.hits_to_slay > left]
        if rest:
            total += damage_worth(rest[0], left, False)
    return total


def strike_gain(position: Position, action: b.Strike) -> float:
    """Expected worth of a normal strike with its announced values and carry-over."""
    striker = position.at(action.striker)
    target = position.at(action.target)
    if striker is None or target is None:
        return 0.0
    natural = blow(position, striker, target)
    if natural is None:
        return 0.0
    dice, number = natural
    if action.dice is not None and action.strike_number is not None:
        dice, number = action.dice, action.strike_number
    carry = eligible_carry_targets(position, striker, target, StrikeValues(dice, number))
    need = target.hits_to_slay
    total = 0.0
    for k, p in enumerate(hits(dice, number)):
        if p < 1e-9:
            continue
        value = damage_worth(target, min(k, need), False)
        if k > need and carry:
            value += carry_worth(carry, k - need)
        total += p * value
    return total


def rangestrike_gain(position: Position, action: b.Rangestrike) -> float:
    """Expected worth of a rangestrike (no carry-over, RULES §10.8)."""
    striker = position.at(action.striker)
    target = position.at(action.target)
    if striker is None or target is None:
        return 0.0
    values = rangestrike_values(position, striker, target)
    number = action.strike_number or values.strike_number
    need = target.hits_to_slay
    return sum(
        p * damage_worth(target, min(k, need), False)
        for k, p in enumerate(hits(values.dice, number))
    )


def choose_carry(battle: Battle, legal: list[a.Action]) -> a.Action:
    """Put carried hits where they slay the most (RULES §9.4)."""
    carry = battle.carry
    assert carry is not None
    best: a.Action = legal[0]
    best_value = -1.0
    for action in legal:
        if isinstance(action, b.CarryOver):
            target = battle.position.at(action.target)
            if target is None:
                continue
            value = damage_worth(target, min(carry.hits, target.hits_to_slay), False)
            if value > best_value:
                best, best_value = action, value
    return best
