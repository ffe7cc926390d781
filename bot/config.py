"""The bot's configuration: ``config.toml`` (see ``config.example.toml``) and the environment.

The environment (``TITANBOT_TOKEN``, ``TITANBOT_DEV_GUILD``, ``TITANBOT_DATABASE``) wins over
the file; a missing file is the same as an empty one.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path("config.toml")
DEFAULT_DATABASE = "titanbot.sqlite3"


class ConfigError(ValueError):
    """The configuration file or an environment variable cannot be read."""


@dataclass(frozen=True)
class Config:
    """Settings of one bot process."""

    token: str = ""
    """The Discord bot token; empty means "play locally"."""
    dev_guild: int = 0
    """A guild for instant command sync while developing; 0 syncs globally."""
    database: Path = Path(DEFAULT_DATABASE)
    """The SQLite file holding every game."""

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
        raise ConfigError("storage.database must be a non-empty path")
    return Config(token=token, dev_guild=_guild(guild), database=Path(database))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc


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
