"""What the service does when a command or its own work meets damage: the damage notice
instead of an apology when the rows concerned are damaged (:mod:`bot.records.diagnosis`),
the game marked and its channel told once, and the notice for a channel whose game was
set aside. Anything else that fails is a bug: logged with an error id, apologised for.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace

from bot.context import Caller, Place
from bot.outbox.writer import Told, write
from bot.ports import GameHost
from bot.records.damage import damage_notice
from bot.records.diagnosis import diagnose
from bot.replies import Message, Replies
from bot.storage import games as rows
from bot.storage.connection import Connection
from bot.syntax import Command
from engine.game.actions import Action

log = logging.getLogger(__name__)

NOTICE_FROM = Caller(0, "titanbot", on_behalf=True)
"""Who the damage notice comes from."""


async def failed(host: GameHost, place: Place, command: Command | Action | str) -> Replies:
    """After an unexpected failure: the damage notice when the rows of the channel's
    game (then marked damaged), of the tournament concerned or of the server's ratings
    are damaged (:mod:`bot.records.diagnosis`); else the apology for a bug."""
    try:
        async with host.db.reading() as db:
            damage = await diagnose(db, place.channel, place.guild, command)
    except Exception:
        log.exception("channel %s: the rows could not be checked after a failure", place.channel)
        damage = None
    if damage is None:
        return apology(host, place, command)
    log.warning("channel %s: %r failed on damaged rows: %s", place.channel, str(command), damage)
    host.games.drop(place.channel)
    if damage.game is not None:
        await host.mark_damaged(damage.game, place.channel, damage.reason)
    return Replies.refusal(damage.notice())


def apology(host: GameHost, place: Place, command: Command | Action | str) -> Replies:
    error_id = secrets.token_hex(4)
    game = host.games.drop(place.channel)
    log.exception(
        "error %s: game %s (channel %s) failed on %r",
        error_id,
        game.id if game else "?",
        place.channel,
        str(command),
    )
    apology = Replies.refusal(
        f"Sorry, something went wrong on our side (error {error_id}). "
        "`status` shows where the game stands."
    )
    return replace(apology, fault=True)


async def mark(host: GameHost, game_id: int, channel: int, reason: str) -> bool:
    """Record that ``game_id`` cannot be played on (``reason``: what is damaged) and,
    the first time, tell its channel the damage notice, whoever met the damage (a
    command, a deadline, a reminder): its players learn at once why it stopped, and
    what to do. Whether this call marked it."""
    host.games.drop(channel)
    async with host.db.unit() as unit:
        newly = await rows.mark_damaged(unit.connection, game_id, reason)
        if newly:
            notice = Replies(public=Message(damage_notice(game_id, reason)))
            told = Told(Place(channel), NOTICE_FROM, game=game_id)
            await write(unit.connection, told, notice)
    if newly:
        host.deliver_soon(channel, Replies(stored=True))
    return newly


async def notice_in(db: Connection, channel: int) -> str | None:
    """The explanation of ``channel``'s damaged game, while no other game is open."""
    if await rows.open_game(db, channel) is not None:
        return None
    row = await rows.damaged_game(db, channel)
    if row is None or row.damaged is None:
        return None
    return damage_notice(row.id, row.damaged)
