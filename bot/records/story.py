"""A finished game's readable record: the game told action by action.

The companion of the JSON record (:mod:`bot.records.public`): the same narration the
channel and the players read during the game (:mod:`bot.narration`), now all of it — the
public news of each action, then what each player alone was told — with the dice, the
commitment and the result. It is built from the record by replaying it, so that each
line names the legions as they stood when it happened.
"""

from __future__ import annotations

from typing import Any

from bot.narration.narrate import Names, narrate, private_events
from bot.records.check_record import Divergence, names_of, replay_record, result_text, set_up
from bot.records.public import FORMAT


def record_text(document: dict[str, Any]) -> str:
    """The readable record of ``document`` (a public record document)."""
    names = names_of(document)
    lines = _head(document, names)
    try:
        start, setup = set_up(document)
        lines += ["Setup: " + " ".join(narrate(setup, Names(start)))] if setup else []
        for step in replay_record(document):
            told = Names(step.before, step.after)
            entry = step.entry
            cause = f" [{entry['cause']}]" if entry.get("cause") else ""
            public = narrate(step.events, told) or ["(a private decision)"]
            lines.append(f"#{entry['n']} {names[entry['seat']]}{cause}: " + " ".join(public))
            for seat in sorted(names):
                mine = narrate(private_events(step.events, seat), told, seat)
                lines += [f"    to {names[seat]}: {line}" for line in mine]
    except Divergence as exc:
        lines.append(f"(The replay stops here: {exc}.)")
    lines.append(_end(document, names))
    return "\n".join(lines) + "\n"


def _head(document: dict[str, Any], names: dict[int, str]) -> list[str]:
    settings, dice = document["settings"], document["dice"]
    seats = ", ".join(f"{seat + 1}. {name}" for seat, name in sorted(names.items()))
    options = [
        f"record keeping {'on' if settings.get('record_keeping') else 'off'}",
        f"{'with' if settings.get('time_limit') else 'no'} time limit",
    ]
    lines = [
        f"TITAN, game #{document.get('game')} ({document.get('format', FORMAT)}, engine "
        f"{document.get('engine')})",
        f"Players: {seats}",
        f"Options: {', '.join(options)}",
        f"Opened {document.get('opened_at')}, ended {document.get('ended_at')}",
    ]
    if dice.get("commitment") is not None:
        scheme = dice.get("scheme") or "titanbot-dice/1"
        lines.append(f"Commitment (announced at the start, {scheme}): {dice['commitment']}")
        lines.append(f"Seed {dice['seed']}, salt {dice['salt']}")
    else:
        lines.append(f"Seed {dice['seed']}")
    lines.append("")
    return lines


def _end(document: dict[str, Any], names: dict[int, str]) -> str:
    result = document.get("result") or {}
    if result.get("ended") == "cancelled":
        return "\nThe game was cancelled."
    if result.get("ended") == "adjudicated":
        return "\nThe game was ended by an organiser's ruling."
    winners = result.get("winners") or []
    return f"\nGame over: {result_text(list(winners), result.get('reason'), names)}."
