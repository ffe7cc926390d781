"""``autostrike`` and ``fighton``: a player's strike-phase decisions and chances to
concede, made for them.

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

With ``fighton`` on, a chance to concede outright and nothing else that a battle gives the
player (:func:`engine.game.forced.concession_window`: as the battle begins, before drift
damage, before the counterstrikes, at the end check; RULES §5.8) is answered "fight on" at
once, logged with the cause :data:`FIGHTON`. Conceding stays open to them at each of their
own decisions.

A decision made so is made whenever the game comes to it (:func:`covers`): the news that
hands it to the player pings nobody and offers no choice for it (:func:`made_at_once`),
as for a computer's seat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from bot.context import Caller
from bot.replies import Replies
from bot.storage import autostrike as rows
from bot.storage.connection import Connection
from bot.storage.record import Game
from engine.ai.levels import Level
from engine.ai.player import choose_action
from engine.game import actions as a
from engine.game.forced import (
    STRIKE_PHASE_ACTIONS,
    concession_window,
    forced_action,
    strike_decision,
)
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState

log = logging.getLogger(__name__)

AUTOSTRIKE = "autostrike"
"""The cause logged with an action made by a player's ``autostrike``."""
FIGHTON = "fighton"
"""The cause logged with a concession window answered by a player's ``fighton``."""
LEVEL: Level = "hard"
"""The computer's level whose choices ``autostrike all`` makes."""
HEADINGS = ("#", "<@")
"""How the lines above an action's news begin (the battle's heading, a ping)."""


def deciding_person(game: Game) -> int | None:
    """The seat of the person whose strike-phase decision or concession window the game
    waits for, if it waits for one: what their choices may make."""
    if game.state is None:
        return None
    seat = to_act(game.state)
    if seat is None or game.is_ai(seat):
        return None
    state = game.state
    return seat if strike_decision(state, seat) or concession_window(state, seat) else None


async def choices_of(db: Connection, game: Game, seat: int) -> rows.Autoplay:
    """The ``autostrike`` and ``fighton`` of the player of ``seat``, their autostrike at
    most what the game allows (a tournament's choice)."""
    user = game.user_of(seat)
    chosen = (await rows.autoplay_of(db, (user,))).get(user, rows.Autoplay())
    return replace(chosen, strikes=capped(chosen.strikes, game.settings.autostrike))


def capped(mode: rows.Mode, most: rows.Mode) -> rows.Mode:
    """``mode``, or ``most`` when it makes less (``off`` < ``forced`` < ``all``)."""
    return min(mode, most, key=rows.MODES.index)


@dataclass(frozen=True)
class Made:
    """An action a player's choices make for them, and which choice (the logged cause)."""

    action: a.Action
    cause: str


def covers(choices: rows.Autoplay, state: GameState, seat: int) -> bool:
    """Whether ``choices`` make the decision the game waits for from ``seat``."""
    if concession_window(state, seat):
        return choices.fight_on
    if not strike_decision(state, seat) or choices.strikes == "off":
        return False
    return choices.strikes == "all" or forced_action(state, seat) is not None


async def made_at_once(db: Connection, game: Game) -> int | None:
    """The seat of the person whose decision the game waits for, when their choices make
    it at once: nobody is pinged for it nor offered its choices."""
    seat = deciding_person(game)
    if seat is None:
        return None
    return seat if covers(await choices_of(db, game, seat), game.playing(), seat) else None


def made_for_them(game: Game, seat: int, choices: rows.Autoplay) -> Made | None:
    """What the choices of the person of ``seat`` make for them now, or None when they
    decide (``autostrike all`` thinks: call it in a worker thread)."""
    state = game.playing()
    if deciding_person(game) != seat or not covers(choices, state, seat):
        return None
    if concession_window(state, seat):
        return Made(a.Decline(), FIGHTON)
    action = forced_action(state, seat)
    return Made(action if action is not None else _thought_out(state, seat), AUTOSTRIKE)


def _thought_out(state: GameState, seat: int) -> a.Action:
    """The strike-phase decision the computer's :data:`LEVEL` makes for ``seat``; should
    it fail, the first legal one (the player was not pinged: the game must not wait)."""
    try:
        action = choose_action(state, seat, LEVEL)
    except Exception:
        log.exception("autostrike could not choose for seat %s", seat)
    else:
        if isinstance(action, STRIKE_PHASE_ACTIONS):
            return action
    return next(x for x in legal_actions(state, seat) if isinstance(x, STRIKE_PHASE_ACTIONS))


def made_caller(game: Game, seat: int, cause: str) -> Caller:
    """Who an action made by a player's choices comes from: the seat's player, on their
    behalf, with its ``cause``."""
    return Caller(game.user_of(seat), game.name_of(seat), on_behalf=True, cause=cause)


def marked(replies: Replies, cause: str) -> Replies:
    """``replies`` of an action made by a player's choice ``cause``, its news saying so:
    the action's line (the first of its news, under the battle's heading) says so before
    its full stop (``… 2 hits (autostrike).``)."""
    public = replies.public
    if public is None:
        return replies
    lines = public.text.split("\n")
    at = next((i for i, line in enumerate(lines) if line and not line.startswith(HEADINGS)), None)
    if at is None:
        return replies
    line = lines[at]
    stop = "." if line.endswith(".") else ""
    lines[at] = f"{line.removesuffix('.')} ({cause}){stop}"
    return replace(replies, public=replace(public, text="\n".join(lines)))


def called_back(replies: Replies, game: Game, seat: int) -> Replies:
    """``replies`` of an action made for the person of ``seat``, pinging them when the game
    waits for them again: the news that handed them the decision made for them did not
    (:func:`made_at_once`), and the action's own news pings only someone else."""
    public = replies.public
    user = game.user_of(seat)
    if public is None or game.state is None or to_act(game.state) != seat or user in public.mention:
        return replies
    return replace(replies, public=replace(public, mention=(*public.mention, user)))
