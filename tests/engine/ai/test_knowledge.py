"""What the computer player knows of the board (RULES §1.7; errata 20.0)."""

from __future__ import annotations

import pytest

from engine.ai.knowledge import know
from engine.game.notation import parse_position

POSITION = (
    "Bk01@100:Titan,Ogre*2 Rd01@600:Titan,Troll*2[Troll*2] Rd02@5:Gargoyle,Centaur"
    " | turn=Bk phase=move roll=1"
)


def test_own_legions_are_known_enemies_only_by_height():
    knowledge = know(parse_position(POSITION), 0)
    mine = knowledge.of("Bk01")
    assert mine.full and mine.known == ("Ogre", "Ogre", "Titan")
    theirs = knowledge.of("Rd01")
    assert not theirs.full and theirs.known == () and theirs.height == 3
    assert [s.marker for s in knowledge.enemies()] == ["Rd01", "Rd02"]


def test_the_hidden_titan_is_somewhere_among_the_enemy_legions():
    knowledge = know(parse_position(POSITION), 0)
    odds = [s.titan for s in knowledge.enemies()]
    assert sum(odds) == pytest.approx(1.0)
    assert odds[0] > odds[1]  # the taller legion hides more


def test_record_keeping_shows_what_was_revealed():
    """Errata 20.0: with the option, reveals are remembered (the Trolls mustered)."""
    state = parse_position(POSITION + " options=record_keeping")
    theirs = know(state, 0).of("Rd01")
    assert theirs.known == ("Troll", "Troll") and not theirs.full


def test_hidden_slots_are_valued_at_the_hidden_counters_average():
    """RULES §1.5: counters out of the stacks and not seen are in the hidden slots."""
    knowledge = know(parse_position(POSITION), 0)
    enemies = knowledge.enemies()
    hidden_points = sum(s.points for s in enemies)
    # Troll*2 + Gargoyle + Centaur (16+16+12+12) and the Titan (24) are hidden.
    assert hidden_points == pytest.approx(16 + 16 + 12 + 12 + 24)
