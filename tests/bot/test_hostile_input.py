"""Every input has a clear answer: for any text, the command language returns or raises a
:class:`TitanError`, and the service answers with a refusal or a success, never the
apology for an internal fault.

Texts are arbitrary Unicode (surrogates and controls included) and targeted: verbs
followed by words the readers are tempted by (markers, lands, hexes, characters,
keywords), huge digit strings, superscript and other non-ASCII digits, quotes, controls,
mentions of every size.
"""

from __future__ import annotations

import asyncio
import random
import shlex
import shutil
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.context import Caller, Place
from bot.replies import Replies
from bot.service import GameService
from bot.syntax import FORMATTERS, VerbKind, format_action, parse_command, to_action
from bot.syntax.verbs import _ALIASES
from engine.battleland import LABELS
from engine.characters import CHARACTERS
from engine.errors import TitanError
from engine.game.apply import apply
from engine.game.battle_flow import battle_of
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState
from tests.bot.agent import caller, open_game, pick, step

ANY_CHAR = st.characters(exclude_categories=[])
ODD_DIGITS = "²³¹⁴⁰⁹٠١٢٣۴०१০๑０１２𝟎𝟏𝟘ⅠⅫ①⑴"
KEYWORDS = [
    "side", "teleport", "tower", "titan", "lord", "keep", "lose", "loses", "or", "attacker",
    "defender", "both", "reveal", "dice", "sn", "players", "record_keeping", "time_limit",
]  # fmt: skip
WORDS = st.one_of(
    st.text(ANY_CHAR, max_size=12),
    st.sampled_from(KEYWORDS + sorted(CHARACTERS) + list(LABELS)),
    st.builds(
        lambda c, n: f"{c}{n:02d}",
        st.sampled_from(["Bk", "Rd", "Gr", "bk", "XX"]),
        st.integers(0, 99),
    ),
    st.integers(-10, 10**30).map(str),
    st.text("0123456789", min_size=1, max_size=6_000),
    st.text(ODD_DIGITS + "0123456789", min_size=1, max_size=6),
    st.text("'\"\\ \x00\x1b\u202e\u200b\n\t#/<@!>", max_size=6),
    st.one_of(st.integers(0, 2**80), st.text(ODD_DIGITS + "0123456789", max_size=25)).map(
        lambda n: f"<@{n}>"
    ),
)
VERB_NAMES = sorted(_ALIASES)


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    """A verb (any case, perhaps with a slash) and words, plainly joined or shell-quoted."""
    verb = draw(st.sampled_from(VERB_NAMES))
    verb = draw(st.sampled_from([verb, verb.upper(), f"/{verb}"]))
    words = draw(st.lists(WORDS, max_size=8))
    if draw(st.booleans()):
        return " ".join([verb, *(shlex.quote(word) for word in words)])
    return " ".join([verb, *words])


@cache
def legal_commands() -> list[str]:
    """The commands of every legal action of :func:`positions`."""
    found = {
        format_action(action)
        for state in positions()
        if (seat := to_act(state)) is not None
        for action in legal_actions(state, seat)
        if type(action) in FORMATTERS
    }
    return sorted(found)


def mutate(command: str, at: int, word: str, how: str) -> str:
    """``command`` with its word ``at`` replaced by ``word``, or ``word`` inserted there,
    or unchanged (``how``: replace, insert, keep)."""
    words = command.split()
    at %= len(words) + 1
    if how == "replace":
        return " ".join([*words[:at], word, *words[at + 1 :]])
    if how == "insert":
        return " ".join([*words[:at], word, *words[at:]])
    return command


#: How to change a legal command: (which command, which word, the word, how).
MUTATIONS = st.tuples(
    st.integers(0, 10**6), st.integers(0, 12), WORDS, st.sampled_from(["replace", "insert", "keep"])
)


def mutated(commands: list[str], mutation: tuple[int, int, str, str]) -> str:
    pick_at, at, word, how = mutation
    return mutate(commands[pick_at % len(commands)], at, word, how) if commands else word


LINES = st.one_of(
    st.text(ANY_CHAR),
    command_lines(),
    MUTATIONS.map(lambda mutation: mutated(legal_commands(), mutation)),
    st.text("0123456789", min_size=4_000, max_size=6_000).map(lambda d: f"history {d}"),
    st.text(ANY_CHAR, min_size=1_900, max_size=2_100),
)


@cache
def positions() -> list[GameState]:
    """Real positions: the first of each kind (phase, battle step) in random games."""
    found: dict[tuple[int, str], GameState] = {}
    for seed, players in ((1, 2), (2, 3), (3, 2), (4, 2)):
        state, _ = new_game([f"P{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        for _ in range(1_500):
            if state.result is not None:
                break
            battle = battle_of(state)
            kind = battle.step.value if battle is not None else state.phase.value
            found.setdefault((players, kind), state)
            seat = to_act(state)
            assert seat is not None
            state, _ = apply(state, seat, pick(legal_actions(state, seat), rng, fighting=True))
        found.setdefault((players, "over"), state)
    return list(found.values())


def test_the_positions_cover_the_game():
    kinds = {battle_of(s).step.value if battle_of(s) else s.phase.value for s in positions()}
    assert {"colours", "split", "move", "engage", "muster", "maneuver", "strike"} <= kinds


@settings(max_examples=300, deadline=None)
@given(line=LINES, index=st.integers(0, 10_000), other=st.booleans())
def test_the_language_returns_or_raises_titan_errors(line, index, other):
    """parse_command and to_action (and the engine after them) return or raise a
    TitanError, for the seat to act and for another."""
    state = positions()[index % len(positions())]
    try:
        command = parse_command(line)
    except TitanError:
        return
    if command.kind is not VerbKind.GAME:
        command.args()  # the handlers read these words: covered through the service
        return
    acting = to_act(state) or 0
    seat = (acting + 1) % len(state.players) if other else acting
    try:
        action = to_action(command, state, seat)
        apply(state, seat, action)
    except TitanError:
        pass


CHANNEL = 7
PLACE = Place(CHANNEL, guild=1)
STRANGER = Caller(700_000_000_000_000_077, "Stranger")
ORGANISER = Caller(700_000_000_000_000_078, "Organiser", organiser=True)


async def _build(path: Path, stage: str) -> None:
    """A database whose channel holds a game at ``stage``."""
    service = await GameService.open(path, seeds=lambda: 5)
    try:
        if stage == "empty":
            return
        if stage == "lobby":
            for seat, text in ((0, "new players 3"), (1, "join")):
                assert not (await service.submit(PLACE, caller(CHANNEL, seat), text)).error
            return
        await open_game(service, CHANNEL, 2)
        for _ in range(2_000):
            game = await service.game_in(CHANNEL)
            assert game is not None and game.state is not None
            if stage == "colours" or (stage == "split" and game.state.phase.value == "split"):
                return
            if stage == "battle" and battle_of(game.state) is not None:
                return
            await step(service, CHANNEL, 5, fighting=True)
        raise AssertionError(f"no {stage} reached")
    finally:
        await service.close()


STAGES = ("empty", "lobby", "colours", "split", "battle")


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One database file per stage, copied for each example."""
    folder = tmp_path_factory.mktemp("templates")
    built = {stage: folder / f"{stage}.sqlite3" for stage in STAGES}
    for stage, path in built.items():
        asyncio.run(_build(path, stage))
    return built


async def _submit(
    template: Path, work: Path, who: str, text: str | tuple[int, int, str, str]
) -> Replies:
    """``text`` said by ``who`` in a copy of ``template``; a mutation is applied to a legal
    command of the game there."""
    path = work / "game.sqlite3"
    shutil.copyfile(template, path)
    service = await GameService.open(path, seeds=lambda: 5)
    try:
        game = await service.game_in(CHANNEL)
        acting = to_act(game.state) if game is not None and game.state is not None else None
        if not isinstance(text, str):
            legal = legal_actions(game.state, acting) if acting is not None else []
            text = mutated([format_action(x) for x in legal if type(x) in FORMATTERS], text)
        callers = {
            "acting": caller(CHANNEL, acting if acting is not None else 0),
            "seated": caller(CHANNEL, 1),
            "host": caller(CHANNEL, 0),
            "stranger": STRANGER,
            "organiser": ORGANISER,
        }
        return await service.submit(PLACE, callers[who], text)
    finally:
        await service.close()
        for leftover in work.iterdir():
            leftover.unlink()


@settings(
    max_examples=75, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    line=LINES | MUTATIONS,
    who=st.sampled_from(["acting", "seated", "host", "stranger", "organiser"]),
)
@pytest.mark.parametrize("stage", STAGES)
def test_the_service_answers_any_line_without_apology(templates, tmp_path, stage, line, who):
    replies = asyncio.run(_submit(templates[stage], tmp_path, who, line))
    assert not replies.fault, (stage, who, line)
    if replies.error:
        assert replies.ephemeral is not None and replies.ephemeral.text
    assert all(len(text) < 20_000 for text in _texts(replies))


def _texts(replies: Replies) -> list[str]:
    messages = [replies.public, replies.ephemeral, *replies.private.values()]
    return [m.text for m in messages if m is not None]


@pytest.mark.parametrize(
    "line",
    [
        "history ²",
        "history 1" + "0" * 5_000,
        "accept ⁴",
        "new players ²",
        "new players 1" + "0" * 5_000,
        f"add {2**70} Cat",
        f"add <@{2**70}> Cat",
        "add 0 Cat",
        "add 1",
        "land ١٠٤",
        "land 1" + "0" * 5_000,
        "join 'Host\x00'",
        "join " + "x" * 3_000,
        "\udcff\udcfe",
        "creature \ud800",
    ],
)
@pytest.mark.parametrize("stage", ["empty", "lobby", "split"])
def test_the_lines_seen_by_an_attacker_are_refused(templates, tmp_path, stage, line):
    for who in ("host", "stranger"):
        replies = asyncio.run(_submit(templates[stage], tmp_path, who, line))
        assert not replies.fault and replies.error, (stage, who, line, replies)
