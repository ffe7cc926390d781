"""The computer player's levels against each other in battles (issue 24).

Run: ``.venv/bin/python bench/ai_levels.py [--games 20] [--limit N] [--shard 0/2] [--pairs
hard:normal,easy:normal] [--dice 1] [--out FILE] [--before FILE]``. Battle starts are
harvested from seeded games between ``normal`` computer players (2 to 4 players); each start
is fought twice with the same dice, each level attacking once. With ``--dice N`` every start
is fought under N dice (the game's seed shifted for all but the first), so that luck weighs
less in a comparison. The score of the first level of each pair is printed with a 95 %
Wilson interval (a draw counts one half), as attacker and as defender, with the decision
time per level (mean, p99; CPU time of the process, as the machine is shared). Then the
starts, each under each dice, by who won them in each seat: *the attacker's* (whoever
attacks wins), *the defender's*, the first level's (it wins both seats), the second's, and
those with a draw. An attacker's or a defender's start gives each level one win in two,
whoever plays better. Last, both scores in each band of the attacker's strength (its
legion's value over the defender's): where one side is far stronger, neither level's play
changes much. Targets: ``hard`` ≥ 70 % against ``normal``, ``easy`` ≤ 30 %.

``--out FILE`` keeps every battle's result; ``--before FILE`` (an earlier run's ``--out``,
on the same starts and dice) sets each seat's score beside it, battle by battle: how many
went better and worse, and the sign test's chance of so uneven a split by luck. Luck
turns about one battle in five at the slightest change of play, so a change is read by
these counts rather than by the scores alone.

With ``--positions FILE`` the starts are instead the aibridge harness's battle positions
(``bench/cleverbot.py``; run with the harness's python and ``SLUGATHON_DIR``, as the harness
builds the starts). A level against itself there (``--pairs hard:hard``) gives the positions'
par: the attacker's score when both seats play alike, to read a score against CleverBot by.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))  # the project before bench/, whose engine.py is a script
sys.path.insert(1, str(HERE))

from cleverbot_compare import sign_test  # noqa: E402

from engine.ai import choose_action  # noqa: E402
from engine.ai.levels import Level, level_of  # noqa: E402
from engine.battle.position import Side  # noqa: E402
from engine.battle.state import Battle  # noqa: E402
from engine.dice import Dice  # noqa: E402
from engine.frozen import evolve  # noqa: E402
from engine.game.apply import apply  # noqa: E402
from engine.game.battle_flow import battle_of  # noqa: E402
from engine.game.legal import to_act  # noqa: E402
from engine.game.setup import new_game  # noqa: E402
from engine.game.state import GameState  # noqa: E402

#: The seed of the first harvesting game.
FIRST_SEED = 7000
#: Player turns a harvesting game may last.
MAX_TURNS = 200
#: The shift of the game's seed for each further dice of ``--dice``.
DICE_SHIFT = 1_000_003
#: Battles kept: the weaker legion's value at least this share of the stronger's (a
#: foregone battle measures nothing).
BALANCE = 0.6
#: The bounds of the bands of the attacker's strength (its legion's value over the
#: defender's, RULES §0.2) by which the scores are broken down: where one side is far
#: stronger, no level's play changes much.
BANDS = (0.8, 1.0, 1.25, 1.6)


def harvest(games: int, first_seed: int = FIRST_SEED) -> list[GameState]:
    """The state at the start of every battle of ``games`` seeded ``normal`` games."""
    starts: list[GameState] = []
    for seed in range(games):
        players = 2 + seed % 3
        state, _ = new_game([f"P{i}" for i in range(players)], first_seed + seed)
        while state.result is None and state.turn.number <= MAX_TURNS:
            seat = to_act(state)
            assert seat is not None
            before = battle_of(state)
            state, _ = apply(state, seat, choose_action(state, seat))
            battle = battle_of(state)
            if before is None and battle is not None and balanced(battle):
                starts.append(state)
    return starts


def harness_starts(path: Path) -> list[GameState]:
    """The battle starts of the aibridge harness's positions file ``path``, as the harness
    builds them (its ``battles.start_state``: both legions, the Titans' Power, the entry
    side, the caretaker and the position's dice)."""
    sys.path.insert(0, str(HERE))
    try:
        from cleverbot import open_harness
    finally:
        sys.path.remove(str(HERE))
    open_harness()
    import battles  # the harness's script, on the path from open_harness

    positions = json.loads(path.read_text())["positions"]
    return [battles.start_state(p) for p in positions]


def with_dice(start: GameState, k: int) -> GameState:
    """``start`` with the ``k``-th dice: its own for 0, else the game's seed shifted."""
    if k == 0:
        return start
    return evolve(start, dice=Dice(start.dice.seed + k * DICE_SHIFT, start.dice.rolled))


def legion_values(battle: Battle) -> tuple[int, int]:
    """The attacker's and the defender's legion values (RULES §0.2), the characters
    waiting to enter counted."""
    att, dfn = (battle.value(side, battle.legion(side)) for side in Side)
    return att, dfn


def balanced(battle: Battle) -> bool:
    """Whether neither legion is far stronger than the other (values, RULES §0.2)."""
    att, dfn = legion_values(battle)
    return min(att, dfn) >= BALANCE * max(att, dfn)


def strength(start: GameState) -> float:
    """The attacker's strength in the battle of ``start``: its legion's value over the
    defender's (:func:`legion_values`)."""
    battle = battle_of(start)
    assert battle is not None
    att, dfn = legion_values(battle)
    return att / max(dfn, 1)


def by_strength(
    strengths: list[float], attacking: list[float], defending: list[float]
) -> list[tuple[str, int, float, float]]:
    """The first level's scores attacking and defending in each band of the attacker's
    strength (:data:`BANDS`): the band, its starts, and the two scores (0 to 1)."""
    bounds = (0.0, *BANDS, math.inf)
    rows = []
    for low, high in pairwise(bounds):
        picked = [i for i, x in enumerate(strengths) if low <= x < high]
        if not picked:
            continue
        if low == 0.0:
            band = f"below {high}"
        elif high == math.inf:
            band = f"{low} and over"
        else:
            band = f"{low} to {high}"
        n = len(picked)
        attack = sum(attacking[i] for i in picked) / n
        defend = sum(defending[i] for i in picked) / n
        rows.append((band, n, attack, defend))
    return rows


def fight(
    start: GameState,
    attacker: Level,
    defender: Level,
    times: dict[str, list[float]],
    watch: Callable[[Battle], None] | None = None,
) -> float:
    """Fight the battle from ``start`` to its end: 1 if the attacker won, 0 if the
    defender did, ½ for a draw. ``watch`` sees the battle before each decision."""
    battle = battle_of(start)
    assert battle is not None
    markers = (battle.attacker, battle.defender)
    seats = tuple(start.legion(m).owner for m in markers)
    levels = {seats[0]: attacker, seats[1]: defender}
    state = start
    while (now := battle_of(state)) is not None:
        if watch is not None:
            watch(now)
        seat = to_act(state)
        assert seat is not None
        t0 = time.process_time()
        action = choose_action(state, seat, levels[seat])
        times[levels[seat]].append(time.process_time() - t0)
        state, _ = apply(state, seat, action)
    return outcome(start, state)


def outcome(start: GameState, end: GameState) -> float:
    """The result of the battle begun in ``start`` and over in ``end``: 1 if the attacker
    won, 0 if the defender did, ½ for a draw (both legions gone or both left)."""
    battle = battle_of(start)
    assert battle is not None
    alive = []
    for side in Side:
        marker = battle.marker(side)
        owner = start.legion(marker).owner
        alive.append(marker in end.legions and end.legion(marker).owner == owner)
    if alive[0] == alive[1]:
        return 0.5
    return 1.0 if alive[0] else 0.0


def results(
    starts: list[GameState], first: Level, second: Level, times: dict[str, list[float]]
) -> tuple[list[float], list[float]]:
    """The first level's result in each start attacking, then defending (1 a win, 0 a
    loss, ½ a draw). A level against itself fights each start once: the levels are
    deterministic, so the battle with the seats swapped is the same battle again."""
    attacking = [fight(s, first, second, times) for s in starts]
    if first == second:
        return attacking, [1 - x for x in attacking]
    return attacking, [1 - fight(s, second, first, times) for s in starts]


def kinds(attacking: list[float], defending: list[float], first: str, second: str) -> Counter[str]:
    """How many starts are of each kind by the first level's results attacking and
    defending in each (1 a win, 0 a loss, ½ a draw)."""
    names = {
        (1.0, 0.0): "the attacker's",
        (0.0, 1.0): "the defender's",
        (1.0, 1.0): _owner(first, second, 0),
        (0.0, 0.0): _owner(first, second, 1),
    }
    return Counter(
        "drawn" if 0.5 in pair else names[pair] for pair in zip(attacking, defending, strict=True)
    )


def _owner(first: str, second: str, which: int) -> str:
    """The name of the starts the first (``which`` 0) or second level wins in both seats."""
    if first == second:
        return ("the first's", "the second's")[which]
    return f"{(first, second)[which]}'s"


def paired(before: list[float], after: list[float]) -> tuple[int, int]:
    """How many battles went better and how many worse in ``after`` than in ``before``
    (the same battles, in the same order, under the same dice)."""
    better = sum(1 for x, y in zip(before, after, strict=True) if y > x)
    worse = sum(1 for x, y in zip(before, after, strict=True) if y < x)
    return better, worse


def compared(before: list[float], after: list[float]) -> str:
    """A seat's score in an earlier run and now, with the battles that went better and
    worse and the sign test's chance of so uneven a split by luck."""
    better, worse = paired(before, after)
    n = len(after)
    return (
        f"{100 * sum(before) / n:.1f} → {100 * sum(after) / n:.1f} %, better in {better},"
        f" worse in {worse} (sign test p = {sign_test(better, worse):.2g})"
    )


def wilson(score: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share ``score / n``."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _pct(score: float, n: int) -> str:
    low, high = wilson(score, n)
    return f"{100 * score / max(n, 1):5.1f} % of {n} (95 % CI {100 * low:.0f}–{100 * high:.0f} %)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="harvesting games")
    parser.add_argument("--limit", type=int, default=0, help="battle starts used (0: all)")
    parser.add_argument("--shard", default="0/1", help="i/n: every n-th start from the i-th")
    parser.add_argument("--pairs", default="hard:normal,easy:normal")
    parser.add_argument("--dice", type=int, default=1, help="dice each start is fought with")
    parser.add_argument("--positions", type=Path, help="the harness's battle positions instead")
    parser.add_argument("--out", type=Path, help="write every battle's result here (JSON)")
    parser.add_argument(
        "--before", type=Path, help="an earlier run's --out: compare, battle by battle"
    )
    args = parser.parse_args()
    run = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    setting = {k: run[k] for k in ("games", "limit", "shard", "dice", "positions")}
    earlier = _earlier(args.before, setting)
    kept: dict[str, dict[str, list[float]]] = {}
    index, count = (int(x) for x in args.shard.split("/"))
    starts = harness_starts(args.positions) if args.positions else harvest(args.games)
    if args.limit:
        starts = starts[: args.limit]
    starts = starts[index::count]
    print(
        f"{len(starts)} battle starts" + (f", each under {args.dice} dice" if args.dice > 1 else "")
    )
    starts = [with_dice(s, k) for k in range(args.dice) for s in starts]
    times: dict[str, list[float]] = defaultdict(list)
    for pair in args.pairs.split(","):
        first, second = (level_of(x) for x in pair.split(":"))
        assert first is not None and second is not None, pair
        attacking, defending = results(starts, first, second, times)
        kept[pair] = {"attacking": attacking, "defending": defending}
        attack, defend, n = sum(attacking), sum(defending), len(starts)
        bands = by_strength([strength(s) for s in starts], attacking, defending)
        if first == second:
            print(f"{first} vs {first}, the par: the attacker scores {_pct(attack, n)}")
            print("  by the attacker's strength (its legion's value over the defender's):")
            for band, count, att_score, _ in bands:
                print(f"    {band:<12} {count:>4} starts: {100 * att_score:5.1f} %")
            continue
        print(f"{first} vs {second}: {_pct(attack + defend, 2 * n)}")
        print(f"  attacking {_pct(attack, n)}; defending {_pct(defend, n)}")
        if pair in earlier:
            print(f"  against {args.before}, battle by battle:")
            print(f"    attacking {compared(earlier[pair]['attacking'], attacking)}")
            print(f"    defending {compared(earlier[pair]['defending'], defending)}")
        counted = kinds(attacking, defending, first, second)
        order = ("the attacker's", "the defender's", *(_owner(first, second, i) for i in (0, 1)))
        tally = ", ".join(f"{counted[k]} {k}" for k in (*order, "drawn"))
        print(f"  by start under one dice, each level attacking once: {tally}")
        print("  by the attacker's strength (its legion's value over the defender's):")
        for band, count, att_score, def_score in bands:
            print(
                f"    {band:<12} {count:>4} starts: attacking {100 * att_score:5.1f} %,"
                f" defending {100 * def_score:5.1f} %"
            )
    if args.out:
        args.out.write_text(json.dumps({"setting": setting, "pairs": kept}))
    for level, ts in sorted(times.items()):
        ts.sort()
        p99 = ts[min(len(ts) - 1, int(len(ts) * 0.99))]
        mean = sum(ts) / len(ts)
        print(
            f"{level:<7} {len(ts):>6} decisions, mean {mean * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
        )


def _earlier(path: Path | None, setting: dict[str, object]) -> dict[str, dict[str, list[float]]]:
    """The results of an earlier run written with ``--out``, when it fought the same
    starts under the same dice (else none, and why)."""
    if path is None:
        return {}
    found = json.loads(path.read_text())
    if found["setting"] != setting:
        print(f"{path} fought other starts or dice ({found['setting']}): not compared")
        return {}
    pairs: dict[str, dict[str, list[float]]] = found["pairs"]
    return pairs


if __name__ == "__main__":
    main()
