"""What one seat knows of the legions on the board, and estimates of what it cannot see.

Built only from :func:`engine.game.view.view` (RULES §1.7): heights are public; contents
are known for the seat's own legions, both legions of its engagement (§5.2), a legion in
battle (§5.7) and, with record keeping, what was revealed (errata 20.0). The rest is
estimated from public counts: every counter not in the caretaker's stacks, the dead pile
or a known legion is somewhere in the hidden parts of the enemies' legions (§1.5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from engine.ai.worth import TITAN_LIABILITY, strength
from engine.characters import CHARACTERS, TITAN, character, titan_power
from engine.game.state import GameState
from engine.game.view import LegionView, View, view


@dataclass(frozen=True)
class Sighting:
    """A legion as one seat knows it.

    ``known``: characters known to be in it (all of them when ``full``). ``strength`` and
    ``points`` are expectations (hidden slots at the average hidden character, the Titan
    by ``titan``, the chance the owner's Titan is in it).
    """

    marker: str
    owner: int
    land: int
    height: int
    known: tuple[str, ...]
    full: bool
    titan: float
    strength: float
    points: float


@dataclass(frozen=True)
class Knowledge:
    """Everything ``seat`` knows of the board now."""

    seat: int
    sightings: Mapping[str, Sighting]
    scores: Mapping[int, int]

    def enemies(self) -> list[Sighting]:
        """Every legion of another living player."""
        return [s for s in self.sightings.values() if s.owner != self.seat]

    @cached_property
    def by_land(self) -> Mapping[int, tuple[Sighting, ...]]:
        """The legions in each land, in the order of :attr:`sightings`."""
        found: dict[int, list[Sighting]] = {}
        for sighting in self.sightings.values():
            found.setdefault(sighting.land, []).append(sighting)
        return {land: tuple(here) for land, here in found.items()}

    def of(self, marker: str) -> Sighting:
        return self.sightings[marker]


def know(state: GameState, seat: int) -> Knowledge:
    """What ``seat`` knows (RULES §1.7) and expects of the rest."""
    seen = view(state, seat)
    scores = {p.seat: p.score for p in seen.players}
    known = {lv.marker: _known(lv) for lv in seen.legions}
    pool = _hidden_pool(seen, state, known)
    count = sum(pool.values())
    average = (
        (
            sum(strength(n) * k for n, k in pool.items()) / count,
            sum(character(n).value_at() * k for n, k in pool.items()) / count,
        )
        if count
        else (12.0, 12.0)
    )
    titan_odds = _titan_odds(seen, known)
    sightings = {
        lv.marker: _sighting(
            lv, known[lv.marker], scores[lv.owner], titan_odds.get(lv.marker, 0.0), average
        )
        for lv in seen.legions
    }
    return Knowledge(seat, sightings, scores)


def _sighting(
    lv: LegionView, names: tuple[str, ...], score: int, p: float, average: tuple[float, float]
) -> Sighting:
    """A legion with known ``names``, its hidden slots at the ``average`` (strength,
    points) of a hidden character, ``p`` the chance it hides its owner's Titan."""
    power = titan_power(score)
    hidden = max(0.0, lv.height - len(names) - p)
    titan = 1.0 if TITAN in names else p
    strength_sum = (
        sum(strength(n, power) for n in names) + p * strength(TITAN, power) + hidden * average[0]
    )
    points = sum(character(n).value_at(score) for n in names) + p * power * 4 + hidden * average[1]
    return Sighting(
        lv.marker,
        lv.owner,
        lv.land,
        lv.height,
        names,
        lv.height == len(names),
        titan,
        strength_sum * (1 - (1 - TITAN_LIABILITY) * titan),
        points,
    )


def _known(lv: LegionView) -> tuple[str, ...]:
    return lv.characters if lv.characters is not None else tuple(lv.known)


def _hidden_pool(
    seen: View, state: GameState, known: Mapping[str, tuple[str, ...]]
) -> Counter[str]:
    """Counters in the hidden parts of legions: not in the stacks, the dead pile, a known
    part of a legion or, for its two players, the closing engagement's slain (Titans left
    out)."""
    pool: Counter[str] = Counter()
    for name, c in CHARACTERS.items():
        if name != TITAN:
            pool[name] = c.count - seen.caretaker.get(name, 0) - seen.dead.get(name, 0)
    engagement = state.engagement
    if engagement is not None and engagement.aftermath is not None:
        markers = (engagement.attacker, engagement.defender)
        engaged = {state.legions[m].owner for m in markers if m in state.legions}
        if seen.seat in engaged:
            pool.subtract(engagement.aftermath.slain)  # the two players saw both legions
    for names in known.values():
        pool.subtract(n for n in names if n != TITAN)
    return +pool


def _titan_odds(seen: View, known: Mapping[str, tuple[str, ...]]) -> dict[str, float]:
    """For each legion with hidden slots, the chance it holds its owner's Titan (in
    proportion to its hidden slots, when the Titan is not known to be elsewhere)."""
    odds: dict[str, float] = {}
    for player in seen.players:
        if player.eliminated:
            continue
        legions = [lv for lv in seen.legions if lv.owner == player.seat]
        if any(TITAN in known[lv.marker] for lv in legions):
            continue
        slots = {lv.marker: lv.height - len(known[lv.marker]) for lv in legions}
        total = sum(slots.values())
        for marker, n in slots.items():
            if total and n:
                odds[marker] = n / total
    return odds
