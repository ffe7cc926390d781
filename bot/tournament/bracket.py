"""Two-player single elimination: a bracket of the next power of two, the top entrants
seeded by ranking at the standard positions, the rest drawn at random, byes to the top
seeds.

At the standard positions seed ``s`` meets seed ``size + 1 - s`` in the first round, so
seeds 1 and 2 can meet only in the final and seeds 1 to 4 only from the semi-finals on.
Byes take the places of the missing last seeds, so they fall to the top seeds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.tournament.chance import shuffled
from bot.tournament.errors import TournamentError
from engine.dice import Dice

Slot = str | None
"""A player, or None for a bye."""


@dataclass(frozen=True)
class Match:
    """A game still to play in round ``round`` (1 is the first)."""

    round: int
    first: str
    second: str


@dataclass(frozen=True)
class Bracket:
    """``rounds[0]`` is the draw in bracket order (None a bye); each later round lists
    the winners of the one before, pair by pair. ``draws`` and ``dice`` record the draw."""

    rounds: tuple[tuple[Slot, ...], ...]
    draws: tuple[int, ...]
    dice: Dice

    @property
    def size(self) -> int:
        return len(self.rounds[0])

    @property
    def winner(self) -> str | None:
        """The last player standing, once the final is played."""
        last = self.rounds[-1]
        return last[0] if len(last) == 1 else None

    def pairings(self) -> tuple[Match, ...]:
        """The games of the current round (a player with a bye has none)."""
        if self.winner is not None:
            return ()
        current = self.rounds[-1]
        number = len(self.rounds)
        return tuple(
            Match(number, first, second)
            for first, second in zip(current[::2], current[1::2], strict=True)
            if first is not None and second is not None
        )

    def advance(self, winners: Iterable[str]) -> Bracket:
        """The bracket after the current round, whose games ``winners`` won. Raises
        :class:`TournamentError` when a game has no winner or two, a winner played no game
        of the round, or the bracket is already decided."""
        if self.winner is not None:
            raise TournamentError(f"the bracket is decided: {self.winner} won it")
        won = set(winners)
        current = self.rounds[-1]
        playing = {p for m in self.pairings() for p in (m.first, m.second)}
        strays = sorted(won - playing)
        if strays:
            raise TournamentError(f"{', '.join(strays)} played no game of this round")
        following: list[Slot] = []
        for first, second in zip(current[::2], current[1::2], strict=True):
            if first is None or second is None:
                following.append(first if second is None else second)
                continue
            chosen = [p for p in (first, second) if p in won]
            if len(chosen) != 1:
                raise TournamentError(f"{first} against {second} needs exactly one winner")
            following.append(chosen[0])
        return Bracket((*self.rounds, tuple(following)), self.draws, self.dice)


def seed_positions(size: int) -> tuple[int, ...]:
    """The seed number at each position of a bracket of ``size`` (a power of two):
    8 → 1, 8, 4, 5, 2, 7, 3, 6."""
    if size < 2 or size & (size - 1):
        raise TournamentError(f"a bracket has a power of two places, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def draw_bracket(entrants: Sequence[str], seeds: int, seed: int = 0) -> Bracket:
    """The bracket for ``entrants`` ranked best first: the first ``seeds`` (at least as
    many as there are byes, so the byes go to seeded players) take their seed numbers;
    the others are drawn with ``Dice(seed)`` into the remaining numbers. Raises
    :class:`TournamentError` for fewer than two entrants or a repeated entrant."""
    if len(entrants) < 2:
        raise TournamentError("a bracket needs at least two entrants")
    if len(set(entrants)) != len(entrants):
        raise TournamentError("an entrant appears twice in the bracket")
    size = 1 << (len(entrants) - 1).bit_length()
    seeded = min(len(entrants), max(seeds, size - len(entrants)))
    drawn, draws, dice = shuffled(entrants[seeded:], Dice(seed))
    by_number: list[Slot] = [*entrants[:seeded], *drawn]
    by_number += [None] * (size - len(by_number))
    slots = tuple(by_number[number - 1] for number in seed_positions(size))
    return Bracket((slots,), draws, dice)
