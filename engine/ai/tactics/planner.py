"""The searching maneuver phase of level ``hard`` (RULES §8.3–§8.5, §9–§11.1).

The whole phase is planned at once. Candidate plans come from the fast policy
(:mod:`~engine.ai.tactics.policy`) under several stances — hold, close in, charge, keep
away, a bold Titan — and from the best of them with one character sent elsewhere. Each is
judged by a forecast (:mod:`~engine.ai.tactics.forecast`): our strike half, the enemy's
answer (the policy's move under its usual stance or a charge and, against an attacker,
the move ``normal`` would make: the worst for us) and strike half, then ours again; what
counts is the expected loss of value on each side, a Titan's many times over, and a time
loss after the attacker's seventh half (§11.1).

The plan is a pure function of the phase's start (its moves undone) and the budget, a
count of judged plans, never a clock: replays rebuild every choice.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from engine.ai.maneuvering import phase_moves
from engine.ai.tactics.beam import beam
from engine.ai.tactics.damage import fighting_value
from engine.ai.tactics.forecast import Outlook
from engine.ai.tactics.phase import Move, moves_made, normal_order, phase_start
from engine.ai.tactics.policy import Played, Stance, play
from engine.battle.position import Side
from engine.battle.state import LAST_TURN, Battle
from engine.characters import character
from engine.game import actions as a
from engine.game import battle_actions as b

#: Plans a phase's search may judge: a bound, seldom reached (the search stops when one
#: mover sent elsewhere finds nothing better, after nine plans on average). Judging more
#: (other destinations, climbs from other stances) finds plans the forecast rates higher
#: that win no more often: the forecast, not the search, bounds the play.
PLAN_BUDGET = 40
#: Enemy answers the forecast tries, the worst for us counting: its usual one and a
#: charge (an opponent who gangs up on what comes forward; against the mild ``normal``
#: this costs a little, against a stronger one it gains).
ENEMY_STANCES = 2
#: Whether a defender also judges its plans against the attacker's answer as ``normal``
#: would play it (:func:`~engine.ai.maneuvering.phase_moves`): a player built otherwise
#: than the fast policy makes the worst case more robust. (An attacker that judges its
#: plans this way holds back too much.)
NORMAL_ANSWER_IN_DEFENCE = True
#: Other destinations of each mover tried in the best plan.
ALTERNATIVES = 2
#: Strike halves the forecast follows after ours: the enemy's, then ours again; to the
#: time loss when it is at most ``TO_THE_END`` halves away (RULES §11.1). One, three or
#: four halves, or every half to the time loss, all play worse: the halves followed at
#: the usual stances drift from the real battle.
DEPTH = 2
TO_THE_END = 6
#: The attacker's pull toward the enemy per hex, and its growth per battle turn.
ATTACK_PULL = 1.5
ATTACK_PULL_PER_TURN = 0.75
#: A defender this much stronger than the attacker seeks the fight.
DEFENDER_CONFIDENCE = 1.2


@dataclass(frozen=True)
class Plan:
    """The moves of a whole maneuver phase, their forecast worth, and every plan judged
    to find them with its worth, in the order judged."""

    moves: tuple[Move, ...]
    score: float
    candidates: tuple[tuple[tuple[Move, ...], float], ...]

    @property
    def judged(self) -> int:
        """How many plans were judged."""
        return len(self.candidates)


def usual_stance(battle: Battle, side: Side) -> Stance:
    """How a side places its characters when nothing better is known: the attacker
    closes in harder each turn (§11.1); the defender fights only when stronger."""
    if side is Side.ATTACKER:
        pull = attack_pull(battle)
        return Stance(pull=pull, titan_pull=0.3 * pull)
    mine, theirs = _force(battle, side), _force(battle, side.other)
    pull = 1.0 if mine >= DEFENDER_CONFIDENCE * theirs else 0.0
    return Stance(pull=pull, titan_pull=0.3 * pull)


def attack_pull(battle: Battle) -> float:
    """The attacker's pull toward the enemy per hex: harder each turn (§11.1)."""
    return ATTACK_PULL + ATTACK_PULL_PER_TURN * battle.turn


def _force(battle: Battle, side: Side) -> float:
    """The fighting value of ``side``'s living characters, on the board or waiting."""
    position = battle.position
    living = [fighting_value(f.power, f.skill) for f in position.of_side(side) if f.alive]
    waiting = [
        fighting_value(battle.power_of(side, n), character(n).skill) for n in battle.waiting(side)
    ]
    return sum(living) + sum(waiting)


def stances(battle: Battle, side: Side) -> list[Stance]:
    """The usual stance first, then the others worth trying."""
    base = usual_stance(battle, side)
    attack = attack_pull(battle)
    found = [
        base,
        Stance(pull=0.0, titan_pull=0.0, exposure=1.5),
        Stance(pull=attack, caution=0.7, exposure=0.5, titan_pull=0.3 * attack),
        Stance(pull=2 * attack, caution=0.5, exposure=0.3, titan_pull=attack, titan_caution=0.6),
        Stance(pull=-1.0, exposure=2.0, titan_pull=-1.0),
        Stance(pull=attack, caution=1.3, exposure=1.5, titan_pull=0.0, titan_caution=2.0),
        Stance(pull=base.pull, caution=1.0, titan_pull=attack, titan_caution=0.3),
    ]
    return list(dict.fromkeys(found))


def search(battle: Battle, side: Side, budget: int = PLAN_BUDGET) -> Plan:
    """The best plan found for ``side``'s maneuver phase from ``battle``: the stances'
    plans, then the best one with one mover sent to another of its best hexes, while
    that finds better and the budget lasts."""
    seen: dict[tuple[Move, ...], float] = {}
    best: tuple[float, Played, Stance] | None = None

    def consider(played: Played, stance: Stance) -> bool:
        nonlocal best
        if played.moves in seen or len(seen) >= budget:
            return False
        score = judge(played.battle, side)
        seen[played.moves] = score
        if best is None or score > best[0]:
            best = (score, played, stance)
            return True
        return False

    for stance in stances(battle, side):
        consider(play(battle, side, stance, keep=ALTERNATIVES + 1), stance)
    base = usual_stance(battle, side)
    for partial in beam(battle, side, base):
        consider(Played(partial.moves, partial.battle, ()), base)
    improved = True
    tried: set[tuple[tuple[Move, ...], int, str]] = set()
    while improved and len(seen) < budget:
        improved = False
        assert best is not None
        _, played, stance = best
        for i, options in enumerate(played.options):
            for to in options[1:]:
                if (played.moves, i, to) in tried:
                    continue
                tried.add((played.moves, i, to))
                if consider(play(battle, side, stance, {i: to}, keep=ALTERNATIVES + 1), stance):
                    improved = True
    assert best is not None
    return Plan(best[1].moves, best[0], tuple(seen.items()))


def judge(after: Battle, side: Side) -> float:
    """What the position ``after`` our moves is worth by forecast: the worst for us of
    the enemy's answers under its likeliest stances (and, when we defend, as ``normal``
    would answer)."""
    outlook = Outlook.start(after)
    outlook.half()
    more = halves_after(halves_left(after))
    if outlook.over or more <= 0:
        return outlook.utility(side)
    battle = outlook.maneuvering()
    worst: float | None = None
    for moves in answers(battle, side.other):
        branch = outlook.copy()
        branch.place(moves)
        value = answered(branch, side, more)
        worst = value if worst is None else min(worst, value)
    assert worst is not None
    return worst


def answers(battle: Battle, enemy: Side) -> list[tuple[Move, ...]]:
    """The answers the forecast tries for ``enemy``'s maneuver phase starting in
    ``battle``, each once: its moves under its likeliest stances and, when it attacks,
    ``normal``'s move."""
    stances = answer_stances(battle, enemy)[:ENEMY_STANCES]
    found = [play(battle, enemy, stance).moves for stance in stances]
    if enemy is Side.ATTACKER and NORMAL_ANSWER_IN_DEFENCE:
        found.append(phase_moves(battle, enemy))
    return list(dict.fromkeys(found))


def answered(outlook: Outlook, side: Side, halves: int) -> float:
    """What ``side`` makes of ``outlook`` once the enemy has placed its answer: the
    enemy's strike half, then ``halves - 1`` more at the usual stances."""
    outlook.half()
    _follow(outlook, halves - 1)
    return outlook.utility(side)


def answer_stances(battle: Battle, side: Side) -> list[Stance]:
    """The stances an enemy is likeliest to answer with: its usual one, a charge, a hold."""
    base = usual_stance(battle, side)
    attack = attack_pull(battle)
    return [
        base,
        Stance(pull=2 * attack, caution=0.5, exposure=0.3, titan_pull=attack, titan_caution=0.6),
        Stance(pull=0.0, titan_pull=0.0, exposure=1.5),
    ]


def _follow(outlook: Outlook, halves: int) -> None:
    """``halves`` more halves of the forecast, each side at its usual stance."""
    for _ in range(halves):
        if outlook.over:
            break
        mover = outlook.phasing
        battle = outlook.maneuvering()
        outlook.place(play(battle, mover, usual_stance(battle, mover)).moves)
        outlook.half()


def halves_after(left: int) -> int:
    """The halves the forecast follows after the first of ``left`` still to come: to the
    time loss when it is near (§11.1), else ``DEPTH``."""
    return left - 1 if left <= TO_THE_END else DEPTH


def halves_left(battle: Battle) -> int:
    """Strike halves until the time loss, the phasing side's coming one included."""
    if battle.phasing is Side.ATTACKER:
        return 1 + 2 * (LAST_TURN - battle.turn)
    return 2 * (LAST_TURN - battle.turn + 1)


_CACHE: OrderedDict[tuple[object, ...], Plan] = OrderedDict()
_CACHE_SIZE = 256


def _memo(start: Battle, side: Side, budget: int) -> Plan:
    key = (repr(start), side, budget)
    plan = _CACHE.get(key)
    if plan is None:
        plan = search(start, side, budget)
        _CACHE[key] = plan
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return plan


def choose_tactical_maneuver(
    battle: Battle, side: Side, legal: list[a.Action], budget: int = PLAN_BUDGET
) -> a.Action:
    """The next move of the best plan for this maneuver phase (or its end)."""
    start = phase_start(battle)
    done = moves_made(battle)
    plan = _memo(start, side, budget)
    if plan.moves[: len(done)] != done:
        plan = _memo(normal_order(battle), side, budget)
        done = ()
    if len(plan.moves) > len(done):
        who, to = plan.moves[len(done)]
        action = b.Maneuver(who, to)
        if action in legal:
            return action
    if b.EndManeuver() in legal:
        return b.EndManeuver()
    return next((x for x in legal if isinstance(x, b.Maneuver)), legal[0])
