"""The end of a game in pictures: its course read from the log (names, places, scores by
game turn, Titans' fates, turns, battles, one public board per player turn), the final card
on the end's news — and no end picture before the end — and ``replay``, refused until the
game is over, then answered with the animation, drawn by the replays' own painter."""

from __future__ import annotations

from bot.context import Place
from bot.pictures import card_of
from bot.records.course import course_of, game_course
from bot.replies import PictureKind
from bot.storage import games as rows
from bot.storage.eventlog import events_from_text
from bot.storage.record import initial_state
from bot.tournament.places import result_of
from engine.game.events import BattleBegun, GameOver, PlayerEliminated, TurnEnded
from engine.game.game_turns import game_turn
from engine.game.view import view
from render.final_card import card_layout, ordinal
from tests.bot.agent import caller, open_game
from tests.bot.test_finished_games import CHANNEL, SEATED, SPECTATOR, fought_to_the_end
from tests.bot.test_outbox import Recorder

HERE = Place(CHANNEL)


async def test_the_course_is_read_from_the_whole_log(service):
    game = await fought_to_the_end(service)
    state = game.state
    async with service.db.reading() as db:
        log = await rows.actions(db, game.id)
    course = await game_course(service.db, game.row)
    events = [events_from_text(entry.events) for entry in log]
    assert course.over and course.game == game.id
    assert course.names == tuple(p.name for p in state.players)
    assert course.final_scores == tuple(p.score for p in state.players)
    places = result_of(state, events, players=[str(p.seat) for p in state.players])
    assert course.places == tuple(places.of(str(p.seat)).place for p in state.players)
    assert course.turns == game_turn(state) and course.player_turns == state.turn.number
    flat = [e for told in events for e in told]
    assert course.battles == sum(isinstance(e, BattleBegun) for e in flat)
    ended = sum(any(isinstance(e, TurnEnded) for e in told) for told in events)
    assert len(course.frames) == ended + 1  # each player turn, and the end
    assert len(course.scores) == course.turns + 1 and course.scores[0] == (0, 0)
    for seat in range(2):  # a score only grows (points are never taken away)
        series = [turn[seat] for turn in course.scores]
        assert series == sorted(series)
    [out] = [e for e in flat if isinstance(e, PlayerEliminated)]
    [over] = [e for e in flat if isinstance(e, GameOver)]
    assert course.fates[over.winners[0]] == "Titan stands: winner"
    assert course.fates[out.seat].startswith(("Titan lost", "withdrew"))
    last = course.frames[-1].board  # the public board: markers, owners, lands, heights
    public = view(state, None)
    assert [(m.marker, m.owner, m.land, m.height) for m in last.legions] == [
        (leg.marker, leg.owner, leg.land, leg.height) for leg in public.legions
    ]
    assert course.frames[-1].caption == course.result


async def test_the_card_carries_each_players_place_name_score_and_fate(service):
    game = await fought_to_the_end(service)
    course = await game_course(service.db, game.row)
    facts, series = card_of(course)
    texts = card_layout(facts, series).texts()
    for seat in course.by_place():
        row = texts.index(course.names[seat])
        assert texts[row - 1] == ordinal(course.places[seat])
        assert texts[row + 1 : row + 3] == [str(course.final_scores[seat]), course.fates[seat]]
        assert f"{course.names[seat]} {course.final_scores[seat]}" in texts  # the chart's line
    assert course.result in texts and texts[0] == f"TITAN · game #{game.id} is over"


async def test_a_running_game_has_a_course_but_no_end(service):
    await open_game(service, CHANNEL, 2)
    game = await service.game_in(CHANNEL)
    async with service.db.reading() as db:
        log = await rows.actions(db, game.id)
        seats = await rows.seats(db, game.id)
    course = course_of(game.id, initial_state(game.row, seats)[0], log)
    assert not course.over and course.places == (1, 1)


async def test_the_final_card_comes_with_the_end_and_never_before(service, renderer):
    recorder = Recorder()
    await service.deliver_with(recorder)
    game = await fought_to_the_end(service)
    await service.deliverer.idle()
    kinds = [picture.kind for picture in renderer.pictures]
    assert kinds.count(PictureKind.FINAL) == 1 and PictureKind.REPLAY not in kinds
    [card] = [p for p in renderer.pictures if p.kind is PictureKind.FINAL]
    assert card.state.result is not None and card.course is not None
    assert card.course.over and card.course.game == game.id and card.viewer is None
    [end] = [s for s in recorder.sent if s.kind in ("post", "edit") and "Game over" in s.text]
    assert end.image == b"\x89PNG-final"
    for picture in renderer.pictures:
        assert picture.kind is not PictureKind.FINAL or picture.state.result is not None


async def test_replay_is_refused_until_the_end_then_drawn_by_its_own_painter(service):
    await open_game(service, CHANNEL, 2)
    early = await service.submit(HERE, SPECTATOR, "replay")
    assert early.error and "is not over" in early.ephemeral.text
    assert early.ephemeral.picture is None
    assert not (await service.submit(HERE, caller(CHANNEL, 0), "cancel")).error
    await fought_to_the_end(service)  # the channel's next game, played to its end
    answer = await service.submit(HERE, SEATED, "replay")
    assert not answer.error and answer.public is None and not answer.private
    picture = answer.ephemeral.picture
    assert picture is not None and picture.kind is PictureKind.REPLAY
    assert picture.filename == "replay.gif" and picture.course is not None
    assert picture.course.over and "The replay of game #" in answer.ephemeral.text
    boards = service.painter.drawn
    painted = await service.paint(answer.ephemeral)
    assert painted is not None and painted.image == b"\x89PNG-replay"
    assert service.replays.drawn == 1 and service.painter.drawn == boards


async def test_replay_names_a_game_of_this_channel_that_is_over(service):
    await open_game(service, CHANNEL, 2)
    first = await service.game_in(CHANNEL)
    cancelled = await service.submit(HERE, caller(CHANNEL, 0), "cancel")
    assert not cancelled.error
    refused = await service.submit(HERE, SPECTATOR, f"replay {first.id}")
    assert refused.error and "was cancelled" in refused.ephemeral.text
    elsewhere = await service.submit(Place(CHANNEL + 1), SPECTATOR, f"replay {first.id}")
    assert elsewhere.error and "this channel has no game #" in elsewhere.ephemeral.text
