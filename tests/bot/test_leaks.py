"""The leak test: across whole games, nothing the service sends to the channel or to a
player names characters of another player's legion that this recipient may not know.

A seeded fighting agent plays whole games through the service. For every command every
part of what is sent (the text, each choice's label and command, the picture's file name
and whose it is) is checked by :class:`~tests.bot.leakcheck.Watch`: the channel's message
as a spectator reads it, each private message and the ephemeral answer for their
recipient's seat.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bot.context import Place
from bot.legality import legal
from bot.offers import public_offers
from bot.replies import Message, Picture, PictureKind, Replies
from bot.service import GameService
from bot.storage import Database
from engine.game.apply import apply
from engine.game.legal import to_act
from engine.game.state import GameState
from tests.bot.agent import caller, pick, user_id
from tests.bot.leakcheck import Watch, leaks, parts
from tests.bot.test_battle_play import LIMIT
from tests.engine.game.helpers import Knowledge

GAMES = ((40, 2, 5), (41, 3, 6), (42, 2, 7), (43, 3, 8))  # channel, players, agent seed
KEEPING = " record_keeping"
"""The option of the games that recall what was revealed (errata 20.0): a public board then
draws the teleports of lords everyone has seen."""
ASK_EVERY = 7
"""Every so many actions each seat and a spectator ask the information commands."""
ASK_CHOICES = 0.1
"""How often the player to act first opens the private steps of its decision."""
ASK_CHOICES_IN_BATTLE = 0.25
"""As often in a battle, where the steps name the fighters (a strike's, a carry's)."""
MANY = 100
"""Games of the long run (text, choices, pictures; no information commands): two to six
players, so that fewer games are longer and fight more. (Measured by branch coverage of
bot/: these 100 games reach every branch the 200 two-to-four-player games did.)"""
MOST_STEPS = 12
"""Private steps opened at one decision (the first ones, breadth first)."""
SPECTATOR = 77
SHOWING = 0.02
"""How often the agent shows one of its legions to everyone (errata 4.5)."""


def sent(replies: Replies, channel: int, acting: int, seats: int):
    """(recipient seat, message) of everything sent: the channel's message goes to a
    spectator, the ephemeral answer to the seat acting."""
    by_user = {user_id(channel, s): s for s in range(seats)}
    found: list[tuple[int | None, Message]] = []
    if replies.public is not None:
        found.append((None, replies.public))
    found += [(by_user[user], message) for user, message in replies.private.items()]
    if replies.ephemeral is not None:
        found.append((acting, replies.ephemeral))
    return found


def texts(replies: Replies, channel: int, acting: int, seats: int):
    """(recipient seat, text) of every part of everything sent (:func:`sent`); its picture
    must be public, a private one must be the recipient's."""
    for seat, message in sent(replies, channel, acting, seats):
        drawn = message.picture
        if drawn is not None:
            private = drawn.kind is PictureKind.LEGIONS
            assert not private or (seat is not None and drawn.viewer == seat)
            assert drawn.viewer in (None, seat), (seat, drawn.viewer)
        for text in parts(message):
            yield seat, text


async def ask(
    service: GameService, channel: int, players: int, watch: Watch, history: bool
) -> list[str]:
    """Each seat and a spectator ask the information commands; the leaks in the answers."""
    lands = sorted({legion.land for legion in watch.state.legions.values()})
    questions = ["legions", "status", "board", "battle", f"land {lands[0]}", f"land {lands[-1]}"]
    questions += ["history 20"] if history else []
    questions += ["choices", "legal", "replay"]
    found = []
    for seat in [*range(players), None]:
        who = caller(channel, SPECTATOR) if seat is None else caller(channel, seat)
        for question in questions:
            replies = await service.submit(Place(channel), who, question)
            if question == "replay":  # nothing of the story before the end
                assert replies.error and replies.ephemeral.picture is None, question
            if replies.error:
                continue
            assert replies.public is None and not replies.private, question
            assert replies.ephemeral is not None
            past = question.startswith("history")
            for text in parts(replies.ephemeral):
                found += watch.check_now(seat, text, history=past)
            found += watch.check_picture(seat, replies.ephemeral.picture)
    return found


async def private_step(service: GameService, channel: int, seat: int, watch: Watch) -> list[str]:
    """The seat to act opens each private step its public board offers, and the steps
    those open in turn (a menu of several picks: with its first options), as clicks
    would; the leaks found in every text, label and command."""
    found: list[str] = []
    todo = [c for c in public_offers(watch.state).commands() if c.startswith("choices ")]
    opened: set[str] = set()
    while todo and len(opened) < MOST_STEPS:
        command = todo.pop(0)
        if command in opened:
            continue
        opened.add(command)
        replies = await service.submit(Place(channel), caller(channel, seat), command)
        assert not replies.error and replies.public is None and not replies.private, command
        assert replies.ephemeral is not None
        for text in parts(replies.ephemeral):
            found += watch.check_now(seat, text)
        found += watch.check_picture(seat, replies.ephemeral.picture)
        offers = replies.ephemeral.offers
        if offers is not None:
            todo += [c for c in offers.choices.commands() if c.startswith("choices ")]
            todo += [
                menu.command_for([o.command for o in menu.options[: menu.least]])
                for menu in offers.menus
                if menu.prefix is not None
            ]
    return found


END_PICTURES = (PictureKind.FINAL, PictureKind.REPLAY)


def ending(replies: Replies, after: GameState) -> None:
    """The end's pictures come with the end and only then: the final card on the channel's
    news of the action that ends the game, no end picture on anything before it (nor ever
    in a private message or an answer to a move)."""
    public = replies.public.picture if replies.public is not None else None
    if after.result is not None:
        assert public is not None and public.kind is PictureKind.FINAL and public.viewer is None
    else:
        assert public is None or public.kind not in END_PICTURES, public.kind
    others = [*replies.private.values(), *([replies.ephemeral] if replies.ephemeral else [])]
    assert all(m.picture is None or m.picture.kind not in END_PICTURES for m in others)


async def check_game(
    service: GameService,
    channel: int,
    players: int,
    agent: int,
    history: bool = False,
    ask_every: int | None = ASK_EVERY,
    options: str = "",
) -> int:
    """Open and play a whole game in ``channel``, checking every part of every message; the
    battles seen. The player to act opens the private step of a decision (``choices``) now
    and then, as a click on an ask button would; every ``ask_every`` actions each seat and a
    spectator ask the information commands."""
    place = Place(channel)
    steps = [(0, f"new players {players}{options}")] + [(s, "join") for s in range(1, players)]
    replies = None
    for seat, text in [*steps, (0, "start")]:
        replies = await service.submit(place, caller(channel, seat), text)
        assert not replies.error, (text, replies.ephemeral)
    game = await service.game_in(channel)
    assert game is not None and game.state is not None
    watch = Watch(players, game.state)
    found = [
        leak
        for seat, text in texts(replies, channel, 0, players)
        for leak in watch.check(seat, text)
    ]
    for _ in range(LIMIT):
        state = watch.state
        seat = to_act(state)
        assert seat is not None
        rng = random.Random(f"{agent}:{game.n}")
        # the choices of the service's own state (equal to ``state``, checked below), which
        # the board on its news has already asked for: remembered, not computed again
        action = pick(legal(game.state, seat), rng, True, showing=SHOWING)
        fighting = state.engagement is not None and state.engagement.battle is not None
        if rng.random() < (ASK_CHOICES_IN_BATTLE if fighting else ASK_CHOICES):
            found += await private_step(service, channel, seat, watch)
        after, events = apply(state, seat, action)
        replies = await service.act(place, caller(channel, seat), action)
        assert not replies.error, (action, replies.ephemeral)
        watch.follow(after, events)
        ending(replies, after)
        for recipient, text in texts(replies, channel, seat, players):
            found += watch.check(recipient, text)
        for recipient, message in sent(replies, channel, seat, players):
            found += watch.check_picture(recipient, message.picture)
        game = await service.game_in(channel)
        if game is not None and ask_every and game.n % ask_every == 0:
            found += await ask(service, channel, players, watch, history)
        if game is None:
            assert after.result is not None
            assert not found, "\n".join(found[:20])
            return watch.battles
        assert game.state == after
    raise AssertionError("the game did not end")


async def test_no_text_shows_anyone_hidden_legion_contents(db_target):
    service = await GameService.open(db_target, seeds=lambda: 9, snapshot_every=25)
    try:
        battles = 0
        for channel, players, agent in GAMES:
            kept = KEEPING if agent % 2 else ""
            battles += await check_game(service, channel, players, agent, options=kept)
    finally:
        await service.close()
    assert battles > 0, "the games should fight battles"


@pytest.mark.parametrize("batch", range(10))
async def test_nothing_sent_in_many_games_shows_hidden_contents(tmp_path, batch):
    """100 games in all (ten batches of 10): two to six players, each its own seed."""
    seeds = itertools.count(1000 * batch)
    database = await Database.open(tmp_path / "games.sqlite3", synchronous="OFF")  # no fsync
    service = GameService(database, seeds=lambda: next(seeds))
    try:
        battles = 0
        for number in range(MANY // 10):
            game = batch * MANY // 10 + number
            kept = KEEPING if game % 4 == 0 else ""
            battles += await check_game(
                service, 100 + number, 2 + game % 5, game, ask_every=None, options=kept
            )
    finally:
        await service.close()
    assert battles > 0


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


def test_a_battle_picture_shows_the_battles_two_legions_and_nothing_else():
    """Read from its layout, a battleland picture draws only the two legions in battle
    (public from its start, RULES §5.7): on the board and waiting by their edges; another
    legion of either player never; before the battle (while negotiating) nothing at all."""
    from dataclasses import replace

    from bot.replies import Picture
    from engine.game.state import Stage
    from tests.bot.leakcheck import picture_lines
    from tests.engine.battle.helpers import battle_game

    state = battle_game(
        "Plains t1 attacker maneuver: Bk01 Lion@C3 Troll@D4 | Rd01 Ogre@off Angel@off",
        others="Rd02@41:Titan,Gargoyle Bk02@100:Titan,Cyclops*2",
    )
    picture = Picture(PictureKind.BATTLELAND, state, land=state.engagement.land)
    lines = picture_lines(picture)
    assert "Bk01: Lion, Troll" in lines
    assert any(line.startswith("Rd01: ") and sorted(line[6:].split(", ")) == ["Angel", "Ogre"]
               for line in lines)  # fmt: skip
    shown = " ".join(lines)
    assert "Rd02" not in shown and "Bk02" not in shown
    assert not {"Cyclops", "Gargoyle", "Titan"} & set(shown.replace(",", " ").split())
    know = Knowledge(2)
    know.engaged = {"Bk01": state.legion("Bk01").owner, "Rd01": state.legion("Rd01").owner}
    know.battle = True
    both = (state, state)
    assert not leaks("\n".join(lines), None, both, (know, know), know)
    know.battle = False  # negotiating: the spectator may not see them, nor the picture draw
    assert leaks("\n".join(lines), None, both, (know, know), know)
    engagement = replace(state.engagement, stage=Stage.NEGOTIATE)
    talking = replace(state, engagement=engagement)
    assert picture_lines(Picture(PictureKind.BATTLELAND, talking, land=engagement.land)) == []


def test_the_checker_flags_a_board_showing_the_teleport_of_a_hidden_lord():
    """A tower teleport drawn for anyone but the mover needs a lord everyone has seen,
    a Titan teleport the Titan (RULES §1.7, §4.4, §4.5)."""
    from collections import Counter

    from tests.bot.leakcheck import picture_leaks
    from tests.engine.game.helpers import pos

    line = "Bk01@100:Angel,Titan Rd01@41:Ogre Rd02@600:Titan | turn=Bk roll=6 scores=Bk:400"
    state = pos(line)
    mine = Picture(PictureKind.MASTERBOARD, state, viewer=0)
    assert not picture_leaks(mine, 0, {})  # his own board
    leaked = picture_leaks(mine, 1, {})
    assert {leak.split()[-1] for leak in leaked} >= {"300", "600"}
    angel = {leak.split()[-1] for leak in picture_leaks(mine, None, {"Bk01": Counter(Angel=1)})}
    assert "600" in angel  # onto an enemy: the Titan's teleport
    assert "300" not in angel  # to an empty tower: any lord's
    assert not picture_leaks(mine, None, {"Bk01": Counter(Titan=1)})
    assert not picture_leaks(Picture(PictureKind.MASTERBOARD, state), None, {})
