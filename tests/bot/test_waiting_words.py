"""What the game waits for names the choices the rules leave, not every command of the step:
in a negotiation, what the rules still allow (RULES §5.3–§5.6: the attacker never flees,
battle only after a "no more"); after an engagement, the winner's one choice (§7.2 a summon,
§6.6 a reinforcement, §7.1 an acquisition: a defender who won was told to "summon, reinforce
or acquire", and only the attacker summons), the board's button too; in a battle, a
rangestrike only where one may be made (§10) and a take-back once a move is made (§4.7); in
the split phase, the roll only once the first turn's split is made (§3), and a split only
where one may be. ``status`` says where an engagement stands in words ("in negotiation"), a
reminder the winner's step."""

from __future__ import annotations

import random
import re

from bot.narration.awaited import awaited
from bot.narration.describe import status_text, waiting_for
from bot.offers import public_offers
from engine.battle.position import Side
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState, Phase, Stage
from tests.bot.agent import pick
from tests.engine.battle.helpers import battle_game

VERBS = {"summon": a.Summon, "reinforce": a.Reinforce, "acquire": a.Acquire}


def states(seeds: range, stage: Stage, steps: int = 200) -> list[GameState]:
    """Every state of random three-player games (a fighting agent) that waits in an
    engagement's ``stage``."""
    found = []
    for seed in seeds:
        state, _ = new_game(["Ann", "Bob", "Cat"], seed)
        rng = random.Random(seed)
        for _ in range(steps):
            seat = to_act(state)
            if seat is None:
                break
            if state.engagement is not None and state.engagement.stage is stage:
                found.append(state)
            state, _ = apply(state, seat, pick(legal_actions(state, seat), rng, fighting=True))
    return found


#: The negotiation's commands (RULES §5.3–§5.6).
NEGOTIATION = {
    a.Flee: "flee",
    a.Propose: "propose",
    a.Accept: "accept",
    a.Concede: "concede",
    a.NoMoreProposals: "nomore",
    a.Fight: "fight",
}


def test_a_negotiation_names_what_the_rules_still_allow():
    seen = set()
    for state in states(range(8), Stage.NEGOTIATE):
        engagement = state.engagement
        assert engagement is not None
        seat, task = waiting_for(state)
        assert seat is not None
        named = set(re.findall(r"`(\w+)`", task))
        allowed = {
            NEGOTIATION[type(x)] for x in legal_actions(state, seat) if type(x) in NEGOTIATION
        }
        assert allowed <= named, task
        unsaid = named - allowed  # RULES §5.3: a lord keeps the defender from fleeing
        assert unsaid <= {"flee"} and (not unsaid or state.legion(engagement.defender).has_lord)
        seen.add((engagement.to_act, frozenset(named)))
        assert f"against {engagement.defender} (" in status_text(state)
        assert ", in negotiation\n" in status_text(state)
    roles = {role for role, _ in seen}
    assert roles == set(Side)
    assert any("fight" in named for _, named in seen)
    assert any("accept" in named for _, named in seen)
    assert all("flee" not in named for role, named in seen if role is Side.ATTACKER)


def test_the_wait_after_an_engagement_names_the_winners_one_choice():
    seen = set()
    for state in states(range(4), Stage.AFTERMATH):
        engagement = state.engagement
        assert engagement is not None and engagement.aftermath is not None
        aftermath = engagement.aftermath
        seat, task = waiting_for(state)
        assert seat is not None
        named = {verb for verb in VERBS if f"`{verb} " in task}
        kind = (
            "summon"
            if aftermath.may_summon
            else "reinforce"
            if aftermath.may_reinforce
            else "acquire"
        )
        seen.add(kind)
        assert named == {kind}, task
        assert task.endswith("or not (`decline`)"), task
        winner = engagement.defender if aftermath.winner is Side.DEFENDER else engagement.attacker
        assert f" into {winner} " in task, task
        offered = {type(x) for x in legal_actions(state, seat)} & set(VERBS.values())
        assert offered <= {VERBS[kind]}, (task, offered)
        if kind == "summon":
            assert aftermath.winner is Side.ATTACKER  # RULES §7.2: the attacker only
        assert f"Waiting for {state.player(seat).name} to {task}." in status_text(state)
        assert ", decided (the winner's choices)\n" in status_text(state)
        reminded = {"summon": "summon", "reinforce": "reinforcement", "acquire": "acquisition"}
        land = engagement.land
        assert awaited(state, seat) == f"your {reminded[kind]} after the engagement in {land}"
        [ask] = public_offers(state).offers()  # the board's button, named as the line
        assert ask.label == LABELS[kind] and ask.command == "choices aftermath"
    assert seen == set(VERBS)


#: The board's button of each step after an engagement.
LABELS = {
    "summon": "Summon a lord…",
    "reinforce": "Take a reinforcement…",
    "acquire": "Take a lord…",
}


#: Red's strike phase with strikes only, rangestrikes only, and both (RULES §9, §10).
STRIKE_PHASES = {
    (True, False): "Plains t2 defender strike: Rd01 Troll@C3 Titan@A1 | Bk01 Ogre@C2 Titan@F4",
    (False, True): "Plains t2 defender strike: Rd01 Ranger@A1 Titan@A3 | Bk01 Ogre@C1 Titan@F4",
    (True, True): (
        "Plains t2 defender strike: Rd01 Ranger@A1 Troll@D3 Titan@A3 "
        "| Bk01 Ogre@C1 Centaur@D4 Titan@F4"
    ),
}


def test_a_strike_phase_names_a_rangestrike_only_where_one_may_be_made():
    for (strikes, ranged), text in STRIKE_PHASES.items():
        state = battle_game(text)
        seat, task = waiting_for(state)
        assert seat is not None
        legal = legal_actions(state, seat)
        assert any(isinstance(x, b.Strike) for x in legal) == strikes, text
        assert any(isinstance(x, b.Rangestrike) for x in legal) == ranged, text
        assert ("`strike HEX HEX`" in task) == strikes, task
        assert ("`rangestrike HEX HEX`" in task) == ranged, task
        assert "then `done` (battle in " in task, task
        assert ", in battle\n" in status_text(state)


def test_the_split_phase_names_the_split_and_the_roll_as_the_rules_allow_them():
    seen = set()
    for seed in range(3):
        state, _ = new_game(["Ann", "Bob"], seed)
        rng = random.Random(seed)
        for _ in range(400):
            seat = to_act(state)
            if seat is None:
                break
            legal = legal_actions(state, seat)
            if state.phase is Phase.SPLIT:
                _, task = waiting_for(state)
                splits = any(isinstance(x, a.Split) for x in legal)
                roll = a.Roll() in legal
                seen.add((splits, roll))
                assert ("`split LEGION CHARACTER…`" in task) == splits, task
                assert ("`roll`" in task) == roll, task  # RULES §3: turn 1 splits first
            state, _ = apply(state, seat, pick(legal, rng, fighting=True))
    assert seen == {(True, True), (True, False), (False, True)}, seen


def test_a_maneuver_phase_offers_the_take_back_once_a_move_is_made():
    state = battle_game(
        "Plains t2 defender maneuver: Rd01 Troll@C3 Titan@A1 | Bk01 Ogre@E2 Titan@F4"
    )
    seat, task = waiting_for(state)
    assert seat is not None and "`undo`" not in task, task  # RULES §4.7: nothing to take back
    move = next(x for x in legal_actions(state, seat) if isinstance(x, b.Maneuver))
    moved, _ = apply(state, seat, move)
    assert b.TakeBackManeuver(move.to) in legal_actions(moved, seat)
    assert "`maneuver HEX HEX`, `undo`" in waiting_for(moved)[1]
