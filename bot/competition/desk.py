"""The organiser's desk: ``tournament status|remind|extend|force|pause|resume|eliminator``.

``status`` shows every table of the current heat (or round): its game's turn, whom it
waits for and since when, its deadline; the stalled tables (waiting a day or more, or past
their deadline) first, the whole within one Discord message. The others act on the
tables' clocks (bot/schedule/): a reminder to each awaited player, a deadline put off or
brought to now (the wait ended, as the deadline would end it), a table paused (its clock
stops: no deadline falls due and no reminder is sent, RULES §12.6's time limit aside,
which is a date) and resumed. What a table is told goes to its channel
through the outbox, in the transaction of the command.
"""

from __future__ import annotations

from bot.competition.common import (
    current_heat,
    named,
    organiser,
    playing_table,
)
from bot.competition.settings import BRACKET, TournamentSettings
from bot.context import Context, Place
from bot.handlers.clock import end_wait
from bot.handlers.overview import fit, waiting_line
from bot.names import display
from bot.replies import Message, Notice, Replies
from bot.schedule.runner import reminder_text
from bot.schedule.timing import parse_duration, show_duration
from bot.storage import dms as dm_rows
from bot.storage import due
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.storage.record import Game, load_game
from bot.syntax import Args
from bot.syntax.words import user
from engine.errors import IllegalAction
from engine.words import plural


async def status(ctx: Context, args: Args) -> Replies:
    """``tournament status NAME``: the desk (organisers only)."""
    organiser(ctx.caller, "see the tournament desk")
    name = args.take("the tournament's name")
    args.finish()
    now = ctx.now()
    async with ctx.db.reading() as db:
        found = await named(db, ctx.place.guild, name)
        tables = await store.tables(db, found.id)
        entrants = await store.entrants(db, found.id)
        heat = current_heat(tables)
        shown = [t for t in tables if t.heat == heat]
        lines = [await _desk_line(db, t, now) for t in shown]
    settings = TournamentSettings.from_json(found.settings)
    stage = "round" if settings.format == BRACKET else "heat"
    head = f"**{found.name}** ({found.status}): {plural(len(entrants), 'entrant')}"
    if heat is None:
        return Replies.answer(f"{head}. No {stage} seated yet.")
    over = sum(1 for t in shown if t.status == store.DONE)
    head += f"; {stage} {heat}: {plural(len(shown), 'table')}, {over} over."
    stalled = [text for late, text in lines if late]
    rest = [text for late, text in lines if not late and text]
    if stalled:
        head += f" ⚠️ {len(stalled)} stalled:"
    return Replies.answer(fit([head, *stalled, *rest], "more table"))


async def _desk_line(db: Connection, table: store.TableRow, now: float) -> tuple[bool, str]:
    """(whether the table is stalled, its line; empty for a table that is over)."""
    head = f"- **{table.label}**"
    if table.status == store.DONE:
        return False, ""
    if table.status != store.PLAYING or table.game is None:
        return False, f"{head} {table.status}"
    head = f"{head} <#{table.channel}> game #{table.game}"
    row = await rows.game(db, table.game)
    if row is None:
        return True, f"{head}: the game is missing"
    late, text = await waiting_line(db, await load_game(db, row), now, table.paused_at)
    return late, head + text


async def _waiting(db: Connection, table: store.TableRow) -> tuple[Game, due.Clock] | None:
    """The table's game and its clock, while it waits for a player's decision."""
    if table.game is None:
        return None
    row = await rows.game(db, table.game)
    if row is None or row.status is not rows.Status.ACTIVE:
        return None
    game = await load_game(db, row)
    clock = await due.clock(db, game.id)
    if game.state is None or clock is None:
        return None
    return game, clock


async def remind(ctx: Context, args: Args) -> Replies:
    """``tournament remind NAME``: remind every player a table waits for, once each — by DM,
    or pinged in the table's channel when their DMs are closed (as the scheduler's
    reminders are; those who turned reminders off are not)."""
    organiser(ctx.caller, "remind the players")
    name = args.take("the tournament's name")
    args.finish()
    private: dict[int, Message] = {}
    notices: list[Notice] = []
    quiet = 0
    async with ctx.db.reading() as db:
        found = await named(db, ctx.place.guild, name)
        for table in await store.tables(db, found.id):
            waiting = await _waiting(db, table) if table.status == store.PLAYING else None
            if waiting is None or table.paused_at is not None or table.channel is None:
                continue
            game, clock = waiting
            player = game.user_of(clock.seat)
            if game.is_ai(clock.seat) or player in private:
                continue
            if (await due.reminder_prefs(db, player)).off:
                quiet += 1
                continue
            where = Place(table.channel, ctx.place.guild)
            text = reminder_text(game, where, clock.deadline, clock.seat)
            closed_at, dms_off = await dm_rows.dm_status(db, player)
            if closed_at is not None or dms_off:
                ping = Message(f"⏰ **{game.name_of(clock.seat)}**, {text}", mention=(player,))
                notices.append(Notice(table.channel, game.id, ping))
            private[player] = Message(f"⏰ {found.name}, at <#{table.channel}>: {text}")
    dms = {u: m for u, m in private.items() if all(u not in n.message.mention for n in notices)}
    count = len(private)
    answer = f"Reminded {plural(count, 'player')} of {found.name}"
    answer += f" ({len(notices)} in their table's channel)." if notices else "."
    if quiet:
        answer += f" {quiet} turned reminders off."
    return Replies(ephemeral=Message(answer), private=dms, elsewhere=tuple(notices))


async def extend(ctx: Context, args: Args) -> Replies:
    """``tournament extend NAME HEAT.TABLE DURATION``: the table's awaited decision gets
    ``DURATION`` more before its deadline (its reminders move with it)."""
    organiser(ctx.caller, "extend a deadline")
    name = args.take("the tournament's name")
    where = args.take("the table, like 2.3")
    seconds = parse_duration(args.take("how long, like 24h"), "an extension")
    args.finish()
    if seconds is None:
        raise IllegalAction("extend the deadline by a duration, like `24h`")
    async with ctx.db.transaction() as db:
        found = await named(db, ctx.place.guild, name)
        table = await playing_table(db, found, where)
        waiting = await _waiting(db, table)
        if waiting is None or waiting[1].deadline is None:
            raise IllegalAction(
                f"table {table.label} waits for no deadline: there is none to extend"
            )
        game, clock = waiting
        await due.shift(db, game.id, clock.decision, seconds)
        deadline = int((clock.deadline or 0) + seconds)
        await store.log(db, found.id, f"table {table.label}: deadline extended by {seconds} s")
    who = game.name_of(clock.seat)
    text = (
        f"⏳ Organiser **{display(ctx.caller.name)}** gave **{who}** "
        f"{show_duration(seconds)} more: the deadline is <t:{deadline}:R>."
    )
    assert table.channel is not None
    notice = Notice(table.channel, game.id, Message(text))
    answer = f"Table {table.label}: **{who}**'s deadline is now <t:{deadline}:R>."
    return Replies(ephemeral=Message(answer), elsewhere=(notice,))


async def force(ctx: Context, args: Args) -> Replies:
    """``tournament force NAME HEAT.TABLE``: the table's awaited decision is due now: its
    deadline passes at once and does what the table's clock says (the computer plays it,
    the least is played, or the game waits for a replacement), counting as a missed
    deadline, as it would have later."""
    organiser(ctx.caller, "force a decision")
    name = args.take("the tournament's name")
    where = args.take("the table, like 2.3")
    args.finish()
    now = ctx.now()
    async with ctx.db.transaction() as db:
        found = await named(db, ctx.place.guild, name)
        table = await playing_table(db, found, where)
        if table.paused_at is not None:
            raise IllegalAction(f"table {table.label} is paused: resume it first")
        waiting = await _waiting(db, table)
        if waiting is None:
            raise IllegalAction(f"table {table.label} waits for nobody's decision")
        game, _ = waiting
        text = await end_wait(db, game, now, display(ctx.caller.name))
        await store.log(db, found.id, f"table {table.label}: deadline brought to now")
    assert table.channel is not None
    notice = Notice(table.channel, game.id, Message(text))
    answer = f"Table {table.label}: {text}"
    return Replies(ephemeral=Message(answer), elsewhere=(notice,))


async def pause(ctx: Context, args: Args) -> Replies:
    """``tournament pause NAME [HEAT.TABLE]``: stop one table's clock, or every table's."""
    return await _pausing(ctx, args, pausing=True)


async def resume(ctx: Context, args: Args) -> Replies:
    """``tournament resume NAME [HEAT.TABLE]``: the clocks run again, the decision waited
    for keeping the time it had left when paused."""
    return await _pausing(ctx, args, pausing=False)


async def _pausing(ctx: Context, args: Args, *, pausing: bool) -> Replies:
    verb = "pause" if pausing else "resume"
    organiser(ctx.caller, f"{verb} tables")
    name = args.take("the tournament's name")
    where = args.take("the table, like 2.3") if args.peek() is not None else None
    args.finish()
    now = ctx.now()
    by = display(ctx.caller.name)
    notices: list[Notice] = []
    async with ctx.db.transaction() as db:
        found = await named(db, ctx.place.guild, name)
        if where is not None:
            chosen = [await playing_table(db, found, where)]
        else:
            chosen = [t for t in await store.tables(db, found.id) if t.status == store.PLAYING]
        for table in chosen:
            if table.game is None or table.channel is None:
                continue
            if (table.paused_at is not None) == pausing:
                if where is not None:
                    raise IllegalAction(f"table {table.label} is {verb}d already")
                continue
            if pausing:
                await due.pause(db, table.game)
                await store.set_paused(db, found.id, table.heat, table.number, now)
                text = (
                    f"⏸ Organiser **{by}** paused this table: no deadline and no reminder "
                    "until it resumes."
                )
            else:
                text = f"▶️ Organiser **{by}** resumed this table: its clock runs again."
                clock = await due.clock(db, table.game)
                since = max(table.paused_at or now, clock.since if clock else now)
                await due.resume(db, table.game, max(0.0, now - since))
                await store.set_paused(db, found.id, table.heat, table.number, None)
                clock = await due.clock(db, table.game)
                if clock is not None and clock.deadline is not None:
                    text += f" The deadline is <t:{int(clock.deadline)}:R>."
            notices.append(Notice(table.channel, table.game, Message(text)))
        if notices:
            labels = ", ".join(t.label for t in chosen)
            await store.log(db, found.id, f"{verb}d by {by}: {labels}")
    count = len(notices)
    answer = f"{plural(count, 'table')} of {found.name} {verb}d."
    return Replies(ephemeral=Message(answer), elsewhere=tuple(notices))


async def eliminator(ctx: Context, args: Args) -> Replies:
    """``tournament eliminator NAME @user``: from the next heat on the entrant plays as an
    eliminator only (their games count for the others, not for their own standing)."""
    organiser(ctx.caller, "make an entrant an eliminator")
    name = args.take("the tournament's name")
    who = user(args.take("@user"))
    args.finish()
    async with ctx.db.transaction() as db:
        found = await named(db, ctx.place.guild, name)
        settings = TournamentSettings.from_json(found.settings)
        if settings.format == BRACKET:
            raise IllegalAction("a bracket has no eliminators: each match knocks one player out")
        if found.status == store.OVER:
            raise IllegalAction(f"{found.name} is over")
        entrant = next((e for e in await store.entrants(db, found.id) if e.user == who), None)
        if entrant is None:
            raise IllegalAction(f"<@{who}> is not an entrant of {found.name}")
        heat = (current_heat(await store.tables(db, found.id)) or 0) + 1
        await store.set_eliminator(db, found.id, who, heat)
        await store.log(db, found.id, f"<@{who}> plays as an eliminator from heat {heat}")
    text = f"**{entrant.name}** plays {found.name} as an eliminator from heat {heat} on."
    return Replies(public=Message(text))
