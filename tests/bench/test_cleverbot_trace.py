"""The CleverBot battle trace writes the board as the rules show it: who stands where, with
the hits taken, and who still waits to enter (the battle against CleverBot itself needs the
harness and a Slugathon checkout, which the tests do not have)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.battle.notation import parse_battle

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_board_shows_each_side_its_hits_and_who_waits():
    sys.path.insert(0, str(BENCH))
    try:
        from cleverbot_trace import board
    finally:
        sys.path.remove(str(BENCH))
    battle = parse_battle("Plains t2 attacker maneuver: Bk01 Troll@C3:5 | Rd01 Ogre@C4 Angel@off")
    assert board(battle) == "D:Troll@C3-5 A:Ogre@C4 A:Angel@waiting"
