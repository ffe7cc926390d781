"""The words of the command language: a cursor over tokens and readers for game ids.

Readers accept any letter case (``bk01``, ``ogre``, ``red``) and return the engine's
spelling (``Bk01``, ``Ogre``, ``Red``); they raise :class:`InvalidNotation` naming the bad
word.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection

from engine.battleland import check_label
from engine.characters import CHARACTERS
from engine.errors import InvalidNotation
from engine.markers import COLOURS, marker_colour
from engine.masterboard import parse_land

MARKER = re.compile(r"^[A-Za-z]{2}\d\d$")
HEX = re.compile(r"^[A-Fa-f]\d$")
_CHARACTERS = {name.lower(): name for name in CHARACTERS} | {
    c.plural.lower(): c.name for c in CHARACTERS.values()
}
_COLOURS = {c.name.lower(): c.name for c in COLOURS} | {c.abbrev.lower(): c.name for c in COLOURS}


def tokens(text: str) -> list[str]:
    """The words of a command line (quotes group words; a leading ``/`` is ignored)."""
    try:
        words = shlex.split(text.strip().removeprefix("/"))
    except ValueError as exc:
        raise InvalidNotation(f"cannot read {text!r}: {exc}") from None
    return words


def is_marker(word: str) -> bool:
    """Whether ``word`` looks like a legion marker id (``Bk03``)."""
    return bool(MARKER.match(word))


def marker(word: str) -> str:
    """A legion marker id in the engine's spelling: ``bk03`` → ``Bk03``."""
    if not is_marker(word):
        raise InvalidNotation(f"{word!r} is not a legion marker (like Bk03)")
    spelled = word[0].upper() + word[1].lower() + word[2:]
    try:
        marker_colour(spelled)
    except InvalidNotation:
        raise InvalidNotation(f"{word!r} is not a legion marker (like Bk03)") from None
    return spelled


def character(word: str) -> str:
    """A character name in the engine's spelling: ``ogres`` → ``Ogre``."""
    name = _CHARACTERS.get(word.lower())
    if name is None:
        raise InvalidNotation(f"{word!r} is not a character of TITAN")
    return name


def colour(word: str) -> str:
    """A colour name: ``red`` or ``rd`` → ``Red``."""
    name = _COLOURS.get(word.lower())
    if name is None:
        choices = ", ".join(c.name for c in COLOURS)
        raise InvalidNotation(f"{word!r} is not a colour (choose from {choices})")
    return name


def is_hex(word: str) -> bool:
    """Whether ``word`` looks like a battleland hex label (``D4``, any case)."""
    return bool(HEX.match(word))


def hex_label(word: str) -> str:
    """A battleland hex in the engine's spelling: ``d4`` → ``D4``."""
    if not is_hex(word):
        raise InvalidNotation(f"{word!r} is not a battleland hex (like D4)")
    return check_label(word.upper())


def land(word: str) -> int:
    """A land number of the masterboard."""
    return parse_land(word)


def number(word: str, what: str = "number") -> int:
    """A non-negative whole number."""
    if not word.isdigit():
        raise InvalidNotation(f"{word!r} is not a {what}")
    return int(word)


class Args:
    """The words after a verb, read left to right; errors quote the verb's usage."""

    def __init__(self, verb: str, words: list[str] | tuple[str, ...], usage: str = "") -> None:
        self.verb = verb
        self.usage = usage
        self._words = list(words)
        self._at = 0

    def _error(self, problem: str) -> InvalidNotation:
        hint = f" (usage: {self.usage})" if self.usage else ""
        return InvalidNotation(f"{self.verb}: {problem}{hint}")

    def peek(self) -> str | None:
        """The next word, not consumed."""
        return self._words[self._at] if self._at < len(self._words) else None

    def take(self, what: str) -> str:
        """The next word; an error naming ``what`` when there is none."""
        word = self.peek()
        if word is None:
            raise self._error(f"missing {what}")
        self._at += 1
        return word

    def keyword(self, *words: str) -> str | None:
        """Consume the next word if it is one of ``words`` (any case); return it lowercased."""
        word = self.peek()
        if word is not None and word.lower() in words:
            self._at += 1
            return word.lower()
        return None

    def until(self, stops: Collection[str]) -> list[str]:
        """Consume words up to (not including) the first of ``stops`` or the end."""
        found: list[str] = []
        while (word := self.peek()) is not None and word.lower() not in stops:
            found.append(word)
            self._at += 1
        return found

    def options(self, names: Collection[str]) -> dict[str, list[str]]:
        """Trailing ``name value…`` clauses in any order, each at most once."""
        found: dict[str, list[str]] = {}
        while (word := self.peek()) is not None:
            name = word.lower()
            if name not in names:
                raise self._error(f"unexpected {word!r}")
            if name in found:
                raise self._error(f"{name!r} given twice")
            self._at += 1
            found[name] = self.until(names)
        return found

    def finish(self) -> None:
        """Raise if words are left over."""
        rest = self._words[self._at :]
        if rest:
            raise self._error(f"unexpected {' '.join(rest)!r}")
