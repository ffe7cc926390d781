"""The local game at the terminal: local players' ids, seats found by name, and any text
(or bytes) in and out."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.console import LOCAL_CHANNEL, Console, local_user, visible
from bot.context import Caller, Place
from bot.service import GameService
from bot.syntax import words as w


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
