"""``autostrike``: the battle decisions that leave a player no choice, made for them.

When the game waits for a person whose next battle action is forced
(:func:`engine.game.forced.forced_action`: strikes of one target each, carried-over hits
only one character can take) and who turned ``autostrike`` on, the AI runner plays that
action for them at once, as it plays the AI seats (:mod:`bot.ai_runner`), saving them a
round trip. The action is theirs, logged with the cause :data:`AUTOSTRIKE`; it is not
their answer to a clock, so it neither counts as a lapse nor clears one. Whether an
action is forced follows from the battleland, which everyone sees: making it at once
tells nobody anything (RULES §1.7).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.context import Caller
from bot.replies import Replies
from bot.storage import autostrike as rows
from bot.storage.connection import Connection
from bot.storage.record import Game
from engine.game import actions as a
from engine.game.forced import forced_action
from engine.game.legal import to_act

AUTOSTRIKE = "autostrike"
"""The cause logged with an action made by a player's ``autostrike``."""
HEADINGS = ("#", "<@")
"""How the lines above an action's news begin (the battle's heading, a ping)."""


@dataclass(frozen=True)
class Forced:
    """A person's forced action the game waits for."""

    seat: int
    action: a.Action


def forced_turn(game: Game) -> Forced | None:
    """The forced battle action of the person the game waits for, if their next action is
    forced (whether they asked for it to be made for them is :func:`made_for_them`)."""
    if game.state is None:
        return None
    seat = to_act(game.state)
    if seat is None or game.is_ai(seat):
        return None
    action = forced_action(game.state, seat)
    return Forced(seat, action) if action is not None else None


async def made_for_them(db: Connection, game: Game, forced: Forced) -> bool:
    """Whether the player of ``forced``'s seat turned ``autostrike`` on."""
    user = game.user_of(forced.seat)
    return user in await rows.autostrikers(db, (user,))


def autostrike_caller(game: Game, seat: int) -> Caller:
    """Who a forced action made by ``autostrike`` comes from: the seat's player, on their
    behalf, with its cause."""
    return Caller(game.user_of(seat), game.name_of(seat), on_behalf=True, cause=AUTOSTRIKE)


def marked(replies: Replies) -> Replies:
    """``replies`` of a forced action made by ``autostrike``, its news saying so: the
    action's line (the first of its news, under the battle's heading) says so before its
    full stop (``… 2 hits (autostrike).``)."""
    public = replies.public
    if public is None:
        return replies
    lines = public.text.split("\n")
    at = next((i for i, line in enumerate(lines) if line and not line.startswith(HEADINGS)), None)
    if at is None:
        return replies
    line = lines[at]
    stop = "." if line.endswith(".") else ""
    lines[at] = f"{line.removesuffix('.')} ({AUTOSTRIKE}){stop}"
    return replace(replies, public=replace(public, text="\n".join(lines)))
