"""The fake Discord is as strict as Discord: late or second acknowledgements, big files,
closed DMs, unknown routes. (If it were lenient, the bot's tests would prove little.)"""

from __future__ import annotations

import json
import time

import aiohttp

from tests.bot.discord import payloads as p
from tests.bot.discord.fake import FakeDiscord, Pushed
from tests.bot.discord.helpers import BOB


async def _post(fake: FakeDiscord, path: str, body: dict, **kwargs) -> tuple[int, dict]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.base}/{path}", json=body, headers=headers, **kwargs) as response,
    ):
        return response.status, json.loads(await response.text() or "{}")


def _interaction(fake: FakeDiscord, age: float = 0.0) -> Pushed:
    pushed = Pushed(fake.next_id(), "tok", 2, BOB, time.monotonic() - age)
    fake.interactions[pushed.id] = pushed
    return pushed


async def test_a_late_acknowledgement_is_refused(fake):
    late = _interaction(fake, age=3.5)
    status, body = await _post(fake, f"interactions/{late.id}/tok/callback", {"type": 5})
    assert (status, body["code"]) == (404, 10062)


async def test_a_second_acknowledgement_is_refused(fake):
    pushed = _interaction(fake)
    path = f"interactions/{pushed.id}/tok/callback"
    assert (await _post(fake, path, {"type": 5}))[0] == 200
    status, body = await _post(fake, path, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060)


async def test_uploads_over_ten_mebibytes_are_refused(fake):
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "big"}))
    form.add_field("files[0]", b"x" * (p.UPLOAD_LIMIT + 1), filename="big.png")
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{fake.base}/channels/{p.CHANNEL_ID}/messages", data=form, headers=headers
        ) as response,
    ):
        assert response.status == 413 and (await response.json())["code"] == 40005


async def test_closed_dms_refuse_messages_and_every_request_is_recorded(fake):
    fake.dms_closed.add(BOB)
    status, channel = await _post(fake, "users/@me/channels", {"recipient_id": str(BOB)})
    assert status == 200
    status, body = await _post(fake, f"channels/{channel['id']}/messages", {"content": "hi"})
    assert (status, body["code"]) == (403, 50007)
    status, _ = await _post(fake, "guilds/1/bans", {})
    assert status == 404
    assert [r.status for r in fake.requests] == [200, 403, 404]
    assert all(r.at > 0 for r in fake.requests)
