"""Command hints: one markup (a code span holding a command), the terminal's and Discord's
renderings of it, and shortening a rendered text without cutting a mention."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.dialect import (
    TERMINAL,
    Slash,
    SlashCommand,
    hints,
    is_placeholder,
    shorten,
    timestamp,
    without_hints,
)
from bot.narration.describe import waiting_for
from bot.syntax import format_action
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from tests.bot.agent import pick

COMMANDS = Slash(
    (
        SlashCommand(("titan", "join"), "Take a seat", "join", 11),
        SlashCommand(("titan", "start"), "Start", "start", 11),
        SlashCommand(("turn", "colour"), "Take a colour", "colour", 12),
        SlashCommand(("turn", "move"), "Move a legion", "move", 12),
        SlashCommand(("battle", "carry"), "Carry over", "carry", None),
        SlashCommand(("titan", "cancel"), "Cancel", "cancel", 11),
        SlashCommand(("titan-admin", "abort"), "Abort", "cancel", 13),
        SlashCommand(("titan", "tournament", "join"), "Sign up", "tournament join", 11),
        SlashCommand(("tournament", "heat"), "Seat a heat", "tournament heat", 14),
    )
)
MENTION = re.compile(r"</[-_\w ]+:\d+>")


def test_the_terminal_keeps_its_own_words():
    text = "Take a seat with `join`; the host starts the game with `start`."
    assert TERMINAL.render(text) == text


def test_discord_names_the_slash_commands_as_mentions():
    text = "Take a seat with `join`; the host starts the game with `start`."
    assert COMMANDS.render(text) == (
        "Take a seat with </titan join:11>; the host starts the game with </titan start:11>."
    )


def test_placeholders_are_dropped_and_values_kept():
    assert (
        COMMANDS.render("choose a colour (`colour COLOUR`)")
        == "choose a colour (</turn colour:12>)"
    )
    assert COMMANDS.render("`move Bk01 104 side 3`") == "</turn move:12> `Bk01 104 side 3`"
    assert (
        COMMANDS.render("`join [NAME]`, `move LEGION LAND…`") == "</titan join:11>, </turn move:12>"
    )


def test_a_command_without_a_known_id_is_named_plainly():
    assert COMMANDS.render("place them (`carry D4` or `carry E5`)") == (
        "place them (`/battle carry` `D4` or `/battle carry` `E5`)"
    )


def test_a_verbs_subcommand_names_its_own_command():
    text = "Join with `tournament join Spring`; then `tournament heat Spring`."
    assert COMMANDS.render(text) == (
        "Join with </titan tournament join:11> `Spring`; then </tournament heat:14> `Spring`."
    )
    assert COMMANDS.render("`tournament close Spring`") == "`tournament close Spring`"


def test_the_players_command_wins_over_the_organisers_for_a_shared_verb():
    assert COMMANDS.render("abort it (`cancel 12`)") == "abort it (</titan cancel:11> `12`)"


def test_what_is_no_command_is_left_as_written():
    for text in (
        "`Bk01` in `104`",
        "Use `/titan legions`",
        "`Ann: new`",
        "`choices muster`",  # a verb of the language with no slash command here
        r"a name with \`join\` escaped",
        "`it's unbalanced",
        "`` and ` `",
    ):
        assert COMMANDS.render(text) == text, text


def test_hints_finds_the_commands_left_in_a_text():
    assert hints("`join` then `Bk01`, `/titan join` and `move Bk01 104`") == [
        "`join`",
        "`move Bk01 104`",
    ]
    assert hints(COMMANDS.render("`join` then `move Bk01 104`")) == []


def test_placeholders():
    assert all(map(is_placeholder, ["COLOUR", "N", "[NAME]", "CHARACTER…", "HEX|CHARACTER"]))
    assert not any(map(is_placeholder, ["D4", "Bk01", "104", "Ogre", "side", "1|3|5"]))


def _commands_of_a_game(seed: int, steps: int) -> list[str]:
    state, _ = new_game(["Ann", "Bob"], seed)
    rng, found = random.Random(seed), []
    for _ in range(steps):
        seat = to_act(state)
        if seat is None:
            break
        legal = legal_actions(state, seat)
        found += [format_action(x) for x in legal[:5]]
        state, _ = apply(state, seat, pick(legal, rng, fighting=True))
    return found


@given(st.integers(0, 50))
def test_every_command_a_game_offers_renders_as_its_slash_command_and_values(seed):
    for line in _commands_of_a_game(seed, 30):
        verb, *words = line.split()
        rendered = COMMANDS.render(f"`{line}`")
        if verb not in COMMANDS.by_verb:
            assert rendered == f"`{line}`"
            continue
        values = f" `{' '.join(words)}`" if words else ""
        assert rendered == COMMANDS.by_verb[verb].mention() + values


@given(st.text(alphabet=st.characters(blacklist_characters="`")))
def test_a_text_without_code_spans_is_left_alone(text):
    assert COMMANDS.render(text) == text


WORDS = st.sampled_from(["</turn move:123456789012345678>", "word", "`D4`", "ünïcode", "\n"])


@given(st.lists(WORDS, max_size=80), st.integers(10, 300))
def test_shortening_keeps_a_prefix_within_the_limit_and_never_cuts_a_mention(parts, limit):
    text = " ".join(parts)
    short = shorten(text, limit)
    assert len(short) <= limit
    if short == text:
        return
    counted = re.fullmatch(r"(.*)\n… and (\d+) more line(s?)", short, re.DOTALL)
    if counted is not None:
        kept = counted[1]
        assert (counted[3] == "s") == (counted[2] != "1")  # 1 more line, 2 more lines
        assert text.startswith(kept + "\n")
        assert kept.count("\n") + 1 + int(counted[2]) == text.count("\n") + 1
    else:
        assert short.endswith("…") and text.startswith(kept := short[:-1])
    assert kept.count("</") == len(MENTION.findall(kept))


def test_a_long_answer_keeps_its_first_lines_and_says_how_many_more():
    text = "\n".join(f"</turn move:123456789012345678> `Bk0{i} 104`" for i in range(9))
    assert shorten(text, 120) == "\n".join(text.splitlines()[:2]) + "\n… and 7 more lines"
    three = "\n".join(text.splitlines()[:3])
    assert shorten(three, 120) == "\n".join(text.splitlines()[:2]) + "\n… and 1 more line"


# --- moments -----------------------------------------------------------------------------------
def test_a_moment_is_written_as_a_discord_timestamp():
    moment = datetime(2026, 12, 1, 14, 5, 30, tzinfo=UTC)
    assert timestamp(moment) == f"<t:{int(moment.timestamp())}:R>"
    assert timestamp(1_796_133_900.9, "f") == "<t:1796133900:f>"


def test_discord_keeps_timestamps_and_the_terminal_shows_them_in_utc():
    text = f"asked {timestamp(datetime(2026, 12, 1, 14, 5, tzinfo=UTC))}; `join` it"
    assert COMMANDS.render(text) == text.replace("`join`", "</titan join:11>")
    assert TERMINAL.render(text) == "asked 2026-12-01 14:05 UTC; `join` it"
    assert TERMINAL.render("<t:0> <t:86400:f> <t:-60:R>") == (
        "1970-01-01 00:00 UTC 1970-01-02 00:00 UTC 1969-12-31 23:59 UTC"
    )


def test_the_terminal_leaves_what_is_no_timestamp_alone():
    for text in ("<t:999999999999:R>", "<t:12:X>", "<t:abc:R>", "<#12>", "<@12>", "t:12"):
        assert TERMINAL.render(text) == text


@given(st.integers(0, 253_402_300_799))  # up to the last second of the year 9999
def test_every_moment_reads_back_in_the_terminal(seconds):
    shown = TERMINAL.render(timestamp(seconds))
    moment = datetime.strptime(shown, "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    assert 0 <= seconds - moment.timestamp() < 60


# --- words without hints ---------------------------------------------------------------------
def test_a_task_without_its_hints_keeps_its_words():
    cases = {
        "choose a colour (`colour COLOUR`)": "choose a colour",
        "split (`split LEGION CHARACTER…`) or `roll`": "split or roll",
        "move (rolled 4; `move LEGION LAND`, then `done`)": "move (rolled 4)",
        "muster (`muster LEGION CHARACTER`) or end the turn (`done`)": "muster or end the turn",
        "bring Ogre on (`maneuver CHARACTER HEX`), then `done`": "bring Ogre on",
        "`accept` the other side's concession or `insist` on conceding (roll-off)": (
            "accept the other side's concession or insist on conceding (roll-off)"
        ),
        "take a reinforcement into Gr03 (`reinforce CHARACTER`) or not (`decline`)": (
            "take a reinforcement into Gr03 or not"
        ),
        "strike back (`strike HEX HEX`) (battle in 104, turn 2)": (
            "strike back (battle in 104, turn 2)"
        ),
        "place 2 hits (`carry D4` or `carry E5`) on `D4`": "place 2 hits on `D4`",
    }
    for text, words in cases.items():
        assert without_hints(text) == words, text


@settings(deadline=None)  # a game of 120 steps: slow on a busy machine, and that is fine
@given(st.integers(0, 40))
def test_no_task_of_a_game_keeps_a_hint(seed):
    state, _ = new_game(["Ann", "Bob", "Cat"], seed)
    rng = random.Random(seed)
    for _ in range(120):
        seat, task = waiting_for(state)
        if seat is None:
            break
        words = without_hints(task)
        assert "`" not in words and "()" not in words and "  " not in words, (task, words)
        assert words.strip() == words and words, task
        state, _ = apply(state, seat, pick(legal_actions(state, seat), rng, fighting=True))
