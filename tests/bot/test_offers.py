"""Choices on public messages follow from public facts alone; private choices reach their owner.

The strongest check of "nothing channel-visible is built from private knowledge": along
random games, every state is compared with *variants* that differ only in what the
channel cannot see — the characters of every legion a spectator may not look into are
dealt out again (same heights, each player's Titan in one of his own hidden legions, what
was revealed to all kept in place, the caretaker and the dead pile unchanged). The public
choices must be the same for the state and every variant: neither their words nor their
presence may depend on a hidden legion.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from bot.context import Place, Version
from bot.narration.describe import waiting_for
from bot.offers import PUBLIC, public_offers, step
from engine.battle.state import BattleStep
from engine.characters import TITAN
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState, Phase, Stage
from engine.game.view import may_see
from tests.bot.agent import caller, open_game, pick

GAMES = 12
VARIANTS = 2


def variant(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the hidden characters of every legion a spectator cannot see dealt out
    again among those legions (see the module docstring)."""
    hidden = [leg for leg in state.legions.values() if not may_see(state, leg, None)]
    pool: list[str] = []
    pinned: dict[str, Counter[str]] = {}
    titans: dict[int, bool] = {}
    for legion in hidden:
        shown = Counter(legion.revealed) & Counter(legion.characters)
        pinned[legion.marker] = shown
        rest = Counter(legion.characters) - shown
        if rest[TITAN]:
            titans[legion.owner] = True
            rest[TITAN] -= 1
        pool += list(rest.elements())
    rng.shuffle(pool)
    room = {leg.marker: leg.height - sum(pinned[leg.marker].values()) for leg in hidden}
    for owner in titans:
        homes = [leg.marker for leg in hidden if leg.owner == owner and room[leg.marker] > 0]
        home = rng.choice(homes)
        pinned[home][TITAN] += 1
        room[home] -= 1
    legions = dict(state.legions)
    for legion in hidden:
        dealt = [pool.pop() for _ in range(room[legion.marker])]
        names = sorted([*pinned[legion.marker].elements(), *dealt])
        legions[legion.marker] = replace(legion, characters=tuple(names))
    assert not pool
    return replace(state, legions=legions)


def moves_through(seed: int) -> list[GameState]:
    """The states of one random game (a fighting agent, so that battles happen)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    state, _ = new_game([f"P{i}" for i in range(players)], seed)
    states = [state]
    for _ in range(3000):
        seat = to_act(state)
        if seat is None:
            break
        state, _ = apply(state, seat, pick(legal_actions(state, seat), rng, fighting=True))
        states.append(state)
    return states


def test_public_choices_are_the_same_whatever_the_hidden_legions_hold():
    rng = random.Random(5)
    checked = Counter[str]()
    for seed in range(GAMES):
        for state in moves_through(seed):
            offers = public_offers(state)
            for _ in range(VARIANTS):
                assert public_offers(variant(state, rng)) == offers, state
            checked.update(" ".join(c.split()[:2]) for c in offers.commands())
    # The games went through every kind of public decision, every menu of a battle's
    # board and every private step.
    verbs = {c.split()[0] for c in checked}
    assert {"colour", "roll", "done", "engage", "strike", "choices"} <= verbs
    asked = {c for c in checked if c.startswith("choices")}
    assert {"choices split", "choices move", "choices maneuver", "choices muster"} <= asked


def test_the_variants_really_change_what_is_hidden():
    state = moves_through(1)[200]
    rng = random.Random(1)
    assert any(variant(state, rng).legions != state.legions for _ in range(5))
    for _ in range(5):
        other = variant(state, rng)
        assert sorted(c for leg in other.legions.values() for c in leg.characters) == sorted(
            c for leg in state.legions.values() for c in leg.characters
        )
        assert {m: leg.height for m, leg in other.legions.items()} == {
            m: leg.height for m, leg in state.legions.items()
        }


def test_a_decision_needing_hidden_facts_is_an_ask_not_a_list_of_its_options():
    for state in moves_through(3):
        seat = to_act(state)
        if seat is None:
            continue
        commands = public_offers(state).commands()
        hidden = {"muster", "summon", "reinforce", "flee", "split", "move", "propose"}
        assert not any(c.split()[0] in hidden for c in commands)
        assert not any(c.startswith("accept ") for c in commands)  # a proposal (a battle's
        # "accept" is a concession's, which everyone sees)
        engagement = state.engagement if state.phase is Phase.ENGAGE else None
        if engagement is not None and engagement.stage is Stage.NEGOTIATE:
            assert "choices negotiate" in commands
        legal = legal_actions(state, seat)
        for offer in public_offers(state).offers():
            if not offer.command.startswith("choices"):
                assert any(isinstance(x, PUBLIC) for x in legal)


async def test_the_muster_step_is_asked_for_and_its_options_reach_the_owner_alone(service):
    await open_game(service, 5, 2)
    rng = random.Random(2)
    for _ in range(2000):
        game = await service.game_in(5)
        state = game.state
        seat = to_act(state)
        mustering = [x for x in legal_actions(state, seat) if isinstance(x, a.Muster)]
        if state.phase is Phase.MUSTER and mustering:
            break
        await service.act(Place(5), caller(5, seat), pick(legal_actions(state, seat), rng))
    else:
        raise AssertionError("no muster came")
    replies = await service.submit(Place(5), caller(5, 1 - seat), "choices muster")
    assert replies.error and "it is not your turn: the game waits for" in replies.ephemeral.text
    stranger = await service.submit(Place(5), caller(5, 9), "choices muster")
    assert stranger.error and "not playing" in stranger.ephemeral.text
    elsewhere = await service.submit(Place(5), caller(5, seat), "choices move")
    assert elsewhere.error and elsewhere.ephemeral.text.endswith(
        "`choices move` has nothing for you now: the game waits for you to muster "
        "(`muster LEGION CHARACTER`) or end the turn (`done`)"
    ), elsewhere.ephemeral.text
    mine = await service.submit(Place(5), caller(5, seat), "choices muster")
    assert not mine.error and mine.public is None and not mine.private
    offers = mine.ephemeral.offers
    assert offers is not None and (offers.game, offers.version) == (game.id, game.n)
    commands = offers.choices.commands()
    assert commands == step(state, seat, "muster").choices.commands()
    assert {c.split()[0] for c in commands} <= {"muster", "done", "choices"}
    if not any(c.startswith("choices") for c in commands):  # not grouped by legion
        assert len([c for c in commands if c.startswith("muster")]) == len(mustering)
    # The owner's pick runs like any command; a second pick of the same offer is stale.
    expect = Version(offers.game, offers.version)
    done = await service.submit(Place(5), caller(5, seat), commands[0], expect=expect)
    assert not done.error and done.public is not None
    again = await service.submit(Place(5), caller(5, seat), commands[0], expect=expect)
    assert again.error and "out of date" in again.ephemeral.text


def test_a_spectators_board_in_the_muster_phase_offers_the_ask_even_if_nothing_qualifies():
    states = [s for s in moves_through(4) if s.phase is Phase.MUSTER]
    assert states
    for state in states:
        seat = to_act(state)
        moved = [
            leg
            for leg in state.legions_of(seat)
            if leg.marker in state.turn.moved
            and leg.marker not in state.turn.mustered
            and leg.height < 7
        ]
        asked = "choices muster" in public_offers(state).commands()
        assert asked == bool(moved)


def test_the_chance_to_concede_before_anyone_enters_is_one_question_fight_or_concede():
    """SoP: once the legions are shown, the attacker and then the defender may concede. The
    board asks it in words that say what each choice does, and the prompt asks it once."""
    asked = 0
    for seed in range(6):
        for state in moves_through(seed):
            battle = state.engagement.battle if state.engagement is not None else None
            if battle is None or battle.step not in (
                BattleStep.OPEN_ATTACKER,
                BattleStep.OPEN_DEFENDER,
            ):
                continue
            board = public_offers(state)
            assert [(o.label, o.command) for o in board.buttons] == [
                ("Fight", "decline"),
                ("Concede the battle", "concede"),
            ] and not board.menus
            _, task = waiting_for(state)
            assert task.startswith("fight the battle (`done`) or concede it before anyone")
            assert task.count("`concede`") == 1 and "or fight (`done`)" not in task
            asked += 1
    assert asked > 10
