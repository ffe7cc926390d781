"""Private steps: a decision chosen click by click, in a reply only its owner sees.

``choices KIND WORD…`` answers the player the game waits for with one step of a decision:
the legions that may move, then the lands one of them may reach, then (where it matters)
the entry side, teleport and lord; the characters a split takes off, then its marker; a
character in a battle, then its hexes. Each step is built from the owner's legal actions
(:func:`bot.legality.legal`), so what it shows is what the rules allow the owner now, and
never reaches anyone else. A step's choices are commands (the decision made) or the next
step (``choices move Bk01``); a list longer than a menu goes one step further rather than
being cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.offers.model import Choices, Offer, Style
from bot.replies import Picture
from engine.errors import InvalidNotation
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.state import GameState


@dataclass(frozen=True)
class Step:
    """One step of a private decision: what it says, its choices, and a picture that
    shows them (private: drawn for the step's owner — a legion's lands in reach, a battle
    character's hexes in reach)."""

    text: str
    choices: Choices
    picture: Picture | None = None


Builder = Callable[[GameState, int, Sequence[str]], Step]


@dataclass(frozen=True)
class Kind:
    """A kind of decision chosen step by step: its ask button's label, the actions it
    leads to, and the builder of its steps."""

    name: str
    label: str
    actions: tuple[type[a.Action], ...]
    build: Builder


KINDS: dict[str, Kind] = {}


def kind(name: str, label: str, *actions: type[a.Action]) -> Callable[[Builder], Builder]:
    """Register the step builder of the kind ``name`` (``choices NAME …``)."""

    def wrap(build: Builder) -> Builder:
        KINDS[name] = Kind(name, label, actions, build)
        return build

    return wrap


def step(state: GameState, seat: int, name: str, words: Sequence[str] = ()) -> Step:
    """The step of kind ``name`` after the choices ``words`` (InvalidNotation for a kind
    that does not exist; the builders refuse words that name nothing of the seat's)."""
    found = KINDS.get(name)
    if found is None:
        kinds = ", ".join(KINDS)
        raise InvalidNotation(f"choices: {name!r} is not a kind of decision ({kinds})")
    return found.build(state, seat, words)


def next_step(kind_name: str, *words: str) -> str:
    """The command of a step: ``choices move Bk01``."""
    return " ".join(("choices", kind_name, *words))


def branch(label: str, kind_name: str, *words: str, detail: str | None = None) -> Offer:
    """A choice leading to the next step (its label ends with an ellipsis)."""
    return Offer(f"{label}…", next_step(kind_name, *words), Style.PRIMARY, detail)


def back(kind_name: str, *words: str) -> Offer:
    """The way back to an earlier step."""
    return Offer("Back", next_step(kind_name, *words), Style.QUIET)


def of_types(actions: Sequence[a.Action], *types: type[a.Action]) -> list[a.Action]:
    return [x for x in actions if isinstance(x, types)]


FOLLOWS: dict[type[a.Action], str] = {
    a.Move: "move",
    a.TakeBack: "move",
    a.Split: "split",
    a.UndoSplit: "split",
    a.Muster: "muster",
}
"""The kind whose first step a private step's message shows again after one of these
actions (the next legion to move, split or muster), while the decision goes on."""
BATTLE_STEP_ACTIONS = (b.Maneuver, b.TakeBackManeuver, b.Strike, b.Rangestrike)
