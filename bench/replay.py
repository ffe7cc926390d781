"""Benchmark of the end pictures of a long finished game: the replay's bytes and time.

    .venv/bin/python bench/replay.py [--turns 300] [--seed 1] [--out DIR]

Plays a genuine two-player game (``tests/bot/long_game.py``: random legal actions, the
Titans kept out of harm) until ``--turns`` game turns have been played, and ends it: one
player withdraws (RULES §12.4). Its log is then read as the service reads it — replayed
from the seed (:func:`bot.records.course.course_of`) — and drawn: the final card with the
chart of the scores, and the replay GIF (:mod:`render.replay`). Reports the seconds each
step takes, the replay's bytes against Discord's 10 MiB, and its frames; with ``--out``
writes ``final.png`` and ``replay.gif`` there. Target: the replay under 10 MiB, built
(course and drawing) in at most 60 s on two cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bot.pictures import render_with_package  # noqa: E402
from bot.records.course import Course, course_of  # noqa: E402
from bot.replies import Picture, PictureKind  # noqa: E402
from bot.storage import ActionRow  # noqa: E402
from bot.storage.eventlog import events_to_json  # noqa: E402
from engine.game import actions as a  # noqa: E402
from engine.game.actions import action_to_json  # noqa: E402
from engine.game.apply import apply  # noqa: E402
from engine.game.game_turns import game_turn  # noqa: E402
from engine.game.state import GameState  # noqa: E402
from render.replay import replay  # noqa: E402
from tests.bot.long_game import long_game  # noqa: E402

DISCORD_LIMIT = 10 * 2**20
ACTIONS_PER_TURN = 95
"""About how many actions one game turn of the long game takes (two player turns, take-backs
included): a first guess, grown should the game fall short."""


def finished_game(turns: int, seed: int) -> tuple[GameState, list[ActionRow]]:
    """A game of at least ``turns`` game turns, ended by a withdrawal: its start and log."""
    length = turns * ACTIONS_PER_TURN
    while True:
        game = long_game(length, seed)
        if game_turn(game.final) > turns:
            break
        length = int(length * 1.3)
    rows, state = [], game.start
    for entry in game.log:
        if game_turn(state) > turns:  # the turn after the last one to be played
            break
        state, events = apply(state, entry.seat, entry.action)
        rows.append(_row(len(rows) + 1, entry.seat, entry.action, events))
    seat = state.active
    state, events = apply(state, seat, a.Withdraw())
    rows.append(_row(len(rows) + 1, seat, a.Withdraw(), events))
    assert state.result is not None, "the withdrawal should end the game"
    return game.start, rows


def _row(n: int, seat: int, action: a.Action, events: list) -> ActionRow:  # type: ignore[type-arg]
    text = json.dumps(action_to_json(action))
    return ActionRow(n, seat, text, events_to_json(events), "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = time.perf_counter()
    start, rows = finished_game(args.turns, args.seed)
    made = time.perf_counter()
    print(f"game of {len(rows)} actions made in {made - started:.1f} s (not counted)")
    course: Course = course_of(1, start, rows)
    read = time.perf_counter()
    print(
        f"course read from the log: {course.turns} game turns, {course.player_turns} player "
        f"turns, {course.battles} battles, {len(course.frames)} frames: {read - made:.1f} s"
    )
    card = render_with_package(Picture(PictureKind.FINAL, start, course=course))
    carded = time.perf_counter()
    assert card is not None
    print(f"final card: {len(card) / 1024:.0f} KiB in {(carded - read) * 1000:.0f} ms")
    drawn = replay(course.frames)
    done = time.perf_counter()
    size = len(drawn.data)
    print(
        f"replay: {size / 2**20:.2f} MiB ({size / DISCORD_LIMIT:.0%} of 10 MiB), "
        f"{len(drawn.shown)} of {len(course.frames)} frames, {done - carded:.1f} s"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = done - made
    print(f"course + card + replay: {total:.1f} s (target ≤ 60 s); peak memory {peak:.0f} MiB")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "final.png").write_bytes(card)
        (args.out / "replay.gif").write_bytes(drawn.data)
    if size > DISCORD_LIMIT or total > 60:
        sys.exit(1)


if __name__ == "__main__":
    main()
