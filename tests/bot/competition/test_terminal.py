"""``titanbot tournament …`` in the terminal: a small tournament run command by command
over one database file, as an organiser without Discord would."""

from __future__ import annotations

import re

from bot.cli import main
from bot.competition.terminal import ratings_command, tournament_command


async def run(db, *words: str) -> tuple[int, str]:
    lines: list[str] = []
    status = await tournament_command(db, words, write=lines.append)
    return status, "\n".join(lines)


async def test_a_tournament_is_run_and_inspected_from_the_terminal(db_path):
    assert (await run(db_path, "create", "Spring", "players", "3-3", "heats", "1"))[0] == 0
    assert (await run(db_path, "add", "Spring", "ai", "6"))[0] == 0
    status, said = await run(db_path, "close", "Spring")
    assert status == 0 and "6 entrants" in said
    status, said = await run(db_path, "heat", "Spring")
    assert status == 0 and "Heat 1 of **Spring**: 2 tables (3-3)" in said
    assert (await run(db_path, "play", "Spring"))[0] == 0
    status, said = await run(db_path, "standings", "Spring")
    assert status == 0 and "Spring** standings" in said
    assert said.count("AI ") == 6  # every entrant has a line
    status, said = await run(db_path, "heat", "Spring")
    assert (
        status == 1
        and "has played its 1 heat: `tournament advance Spring` seats those who advance" in said
    )
    lines: list[str] = []
    assert await ratings_command(db_path, True, write=lines.append) == 0
    assert lines[0] == "the terminal: 6 ratings rebuilt from the results; all agreed."
    assert lines[1].count("AI ") == 6


async def test_an_unrated_game_says_so_and_keeps_it_in_its_settings(db_path):
    from bot.context import Caller, Place
    from bot.service import GameService

    service = await GameService.open(db_path)
    try:
        opened = await service.submit(Place(9), Caller(1, "Ann"), "new players 2 unrated")
        assert "unrated" in opened.public.text
        game = await service.game_in(9)
        assert game is not None and game.settings.rated is False
    finally:
        await service.close()


def test_the_command_line_refuses_an_unknown_tournament(tmp_path, capsys):
    status = main(["tournament", "--db", str(tmp_path / "t.sqlite3"), "standings", "Nope"])
    assert status == 1
    assert "there is no tournament 'Nope' here" in capsys.readouterr().out


async def test_the_terminal_names_its_organiser_and_heads_each_table_s_news(db_path):
    """The desk's and the tables' news share one terminal: each run of another channel's
    news is headed by the table it comes from, channels read by their tables, and the
    organiser's pings by their name (they read as numbers)."""
    for words in (("create", "Fall", "players", "2", "heats", "1"), ("join", "Fall")):
        assert (await run(db_path, *words))[0] == 0
    assert (await run(db_path, "add", "Fall", "ai", "3"))[0] == 0
    assert (await run(db_path, "close", "Fall"))[0] == 0
    status, said = await run(db_path, "heat", "Fall")
    assert status == 0
    assert not re.search(r"@\d", said), said
    assert "@organiser **Fall**, heat 1, table " in said
    lines = said.splitlines()
    headings = [line for line in lines if re.fullmatch(r"\[heat 1, table [12]\]", line)]
    assert {*headings} == {"[heat 1, table 1]", "[heat 1, table 2]"}
    for heading in headings[:2]:  # the first news of each table: its opening
        assert f"**Fall**, {heading[1:-1]}: " in lines[lines.index(heading) + 1]
    assert "all 2 tables are open: [heat 1, table 1] [heat 1, table 2]" in said
