"""A damaged row of a tournament (its settings, a table's players, a result) makes that
tournament answer with the damage notice (what is damaged, what to do), never an apology;
another tournament goes on."""

from __future__ import annotations

from bot.records.diagnosis import tournament_damage_notice
from bot.service import GameService
from bot.storage.backends import Target
from tests.bot.competition.test_desk import HERE, ORGANISER, posts, run, seated
from tests.bot.tampering import execute, query

OTHER = "tournament create V players 3-4"


async def told(service: GameService, text: str) -> tuple[bool, str]:
    """Whether ``text`` was refused (never with the apology of a fault), and what it said."""
    replies = await service.submit(HERE, ORGANISER, text)
    assert not replies.fault, replies
    message = replies.ephemeral or replies.public
    assert message is not None
    return replies.error, message.text


async def damaged(service: GameService, reason: str, *commands: str) -> None:
    """Each of ``commands`` on W answers with W's notice; V's status as before."""
    for command in commands:
        assert await told(service, command) == (True, tournament_damage_notice("W", reason))
    refused, text = await told(service, "tournament status V")
    assert not refused and "V" in text


def w_id(target: Target) -> int:
    ((found,),) = query(target, "SELECT id FROM tournaments WHERE name = 'W'")
    return int(found)


async def test_garbage_settings_get_the_damage_notice(service, db_target):
    await seated(service)
    await run(service, OTHER)
    w = w_id(db_target)
    execute(db_target, "UPDATE tournaments SET settings = 'garbage' WHERE id = ?", w)
    reason = await _reason(service, "tournament status W")
    assert reason is not None
    assert reason.startswith(f"tournament #{w}: its settings cannot be read (")
    await damaged(service, reason, "tournament status W", "tournament standings W")
    assert await service.tournament_names(None) == ["V", "W"]


async def test_garbage_players_of_a_table_get_the_damage_notice(service, db_target):
    await seated(service)
    await run(service, OTHER)
    w = w_id(db_target)
    execute(
        db_target,
        "UPDATE tables SET players = '[1, 2' WHERE tournament = ? AND heat = 1 AND number = 2",
        w,
    )
    reason = f"table 1.2 of tournament #{w}: its players '[1, 2' cannot be read"
    await damaged(service, reason, "tournament status W")


async def test_a_garbage_result_gets_the_damage_notice(service, db_target):
    tables = await seated(service)
    await run(service, OTHER)
    await run(service, "tournament adjudicate W 1.1 score the time is up")
    game = tables[0].game
    execute(db_target, "UPDATE results SET result = '{\"places\": 7}' WHERE game = ?", game)
    reason = await _reason(service, "tournament standings W")
    assert reason is not None
    assert reason.startswith(f"the result of game #{game}: it cannot be read (")
    await damaged(service, reason, "tournament standings W")


async def _reason(service: GameService, command: str) -> str | None:
    """The reason W's notice gives for ``command`` (None: no notice)."""
    refused, text = await told(service, command)
    head, tail = "Tournament W is damaged (", tournament_damage_notice("W", "").split("()")[1]
    if not refused or not text.startswith(head) or not text.endswith(tail):
        return None
    return text[len(head) : -len(tail) - 1]


async def test_a_garbage_rated_result_gets_the_ratings_damage_notice(service, db_target):
    tables = await seated(service)
    await run(service, "tournament adjudicate W 1.1 score the time is up")
    game, player = tables[0].game, tables[0].players[0]
    execute(db_target, "UPDATE results SET result = '[]' WHERE game = ?", game)
    refused, text = await told(service, f"rating <@{player}>")
    assert refused
    head = f"The ratings of this server are damaged (the result of game #{game}: it cannot be"
    assert text.startswith(head), text
    assert text.endswith(
        "Games and tournaments go on; the bot's operator can list every damaged row with "
        "`titanbot check-db`, mend them, then rebuild the ratings with "
        "`titanbot ratings --rebuild`."
    )
    refused, text = await told(service, "ratings")  # the stored ratings read as before
    assert not refused and text.startswith("Ratings (")


async def test_a_damaged_table_waiting_to_open_holds_up_its_own_tournament_only(service, db_target):
    await seated(service)
    w = w_id(db_target)
    garbage = (
        "UPDATE tables SET status = 'opening', players = '[1, 2'"
        " WHERE tournament = ? AND heat = 1 AND number = 2"
    )
    assert execute(db_target, garbage, w) == 1
    others = " ".join(f"<@{300_000_000_000_000_700 + i}>" for i in range(3))
    for text in (OTHER, f"tournament add V {others}", "tournament close V", "tournament heat V"):
        await run(service, text)
    await service.tables.idle()
    ((v_open,),) = query(
        db_target,
        "SELECT count(*) FROM tables JOIN tournaments ON tournaments.id = tables.tournament"
        " WHERE tournaments.name = 'V' AND tables.status = 'playing' AND game IS NOT NULL",
    )
    assert v_open == 1  # V's table opened all the same
    notice = "⚠️ Table 1.2 cannot open: its stored row is damaged (its players cannot be read"
    assert sum(notice in p for p in await posts(service, HERE.channel)) == 1
    service.tables.wake()  # looked at again: W's channel is not told twice
    await service.tables.idle()
    assert sum(notice in p for p in await posts(service, HERE.channel)) == 1
