"""``/titan me autostrike``: a player's forced battle actions (RULES §9.1, §9.4), or all
their strike-phase decisions (§9, §10), are made for them at once; ``/titan me fighton``:
their chances to concede outright (§5.8) are answered "fight on" at once; the others' wait
for them as before."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.handlers.autostrike import AUTOSTRIKE, FIGHTON
from bot.storage import games as rows
from bot.storage.record import Game
from engine.game.legal import to_act
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import ANN, BOB, command, open_game
from tests.bot.test_autostrike import forced_seat, striking_person
from tests.bot.test_fighton import window_of

STEPS = 1500


@dataclass
class Played:
    """Ann's seat, the actions made for her, and how often the game waited for each
    player's decision of the kind watched."""

    ann: int
    made: list[rows.ActionRow]
    waited: dict[int, int]


CAUSES = {"autostrike": AUTOSTRIKE, "fighton": FIGHTON}
"""Each choice's command and the cause its actions are logged with."""
ANSWERS = {"autostrike": "Autostrike {choice}", "fighton": "Fight on:"}
"""How each command's answer begins."""


async def ann_plays_with(
    fake: FakeDiscord,
    titan,
    setting: tuple[str, str],
    waits_for: Callable[[Game], int | None],
    enough: int,
) -> Played:
    """A game by clicks in which Ann set ``/titan me VERB choice:CHOICE`` (``setting``;
    Bob did not), played until ``enough`` actions were made for her and the game waited
    for Bob's decision of the kind ``waits_for`` finds (the seat it waits for, or None);
    the news delivered."""
    verb, choice = setting
    await open_game(fake)
    answer = await command(fake, ANN, "titan", "me", verb, choice=choice)
    [said] = fake.ephemeral(answer)
    assert said.content.startswith(ANSWERS[verb].format(choice=choice)), said.content
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    started = await driver.service.game_in(p.CHANNEL_ID)
    assert started is not None
    played = Played(started.seat_of(ANN), [], {ANN: 0, BOB: 0})
    for _ in range(STEPS):
        game = await driver.service.game_in(p.CHANNEL_ID)
        if game is None:
            break
        seat = waits_for(game)
        if seat is not None:
            played.waited[game.user_of(seat)] += 1
        async with driver.service.db.reading() as db:
            played.made = [r for r in await rows.actions(db, game.id) if r.cause == CAUSES[verb]]
        if len(played.made) >= enough and played.waited[BOB]:
            break
        await driver.step()
    await titan.bot.service.ai.idle()
    await titan.bot.service.deliverer.idle()
    return played


def marked_lines(fake: FakeDiscord, cause: str = AUTOSTRIKE) -> list[str]:
    """Every line of news that says it was made by ``cause``, in the battles' threads and
    the channel, each once (the blows that end a battle are told in both)."""
    places = [p.CHANNEL_ID, *(thread.id for thread in fake.threads())]
    lines = (
        line
        for place in places
        for message in fake.in_channel(place)
        for line in message.content.split("\n")
        if f"({cause})" in line
    )
    return list(dict.fromkeys(lines))


async def test_autostrike_makes_a_players_forced_strikes_and_only_theirs(fake: FakeDiscord, titan):
    played = await ann_plays_with(fake, titan, ("autostrike", "forced"), forced_seat, 1)
    assert played.waited[ANN] == 0 and played.waited[BOB] > 0
    assert played.made and {r.seat for r in played.made} == {played.ann}
    told = marked_lines(fake)
    assert len(told) == len(played.made)
    assert all(" strikes " in line and line.endswith(" (autostrike).") for line in told), told


async def test_autostrike_all_makes_every_strike_decision_of_its_player(fake: FakeDiscord, titan):
    """Ann at ``all``, Bob off, by clicks: the game never waits for Ann's strike phase, which
    she is never offered to click, and waits for Bob's; each decision made for her is told
    with its mark."""
    played = await ann_plays_with(fake, titan, ("autostrike", "all"), striking_person, 6)
    assert played.waited[ANN] == 0 and played.waited[BOB] > 0
    assert len(played.made) >= 6 and {r.seat for r in played.made} == {played.ann}
    told = marked_lines(fake)
    assert len(told) == len(played.made), told
    assert all(line.endswith(" (autostrike).") for line in told), told


async def test_fighton_answers_every_window_of_its_player(fake: FakeDiscord, titan):
    """Ann has ``fighton on``, Bob not, by clicks: the game never waits for Ann to concede
    or fight on, and waits for Bob; each answer made for her is told with its mark."""
    played = await ann_plays_with(fake, titan, ("fighton", "on"), window_of, 2)
    assert played.waited[ANN] == 0 and played.waited[BOB] > 0
    assert len(played.made) >= 2 and {r.seat for r in played.made} == {played.ann}
    told = marked_lines(fake, FIGHTON)
    assert len(told) == len(played.made), told
    assert all(line.endswith(" (fighton).") and "concede" in line for line in told), told


async def test_a_player_is_called_for_each_decision_left_to_them_and_no_other(
    fake: FakeDiscord, titan
):
    """Ann has ``autostrike all`` and ``fighton on``, Bob neither, by clicks. Whenever the
    game comes to wait for a player after waiting for the other, that player was pinged
    in the channel or a thread; nobody is pinged for a decision the game makes for them
    (between two clicks, whoever was pinged is the one the game then waits for)."""
    await open_game(fake)
    for verb, choice in (("autostrike", "all"), ("fighton", "on")):
        [said] = fake.ephemeral(await command(fake, ANN, "titan", "me", verb, choice=choice))
        assert not said.content.startswith("⚠"), said.content
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    service = titan.bot.service
    seen = {m.id for m in fake.in_channel(p.CHANNEL_ID)}  # the start calls everyone
    before: int | None = None
    handed = {ANN: 0, BOB: 0}
    for _ in range(STEPS):
        await service.ai.idle()
        await service.deliverer.idle()
        game = await service.game_in(p.CHANNEL_ID)
        if game is None:
            break
        waiting = game.user_of(to_act(game.playing()))  # type: ignore[arg-type]
        places = [p.CHANNEL_ID, *(thread.id for thread in fake.threads())]
        new = [m for place in places for m in fake.in_channel(place) if m.id not in seen]
        seen.update(m.id for m in new)
        called = {user for m in new for user in m.notified}
        assert called <= {waiting}, (called, waiting, game.n)
        if before is not None and waiting != before:
            assert waiting in called, (waiting, game.n)
            handed[waiting] += 1
        before = waiting
        await driver.step()
    async with service.db.reading() as db:
        made = [r for r in await rows.actions(db, 1) if r.cause in (AUTOSTRIKE, FIGHTON)]
    assert {r.cause for r in made} == {AUTOSTRIKE, FIGHTON}
    assert handed[ANN] >= 5 and handed[BOB] >= 5, handed
