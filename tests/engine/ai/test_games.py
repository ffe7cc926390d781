"""Whole games with the computer player (issue 7): it beats random players, and games
between computer players end, keep the invariants and use only legal actions.

The full runs (100 two-player and 50 four-player games) are in ``bench/ai.py``; these are
smaller seeded samples that still demand a high win rate.
"""

from __future__ import annotations

from dataclasses import replace

from engine.ai import choose_action
from engine.ai.match import Agent, RandomPlayer, play
from engine.characters import STARTING_LEGION
from engine.dice import Dice
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.notation import parse_position
from engine.game.state import GameState, Options
from engine.masterboard import LANDS
from tests.engine.game.helpers import assert_conserved

#: Player turns before a game counts as not won by the computer player.
MAX_TURNS = {2: 300, 3: 350, 4: 400}


def wins_against_random(players: int, seeds: range) -> int:
    """Games won by the computer player (seat ``seed % players``) against random players."""
    won = 0
    for seed in seeds:
        seat = seed % players
        agents: list[Agent] = [RandomPlayer(seed * 10 + i) for i in range(players)]
        agents[seat] = choose_action
        match = play(agents, seed, max_turns=MAX_TURNS[players])
        won += match.winners == (seat,)
    return won


def test_beats_one_random_player_nearly_always():
    assert wins_against_random(2, range(1000, 1020)) >= 18


def test_beats_three_random_players_most_of_the_time():
    assert wins_against_random(4, range(2000, 2010)) >= 7


def check(before: GameState, seat: int, action: a.Action, after: GameState) -> None:
    """Every action legal; counters conserved; legions of at most 7 (RULES §1.1, §0.2)."""
    assert action in legal_actions(before, seat), action
    assert not isinstance(action, a.Withdraw)
    assert_conserved(after)
    for legion in after.legions.values():
        first = legion.characters == tuple(sorted(STARTING_LEGION))
        assert legion.height <= 7 or first, legion


def test_games_between_computer_players_end_and_keep_the_invariants():
    for seed in range(12):
        players = 2 + seed % 3
        options = Options(record_keeping=seed % 2 == 1)
        match = play(
            [choose_action] * players,
            seed,
            max_turns=MAX_TURNS[players],
            options=options,
            observe=check,
        )
        assert match.state.result is not None, f"seed {seed}: no result after {match.turns} turns"


# --- battles ----------------------------------------------------------------------------------
#: A random player that fights every battle out: no concessions, deals or flight.
FIGHTER = (a.Concede, b.ConcedeInstead, a.Flee, a.Accept, a.Propose, b.TakeBackManeuver)
MIRRORS = [
    ("Plains", "Centaur*2,Lion*2,Ogre*2"),
    ("Marsh", "Ogre*2,Troll*3"),
    ("Brush", "Gargoyle*2,Cyclops*2,Gorgon"),
    ("Tundra", "Troll*2,Warbear*2,Giant"),
    ("Mountains", "Lion*2,Minotaur*2,Dragon"),
    ("Desert", "Lion*2,Griffon*2,Hydra"),
]


def battle_winner(terrain: str, legion: str, seed: int, agents: list[Agent]) -> int | None:
    """Fight two equal legions on ``terrain`` (seat 0 attacks); the seat that won."""
    land = min(n for n, land in LANDS.items() if land.terrain == terrain)
    text = f"Bk01@{land}:{legion} Rd01@{land}:{legion} Bk02@100:Titan Rd02@600:Titan"
    state = replace(parse_position(f"{text} | turn=Bk phase=engage"), dice=Dice(seed))
    state, _ = apply(state, 0, a.Engage(land))
    state, _ = apply(state, 1, a.NoMoreProposals())
    state, _ = apply(state, 0, a.Fight())
    while state.engagement is not None:
        seat = to_act(state)
        assert seat is not None
        state, _ = apply(state, seat, agents[seat](state, seat))
    alive = [seat for seat, marker in enumerate(("Bk01", "Rd01")) if marker in state.legions]
    return alive[0] if len(alive) == 1 else None


def test_wins_even_battles_against_a_random_fighter():
    """RULES §8–§10: equal legions, the computer player attacking and defending in turn."""
    won = 0
    for i, (terrain, legion) in enumerate(MIRRORS):
        for seed in (i, i + 10):
            randomly = RandomPlayer(seed, avoid=FIGHTER)
            won += battle_winner(terrain, legion, seed, [choose_action, randomly]) == 0
            won += battle_winner(terrain, legion, seed, [randomly, choose_action]) == 1
    assert won >= 0.8 * 4 * len(MIRRORS)
