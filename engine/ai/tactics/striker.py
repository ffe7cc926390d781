"""The strike and counterstrike phases of level ``hard`` (RULES §9, §10).

Each strike is chosen for the whole phase it begins: a candidate blow is followed by the
other strikers' best blows in expectation (each where it adds the most expected loss, the
strikers with a single target first), and the candidate whose phase takes the most worth
from the enemy goes first — then the dice are seen and the rest is chosen again. Blows
that slay count for all of a character's worth, wounds for part of it
(:mod:`~engine.ai.tactics.damage`), so blows gather on the enemies they can slay. The
carry-over a blow may place (§9.4, under an announced reduction, §9.5) is added to it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.battlefield import blow
from engine.ai.striking import carry_worth, choose_carry
from engine.ai.tactics.damage import Dist, loss, spread, tails, worth
from engine.battle.carry import eligible_carry_targets
from engine.battle.position import Fighter, Position
from engine.battle.rangestrike import rangestrike_values
from engine.battle.state import Battle
from engine.battle.strike import StrikeValues
from engine.game import actions as a
from engine.game import battle_actions as b

Blow = tuple[str, str, int, int]
"""(striker hex, target hex, dice, strike number)."""


def choose_tactical_strike(
    battle: Battle, legal: list[a.Action], tie: Callable[[object], float]
) -> a.Action:
    """The next strike-phase action: a carry-over, the blow that begins the best phase,
    or the end of the phase when no blow is left worth making."""
    if battle.carry is not None:
        return choose_carry(battle, legal)
    position = battle.position
    options: list[tuple[a.Action, Blow, float]] = []
    for action in legal:
        found = _blow_of(position, action)
        if found is not None:
            options.append((action, found, _carry_bonus(position, action, found)))
    if not options:
        return b.EndStrikes() if b.EndStrikes() in legal else legal[0]
    forced = {x[1][0] for x in options if isinstance(x[0], b.Strike)}
    targets: dict[str, set[str]] = {}
    for _, (striker, target, _, _), _ in options:
        targets.setdefault(striker, set()).add(target)
    single = [x for x in options if x[1][0] in forced and len(targets[x[1][0]]) == 1]
    pool = single or options
    natural = _natural_blows(position, legal)
    best: tuple[float, a.Action] | None = None
    for action, chosen, bonus in pool:
        value = _phase_worth(position, chosen, natural) + bonus + tie(action)
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    if isinstance(best[1], b.Strike) or best[0] > 1e-6:
        return best[1]
    return b.EndStrikes() if b.EndStrikes() in legal else best[1]


def _blow_of(position: Position, action: a.Action) -> Blow | None:
    """The striker, target, dice and strike number of a strike or rangestrike action."""
    if not isinstance(action, b.Strike | b.Rangestrike):
        return None
    striker = position.at(action.striker)
    target = position.at(action.target)
    if striker is None or target is None:
        return None
    if isinstance(action, b.Rangestrike):
        values = rangestrike_values(position, striker, target)
        number = action.strike_number or values.strike_number
        return (striker.hex, target.hex, values.dice, number)
    natural = blow(position, striker, target)
    if natural is None:
        return None
    dice, number = natural
    if action.dice is not None and action.strike_number is not None:
        dice, number = action.dice, action.strike_number
    return (striker.hex, target.hex, dice, number)


def _natural_blows(position: Position, legal: list[a.Action]) -> dict[str, list[Blow]]:
    """Each striker's blows at its natural values (no announced reduction)."""
    found: dict[str, list[Blow]] = {}
    for action in legal:
        if isinstance(action, b.Strike) and action.dice is not None:
            continue
        chosen = _blow_of(position, action)
        if chosen is not None:
            found.setdefault(chosen[0], []).append(chosen)
    return found


def _phase_worth(position: Position, first: Blow, natural: dict[str, list[Blow]]) -> float:
    """Expected worth taken from the enemy by ``first`` and then the other strikers'
    greedy blows, in expectation."""
    dists: dict[str, Dist] = {}

    def dist_of(hex_label: str) -> Dist:
        found = dists.get(hex_label)
        if found is None:
            target = position.at(hex_label)
            assert target is not None
            found = [0.0] * (target.power + 1)
            found[min(target.hits, target.power)] = 1.0
            dists[hex_label] = found
        return found

    def value_of(hex_label: str) -> float:
        target = position.at(hex_label)
        assert target is not None
        return worth(target.name, target.power, target.skill, False)

    start = {}
    striker, target, dice, number = first
    start[target] = loss(dist_of(target))
    dists[target] = spread(dist_of(target), dice, number, 1.0)
    rest = sorted(
        ((len(blows), hexes, blows) for hexes, blows in natural.items() if hexes != striker),
        key=lambda item: (item[0], item[1]),
    )
    for _, _, blows in rest:
        best: tuple[float, str, Dist] | None = None
        for _, aim, d, n in blows:
            before = dist_of(aim)
            start.setdefault(aim, loss(before))
            after = spread(before, d, n, 1.0)
            gain = (loss(after) - loss(before)) * value_of(aim)
            if best is None or gain > best[0]:
                best = (gain, aim, after)
        if best is not None:
            dists[best[1]] = best[2]
    return sum((loss(dists[h]) - start[h]) * value_of(h) for h in start)


def _carry_bonus(position: Position, action: a.Action, chosen: Blow) -> float:
    """Expected worth of the hits a normal strike may carry over (RULES §9.4, §9.5)."""
    if not isinstance(action, b.Strike):
        return 0.0
    striker = position.at(chosen[0])
    target = position.at(chosen[1])
    assert striker is not None and target is not None
    dice, number = chosen[2], chosen[3]
    carry: list[Fighter] = list(
        eligible_carry_targets(position, striker, target, StrikeValues(dice, number))
    )
    if not carry:
        return 0.0
    exact, _ = tails(dice, number)
    need = target.hits_to_slay
    return sum(p * carry_worth(carry, k - need) for k, p in enumerate(exact) if k > need)
