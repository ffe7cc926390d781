"""A move taken back leaves the running news with the line that told it (RULES §4.7).

A player who tries a move and takes it back has not moved: the live message of the channel
(the masterboard) and of the battle's thread tells the move that stands, not every try,
so the news a phase makes are not pushed out by tries. ``/titan history`` keeps them all.
"""

from __future__ import annotations

from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState, Phase
from engine.movement import MoveKind
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Sent
from tests.bot.discord.helpers import command, open_game
from tests.bot.discord.test_second_looks import left_to_enter, reach


def plain_moves(state: GameState) -> dict[str, list[a.Move]]:
    """The normal moves of the mover's legions that show nothing and attack no one, by
    legion (before anything moved this phase)."""
    seat = to_act(state)
    if state.phase is not Phase.MOVE or seat is None or state.turn.moved:
        return {}
    occupied = {leg.land for leg in state.legions.values()}
    found: dict[str, list[a.Move]] = {}
    for x in legal_actions(state, seat):
        plain = isinstance(x, a.Move) and x.kind in (None, MoveKind.NORMAL) and x.lord is None
        if plain and isinstance(x, a.Move) and x.land not in occupied:
            found.setdefault(x.legion, []).append(x)
    return {m: moves for m, moves in found.items() if len(moves) >= 2}


def live(fake: FakeDiscord, channel: int) -> Sent:
    """The newest public message of ``channel`` (the one the news grow in)."""
    public = [m for m in fake.in_channel(channel) if not m.ephemeral and m.token is None]
    return max(public, key=lambda m: max(m.id, m.said))


async def history(fake: FakeDiscord, driver: Driver) -> str:
    found = await driver.state()
    assert found is not None
    game = await driver.service.game_in(p.CHANNEL_ID)
    assert game is not None
    asked = await command(fake, game.user_of(to_act(found[2])), "titan", "history", count=10)
    return "\n".join(m.content for m in fake.sent_for(asked))


async def test_a_legion_moved_and_taken_back_is_not_told_in_the_channel(fake, titan):
    await open_game(fake)
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    _, state = await reach(driver, lambda s: bool(plain_moves(s)))
    marker, (tried, kept, *_) = next(iter(plain_moves(state).items()))
    start, owner = state.legions[marker].land, state.legions[marker].owner
    mover = f"{marker} ({state.players[owner].name}) moves {start}"
    await driver.play(tried)
    assert f"{mover} → {tried.land}." in live(fake, p.CHANNEL_ID).content
    await driver.play(a.TakeBack(marker))
    await driver.play(kept)
    news = live(fake, p.CHANNEL_ID).content
    assert f"{mover} → {kept.land}." in news
    assert f"→ {tried.land}" not in news and "taken back" not in news
    told = await history(fake, driver)
    assert f"→ {tried.land}" in told and f"{marker}" in told and "taken back" in told


async def test_a_character_entered_and_taken_back_is_not_told_in_the_thread(fake, titan):
    await open_game(fake)
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    _, state = await reach(driver, left_to_enter)
    seat = to_act(state)
    assert seat is not None
    entries = [x for x in legal_actions(state, seat) if isinstance(x, b.Maneuver)]
    tried = entries[0]
    kept = next(x for x in entries if x.character == tried.character and x.to != tried.to)
    [thread] = [t for t in fake.threads() if not t.archived]
    await driver.play(tried)
    assert f"{tried.character} enters at {tried.to}." in live(fake, thread.id).content
    await driver.play(b.TakeBackManeuver(tried.to))
    await driver.play(kept)
    news = live(fake, thread.id).content
    assert f"{tried.character} enters at {kept.to}." in news
    assert f"enters at {tried.to}." not in news and "goes back" not in news
    told = await history(fake, driver)
    assert f"enters at {tried.to}." in told and "goes back" in told
