"""A finished game stays visible in its channel until another is opened there: ``status``,
``history``, ``board``, ``legions`` and ``record`` answer for it, the same for everyone
(every answer is public once the game is over), with the result and the final scores.
A cancelled or damaged game is no finished game; a new game takes the channel over."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.context import Place
from bot.handlers.finished import result_lines
from bot.handlers.info import handed_on
from bot.narration.describe import lands_text, legions_text
from bot.records.public import read_record
from bot.replies import PictureKind
from bot.service import GameService
from bot.storage import games as rows
from bot.storage.eventlog import events_from_text
from bot.storage.record import Game, load_game
from engine.game import actions as a
from engine.game.events import TITAN_LOST, WITHDREW, MarkersInherited, PlayerEliminated
from engine.game.legal import legal_actions, to_act
from engine.game.state import Result
from tests.bot.agent import caller, open_game, step
from tests.bot.tampering import execute

CHANNEL = 14
HERE = Place(CHANNEL)
AGENT = 3
"""With the fixtures' seed, this fighting agent's game ends quickly by a lost Titan."""
SEATED = caller(CHANNEL, 1)
SPECTATOR = caller(99, 0)
"""A user without a seat."""
ASKED = ("status", "history 5", "board", "legions")


async def ask(service: GameService, text: str, who=SEATED, place: Place = HERE):
    return await service.submit(place, who, text)


async def stored(service: GameService, channel: int = CHANNEL) -> Game:
    """The channel's newest game as stored, loaded by id (not by the channel's lookups)."""
    async with service.db.reading() as db:
        row = await rows.latest_game(db, channel)
        assert row is not None
        return await load_game(db, row)


async def eliminations(service: GameService, game: Game) -> list[PlayerEliminated]:
    """The eliminations the game's log holds, read action by action."""
    async with service.db.reading() as db:
        log = await rows.actions(db, game.id)
    return [
        e
        for entry in log
        for e in events_from_text(entry.events)
        if isinstance(e, PlayerEliminated)
    ]


async def fought_to_the_end(service: GameService) -> Game:
    """A two-player game played by the fighting agent until it is over (should nobody's
    Titan fall soon, the active player withdraws once someone has scored); the game as
    stored at its end."""
    await open_game(service, CHANNEL, 2)
    for _ in range(3000):
        game = await service.game_in(CHANNEL)
        if game is None:
            break
        state = game.state
        scored = any(p.score for p in state.players)
        if scored and a.Withdraw() in legal_actions(state, state.active):
            assert not (await ask(service, "withdraw confirm", caller(CHANNEL, state.active))).error
        else:
            await step(service, CHANNEL, AGENT, fighting=True)
    else:
        raise AssertionError("the game should end")
    game = await stored(service)
    assert game.state is not None and game.state.result is not None
    assert any(p.score for p in game.state.players)
    return game


async def withdrawn_at_once(service: GameService) -> Game:
    """A two-player game that ends while the colours are chosen: the player not choosing
    withdraws."""
    await open_game(service, CHANNEL, 2)
    game = await service.game_in(CHANNEL)
    leaving = 1 - to_act(game.state)
    assert not (await ask(service, "withdraw confirm", caller(CHANNEL, leaving))).error
    assert await service.game_in(CHANNEL) is None
    return await stored(service)


async def test_status_after_the_end_tells_the_result_and_every_final_score(service):
    game = await fought_to_the_end(service)
    state = game.state
    before = await ask(service, "status", SPECTATOR, Place(CHANNEL + 1))
    assert "There is no game in this channel" in before.ephemeral.text  # another channel
    text = (await ask(service, "status")).ephemeral.text
    winners = " and ".join(f"**{game.name_of(s)}**" for s in state.result.winners)
    assert text.startswith(f"Game #{game.id} is over ({state.result.reason}): {winners} win")
    for player in state.players:
        line = f"  {player.name} ({player.colour}): {player.score} points"
        assert line in text.splitlines() or any(
            row.startswith(line + ", ") for row in text.splitlines()
        ), (line, text)
    [loser] = [p for p in state.players if p.eliminated]
    [winner] = state.result.winners
    how = f"out of the game (Titan lost), eliminated by {game.name_of(winner)}"
    if WITHDREW in {e.reason for e in await eliminations(service, game)}:
        how = "withdrew"  # (the agent's Titans kept clear of each other)
    assert f"  {loser.name} ({loser.colour}): {loser.score} points, {how}" in text.splitlines()
    assert "`record`" in text and "`new`" in text
    assert "There is no game" not in text and "Waiting for" not in text
    assert (await ask(service, "status", SPECTATOR)).ephemeral.text == text  # all public


async def test_status_says_who_withdrew(service):
    game = await withdrawn_at_once(service)
    [left] = [p for p in game.state.players if p.eliminated]
    [winner] = game.state.result.winners
    text = (await ask(service, "status", SPECTATOR)).ephemeral.text
    assert text.startswith(f"Game #{game.id} is over (last Titan standing): ")
    assert f"**{game.name_of(winner)}** wins." in text.splitlines()[0]
    assert f"  {left.name} (no colour): 0 points, withdrew" in text.splitlines()


async def test_history_board_and_legions_answer_for_the_finished_game(service):
    game = await fought_to_the_end(service)
    state = game.state
    history = (await ask(service, "history 5", SPECTATOR)).ephemeral.text
    last = history.splitlines()[-1]
    assert last.startswith(f"#{game.n} ") and f"Game over ({state.result.reason})" in last
    board = await ask(service, "board", SPECTATOR)
    occupied = sorted({leg.land for leg in state.legions.values()})
    assert state.legions and board.ephemeral.text.startswith(f"Game #{game.id} is over")
    assert board.ephemeral.text.endswith(lands_text(state, occupied, None))
    picture = board.ephemeral.picture
    assert picture.kind is PictureKind.MASTERBOARD and picture.state == state
    assert (await service.paint(board.ephemeral)).image == b"\x89PNG-masterboard"
    legions = await ask(service, "legions")
    assert legions.ephemeral.text == legions_text(state, None)  # everyone's view
    assert legions.ephemeral.picture.viewer is None
    for text in ASKED:  # whoever asks, seated or not, reads the same
        mine, theirs = await ask(service, text), await ask(service, text, SPECTATOR)
        assert not mine.error and mine.ephemeral.text == theirs.ephemeral.text, text
    battle = await ask(service, "battle")
    assert battle.error and "no battle is being fought" in battle.ephemeral.text
    legal = await ask(service, "legal")
    assert legal.error and f"game #{game.id} is over" in legal.ephemeral.text


async def test_the_record_is_of_the_game_status_shows(service):
    game = await fought_to_the_end(service)
    assert (await ask(service, "status", SPECTATOR)).ephemeral.text.startswith(f"Game #{game.id} ")
    replies = await ask(service, "record", SPECTATOR)
    json_file, _ = replies.ephemeral.attachments
    document = read_record(json_file.data)
    assert document["game"] == game.id and document["result"]["ended"] == "over"
    assert document["result"]["winners"] == list(game.state.result.winners)


async def test_a_new_game_takes_the_channel_over(service):
    game = await fought_to_the_end(service)
    assert not (await ask(service, "new players 3", SPECTATOR)).error
    status = (await ask(service, "status")).ephemeral.text
    assert status.startswith(f"Game #{game.id + 1} is forming (1 of 3 seats")
    assert "is over" not in status
    for text in ("history", "board", "legions"):
        refused = await ask(service, text)
        assert refused.error and "has not started yet" in refused.ephemeral.text, text
    assert (await ask(service, "record")).error  # the channel's game is the new one
    earlier = await ask(service, f"record {game.id}")
    assert not earlier.error and f"game #{game.id}" in earlier.ephemeral.text
    # The new game, cancelled, took the channel over all the same: nothing is shown.
    assert not (await ask(service, "cancel", SPECTATOR)).error
    after = (await ask(service, "status")).ephemeral.text
    assert after == "There is no game in this channel: open one with `new`."


async def test_a_channel_that_never_had_a_game_has_none(service):
    status = await ask(service, "status")
    assert status.ephemeral.text == "There is no game in this channel: open one with `new`."
    for text in ("history", "board", "legions", "battle", "legal"):
        refused = await ask(service, text)
        assert refused.error and "there is no game in this channel" in refused.ephemeral.text
    refused = await ask(service, "record")
    assert refused.error and "this channel has no game" in refused.ephemeral.text


async def test_a_cancelled_game_is_no_finished_game(service):
    await open_game(service, CHANNEL, 2)
    assert not (await ask(service, "cancel", caller(CHANNEL, 0))).error
    status = (await ask(service, "status")).ephemeral.text
    assert status == "There is no game in this channel: open one with `new`."
    refused = await ask(service, "history")
    assert refused.error and "there is no game in this channel" in refused.ephemeral.text
    assert not (await ask(service, "record")).error  # its record is public all the same


async def test_a_finished_game_whose_record_is_damaged_is_not_shown(service, db_target, caplog):
    game = await fought_to_the_end(service)
    assert game.n > 3
    execute(db_target, "DELETE FROM snapshots WHERE game = ? AND n > 0", game.id)
    execute(db_target, "DELETE FROM actions WHERE game = ? AND n = ?", game.id, game.n - 1)
    status = (await ask(service, "status")).ephemeral.text
    assert status == "There is no game in this channel: open one with `new`."
    history = await ask(service, "history")
    assert history.error and not history.fault  # a refusal, not an apology
    assert f"game {game.id} (channel {CHANNEL}), over, is damaged" in caplog.text


async def test_the_finished_game_of_a_channel_is_its_newest_game_once_over(service):
    game = await withdrawn_at_once(service)
    async with service.db.reading() as db:
        assert (await rows.finished_game(db, CHANNEL)).id == game.id
        assert await rows.finished_game(db, CHANNEL + 1) is None
    assert not (await ask(service, "new", SPECTATOR)).error
    async with service.db.reading() as db:
        assert await rows.finished_game(db, CHANNEL) is None


async def test_history_names_an_eliminated_players_legions_after_him(service):
    """The markers an eliminated player's eliminator takes (RULES §12.2) are his in the
    lines before, though the finished game's state gives them to the eliminator."""
    game = await fought_to_the_end(service)
    [loser] = [p for p in game.state.players if p.eliminated]
    history = (await ask(service, "history 10", SPECTATOR)).ephemeral.text
    taken = re.search(r"takes the markers ([A-Za-z0-9, ]+)\.", history)
    assert taken is not None, history  # (the agent's game ends by a lost Titan)
    handed = set(taken[1].split(", "))
    before = history[: taken.start()]
    # "P1's legions are eliminated: Rd02 (Angel, Ogre), Rd03 (Lion)." names them once, first
    folded = r"([^.]+?)'s legions are eliminated: ((?:[A-Z][a-z]\d\d \([^)]*\)(?:, )?)+)\."
    named = [
        (marker, run[1].strip())
        for run in re.finditer(folded, before)
        for marker in re.findall(r"([A-Z][a-z]\d\d) \(", run[2])
    ]
    named += re.findall(r"\b([A-Z][a-z]\d\d) \(([^)]+)\)", re.sub(folded, "", before))
    assert {m for m, _ in named} & handed
    assert all(owner == loser.name for marker, owner in named if marker in handed), named


def test_markers_handed_on_are_found_with_their_holder_before():
    told = [
        [PlayerEliminated(2, 0, TITAN_LOST), MarkersInherited(0, ("Rd01", "Rd02"))],
        [],
        [
            PlayerEliminated(1, None, WITHDREW),
            PlayerEliminated(3, 0, TITAN_LOST),
            MarkersInherited(0, ("Gd01",)),
        ],
    ]
    assert handed_on(told) == [(("Rd01", "Rd02"), 2), (("Gd01",), 3)]


async def test_shared_wins_and_adjudicated_games_read_as_such(service):
    game = await withdrawn_at_once(service)
    shared = replace(game.state, result=Result((0, 1), "time limit"))
    [head, *_] = result_lines(replace(game, state=shared), {})
    assert head.startswith(f"Game #{game.id} is over (time limit): **P0** and **P1** win.")
    ruled = result_lines(replace(game, state=replace(game.state, result=None)), {})
    assert ruled[0].startswith(f"Game #{game.id} is over: an organiser adjudicated it.")
    assert ruled[1] == "Final scores:" and "`record`" in ruled[-1]
