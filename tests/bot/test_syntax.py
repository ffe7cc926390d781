"""The command language: verbs read into engine actions, and actions written as commands."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.syntax import (
    VERBS,
    Command,
    Verb,
    VerbKind,
    format_action,
    help_overview,
    help_text,
    help_topic,
    parse_command,
    register,
    to_action,
)
from bot.syntax import verbs as verbs_module
from bot.syntax.verbs import HELP_TOPICS
from engine.battle.position import Side
from engine.errors import InvalidNotation, TitanError, WrongPhase
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState, Phase, Proposal
from engine.movement import MoveKind
from tests.bot.agent import pick


def started(players: int = 2, seed: int = 1) -> GameState:
    """A game just past the colour choices, in the first player's split phase."""
    state, _ = new_game([f"P{i}" for i in range(players)], seed)
    while state.phase is Phase.COLOURS:
        seat = to_act(state)
        assert seat is not None
        state, _ = apply(state, seat, legal_actions(state, seat)[0])
    return state


def read(text: str, state: GameState | None = None, seat: int | None = None) -> a.Action:
    state = state or started()
    return to_action(parse_command(text), state, state.active if seat is None else seat)


def test_move_with_every_option_in_any_case_and_order():
    action = read("MOVE bk01 104 lord angel teleport Tower side 3")
    assert action == a.Move("Bk01", 104, MoveKind.TOWER_TELEPORT, 3, "Angel")
    assert read("/move Bk01 104") == a.Move("Bk01", 104)


def test_split_with_and_without_the_new_marker():
    state = started()
    marker = next(iter(state.legions_of(state.active))).marker
    free = state.free_markers(state.active)[0]
    chosen = f"{marker[:2]}07"
    split = read(f"split {marker} {chosen} Titan ogres Ogre Centaur", state)
    assert split == a.Split(marker, chosen, ("Titan", "Ogre", "Ogre", "Centaur"))
    assert read(f"split {marker} Angel Gargoyle", state) == a.Split(
        marker, free, ("Angel", "Gargoyle")
    )


def test_proposals_joined_by_or():
    action = read("propose attacker lose Ogre Troll or both or defender")
    assert action == a.Propose(
        (
            Proposal(Side.ATTACKER, ("Ogre", "Troll")),
            Proposal(None),
            Proposal(Side.DEFENDER),
        )
    )


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("roll", a.Roll()),
        ("mulligan", a.Mulligan()),
        ("takeback Bk01", a.TakeBack("Bk01")),
        ("undo bk01", a.TakeBack("Bk01")),
        ("unsplit Bk02", a.UndoSplit("Bk02")),
        ("engage 104", a.Engage(104)),
        ("flee", a.Flee()),
        ("accept 2", a.Accept(2)),
        ("accept #3", a.Accept(3)),
        ("concede", a.Concede()),
        ("nomore", a.NoMoreProposals()),
        ("fight", a.Fight()),
        ("summon Bk02 Angel", a.Summon("Bk02", "Angel")),
        ("reinforce Troll", a.Reinforce("Troll")),
        ("reinforce Troll reveal Ogre Ogre", a.Reinforce("Troll", ("Ogre", "Ogre"))),
        ("acquire Archangel", a.Acquire("Archangel")),
        ("decline", a.Decline()),
        ("muster Bk01 Troll", a.Muster("Bk01", "Troll")),
        ("muster Bk01 Troll reveal Ogre Ogre", a.Muster("Bk01", "Troll", ("Ogre", "Ogre"))),
        ("withdraw", a.Withdraw()),
        ("expire", a.ExpireTimeLimit()),
        ("colour red", a.ChooseColour("Red")),
        ("color Bk Bk03", a.ChooseColour("Black", "Bk03")),
    ],
)
def test_each_game_verb(text, action):
    assert read(text) == action


def test_done_follows_the_phase():
    state = started()
    assert read("done", state) == a.Roll()
    moving = replace(state, phase=Phase.MOVE)
    assert read("done", moving) == a.EndMovement()
    assert read("done keep Bk01 rd02", moving) == a.EndMovement(("Bk01", "Rd02"))
    assert read("done", replace(state, phase=Phase.MUSTER)) == a.EndTurn()
    with pytest.raises(WrongPhase):
        read("done", replace(state, phase=Phase.COLOURS))


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "empty"),
        ("teleport Bk01", "unknown command"),
        ("move", "missing the legion"),
        ("move Bk01", "missing the land"),
        ("move Bk01 999", "999"),
        ("move XX01 104", "XX01"),
        ("move Bk01 104 side", "exactly one"),
        ("move Bk01 104 side 3 side 5", "twice"),
        ("move Bk01 104 teleport moon", "teleport tower"),
        ("move Bk01 104 sideways 3", "unexpected"),
        ("split Bk01 Bk02 Dodo", "Dodo"),
        ("split Bk01", "name the characters"),
        ("propose nobody", "attacker, defender or both"),
        ("accept two", "proposal number"),
        ("colour Purple", "not a colour"),
        ("roll now", "unexpected"),
        ('move "Bk01 104', "cannot read"),
    ],
)
def test_malformed_commands_say_what_is_wrong(text, complaint):
    with pytest.raises(TitanError, match=complaint):
        read(text)


def test_usage_is_quoted_in_errors():
    with pytest.raises(InvalidNotation, match=r"usage: move LEGION LAND"):
        read("move Bk01")


def test_non_game_verbs_are_not_actions():
    command = parse_command("status")
    assert command.kind is VerbKind.INFO
    with pytest.raises(InvalidNotation):
        to_action(command, started(), 0)
    assert parse_command("join Big Al") == Command("join", ("Big", "Al"))
    assert parse_command('join "Big Al"') == Command("join", ("Big Al",))


def test_help_lists_every_verb():
    text = help_text()
    assert all(f"`{verb.usage}`" in text for verb in VERBS.values())


def test_a_new_verb_is_one_entry():
    def read_hold(args, state, seat):
        args.finish()
        return a.Decline()

    verb = register(Verb("hold", VerbKind.GAME, "hold", "a test verb", read_hold, ("wait",)))
    try:
        assert to_action(parse_command("WAIT"), started(), 0) == a.Decline()
        with pytest.raises(ValueError, match="taken"):
            register(Verb("other", VerbKind.INFO, "other", "clash", aliases=("hold",)))
    finally:
        VERBS.pop(verb.name)
        verbs_module._ALIASES.pop("hold")
        verbs_module._ALIASES.pop("wait")


def same_effect(state: GameState, seat: int, one: a.Action, other: a.Action) -> bool:
    return one == other or apply(state, seat, one)[0] == apply(state, seat, other)[0]


def round_trip_game(seed: int, players: int) -> set[type[a.Action]]:
    """Play a random game (by an agent that would rather fight); check that every legal
    action has a command reading back with the same effect. The action types checked."""
    state, _ = new_game([f"P{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    checked: set[type[a.Action]] = set()
    for _ in range(3_000):
        if state.result is not None:
            break
        seat = to_act(state)
        assert seat is not None
        choices = legal_actions(state, seat)
        for action in choices:
            text = format_action(action)
            assert same_effect(state, seat, action, to_action(parse_command(text), state, seat))
            checked.add(type(action))
        state, _ = apply(state, seat, pick(choices, rng, fighting=True))
    return checked


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_every_legal_action_reads_back_from_its_command(seed, players):
    """Parse/format pairs over whole random games, battles included."""
    round_trip_game(seed, players)


def test_random_games_reach_the_battle_decisions():
    checked: set[type[a.Action]] = set()
    for seed in range(6):
        checked |= round_trip_game(seed, 2 + seed % 2)
    battle = {b.Maneuver, b.TakeBackManeuver, b.EndManeuver, b.Strike, b.AcceptConcession}
    assert battle | {b.ConcedeInstead, a.Decline, a.Concede, a.Fight} <= checked


def test_help_names_every_verb_in_one_short_message_and_each_topic_tells_its_use():
    overview = help_overview()
    assert len(overview) < 1900  # one Discord message, with room for mentions
    assert all(f"`{name}`" in overview for name in VERBS)
    for topic, kind in HELP_TOPICS.items():
        assert f"`help {topic}`" in overview
        told = help_topic(topic.upper())
        mine = [v for v in VERBS.values() if v.kind is kind]
        assert mine and all(f"`{v.usage}` — {v.summary}" in told for v in mine)
        assert not any(f"`{v.usage}`" in told for v in VERBS.values() if v.kind is not kind)


def test_help_for_one_command_by_any_of_its_names_and_a_word_that_is_neither():
    move = VERBS["move"]
    assert help_topic("move") == f"`{move.usage}` — {move.summary}"
    assert help_topic("?") == help_topic("help") and "(also `?`, `commands`)" in help_topic("?")
    with pytest.raises(InvalidNotation, match="neither a topic"):
        help_topic("bogus")
