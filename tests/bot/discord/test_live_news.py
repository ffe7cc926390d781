"""A calm channel with a picture after every action: whole games on the fake Discord.

Within one player's run of actions the bot edits one live message (its text grows, its
picture is the board as it now is); a hand-off is a new message pinging whoever must act;
each battle is told in a thread of its own, opened from a new message announcing it in
the channel and archived when it ends; a decision's buttons leave the message once it is made.
The pictures are drawn by a renderer that writes a fingerprint of the state drawn into the
PNG, so a test can tell which state a picture shows.
"""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image, PngImagePlugin

from bot.narration.heading import BATTLE_ENDS
from bot.replies import Picture
from bot.storage.record import encode_state
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState, Stage
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import Running, mistakes, start_bot
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Sent
from tests.bot.discord.helpers import command, open_game

MOST_STEPS = 3000
DONE = (b.EndManeuver, b.EndStrikes, a.EndMovement, a.EndTurn)
"""What ``/done`` gives, whichever phase it is."""


def fingerprint(state: GameState) -> str:
    return hashlib.sha256(encode_state(state).encode()).hexdigest()[:16]


def fingerprinting_png(picture: Picture) -> bytes:
    """A small PNG carrying the fingerprint of the state it stands for."""
    info = PngImagePlugin.PngInfo()
    info.add_text("state", fingerprint(picture.state))
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (40, 80, 120)).save(out, format="PNG", pnginfo=info)
    return out.getvalue()


def drawn(message: Sent) -> str | None:
    """The fingerprint of the state ``message``'s picture shows (None without one)."""
    for name, data in message.files:
        if name.endswith(".png"):
            with Image.open(io.BytesIO(data)) as image:
                text = image.info.get("state")
            return text if isinstance(text, str) else None
    return None


def game_messages(fake: FakeDiscord, archived: bool = True) -> list[Sent]:
    """The bot's messages in the game's channel and its threads (but those archived, where
    a battle's end was told, unless ``archived``), as they are now."""
    places = {p.CHANNEL_ID} | {
        t.id for t in fake.threads() if t.parent == p.CHANNEL_ID and (archived or not t.archived)
    }
    return [
        m
        for m in fake.messages.values()
        if m.channel in places and not m.ephemeral and not m.deleted and m.token is None
    ]


def fighting(state: GameState) -> bool:
    engagement = state.engagement
    return engagement is not None and engagement.stage is Stage.BATTLE


def newest(messages: list[Sent]) -> Sent:
    """The message whose words changed last (posted or edited)."""
    return max(messages, key=lambda m: max(m.id, m.said))


@pytest.fixture
async def painting(fake: FakeDiscord, tmp_path) -> Running:
    running = await start_bot(fake, tmp_path / "games.sqlite3", renderer=fingerprinting_png)
    try:
        yield running
    finally:
        await running.stop()
    assert mistakes(fake) == []


@pytest.mark.parametrize("seed", [11, 12])
async def test_a_whole_game_keeps_the_channel_calm_and_the_picture_current(fake, painting, seed):
    await open_game(fake)
    driver = Driver(fake, painting, seed=seed)
    battles = hand_offs = steps = 0
    found = await driver.state()
    while found is not None and steps < MOST_STEPS:
        before = {m.id for m in game_messages(fake)}
        before_step = found[2]
        awaited, engaged = to_act(before_step), before_step.engagement
        step = await driver.step()
        if step is None:
            break
        steps += 1
        found = await driver.state()
        messages = game_messages(fake)
        made = [m for m in messages if m.id not in before]
        in_channel = [m for m in made if m.channel == p.CHANNEL_ID]
        last = newest(game_messages(fake, archived=False))
        if found is not None:
            # after every action the newest game message shows the state as it now is
            assert drawn(last) == fingerprint(found[2]), f"step {steps}: {last.content!r}"
            handed_off = to_act(found[2]) != awaited
            if fighting(before_step) and fighting(found[2]):  # a battle's news: its thread
                assert last.channel != p.CHANNEL_ID, f"step {steps}: {last.content!r}"
        else:
            handed_off = True
        pinged = any(m.notified for m in made)
        assert len(in_channel) <= 1, f"step {steps}: {[m.content for m in in_channel]}"
        if in_channel:  # a new message when someone else is to act, or a battle begins
            begins = found is not None and found[2].engagement not in (None, engaged)
            battles += begins
            assert handed_off or pinged or begins, f"step {steps}: {in_channel[0].content!r}"
            hand_offs += 1
        # buttons stay only on the newest message of the channel and of each thread
        for place in {m.channel for m in messages}:
            here = [m for m in messages if m.channel == place]
            buttoned = [m.id for m in here if m.components]
            assert buttoned in ([], [max(m.id for m in here)]), f"step {steps}"
    assert found is None, "the game did not end"
    threads = [t for t in fake.threads() if t.parent == p.CHANNEL_ID]
    assert battles >= 1 and 1 <= len(threads) <= battles  # none for a battle never fought
    assert all(t.archived for t in threads)  # every battle ended, and its thread with it
    assert all(fake.in_channel(t.id) for t in threads)  # each told its battle
    for thread in threads:  # read later, it ends with how the battle ended, nothing awaited
        closing = max(
            (m for m in game_messages(fake) if m.channel == thread.id), key=lambda m: m.id
        )
        assert closing.content.splitlines()[-1].startswith(BATTLE_ENDS), closing.content
        assert not closing.components and closing.files  # no choices left; its picture
    assert hand_offs < steps / 2  # most actions edit the live message


async def play_until(driver: Driver, done) -> tuple[int, int, GameState]:
    """Play on until ``done(state)`` holds (the game must get there)."""
    for _ in range(MOST_STEPS):
        found = await driver.state()
        assert found is not None, "the game ended first"
        if done(found[2]):
            return found
        await driver.step()
    raise AssertionError("never got there")


async def test_a_command_in_a_battles_thread_acts_on_the_channels_game(fake, painting):
    await open_game(fake)
    driver = Driver(fake, painting, seed=11)

    def opened(state: GameState) -> bool:  # a thread open, and /done a legal answer
        seat = to_act(state)
        done = seat is not None and any(isinstance(x, DONE) for x in legal_actions(state, seat))
        return fighting(state) and bool(fake.threads()) and done

    _game_id, n, state = await play_until(driver, opened)
    [thread] = [t for t in fake.threads() if not t.archived]
    game = await driver.service.game_in(p.CHANNEL_ID)
    assert game is not None
    seat = to_act(state)
    assert seat is not None
    asked = await command(fake, game.user_of(seat), "titan", "status", channel=thread.id)
    [answer] = fake.sent_for(asked)
    assert "Waiting for" in answer.content and "no game" not in answer.content.lower()
    pushed = await command(fake, game.user_of(seat), "done", channel=thread.id, confirm=True)
    after = await driver.state()
    assert after is not None and after[1] == n + 1, [m.content for m in fake.sent_for(pushed)]


async def test_without_thread_permissions_battles_are_told_in_the_channel(fake, tmp_path):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.CREATE_PUBLIC_THREADS)
    running = await start_bot(fake, tmp_path / "games.sqlite3", renderer=fingerprinting_png)
    try:
        await open_game(fake)
        driver = Driver(fake, running, seed=11)
        await play_until(driver, fighting)
        for _ in range(10):  # some of the battle
            await driver.step()
            found = await driver.state()
            assert found is not None
            assert drawn(newest(game_messages(fake))) == fingerprint(found[2])
    finally:
        await running.stop()
    assert fake.threads() == [] and mistakes(fake) == []
    assert fake.paths("POST", r"/threads$") == []  # not even asked: the bot knew
