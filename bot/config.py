"""The bot's configuration: ``config.toml`` (see ``config.example.toml``) and the environment.

The environment (``TITANBOT_TOKEN``, ``TITANBOT_DEV_GUILD``, ``TITANBOT_DATABASE``,
``TITANBOT_SHARD_COUNT``, ``TITANBOT_SHARD_IDS``) wins over the file; a missing file is the
same as an empty one. The ``[limits]`` an operator sets come from the file alone.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from bot.schedule.timing import POLICIES, parse_duration
from bot.storage.backends import Target, as_target
from bot.storage.record import NO_CLOCK, Timing
from bot.untrusted import UnsafeInput, read_bounded
from engine.ai.levels import LEVELS, level_of
from engine.errors import TitanError

DEFAULT_PATH = Path("config.toml")
MAX_CONFIG_BYTES = 1024 * 1024
"""The most bytes a config file may have (one is a few hundred)."""
DEFAULT_DATABASE = "titanbot.sqlite3"


class ConfigError(ValueError):
    """The configuration file or an environment variable cannot be read."""


@dataclass(frozen=True)
class Limits:
    """What an operator allows (``[limits]`` of ``config.toml``); None means no limit.

    The defaults suit a public bot. TITAN games last hours or weeks, so a keen player may
    sit in several at once, but ten is past what anyone follows and stops one user from
    opening games in every channel; 200 games a server leaves room for a league while
    keeping one server from filling the database. A player's turn is a flurry of commands
    (split, several moves, musters, a battle's strikes), which a burst of 10 absorbs; 20 a
    minute sustained is one every three seconds, quicker than anyone reads the replies,
    and stops a command repeated by the hundred.
    """

    open_games_per_user: int | None = 10
    """Lobbies and active games a user may be seated in, checked when they open or join
    one (organisers are exempt)."""
    open_games_per_server: int | None = 200
    """Lobbies and active games of one server, checked when a game is opened."""
    history_default: int = 10
    """Actions ``history`` shows when not told how many."""
    history_max: int = 50
    """The most actions ``history`` shows."""
    commands_per_minute: float | None = 20.0
    """Commands a user may send a minute, sustained (AI seats are exempt)."""
    command_burst: int = 10
    """Commands a user may send at once, before the per-minute rate holds them back."""


NO_LIMITS = Limits(open_games_per_user=None, open_games_per_server=None, commands_per_minute=None)
"""No limit on games or commands (the service's default: tests, the console)."""
HISTORY_MOST = 1000
"""The most ``history_max`` may be (``history`` reads its window and a turn)."""


@dataclass(frozen=True)
class Config:
    """Settings of one bot process."""

    token: str = ""
    """The Discord bot token; empty means "play locally"."""
    dev_guild: int = 0
    """A guild for instant command sync while developing; 0 syncs globally."""
    database: Target = Path(DEFAULT_DATABASE)
    """Where every game is kept: a SQLite file (the default), or a ``postgresql://`` URL
    that several bot processes may share."""
    shard_count: int | None = None
    """How many Discord shards the bot has in all (None: as many as Discord advises)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (None: all of them); the others run elsewhere."""
    limits: Limits = Limits()
    """What the operator allows (``[limits]``)."""
    timing: Timing = NO_CLOCK
    """The clock of a game whose host chooses none (``[clock]``)."""

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """The configuration from ``path`` (default ``config.toml``) overridden by ``environ``.

    Raises :class:`ConfigError` for a malformed file or value.
    """
    environ = os.environ if environ is None else environ
    raw = _read_toml(path or DEFAULT_PATH)
    discord = _table(raw, "discord")
    storage = _table(raw, "storage")
    token = environ.get("TITANBOT_TOKEN", discord.get("token", ""))
    guild = environ.get("TITANBOT_DEV_GUILD", discord.get("dev_guild", 0))
    database = environ.get("TITANBOT_DATABASE", storage.get("database", DEFAULT_DATABASE))
    if not isinstance(token, str):
        raise ConfigError("discord.token must be a string")
    if not isinstance(database, str) or not database:
        raise ConfigError("storage.database must be a non-empty path or a postgresql:// URL")
    count, ids = _shards(
        environ.get("TITANBOT_SHARD_COUNT", discord.get("shard_count")),
        environ.get("TITANBOT_SHARD_IDS", discord.get("shard_ids")),
    )
    limits = load_limits(_table(raw, "limits"))
    timing = load_timing(_table(raw, "clock"))
    return Config(
        token=token, dev_guild=_guild(guild), database=as_target(database), shard_count=count,
        shard_ids=ids, limits=limits, timing=timing,
    )  # fmt: skip


def _shards(count: object, ids: object) -> tuple[int | None, tuple[int, ...] | None]:
    """``discord.shard_count`` and ``discord.shard_ids`` (the environment gives them as
    text: ``4``, ``0,1``): each process of a sharded bot runs its own shards of one count."""
    if isinstance(count, str):
        count = _number(count, "discord.shard_count")
    if ids is not None and isinstance(ids, str):
        ids = [_number(part, "discord.shard_ids") for part in ids.split(",") if part.strip()]
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise ConfigError(f"discord.shard_count must be a whole number above 0, not {count!r}")
    if ids is None:
        return count, None
    if (
        not isinstance(ids, list)
        or not ids
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids)
    ):
        raise ConfigError(f"discord.shard_ids must be a list of shard numbers, not {ids!r}")
    if count is None:
        raise ConfigError("discord.shard_ids needs discord.shard_count (the shards in all)")
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong:
        raise ConfigError(
            f"discord.shard_ids: shard {wrong[0]} is not one of 0 to {count - 1} "
            f"(shard_count is {count})"
        )
    if len(set(ids)) != len(ids):
        raise ConfigError("discord.shard_ids names a shard twice")
    return count, tuple(sorted(ids))


def _number(text: str, key: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, not {text!r}") from None


CLOCK_KEYS = (
    "deadline", "on_timeout", "stand_in", "remind_at", "remind_before", "idle",
    "idle_reminders", "most_timeouts",
)  # fmt: skip


def load_timing(table: Mapping[str, object]) -> Timing:
    """The ``[clock]`` table: the default clock of new games (a key left out keeps its
    default). Durations are written as players write them (``24h``, ``off``)."""
    unknown = sorted(set(table) - set(CLOCK_KEYS))
    if unknown:
        raise ConfigError(f"unknown setting clock.{unknown[0]}")
    default = NO_CLOCK

    def duration(key: str, current: int | None) -> int | None:
        value = table.get(key)
        if value is None:
            return current
        if not isinstance(value, str):
            raise ConfigError(f'clock.{key} must be a duration like "24h", not {value!r}')
        try:
            return parse_duration(value, f"clock.{key}")
        except TitanError as exc:
            raise ConfigError(str(exc)) from exc

    def whole(key: str, current: int) -> int:
        value = table.get(key, current)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"clock.{key} must be a whole number above 0, not {value!r}")
        return value

    policy = table.get("on_timeout", default.on_timeout)
    if policy not in POLICIES:
        raise ConfigError(f"clock.on_timeout must be one of {', '.join(POLICIES)}, not {policy!r}")
    stand_in = level_of(str(table.get("stand_in", default.stand_in)))
    if stand_in is None:
        raise ConfigError(
            f"clock.stand_in must be one of {', '.join(LEVELS)}, not {table['stand_in']!r}"
        )
    points = table.get("remind_at", list(default.remind_at))
    if not isinstance(points, list) or not all(
        isinstance(p, int | float) and not isinstance(p, bool) and 0 < p < 1 for p in points
    ):
        raise ConfigError("clock.remind_at must be a list of fractions between 0 and 1")
    return Timing(
        deadline=duration("deadline", default.deadline),
        on_timeout=str(policy),
        stand_in=stand_in,
        remind_at=tuple(float(p) for p in points),
        remind_before=duration("remind_before", default.remind_before) or 0,
        idle=duration("idle", default.idle) or default.idle,
        idle_reminders=whole("idle_reminders", default.idle_reminders),
        most_timeouts=whole("most_timeouts", default.most_timeouts),
    )


def load_limits(table: Mapping[str, object]) -> Limits:
    """The ``[limits]`` table; a key left out keeps its default, 0 turns a limit off.

    Raises :class:`ConfigError` for an unknown key or a value out of range.
    """
    unknown = sorted(set(table) - {f.name for f in fields(Limits)})
    if unknown:
        raise ConfigError(f"unknown setting limits.{unknown[0]}")
    default = Limits()

    def count(key: str, least: int, most: int | None = None) -> int:
        value = table.get(key, getattr(default, key))
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"limits.{key} must be a whole number, not {value!r}")
        if value < least or (most is not None and value > most):
            top = f" to {most}" if most is not None else " or more"
            raise ConfigError(f"limits.{key} must be {least}{top}, not {value}")
        return value

    rate = table.get("commands_per_minute", default.commands_per_minute)
    if isinstance(rate, bool) or not isinstance(rate, int | float) or rate < 0:
        raise ConfigError(f"limits.commands_per_minute must be 0 or more, not {rate!r}")
    history_max = count("history_max", 1, HISTORY_MOST)
    return Limits(
        open_games_per_user=count("open_games_per_user", 0) or None,
        open_games_per_server=count("open_games_per_server", 0) or None,
        history_default=count("history_default", 1, history_max),
        history_max=history_max,
        commands_per_minute=float(rate) or None,
        command_burst=count("command_burst", 1),
    )


def _read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path`` (``{}`` when there is none); :class:`ConfigError` when it
    cannot be read, is larger than :data:`MAX_CONFIG_BYTES`, is not UTF-8 TOML, or nests
    too deep for the parser."""
    try:
        text = read_bounded(path, MAX_CONFIG_BYTES).decode("utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    except UnsafeInput as exc:
        raise ConfigError(f"{path} is too large for a config file: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    except RecursionError:  # the parser recurses into nested arrays and tables
        raise ConfigError(f"{path} nests its arrays or tables too deep to be read") from None


def _table(raw: dict[str, Any], name: str) -> dict[str, Any]:
    table = raw.get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(f"[{name}] must be a table")
    return table


def _guild(value: object) -> int:
    if isinstance(value, bool):
        raise ConfigError("dev_guild must be a guild id (a number)")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip() or "0"
        if text.isdigit():
            return int(text)
    raise ConfigError(f"dev_guild must be a guild id (a number), not {value!r}")
