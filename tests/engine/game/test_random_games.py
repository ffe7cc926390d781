"""Random legal playouts: 200 complete games keep every invariant (STYLE: property tests).

A seeded agent picks only among ``legal_actions`` (weighted by kind so games are long and
varied; withdrawals, while the colours are chosen too, the time limit and players showing
their legions, in whole or in part and out of turn, are exercised now and then). After every action:
counters conserved, legion heights, markers, no shared lands after movement, scores never
fall, someone to act with a legal choice, no event leaking hidden contents. Every
``EXPENSIVE`` actions and at the end: views of every seat for leaks, every legal action
applies, JSON and notation round trips; every ``REPLAY`` actions and at the end,
``replay`` rebuilds the state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.battle.position import Side
from engine.characters import STARTING_LEGION
from engine.codec import decode, encode
from engine.errors import TitanError
from engine.game import actions as a
from engine.game.apply import apply, new_game, replay
from engine.game.events import Event, PointsScored, event_to_json
from engine.game.legal import legal_actions, to_act
from engine.game.notation import format_position, parse_position
from engine.game.state import GameState, Options, Phase, Proposal
from engine.game.view import events_for, view
from tests.engine.game.helpers import Knowledge, assert_conserved, in_limbo, wiped_out

GAMES = 200
MAX_ACTIONS = 8000
EXPENSIVE = 40
REPLAY = 500
WEIGHTS = {
    "ChooseColour": 1, "Split": 2, "UndoSplit": 0.5, "Roll": 4, "Mulligan": 0.5, "Move": 12,
    "TakeBack": 0.7, "EndMovement": 3, "Engage": 1, "Flee": 1, "Propose": 3, "Accept": 1,
    "Concede": 0.1, "NoMoreProposals": 1.5, "Fight": 3, "Summon": 4, "Reinforce": 4,
    "Acquire": 4, "Decline": 1, "Muster": 8, "EndTurn": 1,
    # Battle (RULES §8–§10): fight it out more often than not.
    "Maneuver": 8, "TakeBackManeuver": 0.3, "EndManeuver": 1, "Strike": 8, "Rangestrike": 6,
    "CarryOver": 4, "EndStrikes": 1, "AcceptConcession": 1, "ConcedeInstead": 0.5,
    # Showing a legion (errata 4.5), besides the out-of-turn ones of Agent.choose.
    "Reveal": 0.2,
}  # fmt: skip
#: Actions open to every seat at any time (RULES §12.4; errata 4.5).
ANYTIME = (a.Withdraw, a.Reveal)
#: What the 200 games did, for the coverage test at the end.
SEEN: Counter[str] = Counter()
FINISHED: set[int] = set()


class Agent:
    """Chooses a kind of action by weight, then one action of that kind."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.expire_at = self.rng.randint(8, 60)

    def choose(self, state: GameState, seat: int, legal: list[a.Action]) -> tuple[int, a.Action]:
        rng = self.rng
        expire = state.options.time_limit and state.final_turns is None
        if expire and state.turn.number >= self.expire_at and state.phase is not Phase.COLOURS:
            return rng.randrange(len(state.players)), a.ExpireTimeLimit()
        living = state.living_seats()
        if state.phase is Phase.COLOURS:
            if len(living) > 2 and rng.random() < 0.05:  # the game goes on without him
                return rng.choice(living), a.Withdraw()
        elif rng.random() < 0.003:
            return (seat if rng.random() < 0.5 else rng.choice(living)), a.Withdraw()
        if rng.random() < 0.005:
            shown = self._show(state)
            if shown is not None:
                return shown
        kinds: dict[str, list[a.Action]] = {}
        for action in legal:
            if not isinstance(action, a.Withdraw):
                kinds.setdefault(type(action).__name__, []).append(action)
        names = sorted(kinds)
        kind = rng.choices(names, [WEIGHTS.get(n, 1) for n in names])[0]
        action = rng.choice(kinds[kind])
        if kind == "Propose" and rng.random() < 0.3:
            action = self._costly_deal(state) or action
        return seat, action

    def _show(self, state: GameState) -> tuple[int, a.Reveal] | None:
        """Some living seat shows one of its legions, whole or in part (errata 4.5)."""
        seat = self.rng.choice(state.living_seats())
        offered = [x for x in legal_actions(state, seat) if isinstance(x, a.Reveal)]
        if not offered:
            return None
        choice = self.rng.choice(offered)
        if self.rng.random() < 0.5:
            return seat, choice
        legion = state.legion(choice.marker)
        known = Counter(legion.revealed)
        new = self.rng.choice(sorted(Counter(legion.characters) - known))
        part = [new] * (known[new] + 1)  # one more than everyone has seen
        rest = list((Counter(legion.characters) - Counter(part)).elements())
        part += self.rng.sample(rest, self.rng.randint(0, len(rest)))
        return seat, a.Reveal(legion.marker, tuple(part))

    def _costly_deal(self, state: GameState) -> a.Action | None:
        """A deal where the survivor also gives something up (RULES §5.4)."""
        engagement = state.engagement
        assert engagement is not None
        loser = self.rng.choice(list(Side))
        survivor = state.legions[
            engagement.attacker if loser is Side.DEFENDER else engagement.defender
        ]
        losses = [c for c in survivor.characters if c != "Titan"][: survivor.height - 1]
        if not losses:
            return None
        proposal = Proposal(loser, (self.rng.choice(losses),))
        taken = {o.proposal for o in engagement.proposals}
        return None if proposal in taken else a.Propose((proposal,))


def options_for(seed: int) -> Options:
    return Options(record_keeping=seed % 3 == 0, time_limit=seed % 4 == 1)


def check_state(before: GameState, state: GameState) -> list[a.Action]:
    """The cheap invariants, after every action; the legal actions of the seat to act."""
    assert_conserved(state)
    for legion in state.legions.values():
        owner = state.player(legion.owner)
        assert not owner.eliminated and legion.marker in owner.markers, legion
        if wiped_out(state, legion):
            continue
        if legion.height == 8:
            assert owner.turns_taken == 0 and legion.characters == tuple(sorted(STARTING_LEGION))
        else:
            assert 1 <= legion.height <= 7, legion
    if state.phase in (Phase.ENGAGE, Phase.MUSTER, Phase.OVER) or (
        state.phase is Phase.SPLIT and not state.turn.split_parents
    ):
        lands = Counter((leg.owner, leg.land) for leg in state.legions.values())
        assert max(lands.values(), default=1) == 1, "two legions of one player share a land"
    if state.phase in (Phase.SPLIT, Phase.MUSTER, Phase.OVER):
        lands = {leg.land for leg in state.legions.values()}
        mixed = [land for land in lands if len({g.owner for g in state.legions_in(land)}) > 1]
        assert not mixed, f"enemies share {mixed} outside the engagement phase"
    for old, new in zip(before.players, state.players, strict=True):
        assert new.score >= old.score, "a score fell"
        assert not (old.eliminated and not new.eliminated)
    if state.result is not None:
        assert state.phase is Phase.OVER and state.result.winners
        return []
    seat = to_act(state)
    assert seat is not None and not state.player(seat).eliminated
    legal = legal_actions(state, seat)
    assert any(not isinstance(x, ANYTIME) for x in legal)
    return legal


def check_scores(before: GameState, state: GameState, events: list[Event]) -> None:
    """Scores change only by the points the events announce; the out hold no markers."""
    scored: Counter[int] = Counter()
    for event in events:
        if isinstance(event, PointsScored):
            scored[event.seat] += event.points
            assert event.points > 0
            assert event.score == before.player(event.seat).score + scored[event.seat]
    for old, new in zip(before.players, state.players, strict=True):
        assert new.score - old.score == scored[new.seat]
        assert not new.eliminated or new.markers == ()


def check_expensive(state: GameState, knowledge: Knowledge) -> None:
    """Views of every seat, every legal action, JSON and notation round trips."""
    for seat in [None, *range(len(state.players))]:
        knowledge.check_view(state, view(state, seat))
    assert decode(GameState, json.loads(json.dumps(encode(state)))) == state
    if state.phase is not Phase.COLOURS:
        check_notation(state)
    seat = to_act(state)
    if seat is not None:
        for action in legal_actions(state, seat):
            apply(state, seat, action)
        for other in range(len(state.players)):
            if other != seat:
                theirs = legal_actions(state, other)
                assert all(isinstance(x, ANYTIME) for x in theirs)
                for action in theirs:
                    if isinstance(action, a.Reveal):
                        apply(state, other, action)


def check_notation(state: GameState) -> None:
    """parse(format(s)) keeps the masterboard position; format is then a fixed point."""
    text = format_position(state)
    again = parse_position(text)
    assert format_position(again) == text
    assert again.legions == state.legions
    limbo = in_limbo(state)  # slain in the engagement being closed: not on the board
    assert again.caretaker == {n: k + limbo[n] for n, k in state.caretaker.items()}
    assert {k: v for k, v in again.dead.items() if v} == {k: v for k, v in state.dead.items() if v}
    keep = ("colour", "tower", "score", "markers", "eliminated", "withdrawing")
    for mine, theirs in zip(again.players, state.players, strict=True):
        assert [getattr(mine, k) for k in keep] == [getattr(theirs, k) for k in keep]
    assert (again.phase, again.active, again.final_turns) == (
        state.phase,
        state.active,
        state.final_turns,
    )
    if state.phase in (Phase.SPLIT, Phase.MOVE, Phase.MUSTER):
        assert replace(again.turn, number=state.turn.number) == state.turn


def play_game(seed: int) -> tuple[GameState, list[tuple[int, a.Action]]]:
    """One complete random game with every check; returns the end state and the log."""
    players = 2 + seed % 5
    names = [f"P{i}" for i in range(players)]
    state, events = new_game(names, seed, options_for(seed))
    agent, knowledge, log = Agent(seed), Knowledge(players), []
    legal = legal_actions(state, state.active)
    for step in range(MAX_ACTIONS):
        if state.result is not None:
            break
        seat = to_act(state)
        assert seat is not None
        seat, action = agent.choose(state, seat, legal)
        try:
            after, events = apply(state, seat, action)
        except TitanError:
            assert isinstance(action, a.Withdraw | a.ExpireTimeLimit | a.Propose), action
            continue
        assert a.action_from_json(json.loads(json.dumps(a.action_to_json(action)))) == action
        log.append((seat, action))
        legal = check_state(state, after)
        check_scores(state, after, events)
        knowledge.check_events(state, after, events)
        knowledge.follow(state, after, events)
        record(events, action, state)
        state = after
        if step % EXPENSIVE == 0:
            check_expensive(state, knowledge)
        if step % REPLAY == 0:
            assert replay(names, seed, log, options_for(seed)) == state
    assert state.result is not None, f"no result after {MAX_ACTIONS} actions"
    check_expensive(state, knowledge)
    assert replay(names, seed, log, options_for(seed)) == state
    return state, log


def record(events: list[Event], action: a.Action, before: GameState) -> None:
    SEEN[type(action).__name__] += 1
    if isinstance(action, a.Withdraw) and before.phase is Phase.COLOURS:
        SEEN["withdrawn before play"] += 1
    for event in events:
        SEEN[type(event).__name__] += 1
        json.dumps(event_to_json(event))
        assert events_for([event], None) == ([event] if event.audience is None else [])


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_keeps_the_invariants(seed):
    state, _ = play_game(seed)
    assert state.result is not None
    living = set(state.living_seats())
    assert set(state.result.winners) <= living or state.result.reason.startswith("draw")
    if state.result.reason != "time limit":
        assert len(living) <= 1
    FINISHED.add(seed)


def test_random_games_cover_the_game():
    """The 200 games went through every kind of step at least once."""
    if len(FINISHED) < GAMES:
        pytest.skip("needs the 200 random games of this module in the same run")
    wanted = {
        "Split", "UndoSplit", "Mulligan", "TakeBack", "Recombined", "Flee", "Accept", "Concede",
        "Fight", "Summon", "Reinforce", "Acquire", "Muster", "Withdraw", "WithdrawalQueued",
        "MarkersInherited", "TimeLimitExpired", "LordAcquired", "CharactersReturned",
        "Reveal", "withdrawn before play",
    }  # fmt: skip
    assert not wanted - set(SEEN), f"never seen: {sorted(wanted - set(SEEN))}"
