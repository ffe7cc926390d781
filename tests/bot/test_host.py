"""Host powers follow the seat: to the substitute on a replacement, to a remaining human
when the host leaves the game; a host without a seat has none (organisers keep theirs)."""

from __future__ import annotations

from bot.context import Caller, Place
from bot.discord.seats import remove_player, replace_player
from bot.syntax import format_action
from engine.game.legal import legal_actions, to_act
from tests.bot.agent import caller, open_game, user_id

CHANNEL = 21
HERE = Place(CHANNEL)
ORGANISER = Caller(9_000, "Org", organiser=True)


async def colours_chosen(service) -> None:
    """Every seat takes the first free colour."""
    while (game := await service.game_in(CHANNEL)).state.phase.value == "colours":
        seat = to_act(game.state)
        choice = format_action(legal_actions(game.state, seat)[0])
        assert not (await service.submit(HERE, caller(CHANNEL, seat), choice)).error


SUBSTITUTE = Caller(9_001, "Sub")


async def test_the_substitute_of_the_host_becomes_host(service):
    await open_game(service, CHANNEL, 3)
    host = caller(CHANNEL, 0)
    replaced = await replace_player(service, HERE, ORGANISER, host.user, SUBSTITUTE.user)
    assert not replaced.error and "host the game" in replaced.public.text
    game = await service.game_in(CHANNEL)
    assert game.host == SUBSTITUTE.user
    refused = await service.submit(HERE, host, "cancel")
    assert refused.error and "only the host (P0) or an organiser" in refused.ephemeral.text
    assert (await service.game_in(CHANNEL)) is not None  # nothing was cancelled
    assert not (await service.submit(HERE, SUBSTITUTE, "cancel")).error
    assert await service.game_in(CHANNEL) is None


async def test_replacing_another_player_leaves_the_host_alone(service):
    await open_game(service, CHANNEL, 3)
    replaced = await replace_player(
        service, HERE, ORGANISER, caller(CHANNEL, 2).user, SUBSTITUTE.user
    )
    assert "host the game" not in replaced.public.text
    assert (await service.game_in(CHANNEL)).host == user_id(CHANNEL, 0)


async def test_a_removed_host_passes_the_powers_to_a_remaining_human(service):
    await open_game(service, CHANNEL, 3)
    await colours_chosen(service)
    host = caller(CHANNEL, 0)
    removed = await remove_player(service, HERE, ORGANISER, host.user)
    assert not removed.error
    game = await service.game_in(CHANNEL)
    assert game.host == user_id(CHANNEL, 1)
    assert "The host's powers pass to **P1**" in removed.public.text
    refused = await service.submit(HERE, host, "cancel")
    assert refused.error and "only the host (P1)" in refused.ephemeral.text
    assert not (await service.submit(HERE, ORGANISER, "cancel")).error  # organisers keep theirs


async def test_when_the_host_withdraws_the_next_human_hosts(service):
    await open_game(service, CHANNEL, 3)
    await colours_chosen(service)
    host = caller(CHANNEL, 0)
    game = await service.game_in(CHANNEL)
    assert game.host == host.user and game.state.active == 0  # his own turn: at once
    withdrawn = await service.submit(HERE, host, "withdraw confirm")
    assert not withdrawn.error and "The host's powers pass to **P1**" in withdrawn.public.text
    game = await service.game_in(CHANNEL)
    assert game.state.player(0).eliminated and game.host == user_id(CHANNEL, 1)
