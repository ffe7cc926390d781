"""Buttons and a menu for short decisions, built from the legal actions.

Each button (or menu option) carries a command of the shared language; its custom id is
``titan:<game>:<command>:<version>`` (a menu's is ``titan:<game>:pick:<version>``), where
the version is the game's action count when the choice was offered. The items are
:class:`discord.ui.DynamicItem` s registered at start-up, so they work after a restart;
a click on a choice the game has moved past is refused politely, only to the clicker.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.deliver import deliver_choice, tell
from bot.discord.errors import report
from bot.discord.host import caller_of, place_of
from bot.replies import Message
from bot.service import GameService
from bot.storage.record import Game
from bot.syntax import FORMATTERS, format_action
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act

BUTTON_ID = r"titan:(?P<game>[0-9]+):(?!pick:)(?P<verb>[^:]+):(?P<version>[0-9]+)"
MENU_ID = r"titan:(?P<game>[0-9]+):pick:(?P<version>[0-9]+)"
MAX_ID = 100
MAX_BUTTONS = 20
"""Four rows of five: the fifth row stays free."""
MAX_OPTIONS = 25
#: Decisions too numerous or too detailed for buttons: slash commands with autocomplete.
NOT_OFFERED: tuple[type[a.Action], ...] = (
    a.Withdraw,
    a.ExpireTimeLimit,
    a.Reveal,
    a.Split,
    a.UndoSplit,
    a.Move,
    a.TakeBack,
    b.Maneuver,
    b.TakeBackManeuver,
)
_DANGER = frozenset({"concede", "insist", "withdraw"})
_QUIET = frozenset({"done", "decline", "nomore", "roll", "mulligan"})
STALE = "This choice is out of date: the game has moved on. Use the newest message, or `/titan`."


def custom_id(game: int, verb: str, version: int) -> str:
    return f"titan:{game}:{verb}:{version}"


def _style(verb: str) -> discord.ButtonStyle:
    word = verb.split()[0]
    if word in _DANGER:
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.secondary if word in _QUIET else discord.ButtonStyle.primary


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_ID):
    """A button giving one command of the game at one version."""

    def __init__(self, game: int, verb: str, version: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=verb[:1].upper() + verb[1:80],
            style=_style(verb),
            custom_id=custom_id(game, verb, version),
        )
        super().__init__(button)
        self.game, self.verb, self.version = game, verb, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(int(match["game"]), match["verb"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await choose(interaction, self.game, self.verb, self.version)


class ActionMenu(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=MENU_ID):
    """A menu of commands of the game at one version (for up to 25 choices)."""

    def __init__(self, game: int, version: int, verbs: list[str]) -> None:
        options = [discord.SelectOption(label=v[:100], value=v) for v in verbs]
        menu: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"titan:{game}:pick:{version}", options=options, placeholder="Choose…"
        )
        super().__init__(menu)
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionMenu:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["game"]), int(match["version"]), [o.value for o in options])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await choose(interaction, self.game, self.item.values[0], self.version)


DYNAMIC_ITEMS = (ActionButton, ActionMenu)


def choices_view(game: int, version: int, verbs: list[str]) -> discord.ui.View | None:
    """Buttons for up to 20 commands, a menu for up to 25, else nothing."""
    verbs = [
        v
        for v in dict.fromkeys(verbs)
        if ":" not in v and len(custom_id(game, v, version)) <= MAX_ID
    ]
    if not verbs or len(verbs) > MAX_OPTIONS:
        return None
    view = discord.ui.View(timeout=None)
    if len(verbs) <= MAX_BUTTONS:
        for verb in verbs:
            view.add_item(ActionButton(game, verb, version))
    else:
        view.add_item(ActionMenu(game, version, verbs))
    return view


def offered(game: Game) -> list[str]:
    """The commands offered as choices to the player the game waits for."""
    state = game.state
    seat = to_act(state) if state is not None else None
    if state is None or seat is None:
        return []
    return [
        format_action(action)
        for action in legal_actions(state, seat)
        if not isinstance(action, NOT_OFFERED) and type(action) in FORMATTERS
    ]


async def next_choices(service: GameService, channel: int) -> discord.ui.View | None:
    """The choices for the channel's next decision, if they are few."""
    game = await service.game_in(channel)
    return choices_view(game.id, game.n, offered(game)) if game is not None else None


async def choose(
    interaction: discord.Interaction[Any], game_id: int, verb: str, version: int
) -> None:
    """Run a clicked command, unless the game has moved past the version it was made for."""
    try:
        await interaction.response.defer()
        service = interaction.client.service
        place = place_of(interaction)
        game = await service.game_in(place.channel)
        if game is None or game.id != game_id or game.n != version or game.state is None:
            await tell(interaction, Message(STALE))
            return
        replies = await service.submit(place, caller_of(interaction), verb)
        view = await next_choices(service, place.channel) if replies.public else None
        await deliver_choice(interaction, replies, view)
    except Exception as exc:
        await report(interaction, exc)
