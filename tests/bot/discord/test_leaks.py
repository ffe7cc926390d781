"""Nothing the bot sends on Discord — any part of any message, to the channel, by DM, in an
ephemeral answer or as autocomplete choices — shows anyone what the rules hide from them.

A whole game is played on the fake Discord as people would (buttons, private steps, slash
commands; :mod:`tests.bot.discord.driver`). Every request the bot makes is read as its
reader reads it: a channel message by a spectator, an ephemeral answer or a DM by that
user; every string in it (content, labels, custom ids, menu values, file names) is checked
by the same knowledge model as the service's leak test. Autocomplete is asked along the
way, by the player to act and by another: the choices are the caller's own legal values.
"""

from __future__ import annotations

import pytest

from bot.discord import specs as s
from bot.offers import NOT_OFFERED, Choices, offer
from bot.offers.model import laid_out
from bot.storage import games as rows
from bot.storage.record import load_game
from bot.syntax import FORMATTERS
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.discord import payloads as p
from tests.bot.discord.driver import Driver, audience, sent_strings
from tests.bot.discord.helpers import ANN, BOB, handled, open_game
from tests.bot.leakcheck import Watch

SEATS = 2
COMPLETE_EVERY = 25
#: Options asked for autocomplete: (command path, spec, option).
COMPLETED = (
    (("turn", "move"), s.MOVE, "legion"),
    (("turn", "muster"), s.MUSTER, "recruit"),
    (("turn", "split"), s.SPLIT, "characters"),
    (("battle", "strike"), s.STRIKE, "target"),
    (("battle", "summon"), s.SUMMON, "donor"),
)


async def final_state(driver: Driver, game_id: int) -> GameState:
    async with driver.service.db.reading() as db:
        row = await rows.game(db, game_id)
        assert row is not None
        game = await load_game(db, row)
    assert game.state is not None
    return game.state


async def complete(fake, driver: Driver, state: GameState, seats: dict[int, int]) -> None:
    """Autocomplete by each seated user: every choice is a legal value of the caller's own."""
    for path, spec, option in COMPLETED:
        for user, seat in seats.items():
            typing = {option: ""}
            pushed = await handled(
                fake, await fake.autocomplete(user, *path, focus=option, **typing)
            )
            assert pushed.choices is not None, (path, option)
            legal = legal_actions(state, seat)
            values = set(s.suggestions(spec, option, legal, {}, ""))
            assert {c["value"] for c in pushed.choices} == values, (path, option, seat)


async def play_and_check(
    fake, titan, seed: int, limit: int | None = None
) -> tuple[Watch, list[str], Driver]:
    """Play the channel's game (to its end, or ``limit`` actions), checking every request."""
    driver = Driver(fake, titan, seed=seed)
    found = await driver.state()
    assert found is not None
    game_id, _, state = found
    game = await driver.service.game_in(p.CHANNEL_ID)
    seats = {game.user_of(seat): seat for seat in range(SEATS)}
    assert set(seats) == {ANN, BOB}
    watch = Watch(SEATS, state)
    leaks: list[str] = []
    steps = 0
    while (limit is None or steps < limit) and (step := await driver.step()) is not None:
        steps += 1
        now = await driver.state()
        after = now[2] if now is not None else await final_state(driver, game_id)
        watch.follow(after, step.events)
        for request in step.requests:
            reader = audience(fake, request)
            if reader is None:
                continue
            kind, user = reader
            seat = seats.get(user) if kind == "user" and user is not None else None
            for text in sent_strings(request):
                leaks += watch.check(seat, text)
        if now is not None and steps % COMPLETE_EVERY == 0 and to_act(after) is not None:
            first = len(fake.requests)
            await complete(fake, driver, after, seats)
            for request in fake.requests[first:]:
                reader = audience(fake, request)
                if reader is not None and reader[1] in seats:
                    for text in sent_strings(request):
                        leaks += watch.check_now(seats[reader[1]], text)
        if leaks:
            break
    return watch, leaks, driver


@pytest.mark.parametrize("seed", [11, 12])
async def test_a_whole_game_on_discord_shows_nobody_what_they_may_not_see(fake, titan, seed):
    await open_game(fake)
    watch, leaks, driver = await play_and_check(fake, titan, seed)
    assert not leaks, "\n".join(leaks[:20])
    assert watch.state.result is not None
    assert watch.battles > 0
    assert {"button", "private step", "command"} <= set(driver.ways), driver.ways


async def test_the_check_catches_a_board_that_offers_private_choices(fake, titan, monkeypatch):
    """A board built from the acting player's legal actions (as it once was) is caught."""

    def everything(state: GameState) -> Choices:
        seat = to_act(state)
        legal = legal_actions(state, seat) if seat is not None else []
        shown = [x for x in legal if type(x) in FORMATTERS and not isinstance(x, NOT_OFFERED)]
        return laid_out([offer(x) for x in shown], "Everything…")

    monkeypatch.setattr("bot.telling.public_offers", everything)
    await open_game(fake)
    _, leaks, _ = await play_and_check(fake, titan, 11, limit=400)
    # The first split's characters, the words of the option and the command it carries.
    assert any("'Split " in leak for leak in leaks), leaks[:3]
    assert any(":split " in leak or "'split " in leak for leak in leaks), leaks[:3]
