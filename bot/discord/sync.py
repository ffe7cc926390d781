"""Registering the commands with Discord only when they changed, within Discord's limits.

The serialised command tree (what :meth:`CommandTree.sync` would send) is hashed; the
hash of the last sync is kept per application and scope in a small JSON file beside the
database, with the ids Discord gave the commands, so a restart with unchanged commands
spends none of Discord's daily command writes and still knows the ids a command mention
needs (``</turn move:ID>``; an older file without ids: they are fetched once). With a
development guild configured the commands go to that guild only (instant updates) and
never also globally, which would show every command twice.

A bot of several processes (each running some of its shards) syncs from one process only;
the others name the commands by the ids that one got (:func:`registered_ids`): from the
file when it records this very tree (the processes share a folder), else as Discord lists
the registered commands.

Discord refuses a whole sync when one command breaks one of its limits (error 50035) and
keeps the commands registered before; :func:`problems` checks every limit first, so such a
tree is never sent and the log says what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.storage.backends import Target, is_postgres
from bot.untrusted import parse_json, read_bounded

log = logging.getLogger(__name__)

MAX_COMMANDS = 100
"""Global (or one guild's) top-level slash commands."""
MAX_CHARACTERS = 4000
"""Names, descriptions, choice names and values of a top-level command and everything in it."""
MAX_OPTIONS = 25
"""Options (or subcommands) of one command, and choices of one option."""
MAX_DESCRIPTION = 100
NAME = re.compile(r"[-_\w]{1,32}")
"""A command's or option's name (``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase where it has case)."""
SUBCOMMAND, GROUP = 1, 2
MAX_STATE_BYTES = 4 * 1024 * 1024
"""The most bytes of the file of synced hashes read back (it holds a few hundred)."""


class OverLimits(ValueError):
    """The commands break Discord's limits: Discord would refuse the whole sync."""


@dataclass(frozen=True)
class Synced:
    """A sync's outcome: how many commands were synced (None: unchanged, not synced) and the
    ids of the top-level commands by name (empty where Discord could not tell)."""

    count: int | None
    ids: dict[str, int] = field(default_factory=dict)


def sync_file(database: Target) -> Path:
    """Where the hashes of the synced command trees are kept: beside a SQLite database;
    for a PostgreSQL one, in the working folder of the process."""
    if is_postgres(database):
        return Path("titanbot.commands.json")
    database = Path(database)
    return database.with_name(database.name + ".commands.json")


def scope_key(application: int, guild: discord.Object | None) -> str:
    """The file's key for the commands of ``application`` in a scope."""
    return f"{application}:{guild.id if guild is not None else 'global'}"


def payload(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> list[Any]:
    """The commands of a scope as Discord receives them."""
    return [command.to_dict(tree) for command in tree.get_commands(guild=guild)]


def fingerprint(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> str:
    text = json.dumps(payload(tree, guild), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def size(command: Mapping[str, Any]) -> int:
    """The characters Discord counts against :data:`MAX_CHARACTERS`: the names,
    descriptions, choice names and values of ``command`` and of all it holds."""
    total = len(str(command.get("name", ""))) + len(str(command.get("description", "")))
    for choice in command.get("choices") or ():
        total += len(str(choice["name"])) + len(str(choice["value"]))
    return total + sum(size(option) for option in command.get("options") or ())


def problems(commands: list[Any]) -> list[str]:
    """Every way the payload ``commands`` breaks a limit of Discord (none: it may be synced)."""
    found = []
    if len(commands) > MAX_COMMANDS:
        found.append(f"{len(commands)} commands, more than {MAX_COMMANDS}")
    for command in commands:
        name = str(command.get("name", ""))
        if size(command) > MAX_CHARACTERS:
            found.append(f"/{name}: {size(command)} characters, more than {MAX_CHARACTERS}")
        found += list(_problems_in(command, f"/{name}"))
    return found


def _problems_in(item: Mapping[str, Any], where: str) -> Iterator[str]:
    """The problems of one command, subcommand or option and of everything in it."""
    name, description = str(item.get("name", "")), str(item.get("description", ""))
    if NAME.fullmatch(name) is None or name != name.lower():
        yield f"{where}: the name {name!r} is not 1–32 lowercase letters, digits, - or _"
    if not 1 <= len(description) <= MAX_DESCRIPTION:
        yield f"{where}: a description of {len(description)} characters (1 to 100)"
    if description == "…":
        yield f"{where}: no description (discord.py's placeholder)"
    choices = item.get("choices") or []
    if len(choices) > MAX_OPTIONS:
        yield f"{where}: {len(choices)} choices, more than {MAX_OPTIONS}"
    options = item.get("options") or []
    if len(options) > MAX_OPTIONS:
        yield f"{where}: {len(options)} options, more than {MAX_OPTIONS}"
    values = [o for o in options if o.get("type") not in (SUBCOMMAND, GROUP)]
    required = [bool(o.get("required")) for o in values]
    if required != sorted(required, reverse=True):
        yield f"{where}: an optional option comes before a required one"
    names = [str(o.get("name")) for o in options]
    if len(set(names)) != len(names):
        yield f"{where}: two options have one name"
    for option in options:
        yield from _problems_in(option, f"{where} {option.get('name', '')}")


def _load(path: Path) -> dict[str, Any]:
    try:
        data = parse_json(read_bounded(path, MAX_STATE_BYTES))
    except (OSError, ValueError):  # unreadable, too large or too deep: synced again
        return {}
    return data if isinstance(data, dict) else {}


def _save(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    temporary.replace(path)


def _record(entry: object) -> tuple[str | None, dict[str, int]]:
    """A scope's entry in the file: its hash and ids (an older file holds the hash alone)."""
    if isinstance(entry, str):
        return entry, {}
    if not isinstance(entry, dict):
        return None, {}
    ids = entry.get("ids")
    known = {str(k): int(v) for k, v in ids.items()} if isinstance(ids, dict) else {}
    digest = entry.get("digest")
    return (str(digest) if digest is not None else None), known


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    application: int,
    guild: discord.Object | None,
    path: Path,
    *,
    force: bool = False,
) -> Synced:
    """Sync ``tree``'s commands for ``guild`` (None: globally) when they changed (or when
    ``force``). Raises :class:`OverLimits` (nothing sent) when they break Discord's limits,
    and :class:`discord.HTTPException` when Discord refuses them."""
    broken = problems(payload(tree, guild))
    if broken:
        raise OverLimits("; ".join(broken))
    key = scope_key(application, guild)
    digest = fingerprint(tree, guild)
    known = _load(path)
    last, ids = _record(known.get(key))
    if not force and last == digest:
        log.info("commands unchanged for %s: not synced", key)
        if not ids:
            ids = await _fetch_ids(tree, guild)
            known[key] = {"digest": digest, "ids": ids}
            _save(path, known)
        return Synced(None, ids)
    synced = await tree.sync(guild=guild)
    ids = {command.name: command.id for command in synced}
    known[key] = {"digest": digest, "ids": ids}
    _save(path, known)
    log.info("synced %d commands for %s", len(synced), key)
    return Synced(len(synced), ids)


async def registered_ids(
    tree: app_commands.CommandTree[Any],
    application: int,
    guild: discord.Object | None,
    path: Path,
) -> dict[str, int]:
    """The ids of ``tree``'s commands for ``guild`` (None: global) as another process
    synced them, without syncing or writing anything: from the file at ``path`` when it
    records this very tree, else asked of Discord (none for a command not registered
    yet, or when Discord cannot tell)."""
    last, ids = _record(_load(path).get(scope_key(application, guild)))
    if ids and last == fingerprint(tree, guild):
        return ids
    return await _fetch_ids(tree, guild)


async def _fetch_ids(
    tree: app_commands.CommandTree[Any], guild: discord.Object | None
) -> dict[str, int]:
    """The registered commands' ids, asked of Discord (none when it cannot tell)."""
    try:
        registered = await tree.fetch_commands(guild=guild)
    except discord.HTTPException as exc:
        log.warning("fetching the commands' ids failed (%s): commands are named plainly", exc)
        return {}
    return {command.name: command.id for command in registered}
