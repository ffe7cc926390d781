"""A game whose stored log cannot be read back is marked damaged, named, and set aside:
the channel gets a plain explanation (not an apology), `new` works again, organisers can
export what is readable and abort it."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import pytest

from bot.console import Console
from bot.context import Caller, Place
from bot.records.damage import damage_notice
from bot.service import GameService
from engine.game import actions as a
from engine.game.actions import action_to_json
from tests.bot.agent import caller, open_game, step
from tests.bot.conftest import SEED
from tests.bot.tampering import (
    delete_action,
    execute,
    last_action,
    query,
    truncate_action,
)

CHANNEL = 5
HERE = Place(CHANNEL)
AGENT = 3
OLGA = Caller(9001, "Olga", organiser=True)
"""An organiser without a seat."""


async def played(service: GameService, count: int) -> None:
    await open_game(service, CHANNEL, 2)
    for _ in range(count):
        await step(service, CHANNEL, AGENT)


def damaged_column(db_path) -> list[tuple[str, str | None]]:
    return query(db_path, "SELECT status, damaged FROM games ORDER BY id")


async def test_a_truncated_last_action_is_named_and_the_channel_recovers(
    service, db_target, caplog
):
    await played(service, 15)
    truncate_action(db_target, 1, 15)
    service.forget()
    notice = damage_notice(1, "action 15 cannot be read")
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        found = await service.submit(HERE, caller(CHANNEL, 0), "legions")
    assert found.error and found.ephemeral.text == notice
    assert damaged_column(db_target) == [("active", "action 15 cannot be read")]
    [warning] = [r for r in caplog.records if "damaged" in r.getMessage()]
    assert warning.levelno == logging.WARNING
    assert warning.getMessage().startswith("game 1 (channel 5) is damaged: action 15 cannot be")

    status = await service.submit(HERE, Caller(999, "Watcher"), "status")
    assert not status.error and status.ephemeral.text == notice
    for text in ("colour Red", "board", "history", "legal", "join", "start"):
        again = await service.submit(HERE, caller(CHANNEL, 1), text)
        assert again.error and again.ephemeral.text == notice, text
    assert (await service.act(HERE, caller(CHANNEL, 1), a.EndTurn())).ephemeral.text == notice

    exported = await service.submit(HERE, OLGA, "export")
    assert not exported.error and exported.public is None and exported.private == {}
    document = json.loads(exported.ephemeral.attachments[0].data)
    assert exported.ephemeral.attachments[0].filename == "titan-game-1.json"
    assert [entry["n"] for entry in document["actions"]] == list(range(1, 15))
    stored = query(db_target, "SELECT n, events FROM actions WHERE game = 1 AND n < 15 ORDER BY n")
    assert [entry["events"] for entry in document["actions"]] == [json.loads(e) for _, e in stored]
    [unreadable] = document["damage"]["unreadable_actions"]
    assert (
        unreadable["n"] == 15
        and unreadable["action"]
        == query(db_target, "SELECT action FROM actions WHERE n = 15")[0][0]
    )
    assert document["game"]["damaged"] == "action 15 cannot be read"
    assert document["game"]["seed"] == SEED and document["game"]["status"] == "active"
    assert [s["name"] for s in document["seats"]] == ["P0", "P1"]
    assert document["damage"]["replayed_from_seed"] == 14
    assert any(p["n"] == 15 for p in document["damage"]["problems"])

    aborted = await service.submit(HERE, OLGA, "cancel")
    assert aborted.public.text == (
        "Game #1 (damaged: action 15 cannot be read) was cancelled by Olga."
    )
    assert damaged_column(db_target) == [("cancelled", "action 15 cannot be read")]
    quiet = await service.submit(HERE, OLGA, "status")
    assert quiet.ephemeral.text == "There is no game in this channel: open one with `new`."
    opened = await service.submit(HERE, caller(CHANNEL, 0), "new players 2")
    assert not opened.error and "opened game #2" in opened.public.text


async def test_new_opens_a_fresh_game_beside_the_damaged_one_which_can_still_be_aborted(
    service, db_target
):
    await played(service, 12)
    truncate_action(db_target, 1, 12)
    service.forget()
    opened = await service.submit(HERE, caller(CHANNEL, 0), "new players 2")
    assert not opened.error and "opened game #2" in opened.public.text
    status = await service.submit(HERE, caller(CHANNEL, 1), "status")
    assert status.ephemeral.text.startswith("Game #2 is forming")
    refused = await service.submit(HERE, caller(CHANNEL, 1), "cancel 1")  # neither
    assert refused.error and "only the host (P0) or an organiser" in refused.ephemeral.text
    assert "not a damaged game" in (await service.submit(HERE, OLGA, "cancel 7")).ephemeral.text
    aborted = await service.submit(HERE, OLGA, "cancel 1")
    assert aborted.public.text.startswith("Game #1 (damaged: action 12 cannot be read) was")
    assert damaged_column(db_target) == [("cancelled", "action 12 cannot be read"), ("lobby", None)]
    assert (await service.game_in(CHANNEL)).id == 2


async def test_the_host_may_cancel_the_damaged_game_too(service, db_target):
    await played(service, 11)
    truncate_action(db_target, 1, 11)
    service.forget()
    cancelled = await service.submit(HERE, caller(CHANNEL, 0), "cancel")
    assert cancelled.public.text == (
        "Game #1 (damaged: action 11 cannot be read) was cancelled by P0."
    )


def _refused_action(db_path) -> None:
    """Rewrite the last action as a colour choice, long after the colours were taken."""
    text = json.dumps(action_to_json(a.ChooseColour("Red")))
    execute(db_path, "UPDATE actions SET action = ? WHERE n = ?", text, last_action(db_path, 1))


DAMAGE = {
    "truncated events": (
        lambda path: execute(path, "UPDATE actions SET events = '[{\"ty' WHERE n = 14"),
        "action 14 cannot be read",
    ),
    "action that is not an action": (
        lambda path: execute(path, "UPDATE actions SET action = '[1, 2]' WHERE n = 13"),
        "action 13 cannot be read",
    ),
    "missing after the snapshot": (
        lambda path: delete_action(path, 1, 12),
        "action 12 is missing",
    ),
    "missing before the snapshot": (
        lambda path: delete_action(path, 1, 4),
        "action 4 is missing",
    ),
    "missing at the end, before a snapshot": (
        lambda path: [delete_action(path, 1, n) for n in (9, 10)],
        "action 9 is missing",
    ),
    "refused on replay": (_refused_action, "action 15 is refused by the rules on replay"),
    "unreadable settings": (
        lambda path: execute(path, "UPDATE games SET settings = '{\"ho'"),
        "its settings cannot be read",
    ),
}


@pytest.mark.parametrize("kind", sorted(DAMAGE))
async def test_each_kind_of_damage_is_named(service, db_target, kind):
    await played(service, 15)
    tamper, reason = DAMAGE[kind]
    if kind == "missing at the end, before a snapshot":
        execute(db_target, "DELETE FROM actions WHERE n > 10")
    tamper(db_target)
    service.forget()
    found = await service.submit(HERE, caller(CHANNEL, 0), "board")
    assert found.ephemeral.text == damage_notice(1, reason)
    assert damaged_column(db_target) == [("active", reason)]
    assert not (await service.submit(HERE, caller(CHANNEL, 0), "new")).error


async def test_export_is_for_organisers_without_a_seat_while_the_game_is_played(service):
    await played(service, 5)
    player = await service.submit(HERE, caller(CHANNEL, 0), "export")
    assert player.error and "only an organiser" in player.ephemeral.text
    seated = replace(caller(CHANNEL, 0), organiser=True)
    refused = await service.submit(HERE, seated, "export")
    assert refused.error and refused.ephemeral.attachments == ()
    assert "you hold a seat in game #1, which is still being played" in refused.ephemeral.text
    exported = await service.submit(HERE, OLGA, "export 1")
    document = json.loads(exported.ephemeral.attachments[0].data)
    assert [entry["n"] for entry in document["actions"]] == [1, 2, 3, 4, 5]
    assert document["damage"] == {
        "unreadable_actions": [],
        "missing_actions": [],
        "problems": [],
        "replayed_from_seed": 5,
    }
    assert "no problem" in exported.ephemeral.text
    elsewhere = await service.submit(Place(6), OLGA, "export 1")
    assert elsewhere.error and "this channel has no game #1" in elsewhere.ephemeral.text
    await service.submit(HERE, OLGA, "cancel")
    after = await service.submit(HERE, seated, "export")  # no longer being played
    assert not after.error and after.ephemeral.attachments != ()


async def test_a_local_organiser_exports_into_the_output_folder(tmp_path):
    service = await GameService.open(tmp_path / "c.sqlite3", seeds=lambda: 1)
    said: list[str] = []
    try:
        console = Console(service, tmp_path / "out", write=said.append)
        await console.setup(["Ann", "Bob"])
        await console.handle("Ann: export")
        assert "you hold a seat in game #1" in said[-1]
        await console.handle("Ann: cancel")
        await console.handle("Ann: export")
    finally:
        await service.close()
    path = tmp_path / "out" / "titan-game-1.json"
    assert said[-1].endswith(f"[file: {path}]")
    assert json.loads(path.read_bytes())["game"]["status"] == "cancelled"
