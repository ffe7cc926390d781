"""The table picture: sized to its content, marked rows highlighted, any name drawn."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from render.style import font
from render.table import (
    GROUP,
    HEAD,
    MARKED,
    MAX_ROWS,
    PAD,
    PENDING,
    ROW,
    TEXT_COLUMN,
    TICK,
    TITLE,
    Column,
    Line,
    Mark,
    Note,
    clipped,
    drawable,
    table_image,
    table_layout,
    table_png,
)
from tests.render.helpers import decode, near, pixel

COLUMNS = (Column("#", numeric=True), Column("player"), Column("points", numeric=True))


def _lines(count: int, *, marked: int = 0, name: str = "Ann") -> list[Line]:
    return [
        Line((str(i + 1), f"{name} {i}", str(100 - i)), Mark.TICK if i < marked else None)
        for i in range(count)
    ]


def test_the_picture_grows_a_row_at_a_time():
    one = decode(table_png("Winter", COLUMNS, _lines(1)))
    five = decode(table_png("Winter", COLUMNS, _lines(5)))
    assert five.height - one.height == 4 * ROW
    assert five.width == one.width
    assert one.height == TITLE + HEAD + ROW + PAD


def test_a_footnote_adds_a_line():
    bare = table_image("Winter", COLUMNS, _lines(3))
    noted = table_image("Winter", COLUMNS, _lines(3), footnote="green rows advance")
    assert noted.height > bare.height


def test_a_wider_cell_widens_the_picture_up_to_the_columns_cap():
    short = table_image("W", COLUMNS, _lines(3))
    longer = table_image("W", COLUMNS, _lines(3, name="Bartholomew the Magnificent"))
    huge = table_image("W", COLUMNS, _lines(3, name="x" * 500))
    assert short.width < longer.width < huge.width
    assert huge.width < 2 * PAD + TEXT_COLUMN + 400


def test_marked_rows_lie_on_a_green_band():
    plain = table_image("Winter", COLUMNS, _lines(4))
    marked = table_image("Winter", COLUMNS, _lines(4, marked=2))
    assert plain.size == marked.size
    assert ImageChops.difference(plain, marked).getbbox() is not None
    band = pixel(marked, marked.width - 3, TITLE + HEAD + ROW / 2)
    assert near(band, MARKED)
    unmarked = pixel(marked, marked.width - 3, TITLE + HEAD + 2 * ROW + ROW / 2)
    assert not near(unmarked, MARKED)


def test_rows_beyond_the_limit_are_counted_not_drawn():
    full = decode(table_png("Many", COLUMNS, _lines(MAX_ROWS)))
    over = decode(table_png("Many", COLUMNS, _lines(MAX_ROWS + 25)))
    assert over.height == full.height + ROW  # the "… and 25 more" line
    assert table_image("Few", COLUMNS, _lines(10), limit=3).height == (
        table_image("Few", COLUMNS, _lines(3)).height + ROW
    )
    with pytest.raises(ValueError, match="at least one row"):
        table_image("None", COLUMNS, _lines(2), limit=0)


def test_an_empty_table_has_its_headers():
    image = table_image("Nobody yet", COLUMNS, [])
    assert image.height == TITLE + HEAD + PAD


@pytest.mark.parametrize(
    "name",
    [
        "Zoë 🐉",
        "中文名字",
        "a\x00b\u202eevil\u200b",
        "e\u0301\u0301\u0301\u0301",
        "\ud800 lone surrogate",
        "tab\tand\nnewline",
        "﷽" * 40,
        "",
        " ",
    ],
)
def test_any_unicode_name_is_drawn_without_failing(name):
    image = decode(table_png(f"Cup {name}", COLUMNS, _lines(2, name=name), footnote=name))
    assert image.width > 0


def test_what_the_font_lacks_becomes_plain_letters_or_a_question_mark():
    assert drawable("Zoë") == "Zoe"
    assert drawable("Ångström") == "Angstrom"
    assert drawable("中") == "?"
    assert drawable("a\x00b\u202ec\u200bd") == "abcd"
    assert drawable("tab\tand\n  spaces") == "tab and spaces"


def test_long_cells_are_clipped_with_an_ellipsis():
    text = clipped("x" * 300, 17, 120)
    assert text.endswith("…") and font(17).getlength(text) <= 120
    assert clipped("Ann", 17, 120) == "Ann"


GROUPED = (
    Column("#", numeric=True),
    Column("Player"),
    Column("Wins", numeric=True),
    Column("1st", numeric=True, group="Opponents'"),
    Column("TK", numeric=True, group="Opponents'"),
)


def _grouped(marks: list[Mark | None]) -> list[Line]:
    return [Line((str(i + 1), f"P{i}", "1", "2", "0"), mark) for i, mark in enumerate(marks)]


def test_a_group_label_spans_its_columns_above_the_headers():
    layout = table_layout("Cup", GROUPED, _grouped([None, None]))
    assert layout.of("head") == ["#", "Player", "Wins", "1st", "TK"]
    [label] = [t for t in layout.texts if t.role == "group"]
    assert label.text == "Opponents'"
    heads = {t.text: t for t in layout.texts if t.role == "head"}
    [(start, end, _)] = layout.rules
    assert start < heads["1st"].at[0] and heads["TK"].at[0] <= end  # right-aligned heads
    assert heads["Wins"].at[0] < start
    assert start < label.at[0] < end and label.at[1] < heads["1st"].at[1]
    plain = table_layout("Cup", COLUMNS, _lines(2))
    assert layout.size[1] == plain.size[1] + GROUP and not plain.rules


def test_a_tick_and_a_ring_mark_their_rows_apart_on_their_bands():
    marks = [Mark.TICK, Mark.RING, None]
    layout = table_layout("Cup", GROUPED, _grouped(marks))
    assert layout.signs("row") == [Mark.TICK, Mark.RING] and not layout.signs("note")
    image = table_image("Cup", GROUPED, _grouped(marks))
    top = TITLE + GROUP + HEAD
    assert near(pixel(image, image.width - 3, top + ROW / 2), MARKED)
    assert near(pixel(image, image.width - 3, top + ROW + ROW / 2), PENDING)
    assert not near(pixel(image, image.width - 3, top + 2 * ROW + ROW / 2), PENDING)
    tick, ring = (sign.at for sign in layout.marks)
    assert near(pixel(image, ring[0] + 6, ring[1]), TICK, 60)  # the ring's edge is drawn
    assert not near(pixel(image, ring[0], ring[1]), TICK, 60)  # and its middle is not
    assert near(pixel(image, tick[0] - 2, tick[1] + 5), TICK, 60)


def test_the_legend_shows_each_note_with_its_mark_wrapped_to_the_picture():
    notes = [
        Note("advances", Mark.TICK),
        Note("would advance if play ended now", Mark.RING),
        Note("Wins: games won " * 20),
    ]
    layout = table_layout("Cup", GROUPED, _grouped([Mark.TICK]), legend=notes)
    texts = layout.of("note")
    assert texts[:2] == ["advances", "would advance if play ended now"]
    assert len(texts) > 3 and " ".join(texts[2:]).split() == notes[2].text.split()
    width, height = layout.size
    assert all(t.at[0] + font(t.size).getlength(t.text) <= width - PAD for t in layout.texts)
    assert layout.signs("row") == [Mark.TICK]
    assert layout.signs("note") == [Mark.TICK, Mark.RING]
    notes_at = {t.text: t.at[1] for t in layout.texts if t.role == "note"}
    signs_at = [s.at[1] for s in layout.marks if s.role == "note"]
    assert signs_at == [notes_at[n.text] for n in notes[:2]]
    assert max(t.at[1] for t in layout.texts) < height
