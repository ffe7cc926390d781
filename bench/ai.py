"""The computer player against random players, and how long it takes to decide (issue 7).

Run: ``.venv/bin/python bench/ai.py [--games2 N] [--games4 N] [--self N] [--levels L,…]``.
Plays seeded 2-player games (the computer player against one random player) and 4-player
games (against three) at each level (default ``normal,hard``), prints the win rates, then
the mean, p50, p99 and max decision time by level and kind of decision (CPU time of the
process: the machine is shared). Targets: ≥ 90 % of 100 2-player games, ≥ 60 % of 50
4-player games; p99 ≤ 0.5 s and mean ≤ 100 ms a decision (``hard``) on a 2-core machine.
``--self N`` also plays N games between computer players and prints how they ended.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Player turns before a game counts as not won (generous: the AI wins far sooner).
MAX_TURNS = {2: 300, 4: 400}


def main() -> None:
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path.insert(0, str(HERE.parent))
    from engine.ai import choose_action
    from engine.ai.levels import level_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games2", type=int, default=100)
    parser.add_argument("--games4", type=int, default=50)
    parser.add_argument("--self", dest="selfplay", type=int, default=0)
    parser.add_argument("--levels", default="normal,hard")
    args = parser.parse_args()
    for name in args.levels.split(","):
        level = level_of(name)
        assert level is not None, name
        print(f"--- level {level}")
        run(args, level, choose_action)


def run(args: argparse.Namespace, level: str, choose_action) -> None:  # type: ignore[no-untyped-def]
    from engine.ai.match import RandomPlayer, play
    from engine.game.state import GameState

    times: dict[str, list[float]] = defaultdict(list)

    def timed(state: GameState, seat: int):  # type: ignore[no-untyped-def]
        start = time.process_time()
        action = choose_action(state, seat, level)
        times[type(action).__name__].append(time.process_time() - start)
        return action

    for players, games in ((2, args.games2), (4, args.games4)):
        if not games:
            continue
        won, turns, started = 0, [], time.perf_counter()
        for seed in range(games):
            seat = seed % players
            agents = [RandomPlayer(seed * 10 + i) for i in range(players)]
            agents[seat] = timed
            match = play(agents, seed, max_turns=MAX_TURNS[players])
            won += match.winners == (seat,)
            turns.append(match.turns)
        print(
            f"{players} players: computer player won {won}/{games} ({100 * won / games:.0f} %), "
            f"median {statistics.median(turns):.0f} player turns, "
            f"{time.perf_counter() - started:.0f} s"
        )
    if args.selfplay:
        ended, turns = 0, []
        for seed in range(args.selfplay):
            match = play([timed, timed], seed, max_turns=MAX_TURNS[2])
            ended += match.state.result is not None
            turns.append(match.turns)
        print(
            f"computer vs computer: {ended}/{args.selfplay} games ended, "
            f"median {statistics.median(turns):.0f} player turns"
        )
    print(f"{'decision':<18}{'count':>8}{'mean ms':>10}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    every = [t for ts in times.values() for t in ts]
    for name, ts in [*sorted(times.items()), ("(all)", every)]:
        ts = sorted(ts)
        p50, p99 = ts[len(ts) // 2], ts[min(len(ts) - 1, int(len(ts) * 0.99))]
        mean = sum(ts) / len(ts)
        print(
            f"{name:<18}{len(ts):>8}{mean * 1000:>10.2f}{p50 * 1000:>10.2f}"
            f"{p99 * 1000:>10.2f}{ts[-1] * 1000:>10.2f}"
        )


if __name__ == "__main__":
    main()
