"""``titanbot verify``: a public record (``titanbot-record/2``, or ``/1``) checked by anyone.

The check needs nothing but the record and this engine, and the values the bot announced
when given: the record's digest must be the one announced at the end; its commitment must
be the one announced at the start, and the digest of what it binds — the record's server,
channel, number, start, seats, settings, engine, seed and salt (:mod:`bot.records.proof`;
an older record's commitment binds the seed and salt only); the game
set up from the seed must make the record's setup events; every action, replayed in
order, must be accepted by the rules and make exactly the record's events (hence every
die: each comes from the seed and its number, :mod:`engine.dice`); and the replay must
end as the record says. The first difference is named, and nothing after it is checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from bot.records.canonical import digest
from bot.records.proof import DICE_SCHEME, GAME_SCHEME, commitment_holds, pledge, same_digest
from bot.records.public import FORMAT, FORMATS
from bot.storage.eventlog import events_to_json
from bot.syntax import format_action
from bot.untrusted import MAX_DEPTH, nesting
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
    """What the check found: ``ok``, and the lines saying so or naming the difference."""

    ok: bool
    text: str


@dataclass(frozen=True)
class Announced:
    """The values the bot announced, to check the record against (None: not given)."""

    commitment: str | None = None
    record_digest: str | None = None


@dataclass(frozen=True)
class Step:
    """One replayed action of a record: its entry, the states around it, its events."""

    entry: dict[str, Any]
    action: Action
    before: GameState
    after: GameState
    events: list[Event]


def check_record(document: dict[str, Any], announced: Announced = Announced()) -> Verdict:
    """The verdict on ``document`` (parsed by :func:`~bot.records.public.read_record`),
    checked against the ``announced`` values given."""
    try:
        if nesting(document) > MAX_DEPTH:  # read_record refuses it; a caller may not have
            raise Divergence(f"the record is nested more than {MAX_DEPTH} deep, the most allowed")
        record_digest = _check_digest(document, announced.record_digest)
        scheme, made = _check_dice(document)
        _check_announced_commitment(made, announced.commitment)
        state = None
        count = 0
        for step in replay_record(document):
            state, count = step.after, count + 1
        if state is None:
            state = set_up(document)[0]
        result = _check_result(document, state)
    except Divergence as exc:
        return Verdict(False, str(exc))
    players = len(document["players"])
    lines = [
        f"verified: game #{document.get('game')}, {plural(players, 'player')}, "
        f"{plural(count, 'action')} and {plural(state.dice.rolled, 'die', 'dice')} replayed "
        f"by engine {ENGINE_VERSION}, every event as recorded; {result}.",
        _commitment_line(scheme, made, seed_of(document), announced.commitment is not None),
        f"record digest: {record_digest}, "
        + (
            "the one announced at the end."
            if announced.record_digest is not None
            else "not compared: give the one announced at the end with --record-digest."
        ),
    ]
    bound = scheme == GAME_SCHEME and None not in (announced.commitment, announced.record_digest)
    if not bound:
        lines.append(UNBOUND)
    return Verdict(True, "\n".join(lines))


UNBOUND = (
    "Only the record's internal consistency was checked: without the commitment announced "
    "at the start and the digest announced at the end it could be another game's record, "
    "or a changed one that is consistent."
)


def _commitment_line(scheme: str | None, made: str | None, seed: int, compared: bool) -> str:
    if made is None:
        return f"commitment: none (the game started before commitments; seed {seed})."
    if scheme == GAME_SCHEME:
        what = (
            f"{GAME_SCHEME}: it binds the game's server, channel, number, start, seats, "
            "settings, engine, seed and salt"
        )
    else:
        what = f"{DICE_SCHEME}: it binds only the seed and salt, not the seats or settings"
    said = (
        "the one announced at the start"
        if compared
        else "not compared: give the one announced at the start with --commitment"
    )
    return f"commitment: {made} ({what}), {said}."


def _check_digest(document: dict[str, Any], announced: str | None) -> str:
    """The record's digest; :class:`Divergence` unless it is the announced one."""
    try:
        mine = digest(document)
    except (TypeError, ValueError):
        raise Divergence("the record holds a value that JSON cannot") from None
    if announced is not None and not same_digest(mine, announced):
        raise Divergence(
            f"the record's digest is {mine}, not the announced {announced.strip().lower()}: "
            "this is not the record announced at the game's end"
        )
    return mine


def _check_announced_commitment(made: str | None, announced: str | None) -> None:
    if announced is None:
        return
    if made is None:
        raise Divergence(
            f"the record carries no commitment, but {announced.strip().lower()} was announced"
        )
    if not same_digest(made, announced):
        raise Divergence(
            f"the record's commitment is {made}, not the announced {announced.strip().lower()}: "
            "its server, channel, number, start, seats, settings, engine, seed or salt differ "
            "from what was committed"
        )


def _check_dice(document: dict[str, Any]) -> tuple[str | None, str | None]:
    """The record's commitment scheme and commitment (None, None: none was made), once
    the commitment is found to hold for the record's fields."""
    form = document.get("format")
    if form not in FORMATS:
        raise Divergence(f"the record is not {FORMAT} (its format: {form!r})")
    if document.get("engine") != ENGINE_VERSION:
        raise Divergence(
            f"the record was played by engine {document.get('engine')!r}; this titanbot has "
            f"engine {ENGINE_VERSION} and cannot replay it"
        )
    dice = _field(document, "dice", dict)
    seed = seed_of(document)
    salt, claimed = dice.get("salt"), dice.get("commitment")
    scheme = dice.get("scheme", DICE_SCHEME if form == FORMATS[0] else None)
    if scheme not in (GAME_SCHEME, DICE_SCHEME, None):
        raise Divergence(
            f"the record's commitment follows {scheme!r}, which titanbot does not know"
        )
    if scheme is None and salt is None and claimed is None:
        return None, None  # a game started before commitments: nothing was promised
    if not isinstance(salt, str) or not isinstance(claimed, str):
        raise Divergence("the record has a salt or a commitment without the other")
    if scheme == DICE_SCHEME:
        if not commitment_holds(seed, salt, claimed):
            raise Divergence("the commitment does not match the seed and salt")
        return scheme, claimed.strip().lower()
    if form != FORMAT:
        raise Divergence(f"a {GAME_SCHEME} commitment comes in a {FORMAT} record, not {form}")
    if not same_digest(digest(pledged(document)), claimed):
        raise Divergence(
            "the commitment does not match the record: its server, channel, number, start, "
            "seats, settings, engine, seed or salt differ from what was committed"
        )
    return scheme, claimed.strip().lower()


def pledged(document: dict[str, Any]) -> dict[str, Any]:
    """The pledge that a ``titanbot-game/2`` record's commitment must be the digest of."""
    dice = document["dice"]
    return pledge(
        game=cast(int, document.get("game")),  # whatever the file holds: it is hashed
        guild=document.get("guild"),
        channel=cast(str, document.get("channel")),
        started_at=document.get("started_at"),
        players=document.get("players"),
        settings=document.get("settings"),
        engine=document.get("engine"),
        seed=cast(str, dice.get("seed")),
        salt=cast(str, dice.get("salt")),
    )


def seed_of(document: dict[str, Any]) -> int:
    """The record's seed: decimal text (``titanbot-record/2``) or a JSON number (``/1``)."""
    seed = _field(document, "dice", dict).get("seed")
    if document.get("format") == FORMAT:
        if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 80:
            return int(seed)
    elif isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        return seed
    raise Divergence(f"the record's seed is not a whole number: {seed!r}")


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
        return new_game([names[s] for s in sorted(names)], seed_of(document), options)
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
    """Every die in ``events`` (JSON), in order: the values of each ``roll`` and ``rolls``
    (walked with a stack, not recursion: any nesting is safe)."""
    found: list[int] = []
    pending: list[tuple[Any, bool]] = [(events, False)]
    while pending:
        value, rolled = pending.pop()
        if isinstance(value, dict):
            items = [(v, rolled or k in ("roll", "rolls")) for k, v in value.items()]
            pending.extend(reversed(items))
        elif isinstance(value, list):
            pending.extend((item, rolled) for item in reversed(value))
        elif rolled and isinstance(value, int):
            found.append(value)
    return found


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
    if ended in ("cancelled", "adjudicated"):
        if replay is not None:
            raise Divergence(f"the record's result is a game {ended}, but the replay {replayed}")
        if ended == "adjudicated":
            return (
                f"the game was ended by an organiser's ruling after action "
                f"{len(document['actions'])} (the ruling is not part of the record)"
            )
        return f"the game was cancelled after action {len(document['actions'])}"
    winners, reason = result.get("winners"), result.get("reason")
    if ended != "over" or not isinstance(winners, list):
        raise Divergence(f"the record's result is malformed ({result!r})")
    said = result_text(winners, reason, names)
    if replay is None or list(replay.winners) != winners or replay.reason != reason:
        raise Divergence(f"the record's result is {said}, but the replay {replayed}")
    return said
