"""What the service answers: transport-agnostic messages for a channel, users and the caller.

The Discord layer turns :class:`Replies` into a follow-up in the channel (with the image and
the pings), DMs, and an ephemeral answer; the local console prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from engine.game.state import GameState

if TYPE_CHECKING:
    from bot.offers.model import Offers
    from bot.records.course import Course


class PictureKind(Enum):
    """The pictures a message may carry."""

    MASTERBOARD = "masterboard"
    BATTLELAND = "battleland"
    LEGIONS = "legions"
    FINAL = "final"
    """A finished game's final card and the chart of its scores (:mod:`bot.records.course`)."""
    REPLAY = "replay"
    """A finished game's replay on the masterboard, an animated GIF."""


@dataclass(frozen=True)
class BattleMarks:
    """What a battleland picture highlights: the last maneuver (``entered``: the hex of a
    character just brought on) and the last strike with its result; ``moves`` every
    maneuver of the phase (from None: brought on) and ``strikes`` the action's strikes
    (striker, target, result, rangestrike), which take the place of the single ones when
    given; ``selected`` a character chosen and ``destinations`` the hexes it may reach."""

    last_move: tuple[str, str] | None = None
    entered: str | None = None
    last_strike: tuple[str, str] | None = None
    strike_result: str | None = None
    rangestrike: bool = False
    moves: tuple[tuple[str | None, str], ...] = ()
    strikes: tuple[tuple[str, str, str | None, bool], ...] = ()
    selected: str | None = None
    destinations: tuple[str, ...] = ()


@dataclass(frozen=True)
class Picture:
    """Which picture to draw: the renderer turns it into PNG bytes.

    ``viewer`` is the seat whose private knowledge the picture may show (None: public;
    a masterboard in the movement phase shows where the mover's legions may go as the
    viewer knows it, :func:`engine.game.reach.reach`); ``land`` is a land to show or
    highlight (the battle's land for a battleland); ``marks`` what a battleland
    highlights; ``legion`` a legion chosen on the masterboard (only its reach is shown);
    ``course`` how a finished game went (for its final card and replay: the service reads
    it from the log before drawing).
    """

    kind: PictureKind
    state: GameState
    viewer: int | None = None
    land: int | None = None
    marks: BattleMarks | None = None
    legion: str | None = None
    course: Course | None = None

    @property
    def filename(self) -> str:
        return f"{self.kind.value}.{'gif' if self.kind is PictureKind.REPLAY else 'png'}"


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (an organiser's export, a finished game's public record):
    its name and bytes."""

    filename: str
    data: bytes


class BattleStage(Enum):
    """Where a battle's news goes: its beginning in the channel (and a thread opens from
    that message), what happens during it in the thread, its end in the channel again (and
    the thread is archived)."""

    BEGINS = "begins"
    DURING = "during"
    ENDS = "ends"


@dataclass(frozen=True)
class Battle:
    """The battle a message tells of: its stage, and the thread's name (public facts only:
    the land and the two markers)."""

    stage: BattleStage
    name: str = ""


@dataclass(frozen=True)
class Message:
    """A message: text, an optional picture, the Discord user ids to ping, and the files
    it carries."""

    text: str
    picture: Picture | None = None
    image: bytes | None = None
    """The rendered picture (None when no renderer is available or rendering failed)."""
    mention: tuple[int, ...] = ()
    offers: Offers | None = None
    """Choices to give with it (buttons or a menu on Discord); see :mod:`bot.offers`."""
    attachments: tuple[Attachment, ...] = ()
    battle: Battle | None = None
    """The battle it tells of, when one is fought (where it goes, see :class:`Battle`)."""
    progress: str | None = None
    """A report of work under way (a heat's tables opening), whose text begins with this
    head: it takes the place of the channel's earlier line with the same head (the live
    message is edited), so one line counts up instead of many piling up."""

    @property
    def silent(self) -> bool:
        """Nobody needs to act on it: send without notification."""
        return not self.mention

    def with_image(self, image: bytes | None) -> Message:
        return replace(self, image=image)


@dataclass(frozen=True)
class Notice:
    """A message for the channel of another game than the command's."""

    channel: int
    game: int | None
    message: Message


@dataclass(frozen=True)
class Replies:
    """Everything one command produces.

    ``public`` goes to the game's channel, ``private`` to users (DMs, by Discord user id),
    ``ephemeral`` only to the caller. ``error`` marks a refused command (nothing changed);
    ``fault`` marks the service's apology for an unexpected failure (a bug, never the
    player's input). ``stored`` says the change was stored with these replies in the
    outbox (:mod:`bot.outbox`): its deliverer says them, the transport must not again.
    """

    public: Message | None = None
    private: dict[int, Message] = field(default_factory=dict)
    ephemeral: Message | None = None
    error: bool = False
    fault: bool = False
    stored: bool = False
    elsewhere: tuple[Notice, ...] = ()
    """News for the channels of other games (a player away is announced in each)."""

    @classmethod
    def refusal(cls, text: str) -> Replies:
        """A refused command: an ephemeral explanation, nothing changed."""
        return cls(ephemeral=Message(text), error=True)

    @classmethod
    def answer(cls, text: str, picture: Picture | None = None) -> Replies:
        """An ephemeral answer (information commands)."""
        return cls(ephemeral=Message(text, picture))
