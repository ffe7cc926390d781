"""A finished game's public record: the ``titanbot-record/2`` JSON document.

Anyone may have it once the game is over (``record``, :mod:`bot.records.command`): it
shows every legion, every action and every die, with the seed and salt that the start's
commitment bound (:mod:`bot.records.proof`), so that anyone can check the game with
``titanbot verify`` (:mod:`bot.records.check_record`). The format is documented in
``docs/record-format.md``; a change that old readers would misread gets a new number.
"""

from __future__ import annotations

import gzip
import json
import zlib
from typing import Any

from bot.records.export import GZIP_ABOVE
from bot.records.proof import (
    DICE_SCHEME,
    GAME_SCHEME,
    commitment,
    game_commitment,
    players_json,
    settings_json,
)
from bot.records.verify import Record
from bot.replies import Attachment
from bot.storage import Status
from bot.storage.eventlog import events_to_json
from bot.storage.record import Settings, initial_state
from bot.untrusted import UnsafeInput, gunzip, parse_json
from engine.version import ENGINE_VERSION

FORMAT = "titanbot-record/2"
FORMATS = ("titanbot-record/1", FORMAT)
"""The formats :func:`read_record` reads: this one, and the one before the game's
commitment (``titanbot-record/1``, whose seed is a JSON number)."""
GZIP_MAGIC = b"\x1f\x8b"
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The most bytes a record may have (read, or once unzipped): a long game's has a few."""


class NotARecord(ValueError):
    """The bytes or the document are no public record (the reason says why)."""


def record_document(record: Record) -> dict[str, Any]:
    """The public record of ``record``'s game, which must have started (it has a seed).

    A game with a pledge (:mod:`bot.records.proof`) gives its identity, seats and
    settings as pledged at the start. Raises ``TitanError`` when its settings cannot be
    read or its seed cannot set it up, ``ValueError`` when its pledge cannot be read.
    """
    row = record.row
    if row.seed is None:
        raise NotARecord(f"game #{row.id} never started: it has no record")
    _, setup = initial_state(row, record.seats)
    actions = [
        {
            "n": entry.n,
            "seat": entry.seat,
            "cause": entry.cause,
            "action": json.loads(entry.action),
            "events": json.loads(entry.events),
            "at": entry.created_at,
        }
        for entry in record.actions
    ]
    return {
        "format": FORMAT,
        "game": row.id,
        **_committed(record),
        "players_at_end": players_json(record.seats),
        "setup": json.loads(events_to_json(setup)),
        "actions": actions,
        "result": _result(row.status, actions),
        "opened_at": row.created_at,
        "ended_at": row.updated_at,
    }


def _committed(record: Record) -> dict[str, Any]:
    """The fields the commitment binds: from the pledge, or (older games) the rows."""
    row = record.row
    assert row.seed is not None
    if row.pledge is not None:
        pledged = json.loads(row.pledge)
        if not isinstance(pledged, dict) or pledged.get("scheme") != GAME_SCHEME:
            raise ValueError(f"the pledge of game #{row.id} cannot be read")
        fields = ("guild", "channel", "started_at", "engine", "players", "settings")
        return {
            **{key: pledged[key] for key in fields},
            "dice": {
                "scheme": GAME_SCHEME,
                "seed": pledged["seed"],
                "salt": pledged["salt"],
                "commitment": game_commitment(row.pledge),
            },
        }
    salt = row.salt
    return {
        "guild": None if row.guild is None else str(row.guild),
        "channel": str(row.channel),
        "started_at": None,
        "engine": ENGINE_VERSION,
        "players": players_json(record.seats),
        "settings": settings_json(Settings.from_json(row.settings)),
        "dice": {
            "scheme": DICE_SCHEME if salt is not None else None,
            "seed": str(row.seed),
            "salt": salt,
            "commitment": commitment(row.seed, salt) if salt is not None else None,
        },
    }


def _result(status: Status, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """How the game ended: over (the last ``GameOver`` event's winners and reason),
    cancelled before any end, or adjudicated (stored as over by an organiser's ruling,
    with no end in its log)."""
    if status is Status.CANCELLED:
        return {"ended": "cancelled", "winners": [], "reason": None}
    for entry in reversed(actions):
        for event in entry["events"]:
            if isinstance(event, dict) and event.get("type") == "GameOver":
                return {"ended": "over", "winners": event["winners"], "reason": event["reason"]}
    ended = "adjudicated" if status is Status.OVER else status.value
    return {"ended": ended, "winners": [], "reason": None}


def record_bytes(document: dict[str, Any]) -> bytes:
    """The document as the file holds it (UTF-8 JSON, one action to a few lines)."""
    return json.dumps(document, indent=1, ensure_ascii=False).encode("utf-8")


def attachment(name: str, data: bytes) -> Attachment:
    """A file named ``name`` (gzipped, ``.gz`` added, above the upload limit)."""
    if len(data) > GZIP_ABOVE:
        return Attachment(name + ".gz", gzip.compress(data, mtime=0))
    return Attachment(name, data)


def read_record(data: bytes) -> dict[str, Any]:
    """The document in ``data`` (JSON, gzipped or not).

    Raises :class:`~bot.untrusted.UnsafeInput` when it is larger than
    :data:`MAX_RECORD_BYTES` (unzipped) or nested deeper than a record is, and
    :class:`NotARecord` when it is no record."""
    if data.startswith(GZIP_MAGIC):
        try:
            data = gunzip(data, MAX_RECORD_BYTES)
        except (OSError, EOFError, zlib.error) as exc:
            raise NotARecord(f"it is not readable gzip ({exc})") from None
    elif len(data) > MAX_RECORD_BYTES:
        raise UnsafeInput(f"it has more than {MAX_RECORD_BYTES} bytes: no record is so large")
    try:
        document = parse_json(data)
    except UnsafeInput:
        raise
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotARecord(f"it is not readable JSON ({exc})") from None
    if not isinstance(document, dict) or document.get("format") not in FORMATS:
        found = document.get("format") if isinstance(document, dict) else None
        raise NotARecord(f"it is not a {FORMAT} record (its format: {found!r})")
    return document
