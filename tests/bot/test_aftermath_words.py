"""What the game waits for after an engagement names the one choice the winner has now
(RULES §7.2 a summon, §6.6 a reinforcement, §7.1 an acquisition), never the others: a
defender who won was told to "summon, reinforce or acquire", and only the attacker
summons."""

from __future__ import annotations

import random
import re

from bot.narration.describe import status_text, waiting_for
from engine.battle.position import Side
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.outcome import acquisition_options
from engine.game.setup import new_game
from engine.game.state import GameState, Stage
from tests.bot.agent import pick

VERBS = {"summon": a.Summon, "reinforce": a.Reinforce, "acquire": a.Acquire}


def aftermaths(seeds: range, steps: int = 200) -> list[GameState]:
    """Every state of random three-player games that waits for a winner's choice after
    an engagement."""
    found = []
    for seed in seeds:
        state, _ = new_game(["Ann", "Bob", "Cat"], seed)
        rng = random.Random(seed)
        for _ in range(steps):
            seat = to_act(state)
            if seat is None:
                break
            if state.engagement is not None and state.engagement.stage is Stage.AFTERMATH:
                found.append(state)
            state, _ = apply(state, seat, pick(legal_actions(state, seat), rng, fighting=True))
    return found


def test_the_wait_after_an_engagement_names_the_winners_one_choice():
    seen = set()
    for state in aftermaths(range(4)):
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
        if kind == "acquire":
            lords = re.findall(r"an (Archangel|Angel)", task)
            assert lords == acquisition_options(state), task
        assert f"Waiting for {state.player(seat).name} to {task}." in status_text(state)
    assert seen == set(VERBS)
