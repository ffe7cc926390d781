"""``titanbot demo`` and ``titanbot local --ai`` in a fresh process."""

from __future__ import annotations

import re
from pathlib import Path

from bot.cli import ai_names
from tests.bot.test_local import titanbot

PNG = b"\x89PNG"


def test_demo_plays_an_ai_game_to_the_end_and_writes_its_log_and_pictures(tmp_path):
    out = tmp_path / "demo"
    done = titanbot("demo", "--players", "2", "--seed", "1", "--max-turns", "3", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "TITAN demo: 2 AI players, seed 1." in done.stdout
    assert "Winner: Bot " in done.stdout and "(time limit)" in done.stdout
    assert "The time limit was declared after turn 3 (errata 21.1)" in done.stdout
    assert re.search(r"\(time limit\) in turn [45], after \d+ actions, in ", done.stdout)
    bar = done.stderr.splitlines()  # each \r redraw reads as a line here
    assert bar[-1].startswith("[" + "#" * 30 + "] turn ") and bar[-1].endswith(" s")
    assert re.search(r"\] turn +[1-5] · Bot [12] +\d+ actions +\d", bar[-1])
    log = (out / "log.txt").read_text(encoding="utf-8")
    assert log.startswith("TITAN, game #1: Bot 1, Bot 2 (seed 1).")
    assert "The time limit has expired" in log and "Game over (time limit)" in log
    listed = [line.strip() for line in done.stdout.splitlines() if line.endswith(".png")]
    if listed:  # the render package draws them
        names = [p.rsplit("/", 1)[-1] for p in listed]
        assert names[0] == "01-turn-1-end.png" and names[-1].endswith("-game-end.png")
        assert all(Path(p).read_bytes().startswith(PNG) for p in listed)
        assert sorted(out.glob("*.png")) == sorted(tmp_path.joinpath(p) for p in listed)


def test_local_with_ai_seats_starts_at_once_and_the_ai_plays_its_turns(tmp_path):
    db = str(tmp_path / "local.sqlite3")
    first = titanbot(
        "local", "--players", "Ann", "--ai", "Hal,Deep", "--db", db, stdin="colour Red\n"
    )
    assert first.returncode == 0, first.stderr
    assert "**Hal** (AI, normal) takes seat 2 of 3." in first.stdout
    assert "Game #1 begins: Ann, Hal, Deep." in first.stdout
    assert "Ann takes Red" in first.stdout
    assert "Hal takes " in first.stdout and "Deep takes " in first.stdout  # the AIs chose
    again = titanbot("local", "--players", "Ann", "--ai", "Hal,Deep", "--db", db, stdin="")
    assert "Resuming game #1." in again.stdout and "ignored" not in again.stdout


def test_ai_seats_are_given_by_name_or_by_count():
    assert ai_names("Hal, Deep ,") == ["Hal", "Deep"]
    assert ai_names("2") == ["Bot 1", "Bot 2"]
    assert ai_names("") == []
