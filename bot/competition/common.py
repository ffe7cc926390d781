"""What the tournament commands share: the organiser's gate, finding a tournament by its
name and a table by its ``HEAT.TABLE`` label."""

from __future__ import annotations

import re

from bot.context import Caller
from bot.storage import tournaments as store
from bot.storage.connection import Connection
from engine.errors import IllegalAction, InvalidNotation

_LABEL = re.compile(r"(\d{1,3})\.(\d{1,3})")


def organiser(caller: Caller, what: str) -> None:
    """Refuse ``caller`` unless they are an organiser."""
    if not caller.organiser:
        raise IllegalAction(f"only an organiser may {what} (Manage Server, or the organiser role)")


async def named(db: Connection, guild: int | None, name: str) -> store.TournamentRow:
    found = await store.named(db, guild, name)
    if found is None:
        raise IllegalAction(f"there is no tournament {name!r} here: see `tournament create`")
    return found


async def held(db: Connection, guild: int | None, name: str) -> store.TournamentRow:
    """The tournament ``name``, its row held for the transaction (:func:`store.hold`) and
    read again: what is decided on it next is decided by one writer at a time."""
    found = await named(db, guild, name)
    await store.hold(db, found.id)
    again = await store.by_id(db, found.id)
    assert again is not None  # a held row is there
    return again


def label(word: str) -> tuple[int, int]:
    """``2.3`` → heat (or round) 2, table 3."""
    found = _LABEL.fullmatch(word.strip())
    if found is None:
        raise InvalidNotation(f"a table is named HEAT.TABLE, like `2.3`; not {word!r}")
    return int(found.group(1)), int(found.group(2))


async def table_labelled(
    db: Connection, tournament: store.TournamentRow, word: str
) -> store.TableRow:
    """The table ``word`` (``HEAT.TABLE``) of ``tournament``; refused when there is none."""
    heat, number = label(word)
    found = await store.table(db, tournament.id, heat, number)
    if found is None:
        raise IllegalAction(f"{tournament.name} has no table {heat}.{number}")
    return found


async def playing_table(
    db: Connection, tournament: store.TournamentRow, word: str
) -> store.TableRow:
    """The table ``word``, refused unless its game is being played."""
    found = await table_labelled(db, tournament, word)
    if found.status != store.PLAYING or found.game is None or found.channel is None:
        raise IllegalAction(
            f"table {found.label} of {tournament.name} is {found.status}, not being played "
            f"(`tournament status {tournament.name}` lists the tables)"
        )
    return found


def current_heat(tables: list[store.TableRow]) -> int | None:
    """The latest heat (or round) seated."""
    return max((t.heat for t in tables), default=None)
