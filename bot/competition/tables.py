"""Opening a heat's tables: one channel (or private thread) per table, then its game.

``tournament heat`` stores the tables as *opening*; the opener works through them one at
a time: the transport opens the table's place (idempotently, by its name: a crash between
opening it and keeping its id opens nothing twice), then the table's game is created,
seated and started there in one transaction with its news, which pings its players. The
opener runs after the heat is seated and again at start-up, so a bot stopped halfway
finishes the job. Discord's pace is the transport's (it waits out a 429).

The tournament's channel is told how it goes in one line that counts up ("7 of 10
tables open…") and ends with the tables' places: each report takes the place of the
last (:attr:`~bot.replies.Message.progress`: the outbox edits the message), at most one
a table and one every :data:`REPORT_EVERY` seconds, well within the edits Discord allows
a channel (about 5 in 5 s).
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.competition.settings import BRACKET, TournamentSettings
from bot.context import Caller, Context, Place
from bot.handlers.lobby import start
from bot.outbox.transport import Refused, Retry
from bot.ports import GameHost
from bot.replies import Message, Replies
from bot.storage import SeatRow, Status, leases
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.record import Game, Settings, TableRef
from bot.syntax import Args

log = logging.getLogger(__name__)

TOURNAMENT = Caller(0, "titanbot", organiser=True, on_behalf=True)
"""Who opens and starts a tournament's tables."""
TABLE_CHANNELS = 8_000_000_000
"""Where the channel numbers of tables opened without a transport (tests, tools) start."""
MOST_RETRIES = 8
TABLES_LEASE = 300.0
"""Seconds a process keeps the right to open tables without renewing it (opening one
table waits out Discord's pace, which may take a minute)."""
REPORT_EVERY = 1.0
"""Seconds between two reports of a heat's tables opening (the last one always goes)."""


def table_name(settings: TournamentSettings, table: store.TableRow) -> str:
    """The table's channel name: only public things (the heat and the table's number)."""
    if settings.format == BRACKET:
        return f"round-{table.heat}-match-{table.number:02d}"
    return f"heat-{table.heat}-table-{table.number:02d}"


def category_name(tournament: store.TournamentRow) -> str:
    return f"{tournament.name} tables"[:100]


class TableOpener:
    """Opens every stored *opening* table, one at a time, in one background task."""

    def __init__(self, service: GameHost) -> None:
        self.service = service
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._reported: dict[tuple[int, int], float] = {}
        """When each (tournament, heat) was last reported (monotonic seconds)."""
        self._told_damage: set[tuple[int, int, int]] = set()
        """The damaged tables (tournament, heat, number) whose tournament was told so."""

    def wake(self) -> None:
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.create_task(self._run())

    async def idle(self) -> None:
        """Wait until every table asked for is open (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            self._again = False
            await self.open_all()
            if not self._again:
                return

    async def open_all(self) -> int:
        """Open the tables waiting to be; how many were opened. On a shared database one
        process at a time opens tables (it holds their lease; the others leave them)."""
        if not await self._hold():
            return 0
        try:
            return await self._open_waiting()
        finally:
            await self._let_go()

    async def _hold(self) -> bool:
        if not self.service.db.shared:
            return True
        async with self.service.db.transaction() as db:
            return await leases.take(
                db, leases.TABLES, self.service.holder, time.time(), TABLES_LEASE
            )

    async def _let_go(self) -> None:
        if self.service.db.shared:
            async with self.service.db.transaction() as db:
                await leases.give_up(db, leases.TABLES, self.service.holder)

    async def _open_waiting(self) -> int:
        """Open the waiting tables, tournament by tournament: a table that cannot open (its
        row damaged, a refusal, a failure) holds up the rest of its own tournament only."""
        async with self.service.db.reading() as db:
            waiting = await store.opening_tables(db)
            damaged = await store.unreadable_opening_tables(db)
        held = {tournament_id for tournament_id, *_ in damaged}
        for tournament_id, heat, number, reason in damaged:
            await self._tell_damage(tournament_id, heat, number, reason)
        opened = 0
        for tournament_id, table in waiting:
            if tournament_id in held:
                continue
            if not await self._hold():  # renewed table by table; lost: another took over
                return opened
            await self._report(tournament_id, table.heat, first=True)
            try:
                opened += await self._open(tournament_id, table)
                await self._report(tournament_id, table.heat)
            except Refused as exc:
                await self._tell(tournament_id, f"⚠️ Table {table.number} could not open: {exc}")
                held.add(tournament_id)
            except Exception:
                log.exception("tournament %s: table %s failed", tournament_id, table.number)
                held.add(tournament_id)
        for tournament_id, heat in dict.fromkeys((t, table.heat) for t, table in waiting):
            if tournament_id not in held:
                await self._report(tournament_id, heat, last=True)
        return opened

    async def _tell_damage(self, tournament_id: int, heat: int, number: int, reason: str) -> None:
        """Tell the tournament's channel, once, that a table of it cannot open because its
        row is damaged, and what to do."""
        if (tournament_id, heat, number) in self._told_damage:
            return
        self._told_damage.add((tournament_id, heat, number))
        log.warning(
            "tournament %s: table %s.%s is damaged: %s", tournament_id, heat, number, reason
        )
        await self._tell(
            tournament_id,
            f"⚠️ Table {heat}.{number} cannot open: its stored row is damaged ({reason}). The "
            "other tournaments go on; the bot's operator can list every damaged row with "
            "`titanbot check-db` and mend it (or restore a backup).",
        )

    async def _report(
        self, tournament_id: int, heat: int, *, first: bool = False, last: bool = False
    ) -> None:
        """Tell the tournament's channel how many of the heat's tables are open, and where
        they are once all are: ``first`` only if not yet reported, then at most once every
        :data:`REPORT_EVERY` seconds, and the ``last`` report always."""
        key, now = (tournament_id, heat), time.monotonic()
        since = self._reported.get(key)
        if (first and since is not None) or (
            not first and not last and since is not None and now - since < REPORT_EVERY
        ):
            return
        async with self.service.db.reading() as db:
            tournament = await store.by_id(db, tournament_id)
            tables = await store.tables(db, tournament_id, heat)
        if tournament is None or not tables:
            return
        self._reported[key] = now
        settings = TournamentSettings.from_json(tournament.settings)
        what = "matches" if settings.format == BRACKET else "tables"
        stage = "round" if settings.format == BRACKET else "heat"
        head = f"🪑 {stage.capitalize()} {heat} of **{tournament.name}**:"
        opened = [t for t in tables if t.status != store.OPENING]
        if len(opened) < len(tables):
            text = f"{head} {len(opened)} of {len(tables)} {what} open…"
        else:
            shown = [t for t in tables if t.channel is not None]  # a bracket's byes have none
            places = " ".join(f"<#{t.channel}>" for t in shown)
            text = f"{head} all {len(shown)} {what} are open: {places}"
            self._reported.pop(key, None)
        await self._tell(tournament_id, text, progress=head)

    async def _open(self, tournament_id: int, table: store.TableRow) -> int:
        async with self.service.db.reading() as db:
            tournament = await store.by_id(db, tournament_id)
        if tournament is None:
            return 0
        settings = TournamentSettings.from_json(tournament.settings)
        channel = await self._place(tournament, settings, table)
        replies = await self.service.change(
            Place(channel, tournament.guild), TOURNAMENT, _starter(tournament, settings, table)
        )
        if replies.error:
            text = replies.ephemeral.text if replies.ephemeral else "refused"
            await self._tell(tournament.id, f"⚠️ Table {table.number} could not start: {text}")
            return 0
        return 1

    async def _place(
        self, tournament: store.TournamentRow, settings: TournamentSettings, table: store.TableRow
    ) -> int:
        name = table_name(settings, table)
        deliverer = self.service.deliverer
        if deliverer is None or tournament.guild is None:
            key = f"{tournament.id}:{name}".encode()
            return TABLE_CHANNELS + tournament.id * 100_000 + zlib.crc32(key) % 100_000
        humans = tuple(u for u in table.players if u > 0)
        for attempt in range(MOST_RETRIES):
            try:
                return await deliverer.transport.open_table(
                    tournament.guild,
                    category_name(tournament),
                    name,
                    humans,
                    settings.threads,
                    tournament.channel,
                )
            except Retry as exc:
                await asyncio.sleep(exc.after if exc.after is not None else 2.0**attempt)
        raise Refused(f"Discord kept refusing to open {name}; try `tournament heat` later")

    async def _tell(self, tournament_id: int, text: str, progress: str | None = None) -> None:
        async with self.service.db.reading() as db:
            tournament = await store.by_id(db, tournament_id)
        if tournament is None:
            return
        place = Place(tournament.channel, tournament.guild)
        await self.service.announce(place, Replies(public=Message(text, progress=progress)))


def _starter(
    tournament: store.TournamentRow, settings: TournamentSettings, table: store.TableRow
) -> Callable[[Context, Game | None], Awaitable[Replies]]:
    """The work that creates, seats and starts the table's game in its channel."""

    async def work(ctx: Context, game: Game | None) -> Replies:
        ref = TableRef(tournament.id, table.heat, table.number)
        if game is not None and game.settings.table == ref:  # started, then stopped
            async with ctx.db.transaction() as db:
                await store.table_opened(
                    db, tournament.id, table.heat, table.number, ctx.place.channel, game.id
                )
            return Replies()
        if game is not None:
            return Replies.refusal(f"game #{game.id} is open in that channel already")
        async with ctx.db.reading() as db:
            entrants = {e.user: e.name for e in await store.entrants(db, tournament.id)}
        seats = [
            SeatRow(seat, user, entrants.get(user, f"Player {seat + 1}"))
            for seat, user in enumerate(table.players)
        ]
        humans = [u for u in table.players if u > 0]
        game_settings = Settings(
            host=humans[0] if humans else 0,
            players=len(seats),
            record_keeping=settings.record_keeping,
            time_limit=settings.time_limit,
            timing=settings.timing,
            rated=settings.rated,
            table=ref,
            two_player_rules=settings.two_player_rules and len(seats) == 2,
            autostrike=settings.autostrike,
        )
        async with ctx.db.transaction() as db:
            game_id = await rows.create_game(
                db, ctx.place.channel, ctx.place.guild, game_settings.to_json()
            )
            await rows.set_seats(db, game_id, seats)
        async with ctx.db.reading() as db:
            row = await rows.game(db, game_id)
        assert row is not None and row.status is Status.LOBBY
        lobby = Game(row, tuple(seats))
        replies = await start(ctx, lobby, Args("start", []))
        async with ctx.db.transaction() as db:
            await store.table_opened(
                db, tournament.id, table.heat, table.number, ctx.place.channel, game_id
            )
        what = "match" if settings.format == BRACKET else "table"
        who = ", ".join(f"<@{s.user}>" if s.user > 0 else s.name for s in seats)
        stage = "round" if settings.format == BRACKET else "heat"
        head = f"**{tournament.name}**, {stage} {table.heat}, {what} {table.number}: {who}."
        public = replies.public
        assert public is not None
        text = f"{head}\n{public.text}"
        mention = tuple(dict.fromkeys((*humans, *public.mention)))
        return replace(replies, public=replace(public, text=text, mention=mention))

    return work
