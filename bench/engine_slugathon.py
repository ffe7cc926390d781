"""The battle queries' per-call time beside Slugathon's, case by case (issue 24).

Run from the project's root with the aibridge harness's python (see ``bench/cleverbot.py``)::

    SLUGATHON_DIR=... python bench/engine_slugathon.py [--rounds N]

Every battle state of the recorded corpus (``bench/engine_corpus.json``, as
``bench/engine.py`` times it) is mirrored into a Slugathon game by the harness, and each query
is timed on the same cases in both programs, one right after the other: where a character may
move (``reachable`` / ``Game.find_battle_moves``), whom it may strike, the dice and strike
number, the announcements a strike may make, the carry-over targets of a strike, line of
sight, rangestrike targets and rangestrike values (the ``Creature`` methods). Printed per
query: the cases, the median and p90 CPU µs per call of each, how many times faster ours is,
and in how many cases the two answered alike. They differ only where the two read a rule
differently (``--differences N`` shows the cases): Slugathon lets a character walk down a
Cliff and offers only another enemy's exact dice and strike number as an announcement, where
RULES §14 C3 and C2 rule otherwise. Slugathon is measured, never copied into the project.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cleverbot import open_harness  # bench/, beside this script
from cleverbot_trace import board

HERE = Path(__file__).resolve().parent


@dataclass
class Pair:
    """One query timed in both programs on the same cases, and how often they agree."""

    name: str
    ours: list[list[float]] = field(default_factory=list)
    theirs: list[list[float]] = field(default_factory=list)
    agree: int = 0
    differences: list[str] = field(default_factory=list)


def _engine_bench() -> Any:
    """``bench/engine.py`` as a module (its corpus reader and its clock)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("engine_bench", HERE / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


Case = tuple[str, Callable[[], Any], Callable[[], Any], Callable[[Any, Any], bool]]
"""(query, our call, Slugathon's call, whether two answers agree)."""


def cases(state: Any, game: Any) -> Iterator[Case]:
    """The cases of one battle state, ``game`` being the Slugathon game mirroring it."""
    from engine.battle.carry import eligible_carry_targets, legal_declarations
    from engine.battle.los import line_of_sight
    from engine.battle.maneuver import reachable
    from engine.battle.position import Side
    from engine.battle.rangestrike import (
        MIN_RANGE,
        rangestrike_range,
        rangestrike_targets,
        rangestrike_values,
        rangestriker_problem,
    )
    from engine.battle.state import BattleStep
    from engine.battle.strike import strike_targets, strike_values
    from engine.game.battle_flow import battle_of

    battle = battle_of(state)
    position = battle.position
    occupied = position.occupied()
    legions = {Side.ATTACKER: game.attacker_legion, Side.DEFENDER: game.defender_legion}
    creature = {(side, c.hexlabel): c for side, legion in legions.items() for c in legion.creatures}
    if battle.step is BattleStep.MANEUVER and battle.concession is None and battle.turn > 1:
        moved = {record.end for record in battle.moves}
        for f in position.of_side(battle.phasing):
            c = creature[(f.side, f.hex)]
            if f.alive and f.hex not in moved and not position.is_engaged(f):
                yield (
                    "reachable",
                    lambda f=f: reachable(position, f),
                    lambda c=c: game.find_battle_moves(c),
                    lambda a, b: set(a) == set(b),
                )
    if battle.step not in (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE):
        return
    if battle.concession is not None or battle.carry is not None:
        return
    for f in position.of_side(battle.striking_side):
        if not f.alive or f.hex in battle.struck:
            continue
        c = creature[(f.side, f.hex)]
        targets = strike_targets(position, f)
        yield (
            "strike_targets",
            lambda f=f: strike_targets(position, f),
            lambda c=c: c.find_adjacent_target_hexlabels(),
            lambda a, b: {t.hex for t in a} == b,
        )
        for t in targets:
            e = creature[(t.side, t.hex)]
            natural = strike_values(position, f, t)
            yield (
                "strike_values",
                lambda f=f, t=t: strike_values(position, f, t),
                lambda c=c, e=e: (c.number_of_dice(e), c.strike_number(e)),
                lambda a, b: (a.dice, a.strike_number) == b,
            )
            yield (
                "declarations",
                lambda f=f, t=t: legal_declarations(position, f, t),
                lambda c=c, e=e: c.valid_strike_penalties(e),
                lambda a, b: {(d.values.dice, d.values.strike_number) for d in a} == b,
            )
            yield (
                "carry_targets",
                lambda f=f, t=t, v=natural: eligible_carry_targets(position, f, t, v),
                lambda c=c, e=e, v=natural: c.carry_targets(e, v.dice, v.strike_number),
                lambda a, b: {x.hex for x in a} == {x.hexlabel for x in b},
            )
        if battle.step is not BattleStep.STRIKE or not f.character.rangestrikes or targets:
            continue
        yield (
            "rangestrike_targets",
            lambda f=f: rangestrike_targets(position, f),
            lambda c=c: c.find_rangestrike_target_hexlabels(),
            lambda a, b: {t.hex for t in a} == b,
        )
        if rangestriker_problem(position, f) is not None:
            continue
        for e in position.of_side(f.side.other):
            # a line of sight matters from range 3 (RULES §10.2; a magic missile needs none)
            reach = rangestrike_range(f.hex, e.hex)
            if MIN_RANGE <= reach <= f.skill and e.alive:
                yield (
                    "line_of_sight",
                    lambda f=f, e=e: line_of_sight(position.land, f.hex, e.hex, occupied),
                    lambda c=c, e=e: c.has_los_to(e.hex),
                    lambda a, b: a.clear == b,
                )
        for t in rangestrike_targets(position, f):
            e = creature[(t.side, t.hex)]
            yield (
                "rangestrike_values",
                lambda f=f, t=t: rangestrike_values(position, f, t),
                lambda c=c, e=e: (c.number_of_dice(e), c.strike_number(e)),
                lambda a, b: (a.dice, a.strike_number) == b,
            )


ORDER = (
    "reachable",
    "strike_targets",
    "strike_values",
    "declarations",
    "carry_targets",
    "line_of_sight",
    "rangestrike_targets",
    "rangestrike_values",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="timings per case (best kept)")
    parser.add_argument(
        "--differences", type=int, default=0, metavar="N", help="show N cases answered apart"
    )
    args = parser.parse_args()
    open_harness()
    logging.disable(logging.CRITICAL)  # Slugathon logs as it answers; nothing is written
    import bridge

    from tests.engine.battle.corpus import replayed_games

    bench = _engine_bench()
    source, fights = bench.read_corpus(bench.CORPUS)
    states = [state for start, actions in fights for state in replayed_games(start, actions)]
    mirror = bridge.Mirror()
    pairs = {name: Pair(name) for name in ORDER}
    for round_ in range(args.rounds):
        index: dict[str, int] = dict.fromkeys(ORDER, 0)
        for state in states:
            mirror.load(state)
            for name, ours, theirs, alike in cases(state, mirror.game):
                pair, i = pairs[name], index[name]
                index[name] += 1
                mine, slug = bench.per_call_us(ours), bench.per_call_us(theirs)
                if round_ == 0:
                    pair.ours.append([mine])
                    pair.theirs.append([slug])
                    mine_said, slug_said = ours(), theirs()
                    if alike(mine_said, slug_said):
                        pair.agree += 1
                    elif len(pair.differences) < args.differences:
                        pair.differences.append(_difference(state, mine_said, slug_said))
                else:
                    pair.ours[i].append(mine)
                    pair.theirs[i].append(slug)
    print(f"corpus: {len(fights)} starts from {source}, {len(states)} battle states")
    print(
        f"{'query':<21}{'cases':>6}{'ours med':>10}{'p90':>7}{'Slug med':>10}{'p90':>7}"
        f"{'× med':>7}{'× p90':>7}  alike"
    )
    for pair in pairs.values():
        if not pair.ours:
            continue
        ours = [min(t) for t in pair.ours]
        theirs = [min(t) for t in pair.theirs]
        mine = bench.quantile(ours, 0.5), bench.quantile(ours, 0.9)
        slug = bench.quantile(theirs, 0.5), bench.quantile(theirs, 0.9)
        print(
            f"{pair.name:<21}{len(ours):>6}{mine[0]:>10.1f}{mine[1]:>7.1f}{slug[0]:>10.1f}"
            f"{slug[1]:>7.1f}{slug[0] / mine[0]:>7.1f}{slug[1] / mine[1]:>7.1f}"
            f"  {pair.agree}/{len(ours)}"
        )
    for pair in pairs.values():
        for text in pair.differences:
            print(f"\n{pair.name}: {text}")
    return 0


def _difference(state: Any, ours: Any, theirs: Any) -> str:
    """One case the two programs answered apart: the board, and both answers."""
    from engine.game.battle_flow import battle_of

    battle = battle_of(state)
    return (
        f"{battle.terrain}, turn {battle.turn}, {battle.step.value}: {board(battle)}\n"
        f"  ours: {ours}\n  Slugathon: {theirs}"
    )


if __name__ == "__main__":
    sys.exit(main())
