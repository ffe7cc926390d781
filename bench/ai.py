"""The computer player against random players, and how long it takes to decide (issue 7).

Run: ``.venv/bin/python bench/ai.py [--games2 N] [--games4 N] [--self N]``. Plays seeded
2-player games (the computer player against one random player) and 4-player games (against
three), prints the win rates, then p50/p99/max decision time by kind of decision. Targets:
≥ 90 % of 100 2-player games, ≥ 60 % of 50 4-player games, ≤ 0.5 s a decision on a 2-core
machine. ``--self N`` also plays N games between computer players and prints how they ended.
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
    from engine.ai.match import RandomPlayer, play
    from engine.game.state import GameState

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games2", type=int, default=100)
    parser.add_argument("--games4", type=int, default=50)
    parser.add_argument("--self", dest="selfplay", type=int, default=0)
    args = parser.parse_args()
    times: dict[str, list[float]] = defaultdict(list)

    def timed(state: GameState, seat: int):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        action = choose_action(state, seat)
        times[type(action).__name__].append(time.perf_counter() - start)
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
    print(f"{'decision':<18}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    every = [t for ts in times.values() for t in ts]
    for name, ts in [*sorted(times.items()), ("(all)", every)]:
        ts = sorted(ts)
        p50, p99 = ts[len(ts) // 2], ts[min(len(ts) - 1, int(len(ts) * 0.99))]
        print(f"{name:<18}{len(ts):>8}{p50 * 1000:>10.2f}{p99 * 1000:>10.2f}{ts[-1] * 1000:>10.2f}")


if __name__ == "__main__":
    main()
