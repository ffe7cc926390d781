"""The battle queries' long memos hold nothing the garbage collector walks per entry.

A full collection walks every object the collector tracks, and on the bot it holds the
event loop up while it does (issue 24's soak: 150 ms on a long run). The memos a search
fills by the ten thousand therefore keep numbers and tuples of them, which the collector
stops tracking, or share one instance of each distinct answer.
"""

from __future__ import annotations

import dataclasses
import gc
from collections import defaultdict

from engine.ai.worth import exhausted
from engine.battle import maneuver
from engine.battle.position import Position
from engine.battle.rangestrike import rangestrike_targets, rangestrike_values
from engine.battle.strike import strike_targets, strike_values
from engine.characters import CHARACTERS
from engine.frozen import shared
from tests.engine.battle.corpus import battles, random_starts

POSITIONS: list[Position] = list(
    dict.fromkeys(b.position for b in battles(random_starts(77, 1), max_actions=150))
)


def test_moves_and_reachable_hexes_are_kept_as_untracked_numbers_and_tuples():
    # Answers kept before a process froze its heap (bot.heap.settle, which another test
    # in this worker may call) stay tracked but are never walked; start from fresh ones.
    maneuver._moves.cache_clear()
    maneuver._reachable.cache_clear()
    keys = []
    for position in POSITIONS:
        for f in position.fighters:
            if f.alive and maneuver.reachable(position, f):
                blocked = maneuver._blocked(position, position.terrain, f.name, f.hex)
                keys.append((position.terrain, f.name, f.hex, blocked))
    assert len(keys) > 100
    gc.collect()  # a collection untracks tuples of numbers and strings; a tuple of
    gc.collect()  # such tuples, made before them, at the next
    for key in keys:
        assert not gc.is_tracked(maneuver._moves(*key))
        assert not gc.is_tracked(maneuver._reachable(*key))
        assert maneuver._hexes(maneuver._reachable(*key)) == frozenset(
            label for label, _ in maneuver._moves(*key)
        )


def test_equal_strike_and_rangestrike_values_are_one_shared_instance():
    by_value: defaultdict[object, set[int]] = defaultdict(set)
    asked = 0
    for position in POSITIONS:
        for f in position.fighters:
            if not f.alive:
                continue
            for t in strike_targets(position, f):
                values = strike_values(position, f, t)
                by_value[values].add(id(values))
                asked += 1
            for t in rangestrike_targets(position, f):
                ranged = rangestrike_values(position, f, t)
                by_value[ranged].add(id(ranged))
                asked += 1
    assert asked > 2 * len(by_value) > 20  # many questions, fewer distinct answers
    assert all(len(ids) == 1 for ids in by_value.values())
    for value, ids in by_value.items():  # the memo's answers are the shared instances
        assert id(shared(dataclasses.replace(value))) in ids  # type: ignore[type-var]


def test_the_exhausted_stacks_key_is_an_untracked_tuple():
    stacks = {name: 0 if name in ("Hydra", "Angel") else 3 for name in CHARACTERS}
    found = exhausted(stacks)
    gc.collect()
    assert found == ("Angel", "Hydra")
    assert not gc.is_tracked(found)
