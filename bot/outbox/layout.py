"""The shape of a game's news: where the game stands, what happened, what it waits for.

A message of game news has up to three parts: a *head* line saying where the game stands
(the turn, whose it is, the phase: :data:`~bot.narration.heading.HEAD`), the *news* (what
happened, a line each) and the *prompt* (what the game now waits for, and from whom:
:data:`~bot.narration.heading.WAITING`). When news are joined (a command and the AI
actions after it; the live message growing with each action) only the newest head and
prompt are kept: the message says where the game stands now, never an old prompt; a move
taken back is no longer told. What is too long loses its oldest news first — the head and
the prompt always stay — and says how many lines ``history`` has besides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.narration.heading import HEAD, WAITING
from bot.narration.table import plural
from bot.narration.undone import without_taken_back

EARLIER = "… "
"""How the line counting the news left out begins."""

Measure = Callable[[str], int]
"""The length of a text as it will be sent (its commands written as the transport
writes them, its pings included)."""


@dataclass(frozen=True)
class Parts:
    """A message's head, news and prompt."""

    head: str | None = None
    news: tuple[str, ...] = ()
    prompt: tuple[str, ...] = ()


def parts(text: str) -> Parts:
    """``text`` taken apart: its last head, its news (without older prompts, heads and notes
    of lines left out) and its prompt (the waiting lines that end it)."""
    lines = text.split("\n")
    while lines and not lines[-1]:
        lines.pop()
    end = len(lines)
    while end > 0 and lines[end - 1].startswith(WAITING):
        end -= 1
    heads = [line for line in lines if line.startswith(HEAD)]
    news = tuple(line for line in lines[:end] if not line.startswith((HEAD, WAITING, EARLIER)))
    return Parts(heads[-1] if heads else None, news, tuple(lines[end:][-1:]))


def joined(texts: Sequence[str]) -> Parts:
    """Several messages' news in order, under the newest head, with the last one's prompt."""
    found = [parts(text) for text in texts]
    heads = [p.head for p in found if p.head is not None]
    news = tuple(line for p in found for line in p.news)
    return Parts(heads[-1] if heads else None, news, found[-1].prompt if found else ())


def compose(shape: Parts, limit: int, measure: Measure = len) -> tuple[str, int]:
    """The text of ``shape`` within ``limit`` (as measured), and how many news lines had to
    be left out for it (the oldest; a line says how many). A move taken back leaves with
    its take-back (:mod:`bot.narration.undone`)."""
    news = list(without_taken_back(shape.news))
    left_out = 0
    while True:
        note = [f"{EARLIER}{plural(left_out, 'earlier line')}: `history` shows them"]
        lines = [
            *([shape.head] if shape.head else []),
            *(note if left_out else []),
            *news,
            *shape.prompt,
        ]
        text = "\n".join(lines)
        if measure(text) <= limit or not news:
            return text, left_out
        news.pop(0)
        left_out += 1
