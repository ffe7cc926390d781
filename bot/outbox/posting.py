"""Where a channel's news goes, and how: a live message edited, or a new one for a hand-off.

Each channel has two lanes of news: the game's, in the channel, and a battle's, in a
thread. In a lane one *live* message tells the current player's run of actions: each new
action is added to its text and its picture is replaced by the board as it now is (an
edit notifies nobody; a picture the same as the one it carries stays, not uploaded
again). A hand-off — news that pings the next player — is a new message, which becomes
the live one; the old one loses its buttons (its decision was made). A
battle begins with a new message in the channel, from which a thread opens at the battle's
first news; its news goes there, and when it ends the channel is told, the thread's live
message tells the battle's last blows and end in place of its prompt, and the thread is
archived. Where the bot may not open a thread or write in it, the battle is told in the
channel.

What this changes about the places is returned, for the deliverer to store together with
marking the rows delivered, so that a crash in between repeats the same steps (an edit
says the same again; a post keeps its nonce; a thread for a message is that message's).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.narration.heading import BATTLE_ENDS
from bot.outbox.codec import Stored
from bot.outbox.layout import Parts, compose, parts
from bot.outbox.transport import Refused, Transport
from bot.replies import Battle, BattleStage, Message
from bot.storage import outbox as rows
from bot.storage.connection import Connection
from bot.storage.outbox import Place

MAX_LIVE = 2000
"""Characters a live message may grow to, as the transport writes it (Discord allows
2,000, pings included)."""
GAME, BATTLE = "game", "battle"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Posted:
    """How a post went, and what becomes of the lanes: a new :class:`Place`, or None for a
    lane that ends (a battle's thread archived)."""

    outcome: str
    places: dict[str, Place | None]

    async def store(self, db: Connection, channel: int) -> None:
        for lane, found in self.places.items():
            if found is None:
                await rows.drop_place(db, channel, lane)
            else:
                await rows.set_place(db, channel, lane, found)


async def post(
    transport: Transport,
    here: dict[str, Place | None],
    channel: int,
    lane: str,
    stored: Sequence[Stored],
    message: Message,
    nonce: str,
    reply_to: str | None,
) -> Posted:
    """Say ``message`` (the news of ``stored``) in ``lane`` of ``channel``; ``here`` holds
    the lanes' places as stored now. A battle without a thread (the bot may not open one,
    or a moderator closed it) is told in the channel."""
    stages = {s.message.battle.stage for s in stored if s.message.battle is not None}
    begins = BattleStage.BEGINS in stages
    changed: dict[str, Place | None] = {}
    if lane == BATTLE and (thread := here.get(BATTLE)) is not None:
        try:
            if thread.unopened is not None and (start := here.get(GAME)) is not None:
                await _retire(transport, start)  # its choices move on to the thread
            thread = await _opened(transport, channel, thread)
            outcome, changed[BATTLE] = await _say(transport, thread, message, nonce, reply_to)
        except Refused as error:
            log.warning("channel %s: the battle's thread refused its news (%s)", channel, error)
            lane, changed[BATTLE] = GAME, None
    else:
        lane = GAME
    if lane == GAME:
        place = here.get(GAME) or Place(channel)
        outcome, changed[GAME] = await _say(
            transport, place, message, nonce, reply_to, fresh=begins
        )
    if begins and (opened := changed.get(GAME)) is not None and opened.live is not None:
        name = next((b.name for s in stored if (b := _begun(s)) is not None), "Battle")
        changed[BATTLE] = Place(opened.live, unopened=name)
    if BattleStage.ENDS in stages and (battle := changed.get(BATTLE, here.get(BATTLE))):
        if battle.unopened is None:
            await _close(transport, channel, battle, message.text)
        changed[BATTLE] = None
    return Posted(outcome, changed)


async def _opened(transport: Transport, channel: int, place: Place) -> Place:
    """The battle's thread, opened now from its message if it was not yet (a battle
    settled before anyone enters leaves no empty thread behind)."""
    if place.unopened is None:
        return place
    return Place(await transport.open_thread(channel, place.target, place.unopened))


async def _close(transport: Transport, channel: int, battle: Place, ended: str) -> None:
    """The battle is over (told in the channel by ``ended``): the thread's live message
    ends with the news of its last blows and its end instead of the prompt, its choices
    leave, and the thread is archived (read later, it says how the battle ended)."""
    closing = _closing(transport, battle, ended)
    try:
        if closing is None or battle.live is None:
            await _retire(transport, battle)
        else:
            text, added = closing
            await transport.edit(battle.target, battle.live, Message(text), added, kept=True)
    except Refused as error:  # (a message deleted): it keeps what it said
        log.info("channel %s: the battle's thread keeps its last words (%s)", channel, error)
        await _retire(transport, battle)
    try:
        await transport.close_thread(battle.target)
    except Refused as error:
        log.warning("channel %s: the battle's thread stays open (%s)", channel, error)


def _closing(transport: Transport, battle: Place, ended: str) -> tuple[str, str] | None:
    """The thread's live message with the news of ``ended`` up to the battle's end line in
    place of its prompt, and those lines; None when there is no such line or no live
    message to end."""
    news = parts(ended).news
    last = next((i for i, line in enumerate(news) if line.startswith(BATTLE_ENDS)), None)
    if last is None or battle.live is None or not battle.text:
        return None
    old, added = parts(battle.text), news[: last + 1]
    text, _ = compose(
        Parts(old.head, old.news + added), MAX_LIVE, lambda text: transport.measure(Message(text))
    )
    return text, "\n".join(added)


async def _say(
    transport: Transport,
    place: Place,
    message: Message,
    nonce: str,
    reply_to: str | None,
    *,
    fresh: bool = False,
) -> tuple[str, Place]:
    """Say ``message`` at ``place``: added to its live message when nobody needs a ping and
    it fits (a report in place of its earlier line; the news under the newest head, with
    only the newest prompt: :mod:`bot.outbox.layout`), else a new message (unless
    ``fresh``) that becomes the live one; the old one keeps its words, ending with what
    was waited for then, and loses its choices (the decision was made)."""

    def measure(text: str) -> int:
        return transport.measure(replace(message, text=text))

    old, new = parts(place.text or ""), parts(message.text)
    if message.progress is not None and place.text and place.live is not None:
        report = _reported(place.text, message.progress, message.text)
        if report == place.text:
            return "unchanged", place
        if report is not None:
            old, new = parts(report), Parts(news=())
    grown, dropped = compose(Parts(new.head or old.head, old.news + new.news, new.prompt),
                             MAX_LIVE, measure)  # fmt: skip
    files = carried(message)
    if place.live is not None and not message.mention and not fresh and not dropped:
        edited = replace(message, text=grown)
        kept = files is not None and files == place.files
        outcome = await transport.edit(place.target, place.live, edited, message.text, kept=kept)
        return outcome, Place(place.target, place.live, grown, files=_went(files, outcome))
    text, _ = compose(new, MAX_LIVE, measure)
    outcome, posted = await transport.post(place.target, replace(message, text=text), nonce,
                                           reply_to)  # fmt: skip
    await _retire(transport, place)
    return outcome, Place(place.target, posted, text, files=_went(files, outcome))


def carried(message: Message) -> str | None:
    """A digest of the files ``message`` carries (its picture and attachments, with their
    names); None when it carries none."""
    named = [(a.filename, a.data) for a in message.attachments]
    if message.image is not None and message.picture is not None:
        named.insert(0, (message.picture.filename, message.image))
    if not named:
        return None
    digest = hashlib.sha256()
    for name, data in named:
        for part in (name.encode(), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()


def _went(files: str | None, outcome: str) -> str | None:
    """What the message carries now that it went with ``outcome``: ``files``, unless they
    did not go (an outcome "… as text")."""
    return None if outcome.endswith("as text") else files


async def _retire(transport: Transport, place: Place) -> None:
    """The place's live message, whose decision was made, loses its choices (it keeps its
    words: the news of its run, ending with what was waited for then)."""
    if place.live is not None:
        await transport.unbutton(place.target, place.live)


def _reported(text: str, head: str, report: str) -> str | None:
    """``text`` with its last line beginning with ``head`` replaced by ``report`` (None:
    no line begins so)."""
    lines = text.split("\n")
    at = next((i for i in reversed(range(len(lines))) if lines[i].startswith(head)), None)
    if at is None:
        return None
    return "\n".join([*lines[:at], report, *lines[at + 1 :]])


def _begun(stored: Stored) -> Battle | None:
    """The battle ``stored`` tells the beginning of, if it does."""
    battle = stored.message.battle
    return battle if battle is not None and battle.stage is BattleStage.BEGINS else None
