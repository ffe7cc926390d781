"""AI seats: the computer plays its seats' decisions as soon as the game waits for them.

After a command, while the seat to act is an AI seat (:func:`waiting_ai`), the service
calls :func:`ai_turn`: it asks :func:`engine.ai.choose_action` (in a worker thread) and
plays the answer through :func:`~bot.handlers.play.play` like any command: its own transaction,
log entry and narration. An AI never holds a game up: a choice that raises (or is
refused) gives way to the first legal action, and ``Withdraw`` is chosen only when
nothing else is legal. :func:`merge` folds the chain's replies into the one reply of the
command that set it off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.context import Caller, Context
from bot.handlers.play import play
from bot.replies import Message, Replies
from bot.storage.record import Game
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
WAITING = "Waiting for **"
"""How :func:`bot.handlers.play.announce` begins the line naming the next decision."""
OWN_LEGIONS = "Your legions:"
"""How :func:`bot.narration.describe.own_legions_text` begins."""


def fallback(state: GameState, seat: int) -> a.Action:
    """The first legal action that is neither ``Withdraw``, a voluntary ``Reveal`` nor an
    undo (which could make the fallback loop); ``Withdraw`` only when nothing else is
    legal."""
    legal = legal_actions(state, seat)
    return next((x for x in legal if not isinstance(x, NOT_FALLBACK)), legal[0])


def decide(state: GameState, seat: int) -> a.Action:
    """The AI's action for ``seat``: :func:`choose_action`, or :func:`fallback` when it
    raises or answers ``Withdraw`` while something else is legal."""
    try:
        action = choose_action(state, seat)
    except Exception:
        log.exception("the AI failed to choose for seat %s; playing the first legal action", seat)
        return fallback(state, seat)
    return fallback(state, seat) if isinstance(action, a.Withdraw) else action


async def ai_turn(ctx: Context, game: Game, seat: int) -> tuple[Replies, Game]:
    """Play one decision of the AI ``seat`` (stored in its own transaction)."""
    state = game.playing()
    me = replace(ctx, caller=Caller(game.user_of(seat), game.name_of(seat)))
    action = await asyncio.to_thread(decide, state, seat)
    try:
        return await play(me, game, action)
    except TitanError:
        log.exception("game %s: the AI's %r was refused; playing the first legal", game.id, action)
        return await play(me, game, fallback(state, seat))


def waiting_ai(game: Game) -> int | None:
    """The AI seat the game waits for, if it waits for one."""
    if game.state is None:
        return None
    seat = to_act(game.state)
    return seat if seat is not None and game.is_ai(seat) else None


def merge(first: Replies, chain: Sequence[Replies], limit: int = MAX_TEXT) -> Replies:
    """One reply for a command and the AI actions it set off.

    The public texts follow each other (only the last says whom the game waits for); the
    last picture and the last pings are kept, as the next human to act is pinged last.
    Private news is joined per user with only the latest list of their legions.
    """
    if not chain:
        return first
    publics = [r.public for r in (first, *chain) if r.public is not None]
    public = None
    if publics:
        lines = [x for m in publics[:-1] for x in m.text.splitlines() if not x.startswith(WAITING)]
        text = clip([*lines, *publics[-1].text.splitlines()], limit)
        picture = next((m.picture for m in reversed(publics) if m.picture is not None), None)
        public = Message(text, picture, mention=publics[-1].mention)
    private: dict[int, list[str]] = {}
    for replies in (first, *chain):
        for user, message in replies.private.items():
            private.setdefault(user, []).append(message.text)
    return replace(
        first,
        public=public,
        private={user: Message(_private_text(texts, limit)) for user, texts in private.items()},
    )


def _private_text(texts: list[str], limit: int) -> str:
    """Private news in order, with only the latest list of the player's legions."""
    last = max((i for i, text in enumerate(texts) if OWN_LEGIONS in text), default=-1)
    lines: list[str] = []
    for index, text in enumerate(texts):
        news, _, legions = text.partition(OWN_LEGIONS)
        lines += news.splitlines()
        if index == last:
            lines += (OWN_LEGIONS + legions).splitlines()
    return clip([x for x in lines if x], limit)


def clip(lines: list[str], limit: int) -> str:
    """``lines`` within ``limit`` characters: the first third and the end are kept, the
    middle is summed up (``history`` shows it all)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    lines = list(lines)
    head: list[str] = []
    while lines and len("\n".join([*head, lines[0]])) < limit // 3:
        head.append(lines.pop(0))
    tail: list[str] = []
    while lines and len("\n".join([*head, *tail, lines[-1]])) < limit - 60:
        tail.insert(0, lines.pop())
    note = f"… {len(lines)} more lines (`history` shows them) …"
    return "\n".join([*head, note, *tail])
