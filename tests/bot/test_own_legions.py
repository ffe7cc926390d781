"""The private list of one's legions after a change; an eliminated player is told why it is
empty (RULES §12.1)."""

from __future__ import annotations

from bot.narration.describe import own_legions_text
from engine.frozen import evolve
from tests.engine.game.helpers import pos
from tests.engine.game.test_engagements import DUEL


def test_the_list_names_each_legion_and_an_eliminated_player_is_told_he_is_out():
    state = pos(DUEL)  # Red (seat 1): Rd01 in 41, Rd02 in 600
    listed = own_legions_text(state, 1).splitlines()
    assert listed[0] == "Your legions:" and [x[:4] for x in listed[1:]] == ["Rd01", "Rd02"]
    for marker in ("Rd01", "Rd02"):
        state = state.without_legion(marker)
    assert own_legions_text(state, 1) == "Your legions: none."
    state = state.with_player(evolve(state.player(1), eliminated=True))
    assert own_legions_text(state, 1) == "Your legions: none left: you are out of the game."
