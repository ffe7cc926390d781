"""The local game with ``--players`` (battles and their pictures included) and
``titanbot render-demo``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.console import LOCAL_CHANNEL, Console
from bot.pictures import default_renderer
from bot.service import GameService
from engine.game.battle_flow import battle_of
from tests.bot.agent import choose

REPO = Path(__file__).resolve().parents[2]


def titanbot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``titanbot ARGS`` in a fresh process (no token in its environment)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TITANBOT_")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environ | {"PYTHONPATH": str(REPO)},
        timeout=60,
    )


async def local_service(path: Path, picture_folder: Path | None = None) -> GameService:
    renderer = default_renderer() if picture_folder is not None else None
    return await GameService.open(path, renderer=renderer, seeds=lambda: 9)


async def test_players_start_a_game_at_once_and_fight_a_battle(tmp_path):
    """Typed lines only, as ``Name: command``, until a battle has been fought a while."""
    out = tmp_path / "pictures"
    service = await local_service(tmp_path / "local.sqlite3", out)
    said: list[str] = []
    console = Console(service, out, write=said.append)
    battle_lines = 0
    try:
        await console.setup(["Ann", "Bob"])
        assert "Game #1 begins: Ann, Bob." in "\n".join(said)
        for _ in range(2_000):
            game = await service.game_in(LOCAL_CHANNEL)
            assert game is not None and game.state is not None, "the game ended first"
            battle_lines += battle_of(game.state) is not None
            if battle_lines > 12:
                break
            seat, command = choose(game.state, 5, game.n, fighting=True)
            assert isinstance(command, str)
            await console.handle(f"{game.name_of(seat)}: {command}")
        await console.handle("battle")
    finally:
        await service.close()
    text = "\n".join(said)
    assert "Before anyone enters, the attacker and then the defender may concede." in text
    assert "**Battle in " in text and "[refused]" not in text
    if default_renderer() is not None:
        drawn = sorted(out.glob("*-battleland.png"))
        assert drawn and drawn[0].read_bytes().startswith(b"\x89PNG")
        assert f"[picture: {drawn[0]}]" in text


async def test_resuming_keeps_the_seats_and_says_so(tmp_path):
    path = tmp_path / "again.sqlite3"
    for players, expected in ((["Ann", "Bob"], "Game #1 begins"), (["Cy", "Di"], "ignored")):
        service = await local_service(path)
        said: list[str] = []
        try:
            await Console(service, write=said.append).setup(players)
        finally:
            await service.close()
        assert expected in "\n".join(said)
    assert "this game's seats are Ann, Bob" in "\n".join(said)
    assert "Resuming game #1." in said[0]


def test_titanbot_local_with_players_starts_at_once_then_resumes(tmp_path):
    db = str(tmp_path / "cli.sqlite3")
    first = titanbot("local", "--players", "Ann,Bob,Cy", "--db", db, stdin="battle\n")
    assert first.returncode == 0, first.stderr
    assert "Game #1 begins: Ann, Bob, Cy." in first.stdout
    assert "[refused] no battle is being fought now" in first.stdout
    again = titanbot("local", "--players", "Ann,Bob", "--db", db, stdin="")
    assert "Resuming game #1." in again.stdout and "--players ignored" in again.stdout


def test_render_demo_writes_every_picture(tmp_path, monkeypatch, capsys):
    pytest.importorskip("render")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TITANBOT_TOKEN", raising=False)
    assert main(["render-demo", str(tmp_path / "demo")]) == 0
    printed = capsys.readouterr().out.split()
    files = sorted((tmp_path / "demo").glob("*.png"))
    assert printed == [str(f) for f in files] and len(files) >= 10
    assert all(f.read_bytes().startswith(b"\x89PNG") for f in files)
