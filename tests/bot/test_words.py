"""The words of the command language: the tokenizer, numbers in ASCII digits within the
game's bounds, and Discord user ids within the snowflake range."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.syntax import parse_command, to_action
from bot.syntax import words as w
from engine.errors import InvalidNotation
from engine.game import actions as a
from tests.bot.test_syntax import started

#: Characters whose whitespace is also shell whitespace, so that shlex is an oracle.
SHELL_TEXT = st.text(
    st.characters(exclude_categories=["Cs"]).filter(lambda c: not c.isspace())
    | st.sampled_from(" \t\r\n'\"\\")
)
NOT_ASCII_DIGITS = ["²", "⁴", "٣", "०", "０", "𝟓", "1²", "²3", "1 2", "+1", "-1", "1_0", " 1", ""]


@given(SHELL_TEXT)
def test_tokens_split_as_a_posix_shell_does(text):
    """The one-pass tokenizer reads what ``shlex.split`` reads (of the line stripped, without
    a leading ``/``), and refuses what it refuses (unclosed quotes, a trailing backslash)."""
    try:
        expected = shlex.split(text.strip().removeprefix("/"))
    except ValueError:
        with pytest.raises(InvalidNotation, match="cannot read"):
            w.tokens(text)
    else:
        assert w.tokens(text) == expected


@given(st.lists(st.text(st.characters(exclude_categories=["Cs"])), max_size=8))
def test_quoted_words_read_back(words):
    """What the Discord layer writes with ``shlex.quote`` reads back word for word."""
    line = " ".join(["add", *(shlex.quote(word) for word in words)])
    assert w.tokens(line) == ["add", *words]


def test_other_whitespace_separates_words_too():
    assert w.tokens("join\u00a0Big\u3000Al\u2028") == ["join", "Big", "Al"]
    assert w.tokens("/move  Bk01\t104") == ["move", "Bk01", "104"]


def test_a_line_past_the_limit_is_refused_with_its_length():
    line = "join " + "x" * w.MAX_LINE
    with pytest.raises(InvalidNotation, match=f"at most {w.MAX_LINE:,} characters, not"):
        w.tokens(line)
    assert w.tokens("join " + "x" * (w.MAX_LINE - 5)) == ["join", "x" * (w.MAX_LINE - 5)]


@pytest.mark.parametrize("word", NOT_ASCII_DIGITS)
def test_numbers_are_ascii_digits_only(word):
    with pytest.raises(InvalidNotation, match="digits 0-9"):
        w.number(word, "count")


@pytest.mark.parametrize(
    ("word", "least", "most", "value"),
    [("0", 0, 9, 0), ("007", 1, 9, 7), ("6", 2, 6, 6), ("9999", 0, w.COUNT_MAX, 9999)],
)
def test_numbers_within_bounds(word, least, most, value):
    assert w.number(word, "count", least=least, most=most) == value


@pytest.mark.parametrize(
    ("word", "least", "most"),
    [("0", 1, 6), ("7", 1, 6), ("10000", 0, w.COUNT_MAX), ("9" * 5_000, 0, w.COUNT_MAX)],
)
def test_numbers_out_of_bounds_name_the_bounds(word, least, most):
    with pytest.raises(InvalidNotation, match=f"give {least} to {most}") as refused:
        w.number(word, "count", least=least, most=most)
    assert len(str(refused.value)) < 120  # a long word is cut short in the message


def test_a_number_past_pythons_conversion_limit_is_refused_not_crashed():
    with pytest.raises(InvalidNotation):
        w.number("1" * 5_000, "count")
    assert w.number("0" * 5_000 + "12", "count") == 12


@pytest.mark.parametrize(
    "text",
    [
        "accept ⁴",
        "accept 0",
        "accept 99999",
        "move Bk01 10⁴",
        "move Bk01 １０４",
        "move Bk01 104 side 7",
        "move Bk01 104 side 0",
        "move Bk0١ 104",
        "strike D4 E5 dice 100",
        "strike D4 E5 sn 7",
        "strike D4 E5 sn ²",
        "rangestrike C1 D٤",
        "move Bk01 1" + "0" * 5_000,
    ],
)
def test_game_verbs_refuse_odd_numbers_in_words(text):
    state = started()
    with pytest.raises(InvalidNotation):
        to_action(parse_command(text), state, state.active)


def test_sides_and_proposals_read_within_bounds():
    state = started()
    move = to_action(parse_command("move Bk01 104 side 5"), state, 0)
    assert move == a.Move("Bk01", 104, None, 5)
    assert to_action(parse_command("accept #3"), state, 0) == a.Accept(3)


@pytest.mark.parametrize(
    ("word", "user"),
    [
        ("<@123456789012345678>", 123456789012345678),
        ("<@!123456789012345678>", 123456789012345678),
        ("80351110224678912", 80351110224678912),
        (str(w.MIN_SNOWFLAKE), w.MIN_SNOWFLAKE),
        (f"<@{w.MAX_SNOWFLAKE}>", w.MAX_SNOWFLAKE),
    ],
)
def test_users_are_mentions_or_snowflakes(word, user):
    assert w.user(word) == user


@pytest.mark.parametrize(
    "word",
    [
        "0",
        "1",
        "<@1>",
        "4",
        str(w.MIN_SNOWFLAKE - 1),
        str(w.MAX_SNOWFLAKE + 1),
        str(2**70),
        f"<@{2**70}>",
        "9" * 5_000,
        "<@²>",
        "<@123456789012345678",
        "<@123456789012345678>x",
        "12345678901234567８",
        "Cat",
        "",
    ],
)
def test_implausible_users_are_refused(word):
    with pytest.raises(InvalidNotation, match="is not a"):
        w.user(word)


@pytest.mark.parametrize(
    ("reader", "word"),
    [(w.marker, "Bk0١"), (w.hex_label, "D٤"), (w.land, "١٠٤"), (w.land, "+104"), (w.land, " 104")],
)
def test_ids_are_written_in_ascii_digits(reader, word):
    with pytest.raises(InvalidNotation):
        reader(word)
