"""The battle's verbs: commands read into battle actions and battle actions written back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.syntax import format_action, parse_command, to_action
from bot.syntax.battle_verbs import MAX_DICE
from engine.battle.strike import MAX_STRIKE_NUMBER
from engine.battleland import LABELS
from engine.characters import CHARACTERS
from engine.errors import IllegalManeuver, InvalidNotation, WrongPhase
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.test_syntax import started
from tests.engine.battle.helpers import battle_game, fight, loaded

PLAINS = "Plains t2 defender maneuver: Bk01 Ogre@A1 Centaur@B1 | Rd01 Troll@F4"
TOWER = (
    "Tower t2 attacker strike: Bk01 Centaur@D4:2 Lion@E3 Ogre@C3:4 Gargoyle@C2 Ranger@D2:3"
    " | Rd01 Serpent@D3 Ranger@A2"
)
ENTERING = "Plains t1 defender maneuver: Bk01 Ogre@off Titan@off | Rd01 Troll@off Titan@off"


def read(text: str, state: GameState) -> a.Action:
    seat = to_act(state)
    assert seat is not None
    return to_action(parse_command(text), state, seat)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("maneuver A1 A2", b.Maneuver("A1", "A2")),
        ("MANEUVER ogres d4", b.Maneuver("Ogre", "D4")),
        ("manoeuvre titan E1", b.Maneuver("Titan", "E1")),
        ("undo a2", b.TakeBackManeuver("A2")),
        ("strike D4 E5", b.Strike("D4", "E5")),
        ("strike d4 e5 sn 5 dice 3", b.Strike("D4", "E5", 3, 5)),
        ("strike D4 E5 sn 6", b.Strike("D4", "E5", None, 6)),
        ("carry E4", b.CarryOver("E4")),
        ("rangestrike C1 D4", b.Rangestrike("C1", "D4")),
        ("range C1 D4 sn 5", b.Rangestrike("C1", "D4", 5)),
        ("insist", b.ConcedeInstead()),
        ("instead", b.ConcedeInstead()),
        ("accept", b.AcceptConcession()),
        ("accept 2", a.Accept(2)),
        ("concede", a.Concede()),
        ("decline", a.Decline()),
        ("summon Rd02 Angel", a.Summon("Rd02", "Angel")),
        ("reinforce Ogre reveal Ogre Ogre", a.Reinforce("Ogre", ("Ogre", "Ogre"))),
    ],
)
def test_each_battle_verb(text, action):
    assert read(text, battle_game(PLAINS)) == action


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("maneuver A1", "missing the hex to move to"),
        ("maneuver Dodo A2", "Dodo"),
        ("maneuver A1 G9", "not a battleland hex"),
        ("maneuver A1 A9", "A1–A3"),
        ("strike D4", "missing the target"),
        ("strike D4 E5 dice", "exactly one"),
        ("strike D4 E5 dice x", "number of dice"),
        ("strike D4 E5 at 4", "unexpected"),
        ("rangestrike C1 D4 dice 3", "unexpected"),
        ("carry", "missing the hex"),
        ("insist now", "unexpected"),
    ],
)
def test_malformed_battle_commands_say_what_is_wrong(text, complaint):
    with pytest.raises(InvalidNotation, match=complaint):
        read(text, battle_game(PLAINS))


_HEXES = st.sampled_from(LABELS)
_NUMBERS = st.none() | st.integers(0, 36)
BATTLE_ACTIONS = st.one_of(
    st.builds(b.Maneuver, _HEXES | st.sampled_from(sorted(CHARACTERS)), _HEXES),
    st.builds(b.TakeBackManeuver, _HEXES),
    st.builds(b.Strike, _HEXES, _HEXES, _NUMBERS, _NUMBERS),
    st.builds(b.CarryOver, _HEXES),
    st.builds(b.Rangestrike, _HEXES, _HEXES, _NUMBERS),
    st.just(b.ConcedeInstead()),
)


def _readable(number: int | None, most: int) -> bool:
    return number is None or 1 <= number <= most


@given(BATTLE_ACTIONS)
def test_every_battle_action_is_written_as_a_command_that_reads_back(action):
    """Within the game's bounds (1 to 99 dice, strike numbers 1 to 6) the command reads
    back; past them it is refused, naming the bounds."""
    dice = action.dice if isinstance(action, b.Strike) else None
    strike_number = getattr(action, "strike_number", None)
    text = format_action(action)
    if _readable(dice, MAX_DICE) and _readable(strike_number, MAX_STRIKE_NUMBER):
        assert read(text, battle_game(PLAINS)) == action
    else:
        with pytest.raises(InvalidNotation, match=r"give 1 to (99|6)"):
            read(text, battle_game(PLAINS))


def test_done_ends_the_maneuver_and_the_strikes():
    assert read("done", battle_game(PLAINS)) == b.EndManeuver()
    assert read("end", battle_game(TOWER)) == b.EndStrikes()
    assert format_action(b.EndManeuver()) == format_action(b.EndStrikes()) == "done"


@pytest.mark.parametrize(
    "header",
    ["attacker-may-concede", "defender-may-concede", "end-check t7 attacker"],
)
def test_done_passes_a_chance_to_concede(header):
    state = battle_game(f"Plains t1 {header}: Bk01 Ogre@C3 | Rd01 Troll@C2 Titan@D2")
    assert read("done", state) == a.Decline()


def test_done_refuses_what_it_cannot_end():
    conceding, _ = fight(battle_game(PLAINS), a.Concede())
    with pytest.raises(WrongPhase, match="`accept` it or `insist`"):
        read("done", conceding)
    assert read("accept", conceding) == b.AcceptConcession()
    counter = battle_game("Plains t2 defender counterstrike: Bk01 Ogre@C3 | Rd01 Troll@C2")
    with pytest.raises(WrongPhase, match="strike back"):
        read("done", counter)
    with pytest.raises(InvalidNotation, match="unexpected"):
        read("done keep Bk01", battle_game(PLAINS))


def test_carry_over_is_asked_for_and_done_waits_for_it():
    state = battle_game(TOWER, dice=loaded(*([6] * 6 + [1] * 12)))
    state, _ = fight(state, read("strike D3 C2 dice 18 sn 5", state))
    with pytest.raises(WrongPhase, match="`carry E3` or `carry C3` or `carry D2`"):
        read("done", state)
    assert read("carry c3", state) == b.CarryOver("C3")
    commands = {format_action(x) for x in legal_actions(state, to_act(state) or 0)}
    assert {"carry E3", "carry C3", "carry D2"} <= commands


def test_undo_takes_back_the_last_maneuver_or_a_named_one():
    state = battle_game(PLAINS)
    with pytest.raises(IllegalManeuver, match="no maneuver"):
        read("undo", state)
    state, _ = fight(state, read("maneuver A1 A2", state), read("maneuver B1 A1", state))
    assert read("undo", state) == b.TakeBackManeuver("A1")
    assert read("undo A2", state) == b.TakeBackManeuver("A2")
    seat = to_act(state) or 0
    after, _ = apply(state, seat, read("undo A2", state))
    assert after.engagement is not None and after.engagement.battle is not None
    assert after.engagement.battle.moves == ()


def test_entering_characters_are_named():
    state = battle_game(ENTERING)
    commands = {format_action(x) for x in legal_actions(state, to_act(state) or 0)}
    assert "maneuver Ogre D5" in commands and "done" in commands
    assert read("maneuver ogre d5", state) == b.Maneuver("Ogre", "D5")


def test_rangestrikes_are_listed_with_their_commands():
    state = battle_game(TOWER)
    commands = [format_action(x) for x in legal_actions(state, to_act(state) or 0)]
    assert "rangestrike A2 C3" in commands and "strike D3 C2 dice 18 sn 5" in commands
    for text in commands:
        assert format_action(read(text, state)) == text


def test_undo_on_the_masterboard_takes_back_the_last_move():
    state = started()
    with pytest.raises(WrongPhase, match="no move or maneuver"):
        read("undo", state)
    split = next(x for x in legal_actions(state, state.active) if isinstance(x, a.Split))
    for action in (split, a.Roll()):
        state, _ = apply(state, state.active, action)
    move = next(x for x in legal_actions(state, state.active) if isinstance(x, a.Move))
    state, _ = apply(state, state.active, move)
    assert read("undo", state) == a.TakeBack(move.legion)
