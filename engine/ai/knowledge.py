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

from engine.ai.worth import strength
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

    def of(self, marker: str) -> Sighting:
        return self.sightings[marker]


def know(state: GameState, seat: int) -> Knowledge:
    """What ``seat`` knows (RULES §1.7) and expects of the rest."""
    seen = view(state, seat)
    scores = {p.seat: p.score for p in seen.players}
    known = {lv.marker: _known(lv) for lv in seen.legions}
    pool = _hidden_pool(seen, state, known)
    titan_odds = _titan_odds(seen, known)
    count = sum(pool.values())
    avg_strength = sum(strength(n) * k for n, k in pool.items()) / count if count else 12.0
    avg_points = (
        sum(character(n).value_at() * k for n, k in pool.items()) / count if count else 12.0
    )
    sightings = {}
    for lv in seen.legions:
        names = known[lv.marker]
        power = titan_power(scores[lv.owner])
        hidden = lv.height - len(names)
        p = titan_odds.get(lv.marker, 0.0)
        sightings[lv.marker] = Sighting(
            lv.marker,
            lv.owner,
            lv.land,
            lv.height,
            names,
            hidden == 0,
            1.0 if TITAN in names else p,
            sum(strength(n, power) for n in names)
            + p * strength(TITAN, power)
            + max(0.0, hidden - p) * avg_strength,
            sum(character(n).value_at(scores[lv.owner]) for n in names)
            + p * power * 4
            + max(0.0, hidden - p) * avg_points,
        )
    return Knowledge(seat, sightings, scores)


def _known(lv: LegionView) -> tuple[str, ...]:
    return lv.characters if lv.characters is not None else tuple(lv.known)


def _hidden_pool(
    seen: View, state: GameState, known: Mapping[str, tuple[str, ...]]
) -> Counter[str]:
    """Counters in the hidden parts of legions: not in the stacks, the dead pile, a known
    part of a legion or the closing engagement's slain (Titans left out)."""
    pool: Counter[str] = Counter()
    for name, c in CHARACTERS.items():
        if name != TITAN:
            pool[name] = c.count - seen.caretaker.get(name, 0) - seen.dead.get(name, 0)
    engagement = state.engagement
    if engagement is not None and engagement.aftermath is not None:
        pool.subtract(engagement.aftermath.slain)  # public: the battle or deal was seen
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
