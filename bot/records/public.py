"""A finished game's public record: the ``titanbot-record/1`` JSON document.

Anyone may have it once the game is over (``record``, :mod:`bot.records.command`): it
shows every legion, every action and every die, with the seed and salt that the start's
commitment bound (:mod:`bot.records.proof`), so that anyone can check the game with
``titanbot verify`` (:mod:`bot.records.check_record`). The format is documented in
``docs/record-format.md``; a change that old readers would misread gets a new number.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from bot.records.export import GZIP_ABOVE
from bot.records.proof import SCHEME, commitment
from bot.records.verify import Record
from bot.replies import Attachment
from bot.storage import Status
from bot.storage.eventlog import events_to_json
from bot.storage.record import Settings, initial_state
from engine.codec import encode
from engine.version import ENGINE_VERSION

FORMAT = "titanbot-record/1"
GZIP_MAGIC = b"\x1f\x8b"


class NotARecord(ValueError):
    """The bytes or the document are no ``titanbot-record/1`` record (the reason says why)."""


def record_document(record: Record) -> dict[str, Any]:
    """The public record of ``record``'s game, which must have started (it has a seed).

    Raises ``TitanError`` when its settings cannot be read or its seed cannot set it up.
    """
    row = record.row
    if row.seed is None:
        raise NotARecord(f"game #{row.id} never started: it has no record")
    settings = Settings.from_json(row.settings)
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
        "engine": ENGINE_VERSION,
        "players": [
            {
                "seat": s.seat,
                "name": s.name,
                "user": None if s.is_ai else str(s.user),
                "ai": s.is_ai,
            }
            for s in record.seats
        ],
        "settings": {
            "players": settings.players,
            "record_keeping": settings.record_keeping,
            "time_limit": settings.time_limit,
            "time_limit_ends": settings.timing.expires_at,
            "options": encode(settings.options),
        },
        "dice": {
            "scheme": SCHEME,
            "seed": row.seed,
            "salt": row.salt,
            "commitment": commitment(row.seed, row.salt) if row.salt is not None else None,
        },
        "setup": json.loads(events_to_json(setup)),
        "actions": actions,
        "result": _result(row.status, actions),
        "opened_at": row.created_at,
        "ended_at": row.updated_at,
    }


def _result(status: Status, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """How the game ended: over (the last ``GameOver`` event's winners and reason), or
    cancelled before any end."""
    if status is Status.CANCELLED:
        return {"ended": "cancelled", "winners": [], "reason": None}
    for entry in reversed(actions):
        for event in entry["events"]:
            if isinstance(event, dict) and event.get("type") == "GameOver":
                return {"ended": "over", "winners": event["winners"], "reason": event["reason"]}
    return {"ended": status.value, "winners": [], "reason": None}


def record_bytes(document: dict[str, Any]) -> bytes:
    """The document as the file holds it (UTF-8 JSON, one action to a few lines)."""
    return json.dumps(document, indent=1, ensure_ascii=False).encode("utf-8")


def attachment(name: str, data: bytes) -> Attachment:
    """A file named ``name`` (gzipped, ``.gz`` added, above the upload limit)."""
    if len(data) > GZIP_ABOVE:
        return Attachment(name + ".gz", gzip.compress(data, mtime=0))
    return Attachment(name, data)


def read_record(data: bytes) -> dict[str, Any]:
    """The document in ``data`` (JSON, gzipped or not); :class:`NotARecord` otherwise."""
    try:
        if data.startswith(GZIP_MAGIC):
            data = gzip.decompress(data)
        document = json.loads(data.decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as exc:
        raise NotARecord(f"it is not readable JSON ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        raise NotARecord(f"it is not a {FORMAT} record (its format: {found!r})")
    return document
