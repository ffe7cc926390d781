"""The leak test: across whole games, nothing the service sends to the channel or to a
player names characters of another player's legion that this recipient may not know.

A seeded fighting agent plays whole games through the service. For every command the
texts sent (the channel message for a spectator, each private message and the ephemeral
answer for their recipient's seat) are read line by line: a line naming a legion the
recipient may not see in full (``Knowledge.may_see``, before or after the action) may name
only characters revealed to everyone for the legions on that line or the recipient's own.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterable

from bot.context import Place
from bot.replies import Replies
from bot.service import GameService
from engine.characters import CHARACTERS
from engine.game import events as ev
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.agent import caller, pick, user_id
from tests.bot.test_battle_play import LIMIT
from tests.engine.game.helpers import Knowledge

MARKER = re.compile(r"\b[A-Z][a-z]\d\d\b")
#: Every character's name and plural → the name.
WORDS = {w: name for name, c in CHARACTERS.items() for w in (name, c.plural)}
CHARACTER = re.compile(r"\b(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")\b")
GAMES = ((40, 2, 5), (41, 3, 6), (42, 2, 7), (43, 3, 8))  # channel, players, agent seed
ASK_EVERY = 7
"""Every so many actions each seat and a spectator ask the information commands."""
SPECTATOR = 77
SHOWING = 0.02
"""How often the agent shows one of its legions to everyone (errata 4.5)."""


def own_characters(states: Iterable[GameState], seat: int | None) -> set[str]:
    return {
        name
        for state in states
        for legion in state.legions.values()
        if legion.owner == seat
        for name in legion.characters
    }


def leaks(
    text: str,
    seat: int | None,
    states: tuple[GameState, GameState],
    knowing: tuple[Knowledge, Knowledge],
    public: Knowledge,
    slain: dict[str, set[str]] | None = None,
) -> list[str]:
    """The lines of ``text`` that show ``seat`` (None: a spectator) hidden characters.

    ``knowing`` is the knowledge before and after the action (``states`` likewise): a
    legion either entitles the recipient to see is not hidden; ``public`` holds what was
    revealed to everyone once the action is followed, ``slain`` the characters the action
    publicly slew per marker (they go back to the public stacks and dead pile, §1.5).
    """
    mine = own_characters(states, seat)
    found = []
    for line in text.splitlines():
        markers = {m for m in MARKER.findall(line) if any(m in s.legions for s in states)}
        hidden = [
            m
            for m in markers
            if not any(
                m in state.legions and know.may_see(state, m, seat)
                for state, know in zip(states, knowing, strict=True)
            )
        ]
        if not hidden:
            continue
        allowed = set(mine)
        for marker in markers:
            allowed |= set(public.public.get(marker, {}))
            allowed |= (slain or {}).get(marker, set())
        named = {WORDS[w] for w in CHARACTER.findall(line)}
        if named - allowed:
            found.append(f"seat {seat}: {line!r} names {sorted(named - allowed)}")
    return found


def texts(replies: Replies, channel: int, acting: int, seats: int):
    """(recipient seat, text) of everything sent: the channel's message goes to a spectator."""
    by_user = {user_id(channel, s): s for s in range(seats)}
    if replies.public is not None:
        yield None, replies.public.text
    for user, message in replies.private.items():
        yield by_user[user], message.text
    if replies.ephemeral is not None:
        yield acting, replies.ephemeral.text


async def ask(
    service: GameService,
    channel: int,
    players: int,
    state: GameState,
    knowledge: Knowledge,
    ever: dict[str, set[str]],
    history: bool,
) -> list[str]:
    """Each seat and a spectator ask the information commands; the leaks in the answers."""
    lands = sorted({legion.land for legion in state.legions.values()})
    questions = ["legions", "status", "board", "battle", f"land {lands[0]}", f"land {lands[-1]}"]
    questions += ["history 20"] if history else []
    found = []
    for seat in [*range(players), None]:
        who = caller(channel, SPECTATOR) if seat is None else caller(channel, seat)
        for question in questions:
            replies = await service.submit(Place(channel), who, question)
            if replies.error:
                continue
            assert replies.public is None and not replies.private, question
            assert replies.ephemeral is not None
            both, know = (state, state), (knowledge, knowledge)
            past = ever if question.startswith("history") else None
            found += leaks(replies.ephemeral.text, seat, both, know, knowledge, past)
    return found


async def check_game(
    service: GameService, channel: int, players: int, agent: int, history: bool = False
) -> int:
    """Open and play a whole game in ``channel``, checking every text; the battles seen."""
    place = Place(channel)
    steps = [(0, f"new players {players}")] + [(s, "join") for s in range(1, players)]
    replies = None
    for seat, text in [*steps, (0, "start")]:
        replies = await service.submit(place, caller(channel, seat), text)
        assert not replies.error, (text, replies.ephemeral)
    game = await service.game_in(channel)
    assert game is not None and game.state is not None
    state = game.state
    knowledge = Knowledge(players)
    found: list[str] = []
    for seat, text in texts(replies, channel, 0, players):
        found += leaks(text, seat, (state, state), (knowledge, knowledge), knowledge)
    battles = 0
    ever: dict[str, set[str]] = {}  # everything ever revealed to all, per marker (history)
    for _ in range(LIMIT):
        seat = to_act(state)
        assert seat is not None
        rng = random.Random(f"{agent}:{game.n}")
        action = pick(legal_actions(state, seat), rng, True, showing=SHOWING)
        after, events = apply(state, seat, action)
        replies = await service.act(place, caller(channel, seat), action)
        assert not replies.error, (action, replies.ephemeral)
        before_knowledge = copy.deepcopy(knowledge)
        knowledge.follow(state, after, events)
        battles += before_knowledge.battle is False and knowledge.battle
        pair = (state, after)
        slain: dict[str, set[str]] = {}
        for event in events:
            if isinstance(event, ev.CharactersSlain) and event.audience is None:
                slain.setdefault(event.marker, set()).update(event.characters)
        for recipient, text in texts(replies, channel, seat, players):
            found += leaks(text, recipient, pair, (before_knowledge, knowledge), knowledge, slain)
        for marker, names in slain.items():
            ever.setdefault(marker, set()).update(names)
        for marker, known in knowledge.public.items():
            ever.setdefault(marker, set()).update(known)
        for know in (before_knowledge, knowledge):  # a battle shows its legions to all
            for marker in know.engaged if know.battle else ():
                for legion in (s.legions.get(marker) for s in pair):
                    ever.setdefault(marker, set()).update(legion.characters if legion else ())
        game = await service.game_in(channel)
        if game is not None and game.n % ASK_EVERY == 0:
            found += await ask(service, channel, players, after, knowledge, ever, history)
        if game is None:
            assert after.result is not None
            assert not found, "\n".join(found[:20])
            return battles
        assert game.state == after
        state = after
    raise AssertionError("the game did not end")


async def test_no_text_shows_anyone_hidden_legion_contents(db_path):
    service = await GameService.open(db_path, seeds=lambda: 9, snapshot_every=25)
    try:
        battles = 0
        for channel, players, agent in GAMES:
            battles += await check_game(service, channel, players, agent)
    finally:
        await service.close()
    assert battles > 0, "the games should fight battles"


def test_the_checker_flags_a_hidden_legion_named_with_its_contents():
    from tests.engine.game.helpers import pos

    state = pos("Rd01@41:Ogre,Troll Bk01@100:Angel,Titan | turn=Bk phase=split")
    seat = state.legions["Bk01"].owner
    know = Knowledge(2)
    line = "Rd01 in 41 (Marsh): Troll, Ogre"
    both = (state, state)
    assert leaks(line, seat, both, (know, know), know)
    assert leaks("Rd01 holds 2 Trolls", None, both, (know, know), know)
    assert not leaks(line, 1 - seat, both, (know, know), know)  # his own
    assert not leaks("Bk01 in 100: Angel, Titan", seat, both, (know, know), know)
    know.public["Rd01"] = {"Troll": 1, "Ogre": 1}
    assert not leaks(line, seat, both, (know, know), know)  # revealed to all
