"""``autostrike``: a player's strike-phase decisions, made for them.

When the game waits for a person's decision in a battle's strike phase
(:func:`engine.game.forced.strike_decision`) and that person turned ``autostrike`` on, the
AI runner makes it for them at once, as it plays the AI seats (:mod:`bot.ai_runner`),
saving them a decision, and a round trip when nothing of theirs follows it (see
``bench/battle_waits.py``): with ``forced``, only a decision that leaves no choice
(:func:`engine.game.forced.forced_action`: strikes of one target each, carried-over hits
only one character can take); with ``all``, every strike, rangestrike, carry-over and
the phase's end, as the computer's level :data:`LEVEL` would choose them (a decision that
leaves no choice is still made as forced). The action is theirs, logged with the cause
:data:`AUTOSTRIKE`; it is not their answer to a clock, so it neither counts as a lapse
nor clears one. A strike phase happens on the battleland, which everyone sees: making its
decisions at once tells nobody anything the rules hide (RULES §1.7), and the choice is
thought out from what the player's own seat may see.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.context import Caller
from bot.replies import Replies
from bot.storage import autostrike as rows
from bot.storage.connection import Connection
from bot.storage.record import Game
from engine.ai.levels import Level
from engine.ai.player import choose_action
from engine.game import actions as a
from engine.game.forced import STRIKE_PHASE_ACTIONS, forced_action, strike_decision
from engine.game.legal import to_act

log = logging.getLogger(__name__)

AUTOSTRIKE = "autostrike"
"""The cause logged with an action made by a player's ``autostrike``."""
LEVEL: Level = "hard"
"""The computer's level whose choices ``autostrike all`` makes."""
HEADINGS = ("#", "<@")
"""How the lines above an action's news begin (the battle's heading, a ping)."""


def striking_person(game: Game) -> int | None:
    """The seat of the person whose strike-phase decision the game waits for, if it waits
    for one."""
    if game.state is None:
        return None
    seat = to_act(game.state)
    if seat is None or game.is_ai(seat) or not strike_decision(game.state, seat):
        return None
    return seat


async def mode_of(db: Connection, game: Game, seat: int) -> rows.Mode:
    """The ``autostrike`` of the player of ``seat``."""
    user = game.user_of(seat)
    return (await rows.autostrike_modes(db, (user,))).get(user, "off")


def made_for_them(game: Game, seat: int, mode: rows.Mode) -> a.Action | None:
    """What ``autostrike`` at ``mode`` makes for the person of ``seat`` now, or None when
    they decide (``all`` thinks: call it in a worker thread)."""
    if mode == "off" or striking_person(game) != seat:
        return None
    state = game.playing()
    forced = forced_action(state, seat)
    if forced is not None or mode == "forced":
        return forced
    try:
        action = choose_action(state, seat, LEVEL)
    except Exception:  # the player makes it: the game waits for them as without
        log.exception("autostrike could not choose for seat %s", seat)
        return None
    return action if isinstance(action, STRIKE_PHASE_ACTIONS) else None


def autostrike_caller(game: Game, seat: int) -> Caller:
    """Who an action made by ``autostrike`` comes from: the seat's player, on their
    behalf, with its cause."""
    return Caller(game.user_of(seat), game.name_of(seat), on_behalf=True, cause=AUTOSTRIKE)


def marked(replies: Replies) -> Replies:
    """``replies`` of an action made by ``autostrike``, its news saying so: the action's
    line (the first of its news, under the battle's heading) says so before its full stop
    (``… 2 hits (autostrike).``)."""
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
