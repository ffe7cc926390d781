"""A second look before throwing something away: the words of what an action would cost
(:mod:`bot.second_look`), and the service asking for a confirmation before doing it."""

from __future__ import annotations

import random

from bot.context import Place
from bot.second_look import cost
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from engine.game.state import Phase, Proposal, Stage
from tests.bot.agent import caller, open_game, pick
from tests.engine.game.helpers import act, pos
from tests.engine.game.test_engagements import ATT, DEF, DUEL

#: Black (seat 0) attacks Red (seat 1) in 41: Black's Titan with two Trolls, Red's Lion and Ogre.


def negotiating():
    state, _ = act(pos(DUEL), 0, a.Engage(41))
    assert state.engagement.stage is Stage.NEGOTIATE and to_act(state) == 1
    return state


def fighting():
    """The battle of DUEL begun, both sides past their chance to concede before entering."""
    state = negotiating()
    state, _ = act(state, 1, a.NoMoreProposals())
    state, _ = act(state, 0, a.Fight())
    state, _ = act(state, 0, a.Decline())
    state, _ = act(state, 1, a.Decline())
    assert state.engagement.stage is Stage.BATTLE and to_act(state) == 1
    return state


def test_conceding_an_engagement_says_the_legion_is_lost():
    state = negotiating()
    assert cost(state, 1, a.Concede()) == (
        "Conceding the engagement: your legion Rd01 (Lion, Ogre) is eliminated (RULES §5.6)."
    )


def test_conceding_with_ones_titan_says_the_game_is_lost_citing_both_rules_once():
    state, _ = act(negotiating(), 1, a.NoMoreProposals())
    assert to_act(state) == 0
    assert cost(state, 0, a.Concede()) == (
        "Conceding the engagement: your legion Bk01 (Titan, Troll ×2) is eliminated: your "
        "Titan with it, and you are out of the game (RULES §5.6, §12.1)."
    )


def test_a_deal_that_eliminates_ones_own_titan_says_the_game_is_lost():
    state = negotiating()
    state, _ = act(state, 1, a.Propose((Proposal(ATT),)))
    said = cost(state, 0, a.Accept(1))
    assert said == (
        "Accepting proposal #1: your legion Bk01 (Titan, Troll ×2) is eliminated: your Titan "
        "with it, and you are out of the game (RULES §12.1)."
    )
    # Proposing it oneself is asked about too; a deal that costs nothing is not.
    assert "you are out of the game" in cost(state, 0, a.Propose((Proposal(None),)))
    assert cost(state, 0, a.Propose((Proposal(DEF),))) is None
    state, _ = act(state, 0, a.Propose((Proposal(DEF),)))
    assert cost(state, 1, a.Accept(2)) == (
        "Accepting proposal #2: your legion Rd01 (Lion, Ogre) is eliminated."
    )


def test_ending_the_first_maneuvers_with_characters_off_the_board_says_they_are_slain():
    state = fighting()
    assert cost(state, 1, b.EndManeuver()) == (
        "Lion, Ogre stay off the board and are slain: the whole legion is lost (RULES §8.4)."
    )
    [enter] = [x for x in legal_actions(state, 1) if isinstance(x, b.Maneuver)][:1]
    state, _ = act(state, 1, enter)
    assert cost(state, 1, b.EndManeuver()).startswith("Ogre stays off the board and is slain")
    state, _ = act(state, 1, b.EndManeuver())  # no strike is possible yet: Black moves
    # Black's Titan left off the board is Black's game.
    assert to_act(state) == 0 and state.engagement.battle.step.value == "maneuver"
    assert cost(state, 0, b.EndManeuver()) == (
        "Titan, Troll ×2 stay off the board and are slain: you are out of the game "
        "(RULES §8.4, §12.1)."
    )


def test_ending_maneuvers_with_everyone_on_the_board_costs_nothing():
    state = fighting()
    assert cost(state, 0, b.EndManeuver()) is None  # not Black's decision: no words either
    while entering := [x for x in legal_actions(state, 1) if isinstance(x, b.Maneuver)]:
        state, _ = act(state, 1, entering[0])
    assert not state.engagement.battle.waiting(DEF)
    assert cost(state, 1, b.EndManeuver()) is None


def test_withdrawing_and_ending_a_turn_with_a_muster_left_say_so():
    state = pos("Bk01@41:Titan,Troll*2 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:40>41/1")
    assert cost(state, 0, a.Withdraw()) == (
        "Withdrawing concedes the whole game: your legions (Bk01) leave the board and you are "
        "out of the game, now (RULES §12.4)."
    )
    assert any(isinstance(x, a.Muster) for x in legal_actions(state, 0))  # Marsh: Troll ×2
    assert cost(state, 0, a.EndTurn()) == (
        "Bk01 could still muster: ending the turn now gives that up (RULES §6)."
    )
    mustered, _ = act(state, 0, a.Muster("Bk01", "Ranger"))
    assert cost(mustered, 0, a.EndTurn()) is None


def test_a_full_legion_at_the_end_of_the_split_phase_is_pointed_out():
    state = pos("Bk01@41:Titan,Troll*6 Rd01@600:Titan | turn=Bk phase=split first=no")
    assert cost(state, 0, a.Roll()) == (
        "Bk01 is 7 high: a legion that full cannot muster this turn unless it splits first "
        "(RULES §6.1)."
    )
    state = pos("Bk01@41:Titan,Troll*3 Rd01@600:Titan | turn=Bk phase=split first=no")
    assert cost(state, 0, a.Roll()) is None


async def test_the_service_asks_before_and_changes_nothing_until_confirmed(service):
    channel = 71
    await open_game(service, channel, 2)
    rng = random.Random(3)
    for _ in range(3000):
        game = await service.game_in(channel)
        state = game.state
        seat = to_act(state)
        if (
            state.phase is Phase.ENGAGE
            and state.engagement
            and state.engagement.stage is (Stage.NEGOTIATE)
        ):
            break
        action = pick(legal_actions(state, seat), rng)
        await service.act(Place(channel), caller(channel, seat), action)
    else:
        raise AssertionError("no engagement came")
    who = caller(channel, seat)
    asked = await service.submit(Place(channel), who, "concede")
    assert not asked.error and not asked.stored and asked.public is None
    assert "is eliminated" in asked.ephemeral.text
    assert [o.command for o in asked.ephemeral.offers.items] == ["concede confirm", "back"]
    assert (await service.game_in(channel)).n == game.n  # nothing changed
    done = await service.submit(Place(channel), who, "concede confirm")
    assert done.stored and (await service.game_in(channel)).n > game.n
    # Withdrawing, typed: asked first too.
    other = caller(channel, 1 - seat)
    question = await service.submit(Place(channel), other, "withdraw")
    assert "concedes the whole game" in question.ephemeral.text and not question.stored


async def negotiating_over_a_titan(service, channel: int):
    """Random games in ``channel`` and the next ones until a negotiation opens over the
    legion of the Titan of the player it waits for: that channel, seat and legion."""
    for attempt in range(8):
        here = channel + attempt
        await open_game(service, here, 2)
        rng = random.Random(here)
        while (game := await service.game_in(here)) is not None:
            state = game.state
            seat = to_act(state)
            engagement = state.engagement if state.phase is Phase.ENGAGE else None
            if engagement is not None and engagement.stage is Stage.NEGOTIATE:
                [mine] = [m for m in (engagement.attacker, engagement.defender)
                          if state.legions[m].owner == seat]  # fmt: skip
                if state.legions[mine].has_titan and not engagement.proposals:
                    return here, seat, engagement, mine
            action = pick(legal_actions(state, seat), rng, fighting=True)
            await service.act(Place(here), caller(here, seat), action)
    raise AssertionError("no negotiation over a Titan's legion came")


async def test_accepting_a_deal_that_gives_ones_titan_away_asks_first(service):
    """A deal eliminating one's own Titan legion is asked about before it is proposed or
    accepted: the proposal shown in full, the game said to be lost."""
    channel, seat, engagement, titan = await negotiating_over_a_titan(service, 72)
    role = "attacker" if titan == engagement.attacker else "defender"
    other = "defender" if role == "attacker" else "attacker"
    me, them = caller(channel, seat), caller(channel, 1 - seat)
    # Proposing one's own elimination is asked about; the other's is not.
    asked = await service.submit(Place(channel), me, f"propose {role}")
    assert "out of the game" in asked.ephemeral.text and not asked.stored
    n = (await service.game_in(channel)).n
    assert (await service.submit(Place(channel), me, f"propose {other}")).stored
    assert (await service.submit(Place(channel), them, f"propose {role}")).stored
    proposal = (await service.game_in(channel)).state.engagement.proposals[-1].number
    asked = await service.submit(Place(channel), me, f"accept {proposal}")
    assert not asked.stored and asked.public is None
    assert asked.ephemeral.text.startswith(f"Accepting proposal #{proposal}: your legion {titan} (")
    assert "your Titan with it, and you are out of the game" in asked.ephemeral.text
    assert (await service.game_in(channel)).n == n + 2  # nothing more happened
    done = await service.submit(Place(channel), me, f"accept {proposal} confirm")
    assert done.stored and "Titan" in done.public.text
