"""The battleland pictures the service attaches: who fights whom, who acts, who waits, and
a chosen character's hexes in reach — read back from the drawing code's layout."""

from __future__ import annotations

import json
from dataclasses import asdict, replace

from bot.context import Place
from bot.narration.battle_text import battle_marks
from bot.offers import step as offer_step
from bot.outbox.codec import message_from_json, message_to_json
from bot.pictures import battleland_scene, render_with_package
from bot.replies import BattleMarks, BattleStage, Message, Picture, PictureKind
from bot.service import GameService
from engine.battle.position import Side
from engine.battle.state import BattleStep, ManeuverRecord
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.agent import caller, open_game, step
from tests.bot.test_battle_play import AGENTS, LIMIT
from tests.engine.battle.helpers import battle_game

CHANNEL = 30


def owner_name(state: GameState, marker: str) -> str:
    return state.player(state.legion(marker).owner).name


def check_header(picture: Picture) -> None:
    """The picture's header names both legions' owners, markers and sides, and the side
    the battle waits for."""
    state = picture.state
    battle = battle_of(state)
    assert battle is not None
    scene = battleland_scene(picture)
    assert scene is not None and scene.header is not None
    header = scene.header
    for side in Side:
        marker = battle.marker(side)
        assert header.text("marker", side) == marker
        assert header.text("owner", side) == owner_name(state, marker)
        assert header.text("height", side) == str(state.legion(marker).height)
        colour = state.player(state.legion(marker).owner).colour
        assert header.text("colour", side) == colour
    assert header.acting is battle.decider
    if battle.decider is not None:
        acting = owner_name(state, battle.marker(battle.decider))
        assert acting in header.text("status")
        assert f"turn {battle.turn} of 7" in header.text("status")


async def test_battle_news_pictures_name_the_sides_and_who_acts(service: GameService):
    """The message that opens a battle shows both legions, revealed, waiting by their
    edges (RULES §5.7, §8.3); each picture of the battle names the owners and the side
    to act — also once stored in the outbox and read back."""
    begun = during = 0
    for channel, agent in enumerate(AGENTS, start=CHANNEL):
        await open_game(service, channel, 2)
        for _ in range(LIMIT):
            game = await service.game_in(channel)
            if game is None or (begun and during >= 5):
                break
            _, _, replies = await step(service, channel, agent, fighting=True)
            public = replies.public
            if public is None or public.battle is None or public.picture is None:
                continue
            picture = public.picture
            if public.battle.stage is BattleStage.BEGINS:
                begun += 1
                assert picture.kind is PictureKind.BATTLELAND
                battle = battle_of(picture.state)
                assert battle is not None and battle.step is BattleStep.OPEN_ATTACKER
                scene = battleland_scene(picture)
                assert scene.on_board() == []
                for side in Side:  # the whole legion, as revealed
                    assert sorted(scene.names(side)) == sorted(battle.legion(side))
                    assert (
                        battle.legion(side) == picture.state.legion(battle.marker(side)).characters
                    )
                check_header(picture)
            elif public.battle.stage is BattleStage.DURING:
                during += 1
                check_header(picture)
                stored = message_from_json(message_to_json(public)).drawing
                assert stored is not None
                check_header(stored.of(picture.state))
                image = render_with_package(picture)
                assert image is not None and image.startswith(b"\x89PNG")
        if begun and during >= 5:
            break
    assert begun and during >= 5


def test_stored_marks_read_back_and_old_ones_still_read():
    marks = BattleMarks(
        last_move=("A1", "B2"),
        moves=((None, "A1"), ("A1", "B2")),
        strikes=(("B2", "C3", "2 hits", False), ("D4", "C3", "1 hit", True)),
        selected="B2",
        destinations=("C1", "C2"),
    )
    state = battle_game("Plains t2 attacker strike: Bk01 Lion@C3 | Rd01 Ogre@B2 Ranger@D4")
    message = Message("news", Picture(PictureKind.BATTLELAND, state, land=1, marks=marks))
    stored = message_from_json(message_to_json(message)).drawing
    assert stored is not None and stored.marks == marks
    old = asdict(BattleMarks(last_move=("A1", "B2"), strike_result="1 hit"))
    for key in ("moves", "strikes", "selected", "destinations"):
        del old[key]
    data = json.loads(message_to_json(message))
    data["picture"][3] = old  # as stored before the new marks
    stored = message_from_json(json.dumps(data)).drawing
    assert stored is not None
    assert stored.marks == BattleMarks(last_move=("A1", "B2"), strike_result="1 hit")


def test_the_marks_keep_every_maneuver_of_the_phase():
    state = battle_game("Plains t2 attacker maneuver: Bk01 Lion@C3 | Rd01 Ogre@B2 Ranger@D4")
    battle = battle_of(state)
    assert battle is not None
    records = (
        ManeuverRecord(Side.ATTACKER, "Ogre", "A1", "B2"),
        ManeuverRecord(Side.ATTACKER, "Ranger", "E1", "D4"),
    )
    moved = replace(battle, moves=records)
    marks = battle_marks(moved)
    assert marks.moves == (("A1", "B2"), ("E1", "D4"))
    assert marks.last_move == ("E1", "D4")
    ended = battle_marks(battle, before=moved)  # the phase just ended: its moves shown
    assert ended.moves == marks.moves


def test_a_characters_private_step_shows_its_hexes_in_reach():
    state = battle_game("Plains t2 attacker maneuver: Bk01 Lion@C3 | Rd01 Ogre@A1 Ranger@D4")
    seat = to_act(state)
    assert seat is not None
    found = offer_step(state, seat, "maneuver", ["A1"])
    ends = sorted(
        x.to
        for x in legal_actions(state, seat)
        if isinstance(x, b.Maneuver) and x.character == "A1"
    )
    picture = found.picture
    assert picture is not None and picture.kind is PictureKind.BATTLELAND
    assert picture.viewer is None  # the battle is public (RULES §5.7)
    assert picture.marks is not None
    assert picture.marks.selected == "A1" and list(picture.marks.destinations) == ends
    commands = [o.command for o in found.choices.offers()]
    assert all(any(c.endswith(f" {to}") or to in c for c in commands) for to in ends)
    assert offer_step(state, seat, "maneuver").picture is None  # the first step: no picture


async def test_the_choices_answer_carries_the_step_picture(service: GameService):
    """Through the service: a battle character's step answers with its picture."""
    for channel, agent in enumerate(AGENTS, start=CHANNEL + 10):
        await open_game(service, channel, 2)
        for _ in range(LIMIT):
            game = await service.game_in(channel)
            if game is None:
                break
            state = game.state
            battle = battle_of(state)
            seat = to_act(state)
            movers = [
                x.character
                for x in (legal_actions(state, seat) if seat is not None else [])
                if isinstance(x, b.Maneuver)
            ]
            if battle is not None and movers:
                command = f"choices maneuver {movers[0]}"
                replies = await service.submit(Place(channel), caller(channel, seat), command)
                answer = replies.ephemeral
                assert answer is not None and answer.picture is not None, command
                assert answer.picture.marks is not None and answer.picture.marks.destinations
                painted = await service.paint(answer)
                assert painted is not None and painted.image == b"\x89PNG-battleland"
                return
            await step(service, channel, agent, fighting=True)
    raise AssertionError("no battle maneuver came")


async def test_a_battles_start_is_drawn_as_it_was_though_the_game_went_on(service: GameService):
    """News is delivered after the game moved on (a computer answered at once): the
    battle's opening picture is drawn from the state at its own version, both legions
    still waiting; a masterboard that old is not drawn (a newer message has a newer one)."""
    from bot.storage import outbox

    channel = CHANNEL + 10
    await open_game(service, channel, 2)
    for _ in range(LIMIT):
        _, _, replies = await step(service, channel, AGENTS[0], fighting=True)
        public = replies.public
        if (
            public is not None
            and public.battle is not None
            and public.battle.stage is BattleStage.BEGINS
        ):
            break
    else:
        raise AssertionError("no battle began")
    async with service.db.reading() as db:
        rows = await outbox.waiting(db, channel)
    [opening] = [
        r
        for r in rows
        if r.kind == "post" and '"battle":["begins"' in r.body and r.version is not None
    ]
    drawing = message_from_json(opening.body).drawing
    assert drawing is not None and drawing.kind is PictureKind.BATTLELAND
    board = next(
        r for r in reversed(rows) if r.kind == "post" and '"picture":["masterboard"' in r.body
    )
    board_drawing = message_from_json(board.body).drawing
    assert board_drawing is not None and board.version is not None
    for _ in range(3):  # the game goes on before anything is delivered
        await step(service, channel, AGENTS[0], fighting=True)
    game = await service.game_in(channel)
    assert game is not None and game.n > opening.version
    drawn = await service._draw(drawing, channel, game.id, opening.version)
    assert drawn is not None
    picture, image = drawn
    assert image is not None and image.startswith(b"\x89PNG")
    battle = battle_of(picture.state)
    assert battle is not None and battle.step is BattleStep.OPEN_ATTACKER
    scene = battleland_scene(picture)
    assert scene is not None and scene.on_board() == []
    for side in Side:
        assert sorted(scene.names(side)) == sorted(battle.legion(side))
    assert await service._draw(board_drawing, channel, game.id, board.version) is None
