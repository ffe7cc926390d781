"""Buttons and menus drawing the choices a message offers (:class:`~bot.offers.Offers`).

What is offered is decided by the service (:mod:`bot.offers`: a public message carries only
what the channel may know); this module only draws it. Each button carries a command of the
shared language; its custom id is ``titan:<game>:<command>:<version>`` (a menu's is
``titan:<game>:pick:<version>``), the version being the game's action count when the
choice was offered. The items are :class:`discord.ui.DynamicItem` s registered at start-up,
so they work after a restart; a click goes to the bot's ``choose`` (see
:mod:`bot.discord.choices`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.offers import Offer, Offers, Style

BUTTON_ID = r"titan:(?P<game>[0-9]+):(?!pick:)(?P<verb>[^:]+):(?P<version>[0-9]+)"
MENU_ID = r"titan:(?P<game>[0-9]+):pick:(?P<version>[0-9]+)"
MAX_ID = 100
MAX_LABEL = 80
MAX_OPTION = 100
MAX_BUTTONS = 20
"""Four rows of five: the fifth row stays free."""
MAX_OPTIONS = 25
_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.QUIET: discord.ButtonStyle.secondary,
    Style.DANGER: discord.ButtonStyle.danger,
}


def custom_id(game: int, verb: str, version: int) -> str:
    return f"titan:{game}:{verb}:{version}"


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_ID):
    """A button giving one command of the game at one version."""

    def __init__(
        self,
        game: int,
        verb: str,
        version: int,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=(label or verb)[:MAX_LABEL],
            style=style,
            custom_id=custom_id(game, verb, version),
        )
        super().__init__(button)
        self.game, self.verb, self.version = game, verb, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["game"]), match["verb"], int(match["version"]), label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.choose(interaction, self.game, self.verb, self.version)


class ActionMenu(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=MENU_ID):
    """A menu of commands of the game at one version (for up to 25 choices)."""

    def __init__(self, game: int, version: int, offers: list[Offer]) -> None:
        options = [
            discord.SelectOption(label=o.label[:MAX_OPTION], value=o.command) for o in offers
        ]
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
        offers = [Offer(o.label, o.value) for o in options]
        return cls(int(match["game"]), int(match["version"]), offers)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.choose(interaction, self.game, self.item.values[0], self.version)


DYNAMIC_ITEMS = (ActionButton, ActionMenu)


def choices_view(offers: Offers | None) -> discord.ui.View | None:
    """Buttons for up to 20 choices, a menu for up to 25, else nothing."""
    if offers is None:
        return None
    fitting = {
        o.command: o
        for o in offers.items
        if ":" not in o.command
        and len(o.command) <= MAX_OPTION
        and len(custom_id(offers.game, o.command, offers.version)) <= MAX_ID
    }
    items = list(fitting.values())
    if not items or len(items) > MAX_OPTIONS:
        return None
    view = discord.ui.View(timeout=None)
    if len(items) <= MAX_BUTTONS:
        for o in items:
            button = ActionButton(offers.game, o.command, offers.version, o.label, _STYLES[o.style])
            view.add_item(button)
    else:
        view.add_item(ActionMenu(offers.game, offers.version, items))
    return view
