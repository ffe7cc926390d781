"""A strike's choice shows what it is worth: its dice and strike number, worked out as the
rules say (RULES §9.2–9.3: Power dice at 4 − the striker's Skill + the target's; §10.3,
§10.7: a rangestrike throws half the Power), before any die is cast."""

from __future__ import annotations

from bot.offers import step
from bot.offers.labels import describe
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from tests.engine.battle.helpers import battle_game


def test_the_strikes_offered_show_their_dice_and_strike_numbers():
    # An Ogre (Power 6, Skill 2) and a Ranger (4, 4) in contact with a Lion (5, 3).
    state = battle_game("Plains t2 attacker strike: Bk01 Lion@C3 | Rd01 Ogre@B2 Ranger@D4")
    seat = to_act(state)
    assert seat is not None
    labels = {o.label for o in step(state, seat, "strike").choices.offers()}
    assert {"Ogre (B2) strikes Lion (C3): 6 dice at 5+"} <= labels
    assert {"Ranger (D4) strikes Lion (C3): 4 dice at 3+"} <= labels
    declared = b.Strike("B2", "C3", dice=4, strike_number=6)  # fewer dice, to carry over
    carrying = "Ogre (B2) strikes Lion (C3) with 4 dice at 6, to carry over"
    assert describe(declared, state) == carrying


def test_a_rangestrike_offered_shows_its_dice():
    state = battle_game("Plains t2 attacker strike: Bk01 Ogre@A1 | Rd01 Ranger@A3")
    seat = to_act(state)
    assert seat is not None
    [shot] = [x for x in legal_actions(state, seat) if isinstance(x, b.Rangestrike)]
    assert describe(shot, state) == "Ranger (A3) rangestrikes Ogre (A1): 2 dice at 2+"
