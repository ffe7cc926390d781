"""A second look on the fake Discord: a click or a command that would throw something away
asks first, in a message only its player sees, and changes nothing until confirmed."""

from __future__ import annotations

from engine.battle.state import BattleStep
from engine.game.battle_flow import battle_of
from engine.game.legal import to_act
from engine.game.state import GameState
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Pushed, Sent
from tests.bot.discord.helpers import BOB, button, click, command, open_game


def left_to_enter(state: GameState) -> bool:
    """A battle's first maneuvers, nobody of the moving side on the board yet."""
    battle = battle_of(state)
    return (
        battle is not None
        and battle.step is BattleStep.MANEUVER
        and battle.phasing not in battle.entered
        and not battle.fighters(battle.phasing)
        and bool(battle.waiting(battle.phasing))
    )


async def reach(driver: Driver, done) -> tuple[int, GameState]:
    """Play on (by clicks) until ``done(state)``; the game's version and state then."""
    for _ in range(3000):
        found = await driver.state()
        assert found is not None, "the game ended first"
        if done(found[2]):
            return found[1], found[2]
        await driver.step()
    raise AssertionError("never got there")


async def first_maneuvers(fake: FakeDiscord, titan) -> tuple[Driver, int, GameState, int, Sent]:
    """A game played by clicks up to a battle's first maneuvers, everyone of the moving
    side still off the board: the driver, the version, the state, the moving player and
    the battle's board."""
    await open_game(fake)
    driver = Driver(fake, titan, seed=11, clicks_only=True)
    n, state = await reach(driver, left_to_enter)
    game = await driver.service.game_in(p.CHANNEL_ID)
    board = driver.board()
    assert game is not None and board is not None
    return driver, n, state, game.user_of(to_act(state)), board


def question(fake: FakeDiscord, pushed: Pushed) -> Sent:
    [asked] = fake.ephemeral(pushed)
    return asked


async def test_ending_the_first_maneuvers_with_everyone_off_the_board_asks_first(fake, titan):
    driver, n, state, user, board = await first_maneuvers(fake, titan)
    done = await click(fake, user, board, button(board, "done"))
    asked = question(fake, done)
    battle = battle_of(state)
    lost = battle.waiting(battle.phasing)
    assert "off the board and" in asked.content and "slain" in asked.content
    assert all(name in asked.content for name in lost)
    assert "Nothing is done until you confirm" in asked.content
    assert [c.split(":")[2] for c in asked.custom_ids()] == ["done confirm", "back"]
    assert (await driver.state())[1] == n  # nothing changed
    assert fake.public(done) == []
    # Go back: the question goes, the game is as it was.
    await click(fake, user, asked, button(asked, "back"))
    assert asked.deleted and (await driver.state())[1] == n
    # Asked again, and confirmed: the characters left off are slain.
    again = question(fake, await click(fake, user, board, button(board, "done")))
    confirmed = await click(fake, user, again, button(again, "done confirm"))
    assert (await driver.state())[1] == n + 1
    news = "\n".join(m.content for m in fake.public(confirmed))
    assert "left off" in news or "off the board" in news, news
    # The question, answered, goes (or gives way to the player's own news, his legions).
    assert again.deleted or (not again.components and "Really?" not in again.content)


async def test_conceding_a_battle_by_its_button_asks_first(fake, titan):
    driver, n, _, user, board = await first_maneuvers(fake, titan)
    conceded = await click(fake, user, board, button(board, "concede"))
    asked = question(fake, conceded)
    assert "is eliminated" in asked.content and (await driver.state())[1] == n
    await click(fake, user, asked, button(asked, "concede confirm"))
    assert (await driver.state())[1] == n + 1


async def test_a_typed_withdrawal_asks_first_unless_confirmed(fake, titan):
    await open_game(fake)
    game = await titan.bot.service.game_in(p.CHANNEL_ID)
    before = game.n
    typed = await command(fake, BOB, "titan", "withdraw")
    asked = question(fake, typed)
    assert "Withdrawing concedes the whole game" in asked.content
    assert [c.split(":")[2] for c in asked.custom_ids()] == ["withdraw confirm", "back"]
    assert (await titan.bot.service.game_in(p.CHANNEL_ID)).n == before
    sure = await command(fake, BOB, "titan", "withdraw", confirm=True)
    assert any("withdr" in m.content for m in fake.public(sure))
    game = await titan.bot.service.game_in(p.CHANNEL_ID)
    assert game is None or game.n == before + 1
