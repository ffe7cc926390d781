"""Whole games on the fake Discord, played as people would: buttons, private steps, commands.

A seeded agent picks a legal action for the player the game waits for; the driver gives it
the way a player would: by clicks — the public board's button or menu option for it, or
the ask or menu option whose private step leads to it, then the steps' choices only the
clicker sees (:mod:`tests.bot.clicks`) — or, now and then, as a power user would, as the
slash command, its options written from the action's fields; a second look the bot asks
for is confirmed. What
actually happened is read back from the game's log, so a check follows the real game even
when a command's default (a muster's least revealing recruiters) differs from the pick.

:func:`audience` and :func:`strings` read the fake's requests: who a request's message
reaches (a spectator in the channel, a user in a DM or an ephemeral answer, the caller of
an autocomplete) and every string it carries (content, components' labels, custom ids and
values, file names, embeds, thread names).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from bot.discord import specs as s
from bot.discord.specs import Spec, show
from bot.handlers.autostrike import AUTOSTRIKE, FIGHTON
from bot.offers import Menu, Offer
from bot.storage import games as rows
from bot.storage.connection import Backend
from bot.storage.eventlog import events_from_text
from bot.storage.record import Game
from bot.syntax import FORMATTERS, format_action
from engine.events import Event
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.agent import pick
from tests.bot.clicks import MOST_CLICKS, leads_to, pick_for, same
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import Running
from tests.bot.discord.fake import EPHEMERAL, FakeDiscord, Pushed, Request, Sent
from tests.bot.discord.helpers import handled

TURN, BATTLE, DONE = ("turn",), ("battle",), ("done",)
#: The slash command for each action (one per verb: the service reads it from the state).
SLASH: dict[type[a.Action], tuple[tuple[str, ...], Spec]] = {
    a.ChooseColour: ((*TURN, "colour"), s.COLOUR),
    a.Split: ((*TURN, "split"), s.SPLIT),
    a.UndoSplit: ((*TURN, "unsplit"), s.UNSPLIT),
    a.Roll: ((*TURN, "roll"), s.ROLL),
    a.Mulligan: ((*TURN, "mulligan"), s.MULLIGAN),
    a.Move: ((*TURN, "move"), s.MOVE),
    a.TakeBack: ((*TURN, "takeback"), s.TAKEBACK),
    a.EndMovement: (DONE, s.DONE),
    a.Muster: ((*TURN, "muster"), s.MUSTER),
    a.EndTurn: (DONE, s.DONE),
    a.Engage: ((*BATTLE, "engage"), s.ENGAGE),
    a.Flee: ((*BATTLE, "flee"), s.FLEE),
    a.Fight: ((*BATTLE, "fight"), s.FIGHT),
    a.Accept: ((*BATTLE, "accept"), s.ACCEPT),
    a.Concede: ((*BATTLE, "concede"), s.CONCEDE),
    a.NoMoreProposals: ((*BATTLE, "nomore"), s.NOMORE),
    a.Acquire: ((*BATTLE, "acquire"), s.ACQUIRE),
    a.Decline: ((*BATTLE, "decline"), s.DECLINE),
    a.Summon: ((*BATTLE, "summon"), s.SUMMON),
    a.Reinforce: ((*BATTLE, "reinforce"), s.REINFORCE),
    b.Maneuver: ((*BATTLE, "maneuver"), s.MANEUVER),
    b.TakeBackManeuver: ((*BATTLE, "takeback"), s.UNDO),
    b.EndManeuver: (DONE, s.DONE),
    b.EndStrikes: (DONE, s.DONE),
    b.Strike: ((*BATTLE, "strike"), s.STRIKE),
    b.Rangestrike: ((*BATTLE, "rangestrike"), s.RANGESTRIKE),
    b.CarryOver: ((*BATTLE, "carry"), s.CARRY),
    b.ConcedeInstead: ((*BATTLE, "insist"), s.INSIST),
    b.AcceptConcession: ((*BATTLE, "accept"), s.ACCEPT_CONCESSION),
}
NOT_PLAYED = (a.Withdraw, a.ExpireTimeLimit, a.Propose)
"""Left out by the agent: they end games early, or are rare enough in a random game."""
TYPING = 0.25
"""How often the driver types an action that clicks would give (unless clicks only)."""


@dataclass
class Step:
    """One action given through Discord: how, the interactions it took, what happened."""

    how: str
    pushed: list[Pushed]
    requests: list[Request]
    events: list[Event]


class Games(Protocol):
    """Where the driver reads the game: the running bot's service, or the database of a
    bot running in another process."""

    @property
    def db(self) -> Backend: ...

    async def game_in(self, channel: int) -> Game | None: ...


Waiter = Callable[[FakeDiscord, Pushed], Awaitable[Pushed]]
"""Waits until the bot is done with an interaction (:func:`handled` for a bot in this
process)."""


class Driver:
    """Plays the game in ``channel`` (the fake's game channel) through the running bot."""

    def __init__(
        self,
        fake: FakeDiscord,
        running: Running | Games,
        seed: int,
        *,
        channel: int = p.CHANNEL_ID,
        wait: Waiter = handled,
        clicks_only: bool = False,
        typing: float = TYPING,
    ) -> None:
        self.fake = fake
        self.service: Games = running.bot.service if isinstance(running, Running) else running
        self.rng = random.Random(seed)
        self.ways: dict[str, int] = {}
        self.channel = channel
        self._wait = wait
        self.clicks_only = clicks_only
        """Every action by clicks: a test fails where none would give it."""
        self.typing = typing
        """How often an action is typed as a command although clicks would give it."""
        self._typing = random.Random(f"typing:{seed}")
        self.confirmations = 0
        """Second looks confirmed."""

    async def state(self) -> tuple[int, int, GameState] | None:
        game = await self.service.game_in(self.channel)
        if game is None or game.state is None:
            return None
        return game.id, game.n, game.state

    async def step(self) -> Step | None:
        """Play one action of the player the game waits for (None when the game is over)."""
        found = await self.state()
        if found is None:
            return None
        seat = to_act(found[2])
        assert seat is not None
        choices = [x for x in legal_actions(found[2], seat) if not isinstance(x, NOT_PLAYED)]
        done = await self.play(pick(choices, self.rng, fighting=True), found)
        self.ways[done.how] = self.ways.get(done.how, 0) + 1
        return done

    async def play(self, action: a.Action, found: tuple[int, int, GameState] | None = None) -> Step:
        """Give ``action`` for the player the game waits for, as a player would (by
        clicks, or now and then as the command), and read back what happened (``found``:
        the game as :meth:`state` just read it)."""
        found = found or await self.state()
        assert found is not None, "the game is over"
        game_id, n, state = found
        seat = to_act(state)
        game = await self.service.game_in(self.channel)
        assert seat is not None and game is not None
        first = len(self.fake.requests)
        pushed, how = await self._give(game.user_of(seat), state, action)
        events = await self._logged(game_id, n)
        return Step(how, pushed, self.fake.requests[first:], events)

    async def _logged(self, game_id: int, n: int) -> list[Event]:
        """The events of the actions logged after the first ``n``: the one just given, and
        those the game made by itself after it (a player's ``autostrike`` or ``fighton``)."""
        async with self.service.db.reading() as db:
            logged = await rows.actions(db, game_id, n)
        assert logged, f"no action after #{n}"
        extra = [row.cause for row in logged[1:]]
        assert logged[0].cause is None and set(extra) <= {AUTOSTRIKE, FIGHTON}, extra
        return [event for row in logged for event in events_from_text(row.events)]

    async def _give(
        self, user: int, state: GameState, action: a.Action
    ) -> tuple[list[Pushed], str]:
        """Give ``action`` by clicks (through the private steps), else as a command (now
        and then as a command anyway, as a player who types would)."""
        typed = not self.clicks_only and self._typing.random() < self.typing
        if type(action) in FORMATTERS and not typed:
            target = format_action(action)
            board = self.board()
            if board is not None:
                clicked = await self._through(user, board, action, target, MOST_CLICKS)
                if clicked is not None:
                    return clicked, "button" if len(clicked) == 1 else "private step"
        if self.clicks_only:
            raise AssertionError(f"no click gives {format_action(action)!r}")
        pushed = await self._slash(user, action)
        return [pushed, *await self._confirm(user, None, pushed)], "command"

    async def _through(
        self, user: int, message: Sent, action: a.Action, target: str, left: int
    ) -> list[Pushed] | None:
        """The clicks from ``message`` to ``action``: the choice giving it (and, when the
        bot asks for a second look, its confirmation), or a step whose words agree with it
        and then the clicks from the step's message (see :mod:`tests.bot.clicks`)."""
        if left == 0:
            return None
        for item, value in _choices(message):
            if not value.startswith("choices ") and same(value, target):
                pushed = await self._pick(user, message, item, [value])
                return [pushed, *await self._confirm(user, message, pushed)]
        for item, value in _choices(message):
            if not value.startswith("choices ") or not leads_to(value, action, target):
                continue
            values = [value]
            if item.get("type") == 3 and item.get("max_values", 1) > 1:
                picked = pick_for(_menu(item), action)
                if picked is None:
                    continue
                values = picked
            pushed = await self._pick(user, message, item, values)
            opened = self._answer(message, pushed)
            if opened is None:
                continue
            rest = await self._through(user, opened, action, target, left - 1)
            if rest is not None:
                return [pushed, *rest]
        return None

    async def _pick(
        self, user: int, message: Sent, item: dict[str, Any], values: list[str]
    ) -> Pushed:
        """Click a button, or pick ``values`` in a menu."""
        if item.get("type") == 2:
            return await self._click(user, message, item["custom_id"])
        pushed = await self.fake.click(user, message, item["custom_id"], values=values)
        return await self._wait(self.fake, pushed)

    def _answer(self, clicked: Sent | None, pushed: Pushed) -> Sent | None:
        """The private message a click (or a command) answered with: the one clicked
        (edited in place) or a new one."""
        if clicked is not None and clicked.ephemeral and not clicked.deleted:
            return clicked
        found = self.fake.ephemeral(pushed)
        return found[-1] if found else None

    async def _confirm(self, user: int, clicked: Sent | None, pushed: Pushed) -> list[Pushed]:
        """Confirm the action when the bot asked for a second look."""
        asked = self._answer(clicked, pushed)
        if asked is None:
            return []
        for item, value in _choices(asked):
            if value.endswith(" confirm"):
                self.confirmations += 1
                return [await self._pick(user, asked, item, [value])]
        return []

    async def _click(self, user: int, message: Sent, custom: str) -> Pushed:
        return await self._wait(self.fake, await self.fake.click(user, message, custom))

    async def _slash(self, user: int, action: a.Action) -> Pushed:
        path, spec = SLASH[type(action)]
        options: dict[str, object] = {}
        for word in spec.words:
            if word.field is not None and hasattr(action, word.field):
                value = show(getattr(action, word.field))
                if value:
                    options[word.option] = value
        if isinstance(action, a.EndMovement) and action.keep:
            options["keep"] = " ".join(action.keep)
        pushed = await self.fake.slash(user, *path, channel=self.channel, **options)
        return await self._wait(self.fake, pushed)

    def board(self) -> Sent | None:
        """The newest message with choices on it in the channel or one of its threads."""
        places = {self.channel} | {t.id for t in self.fake.threads(self.channel)}
        return next(  # the messages are kept in the order they were made: the newest last
            (
                m
                for m in reversed(self.fake.messages.values())
                if m.channel in places and not m.ephemeral and not m.deleted and m.components
            ),
            None,
        )


def _choices(message: Sent) -> Iterator[tuple[dict[str, Any], str]]:
    """Every choice of ``message``: a button and its command, a menu option and its value,
    a menu of several picks and its command's beginning."""
    for row in message.components:
        for item in row.get("components", []):
            parts = item["custom_id"].split(":")
            if item.get("type") == 2:
                yield item, parts[2]
            elif item.get("max_values", 1) > 1:
                yield item, parts[2].removeprefix("pick ")
            else:
                for option in item.get("options", []):
                    yield item, option["value"]


def _menu(item: dict[str, Any]) -> Menu:
    """A menu of several picks as :func:`~tests.bot.clicks.pick_for` reads it."""
    options = tuple(Offer(o["label"], o["value"]) for o in item.get("options", []))
    prefix = item["custom_id"].split(":")[2].removeprefix("pick ")
    return Menu("", options, prefix, item.get("min_values", 1), item.get("max_values", 1))


def _message(answer: Any) -> dict[str, Any] | None:
    """The message a request made or edited, from the fake's answer."""
    if not isinstance(answer, dict):
        return None
    if "resource" in answer:
        found = answer["resource"].get("message")
        return found if isinstance(found, dict) else None
    return answer if "channel_id" in answer else None


def audience(fake: FakeDiscord, request: Request) -> tuple[str, int | None] | None:
    """Who reads what ``request`` sent: ("channel", None), ("user", id), or None (nothing)."""
    token = _token(request.path)
    found = fake.interactions.by_token(token)
    caller = found.user if found is not None else None
    if request.path.endswith("/callback") and request.body.get("type") == 8:
        return "user", caller  # autocomplete choices: only the one typing sees them
    message = _message(request.answer)
    if message is None:
        return None
    channel = int(message["channel_id"])
    dm = next((u for u, c in fake.dm_channels.items() if c == channel), None)
    if dm is not None:
        return "user", dm
    if int(message.get("flags") or 0) & EPHEMERAL:
        return "user", caller
    return "channel", None


def _token(path: str) -> str | None:
    parts = path.split("/")
    if parts[0] == "interactions" and len(parts) >= 3:
        return parts[2]
    if parts[0] == "webhooks" and len(parts) >= 3:
        return parts[2]
    return None


SKIP_KEYS = frozenset({"allowed_mentions", "type", "flags", "style", "nonce", "id"})


def strings(value: Any, key: str | None = None) -> Iterator[str]:
    """Every string in a request body a reader may see (ids and switches left out)."""
    if key in SKIP_KEYS:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)


def sent_strings(request: Request) -> list[str]:
    """The strings of a request: its JSON body and the names of the files it uploads."""
    return [*strings(request.body), *(name for name, _ in request.files)]
