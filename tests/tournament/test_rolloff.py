"""The mutual's roll-off: nine dice at even odds for the final engagement's attacker."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.errors import TournamentError
from bot.tournament.rolloff import final_attacker, roll_off
from engine.dice import Dice
from engine.game.events import EngagementBegun, LegionEliminated, TurnStarted
from tests.tournament.games import ai_game, mutual_game


@settings(deadline=None)  # timing varies with the machine's load, not with the code
@given(st.integers(0, 10**9), st.integers(0, 50))
def test_the_attacker_takes_first_with_five_hits_of_nine(seed, rolled):
    dice = Dice(seed, rolled)
    settled = roll_off("att", "def", dice)
    rolls, after = dice.roll(9, 6)
    assert settled.rolls == rolls and settled.dice == after
    hits = sum(1 for r in rolls if r >= 4)
    assert settled.hits == hits
    assert settled.winner == ("att" if hits >= 5 else "def")
    assert {settled.winner, settled.loser} == {"att", "def"}


def test_a_roll_off_needs_two_players():
    with pytest.raises(TournamentError, match="two players"):
        roll_off("ann", "ann", Dice(1))


def test_the_final_attacker_of_a_real_mutual_is_the_mover():
    assert final_attacker(mutual_game().log) == 0


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (3, 1)])
def test_the_final_attacker_of_a_real_game_is_the_player_whose_turn_it_was(players, seed):
    played = ai_game(players, seed)
    assert final_attacker(played.log) == played.state.active


def test_without_the_legion_eliminated_the_mover_is_the_attacker():
    log = [[TurnStarted(2, 7)], [EngagementBegun(41, "Gr03", "Bk01", 1)], []]
    assert final_attacker(log) == 2
    log.append([LegionEliminated("Gr03", 1)])  # the marker was inherited by seat 1
    assert final_attacker(log) == 1


def test_a_log_without_an_engagement_has_no_final_attacker():
    with pytest.raises(TournamentError, match="no engagement"):
        final_attacker([[TurnStarted(0, 1)]])
