"""An organiser's export of a stored game: a JSON file of everything still readable.

The file holds the game row (status, settings, seed and salt, the pledge its commitment
binds, and why it is damaged, if it is), the seats, every readable action with its events,
the rows that cannot be read (with their raw text, to help a repair) and what the
verification found. It shows every legion's contents: only organisers get it (see
:mod:`bot.records.command`).
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from bot.records.verify import Record, Verification
from bot.replies import Attachment
from bot.storage import ActionRow

FORMAT = "titanbot-game-export/1"
GZIP_ABOVE = 8 * 1024 * 1024
"""Bytes of JSON above which the file is compressed (Discord's uploads stop at 10 MiB)."""


def export_document(record: Record, verification: Verification) -> dict[str, Any]:
    """The export of ``record`` as a JSON-ready mapping."""
    row = record.row
    names = {s.seat: s.name for s in record.seats}
    readable: list[dict[str, Any]] = []
    unreadable: list[dict[str, Any]] = []
    for entry in record.actions:
        read = _read(entry)
        if read is None:
            unreadable.append(
                {"n": entry.n, "seat": entry.seat, "action": entry.action, "events": entry.events}
            )
            continue
        action, events = read
        readable.append(
            {
                "n": entry.n,
                "seat": entry.seat,
                "player": names.get(entry.seat),
                "action": action,
                "events": events,
                "at": entry.created_at,
            }
        )
    return {
        "format": FORMAT,
        "game": {
            "id": row.id,
            "channel": row.channel,
            "guild": row.guild,
            "status": row.status.value,
            "damaged": row.damaged,
            "settings": row.settings,
            "seed": row.seed,
            "salt": row.salt,
            "pledge": row.pledge,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
        },
        "seats": [{"seat": s.seat, "user": s.user, "name": s.name} for s in record.seats],
        "actions": readable,
        "damage": {
            "unreadable_actions": unreadable,
            "missing_actions": _missing(record.actions),
            "problems": [{"n": p.n, "text": p.text} for p in verification.problems],
            "replayed_from_seed": verification.replayed,
        },
    }


def _read(entry: ActionRow) -> tuple[Any, Any] | None:
    """The action's and events' JSON, or None when either cannot be parsed."""
    try:
        return json.loads(entry.action), json.loads(entry.events)
    except ValueError:
        return None


def _missing(actions: tuple[ActionRow, ...]) -> list[int]:
    present = {entry.n for entry in actions}
    return [n for n in range(1, max(present, default=0) + 1) if n not in present]


def export_attachment(record: Record, verification: Verification) -> Attachment:
    """The export as a file: ``titan-game-N.json`` (gzipped when large)."""
    data = json.dumps(export_document(record, verification), indent=1).encode("utf-8")
    name = f"titan-game-{record.row.id}.json"
    if len(data) > GZIP_ABOVE:
        return Attachment(name + ".gz", gzip.compress(data, mtime=0))
    return Attachment(name, data)
