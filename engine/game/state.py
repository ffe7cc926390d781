"""The state of a game: frozen dataclasses, replaced (never mutated) by each action.

Mappings in the state are plain dicts that are never mutated after construction; every
change builds a new one (copy-on-write).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.battle.position import Side
from engine.battle.state import Battle
from engine.characters import TITAN, character
from engine.dice import Dice
from engine.errors import InvalidNotation
from engine.frozen import evolve
from engine.movement import MoveKind


class Phase(Enum):
    """Where the game stands (RULES §1.6, §4.1)."""

    COLOURS = "colours"
    SPLIT = "split"
    MOVE = "move"
    ENGAGE = "engage"
    MUSTER = "muster"
    OVER = "over"


@dataclass(frozen=True)
class Options:
    """Chosen when the game is created."""

    record_keeping: bool = False
    """Views keep what was revealed earlier (errata 20.0; off by default)."""
    time_limit: bool = False
    """The host may declare the time limit expired (errata 21.1, RULES §12.6)."""
    take_backs_per_phase: int = 50
    """A house limit (errata 7.0 sets none): the take-backs (``UndoSplit``, ``TakeBack``,
    ``TakeBackManeuver``) a player may make in one split or movement phase, or in one
    battle maneuver phase; beyond it a take-back is refused, so that a phase always ends."""
    # The start rules of two-player tournaments (the World Boardgaming Championships'
    # 2-player event), each an option of its own; :data:`TWO_PLAYER_EVENT` turns all on.
    opposite_towers: bool = False
    """With exactly 2 players the towers are opposite each other: one d6 picks the pair
    (1–2: 100/400, 3–4: 200/500, 5–6: 300/600), a second which seat takes which (1–3:
    the first seat the lower tower, 4–6 the higher), instead of the rolls of RULES §1.6
    step 1. Colours and turn order then follow §1.6 as usual. ``new_game`` refuses the
    option for any other number of players."""
    first_turn_rerolls: bool = False
    """On a player's own first turn a movement roll of 2 or 5 may be rerolled, as often as
    it comes up 2 or 5, before any legion has moved (or after taking back every move).
    This *is* the mulligan of such a game, replacing RULES §4.3's single reroll: any 2 or
    5 may be rerolled, no other number may, however many rerolls came before."""
    first_turn_teleport_no_tower: bool = False
    """On a player's own first turn a Tower teleport (RULES §4.4) may not land in another
    Tower land; the other destinations of §4.4 (a) stay open, Towers within 6 lands
    excepted."""


#: The 2-player event's start rules: opposite towers, first-turn rerolls of a 2 or 5, and
#: no first-turn Tower teleport into a Tower. Other options combine with
#: ``dataclasses.replace(TWO_PLAYER_EVENT, time_limit=True)``.
TWO_PLAYER_EVENT = Options(
    opposite_towers=True, first_turn_rerolls=True, first_turn_teleport_no_tower=True
)


@dataclass(frozen=True)
class Player:
    """A seat at the table. ``markers`` are all the markers the player holds (RULES §1.4)."""

    seat: int
    name: str
    tower: int
    colour: str | None = None
    score: int = 0
    markers: tuple[str, ...] = ()
    eliminated: bool = False
    withdrawing: bool = False
    """A game concession queued until it can take effect (RULES §12.4)."""
    turns_taken: int = 0


@dataclass(frozen=True)
class Legion:
    """A legion on the masterboard. ``characters`` is kept sorted."""

    marker: str
    owner: int
    land: int
    characters: tuple[str, ...]
    revealed: tuple[str, ...] = ()
    """The characters every player has seen in it (used with record keeping)."""

    @property
    def height(self) -> int:
        return len(self.characters)

    @property
    def has_titan(self) -> bool:
        return TITAN in self.characters

    @property
    def has_lord(self) -> bool:
        return any(character(c).is_lord for c in self.characters)


@dataclass(frozen=True)
class MoveRecord:
    """One move of the movement phase, kept for take-backs (errata 7.0)."""

    marker: str
    start: int
    land: int
    kind: MoveKind
    entry_side: int | None
    revealed: str | None = None
    """The lord revealed by a teleport."""


@dataclass(frozen=True)
class Turn:
    """Bookkeeping of the current player turn."""

    number: int
    """Player turns played so far in the game, this one included."""
    first_turn: bool
    roll: int | None = None
    mulligan_used: bool = False
    split_parents: Mapping[str, str] = field(default_factory=dict)
    """child marker → the marker it was split from this turn (errata 4.7 undo)."""
    moves: tuple[MoveRecord, ...] = ()
    take_backs: int = 0
    """Take-backs made in the current split or movement phase (``Options`` limits them)."""
    moved: frozenset[str] = frozenset()
    """Markers that completed a move this turn (after movement ends)."""
    summoned: bool = False
    """An Angel or Archangel was summoned this engagement phase (RULES §7.2)."""
    mustered: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Proposal:
    """A deal (RULES §5.4): which legion(s) die, and what the survivor also gives up."""

    eliminate: Side | None
    """The legion eliminated; None means both (mutual elimination)."""
    survivor_losses: tuple[str, ...] = ()


@dataclass(frozen=True)
class OfferedProposal:
    """A proposal as made by one side, numbered in the order made."""

    number: int
    by: Side
    proposal: Proposal


class Stage(Enum):
    """Steps of one engagement (SoP)."""

    NEGOTIATE = "negotiate"
    BATTLE = "battle"
    AFTERMATH = "aftermath"


@dataclass(frozen=True)
class Engagement:
    """The engagement being resolved."""

    land: int
    attacker: str
    defender: str
    entry_side: int
    stage: Stage = Stage.NEGOTIATE
    to_act: Side = Side.DEFENDER
    may_flee: bool = True
    proposals: tuple[OfferedProposal, ...] = ()
    no_more: Side | None = None
    summon_right: bool = False
    reinforce_right: bool = False
    battle: Battle | None = None
    aftermath: Aftermath | None = None


@dataclass(frozen=True)
class Aftermath:
    """What the winner of an engagement may still do (RULES §11.3, §7.1, §7.2, §6.6)."""

    winner: Side | None
    points: int
    may_summon: bool = False
    may_reinforce: bool = False
    acquisitions: tuple[int, ...] = ()
    """Pending acquisition thresholds (multiples of 100), lowest first."""
    slain: tuple[str, ...] = ()
    """Characters slain in the engagement, for regeneration and the dead pile."""

    @property
    def step(self) -> str:
        """The winner's decision now, one at a time: ``summon`` (RULES §7.2), then
        ``reinforce`` (§6.6), then ``acquire`` for each mark (§7.1)."""
        if self.may_summon:
            return "summon"
        return "reinforce" if self.may_reinforce else "acquire"


@dataclass(frozen=True)
class Result:
    """How the game ended (RULES §12.5, §12.6)."""

    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment."""

    options: Options
    dice: Dice
    players: tuple[Player, ...]
    legions: Mapping[str, Legion]
    caretaker: Mapping[str, int]
    """Counters left in the caretaker's stacks, per character."""
    dead: Mapping[str, int]
    """The dead pile (slain creatures), per character."""
    phase: Phase
    active: int
    """The seat whose turn it is (or who chooses a colour)."""
    turn: Turn
    engagement: Engagement | None = None
    final_turns: int | None = None
    """With an expired time limit: player turns left before the game ends."""
    result: Result | None = None

    # --- lookups -----------------------------------------------------------------------
    def player(self, seat: int) -> Player:
        if not 0 <= seat < len(self.players):
            raise InvalidNotation(f"there is no seat {seat}")
        return self.players[seat]

    def legion(self, marker: str) -> Legion:
        try:
            return self.legions[marker]
        except KeyError:
            raise InvalidNotation(f"{marker} is not a legion in play") from None

    def legions_of(self, seat: int) -> Iterator[Legion]:
        return (leg for leg in self.legions.values() if leg.owner == seat)

    def legions_in(self, land: int) -> list[Legion]:
        return [leg for leg in self.legions.values() if leg.land == land]

    def free_markers(self, seat: int) -> tuple[str, ...]:
        used = {leg.marker for leg in self.legions.values()}
        return tuple(m for m in self.player(seat).markers if m not in used)

    def living_seats(self) -> list[int]:
        return [p.seat for p in self.players if not p.eliminated]

    def titan_score(self, seat: int) -> int:
        return self.player(seat).score

    # --- copy-on-write helpers -------------------------------------------------------
    def with_player(self, player: Player) -> GameState:
        players = tuple(player if p.seat == player.seat else p for p in self.players)
        return evolve(self, players=players)

    def with_legion(self, legion: Legion) -> GameState:
        return evolve(self, legions={**self.legions, legion.marker: legion})

    def without_legion(self, marker: str) -> GameState:
        return evolve(self, legions={m: leg for m, leg in self.legions.items() if m != marker})
