"""The clicks that make an action: from the public board through the private steps.

:func:`click_path` follows the choices a player is offered — the board's buttons and menus
(:func:`~bot.offers.public_offers`), then the steps each ask or menu option opens
(:func:`~bot.offers.step`) — to the choice that gives one legal action, the way a player
would: a step is opened only when its words agree with the action's, and a menu that
takes several options at once is given the action's characters. The Discord driver
clicks the same way through real components; this one runs on the offers alone, for
tests that sweep many positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from bot.offers import KINDS, Choices, Menu, public_offers, step
from bot.offers.turn_steps import OCCURRENCE
from bot.syntax import format_action
from engine.game import actions as a
from engine.game.state import GameState

MOST_CLICKS = 6


@dataclass(frozen=True)
class Click:
    """One click: the command it runs (a step's, or the action's own)."""

    command: str
    menu: bool = False
    """Made in a menu (else on a button)."""


def same(command: str, target: str) -> bool:
    """Whether ``command`` gives the action ``target`` (a split's characters in any order)."""
    if command == target:
        return True
    words, wanted = command.split(), target.split()
    if words[:1] == wanted[:1] == ["split"]:
        return words[:3] == wanted[:3] and Counter(words[3:]) == Counter(wanted[3:])
    return False


def leads_to(command: str, action: a.Action, target: str) -> bool:
    """Whether the step ``command`` (``choices KIND WORD…``) may lead to ``action``: its kind
    covers the action and its words are all words of the action's command."""
    words = command.split()
    kind = KINDS.get(words[1]) if len(words) > 1 else None
    if kind is None or not isinstance(action, kind.actions):
        return False
    rest = Counter(w.split(OCCURRENCE)[0].casefold() for w in words[2:])
    wanted = Counter(w.casefold() for w in target.split())
    return not rest - wanted


def offered(choices: Choices) -> Iterator[tuple[str, Menu | None]]:
    """Every choice's command, with the menu it is in."""
    for button in choices.buttons:
        yield button.command, None
    for menu in choices.menus:
        if menu.prefix is not None:
            yield menu.prefix, menu
        else:
            for option in menu.options:
                yield option.command, menu


def pick_for(menu: Menu, action: a.Action) -> list[str] | None:
    """The options of a several-at-once menu that make ``action`` (a split's characters)."""
    if not isinstance(action, a.Split):
        return None
    left = Counter(action.characters)
    picked = []
    for option in menu.options:
        if left[option.label] > 0:
            left[option.label] -= 1
            picked.append(option.command)
    return picked if not +left and menu.least <= len(picked) <= menu.most else None


def click_path(state: GameState, seat: int, action: a.Action) -> list[Click] | None:
    """The clicks from the board to ``action`` (None when no choice leads there)."""
    target = format_action(action)
    return _search(state, seat, action, target, public_offers(state), MOST_CLICKS, set())


def _search(
    state: GameState, seat: int, action: a.Action, target: str, choices: Choices, left: int,
    seen: set[str],
) -> list[Click] | None:  # fmt: skip
    if left == 0:
        return None
    for command, menu in offered(choices):
        if not command.startswith("choices ") and same(command, target):
            return [Click(command, menu is not None)]
    for command, menu in offered(choices):
        if not command.startswith("choices ") or not leads_to(command, action, target):
            continue
        if menu is not None and menu.prefix is not None:
            picked = pick_for(menu, action)
            if picked is None:
                continue
            command = menu.command_for(picked)
        if command in seen:
            continue
        seen.add(command)
        words = command.split()
        opened = step(state, seat, words[1], words[2:])
        rest = _search(state, seat, action, target, opened.choices, left - 1, seen)
        if rest is not None:
            return [Click(command, menu is not None), *rest]
    return None
