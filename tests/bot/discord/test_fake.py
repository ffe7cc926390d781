"""The fake Discord is as strict as Discord about interactions, commands, uploads, time and
trouble: late, second or wrong acknowledgements, expired tokens, autocomplete answers and
command trees over the limits, rate limits and server errors on demand. (If it were lenient,
the bot's tests would prove little.) Messages: test_fake_messages; channels: test_fake_channels.
"""

from __future__ import annotations

import asyncio
import io
import itertools
from collections.abc import Awaitable
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.bot.discord import payloads as p
from tests.bot.discord.fake import FakeDiscord, Pushed
from tests.bot.discord.helpers import ANN, BOB, command
from tests.bot.discord.limits import command_size
from tests.bot.discord.records import ACK_WINDOW, TOKEN_LIFETIME

STATUS = ("titan", "info", "status")


async def _receive(
    client: discord.Client, push: Awaitable[Pushed]
) -> tuple[Pushed, discord.Interaction]:
    """Push an interaction and catch it as discord.py hands it to the client."""
    waiting = asyncio.create_task(client.wait_for("interaction", timeout=5))
    await asyncio.sleep(0)
    pushed = await push
    return pushed, await waiting


def _interaction(fake: FakeDiscord, age: float = 0.0, kind: int = 2) -> Pushed:
    """An interaction the fake knows of (made ``age`` seconds ago), without a client."""
    pushed = Pushed(fake.next_id(), "tok", kind, BOB, fake.now() - age)
    fake.interactions[pushed.id] = pushed
    return pushed


def _png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG tiny"), filename="board.png")


# --- acknowledgements -------------------------------------------------------------------------
async def test_a_late_acknowledgement_is_refused_and_a_timely_one_accepted(fake, client):
    late, interaction = await _receive(client, fake.slash(BOB, *STATUS))
    fake.advance(ACK_WINDOW + 0.5)
    with pytest.raises(discord.NotFound) as refused:
        await interaction.response.defer()
    assert refused.value.code == 10062 and late.ack is None
    timely, interaction = await _receive(client, fake.slash(BOB, *STATUS))
    await interaction.response.defer(ephemeral=True)
    assert timely.ack == 5 and fake.sent_for(timely)[0].loading


async def test_a_second_acknowledgement_is_refused(fake):
    pushed = _interaction(fake)
    path = f"interactions/{pushed.id}/tok/callback"
    assert (await fake.call("POST", path, {"type": 5}))[0] == 200
    status, body, _ = await fake.call("POST", path, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060)


@pytest.mark.parametrize(
    ("kind", "response"),
    [(2, 6), (2, 7), (2, 8), (4, 4), (4, 5), (3, 8)],
    ids=[
        "command-deferred-update",
        "command-update",
        "command-choices",
        "autocomplete-message",
        "autocomplete-deferred",
        "click-choices",
    ],
)
async def test_a_response_the_interaction_kind_does_not_allow_is_refused(fake, kind, response):
    pushed = _interaction(fake, kind=kind)
    data = {"content": "x"} if response == 4 else {"choices": []} if response == 8 else {}
    status, body, _ = await fake.call(
        "POST", f"interactions/{pushed.id}/tok/callback", {"type": response, "data": data}
    )
    assert (status, body["code"]) == (400, 50035) and "type" in body["errors"]
    assert pushed.ack is None and fake.messages == {}


async def test_a_refused_response_leaves_the_interaction_unacknowledged(fake, client):
    pushed, interaction = await _receive(client, fake.slash(BOB, *STATUS))
    with pytest.raises(discord.HTTPException) as refused:
        await interaction.response.send_message("x" * 2001)
    assert refused.value.code == 50035 and "In data.content" in refused.value.text
    assert pushed.ack is None
    await interaction.response.send_message("x" * 2000)
    assert pushed.ack == 4 and fake.public(pushed)[0].content == "x" * 2000


# --- the fake's clock and tokens --------------------------------------------------------------
async def test_the_clock_can_be_injected_and_advanced_without_waiting():
    now = [1_000.0]
    fake = FakeDiscord(clock=lambda: now[0])
    assert fake.now() == 1_000.0
    fake.advance(60)
    now[0] += 1
    assert fake.now() == 1_061.0


async def test_an_interaction_ages_with_an_injected_clock(offline):
    now = [0.0]
    fake = FakeDiscord(clock=lambda: now[0])
    await fake.start()
    try:
        pushed = _interaction(fake)
        now[0] += ACK_WINDOW + 0.1
        status, body, _ = await fake.call(
            "POST", f"interactions/{pushed.id}/tok/callback", {"type": 5}
        )
        assert (status, body["code"]) == (404, 10062)
        assert fake.requests[-1].clock == now[0]
    finally:
        await fake.stop()


async def test_an_interaction_token_lives_fifteen_minutes(fake, client):
    pushed, interaction = await _receive(client, fake.slash(BOB, *STATUS))
    await interaction.response.defer()
    fake.advance(TOKEN_LIFETIME - 60)
    await interaction.edit_original_response(content="still in time")
    await interaction.followup.send("a follow-up in time")
    assert [m.content for m in fake.public(pushed)] == ["still in time", "a follow-up in time"]
    fake.advance(61)
    late = [
        interaction.followup.send("too late"),
        interaction.edit_original_response(content="too late"),
        interaction.original_response(),
        interaction.delete_original_response(),
    ]
    for attempt in late:
        with pytest.raises(discord.HTTPException) as refused:
            await attempt
        assert (refused.value.status, refused.value.code) == (401, 50027)
        assert refused.value.text == "Invalid Webhook Token"
    assert [m.content for m in fake.public(pushed)] == ["still in time", "a follow-up in time"]


async def test_an_unknown_or_unacknowledged_token_is_an_unknown_webhook(fake):
    _interaction(fake)  # known, but not acknowledged yet
    for token in ("tok", "no-such-token"):
        status, body, _ = await fake.call("POST", f"webhooks/{p.APP_ID}/{token}", {"content": "x"})
        assert (status, body["code"]) == (404, 10015)


async def test_snowflakes_are_fresh_so_discordpy_sees_a_new_interaction_as_unexpired(fake, client):
    _, interaction = await _receive(client, fake.slash(BOB, *STATUS))
    assert not interaction.is_expired()
    assert abs((discord.utils.utcnow() - interaction.created_at).total_seconds()) < 60


# --- autocomplete -----------------------------------------------------------------------------
def _choices(count: int, name: int = 5, value: int = 5) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{i:0{name}}", value=f"{i:0{value}}") for i in range(count)]


@pytest.mark.parametrize(
    ("choices", "where"),
    [
        (_choices(26), "In data.choices:"),
        (_choices(1, name=101), "In data.choices.0.name:"),
        (_choices(1, value=101), "In data.choices.0.value:"),
    ],
    ids=["26-choices", "name-101", "value-101"],
)
async def test_autocomplete_answers_over_the_limits_are_refused(fake, client, choices, where):
    pushed, interaction = await _receive(
        client, fake.autocomplete(BOB, "titan", "turn", "move", focus="legion", legion="R")
    )
    with pytest.raises(discord.HTTPException) as refused:
        await interaction.response.autocomplete(choices)
    assert refused.value.code == 50035 and where in refused.value.text
    assert pushed.ack is None


async def test_autocomplete_within_the_limits_and_in_time_is_accepted(fake, client):
    pushed, interaction = await _receive(
        client, fake.autocomplete(BOB, "titan", "turn", "move", focus="legion", legion="R")
    )
    await interaction.response.autocomplete(_choices(25, name=100, value=100))
    assert pushed.ack == 8 and len(pushed.choices or []) == 25
    late, interaction = await _receive(
        client, fake.autocomplete(BOB, "titan", "turn", "move", focus="legion", legion="R")
    )
    fake.advance(ACK_WINDOW + 0.1)
    with pytest.raises(discord.NotFound) as refused:
        await interaction.response.autocomplete(_choices(1))
    assert refused.value.code == 10062 and late.choices is None


# --- the command tree -------------------------------------------------------------------------
def _option(name: str, **changes: Any) -> dict[str, Any]:
    return {"name": name, "description": f"the {name}", "type": 3, "required": False} | changes


def _command(**changes: Any) -> dict[str, Any]:
    return {"name": "game", "description": "Play", "type": 1, "options": []} | changes


def _sub(name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    return _option(name, type=1, options=options)


def _big(size: int) -> dict[str, Any]:
    """A command of exactly ``size`` characters by Discord's count (valid up to 4,000)."""
    choices = [{"name": f"{i:0100}", "value": f"{i:0100}"} for i in range(19)]
    more = _option("more", description="d")
    command = _command(description="P", options=[_option("pick", choices=choices), more])
    missing = size - command_size(command)
    grow = min(missing, 99)
    command["description"] += "P" * grow
    more["description"] += "d" * (missing - grow)
    return command


BAD_COMMANDS = {
    "upper-case-name": (_command(name="Game"), "name"),
    "name-33": (_command(name="g" * 33), "name"),
    "empty-description": (_command(description=""), "description"),
    "description-101": (_command(description="d" * 101), "description"),
    "26-options": (_command(options=[_option(f"o{i}") for i in range(26)]), "options"),
    "required-after-optional": (
        _command(options=[_option("a"), _option("b", required=True)]),
        "options",
    ),
    "duplicate-options": (_command(options=[_option("a"), _option("a")]), "options.1.name"),
    "option-description-101": (
        _command(options=[_option("a", description="d" * 101)]),
        "options.0.description",
    ),
    "subcommand-beside-option": (_command(options=[_sub("s", []), _option("a")]), "options"),
    "26-choices": (
        _command(
            options=[_option("a", choices=[{"name": f"{i}", "value": f"{i}"} for i in range(26)])]
        ),
        "options.0.choices",
    ),
    "choice-name-101": (
        _command(options=[_option("a", choices=[{"name": "c" * 101, "value": "c"}])]),
        "options.0.choices.0.name",
    ),
    "deep-option-over": (
        _command(options=[_sub("s", [_option("a", description="")])]),
        "options.0.options.0.description",
    ),
    "4001-characters": (_big(4001), ""),
}


@pytest.mark.parametrize(("command", "where"), BAD_COMMANDS.values(), ids=BAD_COMMANDS.keys())
async def test_a_command_over_a_limit_refuses_the_whole_sync(fake, command, where):
    path = f"applications/{p.APP_ID}/commands"
    status, _, _ = await fake.call("PUT", path, [_command(name="kept")])
    assert status == 200
    status, body, _ = await fake.call("PUT", path, [_command(name="other"), command])
    assert (status, body["code"]) == (400, 50035)
    node = body["errors"]["1"]  # the second command
    for key in where.split(".") if where else []:
        node = node[key]
    assert node["_errors"]
    assert [c["name"] for c in fake.commands["global"]] == ["kept"]


async def test_a_command_at_every_limit_is_accepted_and_listed_with_its_id(fake):
    full = _command(
        name="g" * 32,
        description="d" * 100,
        options=[_option(f"o{i:02}", required=i < 3) for i in range(25)],
    )
    assert command_size(_big(4000)) == 4000
    path = f"applications/{p.APP_ID}/guilds/{p.GUILD_ID}/commands"
    status, made, _ = await fake.call("PUT", path, [full, _big(4000)])
    assert status == 200 and all(int(c["id"]) for c in made)
    status, listed, _ = await fake.call("GET", path)
    assert status == 200 and listed == made


# --- uploads ----------------------------------------------------------------------------------
async def test_uploads_over_ten_mebibytes_a_file_or_25_a_request_are_refused(fake):
    path = f"channels/{p.CHANNEL_ID}/messages"
    big = [("big.png", b"x" * (p.UPLOAD_LIMIT + 1))]
    nine = [(f"{i}.png", b"x" * (9 * 1024 * 1024)) for i in range(3)]
    for files in (big, nine):
        status, body, _ = await fake.call("POST", path, {"content": "big"}, files)
        assert (status, body["code"]) == (413, 40005)
    status, _, _ = await fake.call("POST", path, {"content": "fits"}, nine[:2])
    assert status == 200


async def test_more_than_ten_files_are_refused(fake):
    files = [(f"{i}.png", b"x") for i in range(11)]
    path = f"channels/{p.CHANNEL_ID}/messages"
    status, body, _ = await fake.call("POST", path, {"content": "many"}, files)
    assert (status, body["code"]) == (400, 50035) and "attachments" in body["errors"]
    assert (await fake.call("POST", path, {"content": "ten"}, files[:10]))[0] == 200


# --- trouble on demand ------------------------------------------------------------------------
async def test_a_rate_limit_on_demand_is_waited_out_by_discordpy(fake, client):
    fake.rate_limit("POST", rf"channels/{p.CHANNEL_ID}/messages", times=2, retry_after=0.05)
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("after the wait")
    tries = fake.paths("POST", rf"channels/{p.CHANNEL_ID}/messages")
    assert [r.status for r in tries] == [429, 429, 200]
    assert [r.injected for r in tries] == [True, True, False]
    assert all(b.at - a.at >= 0.05 for a, b in itertools.pairwise(tries))
    assert [m.id for m in fake.in_channel(p.CHANNEL_ID)] == [sent.id]
    assert fake.rejected == tries[:2]


async def test_a_rate_limit_answers_with_discords_body_and_headers(fake):
    fake.rate_limit("POST", r"channels/\d+/messages", retry_after=0.5)
    path = f"channels/{p.CHANNEL_ID}/messages"
    status, body, headers = await fake.call("POST", path, {"content": "x"})
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 0.5, "global": False}
    assert headers["Retry-After"] == "1" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Reset-After"] == "0.500" and headers["X-RateLimit-Scope"] == "user"
    assert "Via" in headers and "X-RateLimit-Global" not in headers
    assert (await fake.call("POST", path, {"content": "x"}))[0] == 200  # only the next one


async def test_a_global_rate_limit_too_long_to_wait_raises_in_discordpy(fake, client):
    fake.rate_limit("POST", r"channels/\d+/messages", retry_after=60, scope="global")
    client.http.max_ratelimit_timeout = 30.0
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.RateLimited) as limited:
        await channel.send("x")
    assert limited.value.retry_after == 60
    [refused] = fake.rejected
    assert refused.answer["global"] is True


async def test_a_server_error_on_demand(fake, client):
    fake.fail("POST", r"channels/\d+/messages", status=503)
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.DiscordServerError) as failed:
        await channel.send("x")
    assert failed.value.status == 503 and fake.rejected[0].injected
    await channel.send("the next one goes through")
    assert [m.content for m in fake.in_channel(p.CHANNEL_ID)] == ["the next one goes through"]


# --- permissions in an interaction ------------------------------------------------------------
async def test_an_interaction_carries_the_bots_permissions_and_they_bind_its_uploads(fake, client):
    await fake.set_permissions(p.CHANNEL_ID, p.APP_PERMISSIONS & ~p.ATTACH_FILES)
    pushed, interaction = await _receive(client, fake.slash(BOB, *STATUS))
    assert not interaction.app_permissions.attach_files
    assert interaction.app_permissions.send_messages
    with pytest.raises(discord.Forbidden) as refused:
        await interaction.response.send_message("board", file=_png())
    assert refused.value.code == 50013 and pushed.ack is None
    await interaction.response.defer()
    with pytest.raises(discord.Forbidden):
        await interaction.followup.send("board", file=_png())
    await interaction.followup.send("the board, as text")
    assert [m.content for m in fake.public(pushed)] == ["the board, as text"]


async def test_an_interaction_from_inside_a_thread(fake, client):
    await fake.set_permissions(
        p.CHANNEL_ID, p.APP_PERMISSIONS | p.CREATE_PUBLIC_THREADS | p.SEND_IN_THREADS
    )
    channel = client.get_channel(p.CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    start = await channel.send("Battle in the Plains")
    thread = await start.create_thread(name="Battle")
    pushed, interaction = await _receive(client, fake.slash(BOB, *STATUS, channel=thread.id))
    assert isinstance(interaction.channel, discord.Thread)
    assert interaction.channel_id == thread.id and interaction.channel.parent_id == p.CHANNEL_ID
    assert interaction.app_permissions.send_messages_in_threads
    await interaction.response.send_message("strike!")
    [answer] = fake.public(pushed)
    assert answer.channel == thread.id and fake.in_channel(thread.id) == [answer]


async def test_the_bot_rides_out_a_rate_limit_asked_for(fake, titan):
    fake.rate_limit("POST", r"^channels/\d+/messages$", retry_after=0.05)
    opened = await command(fake, ANN, "titan", "new", players=2)
    [news] = fake.public(opened)
    assert "opened game #1" in news.content
    [limited] = fake.rejected
    assert limited.status == 429 and limited.injected  # so not one of the bot's mistakes


async def test_a_fault_of_the_fake_is_a_recorded_refusal(fake):
    pushed = _interaction(fake)
    status, body, _ = await fake.call("POST", f"interactions/{pushed.id}/tok/callback")
    assert status == 400 and body["message"].startswith("the fake Discord failed")
    assert fake.rejected == fake.requests
