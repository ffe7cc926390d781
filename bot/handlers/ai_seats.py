"""AI seats: the computer plays its seats' decisions as soon as the game waits for them.

After a command, while the seat to act is an AI seat (:func:`waiting_ai`), the service
asks :func:`ai_choice` (:func:`engine.ai.choose_action`, in a worker thread) and plays the
answer with :func:`ai_play` through :func:`~bot.handlers.play.play` like any command: its
own transaction, log entry, narration and outbox rows. An AI never holds a game up: a
choice that raises (or is refused) gives way to the first legal action, and ``Withdraw``
is chosen only when nothing else is legal. :func:`merge` folds the chain's replies into
the one reply of the command that set it off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.context import Caller, Context
from bot.handlers.play import play
from bot.outbox.joining import join_news, join_private
from bot.replies import Message, Replies
from bot.storage.record import Game
from engine.ai.levels import STAND_IN, Level
from engine.ai.player import choose_action
from engine.errors import TitanError
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState

log = logging.getLogger(__name__)

NOT_FALLBACK = (a.Withdraw, a.Reveal, a.UndoSplit, a.TakeBack, b.TakeBackManeuver)
"""Legal actions the fallback skips while there are others."""
MAX_TEXT = 1900
"""Characters of merged text kept (Discord allows 2,000 with the pings)."""


def fallback(state: GameState, seat: int) -> a.Action:
    """The first legal action that is neither ``Withdraw``, a voluntary ``Reveal`` nor an
    undo (which could make the fallback loop); ``Withdraw`` only when nothing else is
    legal."""
    legal = legal_actions(state, seat)
    return next((x for x in legal if not isinstance(x, NOT_FALLBACK)), legal[0])


def decide(state: GameState, seat: int, level: Level = STAND_IN) -> a.Action:
    """The AI's action for ``seat`` at ``level`` (a stand-in's or a timeout's unless said):
    :func:`choose_action`, or :func:`fallback` when it raises or answers ``Withdraw``
    while something else is legal."""
    try:
        action = choose_action(state, seat, level)
    except Exception:
        log.exception("the AI failed to choose for seat %s; playing the first legal action", seat)
        return fallback(state, seat)
    return fallback(state, seat) if isinstance(action, a.Withdraw) else action


def ai_caller(game: Game, seat: int) -> Caller:
    """Who an AI seat's commands come from."""
    return Caller(game.user_of(seat), game.name_of(seat))


async def ai_choice(game: Game, seat: int) -> a.Action:
    """What the AI ``seat`` does now, at its level (thought out in a worker thread)."""
    return await asyncio.to_thread(decide, game.playing(), seat, game.level_of(seat))


async def ai_play(ctx: Context, game: Game, seat: int, action: a.Action) -> tuple[Replies, Game]:
    """Play the AI's ``action`` (the first legal one if the engine refuses it); the caller
    of ``ctx`` is the AI seat (:func:`ai_caller`)."""
    try:
        return await play(ctx, game, action)
    except TitanError:
        log.exception("game %s: the AI's %r was refused; playing the first legal", game.id, action)
        return await play(ctx, game, fallback(game.playing(), seat))


def waiting_ai(game: Game) -> int | None:
    """The AI seat the game waits for, if it waits for one."""
    if game.state is None:
        return None
    seat = to_act(game.state)
    return seat if seat is not None and game.is_ai(seat) else None


def merge(first: Replies, chain: Sequence[Replies], limit: int = MAX_TEXT) -> Replies:
    """One reply for a command and the AI actions it set off.

    The public texts follow each other (only the last says whom the game waits for); the
    last picture, the last pings and the last choices are kept, as the next human to act
    is pinged last. Private news is joined per user with only the latest list of their
    legions.
    """
    if not chain:
        return first
    publics = [r.public for r in (first, *chain) if r.public is not None]
    public = None
    if publics:
        text = join_news([m.text for m in publics], limit)
        picture = next((m.picture for m in reversed(publics) if m.picture is not None), None)
        public = Message(text, picture, mention=publics[-1].mention, offers=publics[-1].offers)
    private: dict[int, list[str]] = {}
    for replies in (first, *chain):
        for user, message in replies.private.items():
            private.setdefault(user, []).append(message.text)
    return replace(
        first,
        public=public,
        private={user: Message(join_private(texts, limit)) for user, texts in private.items()},
        stored=first.stored or any(r.stored for r in chain),
    )
