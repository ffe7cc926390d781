"""A damaged game through the real bot and the fake Discord: the channel is told in plain
words, an organiser exports the readable record as a file and aborts it, `new` works."""

from __future__ import annotations

import json

from bot.discord.deliver import files
from bot.replies import Attachment, Message
from tests.bot.discord import payloads as p
from tests.bot.discord.helpers import ANN, BOB, CAROL, command, open_game, slash
from tests.bot.tampering import truncate_action

NOTICE = (
    "Game #1 in this channel is damaged (action 2 cannot be read); an organiser can export "
    "what is readable and abort it. {new} opens a fresh game."
)


async def test_an_organiser_exports_and_aborts_a_damaged_game(fake, titan, tmp_path):
    news = await open_game(fake)
    first = news.notified[0]
    await command(fake, first, "turn", "colour", colour="Red")
    await command(fake, ANN if first == BOB else BOB, "turn", "colour", colour="Blue")
    truncate_action(tmp_path / "games.sqlite3", 1, 2)
    titan.bot.service.forget()

    notice = NOTICE.format(new=slash(fake, "titan new"))
    status = await command(fake, CAROL, "titan", "status")
    [answer] = fake.ephemeral(status)
    assert answer.content == notice
    [told] = fake.public(status)  # the channel learns it once, whoever met the damage
    assert told.content.splitlines()[-1] == notice
    board = await command(fake, ANN, "titan", "board")
    assert fake.ephemeral(board)[0].content == notice and fake.public(board) == []

    seated = await command(fake, ANN, "titan-admin", "export", permissions=p.ORGANISER)
    [refusal] = fake.ephemeral(seated)
    assert "you hold a seat in game #1" in refusal.content and refusal.files == []

    exported = await command(fake, CAROL, "titan-admin", "export", permissions=p.ORGANISER)
    [answer] = fake.ephemeral(exported)
    assert fake.public(exported) == [] and fake.dms_to(CAROL) == []
    [(name, data)] = answer.files
    document = json.loads(data)
    assert name == "titan-game-1.json" and answer.content.startswith("Game #1 (active, damaged")
    assert [entry["n"] for entry in document["actions"]] == [1]
    assert [entry["n"] for entry in document["damage"]["unreadable_actions"]] == [2]

    aborted = await command(fake, CAROL, "titan-admin", "abort", permissions=p.ORGANISER)
    [public] = fake.public(aborted)
    assert public.content.splitlines()[-1] == (  # added to the channel's live message
        "Game #1 (damaged: action 2 cannot be read) was cancelled by Player 13."
    )
    opened = await command(fake, BOB, "titan", "new", players=2)
    assert "opened game #2" in fake.public(opened)[0].content


def test_a_file_over_the_upload_limit_is_left_out_with_a_warning(caplog):
    message = Message("export", attachments=(Attachment("titan-game-1.json", b"x" * 100),))
    [upload] = files(message, 100)
    assert upload.filename == "titan-game-1.json"
    assert files(message, 99) == [] and "over the upload limit" in caplog.text
