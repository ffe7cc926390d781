"""``tournament archive NAME``: an organiser's one file with a whole tournament.

A zip holding the public record of every finished table (``titanbot-record/2`` JSON and
its readable text: anyone can check each with ``titanbot verify``), the standings as CSV
and JSON, and the tournament's log (seatings, draws, roll-offs, rulings). A table still
being played is listed but has no record yet: its record would show every legion.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import zipfile
from fractions import Fraction
from typing import Any

from bot.competition.ranking import tournament_standings
from bot.competition.settings import TournamentSettings
from bot.context import Context
from bot.records.public import record_bytes, record_document
from bot.records.story import record_text
from bot.records.verify import Record, fetch_record
from bot.replies import Attachment, Message, Replies
from bot.storage import Status
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.syntax import Args
from bot.tournament.standings import LABELS, Advance, Standings
from engine.errors import IllegalAction
from engine.words import plural

FORMAT = "titanbot-tournament/1"


async def archive(ctx: Context, args: Args) -> Replies:
    if not ctx.caller.organiser:
        raise IllegalAction("only an organiser may take a tournament's archive")
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.reading() as db:
        found = await store.named(db, ctx.place.guild, name)
        if found is None:
            raise IllegalAction(f"there is no tournament {name!r} here")
        tables = await store.tables(db, found.id)
        standing = await tournament_standings(db, found)
        entrants = await store.entrants(db, found.id)
        logged = await store.logged(db, found.id)
        records: list[Record] = []
        for table in tables:
            row = await rows.game(db, table.game) if table.game is not None else None
            if row is not None and row.status is Status.OVER:
                records.append(await fetch_record(db, row))
    names = {str(e.user): e.name for e in entrants}
    summary = {
        "format": FORMAT,
        "tournament": found.name,
        "settings": TournamentSettings.from_json(found.settings).to_json(),
        "seed": found.seed,
        "tables": [
            {
                "heat": t.heat,
                "table": t.number,
                "players": [str(u) for u in t.players],
                "status": t.status,
                "game": t.game,
            }
            for t in tables
        ],
        "log": [{"at": at, "text": text} for at, text in logged],
    }
    data = await asyncio.to_thread(_zip, records, standing, names, summary)
    slug = "".join(c if c.isalnum() else "-" for c in found.name.lower()).strip("-") or "t"
    file = Attachment(f"tournament-{slug}.zip", data)
    text = (
        f"**{found.name}**: {plural(len(records), 'finished game')} of "
        f"{plural(len(tables), 'table')}, the "
        "standings (CSV, JSON) and the log. Check any game with `titanbot verify`."
    )
    return Replies(ephemeral=Message(text, attachments=(file,)))


def _zip(
    records: list[Record], standing: Standings, names: dict[str, str], summary: dict[str, Any]
) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for record in records:
            document = record_document(record)
            stem = f"games/titan-record-{record.row.id}"
            archive.writestr(f"{stem}.json", record_bytes(document))
            archive.writestr(f"{stem}.txt", record_text(document))
        archive.writestr("standings.csv", standings_csv(standing, names))
        archive.writestr("standings.json", json.dumps(standings_json(standing, names), indent=1))
        archive.writestr("tournament.json", json.dumps(summary, indent=1, ensure_ascii=False))
    return buffer.getvalue()


def standings_json(standing: Standings, names: dict[str, str]) -> dict[str, Any]:
    labels = LABELS[standing.scheme]
    return {
        "scheme": standing.scheme.value,
        "columns": list(labels),
        "rows": [
            {
                "rank": r.rank,
                "player": r.player,
                "name": names.get(r.player, r.player),
                "figures": dict(zip(labels, (_plain(v) for v in r.key), strict=True)),
                "rolls": list(r.rolls),
                "advancing": r.advancing,
                "outlook": r.advance.value,
            }
            for r in standing.rows
        ],
    }


_ADVANCING = {Advance.YES: "yes", Advance.IF_NOW: "if the heats ended now", Advance.NO: ""}
"""The CSV's ``advancing`` column: decided, or not yet."""


def standings_csv(standing: Standings, names: dict[str, str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    labels = LABELS[standing.scheme]
    writer.writerow(["rank", "player", "name", *labels, "rolls", "advancing"])
    for r in standing.rows:
        writer.writerow(
            [
                r.rank,
                r.player,
                names.get(r.player, r.player),
                *(_plain(v) for v in r.key),
                " ".join(map(str, r.rolls)),
                _ADVANCING[r.advance],
            ]
        )
    return out.getvalue()


def _plain(value: int | Fraction) -> float | int:
    """A figure as a number (a mean place is held negated, as a fraction)."""
    if isinstance(value, int):
        return value
    return round(-float(value), 4)
