"""``tournament advance NAME``: the next stage, seated from the one before.

For ``heats``: after the last heat, the standings' advancing players (the top
``advance``) meet at one final table when they fit one, else in semi-finals seated like a
heat (:func:`~bot.tournament.seating.seat_heat`), whose winners then meet in the final
(stages numbered as heats after the last: ``heats + 1``, ``heats + 2``…); after the final
its winner is declared and the tournament is over.

For ``bracket`` (2-player single elimination): round 1 is drawn from the entrants ranked
by rating (:func:`~bot.tournament.bracket.draw_bracket`, the top seeds apart; a bye is a
table of one player, over at once); each next round pairs the winners of the one before
once all its matches are over; the last winner wins the tournament. The draw (the seeds
and the drawn order) is kept in the tournament's log. The tables open as a heat's do.
"""

from __future__ import annotations

from bot.competition.codec import result_from_json
from bot.competition.common import named, organiser
from bot.competition.ranking import ranked_entrants, tournament_standings
from bot.competition.settings import BRACKET, TournamentSettings
from bot.context import Context
from bot.replies import Message, Replies
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from bot.syntax import Args
from bot.tournament.bracket import Bracket, draw_bracket
from bot.tournament.errors import TournamentError
from bot.tournament.seating import seat_heat
from engine.dice import Dice
from engine.errors import IllegalAction
from engine.words import plural


async def advance(ctx: Context, args: Args) -> Replies:
    """Seat the tournament's next stage, or declare its winner after the last."""
    organiser(ctx.caller, "advance a tournament")
    name = args.take("the tournament's name")
    args.finish()
    async with ctx.db.transaction() as db:
        found = await named(db, ctx.place.guild, name)
        if found.status == store.SIGNUP:
            raise IllegalAction(f"close sign-up first: `tournament close {found.name}`")
        if found.status == store.OVER:
            raise IllegalAction(f"{found.name} is over")
        tables = await store.tables(db, found.id)
        if any(t.status != store.DONE for t in tables):
            raise IllegalAction("the stage under way is not over yet: see `tournament status`")
        settings = TournamentSettings.from_json(found.settings)
        names = {str(e.user): e.name for e in await store.entrants(db, found.id)}
        try:
            if settings.format == BRACKET:
                text = await _bracket(db, found, tables, names)
            else:
                text = await _final_stage(db, found, settings, tables, names)
        except TournamentError as exc:
            raise IllegalAction(str(exc)) from exc
    return Replies(public=Message(text))


async def _winners(db: Connection, tournament: int, heat: int) -> list[list[str]]:
    """The 1st places of each table of ``heat``, table by table (a bye's player wins)."""
    results = {r.game: r for r in await store.results_of_tournament(db, tournament)}
    found = []
    for table in await store.tables(db, tournament, heat):
        if len(table.players) == 1:
            found.append([str(table.players[0])])
            continue
        stored = results.get(table.game) if table.game is not None else None
        if stored is None:
            raise TournamentError(f"table {table.label} has no result")
        result = result_from_json(stored.result)
        found.append([p.player for p in result.places if p.place == 1])
    return found


async def _final_stage(
    db: Connection,
    tournament: store.TournamentRow,
    settings: TournamentSettings,
    tables: list[store.TableRow],
    names: dict[str, str],
) -> str:
    last = max((t.heat for t in tables), default=0)
    if last < settings.heats:
        raise IllegalAction(
            f"{tournament.name} has played {last} of its {plural(settings.heats, 'heat')}: "
            f"`tournament heat {tournament.name}` seats the next"
        )
    if last == settings.heats:
        standing = await tournament_standings(db, tournament)
        players = [r.player for r in standing.rows if r.advancing]
        stage = "semi-final"
    else:
        won = await _winners(db, tournament.id, last)
        if len(won) == 1:
            return await _declare(db, tournament, won[0], names)
        players = [p for table in won for p in table]
        stage = "semi-final"
    if len(players) < 2:
        advance = "advances" if len(players) == 1 else "advance"
        raise IllegalAction(
            f"{plural(len(players), 'player')} {advance}: there is no final to play"
        )
    heat = last + 1
    if len(players) <= settings.max_players:
        seated = [tuple(int(p) for p in players)]
        stage = "final"
    else:
        history = [tuple(str(u) for u in t.players) for t in tables]
        seating = seat_heat(
            players,
            settings.min_players,
            settings.max_players,
            history,
            seed=tournament.seed + heat,
        )
        seated = [tuple(int(p) for p in table) for table in seating.tables]
    await store.add_tables(db, tournament.id, heat, seated)
    await store.log(db, tournament.id, f"stage {heat} ({stage}) seated: {seated}")
    lines = [f"The {stage} of **{tournament.name}** (heat {heat}): {plural(len(seated), 'table')}."]
    lines += [
        f"Table {i}: " + ", ".join(names.get(str(u), str(u)) for u in table)
        for i, table in enumerate(seated, start=1)
    ]
    return "\n".join(lines)


async def _declare(
    db: Connection,
    tournament: store.TournamentRow,
    winners: list[str],
    names: dict[str, str],
) -> str:
    await store.set_status(db, tournament.id, store.OVER)
    who = " and ".join(f"**{names.get(p, p)}**" for p in winners)
    await store.log(db, tournament.id, f"won by {', '.join(winners)}")
    verb = "wins" if len(winners) == 1 else "share"
    return f"🏆 {who} {verb} **{tournament.name}**! The tournament is over."


def _seeds(entrants: int) -> int:
    """How many top entrants are seeded apart: a quarter of the bracket, at least 2."""
    size = 1 << (entrants - 1).bit_length()
    return min(entrants, max(2, size // 4))


async def _bracket(
    db: Connection,
    tournament: store.TournamentRow,
    tables: list[store.TableRow],
    names: dict[str, str],
) -> str:
    if not tables:
        return await _draw(db, tournament, names)
    last = max(t.heat for t in tables)
    first = [t.players for t in tables if t.heat == 1]
    slots = tuple(str(p) if p is not None else None for pair in first for p in _pair(pair))
    bracket = Bracket((slots,), (), Dice(tournament.seed))
    for heat in range(1, last + 1):
        won = [p for table in await _winners(db, tournament.id, heat) for p in table]
        try:
            bracket = bracket.advance(won)
        except TournamentError as exc:
            raise IllegalAction(
                f"{exc}: settle it with `tournament adjudicate {tournament.name} {heat}.N ruling …`"
            ) from exc
    if bracket.winner is not None:
        return await _declare(db, tournament, [bracket.winner], names)
    heat = last + 1
    matches = bracket.pairings()
    for number, match in enumerate(matches, start=1):
        players = (int(match.first), int(match.second))
        await store.add_table(db, tournament.id, heat, number, players)
    pairs: list[tuple[str, str | None]] = [(m.first, m.second) for m in matches]
    await store.log(db, tournament.id, f"round {heat}: {pairs}")
    return _round_text(tournament, heat, pairs, names)


def _pair(players: tuple[int, ...]) -> tuple[int | None, int | None]:
    return (players[0], players[1]) if len(players) == 2 else (players[0], None)


async def _draw(db: Connection, tournament: store.TournamentRow, names: dict[str, str]) -> str:
    """Round 1: the bracket drawn, its matches stored to open, its byes over at once."""
    ranked = [str(e.user) for e in await ranked_entrants(db, tournament)]
    if len(ranked) < 2:
        raise IllegalAction(f"{tournament.name} needs at least 2 entrants")
    seeds = _seeds(len(ranked))
    bracket = draw_bracket(ranked, seeds, seed=tournament.seed)
    slots = bracket.rounds[0]
    pairs: list[tuple[str, str | None]] = []
    for number, (one, two) in enumerate(zip(slots[::2], slots[1::2], strict=True), start=1):
        players = tuple(int(p) for p in (one, two) if p is not None)
        status = store.OPENING if len(players) == 2 else store.DONE
        await store.add_table(db, tournament.id, 1, number, players, status)
        pairs.append((str(players[0]), str(players[1]) if len(players) == 2 else None))
    await store.log(
        db,
        tournament.id,
        f"bracket drawn: seeds {ranked[:seeds]}, order {list(slots)}, draws {list(bracket.draws)}",
    )
    return _round_text(tournament, 1, pairs, names)


def _round_text(
    tournament: store.TournamentRow,
    heat: int,
    pairs: list[tuple[str, str | None]],
    names: dict[str, str],
) -> str:
    lines = [
        f"Round {heat} of **{tournament.name}**: "
        f"{plural(len(pairs), 'match', 'matches')}, opening now."
    ]
    for number, (one, two) in enumerate(pairs, start=1):
        against = f" v {names.get(two, two)}" if two is not None else " (a bye: through)"
        lines.append(f"Match {number}: {names.get(one, one)}{against}")
    return "\n".join(lines)
