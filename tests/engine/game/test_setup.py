"""Setup and turn order (RULES §1.6; SoP; errata 5.0, 5.1)."""

from __future__ import annotations

import json

import pytest

from engine.characters import CHARACTERS, STARTING_LEGION
from engine.codec import decode, encode
from engine.errors import IllegalAction, InvalidNotation, NotYourTurn, WrongPhase
from engine.game import actions as a
from engine.game.apply import apply, new_game
from engine.game.events import (
    GAME_OVER,
    WITHDREW,
    ColourChosen,
    GameOver,
    LegionContents,
    LegionEliminated,
    PlayerEliminated,
    Revealed,
    TowersAssigned,
    TurnStarted,
)
from engine.game.legal import legal_actions, to_act
from engine.game.notation import format_position, parse_position
from engine.game.state import GameState, Phase
from engine.game.turns import next_seat
from engine.masterboard import TOWERS
from tests.engine.game.helpers import act, colours_chosen, of_type, pos


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_rule_1_6_two_to_six_players_get_distinct_towers(players):
    state, events = new_game([f"P{i}" for i in range(players)], seed=players)
    towers = [p.tower for p in state.players]
    assert len(set(towers)) == players and set(towers) <= set(TOWERS)
    assert events == [TowersAssigned(tuple(towers), events[0].rolls)]
    assert state.phase is Phase.COLOURS and all(p.score == 0 for p in state.players)


@pytest.mark.parametrize("players", [0, 1, 7])
def test_rule_1_6_wrong_number_of_players(players):
    with pytest.raises(IllegalAction, match="2 to 6 players"):
        new_game([f"P{i}" for i in range(players)], seed=1)


def test_players_need_distinct_names():
    with pytest.raises(InvalidNotation):
        new_game(["Ann", "Ann"], seed=1)


@pytest.mark.parametrize("seed", range(12))
def test_rule_1_6_tower_rolls_reroll_clashes(seed):
    """Each round, the unassigned players roll; a value rolled twice or taken rerolls."""
    state, events = new_game([f"P{i}" for i in range(6)], seed)
    rolls = events[0].rolls
    towers: list[int | None] = [None] * 6
    for values in rolls:
        waiting = [s for s, t in enumerate(towers) if t is None]
        assert len(values) == len(waiting)
        taken = set(towers)
        for seat, value in zip(waiting, values, strict=True):
            if values.count(value) == 1 and TOWERS[value - 1] not in taken:
                towers[seat] = TOWERS[value - 1]
    assert towers == [p.tower for p in state.players]


def test_rule_1_6_clashing_tower_rolls_are_rerolled():
    rounds = [len(new_game([f"P{i}" for i in range(6)], seed)[1][0].rolls) for seed in range(5)]
    assert max(rounds) > 1


def test_errata_5_0_colours_chosen_in_ascending_tower_order():
    state, _ = new_game(["A", "B", "C", "D"], seed=3)
    by_tower = sorted(state.players, key=lambda p: p.tower)
    chosen = []
    for player in by_tower:
        assert state.active == player.seat == to_act(state)
        others = [p.seat for p in state.players if p.seat != player.seat]
        assert all(legal_actions(state, s) == [a.Withdraw()] for s in others)
        with pytest.raises(NotYourTurn):
            apply(state, others[0], a.ChooseColour("Green"))
        *_, colour, withdraw = legal_actions(state, player.seat)
        assert isinstance(colour, a.ChooseColour) and withdraw == a.Withdraw()
        state, events = apply(state, player.seat, colour)
        chosen.append(of_type(events, ColourChosen)[0].seat)
    assert chosen == [p.seat for p in by_tower]


def test_rule_1_6_a_colour_is_taken_once():
    state, _ = new_game(["A", "B"], seed=3)
    state, _ = apply(state, state.active, a.ChooseColour("Red"))
    free = "Black, Blue, Brown, Gold, Green"
    with pytest.raises(
        IllegalAction, match=f"^Red has been taken \\(RULES §1.6\\): choose one of {free}$"
    ):
        apply(state, state.active, a.ChooseColour("Rd"))
    assert a.ChooseColour("Red") not in legal_actions(state, state.active)


def test_rule_1_6_starting_legion_under_the_chosen_marker():
    state, _ = new_game(["A", "B"], seed=3)
    seat = state.active
    state, events = apply(state, seat, a.ChooseColour("Gold", "Gd07"))
    legion = state.legion("Gd07")
    assert legion.characters == tuple(sorted(STARTING_LEGION))
    assert legion.land == state.player(seat).tower and legion.owner == seat
    assert state.player(seat).markers == tuple(f"Gd{i:02d}" for i in range(1, 13))
    assert state.caretaker["Titan"] == CHARACTERS["Titan"].count - 1
    assert state.caretaker["Ogre"] == CHARACTERS["Ogre"].count - 2
    private = of_type(events, LegionContents)
    assert [e.audience for e in private] == [frozenset({seat})]
    assert of_type(events, ColourChosen)[0].audience is None
    with pytest.raises(InvalidNotation, match=r"not one of the Black markers \(Bk01 to Bk12\)$"):
        apply(state, state.active, a.ChooseColour("Black", "Gd01"))


def test_errata_5_1_highest_tower_moves_first_then_descending():
    state = colours_chosen(5, seed=8)
    order = sorted(state.players, key=lambda p: -p.tower)
    assert state.active == order[0].seat and state.phase is Phase.SPLIT
    seen = [state.active]
    for _ in range(4):
        seen.append(next_seat(state, seen[-1]))
    assert seen == [p.seat for p in order]


def test_rule_1_6_turn_order_skips_the_eliminated_and_never_changes():
    state = pos(
        "Bk01@100:Titan Bu01@200:Titan Gd01@400:Titan Rd01@600:Titan | turn=Rd out=Br "
        "towers=Bk:100,Bu:200,Br:300,Gd:400,Rd:600"
    )
    seats = {p.colour: p.seat for p in state.players}
    assert next_seat(state, seats["Red"]) == seats["Gold"]
    assert next_seat(state, seats["Gold"]) == seats["Blue"]  # Brown (300) is out
    assert next_seat(state, seats["Black"]) == seats["Red"]


def test_turns_start_with_the_split_phase_of_the_next_player():
    state = pos("Bk01@100:Titan,Ogre Rd01@600:Titan,Ogre | turn=Rd phase=muster")
    state, events = act(state, 1, a.EndTurn())
    assert (state.active, state.phase, state.turn.roll) == (0, Phase.SPLIT, None)
    assert of_type(events, TurnStarted)[0].seat == 0
    assert state.player(1).turns_taken == 2


def test_no_colour_actions_once_the_game_runs():
    state = colours_chosen(2)
    with pytest.raises(WrongPhase):
        apply(state, state.active, a.ChooseColour("Green"))


# --- withdrawing while the colours are chosen (SoP) -----------------------------------------
def by_tower(state: GameState) -> list[int]:
    return [p.seat for p in sorted(state.players, key=lambda p: p.tower)]


def test_sop_the_chooser_withdraws_and_the_next_tower_chooses():
    state, _ = new_game(["A", "B", "C"], seed=3)
    low, middle, high = by_tower(state)
    state, events = apply(state, low, a.Withdraw())
    assert events == [PlayerEliminated(low, None, WITHDREW)]
    out = state.player(low)
    assert (out.eliminated, out.colour, out.markers) == (True, None, ())
    assert state.phase is Phase.COLOURS and state.active == middle
    assert legal_actions(state, low) == []
    state, _ = apply(state, middle, a.ChooseColour("Red"))
    state, events = apply(state, high, a.ChooseColour("Black"))
    assert state.phase is Phase.SPLIT and state.active == high
    assert of_type(events, TurnStarted) == [TurnStarted(high, 1)]
    assert next_seat(state, high) == middle and next_seat(state, middle) == high
    assert {leg.owner for leg in state.legions.values()} == {middle, high}


def test_sop_a_player_who_chose_withdraws_at_once_and_frees_his_colour():
    """Any seat may withdraw in this phase: nothing is staked, nothing to wait for."""
    state, _ = new_game(["A", "B", "C"], seed=3)
    low, middle, high = by_tower(state)
    state, _ = apply(state, low, a.ChooseColour("Red"))
    caretaker = dict(state.caretaker)
    state, events = apply(state, low, a.Withdraw())
    assert events == [LegionEliminated("Rd01", low), PlayerEliminated(low, None, WITHDREW)]
    assert not state.legions and state.active == middle
    assert state.caretaker == {n: caretaker[n] + STARTING_LEGION.count(n) for n in caretaker}
    assert a.ChooseColour("Red") in legal_actions(state, middle)
    state, _ = apply(state, high, a.Withdraw())  # out of step: at once too
    assert state.result is not None and state.result.winners == (middle,)
    assert state.phase is Phase.OVER and state.active == middle
    assert legal_actions(state, middle) == []


def test_rule_12_5_the_last_chooser_standing_wins():
    state, _ = new_game(["A", "B"], seed=3)
    low, high = by_tower(state)
    state, _ = apply(state, low, a.ChooseColour("Red"))
    state, events = apply(state, high, a.Withdraw())
    assert of_type(events, GameOver) == [GameOver((low,), "last Titan standing")]
    assert of_type(events, Revealed) == [
        Revealed("Rd01", tuple(sorted(STARTING_LEGION)), GAME_OVER)
    ]
    with pytest.raises(WrongPhase):
        apply(state, low, a.Withdraw())


def test_sop_withdrawn_before_play_the_game_goes_on_through_json_and_notation():
    state, _ = new_game(["A", "B", "C"], seed=5)
    low, middle, high = by_tower(state)
    state, _ = apply(state, middle, a.Withdraw())
    with pytest.raises(WrongPhase, match="out of the game"):
        apply(state, middle, a.Withdraw())
    state, _ = apply(state, low, a.ChooseColour("Gold"))
    state, _ = apply(state, high, a.ChooseColour("Blue"))
    assert decode(GameState, json.loads(json.dumps(encode(state)))) == state
    text = format_position(state)
    assert f"-{state.player(middle).tower}" in text
    again = parse_position(text)
    assert [(p.colour, p.tower, p.eliminated, p.markers) for p in again.players] == [
        (p.colour, p.tower, p.eliminated, p.markers) for p in state.players
    ]
