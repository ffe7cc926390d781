"""Real battle positions for the speed bench and the fast-query tests (RULES §8–§11).

A :class:`Start` is the beginning of a battle: terrain, entry side, both legions and both
Titans' Power. Starts come from a harvested position file (the aibridge's ``positions.json``
format) or are drawn from a seed. :func:`playout` fights a start out between two computer
players through the engine alone and keeps every battle state a decision was taken in.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.ai import choose_action
from engine.battle.state import Battle
from engine.battleland import BATTLELANDS
from engine.characters import CHARACTERS, TITAN, TITAN_POWER_PER_POINTS
from engine.dice import Dice
from engine.game.actions import Action
from engine.game.apply import apply
from engine.game.battle_flow import battle_of, begin_battle
from engine.game.legal import to_act
from engine.game.state import (
    Engagement,
    GameState,
    Legion,
    MoveRecord,
    Options,
    Phase,
    Player,
    Turn,
)
from engine.markers import COLOURS
from engine.masterboard import LANDS, TOWERS
from engine.movement import MoveKind

TERRAINS: tuple[str, ...] = tuple(sorted(BATTLELANDS))
#: Creatures drawn for random legions (lords join by chance: Titan, Angel).
_CREATURES = tuple(sorted(n for n, c in CHARACTERS.items() if c.is_creature))


@dataclass(frozen=True)
class Start:
    """The start of a battle between two legions on ``terrain``."""

    terrain: str
    entry_side: int
    attacker: tuple[str, ...]
    defender: tuple[str, ...]
    titan_power: tuple[int, int]
    """(attacker's, defender's) Titan Power (RULES §1.3)."""
    dice_seed: int


def starts_from_file(path: Path) -> list[Start]:
    """The starts of a harvested position file (``{"positions": [...]}``)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [
        Start(
            p["terrain"],
            int(p.get("entry_side") or 3),
            tuple(sorted(p["attacker"])),
            tuple(sorted(p["defender"])),
            (int(p["titan_power"]["attacker"]), int(p["titan_power"]["defender"])),
            int(p["dice_seed"]),
        )
        for p in raw["positions"]
    ]


def random_starts(seed: int, per_terrain: int) -> list[Start]:
    """``per_terrain`` starts on each battleland with legions of 2–7 drawn from ``seed``."""
    rng = random.Random(seed)
    starts = []
    for terrain in TERRAINS:
        for _ in range(per_terrain):
            legions = []
            for _ in range(2):
                size = rng.randint(2, 7)
                names = [rng.choice(_CREATURES) for _ in range(size)]
                if rng.random() < 0.4:
                    names[0] = TITAN
                elif rng.random() < 0.3:
                    names[0] = "Angel"
                legions.append(tuple(sorted(names)))
            power = (rng.randint(6, 14), rng.randint(6, 14))
            side = rng.choice((1, 3, 5))
            starts.append(Start(terrain, side, legions[0], legions[1], power, rng.randrange(2**32)))
    return starts


def per_terrain(starts: list[Start], count: int) -> list[Start]:
    """The first ``count`` starts of each terrain, terrains in turn."""
    by_terrain: dict[str, list[Start]] = {}
    for start in starts:
        by_terrain.setdefault(start.terrain, []).append(start)
    return [s for t in sorted(by_terrain) for s in by_terrain[t][:count]]


def game_at_battle(start: Start) -> GameState:
    """A 2-player game in the attacker's engagement phase, the battle just begun (§5.7)."""
    where = min(n for n, land in LANDS.items() if land.terrain == start.terrain)
    colours = COLOURS[:2]
    players = tuple(
        Player(
            seat,
            f"P{seat}",
            TOWERS[seat],
            colours[seat].name,
            score=(power - 6) * TITAN_POWER_PER_POINTS,
            markers=colours[seat].markers,
            turns_taken=5,
        )
        for seat, power in enumerate(start.titan_power)
    )
    markers = (colours[0].markers[0], colours[1].markers[0])
    names = (start.attacker, start.defender)
    legions = {m: Legion(m, seat, where, names[seat]) for seat, m in enumerate(markers)}
    used = Counter(start.attacker) + Counter(start.defender)
    caretaker = {n: max(0, c.count - used[n]) for n, c in CHARACTERS.items()}
    move = MoveRecord(markers[0], where, where, MoveKind.NORMAL, start.entry_side)
    state = GameState(
        options=Options(),
        dice=Dice(start.dice_seed),
        players=players,
        legions=legions,
        caretaker=caretaker,
        dead={},
        phase=Phase.ENGAGE,
        active=0,
        turn=Turn(9, False, roll=1, moves=(move,), moved=frozenset({markers[0]})),
        engagement=Engagement(where, markers[0], markers[1], start.entry_side, may_flee=False),
    )
    state, _ = begin_battle(state)
    return state


def fought(start: Start, max_actions: int = 600) -> Iterator[tuple[Battle, Action]]:
    """Every battle state of ``start`` fought out by two computer players, with the
    decision taken in it."""
    state = game_at_battle(start)
    for _ in range(max_actions):
        battle = battle_of(state)
        seat = to_act(state)
        if battle is None or seat is None:
            return
        action = choose_action(state, seat)
        yield battle, action
        state, _ = apply(state, seat, action)


def playout(start: Start, max_actions: int = 600) -> Iterator[Battle]:
    """Every battle state of ``start`` fought out by two computer players, one per decision."""
    return (battle for battle, _ in fought(start, max_actions))


def replayed(start: Start, actions: Iterable[Action]) -> Iterator[Battle]:
    """Every battle state of ``start`` as ``actions`` (a recorded playout) fight it out:
    the same states whatever the computer players would choose today."""
    for state in replayed_games(start, actions):
        battle = battle_of(state)
        assert battle is not None
        yield battle


def replayed_games(start: Start, actions: Iterable[Action]) -> Iterator[GameState]:
    """The game around each battle state of :func:`replayed`."""
    state = game_at_battle(start)
    for action in actions:
        seat = to_act(state)
        if battle_of(state) is None or seat is None:
            raise ValueError(f"the battle on {start.terrain} ended before {action} was taken")
        yield state
        state, _ = apply(state, seat, action)


def battles(starts: list[Start], max_actions: int = 600) -> list[Battle]:
    """The battle states of every start's playout, in order."""
    return [b for start in starts for b in playout(start, max_actions)]
