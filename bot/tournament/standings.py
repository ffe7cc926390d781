"""A tournament's standings: every player's figures, ordered by the tournament's scheme,
the last ties broken by a logged roll, the top players marked as advancing — or, while
results are still to come, as advancing if the heats ended now.

The classic chain (:mod:`bot.tournament.scoring`) is firsts, seconds, thirds, fourths,
Titan kills, then the same five for the player's opponents: for every counted game of the
player and every opponent in it, that opponent's own tournament total (the figures of
his standing line; an entrant with no line adds nothing). Players still level after the
chain each roll a die, high first; players level again roll again among themselves.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from bot.tournament.places import GameResult
from bot.tournament.scoring import Scheme, Tally, tally
from engine.dice import Dice

Figure = int | Fraction

CHAIN_LABELS = ("1st", "2nd", "3rd", "4th", "TK", "o1st", "o2nd", "o3rd", "o4th", "oTK")
LABELS: dict[Scheme, tuple[str, ...]] = {
    Scheme.WBC_POINTS: ("wins", "points", *CHAIN_LABELS),
    Scheme.WBC_CLASSIC: CHAIN_LABELS,
    Scheme.WINS: ("wins", *CHAIN_LABELS),
    Scheme.AVERAGE_PLACE: ("avg", "games", *CHAIN_LABELS),
}
"""The column of each figure of a scheme's key, in order (the names data exports use;
:mod:`bot.tournament.heads` has what a table shows)."""


class Advance(StrEnum):
    """What a row's place means for the next stage."""

    NO = "no"
    YES = "advances"
    """Decided: no result still to come can change it."""
    IF_NOW = "would advance if the heats ended now"
    """In the top places now, but results still to come may move it."""


@dataclass(frozen=True)
class HeatGame:
    """A finished game of heat ``heat``. A player's games count in the order given, which
    should be the order the games finished."""

    heat: int
    result: GameResult


@dataclass(frozen=True)
class StandingOptions:
    """``max_games``: only a player's first games count (his later ones count neither
    for him nor for his opponents' totals through him). ``eliminators``: (heat, player)
    pairs of entrants who play that heat as eliminators only: their games place their
    opponents but give them no standing. ``advance``: how many top rows advance.

    ``to_come``: (heat, player) pairs of the games still to come that may count (a table
    still playing, a heat not seated yet): while there are some, who advances is decided
    only for a player no such result can push out of the top ``advance``; the others of
    the top are :attr:`Advance.IF_NOW`. ``heats``: the heats that decide who advances
    (the games of later stages, a final, do not move it)."""

    max_games: int | None = None
    eliminators: frozenset[tuple[int, str]] = frozenset()
    advance: int = 0
    to_come: frozenset[tuple[int, str]] = frozenset()
    heats: int | None = None


@dataclass(frozen=True)
class Row:
    """One line of the standings: ``key`` holds the figures compared, labelled by
    :data:`LABELS` of the scheme; ``rolls`` the dice a tie cost him, in order."""

    rank: int
    player: str
    own: Tally
    opponents: Tally
    key: tuple[Figure, ...]
    rolls: tuple[int, ...] = ()
    advance: Advance = Advance.NO

    @property
    def advancing(self) -> bool:
        """Whether he advances, decided."""
        return self.advance is Advance.YES


@dataclass(frozen=True)
class Standings:
    """The rows, best first, and the dice after the tie-break rolls."""

    scheme: Scheme
    rows: tuple[Row, ...]
    dice: Dice

    def row(self, player: str) -> Row | None:
        return next((r for r in self.rows if r.player == player), None)

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(r.player for r in self.rows)


def counted_games(
    games: Sequence[HeatGame], options: StandingOptions
) -> dict[str, list[GameResult]]:
    """Player → the games that count for him: not as an eliminator, at most ``max_games``."""
    counted: dict[str, list[GameResult]] = defaultdict(list)
    for game in games:
        for player in game.result.players:
            if (game.heat, player) in options.eliminators:
                continue
            if options.max_games is None or len(counted[player]) < options.max_games:
                counted[player].append(game.result)
    return dict(counted)


def standings(
    games: Sequence[HeatGame],
    scheme: Scheme,
    options: StandingOptions | None = None,
    seed: int = 0,
) -> Standings:
    """The standings after ``games`` under ``scheme``; remaining ties are rolled off with
    ``Dice(seed)``, tied groups in standing order and players within one by name."""
    options = options or StandingOptions()
    counted = counted_games(games, options)
    own = {player: tally(player, results) for player, results in counted.items()}
    opponents = {player: _opponents(player, results, own) for player, results in counted.items()}
    keys = {p: _key(scheme, own[p], opponents[p]) for p in counted}
    ordered = sorted(counted, key=lambda p: (_negated(keys[p]), p))
    dice = Dice(seed)
    rolls: dict[str, tuple[int, ...]] = {}
    final: list[str] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and keys[ordered[end]] == keys[ordered[start]]:
            end += 1
        group, dice = _roll_off(ordered[start:end], rolls, dice)
        final += group
        start = end
    outlook = _outlook(games, scheme, options, seed, final, keys, counted)
    rows = tuple(
        Row(
            rank,
            player,
            own[player],
            opponents[player],
            keys[player],
            rolls.get(player, ()),
            outlook.get(player, Advance.NO),
        )
        for rank, player in enumerate(final, start=1)
    )
    return Standings(scheme, rows, dice)


def _outlook(
    games: Sequence[HeatGame],
    scheme: Scheme,
    options: StandingOptions,
    seed: int,
    order: list[str],
    keys: dict[str, tuple[Figure, ...]],
    counted: dict[str, list[GameResult]],
) -> dict[str, Advance]:
    """Who advances (decided), and who would if the heats ended now."""
    if options.heats is not None and any(g.heat > options.heats for g in games):
        deciding = [g for g in games if g.heat <= options.heats]
        before = standings(deciding, scheme, replace(options, heats=None), seed)
        return {r.player: r.advance for r in before.rows}
    top = order[: options.advance]
    if not options.to_come:
        return dict.fromkeys(top, Advance.YES)
    reach = _reach(scheme, options, keys, counted)
    return {
        player: Advance.YES
        if reach is not None and _safe(player, keys[player][0], reach, options.advance)
        else Advance.IF_NOW
        for player in top
    }


def _reach(
    scheme: Scheme,
    options: StandingOptions,
    keys: dict[str, tuple[Figure, ...]],
    counted: dict[str, list[GameResult]],
) -> dict[str, Figure] | None:
    """Player → the most the key's first figure can grow to with the games still to come
    (every one won); None where that figure is no count that only grows by at most one a
    game (a mean place falls as well as rises)."""
    if scheme is Scheme.AVERAGE_PLACE:
        return None
    more: Counter[str] = Counter(
        player for heat, player in options.to_come if (heat, player) not in options.eliminators
    )
    reach: dict[str, Figure] = {}
    for player in set(keys) | set(more):
        extra = more[player]
        if options.max_games is not None:  # later games count for nobody
            extra = min(extra, max(options.max_games - len(counted.get(player, [])), 0))
        reach[player] = (keys[player][0] if player in keys else 0) + extra
    return reach


def _safe(player: str, now: Figure, reach: dict[str, Figure], advance: int) -> bool:
    """Whether no result still to come can push ``player`` out of the top ``advance``.

    Wins (or firsts) only grow, by at most one a game, and lead the key: a rival who,
    winning every game he may still play, stays below the player's count now ends below
    him whatever else happens. So fewer than ``advance`` rivals able to reach his count
    leave him in the top ``advance``."""
    rivals = sum(1 for rival, most in reach.items() if rival != player and most >= now)
    return rivals < advance


def _opponents(player: str, results: list[GameResult], own: dict[str, Tally]) -> Tally:
    """The sum of every opponent's own tally over the player's counted games."""
    firsts = seconds = thirds = fourths = kills = 0  # plain sums: this loop is the hot one
    for result in results:
        for line in result.places:
            other = own.get(line.player)
            if other is None or line.player == player:
                continue
            firsts += other.firsts
            seconds += other.seconds
            thirds += other.thirds
            fourths += other.fourths
            kills += other.titan_kills
    return Tally(firsts=firsts, seconds=seconds, thirds=thirds, fourths=fourths, titan_kills=kills)


def _key(scheme: Scheme, own: Tally, opponents: Tally) -> tuple[Figure, ...]:
    """The figures compared, higher better, in the scheme's order."""
    chain = (*own.chain, *opponents.chain)
    if scheme is Scheme.WBC_POINTS:
        return (own.wins, own.points, *chain)
    if scheme is Scheme.WINS:
        return (own.wins, *chain)
    if scheme is Scheme.AVERAGE_PLACE:
        return (-Fraction(own.place_sum, own.games), own.games, *chain)
    return chain


def _negated(key: tuple[Figure, ...]) -> tuple[Figure, ...]:
    return tuple(-v for v in key)


def _roll_off(
    group: list[str], rolls: dict[str, tuple[int, ...]], dice: Dice
) -> tuple[list[str], Dice]:
    """``group`` (tied, by name) in the order its rolls decide: a d6 each, high first; a
    tie within rolls again. Each roll is appended to ``rolls``."""
    if len(group) < 2:
        return group, dice
    values, dice = dice.roll(len(group), 6)
    for player, value in zip(group, values, strict=True):
        rolls[player] = (*rolls.get(player, ()), value)
    by_value: dict[int, list[str]] = defaultdict(list)
    for player, value in zip(group, values, strict=True):
        by_value[value].append(player)
    order: list[str] = []
    for value in sorted(by_value, reverse=True):
        settled, dice = _roll_off(by_value[value], rolls, dice)
        order += settled
    return order, dice
