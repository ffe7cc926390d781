"""A tournament's ``autostrike off|forced|all`` (the most a player's autostrike makes at its
tables) and ``away DAYS`` (the most days time away stops their clocks): told when it is
created, carried by its tables' games."""

from __future__ import annotations

import pytest

from bot.competition.settings import TournamentSettings, read_settings
from bot.context import Caller, Place
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.record import NO_CLOCK, Settings
from bot.syntax import Args
from engine.errors import InvalidNotation

HERE = Place(5)
ORGANISER = Caller(300_000_000_000_000_001, "Org", organiser=True)


async def test_the_tables_of_a_tournament_get_its_autostrike_and_time_away(service):
    create = "tournament create Spring players 2 heats 1 autostrike forced away 0"
    made = await service.submit(HERE, ORGANISER, create)
    assert not made.error, made.ephemeral
    assert made.public is not None and "autostrike at most forced" in made.public.text
    assert "time away stops no clock" in made.public.text
    for text in ("tournament add Spring ai 2", "tournament close Spring", "tournament heat Spring"):
        assert not (await service.submit(HERE, ORGANISER, text)).error, text
    await service.tables.idle()  # the heat's tables open
    async with service.db.reading() as db:
        found = await store.named(db, None, "Spring")
        assert found is not None
        [table] = await store.tables(db, found.id)
        assert table.game is not None
        row = await rows.game(db, table.game)
    assert row is not None
    settings = Settings.from_json(row.settings)
    assert settings.autostrike == "forced" and settings.timing.away_days == 0
    await service.ai.idle()


def test_autostrike_is_all_unless_the_organiser_says_less_and_refuses_other_words() -> None:
    assert read_settings(Args("tournament", []), NO_CLOCK, 0.0).autostrike == "all"
    chosen = read_settings(Args("tournament", ["autostrike", "off"]), NO_CLOCK, 0.0)
    assert chosen.autostrike == "off" and "autostrike at most off" in chosen.describe()
    assert "autostrike" not in TournamentSettings().describe()
    with pytest.raises(InvalidNotation, match="off, forced or all"):
        read_settings(Args("tournament", ["autostrike", "sometimes"]), NO_CLOCK, 0.0)
    assert Settings.from_json({"host": 1}).autostrike == "all"  # a game stored before it
