"""The organiser's desk on a test's clock: the tables of a heat of human entrants (who never
answer), stalled tables first, reminders, an extended deadline, a wait ended now, paused
and resumed clocks,
an eliminator; every organiser command refused to a player, with the reason."""

from __future__ import annotations

import re
from collections import Counter

from bot.context import Caller, Place
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import due, outbox
from bot.storage import tournaments as store
from bot.syntax import format_action
from engine.game.legal import legal_actions, to_act

HERE = Place(5)
ORGANISER = Caller(300_000_000_000_000_001, "Org", organiser=True)
PLAYERS = [300_000_000_000_000_100 + i for i in range(7)]
PLAYER = Caller(PLAYERS[0], "P0")
HOUR = 3600.0


async def run(service: GameService, text: str, caller: Caller = ORGANISER) -> str:
    replies = await service.submit(HERE, caller, text)
    assert not replies.error, (text, replies.ephemeral)
    message = replies.ephemeral or replies.public
    return message.text if message is not None else ""


async def seated(
    service: GameService, entrants: int = 7, options: str = ""
) -> list[store.TableRow]:
    """A tournament W of human entrants (created with ``options`` too), its first heat
    seated and open."""
    mentions = " ".join(f"<@{u}>" for u in PLAYERS[:entrants])
    for text in (
        f"tournament create W players 3-4 deadline 24h {options}",
        f"tournament add W {mentions}",
        "tournament close W",
        "tournament heat W",
    ):
        await run(service, text)
    await service.tables.idle()
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
        assert found is not None
        return await store.tables(db, found.id)


async def posts(service: GameService, channel: int) -> list[str]:
    async with service.db.reading() as db:
        return [r.body for r in await outbox.waiting(db, channel) if r.kind == "post"]


async def dms(service: GameService) -> dict[int | None, list[str]]:
    async with service.db.reading() as db:
        rows = [r for r in await outbox.waiting(db, HERE.channel) if r.kind == "dm"]
    found: dict[int | None, list[str]] = {}
    for row in rows:
        found.setdefault(row.recipient, []).append(row.body)
    return found


async def awaited(service: GameService, table: store.TableRow) -> int:
    """The user the table's game waits for."""
    assert table.game is not None
    async with service.db.reading() as db:
        clock = await due.clock(db, table.game)
        assert clock is not None
        async with db.execute(
            "SELECT user FROM seats WHERE game = ? AND seat = ?", (table.game, clock.seat)
        ) as cursor:
            row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


ORGANISER_COMMANDS = (
    "tournament advance W",
    "tournament adjudicate W 1.1 score they agreed",
    f"tournament replace W <@{PLAYERS[1]}> <@{PLAYERS[0] + 50}>",
    "tournament status W",
    "tournament remind W",
    "tournament extend W 1.1 24h",
    "tournament force W 1.1",
    "tournament pause W",
    "tournament pause W 1.1",
    "tournament resume W",
    f"tournament eliminator W <@{PLAYERS[1]}>",
)


async def test_the_tables_computer_stands_in_at_the_tournaments_level(service):
    tables = await seated(service, options="standin normal")
    for table in tables:
        assert table.channel is not None
        game = await service.game_in(table.channel)
        assert game is not None and game.settings.timing.stand_in == "normal"
    refused = await service.submit(HERE, ORGANISER, "tournament create V standin genius")
    assert refused.error and "easy**, **normal** or **hard" in refused.ephemeral.text


async def test_a_player_is_refused_every_organiser_command(service):
    await seated(service)
    for text in ORGANISER_COMMANDS:
        replies = await service.submit(HERE, PLAYER, text)
        assert replies.error, text
        assert replies.ephemeral is not None
        assert "only an organiser may" in replies.ephemeral.text, (text, replies.ephemeral)


async def test_the_desk_lists_each_table_stalled_ones_first(service, clock):
    tables = await seated(service)
    assert [len(t.players) for t in tables] == [4, 3]
    desk = await run(service, "tournament status W")
    assert "heat 1: 2 tables, 0 over" in desk
    assert "**1.1**" in desk and "**1.2**" in desk and "stalled" not in desk
    assert "since <t:" in desk and "deadline <t:" in desk
    clock.advance(25 * HOUR)
    desk = await run(service, "tournament status W")
    assert "⚠️ 2 stalled" in desk
    assert len(desk) <= 2000


async def test_the_desk_tells_each_table_s_game_turn_and_whose_it_is(service):
    tables = await seated(service)
    desk = await run(service, "tournament status W")
    assert desk.count(": waits for **") == 2 and desk.count(", before turn 1: waits for **") == 2
    table = tables[1]
    assert table.channel is not None
    for _ in range(len(table.players)):  # the colours are chosen
        game = await service.game_in(table.channel)
        assert game is not None and game.state is not None
        seat = to_act(game.state)
        assert seat is not None
        choice = format_action(legal_actions(game.state, seat)[0])
        who = Caller(game.user_of(seat), game.name_of(seat))
        assert not (await service.submit(Place(table.channel), who, choice)).error
    game = await service.game_in(table.channel)
    assert game is not None and game.state is not None
    first = game.name_of(game.state.active)
    desk = await run(service, "tournament status W")
    assert f", turn 1, {first}'s: waits for **{first}** to split" in desk


async def test_remind_tells_each_awaited_player_once(service):
    tables = await seated(service)
    first, second = [await awaited(service, t) for t in tables]
    await service.set_dms_closed(second)  # they are pinged in the channel
    answer = await run(service, "tournament remind W")
    assert answer.startswith("Reminded 2 players of W (1 in their table's channel)")
    sent = await dms(service)
    assert list(sent) == [first]
    assert "waits for you" in sent[first][0]
    assert tables[1].channel is not None
    assert any("waits for you" in p for p in await posts(service, tables[1].channel))


async def test_extend_puts_the_deadline_off(service, clock):
    tables = await seated(service)
    game = tables[0].game
    assert game is not None and tables[0].channel is not None
    async with service.db.reading() as db:
        before = await due.clock(db, game)
    assert before is not None and before.deadline is not None
    answer = await run(service, "tournament extend W 1.1 12h")
    assert f"<t:{int(before.deadline + 12 * HOUR)}:R>" in answer
    async with service.db.reading() as db:
        after = await due.clock(db, game)
        pending = await due.pending(db, game)
    assert after is not None and after.deadline == before.deadline + 12 * HOUR
    assert max(i.at for i in pending) == after.deadline
    assert any("12h more" in p for p in await posts(service, tables[0].channel))
    refused = await service.submit(HERE, ORGANISER, "tournament extend W 1.9 12h")
    assert refused.error and "no table 1.9" in refused.ephemeral.text  # type: ignore[union-attr]


async def test_force_ends_a_table_s_wait_now_as_its_deadline_would(service, clock):
    """The deadline passes at once: the computer plays the decision (the table's clock
    says so), counted as a missed deadline; the other table waits on."""
    tables = await seated(service)
    game, other = tables[0].game, tables[1].game
    assert game is not None and other is not None and tables[0].channel is not None
    late = await awaited(service, tables[0])
    before = await service.game_in(tables[0].channel)
    assert before is not None
    clock.advance(HOUR)
    answer = await run(service, "tournament force W 1.1")
    assert answer.startswith("Table 1.1: ") and "passes now (the computer plays)" in answer
    assert any("ended the wait for" in p for p in await posts(service, tables[0].channel))
    await Scheduler(service).run_due()
    seat = await seat_of(service, game, late)
    async with service.db.reading() as db:
        assert [o[0] for o in await due.outcomes(db, game)].count("deadline") == 1
        assert [o for o in await due.outcomes(db, other) if o[0] == "deadline"] == []
        missed = await due.absence(db, game, seat)
    assert missed is not None and missed.count == 1
    after = await service.game_in(tables[0].channel)
    assert after is not None and after.n > before.n  # the computer played the decision
    paused = await run(service, "tournament pause W 1.2")
    assert paused == "1 table of W paused."
    refused = await service.submit(HERE, ORGANISER, "tournament force W 1.2")
    assert refused.error and "resume it first" in refused.ephemeral.text  # type: ignore[union-attr]
    assert tables[1].channel is not None  # nor at the table itself (/titan-admin force)
    there = await service.submit(Place(tables[1].channel), ORGANISER, "force")
    assert there.error and "resume it first" in there.ephemeral.text  # type: ignore[union-attr]


async def seat_of(service: GameService, game: int, user: int) -> int:
    async with (
        service.db.reading() as db,
        db.execute("SELECT seat FROM seats WHERE game = ? AND user = ?", (game, user)) as cursor,
    ):
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def test_a_paused_table_keeps_its_time_and_times_out_only_after_resuming(service, clock):
    tables = await seated(service)
    game = tables[0].game
    assert game is not None and tables[0].channel is not None
    async with service.db.reading() as db:
        before = await due.clock(db, game)
    assert before is not None and before.deadline is not None
    clock.advance(10 * HOUR)
    assert await run(service, "tournament pause W 1.1") == "1 table of W paused."
    assert any("paused this table" in p for p in await posts(service, tables[0].channel))
    clock.advance(30 * HOUR)  # the deadline would have passed
    await Scheduler(service).run_due()
    async with service.db.reading() as db:
        assert [o for o in await due.outcomes(db, game) if o[0] == "deadline"] == []
    assert "paused" in await run(service, "tournament status W")
    assert await run(service, "tournament resume W") == "1 table of W resumed."
    async with service.db.reading() as db:
        after = await due.clock(db, game)
    assert after is not None and after.deadline == before.deadline + 30 * HOUR
    clock.advance(14 * HOUR + 1)
    await Scheduler(service).run_due()
    async with service.db.reading() as db:
        assert [o[0] for o in await due.outcomes(db, game)].count("deadline") == 1


async def test_pausing_every_table_and_resuming_them(service):
    tables = await seated(service)
    assert await run(service, "tournament pause W") == "2 tables of W paused."
    assert await run(service, "tournament pause W") == "0 tables of W paused."
    refused = await service.submit(HERE, ORGANISER, "tournament pause W 1.2")
    assert refused.error and "paused already" in refused.ephemeral.text  # type: ignore[union-attr]
    assert await run(service, "tournament resume W") == "2 tables of W resumed."
    for table in tables:
        assert table.channel is not None
        assert any("resumed this table" in p for p in await posts(service, table.channel))


async def test_an_eliminator_from_the_next_heat(service):
    await seated(service)
    text = await run(service, f"tournament eliminator W <@{PLAYERS[2]}>")
    assert "from heat 2 on" in text
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
        assert found is not None
        entrants = {e.user: e.eliminator_from for e in await store.entrants(db, found.id)}
    assert entrants[PLAYERS[2]] == 2 and entrants[PLAYERS[3]] is None
    refused = await service.submit(HERE, ORGANISER, "tournament eliminator W <@12345678901234567>")
    assert refused.error and "not an entrant" in refused.ephemeral.text  # type: ignore[union-attr]


async def test_a_table_whose_player_misses_deadlines_in_a_row_is_told_to_the_desk_once(
    service, clock
):
    """Issue 21: the organisers are told once for each absent seat, in the tournament's
    channel, with the command that replaces it; the desk shows the seat absent since when."""
    tables = await seated(service)
    scheduler = Scheduler(service)
    for _ in range(30):  # nobody ever answers: each seat's passed deadlines, in a row
        clock.advance(25 * HOUR)
        await scheduler.run_due()
    told = [p for p in await posts(service, HERE.channel) if "deadlines in a row" in p]
    assert told and all("tournament replace W" in p for p in told)
    assert all(any(f"<#{t.channel}>" in p for t in tables) for p in told)  # the table's
    seats = Counter(re.findall(r"\*\*(<@\d+>)\*\* has missed", "\n".join(told)))
    assert seats and set(seats.values()) == {1}, seats  # each absent seat told once
    desk = await run(service, "tournament status W")
    assert "💤" in desk and "absent since <t:" in desk
