"""The computer player's single decisions (issue 7): legal, deterministic, blind to hidden
contents (RULES §1.7), and sensible in positions written in the one-line notations."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.ai import choose_action
from engine.ai.match import RandomPlayer, play
from engine.battle.position import Side
from engine.battle.state import Entrant
from engine.codec import decode, encode
from engine.errors import IllegalAction
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.notation import parse_position
from engine.game.state import GameState, Legion, Proposal
from engine.game.view import view
from tests.engine.battle.helpers import battle_game, current
from tests.engine.game.helpers import colours_chosen


def decide(state: GameState) -> a.Action:
    """The computer player's choice for the seat the game waits for; checked legal."""
    seat = to_act(state)
    assert seat is not None
    action = choose_action(state, seat)
    assert action in legal_actions(state, seat)
    return action


# --- legality, determinism, hidden information ------------------------------------------
def test_a_seat_with_nothing_to_decide_is_refused():
    state = colours_chosen(2)
    with pytest.raises(IllegalAction):
        choose_action(state, 1 - state.active)


def test_the_same_position_gives_the_same_choice():
    state = play([choose_action, RandomPlayer(3)], 3, max_turns=6).state
    seat = to_act(state)
    assert seat is not None
    again = decode(GameState, json.loads(json.dumps(encode(state))))
    assert choose_action(again, seat) == choose_action(state, seat)


def _swap_hidden(state: GameState, seat: int) -> GameState | None:
    """The state with one character swapped between two legions of one enemy that
    ``seat`` cannot see: the public position (heights, stacks, scores) is unchanged."""
    seen = {lv.marker: lv.characters for lv in view(state, seat).legions}
    hidden = sorted(
        (leg for leg in state.legions.values() if seen[leg.marker] is None),
        key=lambda leg: leg.marker,
    )
    for i, one in enumerate(hidden):
        for two in hidden[i + 1 :]:
            if one.owner != two.owner:
                continue
            pairs = [(x, y) for x in one.characters for y in two.characters if x != y]
            if pairs:
                x, y = pairs[0]
                return _with_swap(state, one, two, x, y)
    return None


def _with_swap(state: GameState, one: Legion, two: Legion, x: str, y: str) -> GameState:
    def swapped(legion: Legion, out: str, into: str) -> Legion:
        names = list(legion.characters)
        names.remove(out)
        return replace(legion, characters=tuple(sorted([*names, into])), revealed=())

    return state.with_legion(swapped(one, x, y)).with_legion(swapped(two, y, x))


def test_hidden_contents_do_not_change_a_choice():
    """RULES §1.7: the computer player sees heights and reveals, never hidden contents."""
    checked = 0

    def agent(state: GameState, seat: int) -> a.Action:
        nonlocal checked
        action = choose_action(state, seat)
        other = _swap_hidden(state, seat)
        if other is not None and state.turn.number % 3 == 0:
            assert choose_action(other, seat) == action
            checked += 1
        return action

    for seed in (1, 2):
        play([agent, RandomPlayer(seed), RandomPlayer(seed + 7)], seed, max_turns=40)
    assert checked >= 20


# --- split, move, muster ------------------------------------------------------------------
def test_first_split_keeps_a_pair_in_each_half():
    """RULES §3.3, §6.2: pairs muster up (two Gargoyles a Cyclops, two Ogres a Troll)."""
    state = colours_chosen(2, seed=4)
    split = decide(state)
    assert isinstance(split, a.Split)
    parent = state.legion(split.legion).characters
    rest = list(parent)
    for name in split.characters:
        rest.remove(name)
    for half in (split.characters, tuple(rest)):
        creatures = [n for n in half if n not in ("Titan", "Angel")]
        assert len(set(creatures)) < len(creatures), half


def test_musters_the_best_recruit():
    """RULES §6.3: three Lions in the Desert muster a Griffon rather than a Lion."""
    state = parse_position(
        "Bk01@7:Lion*3,Titan Rd01@100:Titan | turn=Bk phase=muster moves=Bk01:2>7"
    )
    assert decide(state) == a.Muster("Bk01", "Griffon", ("Lion", "Lion", "Lion"))


def test_musters_showing_the_least():
    """RULES §1.7, §6.4: a Warlock shows itself to muster a Warlock, not the Titan."""
    state = parse_position(
        "Bk01@200:Titan,Warlock Rd01@100:Titan | turn=Bk phase=muster moves=Bk01"
    )
    assert decide(state) == a.Muster("Bk01", "Warlock", ("Warlock",))


def test_attacks_a_much_weaker_legion():
    state = parse_position(
        "Bk01@100:Titan,Troll*3,Ranger*2 Rd01@41:Ogre Rd02@600:Titan,Angel"
        " | turn=Bk phase=move roll=1"
    )
    assert decide(state) == a.Move("Bk01", 41)


def test_keeps_away_from_a_much_stronger_legion():
    state = parse_position(
        "Bk01@100:Ogre,Centaur Bk02@200:Titan Rd01@41:Serpent*2,Colossus*2,Titan,Hydra*2"
        " | turn=Bk phase=move roll=1"
    )
    choice = decide(state)
    assert isinstance(choice, a.Move) and choice.land != 41


def test_ends_the_movement_phase_when_moved():
    state = parse_position(
        "Bk01@3:Titan,Ogre Rd01@600:Titan | turn=Bk phase=move roll=1 moves=Bk01:100>3"
    )
    assert decide(state) == a.EndMovement()


# --- engagements ----------------------------------------------------------------------------
def _engaged(text: str) -> GameState:
    state = parse_position(text)
    land = state.legion("Bk01").land
    state, _ = apply(state, state.active, a.Engage(land))
    return state


def test_a_hopeless_defender_without_a_lord_flees():
    """RULES §5.3: the attacker then scores only half."""
    state = _engaged(
        "Bk01@41:Colossus*3,Serpent*2,Titan Rd01@41:Ogre,Centaur Rd02@600:Titan"
        " | turn=Bk phase=engage"
    )
    assert decide(state) == a.Flee()


def test_accepts_the_enemys_elimination():
    """RULES §5.4: a deal giving the whole enemy legion at no cost is taken."""
    state = _engaged(
        "Bk01@41:Troll*4,Titan Rd01@41:Angel,Ogre Rd02@600:Titan | turn=Bk phase=engage"
    )
    state, _ = apply(state, 1, a.Propose((Proposal(Side.DEFENDER),)))
    assert decide(state) == a.Accept(1)


def test_a_favoured_side_fights_rather_than_give_up():
    state = _engaged(
        "Bk01@41:Troll*4,Titan Rd01@41:Angel,Ogre Rd02@600:Titan | turn=Bk phase=engage"
    )
    seen = []
    while state.engagement is not None and state.engagement.battle is None:
        action = decide(state)
        assert not isinstance(action, a.Concede | a.Accept | a.Flee)
        seen.append(action)
        state, _ = apply(state, to_act(state), action)
    assert a.Fight() in seen


# --- battles --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Plains s5: Rd01 Troll@off Ogre@off Titan@off | Bk01 Centaur@off",
        # two open hexes on the defender's edge (A3 is Trees): the first in must leave
        # the way free for the rest
        "Woods s1: Rd01 Centaur@off Centaur@off Titan@off Troll@off Troll@off Warlock@off"
        " Warlock@off | Bk01 Angel@off Cyclops@off Griffon@off Griffon@off Lion@off",
    ],
)
def test_every_character_enters_the_battleland(text):
    """RULES §8.4: characters left off are slain, so all of them enter."""
    state = battle_game(text)
    while current(state).step.name == "MANEUVER" and to_act(state) == 1:
        action = decide(state)
        if action == b.EndManeuver():
            break
        state, _ = apply(state, 1, action)
    assert current(state).waiting(current(state).phasing) == ()


def test_a_reinforcement_finds_the_way_in():
    """RULES §6.6: a reinforcement that does not enter goes back unused. Both open hexes
    of the defender's edge (E5 is Trees) are taken: one moves off, the Centaur comes in."""
    state = battle_game(
        "Woods s3 t4: Rd01 Centaur@D6 Titan@F4 Centaur@off | Bk01 Cyclops@B2 Cyclops@B3 Cyclops@F2",
        tweak=lambda battle: replace(battle, entrant=Entrant("Centaur", Side.DEFENDER)),
    )
    assert current(state).waiting(Side.DEFENDER) == ("Centaur",)
    while current(state).step.name == "MANEUVER" and to_act(state) == 1:
        action = decide(state)
        if action == b.EndManeuver():
            break
        state, _ = apply(state, 1, action)
    assert current(state).waiting(Side.DEFENDER) == ()


def test_strikes_the_wounded_character_it_can_slay():
    """RULES §9: the Troll slays the Ogre with 5 hits rather than scratch the Centaur."""
    state = battle_game(
        "Plains t2 defender strike: Rd01 Troll@C3 Titan@A1 | Bk01 Ogre@C2:5 Centaur@D3 Titan@F4"
    )
    assert decide(state) == b.Strike("C3", "C2")


def test_rangestrikes_when_out_of_contact():
    """RULES §10: a Ranger out of contact rangestrikes the Ogre three hexes away."""
    state = battle_game(
        "Plains t2 defender strike: Rd01 Ranger@A1 Titan@A3 | Bk01 Ogre@C1 Titan@F4"
    )
    assert decide(state) == b.Rangestrike("A1", "C1")


@pytest.mark.parametrize(
    "text",
    [
        # a fresh Cyclops strikes the Titan with 9 dice: still the Titan must fight it
        "Brush s1 t4 attacker: Rd01 Cyclops@B2 | Bk01 Titan(6)@E2",
        # the stronger Titan: the weaker one closes in with three strike phases left
        "Marsh s5 t5 attacker: Rd01 Titan(8)@C5 | Bk01 Titan(6)@E4",
    ],
)
def test_an_attacking_titan_left_alone_closes_in(text):
    """RULES §11.1: an attacker that has not won by the end of turn 7 loses its legion,
    so a Titan left alone dies for certain by keeping away; it closes in."""
    state = battle_game(text)
    battle = current(state)
    [enemy] = [f.hex for f in battle.position.of_side(Side.DEFENDER)]
    action = decide(state)
    assert isinstance(action, b.Maneuver)
    assert enemy in battle.land.contacts[action.to]
