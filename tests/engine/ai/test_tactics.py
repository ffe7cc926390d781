"""The searching battle tactics of level ``hard`` (issue 24): the damage arithmetic, the
forecast of strike halves, the fast maneuver policy, the planner and the striker."""

from __future__ import annotations

import math

import pytest

from engine.ai.battlefield import OWN_TITAN
from engine.ai.maneuvering import choose_maneuver, phase_moves
from engine.ai.odds import hits
from engine.ai.tactics import planner
from engine.ai.tactics.damage import WOUND, alive, blow_share, fighting_value, loss, spread, worth
from engine.ai.tactics.forecast import Outlook
from engine.ai.tactics.policy import play
from engine.ai.tactics.striker import choose_tactical_strike
from engine.battle.maneuvering import destinations, maneuver
from engine.battle.notation import parse_battle
from engine.battle.position import Side
from engine.battle.state import Entrant
from engine.battle.striking import rangestrike_options, strike_options
from engine.battleland import LABELS
from engine.frozen import evolve
from engine.game import battle_actions as b


def point(power: int, taken: int = 0) -> list[float]:
    dist = [0.0] * (power + 1)
    dist[taken] = 1.0
    return dist


# --- damage ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("dice", "number", "taken"), [(4, 4, 0), (8, 3, 2), (12, 6, 5), (2, 1, 0)])
def test_a_strike_spreads_a_characters_damage_by_its_hit_distribution(dice, number, taken):
    power = 6
    after = spread(point(power, taken), dice, number, 1.0)
    exact = hits(dice, number)
    assert math.isclose(sum(after), 1.0)
    for k in range(power - taken):
        assert math.isclose(after[taken + k], exact[k] if k < len(exact) else 0.0, abs_tol=1e-12)
    assert math.isclose(after[power], sum(exact[power - taken :]), abs_tol=1e-12)


def test_a_strike_that_may_not_come_spreads_only_its_share():
    after = spread(point(4), 4, 1, 0.25)  # every die hits: slain if it strikes
    assert math.isclose(after[4], 0.25) and math.isclose(after[0], 0.75)
    assert math.isclose(alive(after), 0.75)


def test_a_blows_share_is_the_loss_it_adds():
    for dice, number, taken, power in [(5, 3, 0, 6), (9, 5, 4, 10), (3, 2, 2, 3)]:
        before = point(power, taken)
        added = loss(spread(before, dice, number, 1.0)) - loss(before)
        assert math.isclose(blow_share(dice, number, taken, power), added, abs_tol=1e-12)


def test_slaying_counts_in_full_and_a_wound_in_part():
    assert loss(point(6, 6)) == 1.0
    assert math.isclose(loss(point(6, 3)), WOUND * 3 / 6)
    assert worth("Titan", 8, 4, True) > worth("Titan", 8, 4, False) > worth("Ogre", 6, 2, True)


def test_worth_is_the_fighting_value_skill_weighing_more_than_in_the_score():
    """RULES §9.3: Skill sets the strike numbers on both sides of a blow, so a Centaur
    (3-4) outfights an Ogre (6-2) of the same score (12), and a Ranger (4-4) a Troll
    (8-2) of the same score (16); Power × Skill is kept where Power 5 meets Skill 3."""
    assert worth("Centaur", 3, 4, True) > worth("Ogre", 6, 2, True)
    assert worth("Ranger", 4, 4, False) > worth("Troll", 8, 2, False)
    assert math.isclose(worth("Lion", 5, 3, True), 15.0)
    assert math.isclose(worth("Titan", 6, 4, True), OWN_TITAN * fighting_value(6, 4))
    # more Power or more Skill is always worth more
    for power in range(1, 12):
        for skill in range(1, 5):
            assert fighting_value(power + 1, skill) > fighting_value(power, skill)
            assert fighting_value(power, skill + 1) > fighting_value(power, skill)


# --- forecast -------------------------------------------------------------------------------
def test_a_half_is_strikes_then_counterstrikes_by_the_exact_dice():
    battle = parse_battle("Plains t2 defender strike: Rd01 Troll@C3 | Bk01 Ogre@C4")
    outlook = Outlook.start(battle)
    outlook.half()
    troll, ogre = sorted(outlook.bodies, key=lambda x: x.name, reverse=True)
    # Troll (8-2) strikes the Ogre (6-2) at 4, the Ogre strikes back at 4: both full blows
    assert math.isclose(alive(ogre.dist), 1 - sum(hits(8, 4)[6:]))
    assert math.isclose(alive(troll.dist), 1 - sum(hits(6, 4)[8:]))
    assert outlook.phasing is Side.ATTACKER and outlook.turn == 2 and not outlook.over


def test_the_attacker_loses_its_survivors_on_time():
    battle = parse_battle("Plains t7 attacker strike: Rd01 Ogre@F4 | Bk01 Ogre@A1 Troll@A2")
    outlook = Outlook.start(battle)
    outlook.half()
    assert outlook.over and outlook.time_lost
    lost = worth("Ogre", 6, 2, True) + worth("Troll", 8, 2, True)
    assert math.isclose(outlook.utility(Side.ATTACKER), -lost)
    assert outlook.utility(Side.DEFENDER) > 0


def test_a_time_loss_takes_a_wounded_attacker_once():
    """RULES §11.1: on time the attacker loses its whole legion; its wounds lose no more."""
    battle = parse_battle("Plains t7 attacker strike: Rd01 Ogre@F4 | Bk01 Ogre@A1:3 Troll@A2:5")
    outlook = Outlook.start(battle)
    outlook.half()
    assert outlook.time_lost
    lost = worth("Ogre", 6, 2, True) + worth("Troll", 8, 2, True)
    assert math.isclose(outlook.utility(Side.ATTACKER), -lost)


def test_a_titan_likely_slain_ends_the_forecast():
    battle = parse_battle("Plains t3 defender strike: Rd01 Titan(6)@C3:5 | Bk01 Colossus@C4")
    outlook = Outlook.start(battle)
    outlook.half()
    assert outlook.over


def test_a_forecast_copy_follows_its_own_course():
    battle = parse_battle("Plains t2 defender strike: Rd01 Troll@C3 | Bk01 Ogre@C4")
    outlook = Outlook.start(battle)
    branch = outlook.copy()
    branch.half()
    assert all(x.dist == point(x.power) for x in outlook.bodies)
    assert outlook.halves == 0 and branch.halves == 1


# --- policy ---------------------------------------------------------------------------------
#: Seven defenders entering Woods across an edge of two open hexes (A3 is Trees): those
#: who enter first must leave the way free for the slow Trolls and the rest (RULES §8.4).
WOODS_SEVEN = (
    "Woods s1: Bu01 Centaur@off Centaur@off Titan@off Troll@off Troll@off Warlock@off"
    " Warlock@off | Bk01 Angel@off Cyclops@off Griffon@off Griffon@off Lion@off"
)
BATTLES = [
    "Brush s5: Rd01 Troll@off Troll@off Ranger@off Gorgon@off | Bk01 Titan@off Lion@off",
    "Tower s3 t1 attacker: Rd01 Titan(7)@D4 Ogre@C3 Ogre@E3 | Bk01 Cyclops@off Gargoyle@off",
    "Mountains s1 t3: Rd01 Dragon@D4 Minotaur@C4 | Bk01 Titan@D2 Lion@E2 Ranger@B1",
    "Desert s3 t4 attacker: Rd01 Lion@D4:2 Lion@E4 | Bk01 Ogre@D2 Centaur@C2 Titan@C1",
    WOODS_SEVEN,
]


@pytest.mark.parametrize("text", BATTLES)
def test_the_policys_moves_are_legal_and_bring_everyone_on(text):
    battle = parse_battle(text)
    side = battle.phasing
    played = play(battle, side, planner.usual_stance(battle, side), keep=3)
    replayed = battle
    for who, to in played.moves:
        replayed, _ = maneuver(replayed, who, to)  # raises if illegal
    assert replayed == played.battle
    if (side not in battle.entered and not battle.land.is_tower) or side is Side.ATTACKER:
        assert not played.battle.waiting(side)
    assert all(all(o in LABELS for o in options) for options in played.options)


def test_a_character_moves_after_the_friend_that_blocks_its_way():
    """RULES §8.5: no character moves through another. The Centaur in C3 stands between
    the Trolls and the drift of C4, where a Troll (native there) reaches the enemy Troll in
    B4; the policy moves the Centaur first and a Troll through."""
    battle = parse_battle(
        "Tundra s3 t2 attacker: Bk01 Troll@A3:6 Troll@B4 Lion@D6 Lion@E5 Lion@F4"
        " | Rd01 Lion@A2:2 Troll@B2 Centaur@B3:1 Troll@C2 Centaur@C3 Troll@D2"
    )
    played = play(battle, Side.ATTACKER, planner.usual_stance(battle, Side.ATTACKER))
    froms = [who for who, _ in played.moves]
    into = [who for who, to in played.moves if to == "C4"]
    assert into and battle.position.at(into[0]).name == "Troll"
    assert froms.index("C3") < froms.index(into[0])


# --- planner --------------------------------------------------------------------------------
def test_an_attacker_out_of_time_closes_in():
    """Turn 7 (RULES §11.1): a lone Titan that stays away loses on time; it engages."""
    battle = parse_battle("Marsh s5 t7 attacker: Rd01 Ranger@F3:3 | Bk01 Titan(7)@D2")
    plan = planner.search(battle, Side.ATTACKER)
    assert plan.moves and plan.moves[0][0] == "D2"
    assert "F3" in battle.land.contacts[plan.moves[0][1]]


def test_an_attacking_titan_fights_an_even_last_fight_rather_than_lose_on_time():
    """Turn 7 (RULES §11.1): waiting loses the Titan for certain; an even fight with the
    last defender may win, however much the Titan is wounded in it."""
    battle = parse_battle("Marsh s5 t7 attacker: Rd01 Angel@B2:1 | Bk01 Titan(6)@D3")
    plan = planner.search(battle, Side.ATTACKER)
    assert plan.moves and "B2" in battle.land.contacts[plan.moves[0][1]]


def test_the_plan_brings_every_character_through_a_narrow_entry():
    """RULES §8.4: one left off the board is slain, so the plan leaves none off."""
    battle = parse_battle(WOODS_SEVEN)
    plan = planner.search(battle, Side.DEFENDER)
    after = battle
    for who, to in plan.moves:
        after, _ = maneuver(after, who, to)
    assert after.waiting(Side.DEFENDER) == ()
    assert len(plan.moves) == 7


def test_the_plan_frees_the_way_in_for_a_reinforcement():
    """RULES §6.6: a reinforcement that does not enter goes back unused. Here both open
    hexes of the defender's edge (E5 is Trees) are taken: the plan moves off one and
    brings the Centaur in."""
    battle = evolve(
        parse_battle(
            "Woods s3 t4: Bu01 Centaur@D6 Titan@F4 Centaur@off"
            " | Bk01 Cyclops@B2 Cyclops@B3 Cyclops@F2"
        ),
        entrant=Entrant("Centaur", Side.DEFENDER),
    )
    plan = planner.search(battle, Side.DEFENDER)
    assert ("Centaur", plan.moves[-1][1]) in plan.moves
    after = battle
    for who, to in plan.moves:
        after, _ = maneuver(after, who, to)
    assert after.waiting(Side.DEFENDER) == ()


def test_normal_plays_a_whole_phase_of_legal_moves_until_none_helps():
    battle = parse_battle(BATTLES[0])
    moves = phase_moves(battle, Side.DEFENDER)
    assert moves
    after = battle
    for who, to in moves:
        after, _ = maneuver(after, who, to)  # raises if illegal
    legal = [b.Maneuver(w, t) for w, ends in destinations(after).items() for t in sorted(ends)]
    choice = choose_maneuver(after, Side.DEFENDER, [*legal, b.EndManeuver()], lambda _: 0.0)
    assert choice == b.EndManeuver()


#: The defender's Troll, Ogre and Lion placed; ``normal`` would answer with the attacker
#: worse for them than the policy's usual answer or a charge.
PLACED = (
    "Tundra t2 defender maneuver: Rd01 Troll@A1 Ogre@D2 Lion@E2"
    " | Bk01 Troll@C1 Lion@D1 Centaur@E1 Gargoyle@B1"
)


def test_a_defender_judges_its_plans_against_normals_answer_too(monkeypatch):
    after = parse_battle(PLACED)
    with_normal = planner.judge(after, Side.DEFENDER)
    monkeypatch.setattr(planner, "NORMAL_ANSWER_IN_DEFENCE", False)
    assert with_normal < planner.judge(after, Side.DEFENDER)


def test_an_attacker_judges_its_plans_by_the_policys_answers_alone(monkeypatch):
    after = parse_battle(BATTLES[3])
    usual = planner.judge(after, Side.ATTACKER)
    monkeypatch.setattr(planner, "NORMAL_ANSWER_IN_DEFENCE", False)
    assert planner.judge(after, Side.ATTACKER) == usual


def test_the_plan_is_a_pure_function_of_the_phase():
    battle = parse_battle(BATTLES[2])
    first = planner.search(battle, battle.phasing)
    planner._CACHE.clear()
    assert planner.search(battle, battle.phasing) == first


# --- striker --------------------------------------------------------------------------------
def test_the_first_blow_goes_where_the_phase_slays_most():
    """Two Trolls touching two wounded Ogres: first the one a blow can likely slay."""
    battle = parse_battle(
        "Plains t2 defender strike: Rd01 Troll@C5 Troll@D4 | Bk01 Ogre@C4:3 Ogre@D5:1"
    )
    legal = [b.Strike(s.hex, t.hex) for s, t, _ in strike_options(battle)]
    legal.append(b.EndStrikes())
    choice = choose_tactical_strike(battle, legal, lambda _: 0.0)
    assert isinstance(choice, b.Strike) and choice.target == "C4"
    assert not rangestrike_options(battle)
