"""The one-line battle notation: parse/format pairs, and the battle state's JSON round trip."""

from __future__ import annotations

import json

import pytest

from engine.battle.notation import format_battle, parse_battle
from engine.battle.position import Side
from engine.battle.state import Battle, BattleStep, Concession, Entrant, PendingCarry
from engine.codec import decode, encode
from engine.errors import InvalidNotation

CANONICAL = [
    "Tower t3 defender maneuver: Bk01 Titan(8)@D4:2 Ogre@C3 | Rd02 Troll@A1 Angel@off",
    "Plains s1 t1 defender maneuver: Bk01 Ogre@off Titan@off | Rd02 Centaur@off",
    "Tundra s5 t7 attacker strike: Bk01 Troll@C2:3* Ogre@D3! | Rd02 Giant@C3 Ogre@slain",
    "Jungle t2 attacker end-check: Bk01 Serpent@D5 Serpent@leftoff | Rd02 Titan(9)@slain",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_format_of_parse_is_the_canonical_text(text):
    assert format_battle(parse_battle(text)) == text


def test_parse_reads_every_part():
    battle = parse_battle(CANONICAL[2])
    assert (battle.terrain, battle.entry_side, battle.turn) == ("Tundra", 5, 7)
    assert (battle.phasing, battle.step) == (Side.ATTACKER, BattleStep.STRIKE)
    troll = battle.position.at("C2")
    ogre = battle.position.at("D3")
    assert troll is not None and troll.hits == 3 and troll.alive
    assert ogre is not None and ogre.slain and not ogre.alive
    assert battle.struck == frozenset({"C2"})
    assert [(c.name, c.side) for c in battle.casualties] == [("Ogre", Side.ATTACKER)]
    assert battle.entered == frozenset(Side)


def test_titan_power_and_waiting_characters():
    battle = parse_battle(CANONICAL[0])
    assert battle.titan_power == {Side.DEFENDER: 8, Side.ATTACKER: 6}
    assert battle.waiting(Side.ATTACKER) == ("Angel",)
    assert battle.legion(Side.DEFENDER) == ("Ogre", "Titan")


def test_first_maneuvers_follow_the_turn():
    assert parse_battle(CANONICAL[1]).entered == frozenset()
    attacker_first = "Plains t1 attacker maneuver: Bk01 Ogre@C3 | Rd02 Ogre@off"
    assert parse_battle(attacker_first).entered == frozenset({Side.DEFENDER})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Plains t1: Bk01 Ogre@C3", "defender | attacker"),
        ("Nowhere t1: Bk01 | Rd01", "not a terrain"),
        ("Plains t9: Bk01 | Rd01", "t9"),
        ("Plains: Bk01 Ogre@G7 | Rd01", "not a character like"),
        ("Plains: Bk01 Ogre@C9 | Rd01", "not a battleland hex"),
        ("Plains: Bk01 Ogre(9)@C3 | Rd01", "only a Titan"),
        ("Plains: Bk01 Ogre@C3 | Rd01 Troll@C3", "two characters in one hex"),
        ("Plains: Bk01 Dragonfly@C3 | Rd01", "not a character of TITAN"),
    ],
)
def test_bad_notation_is_rejected_with_a_reason(text, message):
    with pytest.raises(InvalidNotation, match=message):
        parse_battle(text)


def test_battle_state_survives_json():
    battle = parse_battle(CANONICAL[2])
    battle = Battle(
        **{
            **{f: getattr(battle, f) for f in battle.__dataclass_fields__},
            "carry": PendingCarry("C3", 2, ("C2", "D3")),
            "concession": Concession(Side.DEFENDER, countered=True),
            "entrant": Entrant("Angel", Side.ATTACKER, donor="Rd05"),
        }
    )
    assert decode(Battle, json.loads(json.dumps(encode(battle)))) == battle
