"""How much ``hard`` would gain by choosing better among its own plans (issue 24).

Run: ``.venv/bin/python bench/ai_playouts.py [--seat defender] [--turns 1-2] [--plans 4]
[--playouts 8] [--games 20] [--dice 4] [--limit N] [--shard 0/2] [-o FILE]``, or
``--tally FILE...`` to count the kept results of several shards together.

``hard``'s search judges some forty plans for a maneuver phase by its forecast and plays the
best (:mod:`engine.ai.tactics.planner`). Here, in the battle turns given, the ``--plans``
best of them (each reaching another position) are each played out ``--playouts`` times to
the battle's end, ``hard`` for us and ``normal`` for the enemy, each time under other dice
(the same dice for every plan), and the plan that wins most is played. Each start of
``bench/ai_levels.py`` is fought twice with the same dice, ``hard`` in the seat given
against ``normal``: as ``hard`` plays, and with its plans so chosen. The table gives both
scores, the starts that went better and worse, and how often the playouts chose another
plan than the forecast did.

A gain here is about the most that a better judgement of the same plans could give at
those turns (the playouts are a judge that needs no model, but a costly one). No gain means
that the plans offered, not how they are judged, limit ``hard`` there.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(1, str(HERE))

from ai_levels import fight, harvest, outcome, wilson, with_dice  # noqa: E402

from engine.ai import choose_action  # noqa: E402
from engine.ai.levels import Level  # noqa: E402
from engine.ai.tactics import planner  # noqa: E402
from engine.ai.tactics.phase import Move, phase_start  # noqa: E402
from engine.battle.position import Side  # noqa: E402
from engine.battle.state import Battle, BattleStep  # noqa: E402
from engine.dice import Dice  # noqa: E402
from engine.frozen import evolve  # noqa: E402
from engine.game import battle_actions as b  # noqa: E402
from engine.game.apply import apply  # noqa: E402
from engine.game.battle_flow import battle_of  # noqa: E402
from engine.game.legal import to_act  # noqa: E402
from engine.game.state import GameState  # noqa: E402

#: The shifts of the dice seed for the ``k``-th playout and for the battle turn.
PLAYOUT_SHIFT = 7919
TURN_SHIFT = 104_729

Plans = list[tuple[tuple[Move, ...], float]]
#: Scores a plan: the game after its moves and the phase's end, and the playout's number;
#: gives our result (1 a win, 0 a loss, ½ a draw).
Scorer = Callable[[GameState, int], float]


@dataclass(frozen=True)
class Fought:
    """One start fought both ways: ``hard``'s results as it plays and with its plans
    chosen by playouts, and the phases where the playouts chose another plan."""

    start: int
    plain: float
    chosen: float
    phases: int
    changed: int


def best_plans(battle: Battle, side: Side, count: int) -> Plans:
    """The ``count`` best plans ``hard``'s search judged for the maneuver phase of
    ``battle``, each reaching another position, with their forecast worth, best first
    (the first is the plan ``hard`` plays)."""
    plan = planner.search(phase_start(battle), side)
    ranked = sorted(plan.candidates, key=lambda c: -c[1])
    found: Plans = []
    reached: set[tuple[Move, ...]] = set()
    for moves, score in ranked:
        key = tuple(sorted(moves))
        if key not in reached:
            reached.add(key)
            found.append((moves, score))
    return found[:count]


def with_plan(state: GameState, seat: int, moves: tuple[Move, ...]) -> GameState:
    """``state`` after ``seat`` makes ``moves`` and ends its maneuver phase."""
    for who, to in moves:
        state, _ = apply(state, seat, b.Maneuver(who, to))
    state, _ = apply(state, seat, b.EndManeuver())
    return state


def choose(state: GameState, seat: int, plans: Plans, playouts: int, score: Scorer) -> int:
    """The index of the plan whose playouts score best (the forecast's order breaks a
    tie)."""
    means = []
    for moves, _ in plans:
        after = with_plan(state, seat, moves)
        means.append(sum(score(after, k) for k in range(playouts)) / playouts)
    return max(range(len(plans)), key=lambda i: (means[i], -i))


def playout_scorer(side: Side, levels: tuple[Level, Level]) -> Scorer:
    """Plays the battle out from the game given under the playout's own dice, the
    attacker at ``levels[0]`` and the defender at ``levels[1]``; ``side``'s result."""

    def score(state: GameState, k: int) -> float:
        battle = battle_of(state)
        assert battle is not None
        shift = PLAYOUT_SHIFT * (k + 1) + TURN_SHIFT * battle.turn
        dice = Dice(state.dice.seed + shift, state.dice.rolled)
        result = fight(evolve(state, dice=dice), *levels, defaultdict(list))
        return result if side is Side.ATTACKER else 1.0 - result

    return score


def fight_choosing(
    start: GameState, side: Side, turns: range, count: int, playouts: int
) -> tuple[float, int, int]:
    """The battle from ``start``, ``hard`` at ``side`` against ``normal``, its plans chosen
    by playouts in the battle ``turns``: the attacker's result (1, 0 or ½), the phases so
    chosen and how many of them took another plan than the forecast's best."""
    battle = battle_of(start)
    assert battle is not None
    us = start.legion(battle.marker(side)).owner
    score = playout_scorer(side, seats_levels(side))
    state, phases, changed = start, 0, 0
    while (now := battle_of(state)) is not None:
        seat = to_act(state)
        assert seat is not None
        if seat != us:
            state, _ = apply(state, seat, choose_action(state, seat, "normal"))
        elif now.turn in turns and phase_begins(now, side):
            plans = best_plans(now, side, count)
            pick = choose(state, seat, plans, playouts, score) if len(plans) > 1 else 0
            phases += 1
            changed += pick != 0
            state = with_plan(state, seat, plans[pick][0])
        else:
            state, _ = apply(state, seat, choose_action(state, seat, "hard"))
    return outcome(start, state), phases, changed


def seats_levels(side: Side) -> tuple[Level, Level]:
    """The levels of the attacker and the defender: ``hard`` at ``side``, ``normal``
    at the other."""
    return ("hard", "normal") if side is Side.ATTACKER else ("normal", "hard")


def phase_begins(battle: Battle, side: Side) -> bool:
    """Whether ``side``'s maneuver phase begins, no move made yet."""
    return battle.step is BattleStep.MANEUVER and battle.phasing is side and not battle.moves


def table(rows: list[Fought], side: Side) -> str:
    """The scores as ``hard`` plays and with its plans chosen by playouts, with 95 % Wilson
    intervals, the starts that went better and worse, and the phases whose plan changed."""
    n = len(rows)

    def ours(result: float) -> float:
        return result if side is Side.ATTACKER else 1.0 - result

    lines = [f"hard {side.value} against normal, {n} starts"]
    for name, pick in (("as it plays", "plain"), ("plans chosen by playouts", "chosen")):
        score = sum(ours(getattr(r, pick)) for r in rows)
        low, high = wilson(score, n)
        share = 100 * score / max(n, 1)
        lines.append(f"  {name:<25} {share:5.1f} % (95 % CI {100 * low:.0f}–{100 * high:.0f} %)")
    better = sum(ours(r.chosen) > ours(r.plain) for r in rows)
    worse = sum(ours(r.chosen) < ours(r.plain) for r in rows)
    phases, changed = sum(r.phases for r in rows), sum(r.changed for r in rows)
    lines.append(f"  starts better {better}, worse {worse}")
    lines.append(f"  phases judged by playouts {phases}, another plan chosen in {changed}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seat", type=Side, default=Side.DEFENDER, help="attacker|defender")
    parser.add_argument("--turns", default="1-2", help="battle turns first-last")
    parser.add_argument("--plans", type=int, default=4, help="best plans played out")
    parser.add_argument("--playouts", type=int, default=8, help="playouts of each plan")
    parser.add_argument("--games", type=int, default=20, help="harvesting games")
    parser.add_argument("--dice", type=int, default=4, help="dice each start is fought with")
    parser.add_argument("--limit", type=int, default=0, help="starts used (0: all)")
    parser.add_argument("--shard", default="0/1", help="i/n: every n-th start from the i-th")
    parser.add_argument("-o", "--out", type=Path, help="keep the results as JSON")
    parser.add_argument("--tally", type=Path, nargs="+", help="count kept results together")
    args = parser.parse_args()
    if args.tally:
        kept = [json.loads(p.read_text()) for p in args.tally]
        rows = [Fought(**r) for k in kept for r in k["rows"]]
        print(table(rows, Side(kept[0]["seat"])))
        return
    first, last = (int(x) for x in args.turns.split("-"))
    index, count = (int(x) for x in args.shard.split("/"))
    starts = harvest(args.games)
    starts = [with_dice(s, k) for k in range(args.dice) for s in starts]
    chosen = list(range(len(starts)))
    if args.limit:
        chosen = chosen[: args.limit]
    levels = seats_levels(args.seat)
    rows = []
    for i in chosen[index::count]:
        plain = fight(starts[i], *levels, defaultdict(list))
        result, phases, changed = fight_choosing(
            starts[i], args.seat, range(first, last + 1), args.plans, args.playouts
        )
        rows.append(Fought(i, plain, result, phases, changed))
    if args.out:
        args.out.write_text(
            json.dumps({"seat": args.seat.value, "rows": [asdict(r) for r in rows]})
        )
    print(table(rows, args.seat))


if __name__ == "__main__":
    main()
