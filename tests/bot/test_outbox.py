"""The outbox: what a stored change tells is stored with it, then delivered once, in order.

A recording transport stands in for Discord; it can fail the way Discord fails (a 5xx,
a refusal, closed DMs, an expired interaction), and a deliverer can be stopped halfway and
another started, as a restart would.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from bot.context import Place
from bot.outbox.deliverer import DMS_CLOSED, Deliverer
from bot.outbox.transport import DmsClosed, Expired, Refused, Retry
from bot.replies import Message
from bot.service import GameService
from bot.storage import dms, outbox
from bot.storage import games as rows
from engine.game.legal import to_act
from tests.bot.agent import caller, open_game

CHANNEL = 31
HERE = Place(CHANNEL)
REPLY = json.dumps({"token": "t"})


@dataclass
class Sent:
    kind: str
    to: int | None
    text: str
    nonce: str | None = None
    image: bytes | None = None
    mention: tuple[int, ...] = ()
    offers: int = 0


@dataclass
class Recorder:
    """A transport that records what it sends and raises what a test queues for a kind."""

    sent: list[Sent] = field(default_factory=list)
    failures: dict[str, list[Exception]] = field(default_factory=dict)
    told: list[str] = field(default_factory=list)

    def _maybe_fail(self, kind: str) -> None:
        queued = self.failures.get(kind)
        if queued:
            raise queued.pop(0)

    def _record(self, kind: str, to: int | None, message: Message, nonce: str | None) -> str:
        self._maybe_fail(kind)
        offers = len(message.offers.items) if message.offers else 0
        self.sent.append(
            Sent(kind, to, message.text, nonce, message.image, message.mention, offers)
        )
        return "sent"

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        return self._record("post", channel, message, nonce), None

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        return self._record("edit", channel, message, None)

    def measure(self, message: Message) -> int:
        return len(message.text)

    async def unbutton(self, channel: int, message_id: int) -> None:
        return None

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        return channel

    async def close_thread(self, thread: int) -> None:
        return None

    async def open_table(
        self,
        guild: int,
        category: str,
        name: str,
        players: tuple[int, ...],
        private_thread: bool,
        parent: int | None,
    ) -> int:
        return 2000

    async def dm(self, user: int, channel: int, message: Message, nonce: str) -> str:
        return self._record("dm", user, message, nonce)

    async def answer(self, reply_to: str | None, message: Message | None, user: int | None) -> str:
        return self._record("answer", user, message or Message("✓"), None)

    async def tell(self, reply_to: str, message: Message) -> str:
        self.told.append(message.text)
        return "sent"

    def kinds(self) -> list[str]:
        return [s.kind for s in self.sent]


class Pauses:
    """An injected sleep: records the pauses and does not wait."""

    def __init__(self) -> None:
        self.taken: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.taken.append(seconds)
        await asyncio.sleep(0)


async def outcomes(service: GameService) -> list[tuple[int, str, str | None]]:
    async with service.db.reading() as db:
        return await outbox.outcomes(db, CHANNEL)


async def waiting(service: GameService) -> list[outbox.OutboxRow]:
    async with service.db.reading() as db:
        return await outbox.waiting(db, CHANNEL)


async def split_turn(service: GameService) -> int:
    """A started two-player game whose colours are chosen; the seat to act (splitting)."""
    await open_game(service, CHANNEL, 2)
    for _ in range(2):
        game = await service.game_in(CHANNEL)
        seat = to_act(game.state)
        free = next(c for c in ("Red", "Blue") if all(p.colour != c for p in game.state.players))
        assert not (await service.submit(HERE, caller(CHANNEL, seat), f"colour {free}")).error
    return to_act((await service.game_in(CHANNEL)).state)


async def test_a_command_and_its_news_are_stored_together_or_not_at_all(service, monkeypatch):
    await open_game(service, CHANNEL, 2)
    before = await outcomes(service)
    game = await service.game_in(CHANNEL)
    seat = to_act(game.state)

    async def broken(db, told, replies):
        raise OSError("disk full")

    monkeypatch.setattr("bot.telling.write", broken)
    failed = await service.submit(HERE, caller(CHANNEL, seat), "colour Red")
    assert failed.fault
    async with service.db.reading() as db:
        assert await rows.action_count(db, game.id) == game.n  # the move was not stored
    assert await outcomes(service) == before  # nor was its news
    assert (await service.game_in(CHANNEL)).n == game.n
    monkeypatch.undo()
    stored = await service.submit(HERE, caller(CHANNEL, seat), "colour Red", reply_to=REPLY)
    assert stored.stored and not stored.error
    kinds = [kind for _, kind, _ in await outcomes(service)][len(before) :]
    assert kinds == ["answer", "post"]  # the chooser's legions come in the answer


async def test_the_deliverer_says_everything_once_in_order(service):
    recorder = Recorder()
    await service.deliver_with(recorder)
    seat = await split_turn(service)
    await service.deliverer.idle()
    assert all(outcome == "sent" for _, _, outcome in await outcomes(service))
    assert recorder.kinds()[:2] == ["post", "post"]  # opening, joining: no one to answer
    said = len(recorder.sent)
    await service.deliverer.start()  # as after a restart: nothing is said again
    await service.deliverer.idle()
    assert len(recorder.sent) == said
    assert seat is not None


async def test_waiting_posts_go_out_as_one_message_whose_nonce_survives_a_restart(service):
    await split_turn(service)  # no deliverer yet: everything waits
    posts = [r for r in await waiting(service) if r.kind == "post"]
    assert len(posts) >= 4
    first = Recorder()
    first.failures["post"] = [asyncio.CancelledError()]  # killed while posting
    deliverer = Deliverer(service.db, first)
    await deliverer.start()
    await deliverer.idle()
    await deliverer.close()
    fixed = [r.batch for r in await waiting(service) if r.kind == "post"]
    assert fixed and fixed[0] is not None and len(set(fixed)) == 1  # the message was fixed
    second = Recorder()
    again = Deliverer(service.db, second)
    await again.start()
    await again.idle()
    await again.close()
    [post, *_] = [s for s in second.sent if s.kind == "post"]
    assert post.nonce == f"titan-{fixed[0]}"  # sent again as it was: Discord drops a double
    texts = [json.loads(r.body)["text"] for r in posts]
    assert all(text.splitlines()[0] in post.text for text in texts)
    assert "opened game" in post.text and "begins" in post.text


async def test_a_failure_that_may_pass_is_tried_again_with_growing_pauses(service):
    recorder, pauses = Recorder(), Pauses()
    recorder.failures["post"] = [Retry("Discord answered 503"), Retry("Discord answered 502")]
    await service.deliver_with(recorder, sleep=pauses)
    await service.submit(HERE, caller(CHANNEL, 0), "new players 2")
    await service.deliverer.idle()
    assert pauses.taken == [1.0, 2.0]
    assert [s.kind for s in recorder.sent] == ["post"]
    [(_, _, outcome)] = await outcomes(service)
    assert outcome == "sent"


async def test_news_that_cannot_be_posted_is_given_up_and_the_caller_told(service):
    recorder = Recorder()
    recorder.failures["post"] = [Refused("Discord refused the post (50001: Missing Access)")]
    await service.deliver_with(recorder)
    await service.submit(HERE, caller(CHANNEL, 0), "new players 2", reply_to=REPLY)
    await service.deliverer.idle()
    assert dict((k, o) for _, k, o in await outcomes(service))["post"].startswith("given up")
    [told] = recorder.told
    assert "could not post" in told and "Missing Access" in told
    assert not (await service.submit(HERE, caller(CHANNEL, 1), "join")).error  # it goes on


async def test_closed_dms_are_said_once_in_the_channel_and_spared_for_a_day(service):
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    recorder = Recorder()
    await service.deliver_with(recorder, now=lambda: now[0])
    deliverer = service.deliverer
    user = 700_000_000_000_000_321
    recorder.failures["dm"] = [DmsClosed("closed")]

    async def dm(text: str) -> None:
        async with service.db.transaction() as db:
            await outbox.add(db, game=None, channel=CHANNEL, kind="dm", recipient=user,
                             body=json.dumps({"text": text}))  # fmt: skip
        deliverer.wake(CHANNEL)
        await deliverer.idle()

    await dm("first")
    notices = [s for s in recorder.sent if s.kind == "post"]
    assert [s.text for s in notices] == [DMS_CLOSED] and notices[0].mention == (user,)
    await dm("second")  # within a day: not even tried
    assert [s.kind for s in recorder.sent] == ["post"]
    async with service.db.reading() as db:
        closed_at, _ = await dms.dm_status(db, user)
    assert closed_at is not None
    now[0] += timedelta(days=1, minutes=1)
    await dm("third")  # a day later: tried again, and it goes
    assert [s.text for s in recorder.sent if s.kind == "dm"] == ["third"]
    assert len([s for s in recorder.sent if s.kind == "post"]) == 1  # said once


async def test_a_command_reopens_closed_dms_and_a_player_may_turn_them_off(service):
    user = caller(CHANNEL, 0)
    async with service.db.transaction() as db:
        await dms.close_dms(db, user.user, datetime.now(UTC).isoformat())
    await service.submit(HERE, user, "new players 2")  # they may have opened them
    async with service.db.reading() as db:
        assert await dms.dm_status(db, user.user) == (None, False)
    off = await service.submit(HERE, user, "dms off")
    assert not off.error and "off" in off.ephemeral.text
    recorder = Recorder()
    await service.deliver_with(recorder)
    async with service.db.transaction() as db:
        await outbox.add(db, game=None, channel=CHANNEL, kind="dm", recipient=user.user,
                         body=json.dumps({"text": "news"}))  # fmt: skip
    service.deliverer.wake(CHANNEL)
    await service.deliverer.idle()
    assert not [s for s in recorder.sent if s.kind == "dm"]
    assert (await outcomes(service))[-1][2] == "skipped: the player turned DMs off"
    assert not (await service.submit(HERE, user, "dms on")).error
    async with service.db.reading() as db:
        assert await dms.dm_status(db, user.user) == (None, False)
    assert (await service.submit(HERE, user, "dms maybe")).error


async def test_an_answer_too_late_for_its_command_sends_its_news_by_dm(service):
    recorder = Recorder()
    recorder.failures["answer"] = [Expired("the interaction has expired")]
    await service.deliver_with(recorder)
    seat = await split_turn(service)
    await service.deliverer.idle()
    recorder.sent.clear()
    recorder.failures["answer"] = [Expired("the interaction has expired")]
    who = caller(CHANNEL, seat)
    game = await service.game_in(CHANNEL)
    split = "split " + next(iter(game.state.legions_of(seat))).marker + " Ogre Ogre Centaur Angel"
    await service.submit(HERE, who, split, reply_to=REPLY)
    await service.deliverer.idle()
    dms = [s for s in recorder.sent if s.kind == "dm"]
    assert [s.to for s in dms] == [who.user] and "Your legions" in dms[0].text
    assert "sent by DM" in " ".join(o or "" for _, _, o in await outcomes(service))


async def test_a_picture_is_drawn_only_while_the_game_is_at_its_version(service, renderer):
    await open_game(service, CHANNEL, 2)  # the start's post has the board, at version 0
    recorder = Recorder()
    await service.deliver_with(recorder)
    await service.deliverer.idle()
    [start] = [s for s in recorder.sent if "begins" in s.text]
    assert start.image == b"\x89PNG-masterboard" and start.offers == 6  # the colours
    game = await service.game_in(CHANNEL)
    seat = to_act(game.state)
    recorder.sent.clear()
    await service.submit(HERE, caller(CHANNEL, seat), "colour Red")
    await service.deliverer.idle()
    [chosen] = [s for s in recorder.sent if s.kind == "post"]
    assert "takes Red" in chosen.text and chosen.image is not None  # drawn at its version
    recorder.sent.clear()
    async with service.db.transaction() as db:  # a post left from the start's version
        board = ["masterboard", None, None, None]
        await outbox.add(db, game=game.id, channel=CHANNEL, kind="post", version=0,
                         body=json.dumps({"text": "old", "picture": board}))  # fmt: skip
    service.deliverer.wake(CHANNEL)
    await service.deliverer.idle()
    [old] = recorder.sent
    assert old.text == "old" and old.image is None  # the game moved on: words only


@pytest.mark.parametrize("kind", ["post", "dm"])
async def test_nothing_is_lost_when_delivery_keeps_failing_then_recovers(service, kind):
    recorder, pauses = Recorder(), Pauses()
    recorder.failures[kind] = [Retry("no answer from Discord (TimeoutError)")] * 8
    await service.deliver_with(recorder, sleep=pauses)
    async with service.db.transaction() as db:
        await outbox.add(db, game=None, channel=CHANNEL, kind=kind, recipient=5,
                         body=json.dumps({"text": "news"}))  # fmt: skip
    service.deliverer.wake(CHANNEL)
    await service.deliverer.idle()
    assert pauses.taken == [1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 60.0, 60.0]
    assert [s.text for s in recorder.sent] == ["news"]
