"""The comparison with Slugathon's battle queries builds its cases from the rules' own
answers and reads both programs' answers alike (Slugathon itself needs the harness and a
checkout, which the tests do not have: a stand-in game answers what it is asked)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from engine.battle.maneuver import reachable
from engine.battle.notation import parse_battle
from engine.battle.strike import strike_targets

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _cases() -> Any:
    sys.path.insert(0, str(BENCH))
    try:
        from engine_slugathon import cases
    finally:
        sys.path.remove(str(BENCH))
    return cases


def _game(battle: Any) -> Any:
    """A stand-in for the Slugathon game mirroring ``battle``: a creature per character."""
    from engine.battle.position import Side

    def legion(side: Side) -> SimpleNamespace:
        creatures = [SimpleNamespace(hexlabel=f.hex) for f in battle.position.of_side(side)]
        return SimpleNamespace(creatures=creatures)

    return SimpleNamespace(
        attacker_legion=legion(Side.ATTACKER), defender_legion=legion(Side.DEFENDER)
    )


def _state(battle: Any) -> Any:
    """A stand-in game state around ``battle`` (the script asks it for its battle only)."""
    return SimpleNamespace(battle=battle)


def test_a_strike_phase_gives_a_case_per_striker_and_per_target(monkeypatch):
    battle = parse_battle(
        "Plains t2 attacker strike: Bk01 Troll@C3 Ogre@D2 | Rd01 Ogre@C4 Lion@D3 Ranger@A1"
    )
    monkeypatch.setattr("engine.game.battle_flow.battle_of", lambda state: state.battle)
    found = list(_cases()(_state(battle), _game(battle)))
    kinds = Counter(name for name, *_ in found)
    strikers = [f for f in battle.position.of_side(battle.striking_side) if f.alive]
    pairs = sum(len(strike_targets(battle.position, f)) for f in strikers)
    assert pairs == 3  # Ogre C4 on Troll C3; Lion D3 on Troll C3 and Ogre D2
    assert kinds["strike_targets"] == len(strikers) == 3
    assert kinds["strike_values"] == kinds["declarations"] == kinds["carry_targets"] == pairs
    # the Ranger in A1 is in no contact: its rangestrike targets, each in range 3+ sighted
    assert kinds["rangestrike_targets"] == 1
    lion = [c for c in found if c[0] == "strike_targets" and len(c[1]()) == 2]
    assert len(lion) == 1
    _, ours, _, alike = lion[0]
    assert alike(ours(), {"C3", "D2"})
    assert not alike(ours(), {"C3"})


def test_a_maneuver_gives_a_case_per_character_free_to_move(monkeypatch):
    battle = parse_battle("Plains t2 attacker maneuver: Bk01 Troll@C3 | Rd01 Ogre@A1 Lion@C4")
    monkeypatch.setattr("engine.game.battle_flow.battle_of", lambda state: state.battle)
    found = list(_cases()(_state(battle), _game(battle)))
    # the Lion in C4 is engaged with the Troll: only the Ogre may move
    assert [name for name, *_ in found] == ["reachable"]
    _, ours, _, alike = found[0]
    ogre = battle.position.at("A1")
    assert ogre is not None and ours() == reachable(battle.position, ogre)
    assert alike(ours(), set(ours())) and not alike(ours(), set())
