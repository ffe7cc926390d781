"""Slash commands through the real bot and the fake Discord: defer, answer, news, errors."""

from __future__ import annotations

import logging

import pytest

from bot.discord.errors import APOLOGY
from engine.game.legal import to_act
from tests.bot.discord import payloads as p
from tests.bot.discord.fake import EPHEMERAL
from tests.bot.discord.helpers import ANN, BOB, CAROL, click, command, open_game, slash

PNG = b"\x89PNG\r\n\x1a\n"


async def test_a_command_is_deferred_at_once_then_followed_by_the_news_with_a_png(fake, titan):
    await command(fake, ANN, "titan", "new", players=2)
    await command(fake, BOB, "titan", "join")
    started = await command(fake, ANN, "titan", "start")
    assert started.ack == 5 and started.acked_at - started.at < 1.0
    [callback] = fake.paths("POST", rf"interactions/{started.id}/")
    assert callback.body == {"type": 5, "data": {"flags": EPHEMERAL}}
    # The news shows what the command did: its "thinking" answer goes without an echo.
    assert fake.ephemeral(started) == []
    [gone] = fake.paths("DELETE", rf"webhooks/\d+/{started.token}/messages/@original")
    assert gone.status == 204
    [news] = fake.public(started)
    assert news.content.startswith("<@") and "Game #1 begins" in news.content
    [(name, image)] = news.files
    assert name == "masterboard.png" and image.startswith(PNG)
    assert news.notified and not news.silent  # the first chooser is pinged
    assert all(i.startswith("titan:1:colour ") and i.endswith(":0") for i in news.custom_ids())


async def test_news_nobody_must_act_on_is_silent(fake, titan):
    opened = await command(fake, ANN, "titan", "new", players=3)
    [news] = fake.public(opened)
    assert news.silent and news.notified == () and "opened game #1" in news.content


async def test_an_illegal_command_is_refused_to_the_caller_alone(fake, titan):
    news = await open_game(fake)
    waiting = news.notified[0]
    other = ANN if waiting == BOB else BOB
    refused = await command(fake, other, "turn", "colour", colour="Red")
    [answer] = fake.ephemeral(refused)
    assert "it is not your turn" in answer.content
    assert fake.public(refused) == []
    stranger = await command(fake, CAROL, "turn", "roll")
    assert "not playing" in fake.ephemeral(stranger)[0].content


async def test_information_is_ephemeral_and_legions_come_with_a_picture(fake, titan):
    news = await open_game(fake)
    await command(fake, news.notified[0], "turn", "colour", colour="Red")
    mine = await command(fake, news.notified[0], "titan", "legions")
    [answer] = fake.ephemeral(mine)
    assert "Rd01" in answer.content and fake.public(mine) == []
    assert answer.files and answer.files[0][0] == "legions.png"
    status = await command(fake, CAROL, "titan", "status")
    assert "Game #1" in fake.ephemeral(status)[0].content


async def test_autocomplete_offers_only_legal_choices_quickly(fake, titan):
    news = await open_game(fake)
    waiting = news.notified[0]
    asked = await fake.autocomplete(waiting, "turn", "colour", focus="colour", colour="b")
    await fake.wait_for(lambda: asked.choices is not None)
    assert asked.ack == 8 and asked.acked_at - asked.at < 1.0
    assert [c["value"] for c in asked.choices] == ["Black", "Blue", "Brown"]
    other = ANN if waiting == BOB else BOB
    theirs = await fake.autocomplete(other, "turn", "colour", focus="colour", colour="")
    await fake.wait_for(lambda: theirs.choices is not None)
    assert theirs.choices == []


async def test_an_unexpected_error_is_logged_with_an_id_and_apologised_for(
    fake, titan, monkeypatch, caplog
):
    await command(fake, ANN, "titan", "new", players=2)

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(titan.bot.service, "submit", broken)
    with caplog.at_level(logging.ERROR, logger="bot.discord.errors"):
        failed = await command(fake, ANN, "titan", "status")
    [answer] = fake.ephemeral(failed)
    error_id = answer.content.split("(error ")[1].split(")")[0]
    status = slash(fake, "titan status")
    assert answer.content == APOLOGY.format(error_id=error_id).replace("`status`", status)
    [record] = caplog.records
    assert f"error {error_id}: game 1" in record.getMessage() and record.exc_info


async def test_organiser_commands_are_hidden_by_default_and_discord_is_the_only_gate(fake, titan):
    [admin] = [c for c in fake.commands["global"] if c["name"] == "titan-admin"]
    assert int(admin["default_member_permissions"]) == p.MANAGE_CHANNELS
    await command(fake, ANN, "titan", "new", players=2)
    refused = await command(fake, BOB, "titan", "cancel")  # a player's command: not the host
    assert "only the host" in fake.ephemeral(refused)[0].content
    # Bob lacks Manage Channels, but the server allowed his role to use /titan-admin
    # (Server Settings → Integrations), so Discord let his interaction through: obeyed.
    with pytest.raises(ValueError, match="may not use /titan-admin"):
        await fake.slash(BOB, "titan-admin", "abort", permissions=p.PLAYER)
    fake.allow_command("titan-admin", BOB)
    aborted = await command(fake, BOB, "titan-admin", "abort", permissions=p.PLAYER)
    [news] = fake.public(aborted)
    assert "Game #1 was cancelled" in news.content
    assert await titan.bot.service.game_in(p.CHANNEL_ID) is None


async def test_an_organiser_hands_a_seat_to_a_substitute(fake, titan):
    news = await open_game(fake)
    leaving = news.notified[0]
    handed = await command(
        fake,
        ANN,
        "titan-admin",
        "replace",
        permissions=p.ORGANISER,
        player=p.Mention(leaving),
        substitute=p.Mention(CAROL),
    )
    [public] = fake.public(handed)
    assert public.notified == (CAROL,) and "handed" in public.content
    chosen = await command(fake, CAROL, "turn", "colour", colour="Green")
    assert "takes Green" in fake.public(chosen)[0].content


async def test_a_hand_over_keeps_the_other_seats_and_their_ai_levels(fake, titan):
    await command(fake, ANN, "titan", "new", players=3)
    await command(fake, ANN, "titan", "ai", name="Hal", level="hard")
    await command(fake, BOB, "titan", "join")
    await command(fake, ANN, "titan", "start")
    replace = dict(player=p.Mention(BOB), substitute=p.Mention(CAROL))
    handed = await command(fake, ANN, "titan-admin", "replace", permissions=p.ORGANISER, **replace)
    assert "handed" in fake.public(handed)[0].content
    game = await titan.bot.service.game_in(p.CHANNEL_ID)
    assert [(s.user, s.name, s.level) for s in game.seats] == [
        (ANN, game.name_of(0), None),
        (game.user_of(1), "Hal", "hard"),
        (CAROL, game.name_of(2), None),
    ]
    asked = await command(fake, CAROL, "titan", "status")
    assert "Played by the computer: **Hal** (hard)." in fake.sent_for(asked)[0].content


async def test_an_organiser_removes_a_player(fake, titan):
    news = await open_game(fake)
    first = news.notified[0]
    await command(fake, first, "turn", "colour", colour="Red")
    await command(fake, ANN if first == BOB else BOB, "turn", "colour", colour="Blue")
    removed = await command(
        fake, CAROL, "titan-admin", "remove", permissions=p.ORGANISER, player=p.Mention(BOB)
    )
    [public] = fake.public(removed)
    assert "Organiser **Player 13** removed **Player 12**" in public.content


async def test_battle_commands_reach_the_engine_which_refuses_them_outside_a_battle(fake, titan):
    news = await open_game(fake)
    refused = await command(fake, news.notified[0], "battle", "strike", striker="d4", target="E5")
    [answer] = fake.ephemeral(refused)
    assert "strike" in answer.content.lower() and fake.public(refused) == []
    shown = await command(fake, ANN, "battle", "board")
    assert fake.ephemeral(shown)[0].content.startswith("no battle is being fought now")


async def test_the_start_pings_every_player_once_and_the_colours_are_told(fake, titan):
    await command(fake, ANN, "titan", "new", players=3)
    await command(fake, BOB, "titan", "join")
    await command(fake, CAROL, "titan", "join")
    started = await command(fake, ANN, "titan", "start")
    [news] = fake.public(started)
    assert "Game #1 begins" in news.content
    assert sorted(news.notified) == sorted([ANN, BOB, CAROL])  # each once, in one message
    pinged = [u for m in fake.in_channel(p.CHANNEL_ID) for u in m.notified]
    assert sorted(pinged) == sorted([ANN, BOB, CAROL])
    for _ in range(3):  # the colours, chosen by their buttons
        board = max((m for m in fake.in_channel(p.CHANNEL_ID) if m.components), key=lambda m: m.id)
        game = await titan.bot.service.game_in(p.CHANNEL_ID)
        chooser = game.user_of(to_act(game.state))
        colour = next(c for c in board.custom_ids() if ":colour " in c)
        last = await click(fake, chooser, board, colour)
    told = "\n".join(m.content for m in fake.public(last))
    assert "Colours: " in told and "Player 11" in told.split("Colours: ")[1]
