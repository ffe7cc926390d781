"""A finished game as a tournament sees it: each player's place, win, Titan kills, score.

Places use competition ranking: a place is one more than the number of players who did
strictly better, so players who tie share a place and the next place is skipped
(1, 2, 2, 4). RULES §12.5: the survivor wins and players eliminated earlier rank lower;
§12.6: when a time limit ends the game, the highest score wins and ties share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.tournament.errors import TournamentError
from bot.tournament.rolloff import RollOff, final_attacker, roll_off
from engine.dice import Dice
from engine.game.events import TITAN_LOST, Event, PlayerEliminated
from engine.game.state import GameState
from engine.words import plural


class Ending(StrEnum):
    """How a game ended, for the tournament."""

    LAST_TITAN = "last titan"
    MUTUAL = "mutual"
    """The last two Titans fell together: a draw (RULES §12.5, §14 C10)."""
    TIME_LIMIT = "time limit"
    RULING = "ruling"
    """The organiser adjudicated the game."""


@dataclass(frozen=True)
class Place:
    """One player's line of a game result."""

    player: str
    place: int
    """1 is best; players who tie share a place."""
    titan_kills: int = 0
    score: int = 0

    @property
    def won(self) -> bool:
        return self.place == 1


@dataclass(frozen=True)
class GameResult:
    """A finished game: one :class:`Place` per seat, in seat order.

    ``rolloff`` is the roll-off that settled a mutual, when the tournament asked for one.
    Raises :class:`TournamentError` if the places are not a competition ranking or a player
    appears twice.
    """

    places: tuple[Place, ...]
    ending: Ending
    rolloff: RollOff | None = None

    def __post_init__(self) -> None:
        names = [p.player for p in self.places]
        if len(names) < 2:
            raise TournamentError("a game result needs at least two players")
        doubled = sorted(n for n, k in Counter(names).items() if k > 1)
        if doubled:
            raise TournamentError(f"{', '.join(doubled)} appear more than once in one game")
        for line in self.places:
            better = sum(1 for other in self.places if other.place < line.place)
            if line.place != better + 1:
                raise TournamentError(
                    f"{line.player} cannot be placed {line.place} with "
                    f"{plural(better, 'player')} ahead"
                )

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.places)

    def of(self, player: str) -> Place:
        """The line of ``player``; raises :class:`TournamentError` if he did not play."""
        for line in self.places:
            if line.player == player:
                return line
        raise TournamentError(f"{player} did not play this game")

    def is_last(self, player: str) -> bool:
        """Whether nobody in the game finished below ``player`` (a shared last included)."""
        worst = max(p.place for p in self.places)
        return self.of(player).place == worst


def result_of(
    state: GameState,
    events_by_action: Sequence[Sequence[Event]],
    *,
    players: Sequence[str] | None = None,
    rolloff: Dice | None = None,
) -> GameResult:
    """The result of the finished game ``state`` whose log is ``events_by_action`` (one
    list of events per action, in order).

    ``players`` names the seats (default: the players' names in the game). The winner is
    1st; the others rank by the action that eliminated them, later better, and players
    eliminated by the same action share a place (RULES §12.5). A time-limit ending ranks
    the players still in the game by score, ties sharing (§12.6), above every eliminated
    player. A Titan kill is a :class:`PlayerEliminated` for a lost Titan whose eliminator
    is the seat; in a mutual, where the engine names no eliminator (§14 C10), each of the
    two gets a kill. A mutual's two players share 1st, unless ``rolloff`` dice are given:
    then the final engagement's attacker rolls off (:mod:`bot.tournament.rolloff`) and the
    loser is 2nd. Raises :class:`TournamentError` for an unfinished game.
    """
    if state.result is None:
        raise TournamentError("the game is not over, so it has no result yet")
    names = tuple(players) if players is not None else tuple(p.name for p in state.players)
    if len(names) != len(state.players):
        raise TournamentError(
            f"{plural(len(names), 'name')} for a game of {plural(len(state.players), 'seat')}"
        )
    winners = state.result.winners
    ending = _ending_of(state.result.reason)
    out_at, kills = _eliminations(events_by_action)
    if ending is Ending.MUTUAL:
        for seat in winners:
            if out_at.get(seat, (0, None))[1] is None:
                kills.update(other for other in winners if other != seat)
    settled = None
    if ending is Ending.MUTUAL and rolloff is not None and len(winners) == 2:
        attacker = final_attacker(events_by_action)
        if attacker not in winners:
            raise TournamentError(f"the final attacker, seat {attacker}, is not in the mutual")
        defender = winners[1] if attacker == winners[0] else winners[0]
        settled = roll_off(names[attacker], names[defender], rolloff)

    def standing(seat: int) -> tuple[int, int]:
        if seat in winners:
            return (2, 1 if settled is not None and settled.winner == names[seat] else 0)
        if seat not in out_at:
            return (1, state.player(seat).score)
        return (0, out_at[seat][0])

    keys = [standing(p.seat) for p in state.players]
    places = tuple(
        Place(
            names[p.seat],
            1 + sum(1 for k in keys if k > keys[p.seat]),
            kills[p.seat],
            p.score,
        )
        for p in state.players
    )
    return GameResult(places, ending, settled)


def _ending_of(reason: str) -> Ending:
    """The engine's result reason (engine/game/elimination.py, turns.py) as an ending."""
    if reason.startswith("draw"):
        return Ending.MUTUAL
    if reason == "time limit":
        return Ending.TIME_LIMIT
    return Ending.LAST_TITAN


def _eliminations(
    events_by_action: Sequence[Sequence[Event]],
) -> tuple[dict[int, tuple[int, int | None]], Counter[int]]:
    """Seat → (index of the action that eliminated it, its eliminator), and the Titan
    kills of each seat."""
    out_at: dict[int, tuple[int, int | None]] = {}
    kills: Counter[int] = Counter()
    for index, events in enumerate(events_by_action):
        for event in events:
            if isinstance(event, PlayerEliminated):
                out_at[event.seat] = (index, event.by)
                if event.reason == TITAN_LOST and event.by is not None:
                    kills[event.by] += 1
    return out_at, kills


def ruled_result(
    places: Mapping[str, int],
    *,
    titan_kills: Mapping[str, int] | None = None,
    scores: Mapping[str, int] | None = None,
) -> GameResult:
    """The organiser's adjudication: player → place (1 best, ties share), in the order
    given. Raises :class:`TournamentError` if the places are not a competition ranking
    (e.g. two 1sts and a 2nd)."""
    kills = titan_kills or {}
    points = scores or {}
    unknown = sorted((set(kills) | set(points)) - set(places))
    if unknown:
        raise TournamentError(f"{', '.join(unknown)} did not play this game")
    lines = tuple(
        Place(player, place, kills.get(player, 0), points.get(player, 0))
        for player, place in places.items()
    )
    return GameResult(lines, Ending.RULING)
