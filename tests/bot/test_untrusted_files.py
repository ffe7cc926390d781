"""Files that anyone may have made, too large or nested too deep: each reader refuses them
with a plain reason and its documented exit status, never a traceback.

``titanbot verify`` is given a record nested 100,000 deep (as JSON and gzipped), a file
larger than a record may be, a small gzip file that unpacks past that size, and a stream
cut short; the config reader a 100,000-deep TOML file and an oversized one; the file of
synced commands reads back as empty; a stored row nested 100,000 deep is named by
``check-db``. The walk over a record's dice does not recurse.
"""

from __future__ import annotations

import gzip
import json

import pytest

from bot.cli import main
from bot.config import MAX_CONFIG_BYTES, ConfigError, load_config
from bot.discord.sync import _load
from bot.records.check import check_database
from bot.records.check_record import check_record, rolls
from bot.records.public import MAX_RECORD_BYTES, NotARecord, read_record
from bot.untrusted import MAX_DEPTH, UnsafeInput, gunzip, nesting, parse_json
from tests.bot.agent import open_game, step
from tests.bot.tampering import execute

DEEP = 100_000
CHANNEL = 8


def deep_record(depth: int) -> bytes:
    """A record whose first action's events nest ``depth`` lists deep."""
    events = "[" * depth + "]" * depth
    return (
        '{"format": "titanbot-record/2", "actions": [{"n": 1, "events": ' + events + "}]}"
    ).encode()


def verify(capsys, path) -> tuple[int, str, str]:
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("packed", [False, True])
def test_a_record_nested_100k_deep_is_refused_with_exit_2(tmp_path, capsys, packed):
    data = deep_record(DEEP)
    path = tmp_path / ("deep.json.gz" if packed else "deep.json")
    path.write_bytes(gzip.compress(data) if packed else data)
    status, out, err = verify(capsys, path)
    assert (status, out) == (2, "")
    assert err == (
        f"titanbot verify: {path}: it cannot be checked: it is nested more than "
        f"{MAX_DEPTH} deep, the most allowed\n"
    )


def test_a_record_just_deep_enough_is_read_and_one_level_more_refused():
    # the document, its actions, the action and the events' own list: 3 levels above
    read_record(deep_record(MAX_DEPTH - 3))
    with pytest.raises(UnsafeInput):
        read_record(deep_record(MAX_DEPTH - 2))


def test_an_oversized_record_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "huge.json"
    with path.open("wb") as file:  # sparse: no disk is spent
        file.truncate(MAX_RECORD_BYTES + 1)
    status, out, err = verify(capsys, path)
    assert (status, out) == (2, "")
    assert err == (
        f"titanbot verify: {path}: it cannot be checked: it has {MAX_RECORD_BYTES + 1} bytes, "
        f"more than the {MAX_RECORD_BYTES} allowed\n"
    )


def test_a_gzip_bomb_is_unpacked_only_up_to_the_limit(tmp_path, capsys):
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b" " * (MAX_RECORD_BYTES + 1)))
    assert path.stat().st_size < MAX_RECORD_BYTES // 100
    status, out, err = verify(capsys, path)
    assert (status, out) == (2, "")
    assert err.endswith(f"it unpacks to more than the {MAX_RECORD_BYTES} bytes allowed\n")


def test_a_cut_or_padded_gzip_stream_is_no_record(tmp_path, capsys):
    whole = gzip.compress(b'{"format": "titanbot-record/2"}')
    for data in (whole[:-6], whole + b"more"):
        with pytest.raises(NotARecord, match="it is not readable gzip"):
            read_record(data)
    assert gunzip(whole, 100) == b'{"format": "titanbot-record/2"}'
    path = tmp_path / "cut.json.gz"
    path.write_bytes(whole[:-6])
    status, out, _ = verify(capsys, path)
    assert status == 1 and out.startswith(f"{path}: it is not readable gzip")


def test_nesting_is_measured_without_recursion():
    assert nesting([1, {"a": [[]]}, "[[["]) == 4
    assert nesting("text") == 0
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    assert nesting(deep, DEEP + 5) == DEEP + 1
    assert nesting(deep) == MAX_DEPTH + 1  # counted only up to the limit
    assert parse_json('["[[[", {"a": "]]"}]') == ["[[[", {"a": "]]"}]


def test_the_walk_over_the_dice_does_not_recurse():
    deep: dict = {"roll": 6}
    for _ in range(DEEP):
        deep = {"events": [deep]}
    assert rolls([{"roll": 3}, deep, {"rolls": [1, [2]]}]) == [3, 6, 1, 2]


def test_a_deep_document_given_to_check_record_is_refused_not_raised():
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    verdict = check_record({"format": "titanbot-record/2", "dice": deep})
    assert not verdict.ok
    assert verdict.text == f"the record is nested more than {MAX_DEPTH} deep, the most allowed"


def test_a_config_nested_100k_deep_or_oversized_is_a_config_error(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text("token = " + "[" * DEEP + "]" * DEEP + "\n")
    with pytest.raises(ConfigError, match="nests its arrays or tables too deep to be read"):
        load_config(path, {})
    assert main(["--config", str(path), "verify", str(tmp_path / "r.json")]) == 2
    assert capsys.readouterr().err == (
        f"titanbot: {path} nests its arrays or tables too deep to be read\n"
    )
    with path.open("wb") as file:
        file.truncate(MAX_CONFIG_BYTES + 1)
    with pytest.raises(ConfigError, match="is too large for a config file: it has "):
        load_config(path, {})
    path.write_bytes(b"token = '\xff'\n")
    with pytest.raises(ConfigError, match="is not UTF-8 text"):
        load_config(path, {})


def test_the_synced_commands_file_reads_back_empty_when_deep_or_not_json(tmp_path):
    path = tmp_path / "synced.json"
    path.write_text('{"a": ' * DEEP + "1" + "}" * DEEP)
    assert _load(path) == {}
    path.write_text(json.dumps({"global": "abc"}))
    assert _load(path) == {"global": "abc"}


async def test_a_stored_row_nested_100k_deep_is_named_damage_not_a_traceback(service, db_target):
    await open_game(service, CHANNEL, 2)
    for _ in range(3):
        await step(service, CHANNEL, 5)
    await service.close()
    deep = "[" * DEEP + "]" * DEEP
    assert execute(db_target, "UPDATE actions SET events = ? WHERE n = 2", deep) == 1
    report = await check_database(db_target)
    assert not report.ok
    assert report.problems[0].startswith(
        "game #1: action 2 cannot be read (it is nested deeper than JSON can be read here)"
    )
    assert execute(db_target, "UPDATE games SET settings = ?", '{"a": ' * DEEP + "}" * DEEP) == 1
    report = await check_database(db_target)
    assert report.problems[0].startswith("game #1: its settings cannot be read")
