"""``force`` (``/titan-admin force``): an organiser ends the wait for the decision a game
waits for, as its deadline would; nobody else may, and a game without a deadline has none
to end."""

from __future__ import annotations

from bot.context import Caller, Place
from bot.schedule.scheduler import Scheduler
from bot.storage import due
from tests.bot.test_away import FIRST, ME, SECOND, clock, open_game, player, service

__all__ = ["clock", "service"]

ORGANISER = Caller(300_000_000_000_000_500, "Org", organiser=True)


async def test_an_organiser_ends_the_wait_and_the_computer_plays_as_at_the_deadline(service):
    await open_game(service, FIRST, "deadline 24h")
    game = await service.game_in(FIRST)
    assert game is not None and game.state is not None
    forced = await service.submit(Place(FIRST), ORGANISER, "force")
    assert not forced.error and forced.public is not None
    assert "⏩ Organiser **Org** ended the wait for **" in forced.public.text
    assert forced.public.text.endswith("their deadline passes now (the computer plays).")
    await Scheduler(service).run_due()  # no time has passed: the deadline is due now
    after = await service.game_in(FIRST)
    assert after is not None and after.n > game.n
    async with service.db.reading() as db:
        outcomes = [o for o in await due.outcomes(db, game.id) if o[0] == "deadline"]
        missed = await due.absences(db, game.id)
    assert len(outcomes) == 1 and sum(a.count for a in missed.values()) == 1


async def test_a_player_may_not_and_a_game_without_a_deadline_has_none_to_end(service):
    await open_game(service, FIRST, "deadline 24h")
    await open_game(service, SECOND)
    for who in (ME, player(FIRST)):
        refused = await service.submit(Place(FIRST), who, "force")
        assert refused.error and "only an organiser" in refused.ephemeral.text  # type: ignore[union-attr]
    none = await service.submit(Place(SECOND), ORGANISER, "force")
    assert none.error and "waits for no deadline" in none.ephemeral.text  # type: ignore[union-attr]
    empty = await service.submit(Place(99), ORGANISER, "force")
    assert empty.error
