"""Forged records against the values the bot announced: every forgery is refused.

Two whole games are played (:mod:`tests.bot.test_public_record`); the record of one is
forged in each of the ways an attack review found ``verify`` accepting, each forgery made
consistent in itself where it can be (the commitment the record carries recomputed for its
new fields). Given the commitment announced at the start and the record digest announced
at the end, ``verify`` refuses each; given the commitment alone, it refuses every forgery
of what the commitment binds; the true record verifies. An older record
(``titanbot-record/1``, its commitment over the seed and salt only) still verifies, and
says what it proves.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from bot.context import Caller, Place
from bot.discord.seats import replace_player
from bot.records.canonical import digest
from bot.records.check_record import UNBOUND, Announced, check_record, pledged
from bot.records.proof import DICE_SCHEME, commitment
from bot.records.public import read_record
from tests.bot.agent import caller, open_game, step
from tests.bot.tampering import query
from tests.bot.test_public_record import (
    CHANNEL,
    COMMITTED,
    DIGESTED,
    GAMES,
    announced_in,
    document_of,
    finished,
)

Forgery = Callable[[dict[str, Any]], None]
SUBSTITUTE = 777_000_000_000_000_001


def swap_seats(d: dict[str, Any]) -> None:
    first, second = d["players"][0], d["players"][1]
    for key in ("name", "user", "ai"):
        first[key], second[key] = second[key], first[key]


def cancel_after(count: int) -> Forgery:
    def cut(d: dict[str, Any]) -> None:
        d["actions"] = d["actions"][:count]
        d["result"] = {"ended": "cancelled", "winners": [], "reason": None}

    return cut


def null_commitment(d: dict[str, Any]) -> None:
    d["dice"].update(scheme=None, salt=None, commitment=None)


def change_user(d: dict[str, Any]) -> None:
    d["players"][0]["user"] = "123456789012345678"


def change_game(d: dict[str, Any]) -> None:
    d["game"] = 7


def change_start(d: dict[str, Any]) -> None:
    d["started_at"] = "2020-01-01T00:00:00.000+00:00"


def change_end(d: dict[str, Any]) -> None:
    d["ended_at"] = "2020-01-01T00:00:00.000+00:00"


def change_cause(d: dict[str, Any]) -> None:
    d["actions"][3]["cause"] = "a passed deadline"


def change_player_count(d: dict[str, Any]) -> None:
    d["settings"]["players"] = 6


def flip_record_keeping(d: dict[str, Any]) -> None:
    keeping = not d["settings"]["record_keeping"]
    d["settings"]["record_keeping"] = keeping
    d["settings"]["options"]["record_keeping"] = keeping


FORGERIES: dict[str, Forgery] = {
    "seats 0 and 1 swapped": swap_seats,
    "cut to 0 actions, cancelled": cancel_after(0),
    "cut to 10 actions, cancelled": cancel_after(10),
    "salt and commitment nulled": null_commitment,
    "a user id changed": change_user,
    "the game number changed": change_game,
    "the start date changed": change_start,
    "the end date changed": change_end,
    "an action's cause changed": change_cause,
    "the player count changed": change_player_count,
    "record keeping flipped": flip_record_keeping,
}
BOUND = {
    "seats 0 and 1 swapped",
    "salt and commitment nulled",
    "a user id changed",
    "the game number changed",
    "the start date changed",
    "the player count changed",
    "record keeping flipped",
}
"""The forgeries of what the start's commitment binds: refused given it alone."""


def forged(document: dict[str, Any], forgery: Forgery) -> dict[str, Any]:
    """``document`` forged, its own commitment recomputed to fit (when it has one)."""
    changed = copy.deepcopy(document)
    forgery(changed)
    if changed["dice"]["commitment"] is not None:
        changed["dice"]["commitment"] = digest(pledged(changed))
    return changed


@pytest.fixture
async def played(tmp_path_factory):
    return await finished(tmp_path_factory, GAMES[1])


async def test_the_true_record_verifies_against_what_was_announced(played):
    verdict = check_record(document_of(played), announced_in(played))
    assert verdict.ok and UNBOUND not in verdict.text


@pytest.mark.parametrize("name", FORGERIES)
async def test_each_forgery_is_refused_given_the_announced_values(played, name):
    document, announced = document_of(played), announced_in(played)
    changed = forged(document, FORGERIES[name])
    assert changed != document
    verdict = check_record(changed, announced)
    assert not verdict.ok
    assert verdict.text.startswith("the record's digest is ")
    assert verdict.text.endswith("this is not the record announced at the game's end")
    alone = check_record(changed, Announced(commitment=announced.commitment))
    if name in BOUND:
        assert not alone.ok, name
        assert alone.text.startswith(
            ("the record's commitment is ", "the record carries no commitment")
        )
    else:  # what only the end's digest binds: consistent in itself, hence told so
        assert alone.ok and alone.text.endswith(UNBOUND)


async def test_another_game_s_record_relabelled_is_refused(tmp_path_factory, played):
    other = document_of(await finished(tmp_path_factory, GAMES[0]))
    announced = announced_in(played)
    relabelled = forged(other, lambda d: d.update(game=document_of(played)["game"]))
    assert check_record(relabelled).ok  # a true record in itself…
    for given in (announced, Announced(commitment=announced.commitment)):
        verdict = check_record(relabelled, given)  # …but not the one announced
        assert not verdict.ok


async def test_a_record_of_the_former_format_verifies_and_says_what_it_proves(played):
    document = document_of(played)
    former = copy.deepcopy(document)
    former["format"] = "titanbot-record/1"
    for key in ("guild", "channel", "started_at"):
        del former[key]
    seed, salt = int(document["dice"]["seed"]), document["dice"]["salt"]
    former["dice"] = {
        "scheme": DICE_SCHEME,
        "seed": seed,
        "salt": salt,
        "commitment": commitment(seed, salt),
    }
    verdict = check_record(former)
    assert verdict.ok, verdict.text
    assert (
        f"commitment: {commitment(seed, salt)} ({DICE_SCHEME}: it binds only the seed and "
        "salt, not the seats or settings), not compared"
    ) in verdict.text
    assert verdict.text.endswith(UNBOUND)
    swapped = copy.deepcopy(former)
    swap_seats(swapped)
    assert check_record(swapped).ok  # what the former scheme could not bind
    former["dice"]["seed"] = str(seed)
    assert check_record(former).text == f"the record's seed is not a whole number: '{seed}'"


async def test_a_seat_handed_over_keeps_the_committed_seats_and_shows_the_substitute(
    service, db_target
):
    place = Place(CHANNEL)
    await open_game(service, CHANNEL, 2)
    for _ in range(4):
        await step(service, CHANNEL, 5)
    organiser = Caller(SUBSTITUTE + 1, "Org", organiser=True)
    handed = await replace_player(service, place, organiser, caller(CHANNEL, 1).user, SUBSTITUTE)
    assert not handed.error, handed.ephemeral
    await service.submit(place, caller(CHANNEL, 0), "cancel")
    given = await service.submit(place, caller(CHANNEL, 0), "record 1")
    document = read_record(given.ephemeral.attachments[0].data)
    started = [str(caller(CHANNEL, seat).user) for seat in (0, 1)]
    assert [p["user"] for p in document["players"]] == started
    assert [p["user"] for p in document["players_at_end"]] == [started[0], str(SUBSTITUTE)]
    bodies = [row[0] for row in query(db_target, "SELECT body FROM outbox ORDER BY id")]
    [made] = {m for body in bodies for m in COMMITTED.findall(body)}
    [sealed] = {m for body in bodies for m in DIGESTED.findall(body)}
    verdict = check_record(document, Announced(made, sealed))
    assert verdict.ok, verdict.text
    assert "the game was cancelled after action" in verdict.text
