"""The searching maneuver phase (level ``hard``, RULES §8.3–§8.5, §9, §11.1).

Instead of one greedy move at a time, the whole maneuver phase is planned: several
candidate plans (the greedy one under different stances: hold, engage, keep away, charge)
are played out on the battleland, and each final position is judged by the coming
exchange of blows, the enemy's best greedy answer in its next maneuver phase and the
exchange after it (a two-ply look-ahead with exact hit distributions, RULES §9.2), and
how each character stands (terrain, rangestrikes, distance; the attacker must close in
before the time loss, §11.1).

The plan is a pure function of the phase's start (the position with this phase's moves
undone), the game's tie-break seed and the budget: each decision of the phase rebuilds
that start and plays the plan's next move, so replays rebuild every choice. The work is
bounded by a count of evaluated moves (:class:`Budget`), never by a clock. Plans are
memoised per phase start (a cache of a pure function: it changes nothing but speed).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from engine.ai.battlefield import worth
from engine.ai.maneuvering import (
    LEFT_OFF,
    Stance,
    best_maneuver,
    clash,
    move_gains,
    placement,
    stance,
)
from engine.battle.maneuvering import destinations, maneuver
from engine.battle.position import Fighter, Position, Side
from engine.battle.state import LAST_TURN, Battle, BattleStep
from engine.frozen import evolve
from engine.game import actions as a
from engine.game import battle_actions as b

#: Evaluated moves a whole phase's search may spend (calibrated: p99 ≤ 0.5 s a decision).
NODE_BUDGET = 6000
#: How much the exchange after the enemy's answer counts against the coming one.
RESPONSE = 0.8
#: The most moves in one phase (a legion has at most 7 characters, a summon or
#: reinforcement one more).
MAX_MOVES = 9
#: Stances tried besides the usual one: (name, pull for the defender, pull factor for the
#: attacker). The defender holds its ground, engages or keeps away; the attacker charges
#: or closes in carefully.
DEFENDER_PULLS = (0.0, 1.0, -0.5)
ATTACKER_FACTORS = (2.0, 0.5)
#: First moves tried besides the greedy one, each followed by the greedy plan.
FIRST_MOVES = 6

Move = tuple[str, str]
"""(who, to): ``who`` a hex, or the name of a character entering from off the board."""
Tie = Callable[[object], float]


class Budget:
    """A count of the moves the search may still evaluate."""

    def __init__(self, nodes: int) -> None:
        self.left = nodes
        self.spent = 0

    def spend(self, nodes: int) -> None:
        self.left -= nodes
        self.spent += nodes

    @property
    def exhausted(self) -> bool:
        return self.left <= 0


@dataclass(frozen=True)
class Plan:
    """The moves of a whole maneuver phase and what the search judged them worth."""

    moves: tuple[Move, ...]
    score: float
    nodes: int
    """Moves evaluated to find it."""


def choose_planned_maneuver(
    battle: Battle, side: Side, legal: list[a.Action], tie: Tie, nodes: int = NODE_BUDGET
) -> a.Action:
    """The next move of the best plan for this maneuver phase (or its end)."""
    start = phase_start(battle)
    done = tuple(_move_of(r.start, r.name, r.end) for r in battle.moves)
    plan = _memo(start, side, tie, nodes)
    if plan.moves[: len(done)] != done:
        plan = _memo(_normal(battle), side, tie, nodes)
        done = ()
    if len(plan.moves) > len(done):
        who, to = plan.moves[len(done)]
        action = b.Maneuver(who, to)
        if action in legal:
            return action
    if b.EndManeuver() in legal:
        return b.EndManeuver()
    return next((x for x in legal if isinstance(x, b.Maneuver)), legal[0])


def _move_of(start: str | None, name: str, end: str) -> Move:
    return (start if start is not None else name, end)


def phase_start(battle: Battle) -> Battle:
    """The battle as this maneuver phase began: its moves undone (errata 7.0)."""
    fighters = list(battle.position.fighters)
    waiting = {side: list(battle.waiting(side)) for side in Side}
    for record in reversed(battle.moves):
        i = next(i for i, f in enumerate(fighters) if f.hex == record.end)
        if record.start is None:
            waiting[fighters[i].side].append(fighters[i].name)
            del fighters[i]
        else:
            fighters[i] = evolve(fighters[i], hex=record.start)
    position = evolve(battle.position, fighters=tuple(fighters))
    off = {side: tuple(names) for side, names in waiting.items() if names}
    return _normal(evolve(battle, position=position, off_board=off, moves=(), take_backs=0))


def _normal(battle: Battle) -> Battle:
    """``battle`` with its fighters and waiting characters in a fixed order."""
    fighters = tuple(sorted(battle.position.fighters, key=lambda f: (f.side.value, f.hex)))
    off = {side: tuple(sorted(battle.waiting(side))) for side in Side if battle.waiting(side)}
    return evolve(battle, position=evolve(battle.position, fighters=fighters), off_board=off)


_CACHE: OrderedDict[tuple[object, ...], Plan] = OrderedDict()
_CACHE_SIZE = 256


def _memo(start: Battle, side: Side, tie: Tie, nodes: int) -> Plan:
    key = (repr(start), side, tie("plan"), nodes)
    plan = _CACHE.get(key)
    if plan is None:
        plan = search(start, side, tie, Budget(nodes))
        _CACHE[key] = plan
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return plan


def search(battle: Battle, side: Side, tie: Tie, budget: Budget) -> Plan:
    """The best of the candidate plans from ``battle`` (its phase may have begun), within
    ``budget``. The usual greedy plan is always found; others while the budget lasts."""
    base = stance(battle, side)
    best: Plan | None = None
    seen: set[tuple[Move, ...]] = set()

    def consider(first: tuple[Move, ...], start: Battle, plan: Stance) -> None:
        nonlocal best
        moves, after = greedy_plan(start, side, plan, tie, budget)
        moves = first + moves
        if moves in seen:
            return
        seen.add(moves)
        score = judge(after, side, base, tie, budget)
        if best is None or score > best.score:
            best = Plan(moves, score, 0)

    for plan in candidate_stances(battle, base):
        if best is not None and budget.exhausted:
            break
        consider((), battle, plan)
    legal = legal_moves(battle)
    budget.spend(len(legal))
    ranked = sorted(move_gains(battle, side, legal, tie, base), key=lambda g: -g[0])
    for _, action in ranked[1 : 1 + FIRST_MOVES]:
        if budget.exhausted:
            break
        after, _ = maneuver(battle, action.character, action.to)
        consider(((action.character, action.to),), after, base)
    assert best is not None
    return evolve(best, nodes=budget.spent)


def candidate_stances(battle: Battle, base: Stance) -> list[Stance]:
    """The usual stance first, then the others worth trying."""
    if base.side is Side.DEFENDER:
        others = [evolve(base, pull=p) for p in DEFENDER_PULLS if p != base.pull]
    else:
        others = [evolve(base, pull=base.pull * k) for k in ATTACKER_FACTORS]
    return [base, *others]


def legal_moves(battle: Battle) -> list[a.Action]:
    """The phasing side's moves now (as :mod:`engine.game.battle_legal` lists them)."""
    found = destinations(battle).items()
    return [b.Maneuver(who, to) for who, ends in found for to in sorted(ends)]


def greedy_plan(
    battle: Battle, side: Side, plan: Stance, tie: Tie, budget: Budget
) -> tuple[tuple[Move, ...], Battle]:
    """The usual one-move-at-a-time choices under ``plan`` to the end of the phase."""
    moves: list[Move] = []
    for _ in range(MAX_MOVES):
        legal = legal_moves(battle)
        if not legal:
            break
        budget.spend(len(legal))
        now = evolve(plan, waiting=frozenset(battle.waiting(side)))
        choice, gain = best_maneuver(battle, side, legal, tie, now)
        if choice is None or gain <= 0:
            break
        battle, _ = maneuver(battle, choice.character, choice.to)
        moves.append((choice.character, choice.to))
    return tuple(moves), battle


def judge(after: Battle, side: Side, base: Stance, tie: Tie, budget: Budget) -> float:
    """Worth of the position ``after`` our moves: how our characters stand, the coming
    exchange, and the exchange after the enemy's greedy answer."""
    position = after.position
    ours = [f for f in position.of_side(side) if f.alive]
    score = sum(placement(position, f, base) for f in ours)
    score -= sum(LEFT_OFF + worth(_waiting(after, side, n), True) for n in after.waiting(side))
    score += clash(position, side)
    answer = _answer(after, side, tie, budget)
    if answer is not None:
        score += RESPONSE * clash(answer, side)
    return score


def _waiting(battle: Battle, side: Side, name: str) -> Fighter:
    return Fighter(name, side, "A1", battle.power_of(side, name))


def _answer(after: Battle, side: Side, tie: Tie, budget: Budget) -> Position | None:
    """Where the enemy stands after its greedy next maneuver phase (None when the battle
    ends on time first, RULES §11.1)."""
    enemy = side.other
    turn = after.turn + (1 if side is Side.ATTACKER else 0)
    if turn > LAST_TURN:
        return None
    entered = after.entered | {side}
    theirs = evolve(
        after, phasing=enemy, turn=turn, moves=(), step=BattleStep.MANEUVER, entered=entered
    )
    moves, answered = greedy_plan(theirs, enemy, stance(theirs, enemy), tie, budget)
    del moves
    return answered.position
