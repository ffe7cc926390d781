"""Choices as data: buttons and menus of commands, at one version of one game.

A choice carries a command of the shared language (``move Bk01 104``), or a step towards
one (``choices move Bk01``: the lands Bk01 may reach). A button is one choice; a menu
holds up to 25, or lets several options be picked at once (the characters a split takes
off), their words then following its ``prefix`` (``choices split Bk01`` + ``Ogre Ogre``).
What is drawn fits Discord: five rows a message, each a menu or up to five buttons
(:func:`fits`); a longer list is split into groups (:func:`grouped`) rather than cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

MAX_OPTIONS = 25
"""Discord shows at most 25 options in one menu."""
MAX_OFFERS = MAX_OPTIONS
MAX_ROWS = 5
ROW = 5
"""Buttons in one row."""
MAX_LABEL = 80
"""A button's label (a menu option's may have 100 characters)."""
MAX_OPTION_LABEL = 100
BACK = "back"
"""The command of a *Go back* choice: it does nothing but drop the private message it is in
(a transport's own; the service knows no such verb)."""


class Style(Enum):
    """How prominent a choice is: the usual next step, a quiet one, or one to think twice about."""

    PRIMARY = "primary"
    QUIET = "quiet"
    DANGER = "danger"
    GOOD = "good"


@dataclass(frozen=True)
class Offer:
    """One choice: its label, the command it runs, and (in a menu) a line more about it."""

    label: str
    command: str
    style: Style = Style.PRIMARY
    detail: str | None = None


@dataclass(frozen=True)
class Menu:
    """A menu of choices. With ``prefix`` between ``least`` and ``most`` options are picked
    at once and the command is the prefix followed by their commands (words)."""

    placeholder: str
    options: tuple[Offer, ...]
    prefix: str | None = None
    least: int = 1
    most: int = 1

    def command_for(self, picked: Sequence[str]) -> str:
        """The command a pick of ``picked`` (option commands) runs."""
        if self.prefix is None:
            return picked[0]
        return " ".join((self.prefix, *picked))


@dataclass(frozen=True)
class Choices:
    """What one message offers: buttons and menus (not yet tied to a game's version)."""

    buttons: tuple[Offer, ...] = ()
    menus: tuple[Menu, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.buttons or self.menus)

    def offers(self) -> list[Offer]:
        """Every choice: the buttons, then every option of every menu."""
        return [*self.buttons, *(o for menu in self.menus for o in menu.options)]

    def commands(self) -> list[str]:
        """Every command a click may run (a menu with a prefix: its prefix)."""
        found = [o.command for o in self.buttons]
        for menu in self.menus:
            found += [menu.prefix] if menu.prefix is not None else [o.command for o in menu.options]
        return found


@dataclass(frozen=True)
class Offers:
    """Choices made for one game at one version (its action count when offered)."""

    game: int
    version: int
    items: tuple[Offer, ...]
    """The buttons."""
    menus: tuple[Menu, ...] = ()

    @classmethod
    def of(cls, game: int, version: int, choices: Choices) -> Offers:
        return cls(game, version, choices.buttons, choices.menus)

    @property
    def choices(self) -> Choices:
        return Choices(self.items, self.menus)


def rows(choices: Choices) -> int:
    """The rows a message needs for ``choices``."""
    return len(choices.menus) + -(-len(choices.buttons) // ROW)


def fits(choices: Choices) -> bool:
    """Whether ``choices`` fit one message: five rows, 25 options a menu."""
    return rows(choices) <= MAX_ROWS and all(
        0 < len(menu.options) <= MAX_OPTIONS for menu in choices.menus
    )


def laid_out(buttons: Sequence[Offer], placeholder: str, spare_rows: int = MAX_ROWS) -> Choices:
    """``buttons`` as buttons when they fit ``spare_rows`` rows, else as one menu (or menus
    of groups, :func:`grouped`, when there are more than 25)."""
    if -(-len(buttons) // ROW) <= spare_rows:
        return Choices(tuple(buttons))
    if len(buttons) <= MAX_OPTIONS:
        return Choices(menus=(Menu(placeholder, tuple(buttons)),))
    menus = tuple(
        Menu(f"{placeholder} ({i + 1})", tuple(part))
        for i, part in enumerate(_chunks(list(buttons), MAX_OPTIONS))
    )
    return Choices(menus=menus)


def grouped(
    items: Sequence[Offer], key: Callable[[Offer], str], step: Callable[[str], Offer]
) -> list[Offer]:
    """``items`` when there are 25 at most, else one choice per group of ``key`` (made by
    ``step``): a choice never cut from a list, only put one step further."""
    if len(items) <= MAX_OPTIONS:
        return list(items)
    keys = list(dict.fromkeys(key(o) for o in items))
    return [step(k) for k in keys]


def _chunks(items: list[Offer], size: int) -> list[list[Offer]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
