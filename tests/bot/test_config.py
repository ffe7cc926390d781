"""Configuration: config.toml into a frozen dataclass, the environment wins."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from bot.config import CLOCK_KEYS, NO_LIMITS, Config, ConfigError, Limits, load_config
from bot.storage.record import NO_CLOCK

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


def test_the_example_file_documents_every_limit_with_its_default():
    raw = tomllib.loads((REPO / "config.example.toml").read_text(encoding="utf-8"))
    assert set(raw["limits"]) == {f.name for f in dataclasses.fields(Limits)}
    assert load_config(REPO / "config.example.toml", environ={}).limits == Limits()


def test_a_config_has_the_default_limits_and_no_limits_keeps_historys_lengths():
    assert Config().limits == Limits()
    off = (NO_LIMITS.open_games_per_user, NO_LIMITS.open_games_per_server)
    assert off == (None, None) and NO_LIMITS.commands_per_minute is None
    assert (NO_LIMITS.history_default, NO_LIMITS.history_max) == (
        Limits().history_default,
        Limits().history_max,
    )


def test_limits_from_the_file_and_zero_turns_one_off(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        "[limits]\nopen_games_per_user = 0\nopen_games_per_server = 3\nhistory_default = 5\n"
        "history_max = 80\ncommands_per_minute = 7.5\ncommand_burst = 2\n"
    )
    assert load_config(path, environ={}).limits == Limits(None, 3, 5, 80, 7.5, 2)
    path.write_text("[limits]\ncommands_per_minute = 0\nhistory_max = 12\n")
    limits = load_config(path, environ={"TITANBOT_TOKEN": "t"}).limits
    assert limits == Limits(commands_per_minute=None, history_max=12)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("limits = 3\n", r"\[limits\] must be a table"),
        ("[limits]\nopen_games_per_users = 3\n", "unknown setting limits.open_games_per_users"),
        ("[limits]\nopen_games_per_user = -1\n", "open_games_per_user must be 0 or more"),
        ("[limits]\nopen_games_per_server = 2.5\n", "must be a whole number"),
        ("[limits]\ncommand_burst = true\n", "must be a whole number"),
        ("[limits]\ncommand_burst = 0\n", "command_burst must be 1 or more"),
        ("[limits]\ncommands_per_minute = -2\n", "commands_per_minute must be 0 or more"),
        ('[limits]\ncommands_per_minute = "fast"\n', "commands_per_minute must be 0 or more"),
        ("[limits]\nhistory_max = 0\n", "history_max must be 1 to 1000"),
        ("[limits]\nhistory_max = 1001\n", "history_max must be 1 to 1000"),
        ("[limits]\nhistory_default = 60\n", "history_default must be 1 to 50, not 60"),
        ("[limits]\nhistory_default = 0\nhistory_max = 5\n", "history_default must be 1 to 5"),
    ],
)
def test_bad_limits_raise_config_error(tmp_path, text, message):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path, environ={})


def test_the_example_file_documents_every_clock_setting_with_its_default():
    raw = tomllib.loads((REPO / "config.example.toml").read_text(encoding="utf-8"))
    assert set(raw["clock"]) == set(CLOCK_KEYS)
    assert load_config(REPO / "config.example.toml", environ={}).timing == NO_CLOCK


def test_a_server_wide_clock_is_read_in_players_words(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[clock]\ndeadline = "1d12h"\non_timeout = "pass"\nremind_at = [0.25, 0.75]\n'
        'stand_in = "Normal"\n'
    )
    timing = load_config(path, {}).timing
    assert (timing.deadline, timing.on_timeout, timing.remind_at) == (129600, "pass", (0.25, 0.75))
    assert timing.stand_in == "normal"


@pytest.mark.parametrize(
    "line",
    [
        'deadline = "soon"',
        'on_timeout = "nap"',
        'stand_in = "genius"',
        "remind_at = [2]",
        "most_timeouts = 0",
        "x = 1",
    ],
)
def test_a_bad_clock_setting_is_refused_with_its_name(tmp_path, line):
    path = tmp_path / "config.toml"
    path.write_text(f"[clock]\n{line}\n")
    with pytest.raises(ConfigError, match=r"clock\.|deadline|a duration"):
        load_config(path, {})


def test_shards_come_from_the_file_or_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[discord]\nshard_count = 4\nshard_ids = [3, 1]\n[storage]\ndatabase = "postgresql://t@/x"\n'
    )
    config = load_config(path, environ={})
    assert (config.shard_count, config.shard_ids) == (4, (1, 3))
    assert config.database == "postgresql://t@/x"
    overridden = load_config(path, environ={"TITANBOT_SHARD_COUNT": "2", "TITANBOT_SHARD_IDS": "0"})
    assert (overridden.shard_count, overridden.shard_ids) == (2, (0,))
    assert load_config(tmp_path / "none.toml", environ={}).shard_ids is None


@pytest.mark.parametrize(
    ("environ", "told"),
    [
        ({"TITANBOT_SHARD_IDS": "0"}, "needs discord.shard_count"),
        ({"TITANBOT_SHARD_COUNT": "2", "TITANBOT_SHARD_IDS": "2"}, "shard 2 is not one of 0 to 1"),
        ({"TITANBOT_SHARD_COUNT": "0"}, "above 0"),
        ({"TITANBOT_SHARD_COUNT": "two"}, "whole number"),
        ({"TITANBOT_SHARD_COUNT": "3", "TITANBOT_SHARD_IDS": "1,1"}, "names a shard twice"),
    ],
)
def test_a_wrong_shard_setting_is_refused_with_its_reason(tmp_path, environ, told):
    with pytest.raises(ConfigError, match=told):
        load_config(tmp_path / "none.toml", environ=environ)
