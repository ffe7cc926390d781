"""Leaving the game: eliminations, withdrawals, the end of the game (RULES §12; 19.3).

Errata 4.6, 9.4, 10.5, 19.4, 20.1, 20.4, 21.1; RULES §13 E20, E21, V10; §14 C10, C14.
"""

from __future__ import annotations

import pytest

from engine.battle.position import Side
from engine.errors import IllegalAction
from engine.game import actions as a
from engine.game.events import (
    TITAN_LOST,
    WITHDREW,
    EngagementConceded,
    GameOver,
    MarkersInherited,
    PlayerEliminated,
    PointsScored,
    Revealed,
    WithdrawalQueued,
)
from engine.game.legal import legal_actions
from engine.game.outcome import Outcome, conclude
from engine.game.state import Options, Phase, Proposal
from tests.engine.game.helpers import act, assert_conserved, of_type, pos
from tests.hashing import outputs_under_hash_seeds

ATT, DEF = Side.ATTACKER, Side.DEFENDER


def points(events):
    return [(e.seat, e.points) for e in of_type(events, PointsScored)]


def test_errata_20_4_9_4_19_4_e21_defending_titan_legion_withdraws():
    """E21: full points for the conceded Titan legion, then half points for the rest."""
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre Rd02@600:Troll*2 Gd01@300:Titan "
        "| turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, events = act(state, 2, a.Withdraw())
    assert points(events) == [(0, 36), (0, 16)]
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(2, 0, WITHDREW)]
    assert of_type(events, MarkersInherited)[0].seat == 0
    assert "Rd12" in state.player(0).markers and not list(state.legions_of(2))
    assert_conserved(state)


def test_errata_20_4_9_4_4_6_e21_attacker_withdraws_with_his_titan_elsewhere():
    """E21: full points for the engaged legion; the rest goes for nothing, markers leave."""
    state = pos(
        "Bk01@41:Troll*2 Bk02@20:Titan,Ogre Bk03@3:Lion Rd01@41:Ogre Rd02@600:Titan "
        "Gd01@3:Gargoyle Gd02@300:Titan | turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 2, a.Propose((Proposal(None),)))
    state, events = act(state, 0, a.Withdraw())
    assert of_type(events, EngagementConceded)[0].marker == "Bk01"
    assert points(events) == [(2, 32)]  # Gold, engaged with Bk03, gets nothing either
    black = state.player(0)
    assert black.eliminated and black.markers == ()
    assert not of_type(events, MarkersInherited)
    assert all(not m.startswith("Bk") for p in state.players for m in p.markers)
    assert state.active == 2 and state.phase is Phase.SPLIT  # his turn ended
    assert_conserved(state)


def test_errata_4_6_the_eliminator_takes_every_marker_inherited_ones_too():
    state = pos(
        "Gr01@41:Titan,Troll Bu01@41:Titan Bu02@600:Ogre Rd05/Bu@20:Lion Bk01@100:Titan "
        "| turn=Gr phase=engage out=Rd"
    )
    blue, green = 1, 2
    state, _ = act(state, green, a.Engage(41))
    state, events = act(state, blue, a.Concede())
    heir = state.player(green)
    assert {m[:2] for m in heir.markers} == {"Gr", "Bu", "Rd"}
    assert of_type(events, MarkersInherited)[0].markers[:2] == ("Bu01", "Bu02")
    assert points(events) == [(green, 24), (green, (12 + 15) // 2)]


def test_errata_10_5_e20_time_loss_pays_nothing_for_the_battle():
    """E20: the attacker's Titan lost on time: markers and half points to the defender,
    except for legions engaged with a third player, which pay that player."""
    state = pos(
        "Bk01@41:Titan,Troll Bk02@3:Ogre*2 Bk03@5:Lion*2 Bk04@20:Centaur Rd01@41:Ogre "
        "Rd02@3:Troll Rd03@600:Titan Gd01@5:Gargoyle Gd02@300:Titan | turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    black, gold, red = 0, 1, 2
    slain = {ATT: state.legion("Bk01").characters, DEF: ()}
    outcome = Outcome("time loss", DEF, slain, points=0, eliminators={ATT: DEF})
    state, events = conclude(state, outcome)
    # Red: half of Bk02 (24) + Bk04 (12) = 18; Gold: half of Bk03 (30) = 15.
    assert sorted(points(events)) == [(gold, 15), (red, 18)]
    assert state.player(black).eliminated
    assert {m[:2] for m in state.player(red).markers} == {"Rd", "Bk"}
    assert_conserved(state)


def test_rule_19_3_survivors_of_a_slain_titans_legion_are_worth_half():
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre,Troll Rd02@600:Lion Gd01@300:Titan "
        "| turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    slain = {ATT: (), DEF: ("Titan",)}
    outcome = Outcome("battle", ATT, slain, points=24, eliminators={DEF: ATT})
    state, events = conclude(state, outcome)
    # Ogre + Troll (28) and Lion (15) credited together: ⌊43 / 2⌋ = 21.
    assert points(events) == [(0, 24), (0, 21)]
    assert_conserved(state)


def test_v10_half_points_are_rounded_per_player_not_per_legion():
    """V10: an eliminated player's legions worth 15 + 15 give one receiver 15, not 14."""
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Titan Rd02@600:Lion Rd03@20:Lion Gd01@300:Titan "
        "| turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, events = act(state, 2, a.Concede())
    assert points(events) == [(0, 24), (0, 15)]


def test_rule_12_5_the_last_player_wins_and_shows_his_legions():
    state = pos("Bk01@41:Titan,Troll Bk02@20:Ogre Rd01@41:Titan | turn=Bk phase=engage")
    state, _ = act(state, 0, a.Engage(41))
    state, events = act(state, 1, a.Concede())
    assert state.result is not None and state.result.winners == (0,)
    assert state.phase is Phase.OVER and state.engagement is None
    assert of_type(events, GameOver) == [GameOver((0,), "last Titan standing")]
    shown = [e for e in of_type(events, Revealed) if e.reason == "game over"]
    assert [(e.marker, e.audience) for e in shown] == [("Bk01", None), ("Bk02", None)]
    assert legal_actions(state, 0) == []
    assert_conserved(state)


def test_c10_both_titans_fall_together_is_a_draw():
    state = pos("Bk01@41:Titan,Troll Rd01@41:Titan,Ogre | turn=Bk phase=engage")
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 1, a.Propose((Proposal(None),)))
    state, events = act(state, 0, a.Accept(1))
    assert state.result is not None and state.result.winners == (0, 1)
    assert state.result.reason.startswith("draw") and not points(events)


def test_c10_nothing_passes_between_two_titans_that_fall_together():
    state = pos(
        "Bk01@41:Titan,Troll Bk02@3:Ogre*2 Rd01@41:Titan,Ogre Rd02@600:Troll Gd01@3:Gargoyle "
        "Gd02@300:Titan | turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 2, a.Propose((Proposal(None),)))
    state, events = act(state, 0, a.Accept(1))
    assert points(events) == [(1, 12)]  # Gold, engaged with Bk02, gets its half points
    assert not of_type(events, MarkersInherited)
    assert state.result is not None and state.result.winners == (1,)


def test_rule_12_2_an_eliminated_movers_turn_ends_at_once():
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Ogre*2 Rd02@600:Titan Gd01@300:Titan "
        "| turn=Bk phase=engage towers=Bk:100,Gd:300,Rd:600"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 2, a.Propose((Proposal(ATT),)))
    state, _ = act(state, 0, a.Accept(1))
    assert state.player(0).eliminated
    state, _ = act(state, 2, a.Decline())  # the reinforcement
    assert state.active == 2 and state.phase is Phase.SPLIT  # Red (600) is next after Black


def test_rule_12_4_withdrawing_on_ones_own_turn():
    state = pos("Bk01@100:Titan,Ogre Bk02@5:Troll Rd01@600:Titan Gd01@300:Titan | turn=Bk")
    state, events = act(state, 0, a.Withdraw())
    assert state.player(0).eliminated and not points(events)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(0, None, WITHDREW)]
    assert state.active == 2 and state.phase is Phase.SPLIT
    assert state.dead == {"Ogre": 1, "Titan": 1, "Troll": 1}


def test_errata_20_1_20_4_a_queued_withdrawal_concedes_when_attacked():
    """The sleeping player: his legions concede when attacked; he leaves on his turn."""
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Ogre Rd02@600:Titan Gd01@300:Titan | turn=Bk "
        "phase=move roll=1 moves=Bk01:40>41 towers=Bk:100,Gd:300,Rd:600"
    )
    state, events = act(state, 2, a.Withdraw())
    assert events == [WithdrawalQueued(2)] and state.player(2).withdrawing
    state, _ = act(state, 0, a.EndMovement())
    state, events = act(state, 0, a.Engage(41))
    assert of_type(events, EngagementConceded)[0].marker == "Rd01"
    assert points(events) == [(0, 12)] and not state.player(2).eliminated
    state, _ = act(state, 0, a.Decline())  # the summon right, asked (§1.7)
    state, _ = act(state, 0, a.EndTurn())
    assert state.player(2).eliminated  # Red's turn came: he is out, for no points
    assert state.active == 1 and state.phase is Phase.SPLIT


def test_errata_20_4_a_queued_withdrawal_with_the_titan_attacked():
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre Rd02@600:Lion Gd01@300:Titan | turn=Bk "
        "phase=engage withdrawing=Rd"
    )
    state, events = act(state, 0, a.Engage(41))
    assert points(events) == [(0, 36), (0, 7)]
    assert state.player(2).eliminated and "Rd02" in state.player(0).markers


def pass_turn(state):
    """Play the mover's turn without engaging anybody."""
    seat = state.active
    state, _ = act(state, seat, a.Roll())
    while state.phase is Phase.MOVE:
        enemy = {leg.land for leg in state.legions.values() if leg.owner != seat}
        choices = [
            x
            for x in legal_actions(state, seat)
            if isinstance(x, a.EndMovement) or (isinstance(x, a.Move) and x.land not in enemy)
        ]
        state, _ = act(state, seat, choices[-1] if a.EndMovement() in choices else choices[0])
    assert state.phase is Phase.MUSTER
    return act(state, seat, a.EndTurn())[0]


TIMED = (
    "Bk01@41:Titan,Troll Rd01@41:Titan Rd02@200:Ogre Gd01@400:Titan "
    "| turn=Bk phase=engage towers=Bk:600,Gd:400,Rd:200 scores=Gd:30"
)


def test_errata_21_1_time_limit_ends_after_one_more_round():
    text = TIMED.replace("Rd01@41:Titan Rd02@200:Ogre", "Rd01@41:Ogre Rd02@200:Titan")
    with pytest.raises(IllegalAction, match="without a time limit"):
        act(pos(text), 1, a.ExpireTimeLimit())
    state, _ = act(pos(text, options=Options(time_limit=True)), 1, a.ExpireTimeLimit())
    assert state.final_turns == 4  # this turn, then one each
    with pytest.raises(IllegalAction, match="already expired"):
        act(state, 0, a.ExpireTimeLimit())
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 2, a.Concede())
    state, _ = act(state, 0, a.Decline())  # the summon right, asked (§1.7)
    state, _ = act(state, 0, a.EndTurn())
    movers = []
    while state.result is None:
        movers.append(state.active)
        state = pass_turn(state)
    assert movers == [1, 2, 0]  # Gold, Red, then Black's last turn
    assert state.result.winners == (1,) and state.result.reason == "time limit"


def test_errata_21_1_an_eliminated_player_loses_his_final_turn():
    state = pos(TIMED, options=Options(time_limit=True))
    state, _ = act(state, 0, a.ExpireTimeLimit(), a.Engage(41))
    state, _ = act(state, 2, a.Concede())  # Red's Titan: Red is out
    assert state.final_turns == 3
    state, _ = act(state, 0, a.Decline())  # the summon right, asked (§1.7)
    state, _ = act(state, 0, a.EndTurn())
    movers = []
    while state.result is None:
        movers.append(state.active)
        state = pass_turn(state)
    assert movers == [1, 0]


def test_c14_time_limit_ties_share_the_win():
    state = pos("Bk01@100:Titan Rd01@600:Titan | turn=Rd phase=muster scores=Bk:50,Rd:50 final=1")
    state, events = act(state, 1, a.EndTurn())
    assert state.result is not None and state.result.winners == (0, 1)
    assert of_type(events, GameOver) == [GameOver((0, 1), "time limit")]


def test_errata_20_4_a_defender_withdrawing_mid_engagement_concedes_it():
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Ogre Rd02@600:Titan Gd01@300:Titan | turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, events = act(state, 2, a.Withdraw())
    assert events[0] == WithdrawalQueued(2)
    assert of_type(events, EngagementConceded)[0].marker == "Rd01"
    assert points(events) == [(0, 12)] and not state.player(2).eliminated


def test_errata_20_4_a_withdrawing_winner_gives_up_his_rights():
    state = pos(
        "Bk01@41:Troll*2 Bk02@20:Titan Rd01@41:Ogre*2 Rd02@600:Titan Gd01@300:Titan "
        "| turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 2, a.Propose((Proposal(ATT),)))
    state, _ = act(state, 0, a.Accept(1))
    assert legal_actions(state, 2)[0] == a.Reinforce("Ogre", ("Ogre",))
    state, events = act(state, 2, a.Withdraw())
    assert events[0] == WithdrawalQueued(2)
    assert state.engagement is None and state.phase is Phase.MUSTER
    assert state.legion("Rd01").characters == ("Ogre", "Ogre")


# --- a withdrawal is told as a withdrawal (RULES §12.1, §12.4) ---------------------------------
def test_rule_12_4_a_queued_withdrawal_is_a_withdrawal_when_it_takes_effect():
    state = pos("Bk01@100:Titan,Ogre Rd01@600:Titan Gd01@300:Titan | turn=Bk phase=muster")
    state, _ = act(state, 2, a.Withdraw())
    state, events = act(state, 0, a.EndTurn())  # Red's turn begins: he leaves
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(2, None, WITHDREW)]


def test_rule_12_4_a_queued_withdrawer_attacked_with_his_titan_withdraws():
    """The Titan's legion concedes when attacked; the attacker is the eliminator."""
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre Rd02@600:Troll Gd01@300:Titan | turn=Bk "
        "phase=move roll=1 moves=Bk01:40>41 towers=Bk:100,Gd:300,Rd:600"
    )
    state, _ = act(state, 2, a.Withdraw())
    state, _ = act(state, 0, a.EndMovement())
    state, events = act(state, 0, a.Engage(41))
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(2, 0, WITHDREW)]


def test_rule_12_1_a_titan_lost_in_an_agreement_is_not_a_withdrawal():
    state = pos(
        "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre Gd01@300:Titan | turn=Bk phase=engage "
        "towers=Bk:100,Gd:300,Rd:600"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 2, a.Propose((Proposal(DEF),)))
    state, events = act(state, 0, a.Accept(1))
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(2, 0, TITAN_LOST)]


def test_rule_12_4_a_queued_withdrawal_is_not_queued_twice():
    state = pos("Bk01@100:Titan,Ogre Rd01@600:Titan Gd01@300:Titan | turn=Bk")
    assert a.Withdraw() in legal_actions(state, 2)
    state, _ = act(state, 2, a.Withdraw())
    assert a.Withdraw() not in legal_actions(state, 2)
    with pytest.raises(IllegalAction, match="your withdrawal is already queued"):
        act(state, 2, a.Withdraw())


MUTUAL_TITANS = """
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.events import PlayerEliminated
from engine.game.notation import parse_position
from engine.game.state import Proposal

state = parse_position("Bk01@41:Titan Rd01@41:Titan Gd01@300:Titan | turn=Bk phase=engage")
state, _ = apply(state, 0, a.Engage(41))
state, _ = apply(state, 2, a.Propose((Proposal(None),)))
state, events = apply(state, 0, a.Accept(1))
print([e.seat for e in events if isinstance(e, PlayerEliminated)])
"""


def test_rule_14_c10_both_titans_fall_in_the_same_order_in_every_process():
    """A replay must tell the same events wherever it runs (string hashing differs between
    processes): the attacker's player leaves first."""
    told = outputs_under_hash_seeds(MUTUAL_TITANS, range(6))
    assert told == {"[0, 2]\n"}
