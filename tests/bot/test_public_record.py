"""The public record: a commitment at the start, the seed and salt revealed at the end,
the record given to anyone once the game is over, and ``titanbot verify`` replaying it.

Whole games are played by the agent through the service for several seeds; each record
is checked, then tampered with (a roll, an action, the seed, the salt, the result), and
each change is refused naming the first difference. Nothing said before the end (every
outbox row, every answer) holds the seed or the salt.
"""

from __future__ import annotations

import copy
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.context import Place
from bot.records.canonical import digest
from bot.records.check_record import UNBOUND, Announced, check_record, pledged, rolls
from bot.records.proof import GAME_SCHEME
from bot.records.public import FORMAT, NotARecord, read_record
from bot.service import GameService
from bot.storage.backends import Target
from engine.version import ENGINE_VERSION
from tests.bot.agent import caller, open_game, play, step
from tests.bot.tampering import execute, query

CHANNEL = 8
GAMES = ((3_141_592_653_589_793_238, 2, 5), (2_718_281_828_459_045_235, 3, 11))
"""(seed, players, agent seed): seeds far from any number a message could hold."""
SALT = "0123456789abcdef" * 2
COMMITTED = re.compile(r"Game commitment: `([0-9a-f]{64})`")
DIGESTED = re.compile(r"Record digest: `([0-9a-f]{64})`")
ASKED = ("status", "history 20", "legions", "board", "record")
SPECTATOR = 999


async def _finished(path: Path, seed: int, players: int, agent: int) -> dict[str, Any]:
    """A whole game played in ``path``; what was said and the record's files."""
    salts = iter([SALT])
    service = await GameService.open(path, seeds=lambda: seed, salts=lambda: next(salts))
    try:
        await open_game(service, CHANNEL, players)
        answers: list[str] = []
        for count in range(5_000):
            if await service.game_in(CHANNEL) is None:
                break
            if count % 40 == 0:
                for text in ASKED:
                    for who in (caller(CHANNEL, 0), caller(SPECTATOR, 0)):
                        replies = await service.submit(Place(CHANNEL), who, text)
                        answers.append(replies.ephemeral.text if replies.ephemeral else "")
            await step(service, CHANNEL, agent)
        else:
            raise AssertionError("the game should end")
        refused_early = answers
        replies = await service.submit(Place(CHANNEL), caller(SPECTATOR, 0), "record")
    finally:
        await service.close()
    return {"answers": refused_early, "replies": replies, "outbox": _outbox(path)}


def _outbox(path: Target) -> list[str]:
    return [row[0] for row in query(path, "SELECT body FROM outbox ORDER BY id")]


_PLAYED: dict[tuple[int, int, int], dict[str, Any]] = {}


async def finished(tmp_path_factory: pytest.TempPathFactory, game: tuple[int, int, int]):
    """The game ``game`` played once per test process."""
    if game not in _PLAYED:
        path = tmp_path_factory.mktemp("record") / "games.sqlite3"
        _PLAYED[game] = await _finished(path, *game)
    return _PLAYED[game]


def document_of(played: dict[str, Any]) -> dict[str, Any]:
    json_file = played["replies"].ephemeral.attachments[0]
    return read_record(json_file.data)


def announced_in(played: dict[str, Any]) -> Announced:
    """The commitment the start announced and the record digest the end announced."""
    bodies = played["outbox"]
    [made] = {m for body in bodies for m in COMMITTED.findall(body)}
    [sealed] = {m for body in bodies for m in DIGESTED.findall(body)}
    return Announced(made, sealed)


@pytest.mark.parametrize("game", GAMES)
async def test_a_finished_game_s_record_verifies(tmp_path_factory, game):
    played = await finished(tmp_path_factory, game)
    replies = played["replies"]
    assert not replies.error and replies.public is None
    names = [a.filename for a in replies.ephemeral.attachments]
    assert names == ["titan-record-1.json", "titan-record-1.txt"]
    document = document_of(played)
    seed, players, _ = game
    assert document["format"] == FORMAT and document["engine"] == ENGINE_VERSION
    announced = announced_in(played)
    assert document["dice"] == {
        "scheme": GAME_SCHEME,
        "seed": str(seed),
        "salt": SALT,
        "commitment": announced.commitment,
    }
    assert (document["game"], document["guild"], document["channel"]) == (1, None, str(CHANNEL))
    assert document["opened_at"] < document["started_at"] < document["ended_at"]
    assert [p["seat"] for p in document["players"]] == list(range(players))
    assert all(p["user"] == str(caller(CHANNEL, p["seat"]).user) for p in document["players"])
    assert document["result"]["ended"] == "over" and document["result"]["winners"]
    assert [a["n"] for a in document["actions"]] == list(range(1, len(document["actions"]) + 1))
    verdict = check_record(document, announced)
    assert verdict.ok, verdict.text
    first, made, sealed = verdict.text.split("\n")
    assert first.startswith(f"verified: game #1, {players} players, ")
    assert made.startswith(f"commitment: {announced.commitment} ({GAME_SCHEME}: it binds ")
    assert made.endswith("the one announced at the start.")
    assert sealed == f"record digest: {announced.record_digest}, the one announced at the end."
    alone = check_record(document)
    assert alone.ok and alone.text.split("\n")[0] == first
    assert alone.text.endswith(f"--record-digest.\n{UNBOUND}")
    text = replies.ephemeral.attachments[1].data.decode()
    assert text.startswith(f"TITAN, game #1 ({FORMAT}")
    assert f"#{len(document['actions'])} " in text and "Game over" in text.splitlines()[-1]


@pytest.mark.parametrize("game", GAMES)
async def test_the_start_commits_and_only_the_end_reveals(tmp_path_factory, game):
    played = await finished(tmp_path_factory, game)
    seed = game[0]
    document = document_of(played)
    bodies = played["outbox"]
    ends = [i for i, body in enumerate(bodies) if "Dice revealed" in body]
    assert len(ends) == 1 and ends[0] >= len(bodies) - 3  # the end's news, then private news
    before, end = bodies[: ends[0]], bodies[ends[0]]
    assert str(seed) in end and SALT in end
    assert end.index("Game over") < end.index("Dice revealed")  # right after the end's line
    for body in [*before, *played["answers"]]:
        assert str(seed) not in body and SALT not in body
    announced = announced_in(played)
    assert announced.commitment == document["dice"]["commitment"] == digest(pledged(document))
    assert announced.record_digest == digest(document)  # the record given later is the one
    assert all(announced.record_digest in body for body in bodies[ends[0] :][:1])
    starts = [body for body in bodies if announced.commitment in body]
    assert len(starts) == 1 and bodies.index(starts[0]) < ends[0]
    refusals = [text for text in played["answers"] if "still being played" in text]
    assert refusals and all("once the game is over" in text for text in refusals)


def _tampered(document: dict[str, Any], change) -> str:
    changed = copy.deepcopy(document)
    change(changed)
    verdict = check_record(changed)
    assert not verdict.ok
    return verdict.text


def _first_rolled(document: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in document["actions"] if rolls(a["events"]))


async def test_each_change_is_refused_naming_the_first_difference(tmp_path_factory):
    document = document_of(await finished(tmp_path_factory, GAMES[1]))
    rolled = _first_rolled(document)
    n, seat = rolled["n"], rolled["seat"]
    name = document["players"][seat]["name"]
    original = rolls(rolled["events"])

    def change_roll(d):
        events = next(a for a in d["actions"] if a["n"] == n)["events"]
        event = next(e for e in events if "roll" in e or "rolls" in e)
        if "roll" in event:
            event["roll"] = event["roll"] % 6 + 1
        else:
            event["rolls"] = [r % 6 + 1 if isinstance(r, int) else r for r in event["rolls"]]

    said = _tampered(document, change_roll)
    assert said.startswith(f"action {n} by seat {seat} ({name}: ")
    changed = rolls(_changed_events(document, change_roll, n))
    assert changed != original
    assert said.endswith(
        f"the record's events differ from the replay: record rolls {changed}, replay {original}"
    )

    def change_colour(d):
        first = d["actions"][0]
        taken = {a["action"].get("colour") for a in d["actions"][: len(d["players"])]}
        first["action"]["colour"] = next(c for c in ("Red", "Black", "Brown") if c not in taken)

    said = _tampered(document, change_colour)
    first = document["actions"][0]
    assert said.startswith(f"action 1 by seat {first['seat']} (")
    assert "the record's events differ from the replay: record {" in said

    move = next(a for a in document["actions"] if a["action"]["type"] == "Move")

    def change_move(d):
        next(a for a in d["actions"] if a["n"] == move["n"])["action"]["land"] = 6000

    said = _tampered(document, change_move)
    assert said.startswith(f"action {move['n']} by seat {move['seat']} (")
    assert "the replay refuses it" in said

    def change_seed(d):
        d["dice"]["seed"] = str(int(d["dice"]["seed"]) + 1)

    def change_salt(d):
        d["dice"]["salt"] = "f" + d["dice"]["salt"][1:]

    for change in (change_seed, change_salt):
        assert _tampered(document, change) == (
            "the commitment does not match the record: its server, channel, number, start, "
            "seats, settings, engine, seed or salt differ from what was committed"
        )

    def forge_seed(d):  # a new seed with its own commitment: the dice are not the record's
        change_seed(d)
        d["dice"]["commitment"] = digest(pledged(d))

    said = _tampered(document, forge_seed)
    assert said.startswith("the game's setup: the record's events differ from the replay")

    winners = document["result"]["winners"]
    other = next(p["seat"] for p in document["players"] if p["seat"] not in winners)

    def change_result(d):
        d["result"]["winners"] = [other]

    said = _tampered(document, change_result)
    names = {p["seat"]: p["name"] for p in document["players"]}
    reason = document["result"]["reason"]
    assert said == (
        f"the record's result is {names[other]} wins ({reason}), but the replay says "
        f"{' and '.join(names[w] for w in winners)} wins ({reason})"
    )

    def drop_action(d):
        del d["actions"][9]

    assert _tampered(document, drop_action).startswith("action 10 is missing")


def _changed_events(document, change, n):
    changed = copy.deepcopy(document)
    change(changed)
    return next(a for a in changed["actions"] if a["n"] == n)["events"]


async def test_titanbot_verify_reads_json_and_gzip(tmp_path_factory, tmp_path, capsys):
    played = await finished(tmp_path_factory, GAMES[0])
    announced = announced_in(played)
    data = played["replies"].ephemeral.attachments[0].data
    plain, packed = tmp_path / "r.json", tmp_path / "r.json.gz"
    plain.write_bytes(data)
    packed.write_bytes(gzip.compress(data))
    given = ["--commitment", f"`{announced.commitment}`", "--record-digest"]
    for path in (plain, packed):
        assert main(["verify", str(path), *given, announced.record_digest.upper()]) == 0
        said = capsys.readouterr().out
        assert said.startswith("verified: game #1, 2 players, ")
        assert f"commitment: {announced.commitment} (" in said
        assert f"record digest: {announced.record_digest}, the one announced" in said
        assert UNBOUND not in said
        assert main(["verify", str(path)]) == 0
        assert capsys.readouterr().out.endswith(f"{UNBOUND}\n")
    assert main(["verify", str(plain), "--record-digest", "0" * 64]) == 1
    said = capsys.readouterr().out
    assert said == (
        f"{plain}: the record's digest is {announced.record_digest}, not the announced "
        f"{'0' * 64}: this is not the record announced at the game's end\n"
    )
    document = json.loads(data)
    document["dice"]["salt"] = "0" * 32
    plain.write_text(json.dumps(document))
    assert main(["verify", str(plain)]) == 1
    said = capsys.readouterr().out
    assert said.startswith(f"{plain}: the commitment does not match the record: ")
    plain.write_text('{"format": "something-else"}')
    assert main(["verify", str(plain)]) == 1
    assert f"not a {FORMAT} record" in capsys.readouterr().out
    assert main(["verify", str(tmp_path / "absent.json")]) == 2
    with pytest.raises(SystemExit) as refused:
        main(["verify", str(plain), "--commitment", "not-hex"])
    assert refused.value.code == 2
    assert "'not-hex' is not a SHA-256 digest" in capsys.readouterr().err


def test_unreadable_bytes_are_no_record():
    for data in (b"\x1f\x8bnot gzip", b"{", b"[1, 2]"):
        with pytest.raises(NotARecord):
            read_record(data)


async def test_the_record_is_refused_before_the_end_and_given_after_a_cancel(service):
    place, host = Place(CHANNEL), caller(CHANNEL, 0)
    nothing = await service.submit(place, host, "record")
    assert nothing.ephemeral.text == "this channel has no game to give the record of"
    await open_game(service, CHANNEL, 2)
    await step(service, CHANNEL, 3)
    early = await service.submit(place, caller(SPECTATOR, 0), "record")
    assert early.error and early.ephemeral.attachments == ()
    assert early.ephemeral.text == (
        "game #1 is still being played: its record shows every legion and the dice's seed, "
        "so it is given once the game is over"
    )
    cancelled = await service.submit(place, host, "cancel")
    assert "Dice revealed: seed 42, salt `" in cancelled.public.text
    given = await service.submit(place, caller(SPECTATOR, 0), "record 1")
    document = read_record(given.ephemeral.attachments[0].data)
    assert document["result"] == {"ended": "cancelled", "winners": [], "reason": None}
    verdict = check_record(document)
    assert verdict.ok and "the game was cancelled after action 1" in verdict.text
    await service.submit(place, host, "new players 2")
    lobby = await service.submit(place, host, "record")
    assert lobby.error and "game #2 is still being played" in lobby.ephemeral.text
    await service.submit(place, host, "cancel")
    unstarted = await service.submit(place, host, "record 2")
    assert unstarted.ephemeral.text == "game #2 never started: it has no record"
    elsewhere = await service.submit(Place(CHANNEL + 1), host, "record 1")
    assert elsewhere.ephemeral.text == "this channel has no game #1 to give the record of"


async def test_a_game_started_before_commitments_reveals_its_seed_and_has_no_commitment(
    service, db_target
):
    await open_game(service, CHANNEL, 2)
    execute(db_target, "UPDATE games SET salt = NULL, pledge = NULL")
    service.forget()
    await play(service, CHANNEL, 5)
    given = await service.submit(Place(CHANNEL), caller(SPECTATOR, 0), "record")
    document = read_record(given.ephemeral.attachments[0].data)
    assert document["dice"]["salt"] is None and document["dice"]["commitment"] is None
    verdict = check_record(document)
    assert verdict.ok and "commitment: none (the game started before commitments; seed 42)." in (
        verdict.text
    )
    assert verdict.text.endswith(UNBOUND)
    refused = check_record(document, Announced(commitment="ab" * 32))
    assert not refused.ok
    assert refused.text == f"the record carries no commitment, but {'ab' * 32} was announced"
    bodies = _outbox(db_target)
    assert any("Dice revealed: seed 42. " in body for body in bodies)
