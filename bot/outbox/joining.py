"""Several messages said as one: the news of a command and the AI actions it set off, or
the waiting posts of a channel sent together.

Public news follow each other under the newest head, and only the last says whom the game
waits for (:mod:`bot.outbox.layout`); a player's private news keep only the latest list of
their legions; what is too long keeps its end (the newest news, the prompt) and says how
many lines ``history`` has besides.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.narration.table import plural
from bot.outbox.layout import Measure, compose, joined

OWN_LEGIONS = "Your legions:"
"""How :func:`bot.narration.describe.own_legions_text` begins."""


def join_news(texts: Sequence[str], limit: int, measure: Measure = len) -> str:
    """Public news in order; only the newest head and the last text's prompt."""
    return compose(joined(texts), limit, measure)[0] if texts else ""


def join_private(texts: Sequence[str], limit: int) -> str:
    """Private news in order, with only the latest list of the player's legions."""
    last = max((i for i, text in enumerate(texts) if OWN_LEGIONS in text), default=-1)
    lines: list[str] = []
    for index, text in enumerate(texts):
        news, _, legions = text.partition(OWN_LEGIONS)
        lines += news.splitlines()
        if index == last:
            lines += (OWN_LEGIONS + legions).splitlines()
    return clip([x for x in lines if x], limit)


def clip(lines: list[str], limit: int) -> str:
    """``lines`` within ``limit`` characters: the first third and the end are kept, the
    middle is summed up (``history`` shows it all)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    lines = list(lines)
    head: list[str] = []
    while lines and len("\n".join([*head, lines[0]])) < limit // 3:
        head.append(lines.pop(0))
    tail: list[str] = []
    while lines and len("\n".join([*head, *tail, lines[-1]])) < limit - 60:
        tail.insert(0, lines.pop())
    note = f"… {plural(len(lines), 'more line')} (`history` shows them) …"
    return "\n".join([*head, note, *tail])
