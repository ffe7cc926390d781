"""Constructed results for the tournament tests."""

from __future__ import annotations

from bot.tournament.places import GameResult, ruled_result
from bot.tournament.standings import HeatGame


def game(order: str, kills: dict[str, int] | None = None) -> GameResult:
    """Players named by the letters of ``order`` (space-separated names also work), placed
    1st, 2nd, … in that order."""
    names = order.split() if " " in order else list(order)
    return ruled_result({n: i + 1 for i, n in enumerate(names)}, titan_kills=kills or {})


def heat(number: int, *orders: str) -> list[HeatGame]:
    return [HeatGame(number, game(order)) for order in orders]
