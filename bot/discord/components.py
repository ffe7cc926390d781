"""Buttons and menus drawing the choices a message offers (:class:`~bot.offers.Offers`).

What is offered is decided by the service (:mod:`bot.offers`: a public message carries only
what the channel may know); this module only draws it, within Discord's limits: five rows
a message, each a menu or up to five buttons; 25 options a menu; labels of 80 characters
(100 in a menu); custom ids of 100.

Each button carries a command of the shared language: its custom id is
``titan:<game>:<command>:<version>``, the version being the game's action count when the
choice was offered. A menu's is ``titan:<game>:pick:<version>`` (``pick#2`` for a second
menu), its options' values being the commands; a menu of several options at once carries
the command they complete, ``titan:<game>:pick <prefix>:<version>``. A button whose id
would be too long goes into a menu of its own (a value may have 100 characters). The
items are :class:`discord.ui.DynamicItem` s registered at start-up, so they work after a
restart; a click goes to the bot's ``choose`` (see :mod:`bot.discord.choices`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.offers import Menu, Offer, Offers, Style
from bot.offers.model import MAX_ROWS, ROW

BUTTON_ID = r"titan:(?P<game>[0-9]+):(?!pick[:# ])(?P<verb>[^:]+):(?P<version>[0-9]+)"
MENU_ID = r"titan:(?P<game>[0-9]+):pick(?P<tag>[# ][^:]*)?:(?P<version>[0-9]+)"
MAX_ID = 100
MAX_LABEL = 80
MAX_OPTION = 100
MAX_OPTIONS = 25
_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.QUIET: discord.ButtonStyle.secondary,
    Style.DANGER: discord.ButtonStyle.danger,
    Style.GOOD: discord.ButtonStyle.success,
}


def custom_id(game: int, verb: str, version: int) -> str:
    return f"titan:{game}:{verb}:{version}"


def menu_id(game: int, version: int, index: int, prefix: str | None) -> str:
    """A menu's custom id: the first single menu ``pick``, the next ``pick#2``…; a menu of
    several options at once ``pick <prefix>``."""
    if prefix is not None:
        return f"titan:{game}:pick {prefix}:{version}"
    return f"titan:{game}:pick{'' if index == 0 else f'#{index + 1}'}:{version}"


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_ID):
    """A button giving one command of the game at one version."""

    def __init__(
        self,
        game: int,
        verb: str,
        version: int,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        row: int | None = None,
    ) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=(label or verb)[:MAX_LABEL],
            style=style,
            custom_id=custom_id(game, verb, version),
            row=row,
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
    """A menu of commands of the game at one version (up to 25 choices), or of options
    completing one command (``prefix``: several picked at once)."""

    def __init__(
        self,
        game: int,
        version: int,
        menu: Menu,
        index: int = 0,
        row: int | None = None,
    ) -> None:
        options = [
            discord.SelectOption(
                label=o.label[:MAX_OPTION],
                value=o.command,
                description=o.detail[:MAX_OPTION] if o.detail else None,
            )
            for o in menu.options[:MAX_OPTIONS]
        ]
        least = min(menu.least, len(options)) if menu.prefix is not None else 1
        most = min(menu.most, len(options)) if menu.prefix is not None else 1
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=menu_id(game, version, index, menu.prefix),
            options=options,
            placeholder=menu.placeholder[:150],
            min_values=least,
            max_values=most,
            row=row,
        )
        super().__init__(select)
        self.game, self.version, self.prefix = game, version, menu.prefix

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionMenu:
        options = item.options if isinstance(item, discord.ui.Select) else []
        tag = match["tag"] or ""
        prefix = tag[1:] if tag.startswith(" ") else None
        offers = tuple(Offer(o.label, o.value) for o in options)
        menu = Menu("", offers, prefix, least=1, most=max(1, len(offers)))
        return cls(int(match["game"]), int(match["version"]), menu)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        picked = list(self.item.values)
        command = picked[0] if self.prefix is None else " ".join((self.prefix, *picked))
        await interaction.client.choose(interaction, self.game, command, self.version)


DYNAMIC_ITEMS = (ActionButton, ActionMenu)


def _fits_button(offers: Offers, offer: Offer) -> bool:
    return (
        ":" not in offer.command
        and len(custom_id(offers.game, offer.command, offers.version)) <= MAX_ID
    )


def _fits_menu(offers: Offers, menu: Menu, index: int) -> bool:
    if (
        menu.prefix is not None
        and len(menu_id(offers.game, offers.version, index, menu.prefix)) > MAX_ID
    ):
        return False
    return all(len(o.command) <= MAX_OPTION for o in menu.options)


def choices_view(offers: Offers | None) -> discord.ui.View | None:
    """The offers as rows of buttons and menus (None when there are none). A button whose
    custom id would be too long joins a menu; what does not fit five rows is left out
    (the offers are built to fit: :func:`bot.offers.fits`)."""
    if offers is None:
        return None
    buttons = [o for o in offers.items if _fits_button(offers, o)]
    long = tuple(o for o in offers.items if o not in buttons and len(o.command) <= MAX_OPTION)
    menus = [*offers.menus, *([Menu("More…", long)] if long else [])]
    menus = [m for i, m in enumerate(menus) if m.options and _fits_menu(offers, m, i)]
    if not buttons and not menus:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    for index, menu in enumerate(menus[:MAX_ROWS]):
        view.add_item(ActionMenu(offers.game, offers.version, menu, index, row=row))
        row += 1
    for start in range(0, len(buttons), ROW):
        if row >= MAX_ROWS:
            break
        for o in buttons[start : start + ROW]:
            view.add_item(
                ActionButton(offers.game, o.command, offers.version, o.label, _STYLES[o.style], row)
            )
        row += 1
    return view
