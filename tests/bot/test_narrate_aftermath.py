"""An engagement's aftermath says who passed a chance: the attacker its summon (RULES
§7.2b–c), the defender its reinforcement (§6.6)."""

from __future__ import annotations

from bot.narration.narrate import Names, narrate
from engine.game.events import Declined
from tests.engine.battle.helpers import battle_game

#: Rd02 (Ann) attacks Bk01 (Bob).
BATTLE = "Plains t2: Bk01 Ogre@A1 | Rd02 Troll@F4"


def told(what: str, names: Names) -> str:
    [line] = narrate([Declined(what)], names)
    return line


def test_a_passed_summon_or_reinforcement_names_the_legion_that_passed_it():
    state = battle_game(BATTLE)
    owner = {m: p.name for p in state.players for m in p.markers}
    assert owner["Rd02"] != owner["Bk01"]
    assert told("summon", Names(state)) == f"Rd02 ({owner['Rd02']}) summons no lord."
    assert told("reinforcement", Names(state)) == f"Bk01 ({owner['Bk01']}) takes no reinforcement."


def test_without_an_engagement_known_or_for_an_acquisition_the_line_names_the_chance():
    assert told("summon", Names()) == "The summon is declined."
    assert told("acquisition", Names(battle_game(BATTLE))) == "The acquisition is declined."
