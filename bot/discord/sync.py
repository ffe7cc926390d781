"""Registering the commands with Discord only when they changed.

The serialised command tree (what :meth:`CommandTree.sync` would send) is hashed; the
hash of the last sync is kept per application and scope in a small JSON file beside the
database, so a restart with unchanged commands spends none of Discord's daily command
writes. With a development guild configured the commands go to that guild only (instant
updates) and never also globally, which would show every command twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)


def sync_file(database: Path) -> Path:
    """Where the hashes of the synced command trees are kept: beside the database."""
    return database.with_name(database.name + ".commands.json")


def payload(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> list[Any]:
    """The commands of a scope as Discord receives them."""
    return [command.to_dict(tree) for command in tree.get_commands(guild=guild)]


def fingerprint(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> str:
    text = json.dumps(payload(tree, guild), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _load(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _save(path: Path, data: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    temporary.replace(path)


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    application: int,
    guild: discord.Object | None,
    path: Path,
    *,
    force: bool = False,
) -> int | None:
    """Sync ``tree``'s commands for ``guild`` (None: globally) when they changed (or when
    ``force``); the number of commands synced, or None when nothing needed it."""
    key = f"{application}:{guild.id if guild is not None else 'global'}"
    digest = fingerprint(tree, guild)
    known = _load(path)
    if not force and known.get(key) == digest:
        log.info("commands unchanged for %s: not synced", key)
        return None
    synced = await tree.sync(guild=guild)
    known[key] = digest
    _save(path, known)
    log.info("synced %d commands for %s", len(synced), key)
    return len(synced)
