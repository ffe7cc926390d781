"""Worst-case parse times of the command language (the target: a 10,000-character line
reads in under 10 ms).

Run: ``.venv/bin/python bench/parser.py``. Three groups, each the slowest of ``RUNS``
runs and the median:

- ``parse_command`` on 10,000-character lines (refused at once: over the line limit);
- the tokenizer alone (``split_words``, no limit) on 10,000-character lines built to be
  hard: many quotes, escapes, words, an unclosed quote at the very end;
- ``parse_command`` + ``to_action`` on lines of the longest accepted length against real
  game states (split, movement, negotiation, battle).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game.state import GameState

RUNS = 50
LONG = 10_000
TARGET_MS = 10.0
HERE = Path(__file__).resolve().parent


def timings(job: Callable[[], object]) -> tuple[float, float]:
    """(worst, median) wall time in ms over ``RUNS`` runs; a refusal counts as a run."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        try:
            job()
        except Exception as exc:  # a refused line is a result too
            if type(exc).__module__ != "engine.errors":
                raise
        times.append((time.perf_counter() - start) * 1000)
    return max(times), statistics.median(times)


def fill(unit: str, length: int, head: str = "") -> str:
    """``head`` then ``unit`` repeated to ``length`` characters."""
    return (head + unit * (length // len(unit) + 1))[:length]


def positions() -> dict[str, tuple[GameState, int]]:
    """Real positions of a random game (the first of each kind) and the seat to act."""
    from engine.game import actions as a
    from engine.game.apply import apply
    from engine.game.battle_flow import battle_of
    from engine.game.legal import legal_actions, to_act
    from engine.game.setup import new_game

    peaceful = (a.Withdraw, a.TakeBack, a.UndoSplit, a.ExpireTimeLimit, a.Flee, a.Concede)
    found: dict[str, tuple[GameState, int]] = {}
    state, _ = new_game(["Ann", "Bob"], 7)
    rng = random.Random(7)
    while state.result is None and len(found) < 4:
        seat = to_act(state)
        assert seat is not None
        kind = "battle" if battle_of(state) is not None else state.phase.value
        if kind in ("split", "move", "engage", "battle"):
            found.setdefault(kind, (state, seat))
        choices = [x for x in legal_actions(state, seat) if not isinstance(x, peaceful)]
        state, _ = apply(state, seat, rng.choice(choices or legal_actions(state, seat)))
    return found


def main() -> None:
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path.insert(0, str(HERE.parent))
    from bot.syntax import parse_command, to_action
    from bot.syntax.words import MAX_LINE, split_words

    hard = {
        "bare words": fill("Ogre ", LONG, "join "),
        "one long word": fill("x", LONG, "join "),
        "single quotes": fill("'a b' ", LONG, "join "),
        "double quotes, escapes": fill('"a\\"b\\\\" ', LONG, "join "),
        "quote pieces in one word": fill("a'b'", LONG, "join "),
        "backslashes": fill("\\x", LONG, "join "),
        "unclosed quote at the end": fill("x", LONG - 1, "join ") + "'",
        "unclosed double quote": 'join "' + fill('\\"x', LONG - 6),
        "digits": fill("9", LONG, "history "),
        "mixed Unicode": fill("Ноst ² \u202e \u200b ", LONG, "join "),
    }
    at = positions()
    accepted = {
        "split many characters": (fill(" Ogre", MAX_LINE, "split Bk01"), "split"),
        "many quoted words": (fill(" 'Ogre'", MAX_LINE, "split Bk01"), "split"),
        "move many options": (fill(" side 1", MAX_LINE, "move Bk01 104"), "move"),
        "done keep many": (fill(" Bk01", MAX_LINE, "done keep"), "move"),
        "propose many or": (fill(" or attacker lose Ogre", MAX_LINE, "propose both"), "engage"),
        "strike many words": (fill(" dice 3", MAX_LINE, "strike A1 A2"), "battle"),
        "maneuver long words": (fill("x", MAX_LINE, "maneuver "), "battle"),
    }
    rows: list[tuple[str, str, float, float]] = []
    for name, line in hard.items():
        rows.append(("parse_command", name, *timings(lambda line=line: parse_command(line))))
    for name, line in hard.items():
        rows.append(("split_words", name, *timings(lambda line=line: split_words(line))))
    for name, (line, kind) in accepted.items():
        state, seat = at[kind]
        read = partial(lambda text, at, who: to_action(parse_command(text), at, who), line)
        rows.append((f"to_action {kind}", name, *timings(partial(read, state, seat))))
    print(f"{'reader':<14} {'line':<28} {'worst ms':>9} {'median ms':>10}")
    for reader, name, worst, median in rows:
        verdict = "ok" if worst <= TARGET_MS else "SLOW"
        print(f"{reader:<14} {name:<28} {worst:>9.3f} {median:>10.3f}  {verdict}")


if __name__ == "__main__":
    main()
