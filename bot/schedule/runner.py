"""What a due item does when it falls due: remind, time out, or end a time limit.

Each item is checked against the game as it is now, under the channel's lock: a reminder
or deadline of a decision already made, or of a game no longer played, is marked done and
does nothing. Marking an item done is part of the transaction that acts on it — for a
timeout whose decision takes several actions (a whole movement phase), the one that makes
the decision — so a crash never acts twice: after a restart an item not marked done is
looked at again, and a timeout goes on only while its decision still waits (its first
actions already stored and told, the rest played). Everything said goes through the
outbox.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from functools import partial

from bot.context import Place
from bot.narration.awaited import awaited
from bot.ports import GameHost
from bot.replies import Message, Notice, Replies
from bot.schedule.decisions import decision_of
from bot.schedule.planner import EXPIRE, STANDIN_AI, covered
from bot.schedule.proxy import play_for
from bot.schedule.quiet import QuietHours
from bot.schedule.standins import standin_applies
from bot.schedule.timeouts import INACTIVITY, PAUSE, timeout_action, timeout_note
from bot.storage import Status, dms, readers
from bot.storage import due as items
from bot.storage import games as rows
from bot.storage import tournaments as tables
from bot.storage.connection import Connection
from bot.storage.due import DEADLINE, REMINDER, DueItem
from bot.storage.record import Game
from engine.ai.levels import Level
from engine.game import actions as a
from engine.game.forced import concession_window, forced_action, strike_decision
from engine.game.state import GameState, Phase

log = logging.getLogger(__name__)

COLOURS_WAIT = 600.0
"""Seconds a time limit that falls while colours are chosen waits before it is tried again."""


@dataclass
class DueRunner:
    """Acts on due items through the service (its locks, its units, its outbox)."""

    service: GameHost

    async def run(self, item: DueItem) -> str:
        """Act on ``item`` if it still applies; what became of it."""
        service = self.service
        async with service.db.reading() as db:
            row = await rows.game(db, item.game)
        if row is None or row.status is not Status.ACTIVE:
            return await self._finish(item, "the game is not being played")
        place = Place(row.channel, row.guild)
        async with service.lock(row.channel):
            async with service.db.reading() as db:  # acted on meanwhile (another run_due)?
                if not await items.still_pending(db, item.id, self._now()):
                    return "already acted on"
            game = await service.game_in(row.channel)
            if game is None or game.id != item.game or game.state is None:
                return await self._finish(item, "the game is not being played")
            if item.kind == items.TIME_LIMIT:
                return await self._time_limit(place, game, item)
            async with service.db.reading() as db:
                clock = await items.clock(db, game.id)
            if clock is None or clock.decision != item.decision:
                return await self._finish(item, "the decision was made")
            async with service.db.reading() as db:
                paused = await tables.paused_since(db, game.id)
            if paused is not None:  # its clock stands still until the organiser resumes
                async with service.db.transaction() as db:
                    await items.postpone(db, item.id, item.at + items.PAUSED)
                return "postponed: the table is paused"
            away = await self._away(game, clock)
            if away is not None and away.standin == STANDIN_AI:
                if item.kind == REMINDER:
                    return await self._finish(item, "away: the computer stands in")
                return await self._stand_in(place, game, item)
            standin = away.standin_user if away is not None else None
            async with service.db.reading() as db:
                read = await readers.readers(db, game.id) if standin is not None else frozenset()
            if not standin_applies(game, standin, read):
                standin = None
            back = away.stops(game.settings.timing.away_days) if away is not None else 0.0
            if standin is None and away is not None and back > self._now():  # clocks stop
                start = max(clock.since, away.since)
                later = back + max(0.0, item.at - start)
                async with service.db.transaction() as db:
                    await items.postpone(db, item.id, later)
                return "postponed: the player is away"
            if item.kind == REMINDER:
                return await self._remind(place, game, item, clock.deadline, standin)
            if item.kind == DEADLINE:
                return await self._time_out(place, game, item)
        return await self._finish(item, f"unknown kind {item.kind!r}")

    async def _away(self, game: Game, clock: items.Clock) -> items.Away | None:
        async with self.service.db.reading() as db:
            return await items.away(db, game.user_of(clock.seat), self._now())

    async def _stand_in(self, place: Place, game: Game, item: DueItem) -> str:
        """The player is away with the computer standing in: it plays the decision."""
        seat = item.seat if item.seat is not None else -1
        outcome = "the computer stood in"
        assert item.decision is not None
        await play_for(
            self.service,
            place,
            item.decision,
            partial(_choose, "ai", game.settings.timing.stand_in),
            "away (the computer stands in)",
            note=None
            if item.begun
            else f"🏖 **{game.name_of(seat)}** is away: the computer plays for them.",
            begun=partial(_begin, item),
            done=partial(self._done, item, outcome),
        )
        return outcome

    def _now(self) -> float:
        return self.service.wall_clock.now()

    async def _finish(self, item: DueItem, outcome: str) -> str:
        async with self.service.db.transaction() as db:
            await items.finish(db, item.id, self._now(), outcome)
        return outcome

    async def _done(self, item: DueItem, outcome: str, db: Connection) -> None:
        await items.finish(db, item.id, self._now(), outcome)

    # --- reminders ---------------------------------------------------------------------------
    async def _remind(
        self,
        place: Place,
        game: Game,
        item: DueItem,
        deadline: float | None,
        standin: int | None = None,
    ) -> str:
        """Remind the awaited player (or the stand-in playing for them) — unless a later
        reminder or the deadline is due too (after a downtime: one reminder, not a flood),
        they turned reminders off, or it is their quiet time (then it waits for its end)."""
        now = self._now()
        async with self.service.db.reading() as db:
            later = [i for i in await items.pending(db, game.id) if i.id != item.id]
            seat = item.seat if item.seat is not None else -1
            user = standin if standin is not None else game.user_of(seat)
            prefs = await items.reminder_prefs(db, user)
            closed_at, dms_off = await dms.dm_status(db, user)
        if any(i.at <= now and i.decision == item.decision and i.at >= item.at for i in later):
            return await self._finish(item, "overtaken by a later reminder or the deadline")
        if prefs.off:
            return await self._finish(item, "the player turned reminders off")
        quiet = QuietHours.stored(prefs.quiet)
        if quiet is not None and (until := quiet.allows(now)) > now:
            if deadline is not None and until >= deadline:
                return await self._finish(item, "quiet hours until the deadline")
            async with self.service.db.transaction() as db:
                await items.postpone(db, item.id, until)
            return "postponed to the end of the player's quiet hours"
        name = game.name_of(seat)
        text = reminder_text(game, place, deadline, seat)
        if standin is not None:
            text = f"{text} (you stand in for **{name}**)"
        if closed_at is not None or dms_off:
            who = f"<@{standin}>, standing in for **{name}**" if standin else f"**{name}**"
            message = Message(f"⏰ {who}, {text}", mention=(user,))
            replies = Replies(public=message)
            outcome = "reminded in the channel"
        else:
            replies = Replies(private={user: Message(f"⏰ {text[:1].upper()}{text[1:]}")})
            outcome = "reminded by DM"
        await self.service.tell(place, game, replies, partial(self._done, item, outcome))
        return outcome

    # --- deadlines ---------------------------------------------------------------------------
    async def _time_out(self, place: Place, game: Game, item: DueItem) -> str:
        """A deadline passed: the stand-in (``ai`` or ``pass``) plays the decision, and the
        rest of the seat's decisions of this player turn fall due at once after it (a
        timeout covers the rest of the turn: :func:`bot.schedule.planner.covered`) — those
        count no new missed deadline. The organisers are told once, when the seat has
        missed ``most_timeouts`` in a row (:func:`escalation`)."""
        timing = game.settings.timing
        seat = item.seat if item.seat is not None else -1
        name = game.name_of(seat)
        policy = timing.on_timeout
        state = game.playing()
        async with self.service.db.reading() as db:
            absent = await items.absence(db, game.id, seat)
            covering = await covered(db, game, seat)
        missed = (absent.count if absent is not None else 0) + (0 if covering else 1)
        sleeping = timing.inactivity and missed >= timing.most_timeouts
        if sleeping:  # RULES §12.4, errata 20.4: the "sleeping player"
            policy = INACTIVE
        escalate = missed == timing.most_timeouts and not covering and not sleeping
        told = await escalation(self.service, game, place, seat, missed) if escalate else None
        repeat = ""
        if sleeping and not covering:
            repeat = (
                f"\n**{name}** has missed {missed} deadlines in a row: by the inactivity rule "
                "(errata 20.4) a timeout on their own turn concedes the game, and an attack "
                "on them concedes that engagement."
            )
        if policy == PAUSE:
            text = (
                f"⏸ **{name}**'s deadline passed: the game waits for them (or for an "
                f"organiser to give their seat to someone else).{repeat}"
            )
            outcome = "paused: the organiser is told"

            async def paused(db: Connection) -> None:
                await items.lapsed(db, game.id, seat, self._now())
                await self._done(item, outcome, db)

            replies = _with(Replies(public=Message(text)), told)
            await self.service.tell(place, game, replies, paused)
            return outcome
        outcome = f"timed out: {policy}" if not covering else f"played on: {policy}"
        turn = state.turn.number

        async def timed_out(db: Connection) -> None:
            if not covering:
                await items.lapsed(db, game.id, seat, self._now(), covers=turn)
            await self._done(item, outcome, db)

        if covering:
            cause, note = f"deadline passed earlier this turn ({policy})", None
        else:
            cause = f"deadline passed ({policy})"
            note = timeout_note(name, policy) + repeat
        if item.begun:
            note = None  # begun before a crash: the channel was told with its first action
        if told is not None and note is not None:
            note = f"{note}\n{told.public.text}" if told.public is not None else note
        assert item.decision is not None
        await play_for(
            self.service,
            place,
            item.decision,
            partial(_choose, policy, timing.stand_in),
            cause,
            note=note,
            begun=partial(_begin, item),
            done=timed_out,
            mention=told.public.mention if told is not None and told.public is not None else (),
            elsewhere=told.elsewhere if told is not None else (),
        )
        return outcome

    # --- the real-clock time limit -----------------------------------------------------------
    async def _time_limit(self, place: Place, game: Game, item: DueItem) -> str:
        expires = game.settings.timing.expires_at
        state = game.state
        assert state is not None
        if item.decision != EXPIRE:
            text = f"⌛ The time limit of game #{game.id} ends <t:{int(expires or 0)}:R>."
            outcome = "warned"
            await self.service.tell(
                place, game, Replies(public=Message(text)), partial(self._done, item, outcome)
            )
            return outcome
        if state.final_turns is not None:
            return await self._finish(item, "the time limit had already ended")
        if state.phase is Phase.COLOURS:  # it can end only once the turns have begun
            async with self.service.db.transaction() as db:
                await items.postpone(db, item.id, self._now() + COLOURS_WAIT)
            return "postponed until the colours are chosen"
        outcome = "expired"
        text = "⌛ The agreed time limit has come: the game ends after one more turn each."
        await play_for(
            self.service,
            place,
            _any_decision(game),
            lambda state, seat: a.ExpireTimeLimit(),
            "the time limit",
            note=text,
            done=partial(self._done, item, outcome),
            once=True,
            strict=True,
        )
        return outcome


async def _begin(item: DueItem, db: Connection) -> None:
    await items.begin(db, item.id)


def _choose(policy: str, level: Level, state: GameState, seat: int) -> a.Action:
    return timeout_action(state, seat, policy, level)


INACTIVE = INACTIVITY
"""The errata 20.4 policy, once a seat has missed enough deadlines in a row."""


def _any_decision(game: Game) -> str:
    decided = decision_of(game.state)
    return decided.key if decided is not None else ""


def _with(replies: Replies, told: Replies | None) -> Replies:
    """``replies`` with the organisers' escalation (its lines, its pings, its notices)."""
    if told is None:
        return replies
    public = replies.public
    if public is not None and told.public is not None:
        text = f"{public.text}\n{told.public.text}"
        public = replace(public, text=text, mention=(*public.mention, *told.public.mention))
    return replace(replies, public=public, elsewhere=(*replies.elsewhere, *told.elsewhere))


async def escalation(
    service: GameHost, game: Game, place: Place, seat: int, missed: int
) -> Replies:
    """The organisers told, once, that a seat missed ``missed`` deadlines in a row, with the
    command that gives it to someone else: the tournament's channel for a table (its
    desk), else the game's host pinged in the game's channel (none when the host is the
    one absent: then whoever organises the channel)."""
    name = game.name_of(seat)
    async with service.db.reading() as db:
        table = await tables.table_of_game(db, game.id)
        tournament = await tables.by_id(db, table[0]) if table is not None else None
    if tournament is not None and table is not None:
        number = f"{table[1].heat}.{table[1].number}"
        text = (
            f"⚠️ Table {number} of **{tournament.name}** (<#{place.channel}>): **{name}** has "
            f"missed {missed} deadlines in a row; the computer plays for them meanwhile. "
            f"`tournament replace {tournament.name} USER USER` gives the seat to someone else."
        )
        notice = Notice(tournament.channel, None, Message(text))
        return Replies(elsewhere=(notice,))
    host = game.settings.host
    pinged = (host,) if host is not None and host != game.user_of(seat) and host > 0 else ()
    who = f"<@{host}>, " if pinged else "Organisers: "
    text = (
        f"⚠️ {who}**{name}** has missed {missed} deadlines in a row (the computer plays for "
        "them meanwhile): **/titan-admin replace** gives the seat to someone else."
    )
    return Replies(public=Message(text, mention=pinged))


AUTOSTRIKE_HINT = (
    "Each of these strikes has one target: `autostrike forced` has such strikes made for you "
    "at once."
)
"""Told with a reminder of strikes that leave no choice (RULES §9.1)."""
CHOOSING_HINT = "`autostrike all` has the computer choose and make your strikes at once."
"""Told with a reminder of a strike phase's other decisions (RULES §9, §10)."""
FIGHTON_HINT = "`fighton on` answers every such chance to concede with fight on at once."
"""Told with a reminder of a concession window (RULES §5.8)."""


def reminder_text(game: Game, place: Place, deadline: float | None, seat: int) -> str:
    """What a reminder says: which game waits for the player, for what (their decision, in
    public words), until when. The channel is named where the reminder is read (a DM
    begins with a link to it)."""
    when = f" — the deadline is <t:{int(deadline)}:R>" if deadline is not None else ""
    state = game.playing()
    text = f"game #{game.id} waits for {awaited(state, seat)}{when}."
    most = game.settings.autostrike  # what the table lets autostrike make
    if forced_action(state, seat) is not None:  # RULES §9.1: they must be made
        text += f" {AUTOSTRIKE_HINT}" if most != "off" else ""
    elif strike_decision(state, seat):
        text += f" {CHOOSING_HINT}" if most == "all" else ""
    elif concession_window(state, seat):
        text += f" {FIGHTON_HINT}"
    return text
