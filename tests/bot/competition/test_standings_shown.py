"""The standings an organiser is shown, heat by heat: mid-heat the only finished table's
players would advance if the heats ended now, and nobody advances yet; a heat over with
heats to come decides nothing either; once the last heat is over the top four advance.
The text answer and the picture show the same heads, marks and legend."""

from __future__ import annotations

import io

from PIL import Image

from bot.competition.boards import standings_table
from bot.competition.ranking import tournament_standings
from bot.outbox.codec import message_from_json
from bot.service import GameService
from bot.storage import tournaments as store
from bot.tournament.heads import MARKS, heads
from bot.tournament.standings import Advance, Standings
from render.table import Mark, table_layout
from tests.bot.competition.test_desk import HERE, ORGANISER, posts, run, seated

PICTURE_MARK = {Advance.YES: Mark.TICK, Advance.IF_NOW: Mark.RING}


async def shown(service: GameService) -> tuple[str, Standings, dict[str, str]]:
    """The standings answer's text (its picture checked to be there) and the table."""
    replies = await service.submit(HERE, ORGANISER, "tournament standings W")
    assert not replies.error and replies.ephemeral is not None, replies.ephemeral
    [picture] = replies.ephemeral.attachments
    assert picture.filename == "standings-w.png"
    assert Image.open(io.BytesIO(picture.data)).format == "PNG"
    async with service.db.reading() as db:
        found = await store.named(db, None, "W")
        assert found is not None
        table = await tournament_standings(db, found)
        names = {str(e.user): e.name for e in await store.entrants(db, found.id)}
    return replies.ephemeral.text, table, names


async def told_standings(service: GameService) -> list[str]:
    """The texts of the channel's posts that tell the standings."""
    bodies = [message_from_json(p).message.text for p in await posts(service, HERE.channel)]
    return [text for text in bodies if "Standings:" in text]


def rows_of(text: str) -> list[list[str]]:
    """The cells of the text's table rows (after its groups' and heads' lines)."""
    block = text.split("```")[1].strip("\n").splitlines()
    return [line.split() for line in block[2:]]


def check_text_and_picture_agree(text: str, table: Standings, names: dict[str, str]) -> None:
    columns, lines, notes = standings_table(table, names)
    layout = table_layout("W standings", columns, lines, legend=notes)
    head = text.split("```")[1].strip("\n").splitlines()[1].split()
    assert layout.of("head") == head == ["#", "Player", *(h.head for h in heads(table.scheme))]
    assert layout.of("group") == ["Opponents'"]
    for note in notes:  # every legend line of the picture is in the text
        assert note.text in text
        sign = {Mark.TICK: MARKS[Advance.YES], Mark.RING: MARKS[Advance.IF_NOW]}
        if note.mark is not None:
            assert f"`{sign[note.mark]}` {note.text}" in text
    assert " ".join(n for n in layout.of("note")).split() == " ".join(n.text for n in notes).split()
    expected = [PICTURE_MARK[r.advance] for r in table.rows if r.advance in PICTURE_MARK]
    assert layout.signs("row") == expected
    assert layout.signs("note") == [n.mark for n in notes if n.mark is not None]
    for row, cells in zip(table.rows, rows_of(text), strict=True):
        assert cells[0] == f"{row.rank}{MARKS.get(row.advance, '')}"


async def test_advancing_is_told_only_once_no_result_to_come_can_change_it(service):
    one, _ = await seated(service)  # W: 7 entrants, 3 heats, the top 4 advance
    await run(service, "tournament adjudicate W 1.1 score the time is up")
    text, table, names = await shown(service)
    assert "— heat 1 of 3 under way, 1 of 2 tables over:" in text.splitlines()[0]
    assert {r.player for r in table.rows} == {str(p) for p in one.players}
    assert [r.advance for r in table.rows] == [Advance.IF_NOW] * 4
    assert all(cells[0].endswith("~") for cells in rows_of(text))
    assert "would advance if the heats ended now" in text and "`*`" not in text
    check_text_and_picture_agree(text, table, names)

    await run(service, "tournament adjudicate W 1.2 score the time is up")
    told = await told_standings(service)
    assert len(told) == 1 and "Heat 1 of 3 is over. Standings:" in told[0]
    assert [c[0][-1] for c in rows_of(told[0])].count("~") == 4 and "`*`" not in told[0]
    text, table, names = await shown(service)
    assert "after heat 1 of 3" in text.splitlines()[0]
    assert [r.advance for r in table.rows] == [Advance.IF_NOW] * 4 + [Advance.NO] * 3
    check_text_and_picture_agree(text, table, names)

    for number in (2, 3):
        await run(service, "tournament heat W")
        await service.tables.idle()
        for seat in (1, 2):
            await run(service, f"tournament adjudicate W {number}.{seat} score the time is up")
    told = [p for p in await told_standings(service) if "Heat 3 of 3 is over" in p]
    assert len(told) == 1 and "`~`" not in told[0]
    assert [c[0] for c in rows_of(told[0])][:5] == ["1*", "2*", "3*", "4*", "5"]
    text, table, names = await shown(service)
    assert "the heats are over" in text.splitlines()[0]
    assert [r.advance for r in table.rows] == [Advance.YES] * 4 + [Advance.NO] * 3
    assert "`*` advances" in text and "would advance" not in text
    check_text_and_picture_agree(text, table, names)
    assert len(text) <= 2000
