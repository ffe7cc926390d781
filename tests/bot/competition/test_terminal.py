"""``titanbot tournament …`` in the terminal: a small tournament run command by command
over one database file, as an organiser without Discord would."""

from __future__ import annotations

from bot.cli import main
from bot.competition.terminal import tournament_command


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
    assert status == 1 and "has played its 1 heats" in said


def test_the_command_line_refuses_an_unknown_tournament(tmp_path, capsys):
    status = main(["tournament", "--db", str(tmp_path / "t.sqlite3"), "standings", "Nope"])
    assert status == 1
    assert "there is no tournament 'Nope' here" in capsys.readouterr().out
