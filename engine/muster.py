"""Mustering: the recruit trees, the Tower rules and who qualifies (RULES §6.2–§6.4).

The trees come from ``engine/data/recruits.toml`` and are checked at load time. A legion
qualifies for a recruit in one or more ways; :func:`muster_options` lists every way as a
minimal set of characters to reveal (rule 18.4), in the trees' order, and
:func:`in_reveal_order` puts them least revealing first (:mod:`engine.reveals`), the order
the game offers them in; :func:`check_muster` validates a player's choice. Qualification
ignores the legion's height; eligibility (height ≤ 6, moved this turn, not yet mustered) is
the caller's, except that :func:`can_muster` and :func:`check_muster` refuse a full legion
(RULES §6.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.characters import CHARACTERS, Kind, character
from engine.data import load
from engine.errors import DataError, IllegalMuster, InvalidNotation
from engine.masterboard import TERRAINS, TOWER
from engine.reveals import least_revealing_first

#: A full legion (RULES §0.2): it can neither muster nor be added to.
FULL_HEIGHT = 7

#: What the caretaker still has: a predicate, a set of names, or a mapping name → count.
#: ``None`` means every stack has counters left.
Availability = Callable[[str], bool] | Mapping[str, int] | Collection[str] | None


@dataclass(frozen=True)
class Rung:
    """One creature of a recruit tree (rule 18.2).

    ``needs_previous``: how many of the creature just below qualify for this one (None
    for the first); ``next_needs``: how many of this one qualify for the next (None for
    the last), the number printed beside it on the Masterchart.
    """

    creature: str
    needs_previous: int | None
    next_needs: int | None


@dataclass(frozen=True)
class RecruitTree:
    """A terrain's recruit list, weakest first (RULES §6.3)."""

    terrain: str
    rungs: tuple[Rung, ...]

    @property
    def creatures(self) -> tuple[str, ...]:
        return tuple(r.creature for r in self.rungs)


@dataclass(frozen=True)
class Qualifier:
    """One way to qualify for a Tower demi-lord (RULES §6.4, rule 18.5).

    Either ``count`` of the named ``character``, or (``kind`` with ``same_type``)
    ``count`` identical characters of that kind.
    """

    count: int
    character: str | None = None
    kind: Kind | None = None
    same_type: bool = False


@dataclass(frozen=True)
class TowerRules:
    """Tower mustering (RULES §6.4): free creatures and qualified demi-lords."""

    free: tuple[str, ...]
    demilords: Mapping[str, tuple[Qualifier, ...]]


@dataclass(frozen=True)
class MusterOption:
    """A recruit the legion qualifies for, and every minimal set it may reveal for it.

    ``recruiters`` holds one tuple per alternative (rule 18.4); the free Tower creatures
    have the single alternative ``()`` (nothing to reveal).
    """

    recruit: str
    recruiters: tuple[tuple[str, ...], ...]


def _known(name: str, where: str) -> str:
    if name not in CHARACTERS:
        raise DataError(f"{where}: unknown character {name!r}")
    return name


def _load_tree(terrain: str, raw: list[dict[str, object]]) -> RecruitTree:
    if not raw:
        raise DataError(f"recruit tree {terrain}: empty")
    names = [_known(str(step["creature"]), f"recruit tree {terrain}") for step in raw]
    needs: list[int | None] = [None]
    for step in raw[1:]:
        n = step.get("needs")
        if not isinstance(n, int) or n < 1:
            raise DataError(f"recruit tree {terrain}: 'needs' is a count ≥ 1 on every later step")
        needs.append(n)
    if "needs" in raw[0] or len(set(names)) != len(names):
        raise DataError(f"recruit tree {terrain}: distinct creatures, the first without 'needs'")
    if any(not CHARACTERS[n].is_creature for n in names):
        raise DataError(f"recruit tree {terrain}: only creatures are mustered by trees")
    after = [*needs[1:], None]
    return RecruitTree(terrain, tuple(map(Rung, names, needs, after)))


def _load_qualifier(demilord: str, raw: Mapping[str, object]) -> Qualifier:
    count = raw.get("count")
    if not isinstance(count, int) or count < 1:
        raise DataError(f"Tower {demilord}: a qualifier needs a count ≥ 1")
    if "character" in raw:
        return Qualifier(count, character=_known(str(raw["character"]), f"Tower {demilord}"))
    if "kind" in raw and raw.get("same_type") is True:
        try:
            return Qualifier(count, kind=Kind(raw["kind"]), same_type=True)
        except ValueError:
            raise DataError(f"Tower {demilord}: unknown kind {raw['kind']!r}") from None
    raise DataError(f"Tower {demilord}: a qualifier names a character or identical ones")


def _load_tower(raw: Mapping[str, Any]) -> TowerRules:
    free = tuple(_known(str(n), "Tower free creatures") for n in raw["free"])
    if any(not CHARACTERS[n].is_creature for n in free):
        raise DataError("Tower: the free recruits are creatures")
    demilords: dict[str, tuple[Qualifier, ...]] = {}
    for name, quals in raw["demilords"].items():
        if not CHARACTERS[_known(name, "Tower demi-lords")].is_demilord:
            raise DataError(f"Tower: {name} is not a demi-lord")
        demilords[name] = tuple(_load_qualifier(name, q) for q in quals)
    return TowerRules(free, MappingProxyType(demilords))


def _load() -> tuple[Mapping[str, RecruitTree], TowerRules]:
    data = load("recruits")
    trees = {t: _load_tree(t, raw["tree"]) for t, raw in data["trees"].items()}
    if sorted([*trees, TOWER]) != sorted(TERRAINS):
        raise DataError("every terrain but the Tower needs a recruit tree")
    return MappingProxyType(trees), _load_tower(data["tower"])


RECRUIT_TREES, TOWER_RULES = _load()


def _check_terrain(terrain: str) -> str:
    if terrain not in TERRAINS:
        raise InvalidNotation(f"{terrain!r} is not a terrain (choose from {', '.join(TERRAINS)})")
    return terrain


def recruits_in(terrain: str) -> tuple[str, ...]:
    """Every character ever mustered in ``terrain`` (RULES §6.3, §6.4), weakest first."""
    if _check_terrain(terrain) == TOWER:
        return (*TOWER_RULES.free, *TOWER_RULES.demilords)
    return RECRUIT_TREES[terrain].creatures


def _availability(available: Availability) -> Callable[[str], bool]:
    if available is None:
        return lambda name: True
    if callable(available):
        return available
    if isinstance(available, Mapping):
        counts = available
        return lambda name: counts.get(name, 0) > 0
    names = available
    return lambda name: name in names


def _tree_ways(tree: RecruitTree, k: int, have: Counter[str]) -> list[tuple[str, ...]]:
    """Rule 18.3: one like or higher creature of the tree, or n of the one just below."""
    rung = tree.rungs[k]
    ways: list[tuple[str, ...]] = [(r.creature,) for r in tree.rungs[k:] if have[r.creature]]
    if rung.needs_previous and have[tree.rungs[k - 1].creature] >= rung.needs_previous:
        ways.append((tree.rungs[k - 1].creature,) * rung.needs_previous)
    return ways


def _qualifier_ways(q: Qualifier, have: Counter[str]) -> list[tuple[str, ...]]:
    if q.character is not None:
        return [(q.character,) * q.count] if have[q.character] >= q.count else []
    return [
        (name,) * q.count
        for name, n in sorted(have.items())
        if n >= q.count and CHARACTERS[name].kind is q.kind
    ]


def _ways(terrain: str, have: Counter[str]) -> list[tuple[str, list[tuple[str, ...]]]]:
    if terrain != TOWER:
        tree = RECRUIT_TREES[terrain]
        return [(r.creature, _tree_ways(tree, k, have)) for k, r in enumerate(tree.rungs)]
    ways: list[tuple[str, list[tuple[str, ...]]]] = [(n, [()]) for n in TOWER_RULES.free]
    for name, quals in TOWER_RULES.demilords.items():
        found = [w for q in quals for w in _qualifier_ways(q, have)]
        ways.append((name, list(dict.fromkeys(found))))
    return ways


def _counted(legion: Iterable[str]) -> Counter[str]:
    return Counter(character(name).name for name in legion)


def muster_options(
    terrain: str, legion: Sequence[str], available: Availability = None
) -> list[MusterOption]:
    """Every recruit ``legion`` qualifies for in ``terrain`` (RULES §6.2–§6.4), weakest first.

    Qualification ignores height. ``available`` says what the caretaker still has
    (default: everything). Raises :class:`InvalidNotation` for an unknown terrain or name.
    """
    has_left = _availability(available)
    have = _counted(legion)
    return [
        MusterOption(recruit, tuple(ways))
        for recruit, ways in _ways(_check_terrain(terrain), have)
        if ways and has_left(recruit)
    ]


def in_reveal_order(options: Iterable[MusterOption]) -> list[MusterOption]:
    """``options`` with each one's ways to reveal least revealing first (RULES §1.7, §6.2)."""
    return [MusterOption(o.recruit, least_revealing_first(o.recruiters)) for o in options]


def can_muster(terrain: str, legion: Sequence[str], available: Availability = None) -> bool:
    """Whether ``legion`` has a recruit in ``terrain`` and room for it (RULES §6.1, §6.2)."""
    return len(legion) < FULL_HEIGHT and bool(muster_options(terrain, legion, available))


def _is_within(part: Counter[str], whole: Counter[str]) -> bool:
    return all(whole[name] >= n for name, n in part.items())


def _describe(ways: Iterable[tuple[str, ...]]) -> str:
    return " or ".join(", ".join(way) if way else "nothing" for way in ways)


def check_muster(
    terrain: str,
    legion: Sequence[str],
    recruit: str,
    revealed: Sequence[str],
    available: Availability = None,
) -> MusterOption:
    """Validate mustering ``recruit`` in ``terrain`` by revealing ``revealed`` (RULES §6).

    ``revealed`` must hold one sufficient set of recruiters (extra characters are
    allowed: showing more than needed is the player's choice, rule 18.4). Returns the
    matching :class:`MusterOption`; raises :class:`IllegalMuster` naming the rule, or
    :class:`InvalidNotation` for an unknown terrain or character.
    """
    have = _counted(legion)
    shown = _counted(revealed)
    name = character(recruit).name
    if len(legion) >= FULL_HEIGHT:
        raise IllegalMuster(f"a legion of {len(legion)} characters is full (RULES §6.1)")
    if name not in recruits_in(terrain):
        raise IllegalMuster(f"{name} cannot be mustered in {terrain} (RULES §6.3, §6.4)")
    if not _availability(available)(name):
        raise IllegalMuster(f"the caretaker has no {character(name).plural} left (RULES §6.2)")
    if not _is_within(shown, have):
        raise IllegalMuster(
            f"revealed {', '.join(revealed)}: not all of them are in the legion (RULES §6.2)"
        )
    ways = dict(_ways(terrain, have))[name]
    if not ways:
        raise IllegalMuster(f"the legion does not qualify for {name} in {terrain} (RULES §6.2)")
    if not any(_is_within(Counter(way), shown) for way in ways):
        raise IllegalMuster(f"to muster {name} reveal {_describe(ways)} (RULES §6.2, rule 18.4)")
    return MusterOption(name, tuple(ways))
