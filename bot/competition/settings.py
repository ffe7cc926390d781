"""A tournament's settings, chosen at ``tournament create`` and stored as JSON."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.schedule import options as clock
from bot.storage.autostrike import MODES, Mode
from bot.storage.record import MAX_PLAYERS, MIN_PLAYERS, NO_CLOCK, Timing
from bot.syntax import Args
from bot.syntax.words import number
from bot.tournament.scoring import Scheme
from engine.codec import decode, encode
from engine.errors import InvalidNotation
from engine.words import plural

HEATS, BRACKET = "heats", "bracket"


@dataclass(frozen=True)
class TournamentSettings:
    """How a tournament runs.

    ``format``: ``heats`` (tables of ``min_players``–``max_players``, ``heats`` rounds,
    ranked by ``scheme``) or ``bracket`` (2-player single elimination). ``advance``: how
    many top players the standings mark as advancing; ``max_games``: only a player's first
    games count. ``rolloff``: a mutual (the last two Titans fall together) is settled by
    a logged roll-off instead of a shared 1st. Every table's game gets ``timing``, the
    time limit, record keeping and the most ``autostrike`` may make; ``threads`` opens
    tables as private threads of the tournament's channel instead of channels under a
    category.
    """

    format: str = HEATS
    min_players: int = 3
    max_players: int = 4
    heats: int = 3
    scheme: Scheme = Scheme.WBC_POINTS
    advance: int = 4
    max_games: int | None = None
    rolloff: bool = True
    timing: Timing = NO_CLOCK
    time_limit: bool = False
    record_keeping: bool = False
    threads: bool = False
    rated: bool = True
    two_player_rules: bool = False
    """The 2-player event's start rules at every table (a bracket's default)."""
    autostrike: Mode = "all"
    """The most a player's ``autostrike`` makes at its tables (``off``: every strike is
    the player's own click)."""

    def to_json(self) -> dict[str, Any]:
        return dict(encode(self))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentSettings:
        settings: TournamentSettings = decode(cls, data)
        return settings

    def describe(self) -> str:
        if self.format == BRACKET:
            shape = "2-player single elimination"
        else:
            sizes = f"{self.min_players}–{self.max_players}"
            if self.min_players == self.max_players:
                sizes = str(self.min_players)
            shape = (
                f"{plural(self.heats, 'heat')} of {sizes}-player games, "
                f"ranked by {self.scheme.value}, top {self.advance} advance"
            )
        counted = "counts" if self.max_games == 1 else "count"
        first = "game" if self.max_games == 1 else f"{self.max_games} games"
        cap = f", a player's first {first} {counted}" if self.max_games else ""
        assist = "" if self.autostrike == "all" else f"; autostrike at most {self.autostrike}"
        return f"{shape}{cap}; {clock.describe(self.timing)}{assist}"


KEYWORDS = (
    "format",
    "players",
    "heats",
    "scheme",
    "advance",
    "count",
    "mutual",
    "deadline",
    "timeout",
    "standin",
    "time_limit",
    "record_keeping",
    "threads",
    "unrated",
    "autostrike",
    "away",
)


def read_settings(args: Args, default_timing: Timing, now: float) -> TournamentSettings:
    """The options of ``tournament create NAME …`` (see :data:`KEYWORDS`)."""
    settings = TournamentSettings(timing=default_timing)
    while (word := args.keyword(*KEYWORDS)) is not None:
        settings = _option(settings, word, args, now)
    if settings.format == BRACKET:
        settings = replace(settings, min_players=2, max_players=2, two_player_rules=True)
    low, high = settings.min_players, settings.max_players
    if not MIN_PLAYERS <= low <= high <= MAX_PLAYERS:
        raise InvalidNotation(f"players: a range within 2-6, like 3-4; not {low}-{high}")
    return settings


def _option(settings: TournamentSettings, word: str, args: Args, now: float) -> TournamentSettings:
    if word == "format":
        shape = args.take("heats or bracket").lower()
        if shape not in (HEATS, BRACKET):
            raise InvalidNotation(f"format: heats or bracket, not {shape!r}")
        return replace(settings, format=shape)
    if word == "players":
        low, _, high = args.take("the players per game, like 3-4").partition("-")
        least = number(low, "number of players")
        return replace(settings, min_players=least, max_players=number(high or low, "players"))
    if word in ("heats", "advance", "count"):
        value = number(args.take(f"the number of {word}"), word, least=1, most=99)
        if word == "heats":
            return replace(settings, heats=value)
        if word == "advance":
            return replace(settings, advance=value)
        return replace(settings, max_games=value)
    if word == "scheme":
        chosen = args.take("wbc_points, wbc_classic, wins or average_place").lower()
        try:
            return replace(settings, scheme=Scheme(chosen))
        except ValueError:
            names = ", ".join(s.value for s in Scheme)
            raise InvalidNotation(f"scheme: one of {names}; not {chosen!r}") from None
    if word == "mutual":
        chosen = args.take("rolloff or draw").lower()
        if chosen not in ("rolloff", "draw"):
            raise InvalidNotation(f"mutual: rolloff or draw, not {chosen!r}")
        return replace(settings, rolloff=chosen == "rolloff")
    if word == "deadline":
        return replace(settings, timing=clock.with_deadline(settings.timing, args.take("24h")))
    if word == "timeout":
        return replace(settings, timing=clock.with_policy(settings.timing, args.take("ai")))
    if word == "standin":
        level = args.take("easy, normal or hard")
        return replace(settings, timing=clock.with_stand_in(settings.timing, level))
    if word == "away":
        days = args.take("the most days away, like 7, or 0")
        return replace(settings, timing=clock.with_away_days(settings.timing, days))
    if word == "time_limit" and clock.looks_like_date(args.peek()):
        ends = clock.parse_moment(args.take("the date"), now)
        return replace(settings, time_limit=True, timing=replace(settings.timing, expires_at=ends))
    if word == "time_limit":
        return replace(settings, time_limit=True)
    if word == "record_keeping":
        return replace(settings, record_keeping=True)
    if word == "threads":
        return replace(settings, threads=True)
    if word == "autostrike":
        mode = args.take("off, forced or all").lower()
        if mode not in MODES:
            raise InvalidNotation(f"autostrike: off, forced or all, not {mode!r}")
        return replace(settings, autostrike=next(m for m in MODES if m == mode))
    return replace(settings, rated=False)  # unrated
