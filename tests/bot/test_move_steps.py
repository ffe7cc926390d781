"""Where a legion may go, in the order a player looks: when the lands do not fit one menu
(a 6 from a Tower with a lord reaches some 60 by teleport, RULES §4.4), the few a normal
move reaches come first and the teleport-only lands wait one step further."""

from __future__ import annotations

from bot.offers import step
from bot.offers.model import MAX_OPTIONS
from bot.offers.turn_steps import TELEPORTS
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import Phase
from tests.engine.game.helpers import pos

#: Black's Angel and Ogre in Tower 100, a 6 rolled: normal moves and tower teleports.
TOWER_SIX = "Bk01@100:Angel,Ogre Rd01@600:Titan | turn=Bk phase=move roll=6"
#: The same legion on a 1: a few normal moves, no teleport.
PLAIN_ONE = "Bk01@100:Angel,Ogre Rd01@600:Titan | turn=Bk phase=move roll=1"


def lands(state) -> tuple[set[int], set[int]]:
    """Black's lands reached by a normal move, and by a teleport alone."""
    moves = [x for x in legal_actions(state, 0) if isinstance(x, a.Move)]
    normal = {x.land for x in moves if x.kind is None}
    return normal, {x.land for x in moves} - normal


def test_a_six_from_a_tower_offers_the_normal_lands_first_and_the_teleports_a_step_on():
    state = pos(TOWER_SIX)
    normal, far = lands(state)
    assert normal and len(normal | far) > MAX_OPTIONS
    first = step(state, 0, "move", ["Bk01"]).choices.offers()
    shown = {int(o.label.split()[0]) for o in first if o.label[0].isdigit()}
    assert shown == normal
    [teleport] = [o for o in first if o.label.startswith("Teleport")]
    assert teleport.label == f"Teleport: {len(far)} more lands…"
    assert teleport.command == f"choices move Bk01 {TELEPORTS}"
    second = step(state, 0, "move", ["Bk01", TELEPORTS]).choices.offers()
    assert {int(o.label.split()[0]) for o in second if o.label[0].isdigit()} == far
    assert all("by tower teleport" in o.label for o in second if o.label[0].isdigit())
    assert [o.command for o in second if o.label == "Back"] == ["choices move Bk01"]


def test_lands_that_fit_one_menu_are_offered_together():
    state = pos(PLAIN_ONE)
    normal, far = lands(state)
    assert normal and not far
    offers = step(state, 0, "move", ["Bk01"]).choices.offers()
    assert {int(o.label.split()[0]) for o in offers if o.label[0].isdigit()} == normal
    assert not any(o.label.startswith("Teleport") for o in offers)


#: The first decisions of a game, up to its first movement roll.
FIRST_STEPS = (a.ChooseColour, a.Split, a.Roll)


def first_move_phase():
    """A two-player game at its first movement roll, no legion moved yet."""
    state, _ = new_game(["Ann", "Bob"], 7)
    while state.phase is not Phase.MOVE:
        seat = to_act(state)
        legal = legal_actions(state, seat)
        state, _ = apply(state, seat, next(x for x in legal if isinstance(x, FIRST_STEPS)))
    return state, to_act(state)


def test_the_move_step_offers_the_mulligan_while_the_rules_allow_it():
    state, seat = first_move_phase()
    assert a.Mulligan() in legal_actions(state, seat)
    labels = [o.label for o in step(state, seat, "move", []).choices.offers()]
    assert "Mulligan: roll again" in labels  # RULES §4.3: before any legion has moved
    move = next(x for x in legal_actions(state, seat) if isinstance(x, a.Move))
    moved, _ = apply(state, seat, move)
    assert a.Mulligan() not in legal_actions(moved, seat)
    assert "Mulligan: roll again" not in [
        o.label for o in step(moved, seat, "move", []).choices.offers()
    ]
    again, _ = apply(state, seat, a.Mulligan())
    assert "Mulligan: roll again" not in [
        o.label for o in step(again, seat, "move", []).choices.offers()
    ]
