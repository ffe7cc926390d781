"""Least-revealing reveals (RULES §1.7, §4.4, §6.2, rule 18.4): ``legal_actions`` lists every
distinct reveal, the least revealing first, and an action that does not say what it shows
shows that first one."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battle.position import Side
from engine.characters import CHARACTERS, TITAN
from engine.errors import IllegalMuster
from engine.game import actions as a
from engine.game.events import LegionMoved, Mustered
from engine.game.legal import legal_actions
from engine.game.notation import format_characters
from engine.game.state import GameState, Proposal
from engine.masterboard import LANDS, TOWERS
from engine.movement import MoveKind
from engine.muster import check_muster
from tests.engine.game.helpers import act, of_type, pos


def musters_of(state: GameState, recruit: str) -> list[tuple[str, ...] | None]:
    """The reveals ``legal_actions`` lists for mustering ``recruit`` into Bk01, in order."""
    return [
        x.revealed
        for x in legal_actions(state, 0)
        if isinstance(x, a.Muster) and x.legion == "Bk01" and x.recruit == recruit
    ]


def teleport_lords_to(state: GameState, land: int) -> list[str | None]:
    """The lords ``legal_actions`` lists for tower-teleporting Bk01 to ``land``, in order."""
    return [
        x.lord
        for x in legal_actions(state, 0)
        if isinstance(x, a.Move)
        and x.legion == "Bk01"
        and x.land == land
        and x.kind is MoveKind.TOWER_TELEPORT
    ]


# --- the cases ----------------------------------------------------------------------------
def test_rule_18_5_a_warlock_musters_a_warlock_without_showing_the_titan():
    state = pos("Bk01@200:Titan,Warlock Rd01@600:Titan | turn=Bk phase=muster moves=Bk01")
    assert musters_of(state, "Warlock") == [("Warlock",), ("Titan",)]
    after, events = act(state, 0, a.Muster("Bk01", "Warlock"))
    assert of_type(events, Mustered) == [Mustered("Bk01", "Warlock", ("Warlock",))]
    assert TITAN not in after.legion("Bk01").revealed
    _, events = act(state, 0, a.Muster("Bk01", "Warlock", ("Titan",)))
    assert of_type(events, Mustered)[0].revealed == ("Titan",)


def test_rule_18_5_a_guardian_shows_one_guardian_rather_than_three_identical_creatures():
    state = pos("Bk01@200:Guardian,Troll*3 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01")
    assert musters_of(state, "Guardian") == [("Guardian",), ("Troll", "Troll", "Troll")]
    _, events = act(state, 0, a.Muster("Bk01", "Guardian"))
    assert of_type(events, Mustered)[0].revealed == ("Guardian",)


def test_rule_6_2_fewer_recruiters_first_then_the_cheaper():
    """Mountains (1000): a Minotaur qualifies by a like or higher creature or two Lions."""
    text = "Bk01@1000:Colossus,Dragon,Lion*2,Minotaur Rd01@600:Titan"
    state = pos(f"{text} | turn=Bk phase=muster moves=Bk01")
    assert musters_of(state, "Minotaur") == [
        ("Minotaur",),
        ("Dragon",),
        ("Colossus",),
        ("Lion", "Lion"),
    ]
    _, events = act(state, 0, a.Muster("Bk01", "Minotaur"))
    assert of_type(events, Mustered)[0].revealed == ("Minotaur",)


def test_rule_6_2_equal_reveals_in_alphabetical_order():
    """Marsh (41): a Troll and a Ranger are worth 16 each; both qualify for a Troll."""
    state = pos("Bk01@41:Ogre*2,Ranger,Troll Rd01@600:Titan | turn=Bk phase=muster moves=Bk01")
    assert musters_of(state, "Troll") == [("Ranger",), ("Troll",), ("Ogre", "Ogre")]


def test_rule_4_4_a_tower_teleport_shows_the_archangel_rather_than_the_titan():
    state = pos("Bk01@100:Archangel,Ogre,Titan Rd01@600:Titan | turn=Bk phase=move roll=6")
    assert teleport_lords_to(state, 30) == ["Archangel", "Titan"]
    after, events = act(state, 0, a.Move("Bk01", 30, MoveKind.TOWER_TELEPORT))
    assert of_type(events, LegionMoved)[0].lord == "Archangel"
    assert after.legion("Bk01").revealed == ("Archangel",)
    _, events = act(state, 0, a.Move("Bk01", 30, MoveKind.TOWER_TELEPORT, lord="Titan"))
    assert of_type(events, LegionMoved)[0].lord == "Titan"


def test_rule_4_4_a_tower_teleport_shows_the_angel_rather_than_the_titan():
    state = pos("Bk01@100:Angel,Ogre,Titan Rd01@600:Titan | turn=Bk phase=move roll=6")
    assert teleport_lords_to(state, 30) == ["Angel", "Titan"]
    _, events = act(state, 0, a.Move("Bk01", 30))
    assert of_type(events, LegionMoved)[0].lord == "Angel"


def test_rule_4_4_each_lord_once_the_angel_before_the_archangel():
    state = pos("Bk01@100:Angel*2,Archangel Rd01@600:Titan | turn=Bk phase=move roll=6")
    assert teleport_lords_to(state, 30) == ["Angel", "Archangel"]
    only_titan = pos("Bk01@100:Ogre,Titan Rd01@600:Titan | turn=Bk phase=move roll=6")
    assert teleport_lords_to(only_titan, 30) == ["Titan"]


def test_rule_6_6_a_reinforcement_lists_every_reveal_the_least_revealing_first():
    text = (
        "Bk01@600:Troll*2 Bk02@20:Titan Rd01@600:Titan,Warlock Rd02@41:Ogre "
        "| turn=Bk phase=engage towers=Bk:100,Rd:600"
    )
    state, _ = act(pos(text), 0, a.Engage(600))
    state, _ = act(state, 1, a.Propose((Proposal(Side.ATTACKER),)))
    state, _ = act(state, 0, a.Accept(1))
    reinforcements = [x for x in legal_actions(state, 1) if isinstance(x, a.Reinforce)]
    assert [x.revealed for x in reinforcements if x.recruit == "Warlock"] == [
        ("Warlock",),
        ("Titan",),
    ]
    _, events = act(state, 1, a.Reinforce("Warlock"))
    assert of_type(events, Mustered)[0].revealed == ("Warlock",)


# --- the property -------------------------------------------------------------------------
CREATURES = sorted(n for n, c in CHARACTERS.items() if c.is_creature)
OTHERS = ("Angel", "Archangel", "Guardian", "Warlock")


@st.composite
def legions(draw: st.DrawFn, lord: bool = False) -> tuple[str, ...]:
    """1–6 characters: up to three kinds of creature, one to three of each (pairs and
    triples qualify for musters), maybe the Titan, Angels, Archangels and demi-lords."""
    special = list(draw(st.lists(st.sampled_from(OTHERS), max_size=2)))
    if draw(st.booleans()):
        special.append(TITAN)
    if lord and not any(CHARACTERS[n].is_lord for n in special):
        special.append(draw(st.sampled_from((TITAN, "Angel", "Archangel"))))
    kinds = draw(st.lists(st.sampled_from(CREATURES), max_size=3, unique=True))
    creatures = [n for n in kinds for _ in range(draw(st.integers(1, 3)))]
    names = special + creatures[: 6 - len(special)]
    return tuple(sorted(names or [draw(st.sampled_from(CREATURES))]))


def sub_multisets(names: tuple[str, ...]) -> set[tuple[str, ...]]:
    counts = Counter(names)
    kinds = sorted(counts)
    return {
        tuple(sorted(n for n, k in zip(kinds, ks, strict=True) for _ in range(k)))
        for ks in product(*(range(counts[n] + 1) for n in kinds))
    }


def sufficient(land: int, legion: tuple[str, ...], recruit: str, shown: tuple[str, ...]) -> bool:
    try:
        check_muster(LANDS[land].terrain, legion, recruit, shown)
    except IllegalMuster:
        return False
    return True


def minimal_sufficient_sets(land: int, legion: tuple[str, ...], recruit: str) -> set[tuple]:
    """Every sub-multiset of the legion that qualifies it and has no smaller one that does
    (qualifying is monotone: showing more is allowed, rule 18.4)."""
    found = {s for s in sub_multisets(legion) if sufficient(land, legion, recruit, s)}
    return {
        s
        for s in found
        if not any(sufficient(land, legion, recruit, s[:i] + s[i + 1 :]) for i in range(len(s)))
    }


@settings(max_examples=150, deadline=None)
@given(legion=legions(), land=st.sampled_from(TOWERS) | st.sampled_from(sorted(LANDS)))
def test_every_distinct_muster_reveal_is_listed_the_titan_last(legion, land):
    other = 600 if land != 600 else 500
    text = f"Bk01@{land}:{format_characters(legion)} Rd01@{other}:Titan"
    state = pos(f"{text} | turn=Bk phase=muster moves=Bk01 towers=Bk:100,Rd:{other}")
    recruits = {x.recruit for x in legal_actions(state, 0) if isinstance(x, a.Muster)}
    for recruit in recruits:
        listed = musters_of(state, recruit)
        assert len(listed) == len(set(listed)), listed
        assert set(listed) == minimal_sufficient_sets(land, legion, recruit)
        first = listed[0]
        assert first is not None
        if any(TITAN not in way for way in listed if way is not None):
            assert TITAN not in first
        without = [len(w) for w in listed if w is not None and (TITAN in w) == (TITAN in first)]
        assert len(first) == min(without)
        _, events = act(state, 0, a.Muster("Bk01", recruit))
        assert of_type(events, Mustered)[0].revealed == first


@settings(max_examples=100, deadline=None)
@given(legion=legions(lord=True), tower=st.sampled_from(TOWERS[:5]))
def test_every_distinct_teleport_lord_is_listed_the_titan_last(legion, tower):
    text = f"Bk01@{tower}:{format_characters(legion)} Rd01@600:Titan"
    state = pos(f"{text} | turn=Bk phase=move roll=6 towers=Bk:{tower},Rd:600")
    lands = {
        x.land
        for x in legal_actions(state, 0)
        if isinstance(x, a.Move) and x.kind is MoveKind.TOWER_TELEPORT
    }
    assert lands
    lords = {n for n in legion if CHARACTERS[n].is_lord}
    for land in sorted(lands)[:3]:
        listed = teleport_lords_to(state, land)
        assert sorted(listed) == sorted(lords)
        assert (listed[0] == TITAN) == (lords == {TITAN})
        _, events = act(state, 0, a.Move("Bk01", land, MoveKind.TOWER_TELEPORT))
        assert of_type(events, LegionMoved)[0].lord == listed[0]
