"""Information commands: help, legions, board, battle, status, mygames, history, legal,
creature, land.

They change nothing and answer the caller alone (ephemeral). Anyone may ask, seated or
not; hidden legion contents are shown only to their owner. Without an open game,
``status``, ``board``, ``legions``, ``battle`` and ``history`` answer for the channel's
finished game, as everyone sees it (:mod:`bot.handlers.finished`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from bot.competition.verbs import rating, ratings
from bot.context import Context
from bot.handlers.choosing import choices
from bot.handlers.finished import finished_game, is_over, over_text, viewer
from bot.handlers.mine import mygames
from bot.handlers.overview import games
from bot.handlers.preferences import autostrike, dms, fighton, quiet, reminders
from bot.handlers.replay import replay
from bot.narration.battle_text import battle_picture, battle_text
from bot.narration.describe import lands_text, legions_text, status_text
from bot.narration.narrate import Names, narrate
from bot.records.damage import damage_notice
from bot.replies import Picture, PictureKind, Replies
from bot.schedule.options import after_deadline
from bot.storage import ActionRow, Status, due
from bot.storage import games as rows
from bot.storage.due import Clock
from bot.storage.eventlog import events_from_text
from bot.storage.record import Game
from bot.syntax import Args, format_action, help_overview, help_topic
from bot.syntax import words as w
from engine.characters import CHARACTERS
from engine.errors import IllegalAction
from engine.events import Event
from engine.game.events import BattleBegun, EngagementBegun, MarkersInherited, PlayerEliminated
from engine.game.legal import legal_actions
from engine.game.state import GameState
from engine.masterboard import TERRAINS
from engine.masterboard import land as land_of
from engine.muster import recruits_in
from engine.words import plural

InfoHandler = Callable[[Context, Game | None, Args], Awaitable[Replies]]
MAX_TEXT = 1900
"""Keep answers inside one Discord message (2,000 characters)."""
ENGAGING_EVENTS = (EngagementBegun, BattleBegun)
"""The events that name the legions of an engagement (history's narration needs them)."""
ENGAGING = tuple(e.__name__ for e in ENGAGING_EVENTS)
"""Their names, which the log's text of the actions holding them contains."""


def clip(lines: list[str], limit: int = MAX_TEXT, *, latest: bool = False, rest: str = "") -> str:
    """Join ``lines`` within ``limit`` characters, dropping the tail (or with ``latest``,
    the head) and saying how many lines were left out (and ``rest``: where to find them)."""
    ordered = lines[::-1] if latest else lines
    kept: list[str] = []
    size = 0
    for index, line in enumerate(ordered):
        if size + len(line) + 1 > limit - 30 - len(rest):
            kept.append(f"… and {len(ordered) - index} more{rest}")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept[::-1] if latest else kept)


def _started(game: Game | None) -> tuple[Game, GameState]:
    if game is None:
        raise IllegalAction("there is no game in this channel: open one with `new`")
    return game, game.playing()


async def _shown(ctx: Context, game: Game | None) -> tuple[Game, GameState]:
    """The channel's open game, else its finished one, and its state; refused when there
    is neither, or while the game is in the lobby."""
    return _started(game if game is not None else await finished_game(ctx))


async def help_(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Every command by name and topic; ``help TOPIC`` a topic's, ``help COMMAND`` one
    command's use."""
    word = args.peek()
    if word is None:
        return Replies.answer(help_overview())
    args.take("topic")
    args.finish()
    return Replies.answer(help_topic(word))


async def legions(ctx: Context, game: Game | None, args: Args) -> Replies:
    args.finish()
    game, state = await _shown(ctx, game)
    seat = viewer(ctx, game)
    picture = Picture(PictureKind.LEGIONS, state, viewer=seat)
    return Replies.answer(clip(legions_text(state, seat).splitlines()), picture)


async def board(ctx: Context, game: Game | None, args: Args) -> Replies:
    args.finish()
    game, state = await _shown(ctx, game)
    occupied = sorted({leg.land for leg in state.legions.values()})
    seat = viewer(ctx, game)
    told = await over_text(ctx, game) if is_over(game) else status_text(state, seat)
    text = told + "\n" + lands_text(state, occupied, seat)
    return Replies.answer(clip(text.splitlines()), Picture(PictureKind.MASTERBOARD, state))


async def battle(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The battle being fought: every character in words, the battleland in a picture."""
    args.finish()
    game, state = await _shown(ctx, game)
    picture = battle_picture(state)
    if picture is None:
        raise IllegalAction("no battle is being fought now (`status` shows the game)")
    return Replies.answer(clip(battle_text(state).splitlines()), picture)


async def status(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Where the channel's game stands: its lobby's seats, or the turn, the scores and who
    is on the clock; without an open game the damaged game's notice, else the finished
    game's result and final scores (:mod:`bot.handlers.finished`), else that there is none."""
    args.finish()
    if game is None:
        async with ctx.db.reading() as db:
            damaged = await rows.damaged_game(db, ctx.place.channel)
        if damaged is not None and damaged.damaged is not None:
            return Replies.answer(damage_notice(damaged.id, damaged.damaged))
        game = await finished_game(ctx)
        if game is None:
            return Replies.answer("There is no game in this channel: open one with `new`.")
        return Replies.answer(await over_text(ctx, game))
    if game.row.status is Status.LOBBY:
        settings = game.settings
        seats = "\n".join(
            f"  {s.seat + 1}. {s.name}{f' (AI, {s.ai_level})' if s.is_ai else ''}"
            for s in game.seats
        )
        text = (
            f"Game #{game.id} is forming ({len(game.seats)} of {settings.players} seats; "
            f"record keeping {'on' if settings.record_keeping else 'off'}, "
            f"{'with' if settings.time_limit else 'no'} time limit):\n{seats}"
        )
        return Replies.answer(text)
    seat = ctx.caller.seat_in(game)
    async with ctx.db.reading() as db:
        found = await due.clock(db, game.id)
        gone = await due.absences(db, game.id)
    text = f"Game #{game.id}\n{status_text(game.playing(), seat)}"
    lines = [text, *computer_lines(game), *absent_lines(game, gone), *assist_lines(game)]
    clock = clock_line(game, found)
    return Replies.answer("\n".join([*lines, *([clock] if clock else [])]))


def assist_lines(game: Game) -> list[str]:
    """What the game lets a player's ``autostrike`` make, when not everything."""
    most = game.settings.autostrike
    if most == "all":
        return []
    made = "only the strikes that leave no choice" if most == "forced" else "nothing"
    return [f"At this table a player's autostrike makes {made} (the organiser's choice)."]


def computer_lines(game: Game) -> list[str]:
    """The seats the computer plays, each with its level (:mod:`engine.ai.levels`), while
    they are in the game."""
    state = game.playing()
    seats = [
        f"**{s.name}** ({s.ai_level})"
        for s in game.seats
        if s.is_ai and not state.player(s.seat).eliminated
    ]
    return [f"🤖 Played by the computer: {', '.join(seats)}."] if seats else []


def absent_lines(game: Game, gone: dict[int, due.Absence]) -> list[str]:
    """The seats that missed their last deadlines: how many in a row, since when."""
    lines = []
    for seat, absence in gone.items():
        since = f", since <t:{int(absence.since)}:R>" if absence.since is not None else ""
        missed = plural(absence.count, "deadline")
        lines.append(f"💤 **{game.name_of(seat)}** is absent: {missed} missed in a row{since}.")
    return lines


def clock_line(game: Game, found: Clock | None) -> str | None:
    """Who the game waits for, since when, and until when (as Discord timestamps, which
    each reader sees in their own time zone; the terminal shows UTC)."""
    if found is None or game.state is None or game.state.result is not None:
        return None
    name = game.name_of(found.seat)
    line = f"⏱ On the clock: **{name}**, since <t:{int(found.since)}:R>"
    timing = game.settings.timing
    if found.deadline is not None:
        line += (
            f"; deadline <t:{int(found.deadline)}:R> (then {after_deadline(timing, level=True)})"
        )
    if timing.expires_at is not None:
        line += f"; the time limit ends <t:{int(timing.expires_at)}:f>"
    return line + "."


async def history(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The last actions in words (``history [COUNT]``; the operator sets the default and
    the most), each told with the legions of the engagement under way when it happened.

    Only the window is read, and of the earlier actions of its first action's player turn,
    those that begin an engagement. Battle events name their sides after the engagement
    under way, and the only one the window does not begin itself is the one under way at
    its start, which began in the same player turn: only a turn's engagement phase holds
    engagements (RULES §4.1, §5.1) and every turn starts with none under way
    (``begin_turn`` in :mod:`engine.game.turns` clears it), so no engagement outlives its
    turn. The events are decoded and told in a worker thread, off the event loop.
    """
    limits = ctx.limits
    word = args.peek()
    count = w.number(args.take("count"), "count") if word is not None else limits.history_default
    args.finish()
    game, state = await _shown(ctx, game)
    window = min(max(count, 1), limits.history_max)
    async with ctx.db.reading() as db:
        earlier, shown = await rows.window_and_turn_start(db, game.id, window, mentioning=ENGAGING)
    lines = await asyncio.to_thread(history_lines, game, state, earlier, shown)
    return Replies.answer(clip(lines, latest=True) or "Nothing has happened yet.")


def history_lines(
    game: Game, state: GameState, earlier: Sequence[ActionRow], shown: Sequence[ActionRow]
) -> list[str]:
    """One line per action of ``shown``, told with the engagement of its time (the last one
    ``earlier`` begins, until the window begins another) and the markers' owners of its
    time: ``state`` follows the window, so the markers handed on in it (an eliminated
    player's, RULES §12.2) are named after their owner before, until handed on."""
    told = [events_from_text(entry.events) for entry in shown]
    names = Names(state)
    names.forget_engagement()
    for markers, seat in reversed(handed_on(told)):
        names.owned(markers, seat)
    for entry in earlier:
        for event in events_from_text(entry.events):
            if isinstance(event, ENGAGING_EVENTS):
                names.engaged(event.attacker, event.defender)
    lines = []
    for entry, events in zip(shown, told, strict=True):
        said = narrate(events, names)
        lines.append(f"#{entry.n} {game.name_of(entry.seat)}: " + " ".join(said))
    return lines


def handed_on(told: Sequence[Sequence[Event]]) -> list[tuple[tuple[str, ...], int]]:
    """The markers handed on in the actions ``told`` (their events, in order), each with
    the seat that held them until then: an eliminated player's markers go to his
    eliminator (``PlayerEliminated`` then ``MarkersInherited``, RULES §12.2)."""
    handed = []
    for events in told:
        out: dict[int, int] = {}  # eliminator → the player he last eliminated
        for event in events:
            if isinstance(event, PlayerEliminated) and event.by is not None:
                out[event.by] = event.seat
            elif isinstance(event, MarkersInherited) and event.seat in out:
                handed.append((event.markers, out[event.seat]))
    return handed


async def legal(ctx: Context, game: Game | None, args: Args) -> Replies:
    args.finish()
    game, state = await _shown(ctx, game)
    if is_over(game):
        raise IllegalAction(f"game #{game.id} is over: `new` opens the next game")
    seat = ctx.caller.seat_in(game)
    if seat is None:
        raise IllegalAction("you are not playing in this game (you may watch: `status`)")
    commands = [f"`{format_action(action)}`" for action in legal_actions(state, seat)]
    steps = ": `choices` goes through them a step at a time"
    return Replies.answer(clip(["You may:", *commands], rest=steps))


async def creature(ctx: Context, game: Game | None, args: Args) -> Replies:
    """A character's factors, abilities and the terrains that muster it."""
    name = w.character(args.take("a character name"))
    args.finish()
    c = CHARACTERS[name]
    traits = [t for t, on in (("flies", c.flies), ("rangestrikes", c.rangestrikes)) if on]
    if c.magic_missile:
        traits.append("magic missile")
    if c.native:
        traits.append("native to " + ", ".join(sorted(c.native)))
    where = [t for t in TERRAINS if name in recruits_in(t)]
    lines = [
        f"**{c.name}** ({c.kind.value}): power {c.power}, skill {c.skill}, "
        f"value {c.value_at()}" + (f"; {', '.join(traits)}" if traits else ""),
        f"{c.count} counters; mustered in {', '.join(where) or 'no terrain'}",
    ]
    if game is not None and game.state is not None:
        state = game.state
        lines.append(
            f"In this game: {state.caretaker.get(name, 0)} left, {state.dead.get(name, 0)} dead"
        )
    return Replies.answer("\n".join(lines))


async def land(ctx: Context, game: Game | None, args: Args) -> Replies:
    """A land: terrain, exits with their signs, recruits, and the legions in it."""
    number = w.land(args.take("a land number"))
    args.finish()
    place = land_of(number)
    exits = ", ".join(f"{e.to} ({e.sign.value})" for e in place.exits)
    lines = [
        f"**Land {number}**: {place.terrain}",
        f"Exits: {exits}",
        f"Musters: {', '.join(recruits_in(place.terrain))}",
    ]
    if game is not None and game.state is not None:
        viewer = ctx.caller.seat_in(game)
        lines.append(lands_text(game.state, [number], viewer) or "No legion here.")
    return Replies.answer("\n".join(lines))


INFO: dict[str, InfoHandler] = {
    "help": help_,
    "legions": legions,
    "board": board,
    "battle": battle,
    "status": status,
    "mygames": mygames,
    "games": games,
    "history": history,
    "replay": replay,
    "legal": legal,
    "creature": creature,
    "land": land,
    "choices": choices,
    "dms": dms,
    "reminders": reminders,
    "autostrike": autostrike,
    "fighton": fighton,
    "quiet": quiet,
    "ratings": ratings,
    "rating": rating,
}
