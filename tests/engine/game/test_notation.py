"""The one-line masterboard notation: parse and format in pairs."""

from __future__ import annotations

import pytest

from engine.characters import CHARACTERS
from engine.errors import InvalidNotation
from engine.game.actions import Split
from engine.game.apply import apply
from engine.game.notation import format_position, parse_position
from engine.game.state import MoveRecord, Phase
from engine.movement import MoveKind
from tests.engine.game.helpers import ANGEL_HALF, START, assert_conserved, colours_chosen

CANONICAL = [
    f"Bk01@100:{START} Rd01@600:{START} | turn=Rd phase=split",
    "Bk01@100:Angel,Centaur*2,Titan Rd03@41:Troll*2 | turn=Bk phase=move roll=4 "
    "scores=Bk:120,Rd:40",
    "Bk01@41:Ogre*2,Titan Bk02@40:Angel,Troll Rd01@41:Titan,Troll*2 | turn=Bk phase=engage "
    "roll=1 moves=Bk01:40>41/5 scores=Bk:100",
    "Bk01@3:Ogre,Titan Bk02@101:Angel,Gargoyle Gd01/Bk@200:Troll*3 | turn=Bk phase=muster "
    "roll=1 moves=Bk01:100>3,Bk02:100>101 mustered=Bk02 out=Gd inherited=Bk:Gd "
    "towers=Bk:100,Gd:500",
    "Bu01@100:Titan,Troll*2 Bu02@5:Angel[Angel] Gr01@300:Titan | turn=Bu phase=move roll=6 "
    "first=yes mulligan=yes splits=Bu02<Bu01 moves=Bu02:100>5+tower(Angel) "
    "options=record_keeping",
    "Gr01@300:Titan Rd01@200:Titan | turn=Rd phase=over scores=Rd:500 dead=Titan out=Bk "
    "players=Rd,Gr,Bk winners=Rd",
    "Gr01@300:Titan Rd01@200:Titan | turn=Gr phase=muster withdrawing=Rd final=2 "
    "options=time_limit",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_format_of_parse_is_the_canonical_text(text):
    state = parse_position(text)
    assert format_position(state) == text
    assert_conserved(state)


def test_parse_reads_legions_players_and_header():
    state = parse_position(CANONICAL[1])
    black, red = state.players
    assert (black.colour, black.seat, black.score, black.tower) == ("Black", 0, 120, 100)
    assert (red.colour, red.score, red.markers[0]) == ("Red", 40, "Rd01")
    assert state.legion("Rd03").characters == ("Troll", "Troll")
    assert state.legion("Bk01").owner == 0 and state.legion("Bk01").land == 100
    assert (state.phase, state.active, state.turn.roll) == (Phase.MOVE, 0, 4)
    assert not state.turn.first_turn
    assert state.caretaker["Troll"] == CHARACTERS["Troll"].count - 2
    assert state.caretaker["Titan"] == CHARACTERS["Titan"].count - 1


def test_defaults_follow_the_board():
    state = parse_position(CANONICAL[0])
    # Towers from where the players stand; the highest tower moves first (errata 5.1).
    assert [p.tower for p in state.players] == [100, 600]
    assert state.active == 1 and state.phase is Phase.SPLIT and state.turn.first_turn


def test_owner_override_inherits_the_markers():
    state = parse_position(CANONICAL[3])
    black, gold = state.players
    assert state.legion("Gd01").owner == black.seat
    assert "Gd07" in black.markers and gold.eliminated and gold.markers == ()


def test_moves_and_engaged_loops():
    state = parse_position(CANONICAL[2])
    assert state.turn.moves == (MoveRecord("Bk01", 40, 41, MoveKind.NORMAL, 5),)
    assert state.turn.moved == frozenset({"Bk01"})
    loop = parse_position("Bk01@41:Titan Rd01@41:Titan | turn=Bk phase=engage")
    assert loop.turn.moves == (MoveRecord("Bk01", 41, 41, MoveKind.NORMAL, None),)


def test_header_fields_in_any_order_and_characters_in_any_order():
    text = "Rd03@41:Troll,Ogre,Troll Bk01@100:Titan | scores=Rd:5 roll=2 turn=Bk"
    state = parse_position(text)
    assert format_position(state) == (
        "Bk01@100:Titan Rd03@41:Ogre,Troll*2 | turn=Bk phase=move roll=2 scores=Rd:5"
    )


def test_a_played_position_survives_format_and_parse():
    state = colours_chosen(3, seed=4)
    seat = state.active
    half = next(leg for leg in state.legions_of(seat))
    marker = state.free_markers(seat)[0]
    state, _ = apply(state, seat, Split(half.marker, marker, ANGEL_HALF))
    again = parse_position(format_position(state))
    assert again.legions == state.legions
    assert again.caretaker == state.caretaker
    assert again.turn.split_parents == state.turn.split_parents
    assert [p.tower for p in again.players] == [p.tower for p in state.players]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Bk01@100:Titan", "2 to 6 players"),
        ("Bk01@100:Titan Rd01@7000:Titan", "not a land"),
        ("Bk01@100:Titan Rd01@200:Dragonfly", "not a character"),
        ("Bk01@100:Titan Bk01@200:Ogre Rd01@300:Titan", "appears twice"),
        ("Bk13@100:Titan Rd01@300:Titan", "numbers run 01–12"),
        ("Bk01100:Titan Rd01@300:Titan", "not a legion"),
        ("Bk01@100:Titan,Titan Rd01@300:Titan", "more than one Titan"),
        ("Bk01@100:Serpent*8 Rd01@300:Serpent*3", "more than the 10 Serpents"),
        ("Bk01@100:Ogre*9 Rd01@300:Titan", "1 to 8"),
        ("Bk01@100:Titan Rd01@300:Titan | roll=7", "not a die roll"),
        ("Bk01@100:Titan Rd01@300:Titan | phase=colours", "phase="),
        ("Bk01@100:Titan Rd01@300:Titan | colour=Bk", "not a header field"),
        ("Bk01@100:Titan Rd01@300:Titan | turn=Bk turn=Rd", "not a header field"),
        ("Bk01@100:Titan Rd01@300:Titan | turn=Pk", "not a colour"),
        ("Bk01@100:Titan Rd01@300:Titan | winners=Gd", "not a player"),
        ("Bk01@100:Titan Rd01@300:Titan | towers=Bk:100,Rd:100", "Tower of his own"),
        ("Bk01@100:Titan Rd01@300:Titan | out=Rd", "out of the game but has legions"),
        ("Bk01@100:Titan Rd01@300:Titan | moves=Bk01:3>4", "stands on 100"),
        ("Bk01@100:Titan Rd01@300:Titan | moves=Bk01:3>100/2", "entry side 2"),
        ("Bk01@100:Titan Rd01@300:Titan | first=maybe", "yes or no"),
        ("Bk01@100:Titan[Angel] Rd01@300:Titan", "must be in the legion"),
        ("Bk01@100:Titan Rd01@300:Titan | options=fast", "options="),
        ("Bk01@100:Titan Rd01@300:Titan | scores=Bk120", "Colour:value"),
    ],
)
def test_bad_notation_is_rejected_with_a_reason(text, message):
    with pytest.raises(InvalidNotation, match=message):
        parse_position(text)


def test_inherited_markers_split_and_round_trip():
    text = (
        "Bk06@5:Ogre*2 Bu01/Bk@5:Troll*2 Rd01@600:Titan | turn=Bk phase=split "
        "splits=Bu01<Bk06 out=Bu inherited=Bk:Bu"
    )
    state = parse_position(text)
    assert format_position(state) == text
    assert state.turn.split_parents == {"Bu01": "Bk06"}
    assert state.player(0).markers[12:14] == ("Bu01", "Bu02")
