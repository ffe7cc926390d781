"""The titanbot command and the local game, driven as a user would: a process and stdin."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.cli import main
from bot.console import LOCAL_CHANNEL, NO_PICTURES, Console, local_user
from bot.context import Caller, Place
from bot.handlers.mine import NO_GAME
from bot.service import GameService

REPO = Path(__file__).resolve().parents[2]


def titanbot(*args: str, stdin: str | None = "", cwd: Path = REPO, **env: str):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TITANBOT_")}
    environ |= {"PYTHONPATH": str(REPO), **env}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environ,
        timeout=60,
    )


def test_a_local_game_from_stdin_then_resumed(tmp_path):
    db = str(tmp_path / "local.sqlite3")
    lines = "status\nlegal\ncolour Red\ncolour Blue\nBob: legions\nas Ann\nlegions\nbogus\n"
    first = titanbot("local", "--players", "Ann,Bob", "--db", db, "--seed", "3", stdin=lines)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "Game #1 begins: Ann, Bob." in out
    assert "Towers by roll: Ann 600, Bob 200." in out  # seed 3
    assert "`colour Red`" in out
    assert "Bob takes Red" in out and "Ann takes Blue" in out
    assert "[to Bob] Your legions:" in out
    assert "[refused] unknown command 'bogus'" in out
    assert NO_PICTURES in out  # no --out: the newcomer learns how to keep the pictures
    again = titanbot("local", "--db", db, stdin="history\n")
    assert again.returncode == 0, again.stderr
    assert "Resuming game #1." in again.stdout
    assert "#2 Ann: Ann takes Blue" in again.stdout


def test_pictures_go_to_files_when_asked(tmp_path):
    out_dir = tmp_path / "pictures"
    run = titanbot(
        "local", "--players", "Ann,Bob", "--db", str(tmp_path / "p.sqlite3"), "--out", str(out_dir)
    )
    assert run.returncode == 0, run.stderr
    assert NO_PICTURES not in run.stdout
    pictures = sorted(out_dir.glob("*.png")) if out_dir.exists() else []
    if "no renderer is available" in run.stdout:
        assert pictures == []
    else:
        assert pictures and pictures[0].read_bytes().startswith(b"\x89PNG")
        assert f"[picture: {pictures[0]}]" in run.stdout


def test_plain_titanbot_without_token_or_stdin_exits_by_itself(tmp_path):
    """With nothing to read (stdin at its end) it shows the empty table and exits: it
    waits for nothing (a wait would run into the helper's guard against a hang)."""
    run = titanbot(stdin=None, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "No game yet" in run.stdout


def test_run_needs_a_token(tmp_path):
    # With a token the bot connects to Discord: tests/bot/discord/test_run.py runs it
    # against the local fake Discord instead.
    assert titanbot("run", cwd=tmp_path).returncode == 2


def test_a_bad_config_file_is_reported(tmp_path):
    (tmp_path / "config.toml").write_text("[discord\n")
    run = titanbot("local", cwd=tmp_path)
    assert run.returncode == 2 and "not valid TOML" in run.stderr


def test_main_parses_arguments(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["local", "--seed", "x"])


async def test_the_console_in_process(tmp_path):
    service = await GameService.open(tmp_path / "c.sqlite3", seeds=lambda: 1)
    said: list[str] = []
    console = Console(service, write=said.append)
    try:
        await console.setup([])
        await console.handle("Ann: new players 3")
        await console.handle("Bob: join")
        await console.handle("Ann: add Cat")
        await console.handle("Cat: invitation accept")
        await console.handle("Ann: start")
        await console.handle("# a comment")
        await console.handle("status")
        await console.handle("as Cat")
        await console.handle("legions")
    finally:
        await service.close()
    text = "\n".join(said)
    assert "No game yet" in text
    assert "**Ann** invites @Cat to play as **Cat**" in text  # a mention reads as a name
    assert "**Cat** takes seat 3 of 3." in text
    assert "Game #1 begins: Ann, Bob, Cat." in text
    assert "(now speaking as Cat)" in text
    assert local_user("cat") == local_user("Cat")


@asynccontextmanager
async def two_at_the_terminal(
    tmp_path: Path,
) -> AsyncIterator[tuple[GameService, Console, list[str]]]:
    """A local game of Ann and Bob started at a terminal: its service and, once it began,
    what the terminal printed."""
    service = await GameService.open(tmp_path / "two.sqlite3", seeds=lambda: 1)
    said: list[str] = []
    console = Console(service, write=said.append)
    try:
        await console.setup(["Ann", "Bob"])
        said.clear()
        yield service, console, said
    finally:
        await service.close()


async def test_mygames_in_the_terminal_names_the_channel_and_the_time_in_words(tmp_path):
    async with two_at_the_terminal(tmp_path) as (_, console, said):
        await console.handle("Ann: mygames")
        await console.handle("Cat: mygames")
    ann, cat = said
    assert ann.startswith("[to Ann] Your open games: 1, ")
    assert "- Game #1 in this terminal, before turn 1: waiting for " in ann
    *games, choices = ann.split("\n")
    assert re.search(r", asked \d{4}-\d\d-\d\d \d\d:\d\d UTC$", games[-1]), ann
    assert choices.startswith("Your choices: DMs on")
    assert "<t:" not in ann and "<#" not in ann
    assert cat.startswith(f"[to Cat] {NO_GAME}\nYour choices: ")


async def test_a_resumed_game_shows_its_status_and_names_who_its_held_news_ping(tmp_path):
    """News stored while no terminal was printing (the game started elsewhere, or the last
    run ended before the outbox was done) are printed on resuming, pings as names."""
    service = await GameService.open(tmp_path / "r.sqlite3", seeds=lambda: 1)
    place = Place(LOCAL_CHANNEL)
    for name, command in (("Ann", "new players 2"), ("Bob", "join"), ("Ann", "start")):
        await service.submit(place, Caller(local_user(name), name, organiser=True), command)
    said: list[str] = []
    console = Console(service, write=said.append)
    try:
        await console.setup([])
    finally:
        await service.close()
    text = "\n".join(said)
    assert text.startswith("Resuming game #1.")
    assert "Game #1 begins: Ann, Bob." in text
    assert re.search(r"^@(Ann|Bob) @(Ann|Bob) ", text, re.MULTILINE), text
    assert not re.search(r"@\d", text), text
    assert "Who is speaking?" not in text
    assert "[to Ann] Game #1\n" in text or "[to Bob] Game #1\n" in text


async def test_the_terminal_prints_the_news_of_a_command_before_the_choices_it_leaves(tmp_path):
    async with two_at_the_terminal(tmp_path) as (service, console, said):
        for line in ("colour Red", "colour Blue"):
            await console.handle(line)
        game = await service.game_in(LOCAL_CHANNEL)
        assert game is not None and game.state is not None
        mover = game.name_of(game.state.active)
        legion = next(leg.marker for leg in game.state.legions_of(game.state.active))
        split = f"split {legion} {legion[:2]}02 Angel Centaur Centaur Gargoyle"
        await console.handle(f"{mover}: {split}")
        said.clear()
        await console.handle(f"{mover}: roll")
    news = next(i for i, text in enumerate(said) if f"{mover} rolls a" in text)
    step = next(i for i, text in enumerate(said) if text.startswith(f"[to {mover}] You rolled"))
    assert news < step, said  # the news first, the private step under it, by the prompt
    assert "`mulligan` — Mulligan: roll again" in said[step + 1]
