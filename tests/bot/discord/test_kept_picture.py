"""An edit of the live message that says the same picture again leaves its attachment in
place (no upload; Discord keeps a message's files when an edit does not name them), and
one with a new picture replaces it."""

from __future__ import annotations

from bot.replies import Message, Picture, PictureKind
from engine.game.setup import new_game
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import Running


def board(text: str, image: bytes) -> Message:
    state, _ = new_game(("Ann", "Bob"), seed=1)
    return Message(text, picture=Picture(PictureKind.MASTERBOARD, state), image=image)


async def test_a_kept_picture_is_not_uploaded_again_and_a_new_one_replaces_it(fake, titan: Running):
    transport = titan.bot.transport
    outcome, number = await transport.post(p.CHANNEL_ID, board("Ann moves.", b"one"), "n1", None)
    assert outcome == "sent" and number is not None
    [(name, data)] = fake.messages[number].files
    assert (name, data) == ("masterboard.png", b"one")
    first = list(fake.messages[number].file_ids)

    said = await transport.edit(p.CHANNEL_ID, number, board("Ann recruits.", b"one"), "", kept=True)
    assert said == "edited, its files kept"
    [edit] = fake.paths("PATCH", rf"messages/{number}$")
    assert edit.files == [] and "attachments" not in edit.body
    held = fake.messages[number]
    assert held.content == "Ann recruits." and held.files == [("masterboard.png", b"one")]
    assert held.file_ids == first

    said = await transport.edit(p.CHANNEL_ID, number, board("Ann is done.", b"two"), "")
    assert said == "edited"
    assert fake.paths("PATCH", rf"messages/{number}$")[-1].files == [("masterboard.png", b"two")]
    assert fake.messages[number].files == [("masterboard.png", b"two")]
