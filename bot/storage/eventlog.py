"""Events to and from the log's JSON (the engine writes them; the bot reads them back).

Until the engine offers ``event_from_json``, the event class is found by name among every
loaded :class:`~engine.game.events.Event` subclass, so the battle's events work too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from engine.codec import decode
from engine.errors import InvalidNotation
from engine.game.events import Event, event_to_json


def events_to_json(events: Sequence[Event]) -> str:
    return json.dumps([event_to_json(e) for e in events], separators=(",", ":"))


def _event_types() -> dict[str, type[Event]]:
    found: dict[str, type[Event]] = {}
    waiting: list[type[Event]] = [Event]
    while waiting:
        cls = waiting.pop()
        found[cls.__name__] = cls
        waiting += cls.__subclasses__()
    return found


@cache
def _known_event_types() -> dict[str, type[Event]]:
    return _event_types()


def _event_type(name: str) -> type[Event] | None:
    """The event class named ``name`` (the classes looked up again for one not seen yet)."""
    found = _known_event_types().get(name)
    if found is None:
        _known_event_types.cache_clear()
        found = _known_event_types().get(name)
    return found


def event_from_json(data: dict[str, Any]) -> Event:
    """The event written by ``event_to_json``; :class:`InvalidNotation` otherwise."""
    fields = dict(data)
    cls = _event_type(str(fields.pop("type", "")))
    if cls is None:
        raise InvalidNotation(f"unknown event {data.get('type')!r}")
    event: Event = decode(cls, fields)
    return event


def events_from_text(text: str) -> list[Event]:
    """The events of one logged action."""
    return [event_from_json(item) for item in json.loads(text)]
