"""Player names: the safe alphabet, look-alikes refused beside each other, display names
cleaned into seat names or escaped; hostile names never reach a text unescaped."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot import names
from bot.context import Caller, Place
from bot.discord.seats import abort_game, remove_player, replace_player
from bot.names import clean, display, name_key, player_name, read_confusables, same_name
from bot.replies import Replies
from engine.errors import InvalidNotation

HERE = Place(300, guild=9)
HOST = Caller(700_000_000_000_000_001, "Host")
ANY_TEXT = st.text(st.characters(exclude_categories=[]))
HOSTILE = [
    "[gift](https://x)",
    "<@123>",
    "@everyone",
    "**bold**",
    "`code`",
    "||spoiler||",
    "Ann\u202eB",
    "Ann\x00",
    "Host\u200b",
]
LOOK_ALIKES = ["Ноst", "Ｈｏｓｔ", "HOST", "host", "H0st", "Hᴏst", "𝐇𝐨𝐬𝐭", "Ηost", "Hօst"]
INVISIBLE = ["\x00", "\u202e", "\u200b", "\u200d", "\ufeff", "\u2028", "\x1b", "\u3164", "\ufe0f"]
#: The markup a hostile name carries; none may reach a text without a backslash before it.
MARKUP = ["[gift](", "<@123>", "@everyone", "**bold**", "`code`", "||spoiler||", "https://"]


def unescaped(text: str, markup: str) -> bool:
    """Whether ``markup`` occurs in ``text`` without a backslash right before it."""
    return any(
        text[i - 1 : i] != "\\" for i in (m.start() for m in re.finditer(re.escape(markup), text))
    )


def texts(replies: Replies) -> list[str]:
    """Every text of ``replies``: the channel's, each user's, the caller's."""
    messages = [replies.public, replies.ephemeral, *replies.private.values()]
    return [m.text for m in messages if m is not None]


def assert_safe(replies: Replies) -> None:
    for text in texts(replies):
        assert not any(names.is_invisible(c) for c in text if c != "\n"), repr(text)
        for markup in MARKUP:
            assert not unescaped(text, markup), (markup, text)


@pytest.mark.parametrize(
    "name", ["Ann", "José", "Jean-Luc O'Neil", "Dr. No", "李小龍", "Ngô Bảo Châu", "2Pac", "Ωmega"]
)
def test_names_of_letters_digits_and_a_little_punctuation_are_names(name):
    assert player_name(f"  {name}  ") == name


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_refused_naming_the_character_not_the_name(name):
    with pytest.raises(InvalidNotation, match=r"U\+[0-9A-F]{4}") as refused:
        player_name(name)
    assert name not in str(refused.value)
    assert not any(names.is_invisible(c) for c in str(refused.value))


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_are_refused_as_such(char):
    with pytest.raises(InvalidNotation, match="invisible or control characters"):
        player_name(f"Ann{char}")


@pytest.mark.parametrize(
    ("name", "complaint"),
    [
        ("", "1 to 32"),
        ("x" * 33, "1 to 32"),
        ("-Ann", "begins with a letter"),
        ("'Ann'", "begins with a letter"),
        ("A" + "\u0301" * 5, "at most 4 accents"),
        ("Ann🐉", "U+1F409"),
        ("Ann_Lee", "U+005F"),
        ("Ann²", "U+00B2"),
    ],
)
def test_names_outside_the_alphabet_say_why(name, complaint):
    with pytest.raises(InvalidNotation, match=re.escape(complaint)):
        player_name(name)


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_read_the_same(name):
    assert same_name(name, "Host")


@pytest.mark.parametrize("name", ["Hast", "Hosts", "Ho st", "Höst", "Post"])
def test_different_names_read_differently(name):
    assert not same_name(name, "Host")


def test_capital_i_small_l_and_one_read_the_same():
    assert name_key("Ian") == name_key("lan") == name_key("1an")


def test_the_confusables_table_folds_letters_to_ascii_letters():
    table = names.confusables()
    assert len(table) > 80 and table["н"] == "h" and table["0"] == "o"
    assert all(len(k) == 1 and "a" <= v <= "z" for k, v in table.items())
    assert all(name_key(k) == name_key(v) for k, v in table.items())


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('[a]\n"ab" = "a"', "bad or repeated key"),
        ('[a]\n"а" = "a"\n[b]\n"а" = "b"', "bad or repeated key"),
        ('[a]\n"а" = "ab"', "one ASCII letter"),
        ('[a]\n"а" = "A"', "one ASCII letter"),
        ('[a]\n"а" = 1', "one ASCII letter"),
        ('[a]\n"а" = "b"\n"b" = "c"', "both folded and fold targets"),
        ('a = "b"', "not a table"),
    ],
)
def test_a_malformed_confusables_table_is_refused(text, complaint):
    with pytest.raises(ValueError, match=complaint):
        read_confusables(text)


@given(ANY_TEXT)
def test_any_text_is_a_name_or_refused_clearly(text):
    try:
        name = player_name(text)
    except InvalidNotation as exc:
        assert str(exc).startswith("a player name")
        return
    assert 1 <= len(name) <= names.MAX_NAME and name == unicodedata.normalize("NFC", name)
    assert not set(name) & set("*_~`|<>[]()@#:\\/\n")


@given(ANY_TEXT)
@example("0≠:0")  # an accent dropped between spaces once left two of them
def test_a_cleaned_display_name_is_a_name_or_nothing(text):
    cleaned = clean(text)
    assert cleaned == "" or player_name(cleaned) == cleaned


@given(ANY_TEXT)
def test_a_displayed_name_escapes_every_ascii_mark_and_drops_the_invisible(text):
    shown = display(text, "someone")
    assert shown and not any(names.is_invisible(c) for c in shown)
    rest = iter(shown)
    for char in rest:
        if char == "\\":
            escaped = next(rest)
            assert escaped.isascii() and not escaped.isalnum() and not escaped.isspace()
        else:
            assert not (char.isascii() and not char.isalnum() and not char.isspace()), shown


def test_display_names_keep_their_letters():
    assert clean("[gift](https://x)") == "gift https x"
    assert clean("**Bob** 🐉") == "Bob"
    assert clean("\u202e\u200b") == ""
    assert display("Ann") == "Ann" and display("\u200b", "the host") == "the host"
    assert display("<@123>") == "\\<\\@123\\>"


async def say(service, caller, text):
    replies = await service.submit(HERE, caller, text)
    assert not replies.fault, (text, replies)
    assert_safe(replies)
    return replies


async def seat_names(service) -> list[str]:
    game = await service.game_in(HERE.channel)
    return [s.name for s in game.seats]


async def test_hostile_names_are_refused_in_every_way_of_taking_a_seat(service):
    await say(service, HOST, "new players 6")
    ways = ["join {}", "add 700000000000000099 {}", "addai {}"]
    for name in HOSTILE:
        for way in ways:
            caller = Caller(700_000_000_000_000_050, "Ann") if way.startswith("join") else HOST
            replies = await say(service, caller, way.format(f"'{name}'"))
            assert replies.error and replies.ephemeral.text.startswith("a player name"), name
    assert await seat_names(service) == ["Host"]


async def test_look_alikes_are_refused_beside_the_original(service):
    await say(service, HOST, "new players 6")
    for number, name in enumerate(LOOK_ALIKES, 50):
        for text, caller in (
            (f"join {name}", Caller(700_000_000_000_000_000 + number, "Someone")),
            (f"add 7000000000000001{number} {name}", HOST),
            (f"addai {name}", HOST),
        ):
            replies = await say(service, caller, text)
            assert replies.error and "is taken" in replies.ephemeral.text, (text, replies)
    assert await seat_names(service) == ["Host"]
    invisible = await say(service, Caller(700_000_000_000_000_070, "Eve"), "join 'Host\u200b'")
    assert "invisible" in invisible.ephemeral.text


async def test_display_names_become_clean_seat_names_or_player_n(service):
    opener = Caller(700_000_000_000_000_005, "**[gift](https://x)**")
    opened = await say(service, opener, "new players 6")
    assert opened.public.text.startswith("**gift https x** opened game")
    joining = ["<@123>", "@everyone", "||spoiler||", "Ann\u202eB", "Host\u200b", "Ann\x00"]
    for number, display_name in enumerate(joining, 10):
        await say(service, Caller(700_000_000_000_000_000 + number, display_name), "join")
    seated = ["gift https x", "123", "everyone", "spoiler", "AnnB", "Host"]
    assert await seat_names(service) == seated  # the last is refused: the game is full
    status = await say(service, opener, "status")
    assert "gift https x" in status.ephemeral.text


async def test_a_display_name_with_nothing_usable_sits_as_player_n(service):
    await say(service, Caller(700_000_000_000_000_005, "\u202e\u200b"), "new players 3")
    await say(service, Caller(700_000_000_000_000_002, "🐉🐉"), "join")
    await say(service, HOST, "join")
    assert await seat_names(service) == ["Player 1", "Player 2", "Host"]


async def test_a_hostile_display_name_cancelling_is_escaped(service):
    await say(service, HOST, "new")
    moderator = Caller(700_000_000_000_000_090, "[gift](https://x) @everyone", organiser=True)
    cancelled = await say(service, moderator, "cancel")
    assert "cancelled by \\[gift\\]\\(https\\:\\/\\/x\\) \\@everyone." in cancelled.public.text


async def test_organiser_tools_escape_the_organisers_display_name(service):
    organiser = Caller(700_000_000_000_000_090, "<@123> ||spoiler|| \u202e", organiser=True)
    bob, cat = (Caller(700_000_000_000_000_000 + k, name) for k, name in ((2, "Bob"), (3, "Cat")))
    await say(service, HOST, "new players 3")
    await say(service, bob, "join")
    await say(service, cat, "join")
    removed = await remove_player(service, HERE, organiser, cat.user)
    assert_safe(removed)
    assert removed.public.text.startswith("Organiser **\\<\\@123\\> \\|\\|spoiler\\|\\|** removed")
    await say(service, HOST, "start")
    handed = await replace_player(service, HERE, organiser, bob.user, cat.user)
    assert_safe(handed)
    assert handed.public.text.startswith("Organiser **\\<\\@123\\> \\|\\|spoiler\\|\\|** handed")
    aborted = await abort_game(service, HERE, organiser)
    assert_safe(aborted)
    said = aborted.public.text.splitlines()[0]  # then the dice's seed and salt, revealed
    assert said.endswith("cancelled by \\<\\@123\\> \\|\\|spoiler\\|\\|.")


def test_names_told_apart_read_differently_and_stay_player_names():
    long = "x" * names.MAX_NAME
    given_names = ["Ann", "Ann", "Ann 2", "ann", "\u0410nn", long, long, "Bob"]
    shown = names.told_apart(given_names)
    assert shown == [
        "Ann", "Ann 2", "Ann 2 2", "ann 3", "\u0410nn 4", long, "x" * 30 + " 2", "Bob",
    ]  # fmt: skip
    assert len({name_key(n) for n in shown}) == len(shown)
    assert all(player_name(n) == n for n in shown)


@given(st.lists(st.sampled_from(["Ann", "ann", "Ann 2", "\u0410nn", "Bo", "bo 2"]), max_size=12))
def test_any_names_told_apart_are_all_distinct(given_names):
    shown = names.told_apart(given_names)
    assert len(shown) == len(given_names)
    assert len({name_key(n) for n in shown}) == len(shown)
    assert all(
        s == g or s.startswith(g[: names.MAX_NAME - 3])
        for s, g in zip(shown, given_names, strict=True)
    )
