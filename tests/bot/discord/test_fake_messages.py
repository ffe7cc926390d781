"""The fake Discord refuses the messages Discord refuses — too long, too many embeds or
embeds too big, empty, components over the layout's limits — accepts them at the limits,
posts an enforced nonce once, edits without notifying and hands messages back."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
import pytest

from tests.bot.discord import payloads as p
from tests.bot.discord.fake import FakeDiscord, Pushed
from tests.bot.discord.helpers import BOB, CAROL
from tests.bot.discord.records import NONCE_WINDOW

MESSAGES = f"channels/{p.CHANNEL_ID}/messages"


def _channel(client: discord.Client, cid: int = p.CHANNEL_ID) -> discord.TextChannel:
    channel = client.get_channel(cid)
    assert isinstance(channel, discord.TextChannel)
    return channel


def _png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG tiny"), filename="board.png")


async def _refused(sending: Any) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as refused:
        await sending
    return refused.value


# --- content and emptiness --------------------------------------------------------------------
async def test_content_over_2000_characters_is_refused(fake, client):
    refused = await _refused(_channel(client).send("x" * 2001))
    assert (refused.status, refused.code) == (400, 50035)
    assert "In content: Must be 2000 or fewer in length." in refused.text
    sent = await _channel(client).send("x" * 2000)
    assert [m.id for m in fake.in_channel(p.CHANNEL_ID)] == [sent.id]


@pytest.mark.parametrize("content", [None, "", "   \n"], ids=["none", "empty", "blank"])
async def test_a_message_with_nothing_to_show_is_refused(fake, client, content):
    refused = await _refused(_channel(client).send(content))
    assert (refused.status, refused.code) == (400, 50006)
    assert fake.in_channel(p.CHANNEL_ID) == []


async def test_a_file_an_embed_or_a_button_alone_is_a_message(fake, client):
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Go", custom_id="go"))
    channel = _channel(client)
    await channel.send(file=_png())
    await channel.send(embed=discord.Embed(title="Board"))
    await channel.send(view=view)
    shown = fake.in_channel(p.CHANNEL_ID)
    assert [(bool(m.files), bool(m.embeds), bool(m.components)) for m in shown] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
    ]


# --- embeds -----------------------------------------------------------------------------------
def _embed(**changes: Any) -> discord.Embed:
    embed = discord.Embed(title=changes.get("title"), description=changes.get("description"))
    for name, value in changes.get("fields", []):
        embed.add_field(name=name, value=value)
    if "footer" in changes:
        embed.set_footer(text=changes["footer"])
    if "author" in changes:
        embed.set_author(name=changes["author"])
    return embed


BAD_EMBEDS = {
    "title-257": ([_embed(title="t" * 257)], "embeds.0.title"),
    "description-4097": ([_embed(description="d" * 4097)], "embeds.0.description"),
    "26-fields": ([_embed(fields=[("n", "v")] * 26)], "embeds.0.fields"),
    "field-name-257": ([_embed(fields=[("n" * 257, "v")])], "embeds.0.fields.0.name"),
    "field-value-1025": ([_embed(fields=[("n", "v" * 1025)])], "embeds.0.fields.0.value"),
    "footer-2049": ([_embed(title="t", footer="f" * 2049)], "embeds.0.footer.text"),
    "author-257": ([_embed(title="t", author="a" * 257)], "embeds.0.author.name"),
    "6001-in-all": ([_embed(description="d" * 3000), _embed(description="d" * 3001)], "embeds"),
}


@pytest.mark.parametrize(("embeds", "where"), BAD_EMBEDS.values(), ids=BAD_EMBEDS.keys())
async def test_embeds_over_a_limit_are_refused(fake, client, embeds, where):
    refused = await _refused(_channel(client).send("board", embeds=embeds))
    assert refused.code == 50035 and f"In {where}: " in refused.text
    assert fake.in_channel(p.CHANNEL_ID) == []


async def test_more_than_ten_embeds_are_refused(fake):
    embeds = [{"title": f"{i}"} for i in range(11)]
    status, body, _ = await fake.call("POST", MESSAGES, {"embeds": embeds})
    assert (status, body["code"]) == (400, 50035) and "embeds" in body["errors"]
    assert (await fake.call("POST", MESSAGES, {"embeds": embeds[:10]}))[0] == 200


async def test_embeds_at_every_limit_are_accepted(fake, client):
    full = _embed(
        title="t" * 256,
        description="d" * 4096,
        fields=[("n" * 20, "v" * 40)] * 25,
        footer="f" * 98,
        author="a" * 50,
    )
    assert len(full) == 6000
    await _channel(client).send("board", embed=full)
    [sent] = fake.in_channel(p.CHANNEL_ID)
    assert sent.embeds[0]["title"] == "t" * 256 and len(sent.embeds[0]["fields"]) == 25


# --- components -------------------------------------------------------------------------------
def _button(custom_id: str = "b", label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def _menu(count: int = 2, **changes: Any) -> dict[str, Any]:
    listed = [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]
    return {"type": 3, "custom_id": "menu", "options": listed} | changes


BAD_COMPONENTS = {
    "6-rows": ([_row(_button(f"b{i}")) for i in range(6)], "components"),
    "6-in-a-row": ([_row(*(_button(f"b{i}") for i in range(6)))], "components.0.components"),
    "empty-row": ([_row()], "components.0.components"),
    "menu-beside-button": ([_row(_menu(), _button())], "components.0.components"),
    "custom-id-101": ([_row(_button("c" * 101))], "components.0.components.0.custom_id"),
    "custom-id-twice": (
        [_row(_button("same")), _row(_button("same"))],
        "components.1.components.0.custom_id",
    ),
    "no-custom-id": ([_row({"type": 2, "style": 1, "label": "Go"})], "components.0.components.0"),
    "label-81": ([_row(_button(label="l" * 81))], "components.0.components.0.label"),
    "26-options": ([_row(_menu(26))], "components.0.components.0.options"),
    "no-options": ([_row(_menu(0))], "components.0.components.0.options"),
    "option-label-101": (
        [_row(_menu(options=[{"label": "l" * 101, "value": "v"}]))],
        "components.0.components.0.options.0.label",
    ),
    "option-value-101": (
        [_row(_menu(options=[{"label": "l", "value": "v" * 101}]))],
        "components.0.components.0.options.0.value",
    ),
    "option-value-twice": (
        [_row(_menu(options=[{"label": "a", "value": "v"}, {"label": "b", "value": "v"}]))],
        "components.0.components.0.options.1.value",
    ),
    "placeholder-151": ([_row(_menu(placeholder="p" * 151))], "components.0.components.0"),
    "text-input-in-a-message": ([_row({"type": 4, "custom_id": "t"})], "components.0.components.0"),
}


@pytest.mark.parametrize(("rows", "where"), BAD_COMPONENTS.values(), ids=BAD_COMPONENTS.keys())
async def test_components_over_a_limit_are_refused(fake, rows, where):
    status, body, _ = await fake.call("POST", MESSAGES, {"content": "x", "components": rows})
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    node = body["errors"]
    for key in where.split("."):
        node = node[key]
    assert node.get("_errors") or any("_errors" in v for v in node.values())
    assert fake.in_channel(p.CHANNEL_ID) == []


async def test_components_at_every_limit_are_accepted(fake, client):
    buttons = discord.ui.View()
    for i in range(25):
        buttons.add_item(discord.ui.Button(label="l" * 80, custom_id=f"{i:0100}"))
    menus = discord.ui.View()
    for row in range(5):
        options = [discord.SelectOption(label=f"{i:0100}", value=f"{i:0100}") for i in range(25)]
        menus.add_item(
            discord.ui.Select(custom_id=f"menu{row}", options=options, placeholder="p" * 150)
        )
    await _channel(client).send("buttons", view=buttons)
    await _channel(client).send("menus", view=menus)
    shown = fake.in_channel(p.CHANNEL_ID)
    assert [len(m.custom_ids()) for m in shown] == [25, 5]
    assert [len(m.components) for m in shown] == [5, 5]


async def test_allowed_mentions_parsing_users_cannot_also_list_them(fake):
    mentions = {"parse": ["users"], "users": [str(BOB)]}
    body = {"content": f"<@{BOB}>", "allowed_mentions": mentions}
    status, answer, _ = await fake.call("POST", MESSAGES, body)
    assert (status, answer["code"]) == (400, 50035) and "allowed_mentions" in answer["errors"]


# --- nonces -----------------------------------------------------------------------------------
async def test_an_enforced_nonce_posts_once_in_a_channel_within_the_window(fake, client):
    channel = _channel(client)
    first = await channel.send("news", nonce="game-1-row-7")
    again = await channel.send("news", nonce="game-1-row-7")
    assert again.id == first.id and len(fake.in_channel(p.CHANNEL_ID)) == 1
    other = await fake.add_channel("other")
    await fake.wait_for(lambda: client.get_channel(other.id))
    elsewhere = await _channel(client, other.id).send("news", nonce="game-1-row-7")
    assert elsewhere.id != first.id
    fake.advance(NONCE_WINDOW + 1)
    later = await channel.send("news", nonce="game-1-row-7")
    assert later.id != first.id and len(fake.in_channel(p.CHANNEL_ID)) == 2


async def test_an_enforced_nonce_survives_a_restart_of_the_client(fake, client):
    first = await _channel(client).send("news", nonce="row-8")
    await client.close()
    again = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    task = asyncio.create_task(again.start(fake.token))
    try:
        await asyncio.wait_for(again.wait_until_ready(), 5)
        repeat = await _channel(again).send("news", nonce="row-8")
    finally:
        await again.close()
        await asyncio.wait_for(task, 5)
    assert repeat.id == first.id and len(fake.in_channel(p.CHANNEL_ID)) == 1


async def test_a_nonce_not_enforced_does_not_stop_a_second_post(fake):
    for _ in range(2):
        status, made, _ = await fake.call("POST", MESSAGES, {"content": "x", "nonce": "n"})
        assert status == 200 and made["nonce"] == "n"
    assert len(fake.in_channel(p.CHANNEL_ID)) == 2


async def test_a_nonce_over_25_characters_is_refused(fake, client):
    refused = await _refused(_channel(client).send("x", nonce="n" * 26))
    assert refused.code == 50035 and "In nonce" in refused.text


# --- edits and reading back -------------------------------------------------------------------
async def test_an_edit_changes_the_message_and_notifies_nobody(fake, client):
    pings = discord.AllowedMentions(users=True)
    message = await _channel(client).send(f"<@{BOB}> your turn", allowed_mentions=pings)
    await message.edit(content=f"<@{BOB}> <@{CAROL}> changed", allowed_mentions=pings)
    [held] = fake.in_channel(p.CHANNEL_ID)
    assert held.content == f"<@{BOB}> <@{CAROL}> changed" and held.edits == 1
    assert held.notified == (BOB,)
    fetched = await _channel(client).fetch_message(message.id)
    assert fetched.content == held.content and fetched.edited_at is not None


async def test_an_edit_over_a_limit_or_leaving_nothing_is_refused(fake, client):
    message = await _channel(client).send("board")
    for change, code in [({"content": "x" * 2001}, 50035), ({"content": ""}, 50006)]:
        refused = await _refused(message.edit(**change))
        assert refused.code == code
    assert fake.in_channel(p.CHANNEL_ID)[0].content == "board"
    with_file = await _channel(client).send(file=_png())
    refused = await _refused(with_file.edit(attachments=[]))
    assert refused.code == 50006
    captioned = await with_file.edit(content="the board")
    await captioned.edit(attachments=[])
    assert fake.messages[with_file.id].files == [] and fake.messages[with_file.id].content


async def test_an_edit_keeps_the_attachments_it_names(fake, client):
    message = await _channel(client).send("board", file=_png())
    kept = await message.edit(content="board, again")
    assert [a.filename for a in kept.attachments] == ["board.png"]
    replaced = await kept.edit(attachments=[discord.File(io.BytesIO(b"2"), filename="new.png")])
    assert [a.filename for a in replaced.attachments] == ["new.png"]
    both = await replaced.edit(attachments=[*replaced.attachments, _png()])
    assert [a.filename for a in both.attachments] == ["new.png", "board.png"]


async def test_reading_a_message_unknown_elsewhere_or_ephemeral_is_refused(fake, client):
    other = await fake.add_channel("other")
    await fake.wait_for(lambda: client.get_channel(other.id))
    elsewhere = await _channel(client, other.id).send("elsewhere")
    ephemeral = await _secret(fake)
    for mid in (12345, elsewhere.id, ephemeral):
        refused = await _refused(_channel(client).fetch_message(mid))
        assert (refused.status, refused.code) == (404, 10008)
        status, body, _ = await fake.call("PATCH", f"{MESSAGES}/{mid}", {"content": "x"})
        assert (status, body["code"]) == (404, 10008)


async def _secret(fake: FakeDiscord) -> int:
    """An ephemeral answer in the game channel: the id of the message."""
    pushed = Pushed(fake.next_id(), "tok", 2, BOB, fake.now())
    fake.interactions[pushed.id] = pushed
    answer = {"type": 4, "data": {"content": "only you", "flags": 64}}
    status, _, _ = await fake.call("POST", f"interactions/{pushed.id}/tok/callback", answer)
    assert status == 200 and pushed.original is not None
    return pushed.original
