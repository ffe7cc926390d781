"""``replay [GAME]``: a finished game's replay, an animation of the public masterboard.

One frame per player turn (a long game is sampled, never refused: :mod:`render.replay`),
legions as markers only, the battles of each turn marked. Only for a game that is over
(RULES §12.5): before its end nothing of it is shown this way, so a game being formed or
played is refused, and so is a cancelled one (it has no end to show). The course is read
from the game's log (:mod:`bot.records.course`) and the animation drawn off the event loop
by the service's own painter for replays.
"""

from __future__ import annotations

from bot.context import Context
from bot.records.course import game_course
from bot.replies import Picture, PictureKind, Replies
from bot.storage import GameRow, Status
from bot.storage import games as rows
from bot.storage.record import DamagedLog, Game, load_game
from bot.syntax import Args
from bot.syntax.words import number
from engine.errors import IllegalAction
from engine.words import plural
from render.replay import MOST_FRAMES


def _wanted(args: Args) -> int | None:
    """``[GAME]``: a game number (``12`` or ``#12``), or None for the channel's latest."""
    word = args.peek()
    wanted = number(args.take("game").lstrip("#"), "game number") if word is not None else None
    args.finish()
    return wanted


async def _over_game(ctx: Context, wanted: int | None) -> Game:
    """The channel's latest game (or its game ``wanted``), once over and readable."""
    channel = ctx.place.channel
    async with ctx.db.reading() as db:
        row: GameRow | None = (
            await rows.latest_game(db, channel) if wanted is None else await rows.game(db, wanted)
        )
        if row is None or row.channel != channel:
            which = f"game #{wanted}" if wanted is not None else "game"
            raise IllegalAction(f"this channel has no {which} to replay")
        if row.status.is_open:
            raise IllegalAction(
                f"game #{row.id} is not over: its replay is shown once it has ended "
                "(`board` shows the game now; `replay NUMBER` replays an earlier game)"
            )
        if row.status is not Status.OVER or row.seed is None:
            raise IllegalAction(f"game #{row.id} was cancelled: it has no end to replay")
        if row.damaged is not None:
            raise IllegalAction(f"game #{row.id} is damaged ({row.damaged}): it cannot be replayed")
        try:
            return await load_game(db, row)
        except DamagedLog as exc:
            raise IllegalAction(f"game #{row.id} cannot be read back ({exc}): no replay") from exc


async def replay(ctx: Context, game: Game | None, args: Args) -> Replies:
    """The replay of the channel's latest game (or of its game ``GAME``), once over."""
    found = await _over_game(ctx, _wanted(args))
    assert found.state is not None  # an over game has started
    try:
        course = await game_course(ctx.db, found.row)
    except DamagedLog as exc:
        raise IllegalAction(f"game #{found.id} cannot be read back ({exc}): no replay") from exc
    frames = len(course.frames)
    sample = f"; one frame in every {-(-frames // MOST_FRAMES)}" if frames > MOST_FRAMES else ""
    battles = f"; the {plural(course.battles, 'battle')} ringed in red" if course.battles else ""
    text = (
        f"The replay of game #{found.id}: {course.result}. "
        f"{plural(course.turns, 'game turn')}, one frame per player turn{sample}{battles}."
    )
    return Replies.answer(text, Picture(PictureKind.REPLAY, found.state, course=course))
