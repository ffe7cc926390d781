"""Battle intents (RULES §8–§11). Characters on the battleland are named by hex (``D4``),
characters still off the board by name (``Ogre``).

In battle the engagement actions keep their meaning: ``Concede`` concedes (or attempts to,
RULES §5.8), ``Summon`` and ``Reinforce`` call a lord or recruit onto the battleland
(§7.2a, §6.6), ``Decline`` passes on a summon, a reinforcement or a concession window.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.actions import Action, register


@dataclass(frozen=True)
class Maneuver(Action):
    """Move ``character`` (its hex, or its name when off the board) to hex ``to`` (§8.5)."""

    character: str
    to: str


@dataclass(frozen=True)
class TakeBackManeuver(Action):
    """Take back the move that ended in ``hex`` and every later one (errata 7.0)."""

    hex: str


@dataclass(frozen=True)
class EndManeuver(Action):
    """End the maneuver phase; after a side's first one, characters off the board are slain
    (RULES §8.4)."""


@dataclass(frozen=True)
class Strike(Action):
    """Strike ``target`` with the character in ``striker`` (RULES §9). ``dice`` and
    ``strike_number`` announce a reduction to allow carry-over (§9.5); None: natural."""

    striker: str
    target: str
    dice: int | None = None
    strike_number: int | None = None


@dataclass(frozen=True)
class CarryOver(Action):
    """Put the carried-over hits on the character in ``target`` until it is slain (§9.4)."""

    target: str


@dataclass(frozen=True)
class Rangestrike(Action):
    """Rangestrike ``target`` from ``striker`` (RULES §10); ``strike_number`` may choose the
    higher one of another clear hexspine path (errata 13.3)."""

    striker: str
    target: str
    strike_number: int | None = None


@dataclass(frozen=True)
class EndStrikes(Action):
    """End your strike phase once every forced strike is made (RULES §9.1)."""


@dataclass(frozen=True)
class AcceptConcession(Action):
    """Let the opponent's concession stand (RULES §5.8)."""


@dataclass(frozen=True)
class ConcedeInstead(Action):
    """Concede instead of the opponent; when he conceded instead of you, insist, which
    leads to the roll-off (RULES §5.8, errata 9.4, E25)."""


BATTLE_ACTIONS: tuple[type[Action], ...] = (
    Maneuver,
    TakeBackManeuver,
    EndManeuver,
    Strike,
    CarryOver,
    Rangestrike,
    EndStrikes,
    AcceptConcession,
    ConcedeInstead,
)
for _cls in BATTLE_ACTIONS:
    register(_cls)
