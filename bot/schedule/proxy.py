"""Playing for a seat the game waits for: the answer of a passed deadline (the computer's
choice, or the least), a stand-in for an away player — each action stored with its news
and its cause, until the decision is made.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot.context import Caller, Place
from bot.handlers.ai_seats import ai_play, merge
from bot.handlers.play import play
from bot.ports import RACES, Chooser, Finish, GameHost
from bot.replies import Notice, Replies
from bot.schedule.decisions import decision_of
from bot.storage.errors import LostRace
from bot.storage.record import Game

log = logging.getLogger(__name__)

ANSWER_LIMIT = 1000
"""Actions one answer for a seat may play while the game waits for the same decision (a
safety: a decision takes a few dozen); the answer's due item is then tried again."""


async def play_for(
    host: GameHost,
    place: Place,
    decision: str,
    choose: Chooser,
    cause: str,
    *,
    note: str | None = None,
    begun: Finish | None = None,
    done: Finish | None = None,
    once: bool = False,
    strict: bool = False,
    mention: tuple[int, ...] = (),
    elsewhere: tuple[Notice, ...] = (),
) -> Replies:
    """Play ``choose``'s actions for the seat ``place``'s game waits for, while it waits
    for the same ``decision`` (a passed deadline's answer: a whole movement phase, say),
    each stored with its news and with ``cause`` in the log. ``note`` heads the first
    action's news and ``begun`` runs in its transaction; ``done`` runs in the
    transaction of the action that makes the decision (the game then waits for another,
    or is over), so that a crash between two of the actions leaves the answer to be
    finished rather than marked done. The caller holds the channel's lock; the AI seats
    that follow act as after a command. With ``once`` one action only (``done`` runs in
    its transaction); ``strict`` plays nothing else when the engine refuses it (else
    the first legal action is played instead, as for the AI). ``mention`` and
    ``elsewhere`` go with the note (the organisers pinged, told in another channel)."""
    channel = place.channel
    chain: list[Replies] = []
    races = 0
    game = await host.game_in(channel)
    while game is not None and len(chain) < (1 if once else ANSWER_LIMIT):
        decided = decision_of(game.state)
        if decided is None or decided.key != decision:
            break
        seat = decided.seat
        caller = Caller(game.user_of(seat), game.name_of(seat), on_behalf=True, cause=cause)
        try:
            action = await asyncio.to_thread(choose, game.playing(), seat)
            async with host.db.unit() as unit:
                ctx = host.context(place, caller, unit)
                if strict:
                    replies, game = await play(ctx, game, action)
                else:
                    replies, game = await ai_play(ctx, game, seat, action)
                if not chain and note is not None and replies.public is not None:
                    text = f"{note}\n{replies.public.text}"
                    pings = (*replies.public.mention, *mention)
                    public = replace(replies.public, text=text, mention=pings)
                    replies = replace(replies, public=public, elsewhere=elsewhere)
                if not chain and begun is not None:
                    await begun(unit.connection)
                if done is not None and (once or _made(game, decision)):
                    await done(unit.connection)
                host.games.remember(channel, game)
                replies = await host.told(unit, place, caller, replies, None, game)
        except LostRace as lost:  # another process moved the game on: look again
            host.games.drop(channel)
            races += 1
            log.info("game %s: playing for seat %s %s", game.id, seat, lost)
            game = await host.game_in(channel) if races < RACES else None
            continue
        except Exception:
            host.games.drop(channel)
            log.exception("game %s: playing for seat %s failed", game.id, seat)
            break
        host.deliver_soon(channel, replies)
        chain.append(replies)
    return await host.ai_after(place, merge(Replies(), chain))


def _made(game: Game, decision: str) -> bool:
    """Whether ``game`` no longer waits for ``decision`` (it was made, or the game is over)."""
    decided = decision_of(game.state)
    return decided is None or decided.key != decision
