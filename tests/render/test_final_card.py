"""The final card and the chart of the scores: every player's place, name, score and
Titan's fate where the layout puts them (read back from the layout the drawing uses), one
line per player in the player's colour, named with the final score at its end."""

from __future__ import annotations

import itertools

from render.final_card import CardFacts, CardPlayer, card_layout, final_card_png, ordinal
from render.score_chart import Series, chart_layout, nice_step, score_chart_png
from render.style import player_rgb
from tests.render.helpers import decode, near, pixel

FACTS = CardFacts(
    title="TITAN · game #7 is over",
    result="Ann wins (last Titan standing)",
    players=(
        CardPlayer(1, "Ann", "Red", 412, "Titan stands: winner"),
        CardPlayer(2, "Bob", "Black", 230, "Titan lost to Ann in turn 31"),
        CardPlayer(3, "Cyd", "Gold", 95, "withdrew in turn 12"),
    ),
    turns=31,
    player_turns=86,
    battles=14,
    engagements=19,
)
SERIES = (
    Series("Ann", "Red", (0, 20, 60, 200, 412)),
    Series("Bob", "Black", (0, 24, 100, 180, 230)),
    Series("Cyd", "Gold", (0, 10, 95, 95, 95)),
)


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip


def test_the_card_says_the_result_places_scores_fates_turns_and_battles():
    texts = card_layout(FACTS, SERIES).texts()
    assert texts[:2] == ["TITAN · game #7 is over", "Ann wins (last Titan standing)"]
    for player in FACTS.players:
        row = texts.index(player.name)
        assert texts[row - 1] == ordinal(player.place)
        assert texts[row + 1 : row + 3] == [str(player.score), player.fate]
    assert "31 game turns (86 player turns) · 14 battles fought · 19 engagements" in texts
    assert texts.index("Ann") < texts.index("Bob") < texts.index("Cyd")  # in order of place


def test_the_swatches_carry_each_players_colour_and_the_picture_its_layout_size():
    layout = card_layout(FACTS, SERIES)
    assert [s.fill for s in layout.swatches] == [player_rgb(p.colour) for p in FACTS.players]
    image = decode(final_card_png(FACTS, SERIES))
    assert image.size == (layout.width, layout.height)
    for swatch in layout.swatches:
        x0, y0, x1, y1 = swatch.box
        assert near(pixel(image, (x0 + x1) / 2, (y0 + y1) / 2), swatch.fill)
    assert layout.chart is not None and layout.chart_at[1] + layout.chart.height == layout.height


def test_a_long_name_is_clipped_to_its_column():
    long = CardFacts("T", "R", (CardPlayer(1, "A" * 80, None, 1, "x" * 300),), 1, 2, 0)
    texts = card_layout(long).texts()
    assert any(t.startswith("AAA") and t.endswith("…") and len(t) < 80 for t in texts)
    assert any(t.startswith("xxx") and t.endswith("…") for t in texts)


def test_the_chart_names_every_line_at_its_end_with_the_final_score():
    layout = chart_layout(SERIES)
    texts = layout.texts()
    for series, line in zip(SERIES, layout.lines, strict=True):
        assert line.name == series.name and line.fill == player_rgb(series.colour)
        assert f"{series.name} {series.scores[-1]}" in texts
        assert len(line.points) == len(series.scores)
    left, top, right, bottom = layout.plot
    ann = layout.lines[0].points
    assert ann[0] == (left, bottom)  # turn 0, no points
    assert ann[-1][0] == right and top <= ann[-1][1] < bottom
    assert "500" in texts  # the axis reaches past the best score (412 → 500)


def test_the_end_labels_never_overlap():
    close = [Series(name, None, (0, 100 + i)) for i, name in enumerate("ABCDEF")]
    layout = chart_layout(close)
    ends = sorted(label.at[1] for label in layout.labels if label.anchor == "lm")
    assert len(ends) == 6
    assert all(b - a >= 16 for a, b in itertools.pairwise(ends))


def test_every_line_is_drawn_in_its_colour():
    layout = chart_layout(SERIES)
    image = decode(score_chart_png(SERIES))
    for line in layout.lines:
        (x0, y0), (x1, y1) = line.points[-2], line.points[-1]
        assert near(pixel(image, (x0 + x1) / 2, (y0 + y1) / 2), line.fill, 30)


def test_round_steps():
    assert [nice_step(span, 5) for span in (1, 7, 40, 412, 3000)] == [1, 2, 10, 100, 1000]
