"""``titanbot demo``: AI players play a whole game in the terminal, with a progress bar.

The game goes through the game service and a temporary SQLite file like any game: an AI
host opens it (with the time limit option), AI seats fill it, and each AI decision is one
stored command. After ``max_turns`` game turns (every player's turns, as players count
them) the time limit is declared (errata 21.1: every player takes one more turn, then the
highest score wins). The story is then read back from the database and replayed: the
narrated log goes to a text file, and pictures of the key moments (the end of game turn
1, every battle's start, every player's elimination, the final masterboard) to PNG files;
a battle's picture is taken once both armies have entered.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.context import Caller, Place
from bot.handlers.play import board_picture
from bot.narration.narrate import Names, narrate, plural
from bot.pictures import render_with_package
from bot.replies import Picture, PictureKind
from bot.service import GameService
from bot.storage import ActionRow, GameRow, SeatRow
from bot.storage import games as rows
from bot.storage.eventlog import events_from_text
from bot.storage.record import Game, initial_state
from engine.battle.events import ManeuverEnded
from engine.battle.position import Side
from engine.game import actions as a
from engine.game.apply import apply
from engine.game.battle_flow import battle_of
from engine.game.events import Event, GameOver, PlayerEliminated, TurnEnded
from engine.game.game_turns import game_turn
from engine.game.legal import to_act
from engine.game.state import GameState

CHANNEL = 1
MAX_TURNS = 40
"""Game turns before the demo declares the time limit (a 3-player game seldom needs it)."""
LOG_NAME = "log.txt"
HEADING = "— "
"""How the narration begins a turn's or a battle turn's heading."""


class ProgressBar:
    """One line on a terminal stream, redrawn in place (``\\r``): the game turn and whose
    it is, and the actions."""

    def __init__(self, stream: TextIO, turns: int, width: int = 30) -> None:
        self.stream, self.turns, self.width = stream, turns, width
        self.start = self.drawn = time.monotonic()

    def show(self, turn: int, actions: int, done: bool = False, whose: str = "") -> None:
        """Redraw for game turn ``turn`` (``whose``: the player's) after ``actions`` (at
        most ten times a second, and once done)."""
        if not done and time.monotonic() - self.drawn < 0.1:
            return
        self.drawn = time.monotonic()
        filled = self.width if done else min(self.width, self.width * turn // self.turns)
        bar = "#" * filled + "-" * (self.width - filled)
        seconds = time.monotonic() - self.start
        who = f" · {whose[:12]:<12}" if whose else ""
        line = f"\r[{bar}] turn {turn:>3}{who}  {plural(actions, 'action'):>13}  {seconds:5.1f} s"
        self.stream.write(line)
        self.stream.flush()

    def update(self, game: Game) -> None:
        """Redraw for ``game`` (the service calls it after each AI action)."""
        if game.state is not None:
            state = game.state
            self.show(game_turn(state), game.n, whose=state.player(state.active).name)

    def close(self, turn: int, actions: int, whose: str = "") -> None:
        self.show(turn, actions, done=True, whose=whose)
        self.stream.write("\n")
        self.stream.flush()


@dataclass
class Story:
    """A finished game read back from its log: the narrated lines, the key moments."""

    state: GameState
    lines: list[str] = field(default_factory=list)
    moments: list[tuple[str, Picture]] = field(default_factory=list)


@dataclass(frozen=True)
class DemoResult:
    """What the demo produced."""

    state: GameState
    names: tuple[str, ...]
    actions: int
    seconds: float
    time_limit: bool
    log: Path
    pictures: tuple[Path, ...]

    def summary(self, max_turns: int) -> str:
        """The winner, how the game ended and where the files are."""
        result = self.state.result
        assert result is not None
        winners = " and ".join(self.names[s] for s in result.winners)
        label = "Winners" if len(result.winners) > 1 else "Winner"
        lines = [
            f"{label}: {winners} ({result.reason}) in turn {game_turn(self.state)}, after "
            f"{plural(self.actions, 'action')}, in {self.seconds:.1f} s."
        ]
        if self.time_limit:
            lines.append(
                f"The time limit was declared after turn {max_turns} (errata 21.1): every "
                "player took one more turn, then the highest score won."
            )
        drawn = [f"  {p}" for p in self.pictures] or ["  none (no renderer available)"]
        lines += [f"Log: {self.log}", "Pictures:", *drawn]
        return "\n".join(lines)


async def run_demo(
    players: int = 3,
    seed: int = 1,
    out: Path = Path("titan-demo"),
    *,
    max_turns: int = MAX_TURNS,
    progress: TextIO = sys.stderr,
) -> DemoResult:
    """Play the AI game, then write its log and pictures to ``out``."""
    started = time.monotonic()
    bar = ProgressBar(progress, max_turns)
    with tempfile.TemporaryDirectory(prefix="titan-demo-") as folder:
        service = await GameService.open(
            Path(folder) / "demo.sqlite3", seeds=lambda: seed, ai_limit=0, on_ai_action=bar.update
        )
        try:
            game_id = await open_ai_game(service, Place(CHANNEL), players)
            limited = await play_ai_game(service, Place(CHANNEL), max_turns)
            async with service.db.reading() as db:
                row = await rows.game(db, game_id)
                seats = await rows.seats(db, game_id)
                log = await rows.actions(db, game_id)
        finally:
            await service.close()
    assert row is not None
    story = tell(row, seats, log)
    final = story.state
    bar.close(game_turn(final), len(log), whose=final.player(final.active).name)
    log_path, pictures = write(story, out)
    names = tuple(s.name for s in seats)
    seconds = time.monotonic() - started
    return DemoResult(story.state, names, len(log), seconds, limited, log_path, pictures)


async def open_ai_game(service: GameService, place: Place, players: int) -> int:
    """An AI host opens a game with the time limit option, AI seats fill it, and it
    starts; its id."""
    host = Caller(rows.ai_user(1), "Bot 1", organiser=True)
    commands = [f"new players {players} time_limit", *["addai"] * (players - 1), "start"]
    for text in commands:
        replies = await service.submit(place, host, text)
        if replies.error:
            raise RuntimeError(f"the demo's {text!r} was refused: {replies.ephemeral}")
    game = await service.game_in(place.channel)
    assert game is not None
    return game.id


async def play_ai_game(
    service: GameService, place: Place, max_turns: int, latencies: list[float] | None = None
) -> bool:
    """AI actions one command at a time until the game is over (each command's seconds
    appended to ``latencies``); whether the time limit was declared (once game turn
    ``max_turns`` is over)."""
    limited = False
    while (game := await service.game_in(place.channel)) is not None:
        state = game.playing()
        seat = to_act(state)
        assert seat is not None
        if not limited and game_turn(state) > max_turns:
            caller = Caller(game.user_of(seat), game.name_of(seat))
            replies = await service.act(place, caller, a.ExpireTimeLimit())
            if replies.error:
                raise RuntimeError(f"declaring the time limit was refused: {replies.ephemeral}")
            limited = True
        start = time.perf_counter()
        await service.advance(place, limit=1)
        if latencies is not None:
            latencies.append(time.perf_counter() - start)
        after = await service.game_in(place.channel)
        if after is not None and after.n == game.n:
            raise RuntimeError(f"game {game.id} stalled after {plural(game.n, 'action')}")
    return limited


def tell(row: GameRow, seats: Sequence[SeatRow], log: Sequence[ActionRow]) -> Story:
    """Replay the stored game: its narrated log and key moments (public news only)."""
    names = {s.seat: s.name for s in seats}
    state, events = initial_state(row, seats)
    story = Story(state)
    story.lines += [f"TITAN, game #{row.id}: {', '.join(names.values())} (seed {row.seed})."]
    story.lines += _entry(0, "", narrate(events, Names(None, state)))
    for entry in log:
        before = state
        state, _ = apply(state, entry.seat, a.action_from_json(json.loads(entry.action)))
        events = events_from_text(entry.events)
        story.lines += _entry(entry.n, names[entry.seat], narrate(events, Names(before, state)))
        story.moments += moments(before, state, events, names)
    story.state = state
    return story


def _entry(n: int, who: str, said: list[str]) -> list[str]:
    """An action's lines under its number and player; turn headings stand apart."""
    head = f"#{n:<5} {who + ': ' if who else ''}"
    lines: list[str] = []
    first = True
    for line in said:
        if line.startswith(HEADING):
            lines.append(line)
            continue
        lines.append((head if first else " " * len(head)) + line)
        first = False
    return lines


def moments(
    before: GameState, state: GameState, events: Sequence[Event], names: dict[int, str]
) -> list[tuple[str, Picture]]:
    """The pictures an action's events call for: (file name stem, picture); each stem
    begins with the game turn (``turn-11-…``), as players count them."""
    turn = game_turn(before)
    found: list[tuple[str, Picture]] = []
    for event in events:
        if isinstance(event, TurnEnded) and turn == 1 and game_turn(state) != 1:
            found.append(("turn-1-end", Picture(PictureKind.MASTERBOARD, state)))
        elif _armies_entered(before, event):
            picture = board_picture(state, None, events, before)
            if picture.kind is PictureKind.BATTLELAND and picture.land is not None:
                whose = _slug(names[before.active])
                found.append((f"turn-{turn}-{whose}-battle-in-{picture.land}", picture))
        elif isinstance(event, PlayerEliminated):
            who = _slug(names[event.seat])
            found.append((f"turn-{turn}-{who}-out", Picture(PictureKind.MASTERBOARD, state)))
        elif isinstance(event, GameOver):
            found.append(("game-end", Picture(PictureKind.MASTERBOARD, state)))
    return found


def _slug(name: str) -> str:
    """A player's name as part of a file name: ``bot-2``."""
    return re.sub(r"\W+", "-", name).strip("-").lower()


def _armies_entered(before: GameState, event: Event) -> bool:
    """Whether ``event`` ends the attacker's first maneuver: a battle's start, with both
    armies on the battleland (RULES §8.4)."""
    battle = battle_of(before)
    first = battle is not None and battle.turn == 1
    return first and isinstance(event, ManeuverEnded) and event.side is Side.ATTACKER


def write(story: Story, out: Path) -> tuple[Path, tuple[Path, ...]]:
    """Write the log and the pictures (those the renderer can draw) to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    log = out / LOG_NAME
    log.write_text("\n".join(story.lines) + "\n", encoding="utf-8")
    written = []
    for index, (stem, picture) in enumerate(story.moments, 1):
        image = render_with_package(picture)
        if image is not None:
            path = out / f"{index:02d}-{stem}.png"
            path.write_bytes(image)
            written.append(path)
    return log, tuple(written)
