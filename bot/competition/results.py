"""What a finished game leaves: its result (each seat's place, RULES §12.5–12.6), stored
once in the transaction that ends it, and the ratings it moves.

Players are keyed by their user id (as text) in the pure rules of :mod:`bot.tournament`.
A tournament's mutual is settled by a logged roll-off when the tournament asks for one;
outside tournaments the rules' draw stands (a shared 1st).
"""

from __future__ import annotations

import asyncio

from bot.competition.codec import result_to_json
from bot.competition.ranking import MAX_TEXT, standings_text, tournament_standings
from bot.competition.settings import BRACKET, TournamentSettings
from bot.replies import Message, Notice
from bot.storage import Status
from bot.storage import games as rows
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.storage.eventlog import events_from_text
from bot.storage.record import Game, load_game
from bot.tournament.places import GameResult, result_of
from bot.tournament.ratings import Rating, rate
from engine.dice import Dice
from engine.errors import IllegalAction
from engine.words import plural


def rolloff_dice(tournament_seed: int, game: int) -> Dice:
    """The dice of a tournament game's roll-off: the tournament's own, at a place of its
    sequence no other game uses (anyone holding the seed can check the rolls)."""
    return Dice(tournament_seed, rolled=game * 9)


async def record_result(db: Connection, game: Game, finished_at: str) -> GameResult:
    """Store the result of ``game`` (just over) once, and rate it; the result (its
    places are worked out from the game's events in a worker thread)."""
    assert game.state is not None and game.state.result is not None
    table = await store.table_of_game(db, game.id)
    tournament = await store.by_id(db, table[0]) if table is not None else None
    settings = TournamentSettings.from_json(tournament.settings) if tournament else None
    entries = await rows.actions(db, game.id)
    players = [str(game.user_of(s.seat)) for s in game.seats]
    dice = None
    if tournament is not None and settings is not None and settings.rolloff:
        dice = rolloff_dice(tournament.seed, game.id)
    state = game.state

    def places() -> GameResult:
        events = [events_from_text(entry.events) for entry in entries]
        return result_of(state, events, players=players, rolloff=dice)

    # reading back a long game's every event takes a while: off the event loop
    result = await asyncio.to_thread(places)
    rated = game.settings.rated and (settings is None or settings.rated)
    stored = store.ResultRow(
        game.id,
        game.row.guild,
        tournament.id if tournament else None,
        table[1].heat if table else None,
        finished_at,
        rated,
        result_to_json(result),
    )
    if not await store.add_result(db, stored):
        return result  # told already
    if table is not None and tournament is not None:
        await store.table_over(db, game.id)
        if result.rolloff is not None:
            rolled = result.rolloff
            await store.log(
                db,
                tournament.id,
                f"game #{game.id}: mutual rolled off by <@{rolled.attacker}> against "
                f"<@{rolled.defender}>: {list(rolled.rolls)}, {plural(rolled.hits, 'hit')}, "
                f"<@{rolled.winner}> wins",
            )
    if rated:
        await apply_rating(db, game.row.guild, result)
    return result


async def apply_rating(db: Connection, guild: int | None, result: GameResult) -> None:
    users = [int(p) for p in result.players]
    known = await store.ratings(db, guild, users)
    before = {str(u): Rating(*known[u]) for u in known}
    after = rate(before, result)
    moved = {int(p): (r.mu, r.sigma, r.games) for p, r in after.items() if p in result.players}
    await store.set_ratings(db, guild, moved)


async def game_ended(db: Connection, game_id: int) -> tuple[Notice, ...]:
    """After the change that closed game ``game_id``: when it ended by the rules, its
    result stored and rated, and what its tournament's channel is told (the table's
    places; the heat's standings once its last table is over)."""
    row = await rows.game(db, game_id)
    if row is None or row.status is not Status.OVER:
        return ()
    game = await load_game(db, row)
    if game.state is None or game.state.result is None:
        return ()
    result = await record_result(db, game, rows.now())
    return await tournament_told(db, game_id, result)


async def record_ruling(
    db: Connection, game: Game, result: GameResult, reason: str, by: str
) -> tuple[Notice, ...]:
    """Store ``result``, the organiser's adjudication of ``game`` (a tournament's table,
    ending now: its status over, the table over), rate it, log ``reason``; what the
    tournament's channel is told. Raises :class:`IllegalAction` when the game has a
    result already or is no tournament's."""
    table = await store.table_of_game(db, game.id)
    tournament = await store.by_id(db, table[0]) if table is not None else None
    if table is None or tournament is None:
        raise IllegalAction(f"game #{game.id} is no tournament's table")
    settings = TournamentSettings.from_json(tournament.settings)
    rated = game.settings.rated and settings.rated
    stored = store.ResultRow(
        game.id,
        game.row.guild,
        tournament.id,
        table[1].heat,
        rows.now(),
        rated,
        result_to_json(result),
    )
    if not await store.add_result(db, stored):
        raise IllegalAction(f"game #{game.id} has a result already")
    await rows.update_game(db, game.id, Status.OVER)
    await store.table_over(db, game.id)
    places = ", ".join(f"<@{p.player}> {p.place}" for p in result.places)
    await store.log(
        db,
        tournament.id,
        f"table {table[1].label} (game #{game.id}) adjudicated by {by} "
        f"({result.ending.value}): {places}; reason: {reason}",
    )
    if rated:
        await apply_rating(db, game.row.guild, result)
    return await tournament_told(db, game.id, result, f"Adjudicated: {reason}")


async def tournament_told(
    db: Connection, game_id: int, result: GameResult, note: str | None = None
) -> tuple[Notice, ...]:
    """What the tournament's channel is told of its table's game ``game_id``, just over
    with ``result``: its places (and ``note``); once the heat is over, the standings."""
    table = await store.table_of_game(db, game_id)
    if table is None:
        return ()
    tournament = await store.by_id(db, table[0])
    if tournament is None:
        return ()
    names = {str(e.user): e.name for e in await store.entrants(db, tournament.id)}
    places = ", ".join(
        f"{ordinal(p.place)} {names.get(p.player, p.player)}"
        for p in sorted(result.places, key=lambda p: p.place)
    )
    bracket = TournamentSettings.from_json(tournament.settings).format == BRACKET
    stage, what = ("Round", "match") if bracket else ("Heat", "table")
    lines = [f"{stage} {table[1].heat}, {what} {table[1].number} is over: {places}."]
    if note is not None:
        lines.append(note)
    if result.rolloff is not None:
        rolled = result.rolloff
        lines.append(
            f"The mutual was rolled off: {names.get(rolled.attacker, rolled.attacker)} "
            f"rolled {' '.join(map(str, rolled.rolls))} ({plural(rolled.hits, 'hit')}; 5 win)."
        )
    heat = await store.tables(db, tournament.id, table[1].heat)
    if bracket and all(t.status == store.DONE for t in heat):
        lines.append(
            f"Round {table[1].heat} is over: `tournament advance {tournament.name}` goes on."
        )
    elif all(t.status == store.DONE for t in heat):
        standing = await tournament_standings(db, tournament)
        heats = TournamentSettings.from_json(tournament.settings).heats
        lines.append(f"Heat {table[1].heat} of {heats} is over. Standings:")
        told = len("\n".join(lines)) + 1
        lines.append(standings_text(standing, names, budget=MAX_TEXT - told))
    return (Notice(tournament.channel, game_id, Message("\n".join(lines))),)


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
