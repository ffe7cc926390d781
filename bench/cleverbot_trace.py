"""Read one CleverBot battle move by move (issue 24).

Run from the project's root with the harness's python (see ``bench/cleverbot.py``)::

    SLUGATHON_DIR=... PYTHONHASHSEED=0 python bench/cleverbot_trace.py \
        hard POSITIONS ID attacker|defender [--plans]

It fights the position ``ID`` of ``POSITIONS`` as the harness does (the same start, the same
dice, CleverBot at the other seat), titanbot at ``SIDE`` (attacker or defender) and at the
level given, and prints the board at the start of each step (``A:``/``D:`` the side,
``-n`` the hits taken), every action and the battle's end. With ``--plans`` it also prints,
for each of titanbot's maneuver phases, every plan the planner judged and its score, the
chosen one first: where a battle was lost, what else was considered.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from cleverbot import open_harness  # bench/, beside this script


def board(battle: Any) -> str:
    """The characters on the board and those waiting, side by side."""
    from engine.battle.position import Side

    tag = {Side.ATTACKER: "A", Side.DEFENDER: "D"}
    shown = [
        f"{tag[f.side]}:{f.name}@{f.hex}" + (f"-{f.hits}" if f.hits else "")
        for f in battle.position.fighters
        if f.alive
    ]
    for side in Side:
        shown += [f"{tag[side]}:{name}@waiting" for name in battle.waiting(side)]
    return " ".join(shown)


@contextmanager
def judged_plans(found: list[tuple[float, tuple[tuple[str, str], ...]]]) -> Iterator[None]:
    """While open, every plan the planner judges is added to ``found``."""
    from engine.ai.tactics import planner
    from engine.ai.tactics.phase import moves_made

    judge = planner.judge

    def recording(after: Any, side: Any) -> float:
        score = judge(after, side)
        found.append((score, moves_made(after)))
        return score

    planner.judge = recording
    try:
        yield
    finally:
        planner.judge = judge


def main(argv: list[str]) -> int:
    plans = "--plans" in argv
    args = [a for a in argv if a != "--plans"]
    if len(args) != 4:
        raise SystemExit(f"usage: {sys.argv[0]} LEVEL POSITIONS ID attacker|defender [--plans]")
    level_name, positions, wanted, side_name = args
    open_harness()
    battles = importlib.import_module("battles")  # the harness's, found on its path
    bridge = importlib.import_module("bridge")

    from engine.ai import choose_action
    from engine.ai.levels import level_of
    from engine.battle.position import Side
    from engine.battle.state import BattleStep
    from engine.game.apply import apply
    from engine.game.battle_flow import battle_of
    from engine.game.legal import to_act

    level = level_of(level_name)
    if level is None:
        raise SystemExit(f"no level {level_name!r}")
    found = [p for p in json.loads(Path(positions).read_text())["positions"] if p["id"] == wanted]
    if not found:
        raise SystemExit(f"no position {wanted!r} in {positions}")
    pos = found[0]
    ours = {Side.ATTACKER: 0, Side.DEFENDER: 1}[Side(side_name)]
    state = battles.start_state(pos)
    clever = bridge.CleverBotSeat(time_limit=1.0)
    clever.new_battle(int(pos["dice_seed"]))
    print(f"{pos['id']} {pos['terrain']}, entry side {pos.get('entry_side')}: titanbot {side_name}")
    print(f"  attacker {pos['attacker']}, defender {pos['defender']}")
    print(f"  Titans' Power {pos['titan_power']}")
    step = None
    while (battle := battle_of(state)) is not None and (seat := to_act(state)) is not None:
        if (battle.turn, battle.phasing, battle.step) != step:
            step = (battle.turn, battle.phasing, battle.step)
            when = f"turn {battle.turn}, {battle.phasing.value} {battle.step.name.lower()}"
            print(f"-- {when}: {board(battle)}")
        judged: list[tuple[float, tuple[tuple[str, str], ...]]] = []
        if seat == ours:
            planning = plans and battle.step is BattleStep.MANEUVER and not battle.moves
            with judged_plans(judged) if planning else nullcontext():
                action = choose_action(state, seat, level)
        else:
            action = clever(state, seat)
        for score, moves in sorted(judged, key=lambda j: -j[0]):
            print(f"     plan {score:9.2f}: " + (" ".join(f"{w}>{t}" for w, t in moves) or "stay"))
        print(f"   {'titanbot' if seat == ours else 'CleverBot'}: {action}")
        state, _ = apply(state, seat, action)
    last = battles._FINISHED[-1] if battles._FINISHED else None
    if last is not None:
        print(f"-- ended: {last.ending.kind.value}, turn {last.turn}: {board(last)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
