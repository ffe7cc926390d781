"""No first-turn Tower teleport into a Tower, a start rule of the 2-player event
(``Options.first_turn_teleport_no_tower``; RULES §4.4)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMove
from engine.game import actions as a
from engine.game.legal import legal_actions
from engine.game.state import GameState, Options
from engine.masterboard import TOWERS
from engine.movement import MoveKind
from tests.engine.game.helpers import ANGEL_HALF, TITAN_HALF, act, pos

T = ",".join(TITAN_HALF)
A = ",".join(ANGEL_HALF)
#: Black's first move after a 6, Red in the opposite tower.
FIRST_SIX = f"Bk01@100:{T} Bk02@100:{A} Rd01@400:Titan | turn=Bk phase=move roll=6 first=yes"
NO_TOWER = Options(first_turn_teleport_no_tower=True)


def tower_teleports(state: GameState, marker: str) -> set[int]:
    """The lands the legal actions let ``marker`` Tower teleport to."""
    return {
        x.land
        for x in legal_actions(state, state.active)
        if isinstance(x, a.Move) and x.legion == marker and x.kind is MoveKind.TOWER_TELEPORT
    }


def test_first_turn_tower_teleport_to_no_tower():
    state = pos(FIRST_SIX, options=NO_TOWER)
    lands = tower_teleports(state, "Bk01")
    assert lands and not lands & set(TOWERS)
    assert lands == tower_teleports(pos(FIRST_SIX), "Bk01") - set(TOWERS)


def test_without_the_option_a_first_turn_teleport_may_take_an_empty_tower():
    lands = tower_teleports(pos(FIRST_SIX), "Bk01")
    assert lands & set(TOWERS) == {200, 300, 500, 600}


@pytest.mark.parametrize("kind", [MoveKind.TOWER_TELEPORT, None])
@pytest.mark.parametrize("tower", [200, 300])
def test_first_turn_tower_teleport_into_a_tower_is_refused(tower, kind):
    state = pos(FIRST_SIX, options=NO_TOWER)
    with pytest.raises(
        IllegalMove, match=rf"Bk01 cannot teleport to {tower}: .*not land in a Tower"
    ):
        act(state, 0, a.Move("Bk01", tower, kind))


def test_first_turn_tower_teleport_elsewhere_still_allowed():
    state = pos(FIRST_SIX, options=NO_TOWER)
    land = min(tower_teleports(state, "Bk01"))
    state, _ = act(state, 0, a.Move("Bk01", land, MoveKind.TOWER_TELEPORT, lord="Titan"))
    assert state.legion("Bk01").land == land


def test_later_turns_tower_teleport_into_a_tower_again():
    state = pos(FIRST_SIX.replace("first=yes", "first=no"), options=NO_TOWER)
    assert tower_teleports(state, "Bk01") & set(TOWERS) == {200, 300, 500, 600}
    state, _ = act(state, 0, a.Move("Bk01", 300, MoveKind.TOWER_TELEPORT))
    assert state.legion("Bk01").land == 300
