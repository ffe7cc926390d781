"""Configuration: config.toml into a frozen dataclass, the environment wins."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config

REPO = Path(__file__).resolve().parents[2]


def test_missing_file_gives_the_defaults(tmp_path):
    config = load_config(tmp_path / "absent.toml", environ={})
    assert config == Config()
    assert not config.has_token


def test_the_example_file_reads_and_has_no_token():
    config = load_config(REPO / "config.example.toml", environ={})
    assert config.token == ""
    assert config.dev_guild == 0
    assert config.database == Path("titanbot.sqlite3")


def test_file_values(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[discord]\ntoken = "abc"\ndev_guild = 123\n[storage]\ndatabase = "x/games.db"\n'
    )
    config = load_config(path, environ={})
    assert config == Config("abc", 123, Path("x/games.db"))
    assert config.has_token


def test_the_environment_wins(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[discord]\ntoken = "file"\ndev_guild = 1\n')
    environ = {
        "TITANBOT_TOKEN": "env",
        "TITANBOT_DEV_GUILD": "77",
        "TITANBOT_DATABASE": "env.sqlite3",
    }
    assert load_config(path, environ) == Config("env", 77, Path("env.sqlite3"))


def test_the_config_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().token = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "[discord\n",
        '[discord]\ndev_guild = "abc"\n',
        "[discord]\ndev_guild = true\n",
        "[discord]\ntoken = 5\n",
        'discord = "x"\n',
        '[storage]\ndatabase = ""\n',
    ],
)
def test_bad_files_raise_config_error(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError):
        load_config(path, environ={})


def test_a_bad_environment_guild_raises(tmp_path):
    with pytest.raises(ConfigError):
        load_config(tmp_path / "none.toml", {"TITANBOT_DEV_GUILD": "guild"})
