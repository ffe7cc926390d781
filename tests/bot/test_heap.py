"""The process sets aside what it loaded before it serves (bot/heap.py): the full
collections, which may fall on the event loop, then walk only what the games add."""

from __future__ import annotations

import subprocess
import sys

from bot import cli, console, heap
from bot.config import load_config


def test_settle_takes_what_is_alive_out_of_the_full_collections():
    """In a process of its own: what is frozen is never collected."""
    script = (
        "import gc, bot.service\n"
        "from bot.heap import settle\n"
        "before = len(gc.get_objects())\n"
        "settle()\n"
        "print(before, gc.get_freeze_count(), len(gc.get_objects()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    before, frozen, after = map(int, out.split())
    assert frozen >= before * 0.9
    assert after < before / 10


def test_the_local_game_settles_once_loaded_and_before_it_plays(monkeypatch, tmp_path):
    calls: list[str] = []

    async def play(*args: object, **kwargs: object) -> None:
        calls.append("play")

    monkeypatch.setattr(console, "play_locally", play)
    monkeypatch.setattr(heap, "settle", lambda: calls.append("settle"))
    config = load_config(None, environ={})
    assert cli.run_local(config, ["Ann", "Bob"], db=tmp_path / "t.sqlite3") == 0
    assert calls == ["settle", "play"]
