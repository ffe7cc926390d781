"""A tournament's standings: every player's figures, ordered by the tournament's scheme,
the last ties broken by a logged roll, the top players marked as advancing.

The classic chain (:mod:`bot.tournament.scoring`) is firsts, seconds, thirds, fourths,
Titan kills, then the same five for the player's opponents: for every counted game of the
player and every opponent in it, that opponent's own tournament total (the figures of
his standing line; an entrant with no line adds nothing). Players still level after the
chain each roll a die, high first; players level again roll again among themselves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
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
"""The column of each figure of a scheme's key, in order."""


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
    opponents but give them no standing. ``advance``: how many top rows advance."""

    max_games: int | None = None
    eliminators: frozenset[tuple[int, str]] = frozenset()
    advance: int = 0


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
    advancing: bool = False


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

    def text(self) -> str:
        """A plain fixed-width table; ``*`` marks an advancing player."""
        labels = LABELS[self.scheme]
        head = ["#", "player", *labels, "roll"]
        body = [
            [
                f"{r.rank}{'*' if r.advancing else ''}",
                r.player,
                *(_shown(v) for v in r.key),
                ",".join(map(str, r.rolls)),
            ]
            for r in self.rows
        ]
        widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]

        def fmt(line: list[str]) -> str:
            cells = [
                c.ljust(w) if i == 1 else c.rjust(w)
                for i, (c, w) in enumerate(zip(line, widths, strict=True))
            ]
            return "  ".join(cells).rstrip()

        return "\n".join(fmt(line) for line in [head, *body])


def _shown(value: Figure) -> str:
    if isinstance(value, Fraction):
        return f"{-float(value):.2f}"  # the key holds the mean place negated: higher is better
    return str(value)


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
    rows = tuple(
        Row(
            rank,
            player,
            own[player],
            opponents[player],
            keys[player],
            rolls.get(player, ()),
            rank <= options.advance,
        )
        for rank, player in enumerate(final, start=1)
    )
    return Standings(scheme, rows, dice)


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
