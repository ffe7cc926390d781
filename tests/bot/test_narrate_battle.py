"""Every event the engine defines has its own narrator; the battle's lines read well."""

from __future__ import annotations

import importlib
import pkgutil
import random

import pytest

import engine
from bot.narration.narrate import NARRATORS, Names, generic, narrate
from engine.battle import events as bv
from engine.battle.position import Side
from engine.battle.state import EndKind
from engine.events import Event
from engine.game.apply import apply
from engine.game.events import BattleBegun
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from tests.bot.agent import pick
from tests.engine.battle.helpers import battle_game

A, D = Side.ATTACKER, Side.DEFENDER


def event_classes() -> set[type[Event]]:
    """Every event class of every engine module."""
    for module in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(module.name)
    found: set[type[Event]] = set()
    waiting = list(Event.__subclasses__())
    while waiting:
        cls = waiting.pop()
        found.add(cls)
        waiting += cls.__subclasses__()
    return found


def test_every_event_type_has_its_own_narrator():
    classes = event_classes()
    assert len(classes) >= 50
    missing = sorted(cls.__name__ for cls in classes if NARRATORS.get(cls) in (None, generic))
    assert missing == []


def names() -> Names:
    """Names during the battle of ``Rd02`` (Ann) against ``Bk01`` (Bob)."""
    return Names(battle_game("Plains t2: Bk01 Ogre@A1 | Rd02 Troll@F4"))


SAMPLES = [
    (bv.HalfTurnBegun(3, A), "— Battle turn 3 of 7: Rd02 (the attacker) moves —"),
    (bv.EntrantCalled(A, "Angel", donor="Rd03"), "Rd02 summons an Angel from Rd03"),
    (bv.EntrantCalled(D, "Troll", revealed=("Ogre", "Ogre")), "a Troll as its reinforcement"),
    (bv.EntrantArrived(D, "Troll"), "The Troll has entered the battle and joins Bk01."),
    (bv.EntrantReturned(A, "Angel"), "Rd02's Angel did not enter"),
    (
        bv.ChanceDeclined(D, "concession as the battle begins"),
        "Bk01 (the defender) does not concede as the battle begins",
    ),
    (bv.ChanceDeclined(A, "summon"), "Rd02 (the attacker) summons no lord."),
    (bv.ChanceDeclined(A, "something new"), "passes on the something new."),
    (bv.CharacterMoved(D, "Ogre", None, "E1"), "Bk01's Ogre enters at E1."),
    (bv.CharacterMoved(D, "Ogre", "E1", "D2"), "Bk01's Ogre moves E1 → D2."),
    (bv.ManeuverTakenBack(D, "Ogre", None, "E1"), "goes back from E1 off the board."),
    (bv.ManeuverTakenBack(D, "Ogre", "E1", "D2"), "Bk01's Ogre goes back from D2 to E1."),
    (bv.ManeuverEnded(A), "Rd02 ends its maneuver."),
    (bv.LeftOff(A, ("Ogre", "Ogre")), "Rd02's Ogre ×2 were left off the board: slain"),
    (bv.LeftOff(A, ("Angel",)), "Rd02's Angel was left off the board: slain"),
    (bv.LeftOff(D, ("Serpent",), forced=True), "Bk01's Serpent could not enter"),
    (bv.DriftDamage(A, ("C3", "D4"), ("D4",)), "characters in C3, D4; slain in D4."),
    (
        bv.Struck(A, "C3", "Troll", "D4", "Ogre", 8, 4, (6, 4, 4, 2, 1, 5, 1, 3), 5, True, 1),
        "Rd02's Troll (C3) strikes Bk01's Ogre (D4): 8 dice at 4+ → 6 4 4 2 1 5 1 3: "
        "5 hits, Ogre slain, 1 excess hit lost.",
    ),
    (
        bv.Struck(D, "D4", "Ogre", "C3", "Troll", 1, 6, (6,), 1, False, 0, True, True),
        "Bk01's Ogre (D4) strikes back at Rd02's Troll (C3): 1 die at 6+ → 6 (announced): 1 hit.",
    ),
    (bv.CarryToPlace(A, 2, ("E3", "C3")), "Rd02 places 2 carried-over hits: `carry E3` or"),
    (bv.CarriedOver("E3", "Lion", 2, True), "2 hits carried over to the Lion (E3): Lion slain."),
    (
        bv.Rangestruck(A, "A2", "Ranger", "C3", "Ogre", 4, 4, (4, 1, 2, 3), 1, False),
        "Rd02's Ranger (A2) rangestrikes Bk01's Ogre (C3): 4 dice at 4+ → 4 1 2 3: 1 hit.",
    ),
    (bv.StrikesEnded(A, False), "Rd02's strike phase is over."),
    (bv.StrikesEnded(D, True), "Bk01's counterstrikes are over."),
    (bv.SlainRemoved(("D4", "C3"), ("Ogre", "Troll")), "battleland: Ogre (D4), Troll (C3)."),
    (bv.ConcessionAttempted(A), "Rd02 (the attacker) offers to concede: Bk01 may `accept`"),
    (bv.ConcededInstead(D), "Bk01 (the defender) concedes instead: Rd02 may `accept`"),
    (bv.ConcessionRollOff(((3, 3), (5, 2)), A), "3–3, 5–2; the higher roller, Rd02"),
    (bv.BattleConceded(D), "Bk01 (the defender) concedes the battle."),
    (bv.BattleEnded(EndKind.TITAN_SLAIN, D, 4), "turn 4 (Titan slain): Bk01 (the defender) wins"),
    (bv.BattleEnded(EndKind.MUTUAL, None, 2), "(mutual elimination): nobody wins."),
]


@pytest.mark.parametrize(("event", "words"), SAMPLES)
def test_battle_lines(event, words):
    assert words in narrate([event], names())[0]


def test_every_battle_event_has_a_sample():
    sampled = {type(event) for event, _ in SAMPLES}
    assert sampled == {cls for cls in event_classes() if cls.__module__ == bv.__name__}


def test_excess_hits_carry_when_a_carry_follows():
    struck = bv.Struck(A, "C3", "Troll", "D4", "Ogre", 8, 4, (6, 4, 4, 2, 1, 5, 1, 3), 5, True, 1)
    lines = narrate([struck, bv.CarriedOver("E4", "Lion", 1, False)], names())
    assert lines == [
        "Rd02's Troll (C3) strikes Bk01's Ogre (D4): 8 dice at 4+ → 6 4 4 2 1 5 1 3: "
        "5 hits, Ogre slain, 1 hit to carry.",
        "1 hit carried over to the Lion (E4).",
    ]


def test_sides_are_named_without_a_state_and_learnt_from_the_battle_start():
    assert narrate([bv.ManeuverEnded(A)], Names()) == ["the attacker ends its maneuver."]
    begun = BattleBegun(41, "Marsh", "Rd02", "Bk01", 5)
    lines = narrate([begun, bv.ManeuverEnded(A)], Names())
    assert lines[0].startswith("Battle in 41 (Marsh): Rd02 attacks Bk01 from side 5.")
    assert "the attacker and then the defender may concede" in lines[0]
    assert lines[1] == "Rd02 ends its maneuver."


def test_random_games_are_told_without_generic_lines():
    """Whole games by a fighting agent: each event narrated by its own narrator."""
    told = 0
    for seed in range(4):
        state, events = new_game(["Ann", "Bob"], seed)
        rng = random.Random(seed)
        while state.result is None:
            seat = to_act(state)
            assert seat is not None
            after, events = apply(state, seat, pick(legal_actions(state, seat), rng, True))
            assert all(type(e) in NARRATORS for e in events)
            told += len(narrate(events, Names(state, after)))
            for player in after.players:
                narrate(events, Names(state, after), player.seat)
            state = after
    assert told > 500
