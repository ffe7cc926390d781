"""``titanbot verify``: a public record (``titanbot-record/1``) checked by anyone.

The check needs nothing but the record and this engine: the commitment announced at the
start must be the one of the revealed seed and salt (:mod:`bot.records.proof`); the game
set up from the seed must make the record's setup events; every action, replayed in
order, must be accepted by the rules and make exactly the record's events (hence every
die: each comes from the seed and its number, :mod:`engine.dice`); and the replay must
end as the record says. The first difference is named, and nothing after it is checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.records.proof import SCHEME, commitment_holds
from bot.records.public import FORMAT
from bot.storage.eventlog import events_to_json
from bot.syntax import format_action
from engine.codec import decode
from engine.errors import TitanError
from engine.game.actions import Action, action_from_json
from engine.game.apply import apply
from engine.game.events import Event
from engine.game.setup import new_game
from engine.game.state import GameState, Options
from engine.version import ENGINE_VERSION
from engine.words import plural

CLIP = 160
"""Characters of an event shown when two differ (not their rolls)."""


class Divergence(Exception):
    """Where the record first differs from the replay, in plain words."""


@dataclass(frozen=True)
class Verdict:
    """What the check found: ``ok``, and one line saying so or naming the difference."""

    ok: bool
    text: str


@dataclass(frozen=True)
class Step:
    """One replayed action of a record: its entry, the states around it, its events."""

    entry: dict[str, Any]
    action: Action
    before: GameState
    after: GameState
    events: list[Event]


def check_record(document: dict[str, Any]) -> Verdict:
    """The verdict on ``document`` (parsed by :func:`~bot.records.public.read_record`)."""
    try:
        _check_dice(document)
        state = None
        count = 0
        for step in replay_record(document):
            state, count = step.after, count + 1
        if state is None:
            state = set_up(document)[0]
        result = _check_result(document, state)
    except Divergence as exc:
        return Verdict(False, str(exc))
    dice = document["dice"]
    proof = (
        f"the commitment {dice['commitment'][:16]}… holds for seed {dice['seed']} and its salt"
        if dice.get("salt") is not None
        else f"no commitment was made (seed {dice['seed']})"
    )
    players = len(document["players"])
    return Verdict(
        True,
        f"verified: game #{document.get('game')}, {plural(players, 'player')}, "
        f"{plural(count, 'action')} and {plural(state.dice.rolled, 'die', 'dice')} replayed "
        f"by engine {ENGINE_VERSION}, every event as recorded; {proof}; {result}.",
    )


def _check_dice(document: dict[str, Any]) -> None:
    if document.get("format") != FORMAT:
        raise Divergence(f"the record is not {FORMAT} (its format: {document.get('format')!r})")
    if document.get("engine") != ENGINE_VERSION:
        raise Divergence(
            f"the record was played by engine {document.get('engine')!r}; this titanbot has "
            f"engine {ENGINE_VERSION} and cannot replay it"
        )
    dice = _field(document, "dice", dict)
    seed = dice.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise Divergence(f"the record's seed is not a whole number: {seed!r}")
    salt, claimed = dice.get("salt"), dice.get("commitment")
    if dice.get("scheme", SCHEME) != SCHEME:
        raise Divergence(f"the record's dice follow {dice.get('scheme')!r}, not {SCHEME}")
    if salt is None and claimed is None:
        return  # a game started before commitments: nothing was promised
    if not isinstance(salt, str) or not isinstance(claimed, str):
        raise Divergence("the record has a salt or a commitment without the other")
    if not commitment_holds(seed, salt, claimed):
        raise Divergence("the commitment does not match the seed and salt")


def _field(document: dict[str, Any], key: str, kind: type) -> Any:
    value = document.get(key)
    if not isinstance(value, kind):
        raise Divergence(f"the record's {key!r} is missing or malformed")
    return value


def names_of(document: dict[str, Any]) -> dict[int, str]:
    """The players' names by seat."""
    players = _field(document, "players", list)
    try:
        return {int(p["seat"]): str(p["name"]) for p in players}
    except (KeyError, TypeError, ValueError):
        raise Divergence("the record's players are malformed") from None


def set_up(document: dict[str, Any]) -> tuple[GameState, list[Event]]:
    """The game set up from the record's seed, players and options."""
    names = names_of(document)
    if sorted(names) != list(range(len(names))):
        raise Divergence(f"the record's seats are {sorted(names)}, not 0 to {len(names) - 1}")
    settings = _field(document, "settings", dict)
    try:
        options = decode(Options, settings.get("options", {}))
        return new_game([names[s] for s in sorted(names)], document["dice"]["seed"], options)
    except (TitanError, TypeError, ValueError, KeyError) as exc:
        raise Divergence(f"the game cannot be set up from the record ({exc})") from None


def replay_record(document: dict[str, Any]) -> Iterator[Step]:
    """Every action of the record replayed from its seed, in order; raises
    :class:`Divergence` at the first action that differs (or first setup event)."""
    state, setup = set_up(document)
    _same_events("the game's setup", document.get("setup"), setup)
    names = names_of(document)
    for index, entry in enumerate(_field(document, "actions", list), 1):
        if not isinstance(entry, dict) or entry.get("n") != index:
            found = entry.get("n") if isinstance(entry, dict) else entry
            raise Divergence(f"action {index} is missing (the record's next entry is {found!r})")
        seat = entry.get("seat")
        try:
            action = action_from_json(entry["action"])
        except (TitanError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Divergence(f"action {index} by seat {seat} cannot be read ({exc})") from None
        if not isinstance(seat, int) or seat not in names:
            raise Divergence(f"action {index} by seat {seat!r}: there is no such seat")
        where = f"action {index} by seat {seat} ({names[seat]}: {_command(action)})"
        try:
            after, events = apply(state, seat, action)
        except TitanError as exc:
            raise Divergence(f"{where}: the replay refuses it ({exc})") from None
        _same_events(where, entry.get("events"), events)
        yield Step(entry, action, state, after, events)
        state = after


def _command(action: Action) -> str:
    try:
        return format_action(action)
    except TitanError:
        return type(action).__name__


def _same_events(where: str, recorded: Any, replayed: list[Event]) -> None:
    """Raise :class:`Divergence` unless the recorded events are the replay's."""
    expected = json.loads(events_to_json(replayed))
    if recorded == expected:
        return
    if not isinstance(recorded, list):
        raise Divergence(f"{where}: the record's events are missing or malformed")
    mine, theirs = rolls(recorded), rolls(expected)
    if mine != theirs:
        raise Divergence(
            f"{where}: the record's events differ from the replay: "
            f"record rolls {mine}, replay {theirs}"
        )
    first = next(
        (i for i, (r, e) in enumerate(zip(recorded, expected, strict=False)) if r != e),
        min(len(recorded), len(expected)),
    )
    shown = [_clip(e[first]) if first < len(e) else "nothing" for e in (recorded, expected)]
    raise Divergence(
        f"{where}: the record's events differ from the replay: record {shown[0]}, replay {shown[1]}"
    )


def rolls(events: Any) -> list[int]:
    """Every die in ``events`` (JSON), in order: the values of each ``roll`` and ``rolls``."""
    found: list[int] = []
    if isinstance(events, dict):
        for key, value in events.items():
            if key in ("roll", "rolls"):
                found += _numbers(value)
            else:
                found += rolls(value)
    elif isinstance(events, list):
        for item in events:
            found += rolls(item)
    return found


def _numbers(value: Any) -> list[int]:
    if isinstance(value, list):
        return [n for item in value for n in _numbers(item)]
    return [value] if isinstance(value, int) else []


def _clip(event: Any) -> str:
    text = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= CLIP else text[: CLIP - 1] + "…"


def result_text(winners: list[int], reason: str | None, names: dict[int, str]) -> str:
    """``Ann wins (last Titan)``, ``Ann and Bob win (draw)``, ``nobody wins (…)``."""
    who = " and ".join(names.get(s, f"seat {s}") for s in winners) or "nobody"
    return f"{who} {'win' if len(winners) > 1 else 'wins'} ({reason})"


def _check_result(document: dict[str, Any], state: GameState) -> str:
    names = names_of(document)
    result = _field(document, "result", dict)
    ended = result.get("ended")
    replay = state.result
    replayed = (
        "says " + result_text(list(replay.winners), replay.reason, names)
        if replay is not None
        else "has not ended the game"
    )
    if ended == "cancelled":
        if replay is not None:
            raise Divergence(f"the record's result is a cancelled game, but the replay {replayed}")
        return f"the game was cancelled after action {len(document['actions'])}"
    winners, reason = result.get("winners"), result.get("reason")
    if ended != "over" or not isinstance(winners, list):
        raise Divergence(f"the record's result is malformed ({result!r})")
    said = result_text(winners, reason, names)
    if replay is None or list(replay.winners) != winners or replay.reason != reason:
        raise Divergence(f"the record's result is {said}, but the replay {replayed}")
    return said
