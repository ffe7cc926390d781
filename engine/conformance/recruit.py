"""Answer ``recruit`` cases: recruits, recruiters and whether the legion can muster (RULES §6)."""

from __future__ import annotations

from typing import Any

from engine.muster import can_muster, muster_options


def answer_recruit(inp: dict[str, Any]) -> dict[str, Any]:
    """``{"recruits", "recruiters", "can_muster"}`` for a terrain, legion and empty stacks."""
    terrain = str(inp["terrain"])
    legion = [str(name) for name in inp["legion"]]
    unavailable = frozenset(str(name) for name in inp.get("unavailable", ()))

    def available(name: str) -> bool:
        return name not in unavailable

    options = muster_options(terrain, legion, available)
    return {
        "recruits": [o.recruit for o in options],
        "recruiters": {o.recruit: [list(way) for way in o.recruiters] for o in options},
        "can_muster": can_muster(terrain, legion, available),
    }
