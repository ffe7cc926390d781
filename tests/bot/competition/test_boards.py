"""The standings and the ratings as pictures: each answer carries a PNG named by public
things only, beside its text."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.competition.boards import ratings_table, shown_name, slug, standings_table
from bot.competition.codec import result_to_json
from bot.competition.ranking import server_ratings, tournament_standings
from bot.competition.results import apply_rating
from bot.console import Console
from bot.context import Caller, Place
from bot.replies import Replies
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.tournament.places import Ending, GameResult
from bot.tournament.places import Place as Seat
from render.table import Mark

HERE = Place(5)
ORGANISER = Caller(300_000_000_000_000_001, "Org", organiser=True)
PLAYERS = [
    Caller(300_000_000_000_000_010 + i, name)
    for i, name in enumerate(("Ann", "Zoë 🐉", "Bartholomew the Magnificent of Far Lands", "Dee"))
]


async def _tournament(service: GameService, name: str) -> store.TournamentRow:
    """A closed tournament of four whose first heat's two 2-player games are over (and
    rated)."""
    create = f'tournament create "{name}" players 2 heats 2 advance 2'
    assert not (await service.submit(HERE, ORGANISER, create)).error
    for player in PLAYERS:
        joined = await service.submit(HERE, player, f'tournament join "{name}"')
        assert not joined.error, joined.ephemeral
    assert not (await service.submit(HERE, ORGANISER, f'tournament close "{name}"')).error
    ids = [str(p.user) for p in PLAYERS]
    games = [
        GameResult((Seat(ids[0], 1, titan_kills=1), Seat(ids[1], 2)), Ending.LAST_TITAN),
        GameResult((Seat(ids[2], 1, titan_kills=1), Seat(ids[3], 2)), Ending.LAST_TITAN),
    ]
    async with service.db.transaction() as db:
        found = await store.named(db, None, name)
        assert found is not None
        for n, result in enumerate(games, start=1):
            game = await rows.create_game(db, 100 + n, None, {"host": ORGANISER.user})
            row = store.ResultRow(
                game, None, found.id, 1, f"2025-01-0{n}", True, result_to_json(result)
            )
            assert await store.add_result(db, row)
            await apply_rating(db, None, result)
    return found


def _png(replies: Replies) -> tuple[str, Image.Image]:
    assert not replies.error and replies.ephemeral is not None
    [attachment] = replies.ephemeral.attachments
    assert attachment is not None
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG"
    return attachment.filename, image


async def test_the_standings_answer_carries_a_picture_and_its_text(service):
    await _tournament(service, "Winter Cup")
    replies = await service.submit(HERE, PLAYERS[3], 'tournament standings "Winter Cup"')
    filename, image = _png(replies)
    assert filename == "standings-winter-cup.png"
    assert replies.ephemeral is not None and "```" in replies.ephemeral.text
    assert "Ann" in replies.ephemeral.text
    assert image.width >= 300 and image.height >= 100


async def test_the_ratings_answer_carries_a_picture_and_its_text(service):
    await _tournament(service, "Winter")
    replies = await service.submit(HERE, PLAYERS[0], "ratings")
    filename, _ = _png(replies)
    assert filename == "ratings.png"
    assert replies.ephemeral is not None and "Ann" in replies.ephemeral.text


async def test_a_unicode_tournament_name_gives_a_plain_file_name(service):
    await _tournament(service, "Été 2025")
    replies = await service.submit(HERE, PLAYERS[0], 'tournament standings "Été 2025"')
    assert _png(replies)[0] == "standings-ete-2025.png"


async def test_without_results_the_answers_are_text_only(service):
    assert not (await service.submit(HERE, ORGANISER, "tournament create Spring")).error
    standings = await service.submit(HERE, ORGANISER, "tournament standings Spring")
    ratings = await service.submit(HERE, ORGANISER, "ratings")
    for replies in (standings, ratings):
        assert replies.ephemeral is not None and replies.ephemeral.attachments == ()


async def test_the_pictures_rows_mark_who_advances(service):
    found = await _tournament(service, "Winter")
    async with service.db.reading() as db:
        table = await tournament_standings(db, found)
        rated = await server_ratings(db, None)
    names = {str(p.user): p.name for p in PLAYERS}
    columns, lines, notes = standings_table(table, names)
    assert [c.header for c in columns[:4]] == ["#", "Player", "Wins", "Pts"]
    # Heat 1 of 2 is over, heat 2 to come: the top two would advance, nothing is decided.
    assert [line.mark for line in lines] == [Mark.RING, Mark.RING, None, None]
    assert [n.text for n in notes if n.mark is Mark.RING] == [
        "would advance if the heats ended now (results to come may change it)"
    ]
    assert not any(n.mark is Mark.TICK for n in notes)
    columns, lines, _ = ratings_table(rated, names)
    assert len(lines) == 4 and all(len(line.cells) == len(columns) for line in lines)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Winter", "winter"),
        ("Winter Cup '25", "winter-cup-25"),
        ("Été 2025", "ete-2025"),
        ("東京", "tournament"),
        ("../../etc", "etc"),
        ("-_-", "tournament"),
    ],
)
def test_a_file_name_holds_plain_letters_and_digits_only(name, expected):
    assert slug(name) == expected


def test_an_added_entrant_is_not_shown_as_a_raw_mention():
    assert shown_name("42", {"42": "<@300000000000001234>"}) == "user …1234"
    assert shown_name("7", {}) == "7"


async def test_the_terminal_names_the_picture_and_saves_it_into_the_output_folder(
    service, tmp_path
):
    await _tournament(service, "Winter")
    said: list[str] = []
    console = Console(service, None, write=said.append)
    await console.show("Ann", await service.submit(HERE, PLAYERS[0], "ratings"))
    assert said[-1].endswith("[picture ratings.png: not saved, start with --out DIR]")
    saving = Console(service, tmp_path / "out", write=said.append)
    await saving.show("Ann", await service.submit(HERE, PLAYERS[0], "ratings"))
    path = tmp_path / "out" / "ratings.png"
    assert said[-1].endswith(f"[picture: {path}]")
    assert path.read_bytes().startswith(b"\x89PNG")
