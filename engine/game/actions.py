"""Player intents: what a seat asks the engine to do (game ids only, never Discord ids).

Each action is a frozen dataclass; :func:`action_to_json` / :func:`action_from_json` give
the log's JSON form ``{"type": "Move", ...fields}``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from engine.codec import decode, encode
from engine.errors import InvalidNotation
from engine.frozen import evolve
from engine.game.state import Proposal
from engine.movement import MoveKind


@dataclass(frozen=True)
class Action:
    """Base of every action."""


A = TypeVar("A", bound=Action)


# --- setup (RULES §1.6) -------------------------------------------------------------------
@dataclass(frozen=True)
class ChooseColour(Action):
    """Take a colour; ``marker`` names the starting legion's marker (default: the first)."""

    colour: str
    marker: str | None = None


# --- split phase (RULES §3) -----------------------------------------------------------------
@dataclass(frozen=True)
class Split(Action):
    """Split ``characters`` off ``legion`` under the free marker ``new_marker``."""

    legion: str
    new_marker: str
    characters: tuple[str, ...]


@dataclass(frozen=True)
class UndoSplit(Action):
    """Put a legion split off this turn back into its parent (errata 4.7)."""

    marker: str


@dataclass(frozen=True)
class Roll(Action):
    """End the split phase and roll the movement die (RULES §4.2)."""


# --- movement phase (RULES §2, §4) ----------------------------------------------------------
@dataclass(frozen=True)
class Mulligan(Action):
    """Reroll the movement die once on the first turn (RULES §4.3)."""


@dataclass(frozen=True)
class Move(Action):
    """Move ``legion`` to ``land``.

    ``kind`` picks a teleport (default: a normal move if one reaches ``land``, else the
    only teleport that does). ``entry_side`` is required when the move ends on an enemy
    and several sides are possible (RULES §4.8). ``lord`` is the lord a teleport reveals
    (default: the least revealing, :mod:`engine.reveals`; a Titan teleport shows the Titan).
    """

    legion: str
    land: int
    kind: MoveKind | None = None
    entry_side: int | None = None
    lord: str | None = None


@dataclass(frozen=True)
class TakeBack(Action):
    """Take back ``legion``'s move and every later one (errata 7.0)."""

    legion: str


@dataclass(frozen=True)
class EndMovement(Action):
    """End the movement phase; legions still sharing a land recombine (RULES §3.4).

    ``keep`` names the marker to keep where no original marker is present (at most one
    per such land; default: the lowest).
    """

    keep: tuple[str, ...] = ()


# --- engagements (RULES §5) -----------------------------------------------------------------
@dataclass(frozen=True)
class Engage(Action):
    """Resolve the engagement in ``land`` next (errata 9.1)."""

    land: int


@dataclass(frozen=True)
class Flee(Action):
    """The defender flees (RULES §5.3)."""


@dataclass(frozen=True)
class Propose(Action):
    """Make a set of proposals (RULES §5.4)."""

    proposals: tuple[Proposal, ...]


@dataclass(frozen=True)
class Accept(Action):
    """Accept the opponent's earlier proposal number ``number``."""

    number: int


@dataclass(frozen=True)
class Concede(Action):
    """Concede the engagement (RULES §5.6, §5.8)."""


@dataclass(frozen=True)
class NoMoreProposals(Action):
    """Declare that no more proposals will come (RULES §5.4)."""


@dataclass(frozen=True)
class Fight(Action):
    """After the opponent declared no more proposals: fight the battle out."""


@dataclass(frozen=True)
class Summon(Action):
    """Summon ``lord`` from the unengaged legion ``donor`` (RULES §7.2)."""

    donor: str
    lord: str


@dataclass(frozen=True)
class Reinforce(Action):
    """Muster ``recruit`` into the defending legion, revealing ``revealed`` (RULES §6.6;
    empty: the least revealing sufficient set, :mod:`engine.reveals`)."""

    recruit: str
    revealed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Acquire(Action):
    """Take an Angel or Archangel earned by points (RULES §7.1)."""

    lord: str


@dataclass(frozen=True)
class Decline(Action):
    """Give up the pending summon, reinforcement or acquisition."""


# --- muster phase (RULES §6) ----------------------------------------------------------------
@dataclass(frozen=True)
class Muster(Action):
    """Muster ``recruit`` into ``legion``, revealing ``revealed`` (default: the least
    revealing sufficient set, :mod:`engine.reveals`)."""

    legion: str
    recruit: str
    revealed: tuple[str, ...] | None = None


@dataclass(frozen=True)
class EndTurn(Action):
    """End the muster phase and the turn."""


# --- at any time: leaving the game, showing a legion (RULES §12.4, §12.6, §1.7) ---------------
@dataclass(frozen=True)
class Withdraw(Action):
    """Concede the game (taking effect when the rules allow, RULES §12.4)."""


@dataclass(frozen=True)
class Reveal(Action):
    """Show ``marker``'s legion, or the ``characters`` of it named (None or empty: all of
    it), to everyone (errata 4.5, RULES §1.7). Any time while the game is played."""

    marker: str
    characters: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ExpireTimeLimit(Action):
    """The host declares the agreed time limit expired (errata 21.1). Any seat may send it."""


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        ChooseColour, Split, UndoSplit, Roll, Mulligan, Move, TakeBack, EndMovement,
        Engage, Flee, Propose, Accept, Concede, NoMoreProposals, Fight, Summon, Reinforce,
        Acquire, Decline, Muster, EndTurn, Withdraw, Reveal, ExpireTimeLimit,
    )
}  # fmt: skip


#: The field that only says what an action reveals, where the rules leave the choice to the
#: player (RULES §1.7: a teleport's lord §4.4, the recruiters §6.2). ``legal_actions`` lists
#: each variant, least revealing first (:mod:`engine.reveals`).
REVEAL_FIELDS: dict[type[Action], str] = {Move: "lord", Muster: "revealed", Reinforce: "revealed"}


def apart_from_reveal(action: Action) -> tuple[object, ...]:
    """The action's type and fields but its reveal field (:data:`REVEAL_FIELDS`): equal
    for two actions that differ only in what they reveal."""
    skip = REVEAL_FIELDS.get(type(action))
    return (type(action), *(getattr(action, f.name) for f in fields(action) if f.name != skip))


def with_default_reveal(action: A) -> A:
    """``action`` with its reveal field (if any) at its default: what it shows left to the
    engine, which shows the least (:mod:`engine.reveals`)."""
    name = REVEAL_FIELDS.get(type(action))
    if name is None:
        return action
    default = next(f.default for f in fields(action) if f.name == name)
    return evolve(action, **{name: default})


def register(cls: type[Action]) -> type[Action]:
    """Add an action type defined elsewhere (the battle's) to the JSON registry."""
    ACTION_TYPES[cls.__name__] = cls
    return cls


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": name, ...fields}``."""
    return {"type": type(action).__name__, **encode(action)}


def action_from_json(data: dict[str, Any]) -> Action:
    """The action written by :func:`action_to_json`; :class:`InvalidNotation` otherwise."""
    fields = dict(data)
    cls = ACTION_TYPES.get(str(fields.pop("type", "")))
    if cls is None:
        raise InvalidNotation(f"unknown action {data.get('type')!r}")
    action: Action = decode(cls, fields)
    return action
