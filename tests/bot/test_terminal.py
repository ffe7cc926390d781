"""The local game at the terminal: local players' ids, seats found by name, and any text
(or bytes) in and out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import ai_names
from bot.console import LOCAL_CHANNEL, Console, local_user, visible
from bot.context import Caller, Place
from bot.service import GameService
from bot.syntax import words as w

REPO = Path(__file__).resolve().parents[2]


@given(st.text(st.characters(exclude_categories=[])))
def test_local_ids_are_snowflakes_the_lobby_accepts(name):
    user = local_user(name)
    assert w.MIN_SNOWFLAKE <= user <= w.MAX_SNOWFLAKE
    assert w.user(f"<@{user}>") == user


def test_local_ids_ignore_case():
    assert local_user("Cat") == local_user("cAT") != local_user("Cot")


def test_control_characters_go_out_as_escapes():
    assert visible("a\x1b[2Jb\r\x00\nnext") == "a\\x1b[2Jb\\r\\x00\nnext"
    assert visible("Ноst — ok") == "Ноst — ok"


async def console_on(path, said: list[str]) -> tuple[GameService, Console]:
    service = await GameService.open(path, seeds=lambda: 1)
    return service, Console(service, write=said.append)


async def test_a_local_player_added_by_a_name_of_words_speaks_by_it(tmp_path):
    said: list[str] = []
    service, console = await console_on(tmp_path / "t.sqlite3", said)
    try:
        await console.handle("Ann: new players 3")
        await console.handle("Ann: add 'Cy Smith'")
        await console.handle("Ann: add Di")
        await console.handle("Cy Smith: invitation accept")
        await console.handle("Di: join")
        await console.handle("Cy Smith: leave")
        await console.handle("\x1b]0;evil\x07: status")
        game = await service.game_in(LOCAL_CHANNEL)
    finally:
        await service.close()
    text = "\n".join(said)
    assert "**Cy Smith** takes seat 2 of 3." in text and "**Cy Smith** left the game." in text
    assert [(s.name, s.user) for s in game.seats] == [
        ("Ann", local_user("Ann")),
        ("Di", local_user("Di")),
    ]
    assert "\x1b" not in text and "\x07" not in text


async def test_a_seat_taken_under_an_older_id_is_played_by_its_name(tmp_path):
    path = tmp_path / "old.sqlite3"
    service = await GameService.open(path, seeds=lambda: 1)
    try:
        for caller, text in ((Caller(2, "Old"), "new players 2"), (Caller(3, "Timer"), "join")):
            assert not (await service.submit(Place(LOCAL_CHANNEL), caller, text)).error
    finally:
        await service.close()
    said: list[str] = []
    service, console = await console_on(path, said)
    try:
        await console.handle("timer: leave")  # a seat is needed: Timer's, found by its name
        game = await service.game_in(LOCAL_CHANNEL)
    finally:
        await service.close()
    assert "**Timer** left the game. The host is Old." in "\n".join(said)
    assert [s.name for s in game.seats] == ["Old"]


def titanbot_bytes(*args: str, stdin: bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    """``titanbot ARGS`` in a fresh process fed raw bytes (no token in its environment)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TITANBOT_")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        env=environ | {"PYTHONPATH": str(REPO), **env},
        timeout=60,
    )


RAW_LINES = (
    b"\xff\xfe: status\n"
    b"Ann: new players 3\n"
    b"\xff: join\n"
    b"Bob\xc3: join B\xc3\xb8b \xed\xa0\x80\n"
    b"Cy: join \xd0\x9d\xd0\xbest\n"
    b"\x00\x1b[2J: status\n"
    b"status\n"
)


def test_titanbot_local_survives_any_bytes_on_stdin(tmp_path):
    run = titanbot_bytes("local", "--db", str(tmp_path / "bytes.sqlite3"), stdin=RAW_LINES)
    assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr
    out = run.stdout.decode("utf-8")
    assert "**Ann** opened game #1" in out
    assert "**Player 2** takes seat 2 of 3." in out  # the undecodable name: Player N
    assert "U+FFFD REPLACEMENT CHARACTER" in out  # B\xc3\xb8b is fine, the rest is not
    assert "**Ноst** takes seat 3 of 3." in out
    assert "\x1b" not in out and "Game #1 is forming (3 of 3 seats" in out


def test_output_the_terminal_cannot_show_is_escaped(tmp_path):
    run = titanbot_bytes(
        "local",
        "--players",
        "Ноst,Bob",
        "--db",
        str(tmp_path / "ascii.sqlite3"),
        stdin=b"help\nhelp board\n",
        PYTHONIOENCODING="ascii",
    )
    assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr
    out = run.stdout.decode("ascii")
    assert "Game #1 begins: \\u041d\\u043est, Bob." in out
    assert "`help TOPIC` shows how to use" in out
    assert "`board` \\u2014 the masterboard" in out


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (("--seed", "²"), b"digits 0-9"),
        (("--seed", str(2**130)), f"give 0 to {2**128 - 1}".encode()),
        (("--ai", "99"), b"give 0 to 5"),
    ],
)
def test_numbers_on_the_command_line_are_bounded(tmp_path, args, complaint):
    run = titanbot_bytes("local", "--db", str(tmp_path / "n.sqlite3"), *args, stdin=b"")
    assert run.returncode == 2 and complaint in run.stderr and b"Traceback" not in run.stderr


def test_ai_seats_by_count_are_ascii_digits():
    assert ai_names("3") == ["Bot 1", "Bot 2", "Bot 3"]
    assert ai_names("²") == ["²"]  # a name: the lobby says what is wrong with it


async def test_in_a_lobby_a_line_without_a_speaker_is_the_hosts(tmp_path):
    """A newcomer types `Ann: new`, then `addai Hal` and `start`: the lobby's commands are
    its host's, so they need no name (a guest still names themselves to join)."""
    said: list[str] = []
    service, console = await console_on(tmp_path / "lobby.sqlite3", said)
    try:
        for line in ("Ann: new players 2", "addai Hal level hard", "start"):
            await console.handle(line)
        game = await service.game_in(LOCAL_CHANNEL)
    finally:
        await service.close()
    text = "\n".join(said)
    assert "Who is speaking?" not in text
    assert "**Hal** (AI, hard) takes seat 2 of 2." in text
    assert game is not None and game.state is not None  # started
