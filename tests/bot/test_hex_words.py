"""The ground of a battle in words (RULES §8.2): a move's choices name what stands on each
hex, the hazard and the elevation where the ground is not plain and level, and the battle's
answer lists the whole map as the rules' table does (for a reader without the picture)."""

from __future__ import annotations

from bot.narration.battle_text import battle_text
from bot.narration.ground import ground_text, hex_words
from bot.offers import step
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


def test_the_battle_answer_tells_the_ground_as_the_rules_table_writes_it():
    assert ground_text(battleland("Brush")) == "Bramble A3 B2 C4 D1 D2 D5 E3 F4"
    assert ground_text(battleland("Plains")) == "plain and level everywhere"
    mountains = ground_text(battleland("Mountains"))
    assert "Volcano D4" in mountains and "Cliff B1>C2 D4>C3 F2>E2" in mountains
    assert "elevation 2: B1 C5 D4 D6 F2 F4" in mountains
    desert = ground_text(battleland("Desert"))
    assert "Cliff B2>B1 D4>C3 D4>D3 E1>E2" in desert and "elevation" not in desert
    text = battle_text(battle_game("Mountains t2 attacker maneuver: Bk01 Lion@D4 | Rd01 Ogre@A2"))
    assert f"Ground: {mountains}" in text.splitlines()
    assert "Lion (D4, Volcano, elevation 2)" in text and "Ogre (A2)" in text
