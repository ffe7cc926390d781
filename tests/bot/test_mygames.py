"""``mygames``: a player's open games across channels, those waiting for them first; since
when each waits (read back from the log); nothing private; one Discord message at most."""

from __future__ import annotations

import itertools
import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from bot.context import Caller, Place
from bot.dialect import TERMINAL, Slash
from bot.handlers.mine import MOST_LISTED, NO_GAME
from bot.service import GameService
from bot.storage import dms
from bot.storage import games as rows
from bot.storage.record import initial_state, replay_rows
from engine.characters import CHARACTERS
from engine.game.game_turns import game_turn
from engine.game.legal import legal_actions, to_act
from tests.bot.agent import pick
from tests.bot.tampering import truncate_action

ANN = Caller(1_000_000_000_000_000_001, "Ann")
BOB = Caller(1_000_000_000_000_000_002, "Bob")
CAT = Caller(1_000_000_000_000_000_003, "Cat")
PEOPLE = {p.name: p for p in (ANN, BOB, CAT)}
TIMESTAMP = re.compile(r"<t:(\d+):R>")
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> itertools.count[int]:
    """Every stored moment a minute after the one before (from :data:`START`, whatever
    the service's clock says), so that each action's ``created_at`` names it."""
    minutes = itertools.count()
    monkeypatch.setattr(
        rows,
        "now",
        lambda at=None: (START + timedelta(minutes=next(minutes))).isoformat(
            timespec="milliseconds"
        ),
    )
    return minutes


async def opened(
    service: GameService, channel: int, host: Caller, *guests: Caller, players: int = 0
) -> None:
    """A game in ``channel`` hosted by ``host`` with ``guests``, started when it is full
    (``players``: its seats, by default the host and the guests)."""
    place = Place(channel)
    players = players or len(guests) + 1
    steps = [(host, f"new players {players}"), *((g, "join") for g in guests)]
    full = len(guests) + 1 == players
    for who, text in steps + ([(host, "start")] if full else []):
        assert not (await service.submit(place, who, text)).error, text


async def play_until(service: GameService, channel: int, done, seed: int = 1, most: int = 400):
    """Random legal actions in ``channel`` until ``done(game)`` (the channel's open game,
    None once it is over)."""
    rng = random.Random(seed)
    for _ in range(most):
        game = await service.game_in(channel)
        if done(game):
            return game
        seat = to_act(game.state)
        who = PEOPLE[game.name_of(seat)]
        action = pick(legal_actions(game.state, seat), rng)
        assert not (await service.act(Place(channel), who, action)).error
    raise AssertionError("never happened")


def waits_for(user: Caller):
    return lambda game: game.user_of(to_act(game.state)) == user.user


def waits_for_someone_else(user: Caller):
    return lambda game: game.user_of(to_act(game.state)) != user.user


async def mygames(service: GameService, who: Caller, channel: int = 99) -> str:
    """What ``mygames`` answers ``who`` but its last line, the player's own choices."""
    *listing, choices = (await answer(service, who, channel)).split("\n")
    assert choices.startswith("Your choices: "), choices
    return "\n".join(listing)


async def answer(service: GameService, who: Caller, channel: int = 99) -> str:
    replies = await service.submit(Place(channel), who, "mygames")
    assert not replies.error and replies.public is None and not replies.private
    return replies.ephemeral.text


def unix(moment: str) -> int:
    return int(datetime.fromisoformat(moment).timestamp())


async def expected_since(service: GameService, game_id: int) -> tuple[int, int]:
    """Since when the game waits for its seat, worked out the plain way: every action
    replayed from the seed, the last one after which the awaited seat changed."""
    async with service.db.reading() as db:
        row = await rows.game(db, game_id)
        seats = await rows.seats(db, game_id)
        log = await rows.actions(db, game_id)
    state = initial_state(row, seats)[0]
    changes = [0]
    seen = [to_act(state)]

    def watch(n, after):
        if to_act(after) != seen[-1]:
            changes.append(n)
        seen.append(to_act(after))

    replay_rows(state, log, 0, watch)
    n = changes[-1]
    return unix(log[n - 1].created_at if n else row.updated_at), n


async def test_games_waiting_for_the_player_come_first_then_the_others(service, clock):
    await opened(service, 11, ANN, BOB)  # game 1: it will wait for Bob
    await opened(service, 12, BOB, ANN)  # game 2: it will wait for Ann
    await opened(service, 13, CAT, players=3)  # game 3: a lobby Ann joins
    assert not (await service.submit(Place(13), ANN, "join")).error
    await play_until(service, 11, waits_for_someone_else(ANN))
    game = await play_until(service, 12, lambda g: g.n >= 6 and waits_for(ANN)(g))
    text = await mygames(service, ANN)
    lines = text.splitlines()
    assert lines[0] == "Your open games: 3, 1 waiting for you."
    assert lines[1] == "**Waiting for you**"
    state = game.state
    whose = "yours" if game.user_of(state.active) == ANN.user else "Bob's"
    turn = f"turn {game_turn(state)}, {whose}"  # the game turn, as players count them
    assert game_turn(state) < state.turn.number
    assert lines[2].startswith(f"- Game #2 in <#12>, {turn}: waiting for you to ")
    assert lines[3] == "**Your other games**"
    assert lines[4].startswith("- Game #1 in <#11>, ") and "waiting for Bob to " in lines[4]
    assert lines[5].startswith("- Game #3 in <#13>: forming, 2 of 3 seats taken, opened <t:")
    assert len(lines) == 6
    assert [int(t) for t in TIMESTAMP.findall(lines[2])] == [(await expected_since(service, 2))[0]]
    assert "`" not in text  # no command hint: they would act in the channel they are typed in
    # nothing of anybody's legions: no character is named, no marker
    assert state.legions
    for name in CHARACTERS:
        assert not re.search(rf"\b{name}\b", text), name
    assert all(re.fullmatch(r"[A-Z][a-z]\d\d", marker) for marker in state.legions)
    assert not re.search(r"\b[A-Z][a-z]\d\d\b", text)  # no legion marker at all
    # the others see their own list
    bob = await mygames(service, BOB)
    assert bob.splitlines()[0] == "Your open games: 2, 1 waiting for you."
    assert "- Game #1 in <#11>" in bob.splitlines()[2]
    cat = (await mygames(service, CAT)).splitlines()
    async with service.db.reading() as db:
        lobby = await rows.game(db, 3)
    assert cat == [
        "Your open games: 1, none waiting for you.",
        f"- Game #3 in <#13>: forming, 2 of 3 seats taken, opened <t:{unix(lobby.created_at)}:R>",
    ]


def unix_of(minutes: int) -> int:
    return int((START + timedelta(minutes=minutes)).timestamp())


async def test_a_lobby_waits_since_it_was_opened(service, clock):
    await opened(service, 20, BOB, players=6)
    opened_at = unix_of(0)
    for _ in range(3):
        next(clock)  # time passes
    assert not (await service.submit(Place(20), ANN, "join")).error
    text = await mygames(service, ANN)
    assert text.splitlines()[1] == (
        f"- Game #1 in <#20>: forming, 2 of 6 seats taken, opened <t:{opened_at}:R>"
    )


async def test_since_is_the_action_that_handed_the_seat_its_decision(db_target, clock):
    """With a snapshot every 2 actions, a seat that keeps the decision over several actions
    makes the list read the log back across snapshots; at every step the moment it gives
    is the one a replay from the seed gives."""
    service = await GameService.open(db_target, seeds=lambda: 7, snapshot_every=2)
    try:
        await opened(service, 30, ANN, BOB, CAT)
        rng = random.Random(3)
        across = 0
        for _ in range(150):
            game = await service.game_in(30)
            seat = to_act(game.state)
            who = PEOPLE[game.name_of(seat)]
            text = await mygames(service, who)
            [line] = [x for x in text.splitlines() if x.startswith("- Game #1 ")]
            [found] = TIMESTAMP.findall(line)
            expected, handed = await expected_since(service, 1)
            assert int(found) == expected, (game.n, line)
            across += handed <= game.n - game.n % 2  # at or before the newest snapshot
            action = pick(legal_actions(game.state, seat), rng)
            assert not (await service.act(Place(30), who, action)).error
        assert across > 5  # the moment was often before the newest snapshot
    finally:
        await service.close()


async def test_someone_without_a_game_is_told_how_to_open_one(service):
    text = await mygames(service, ANN)
    assert text == NO_GAME and "`new`" in text
    await opened(service, 40, BOB, CAT)
    assert await mygames(service, ANN) == NO_GAME  # others' games are not listed
    await opened(service, 41, ANN, players=3)
    assert not (await service.submit(Place(41), ANN, "cancel")).error
    assert await mygames(service, ANN) == NO_GAME  # nor those no longer open


async def test_a_game_that_cannot_be_read_back_is_named_and_the_others_listed(service, db_target):
    await opened(service, 50, ANN, BOB)
    await play_until(service, 50, lambda g: g.n >= 3)
    await opened(service, 51, BOB, ANN)
    truncate_action(db_target, 1, 2)
    service.forget()
    text = await mygames(service, ANN)
    assert "- Game #1 in <#50>: its record cannot be read back" in text
    assert "- Game #2 in <#51>, before turn 1: waiting for " in text


async def test_thirty_games_fit_one_message_quickly(service, monkeypatch):
    """A player in 30 games (long channel ids, long names, games well under way, every
    choice of theirs set, the longest words) gets at most 20 of them, then how many more,
    then their choices, within one Discord message; of each game's log only the rows from
    the snapshot before the awaited seat's turn came are read."""
    long_ann = Caller(ANN.user, "A" * 32)
    long_bob = Caller(BOB.user, "B" * 31 + "b")
    PEOPLE.update({long_ann.name: long_ann, long_bob.name: long_bob})
    channels = [1_234_567_890_123_456_789 + i for i in range(30)]
    for index, channel in enumerate(channels):
        host, guest = (long_ann, long_bob) if index % 2 else (long_bob, long_ann)
        await opened(service, channel, host, guest)
        if index < 10:
            await play_until(service, channel, lambda g: g is None or g.n >= 40, seed=index)
    back = (datetime.now(UTC) + timedelta(days=30)).date().isoformat()
    for command in (
        "quiet 22:00-08:00 America/Argentina/ComodRivadavia",
        "autostrike forced",
        "fighton on",
        f"away until {back} standin <@{CAT.user}>",
    ):
        assert not (await service.submit(Place(99), long_ann, command)).error, command
    async with service.db.transaction() as db:
        await dms.close_dms(db, long_ann.user, "2026-03-01")
    every = service._snapshot_every  # the service keeps a snapshot every so many actions
    needed = 0
    for channel in channels:
        game = await service.game_in(channel)
        if game is not None and game.state is not None and game.n:
            _, since = await expected_since(service, game.id)
            needed += game.n - since + since % every + every
    service.forget()
    read = [0]
    actions = rows.actions

    async def counted(*args, **kwargs):
        found = await actions(*args, **kwargs)
        read[0] += len(found)
        return found

    monkeypatch.setattr(rows, "actions", counted)
    whole = await answer(service, long_ann)
    text = whole.rsplit("\n", 1)[0]
    assert 0 < read[0] <= needed, (read[0], needed)
    lines = text.splitlines()
    listed = [x for x in lines if x.startswith("- Game #")]
    assert len(listed) <= MOST_LISTED
    count = int(lines[0].split()[3].rstrip(","))
    assert count >= 28  # a random game may have ended
    assert lines[-1] == f"… and {count - len(listed)} more"
    choices = whole.split("\n")[-1]
    assert "DMs closed" in choices and "ComodRivadavia" in choices and "stands in" in choices
    assert "fighton on" in choices
    assert len(Slash().render(whole)) <= 2000
    assert "<t:" not in TERMINAL.render(whole)


async def test_the_players_own_choices_close_the_answer(service, clock):
    """Under the games (or the word that there are none): DMs, reminders and quiet hours,
    autostrike, fighton and time away, as the player set them; only they see it."""
    place = Place(98)
    plain = (await answer(service, ANN)).split("\n")[-1]
    assert plain == "Your choices: DMs on · reminders on · autostrike off · fighton off."
    for command in ("dms off", "quiet 22:00-08:00 Europe/Paris", "autostrike all", "fighton on"):
        assert not (await service.submit(place, ANN, command)).error, command
    assert (await answer(service, ANN)).split("\n")[-1] == (
        "Your choices: DMs off · reminders on, quiet 22:00–08:00 (Europe/Paris) · autostrike all"
        " · fighton on."
    )
    await opened(service, 60, ANN, BOB)
    back = (datetime.now(UTC) + timedelta(days=30)).date().isoformat()
    assert not (await service.submit(place, ANN, f"away until {back} standin ai")).error
    text = await answer(service, ANN)
    assert text.startswith("Your open games: 1, ")
    assert re.fullmatch(
        r"Your choices: DMs off · reminders on, quiet 22:00–08:00 \(Europe/Paris\) · "
        r"autostrike all · fighton on · away until <t:\d+:f> \(the computer plays for you\)\.",
        text.split("\n")[-1],
    ), text
    assert not (await service.submit(place, ANN, "reminders off")).error
    assert " · reminders off · " in (await answer(service, ANN)).split("\n")[-1]
    assert (await answer(service, BOB)).split("\n")[-1] == (
        "Your choices: DMs on · reminders on · autostrike off · fighton off."
    )  # each their own
    async with service.db.transaction() as db:  # Discord refused a DM to Bob
        await dms.close_dms(db, BOB.user, "2026-03-01")
    closed = (await answer(service, BOB)).split("\n")[-1]
    assert closed.startswith("Your choices: DMs closed (Discord refused them) · "), closed
