"""Killing the bot while deadlines fall due: every due timeout is applied exactly once, and
every reminder is sent at most once.

A worker (:mod:`tests.bot.schedule_crash_worker`) keeps time for four clocked games whose
sleepers never answer, and is killed with SIGKILL at random moments — mostly while the
scheduler acts on deadlines, a few of its changes in — then restarted on the same file,
several times; a last run goes on to the end unharmed. Then the database must tell one
story: each decision has one deadline, which timed it out (or paused its game) at most
once; the actions with a cause are exactly the timed-out decisions', each decision played
wholly, and the time limit's once; every decision still waiting has its deadline pending;
the timeouts in a row are counted once each; the outbox holds one reminder per reminder
item marked sent and one notice per timeout and time-limit item, and nothing more; every
game replays to its stored state.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.context import Place
from bot.schedule import runner
from bot.schedule.clock import ManualClock
from bot.schedule.decisions import decision_of
from bot.schedule.scheduler import RETRY_AFTER, Scheduler
from bot.schedule.timeouts import timeout_action
from bot.service import GameService
from bot.storage import Status
from bot.storage import due as items
from bot.storage import games as rows
from bot.storage.backends import Target, is_postgres, open_database
from bot.storage.connection import Backend
from bot.storage.record import full_replay, initial_state, load_game, replay_entry
from engine.ai.levels import Level
from engine.game.actions import Action
from engine.game.state import GameState
from tests.bot.agent import caller
from tests.bot.schedule_crash_worker import END, GAMES, HOUR, START, Table
from tests.bot.tampering import query

REPO = Path(__file__).resolve().parents[2]
ROUNDS = 12
MOST_TICKS = 8
"""Ticks a killed worker may run before the tick it is killed in."""
MOST_COMMITS = 5
"""Changes the scheduler may store in that tick before the kill."""
LATEST = 0.003
"""Seconds the kill may come after the last change it waited for."""
TIMED_OUT, PAUSED, REMINDED = "timed out: ", "paused: ", "reminded "
PLAYED_ON = "played on: "
"""A decision of the rest of a turn whose deadline passed, played at once (no new miss)."""
_REMINDER = re.compile(r"[Gg]ame #(\d+) waits for .+? — the deadline is <t:(\d+):R>")
NOTICES = ("'s deadline passed: ", "⌛ The time limit of game #", "⌛ The agreed time limit has")
"""How a timeout (or a pause), the time limit's warning and its end are told."""
EXPIRY = "the time limit"


def run(db: Target, clock: Path, rng: random.Random | None) -> None:
    """Start a worker and kill it at a random moment (None: let it run to the end)."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.schedule_crash_worker", str(db), str(clock)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    lines = iter(worker.stdout.readline, "")
    if rng is not None:
        ticks = rng.randint(1, MOST_TICKS)
        commits = rng.randint(1, MOST_COMMITS)
        for line in lines:
            ticks -= line.startswith("tick ")
            # then a tick where deadlines fall due (mostly), a few of the scheduler's changes in
            if ticks <= 0 and line.startswith("due ") and (line != "due 0\n" or rng.random() < 0.2):
                break
        for line in lines:
            commits -= line == "stored\n"
            if commits <= 0 or line.startswith("tick "):
                break
        time.sleep(rng.random() * LATEST)  # inside a transaction, between two, or past them
        worker.send_signal(signal.SIGKILL)
    rest, errors = worker.communicate(timeout=60)
    assert worker.returncode in (-signal.SIGKILL, 0), errors
    if rng is None:
        assert worker.returncode == 0 and rest.endswith("over\n"), errors


@dataclass(frozen=True)
class Item:
    """A due item as the test reads it back."""

    kind: str
    seat: int | None
    decision: str | None
    at: float
    outcome: str | None

    def did(self, *starts: str) -> bool:
        return self.outcome is not None and self.outcome.startswith(starts)


def due_items(path: Target) -> dict[int, list[Item]]:
    """Every due item (pending or finished), by game; a file passes its integrity check."""
    if not is_postgres(path):
        assert query(path, "PRAGMA integrity_check") == [("ok",)]
    found: dict[int, list[Item]] = {}
    for game, *item in query(
        path, "SELECT game, kind, seat, decision, at, outcome FROM due ORDER BY id"
    ):
        found.setdefault(game, []).append(Item(*item))
    return found


@dataclass
class Story:
    """What one game's log says of the actions the clock gave."""

    caused: dict[str, list[int]] = field(default_factory=dict)
    """The actions a passed deadline gave (their numbers), by the decision they were in."""
    made: set[str] = field(default_factory=set)
    """The decisions such an action made (the game then waited for another, or ended)."""
    causes: set[str] = field(default_factory=set)
    """The causes of the passed deadlines' actions."""
    expired: list[int] = field(default_factory=list)
    """The actions the real-clock time limit gave."""
    own: set[int] = field(default_factory=set)
    """The actions the players gave themselves."""


async def read_story(db: Backend, game_id: int) -> Story:
    """Replay ``game_id``'s whole log, noting the decision of each caused action; the game
    loads to the state the replay rebuilds."""
    story = Story()
    async with db.reading() as conn:
        row = await rows.game(conn, game_id)
        assert row is not None and row.damaged is None
        seats = await rows.seats(conn, game_id)
        log = await rows.actions(conn, game_id)
        async with conn.execute(
            "SELECT n, cause FROM actions WHERE game = ? AND cause IS NOT NULL", (game_id,)
        ) as cursor:
            causes = {int(n): str(cause) async for n, cause in cursor}
        loaded = await load_game(conn, row)
        assert loaded.state == await full_replay(conn, row), "the game replays to its state"
    state = initial_state(row, seats)[0]
    for entry in log:
        before = decision_of(state)
        state, _ = replay_entry(state, entry)
        cause = causes.get(entry.n)
        if cause is None:
            story.own.add(entry.n)
            continue
        assert before is not None and before.seat == entry.seat
        if cause == EXPIRY:
            story.expired.append(entry.n)
            continue
        story.causes.add(cause)
        story.caused.setdefault(before.key, []).append(entry.n)
        after = decision_of(state)
        if after is None or after.key != before.key:
            story.made.add(before.key)
    return story


def check_timeouts(story: Story, table: Table, found: list[Item]) -> set[str]:
    """Each passed deadline played its decision once, wholly, no player acting meanwhile;
    nothing else was played by the clock, but the time limit once when it came. The
    decisions timed out."""
    deadlines = [i for i in found if i.kind == "deadline"]
    assert max(Counter(i.decision for i in deadlines).values()) == 1, "one deadline a decision"
    timed = {i.decision for i in deadlines if i.did(TIMED_OUT, PLAYED_ON)}
    assert set(story.caused) == timed, "the actions with a cause are those of the timeouts"
    assert story.made == timed, "each timeout made its whole decision"
    for numbers in story.caused.values():
        assert not story.own & set(range(numbers[0], numbers[-1])), "nobody acted meanwhile"
    if timed:
        words = table.options.split()
        policy = words[words.index("timeout") + 1]
        played_on = any(i.did(PLAYED_ON) for i in deadlines)
        assert story.causes == {
            f"deadline passed ({policy})",
            *([f"deadline passed earlier this turn ({policy})"] if played_on else []),
        }
    missed = {i.seat for i in deadlines if i.did(TIMED_OUT, PAUSED)}
    assert missed <= table.sleepers, "only the sleepers time out"
    expired = [i for i in found if i.kind == "time_limit" and i.did("expired")]
    assert len(story.expired) == len(expired) <= 1, "the time limit came once"
    return {d for d in timed if d is not None}


async def check_notices(db: Backend, game_id: int, found: list[Item]) -> int:
    """The outbox holds one reminder per reminder item marked sent (to its seat, naming
    its decision's deadline), one notice per timeout and per time-limit item done, and
    nothing more. The reminders."""
    async with db.reading() as conn:
        users = {s.seat: s.user for s in await rows.seats(conn, game_id)}
        async with conn.execute(
            "SELECT kind, recipient, body FROM outbox WHERE game = ?", (game_id,)
        ) as cursor:
            bodies = [(kind, recipient, json.loads(body)) async for kind, recipient, body in cursor]
    deadline_of = {i.decision: int(i.at) for i in found if i.kind == "deadline"}
    sent = Counter(
        (users[i.seat], deadline_of[i.decision])
        for i in found
        if i.kind == "reminder" and i.did(REMINDED) and i.seat is not None
    )
    told: Counter[tuple[int, int]] = Counter()
    notices: Counter[str] = Counter()
    for kind, recipient, message in bodies:
        text = message["text"]
        for notice in NOTICES:
            notices[notice] += kind == "post" and notice in text
        if (reminder := _REMINDER.search(text)) is not None:
            assert int(reminder[1]) == game_id
            user = recipient if kind == "dm" else message["mention"][0]
            told[(user, int(reminder[2]))] += 1
    assert told == sent, "one reminder in the outbox per reminder sent"
    assert notices == {
        NOTICES[0]: sum(i.did(TIMED_OUT, PAUSED) for i in found),
        NOTICES[1]: sum(i.did("warned") for i in found),
        NOTICES[2]: sum(i.did("expired") for i in found),
    }, "one notice a timeout, one a time-limit item"
    return sum(sent.values())


async def check_waiting(db: Backend, game_id: int, found: list[Item]) -> None:
    """A decision still waiting has its deadline pending, or its game paused for it; each
    seat's timeouts in a row are counted once each (the sleepers never answer)."""
    async with db.reading() as conn:
        row = await rows.game(conn, game_id)
        async with conn.execute("SELECT decision FROM clocks WHERE game = ?", (game_id,)) as c:
            clock = await c.fetchone()
        async with conn.execute("SELECT seat, count FROM lapses WHERE game = ?", (game_id,)) as c:
            lapses = {int(seat): int(count) async for seat, count in c}
    assert row is not None
    deadlines = [i for i in found if i.kind == "deadline"]
    if row.status is Status.ACTIVE:
        assert clock is not None
        (waiting,) = [i for i in deadlines if i.decision == clock[0]]
        assert waiting.outcome is None or waiting.did(PAUSED), "its deadline is pending"
    missed = Counter(i.seat for i in deadlines if i.did(TIMED_OUT, PAUSED))
    assert lapses == dict(missed), "each timeout counted once"


async def check(path: Target) -> tuple[int, int, int]:
    """Every check above, for every game; the timeouts, the reminders, the time limits."""
    found = due_items(path)
    db = await open_database(path)
    timeouts = reminders = limits = 0
    try:
        for table in GAMES:
            async with db.reading() as conn:
                row = await rows.latest_game(conn, table.channel)
            assert row is not None and row.status is not Status.LOBBY
            mine = found[row.id]
            timeouts += len(check_timeouts(await read_story(db, row.id), table, mine))
            reminders += await check_notices(db, row.id, mine)
            await check_waiting(db, row.id, mine)
            limits += sum(i.did("expired") for i in mine)
    finally:
        await db.close()
    return timeouts, reminders, limits


def test_sigkill_while_deadlines_fall_due_applies_each_timeout_once(db_target, tmp_path):
    db, clock = db_target, tmp_path / "clock"
    rng = random.Random(12)
    for _ in range(ROUNDS):
        run(db, clock, rng)
    run(db, clock, None)  # to the end, unharmed
    assert float(clock.read_text()) >= END
    timeouts, reminders, limits = asyncio.run(check(db))
    assert timeouts >= 60 and reminders >= 60 and limits == 1


async def test_a_timeout_cut_short_between_two_actions_is_finished_later_and_told_once(
    db_target, monkeypatch
):
    """The same in one process: the AI fails on the second action of a timed-out decision
    (as a crash would stop it there). The deadline stays pending, begun; tried again, it
    plays the rest of the decision, without a second notice."""
    chosen: list[str] = []

    def cut_short(state: GameState, seat: int, policy: str, level: Level) -> Action:
        decided = decision_of(state)
        assert decided is not None
        if chosen and chosen[-1] == decided.key and chosen.count("cut") == 0:
            chosen.append("cut")
            raise RuntimeError("the bot stops here")
        chosen.append(decided.key)
        return timeout_action(state, seat, policy, level)

    monkeypatch.setattr(runner, "timeout_action", cut_short)
    clock = ManualClock(START)
    service = await GameService.open(db_target, seeds=lambda: 7, wall_clock=clock)
    try:
        for seat, text in [(0, "new players 2 deadline 4h timeout ai"), (1, "join"), (0, "start")]:
            assert not (await service.submit(Place(1), caller(1, seat), text)).error
        scheduler = Scheduler(service)
        for _ in range(50):  # a few deadlines; bounded, so that a fault fails, not hangs
            if "cut" in chosen:
                break
            clock.advance(4 * HOUR)
            await scheduler.run_due()
        assert "cut" in chosen, "no timed-out decision reached a second action"
        async with service.db.reading() as db:
            (begun,) = [i for i in await items.pending(db, 1) if i.kind == items.DEADLINE]
        assert begun.begun and begun.decision == chosen[-2]
        clock.advance(RETRY_AFTER)
        await scheduler.run_due()
        found = due_items(db_target)[1]
        story = await read_story(service.db, 1)
        table = Table(1, 2, "deadline 4h timeout ai", frozenset({0, 1}))
        assert begun.decision in check_timeouts(story, table, found)
        await check_notices(service.db, 1, found)
        await check_waiting(service.db, 1, found)
    finally:
        await service.close()
