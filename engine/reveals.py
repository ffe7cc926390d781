"""How much a reveal gives away: the engine's order of reveals, least revealing first.

Where the rules let a player choose what to show (any one sufficient set of recruiters,
RULES §6.2 and rule 18.4; the lord a tower teleport reveals, §4.4), the engine's default
and the order of ``legal_actions`` show the least (§1.7). The order is total; a reveal
comes before another when, in turn:

1. it does not show the Titan and the other does: where a Titan is decides the game
   (§12.1), so it is the secret most worth keeping;
2. it shows fewer characters;
3. what it shows is worth less (Power × Skill, the Titan at score 0, §1.1);
4. its names, sorted, come first alphabetically (a fixed tie-break).

A reveal is a multiset: the order of its names does not matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.characters import TITAN, character

RevealCost = tuple[bool, int, int, tuple[str, ...]]


def reveal_cost(names: Iterable[str]) -> RevealCost:
    """The sort key of a reveal: smaller gives less away (see the module docstring)."""
    shown = tuple(sorted(character(name).name for name in names))
    value = sum(character(name).value_at() for name in shown)
    return (TITAN in shown, len(shown), value, shown)


def teleport_lords(characters: Iterable[str]) -> tuple[str, ...]:
    """The distinct lords a tower teleport of a legion holding ``characters`` may reveal
    (RULES §4.4), least revealing first: never the Titan while an Angel or Archangel
    would do, then the Angel before the Archangel."""
    lords = [(name,) for name in characters if character(name).is_lord]
    return tuple(way[0] for way in least_revealing_first(lords))


def least_revealing_first(reveals: Iterable[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """The distinct reveals among ``reveals`` (names sorted), least revealing first."""
    distinct = dict.fromkeys(tuple(sorted(character(n).name for n in r)) for r in reveals)
    return tuple(sorted(distinct, key=reveal_cost))
