"""How often a battle waits for its players, and what ``autostrike`` and ``fighton`` spare
them.

Run: ``.venv/bin/python bench/battle_waits.py [--games 20] [--level normal]``. The battle
starts of ``bench/ai_levels.py`` (harvested from seeded games between computer players)
are fought out by the computer at ``--level``; each decision is classed as the engine
sees it when it is asked: forced (:func:`engine.game.forced.forced_action`, what
``autostrike forced`` makes), of a strike phase (:func:`engine.game.forced.strike_decision`,
what ``autostrike all`` makes) or a concession window
(:func:`engine.game.forced.concession_window`, what ``fighton on`` answers). Printed per
battle, for both players together with autostrike off, forced and all, fighton on alone
and with autostrike all: the decisions left to the players, and the *waits*: the times the battle
passes to the other player, each a round trip in an asynchronous game (a run of one
player's decisions in a row is one wait, however many clicks it takes).

A player's strikes back are mostly followed by their own maneuver, in the same wait:
autostrike spares many more decisions than waits.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))  # the project before bench/, whose engine.py is a script
sys.path.insert(1, str(HERE))

from ai_levels import harvest  # noqa: E402

from engine.ai import choose_action  # noqa: E402
from engine.ai.levels import LEVELS, Level  # noqa: E402
from engine.game.apply import apply  # noqa: E402
from engine.game.battle_flow import battle_of  # noqa: E402
from engine.game.forced import (  # noqa: E402
    concession_window,
    forced_action,
    strike_decision,
)
from engine.game.legal import to_act  # noqa: E402
from engine.game.state import GameState  # noqa: E402

MODES = ("off", "forced", "all", "fighton", "all+fighton")
"""``autostrike`` off, forced and all; ``fighton`` on alone, and with ``autostrike all``."""
Decision = tuple[int, bool, bool, bool]
"""A decision of a battle: its seat, whether it was forced, of a strike phase, a window."""


def waits(seats: Iterable[int]) -> int:
    """The waits of a battle whose decisions fall to ``seats`` in turn."""
    count, last = 0, None
    for seat in seats:
        count += seat != last
        last = seat
    return count


def fought(start: GameState, level: Level) -> list[Decision]:
    """Each decision of the battle of ``start`` fought out at ``level``: its seat, whether
    it was forced, a strike-phase decision, a concession window."""
    state, decisions = start, []
    while battle_of(state) is not None:
        seat = to_act(state)
        assert seat is not None
        decisions.append(
            (
                seat,
                forced_action(state, seat) is not None,
                strike_decision(state, seat),
                concession_window(state, seat),
            )
        )
        state, _ = apply(state, seat, choose_action(state, seat, level))
    return decisions


def left_to_players(decisions: list[Decision], mode: str) -> list[int]:
    """The seats of the decisions left to the players when both have ``mode``."""

    def made(forced: bool, striking: bool, window: bool) -> bool:
        return {
            "off": False,
            "forced": forced,
            "all": striking,
            "fighton": window,
            "all+fighton": striking or window,
        }[mode]

    return [
        seat for seat, forced, striking, window in decisions if not made(forced, striking, window)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="harvesting games")
    parser.add_argument("--level", choices=LEVELS, default="normal")
    args = parser.parse_args()
    starts = harvest(args.games)
    totals = {mode: [0, 0] for mode in MODES}
    for start in starts:
        decisions = fought(start, args.level)
        for mode in MODES:
            left = left_to_players(decisions, mode)
            totals[mode][0] += len(left)
            totals[mode][1] += waits(left)
    n = len(starts)
    print(f"{n} battles fought by {args.level}; per battle, both players together:")
    base_decisions, base_waits = totals["off"]
    for mode in MODES:
        asked, waited = totals[mode]
        print(
            f"  {mode:12}  decisions {asked / n:5.1f} "
            f"({100 * (1 - asked / base_decisions):4.1f} % fewer)   "
            f"waits {waited / n:4.1f} ({100 * (1 - waited / base_waits):4.1f} % fewer)"
        )


if __name__ == "__main__":
    main()
