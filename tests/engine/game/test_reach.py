"""Where the mover's legions may go after the roll, as the mover and as anyone else knows it
(RULES §2–§4, §1.7)."""

from __future__ import annotations

from collections import Counter

from engine.characters import TITAN, character
from engine.game import actions as a
from engine.game.apply import apply, new_game
from engine.game.legal import legal_actions, to_act
from engine.game.reach import reach
from engine.game.state import GameState, Options, Phase
from engine.masterboard import TOWERS
from engine.movement import MoveKind
from tests.engine.game.helpers import Knowledge, pos
from tests.engine.game.test_random_games import Agent

TOWER_SIX = "Bk01@100:Angel,Ogre*2 Bk02@7:Troll Rd01@600:Titan | turn=Bk phase=move roll=6"


def legal_destinations(state: GameState) -> dict[str, tuple[set[int], set[int]]]:
    """Per legion of the mover: its lands by a normal move and by a teleport, as
    ``legal_actions`` offers them."""
    found: dict[str, tuple[set[int], set[int]]] = {}
    for x in legal_actions(state, state.active):
        if isinstance(x, a.Move):
            normal, teleport = found.setdefault(x.legion, (set(), set()))
            (normal if x.kind in (None, MoveKind.NORMAL) else teleport).add(x.land)
    return found


def drawn(state: GameState, seat: int | None) -> dict[str, tuple[set[int], set[int]]]:
    return {r.marker: (set(r.lands), set(r.teleports)) for r in reach(state, seat)}


def test_the_mover_is_shown_every_legal_destination_teleports_too():
    state = pos(TOWER_SIX)
    mine = {r.marker: r for r in reach(state, 0)}
    normal, teleport = legal_destinations(state)["Bk01"]
    assert set(mine["Bk01"].lands) == normal and set(mine["Bk01"].teleports) == teleport - normal
    assert {200, 300, 400, 500} <= set(mine["Bk01"].teleports)  # empty towers (RULES §4.4b)
    assert not mine["Bk02"].teleports  # no lord, not in a tower


def test_the_channel_is_not_shown_a_teleport_of_a_hidden_lord():
    state = pos(TOWER_SIX)
    public = {r.marker: r for r in reach(state, None)}
    assert not public["Bk01"].teleports and not public["Bk02"].teleports
    assert public["Bk01"].lands == {r.marker: r for r in reach(state, 0)}["Bk01"].lands
    assert reach(state, 1) == reach(state, None)  # the other player knows no more


def test_a_lord_everyone_has_seen_is_shown_with_record_keeping():
    shown = TOWER_SIX.replace("Ogre*2 ", "Ogre*2[Angel] ")
    kept = pos(shown + " options=record_keeping")
    assert {r.marker: r for r in reach(kept, None)}["Bk01"].teleports
    forgotten = pos(shown)  # without record keeping nobody recalls it (errata 20.0)
    assert not {r.marker: r for r in reach(forgotten, None)}["Bk01"].teleports


def test_a_titan_teleport_is_public_only_once_the_titan_is_known():
    line = "Bk01@1:Titan,Troll{} Rd01@41:Ogre Rd02@600:Titan | turn=Bk roll=6 scores=Bk:400"
    hidden = pos(line.format(""))
    assert {41, 600} <= drawn(hidden, 0)["Bk01"][1] | drawn(hidden, 0)["Bk01"][0]
    assert drawn(hidden, None)["Bk01"][1] == set()
    known = pos(line.format("[Titan]") + " options=record_keeping")
    assert drawn(known, None) == drawn(known, 0)


def test_nothing_is_reachable_before_the_roll_or_after_the_moves():
    assert reach(pos("Bk01@100:Angel,Ogre Rd01@600:Titan | turn=Bk phase=split"), 0) == ()
    moved = pos("Bk01@4:Angel,Ogre Rd01@600:Titan | turn=Bk roll=4 moves=Bk01:100>4")
    assert reach(moved, 0) == ()


def test_in_random_games_the_mover_sees_the_engines_moves_and_others_only_public_ones():
    """Every movement phase of seeded games: the mover's reach is ``legal_actions``'
    destinations; anyone else's the same normal moves, and a teleport only when the lord it
    needs was revealed to all (an independent model of what is known, RULES §1.7)."""
    checked = Counter[str]()
    for seed in range(6):
        options = Options(record_keeping=seed % 2 == 0)
        state, _ = new_game([f"P{i}" for i in range(2 + seed % 3)], seed, options)
        agent, know = Agent(seed), Knowledge(len(state.players))
        for _ in range(2500):
            seat = to_act(state)
            if seat is None:
                break
            if state.phase is Phase.MOVE and state.turn.roll is not None:
                _check_reach(state, know, options.record_keeping, checked)
            who, action = agent.choose(state, seat, legal_actions(state, seat))
            before = state
            state, events = apply(state, who, action)
            know.follow(before, state, events)
    assert checked["mover"] > 200 and checked["teleport"] > 0, checked
    assert checked["hidden lord"] > 0, checked


def _check_reach(state: GameState, know: Knowledge, kept: bool, checked: Counter[str]) -> None:
    legal = legal_destinations(state)
    mine = drawn(state, state.active)
    assert mine == {m: (n, t - n) for m, (n, t) in legal.items()}
    checked["mover"] += 1
    public = drawn(state, None)
    for marker, (normal, teleport) in mine.items():
        checked["teleport"] += bool(teleport)
        if marker not in public:
            assert not normal
            checked["hidden lord"] += 1
            continue
        assert public[marker][0] == normal
        seen = know.public.get(marker, Counter()) if kept else Counter()
        if public[marker][1]:
            assert public[marker][1] <= teleport
            needs = TITAN if state.legions[marker].land not in TOWERS else None
            assert any(character(n).is_lord for n in seen) and (needs is None or needs in seen)
        checked["hidden lord"] += public[marker][1] != teleport
