"""A battle move's choices name what stands on each hex (RULES §8.2): the hazard and the
elevation where the ground is not plain and level, as the battlelands' table gives them."""

from __future__ import annotations

from bot.offers import step
from bot.offers.battle_steps import hex_words
from engine.battleland import battleland
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from tests.engine.battle.helpers import battle_game


def test_a_hex_reads_with_its_hazard_and_elevation_from_the_rules_table():
    mountains, brush, hills = (battleland(t) for t in ("Mountains", "Brush", "Hills"))
    assert hex_words(mountains, "D4") == "D4 (Volcano, elevation 2)"
    assert hex_words(mountains, "A1") == "A1 (elevation 1)"
    assert hex_words(brush, "B2") == "B2 (Bramble)"
    assert hex_words(brush, "B3") == "B3"
    assert hex_words(hills, "C2") == "C2 (Tree, elevation 1)"  # trees stand higher (§8.2)
    assert hex_words(battleland("Plains"), "D4") == "D4"


def test_a_characters_destinations_are_offered_with_their_ground():
    state = battle_game("Brush t2 attacker maneuver: Bk01 Lion@C3 | Rd01 Ogre@A1 Ranger@D4")
    seat = to_act(state)
    assert seat is not None
    ends = sorted(
        x.to
        for x in legal_actions(state, seat)
        if isinstance(x, b.Maneuver) and x.character == "A1"
    )
    labels = [o.label for o in step(state, seat, "maneuver", ["A1"]).choices.offers()]
    brambles = {"A3", "B2", "C4", "D1", "D2", "D5", "E3", "F4"}  # Brush (RULES §8.2)
    expected = [f"{x} (Bramble)" if x in brambles else x for x in ends]
    assert [x for x in labels if x[:1] in "ABCDEF" and x[1:2].isdigit()] == expected
    assert any("(Bramble)" in x for x in labels)
