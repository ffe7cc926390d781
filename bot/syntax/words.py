"""The words of the command language: a cursor over tokens and readers for game ids.

Readers accept any letter case (``bk01``, ``ogre``, ``red``) and return the engine's
spelling (``Bk01``, ``Ogre``, ``Red``); they raise :class:`InvalidNotation` naming the bad
word. Numbers are ASCII digits only (``²`` and ``٣`` are not numbers here) and bounded, so
no word can reach ``int`` that it refuses or that storage cannot hold.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from engine.battleland import check_label
from engine.characters import CHARACTERS
from engine.errors import InvalidNotation
from engine.markers import COLOURS, marker_colour
from engine.masterboard import parse_land

MARKER = re.compile(r"[A-Za-z]{2}[0-9]{2}")
HEX = re.compile(r"[A-Fa-f][0-9]")
DIGITS = re.compile(r"[0-9]+")
MAX_LINE = 2_000
"""The longest command line read (Discord's message length); longer lines are refused."""
COUNT_MAX = 9_999
"""The largest number a command may give unless its reader says otherwise (history
counts, proposal numbers, lands, players): far above anything the game reaches."""
MIN_SNOWFLAKE = 1 << 32
"""The smallest Discord id accepted. A snowflake's top 42 bits are milliseconds since
Discord's epoch (2015-01-01), so every id issued after the epoch's first second is at
least 2**32; real accounts (from May 2015) are near 2**56 and above. The bound refuses
0, 1 and every small number typed by mistake with a wide margin."""
MAX_SNOWFLAKE = (1 << 63) - 1
"""The largest Discord id accepted: SQLite's largest integer (Discord's ids reach it in
2084)."""
_MENTION = re.compile(r"<@!?([0-9]+)>")
_SHOWN = 40
_LEXEME = re.compile(
    r"""(?P<space>\s++)|(?P<bare>[^\s'"\\]++)|\\(?P<escaped>.)|'(?P<single>[^']*+)'"""
    r"""|"(?P<double>(?:[^"\\]++|\\.)*+)"|(?P<open>.)""",
    re.DOTALL,
)
_QUOTING = re.compile(r"""['"\\]""")
_CHARACTERS = {name.lower(): name for name in CHARACTERS} | {
    c.plural.lower(): c.name for c in CHARACTERS.values()
}
_COLOURS = {c.name.lower(): c.name for c in COLOURS} | {c.abbrev.lower(): c.name for c in COLOURS}


def shown(word: str) -> str:
    """``word`` quoted for an error message, cut short when long."""
    return repr(word if len(word) <= _SHOWN else word[:_SHOWN] + "…")


def tokens(text: str) -> list[str]:
    """The words of a command line (a leading ``/`` is ignored).

    Words are separated by whitespace; as in a POSIX shell (what ``shlex.quote`` writes),
    single quotes keep everything up to the next one, double quotes group words with ``\\"``
    and ``\\\\`` escaped inside, and a backslash outside quotes keeps the next character.
    Lines over :data:`MAX_LINE` characters are refused.
    """
    line = text.strip().removeprefix("/")
    if len(line) > MAX_LINE:
        raise InvalidNotation(f"a command has at most {MAX_LINE:,} characters, not {len(line):,}")
    return split_words(line)


def split_words(line: str) -> list[str]:
    """The words of ``line`` as :func:`tokens` reads them, at any length: one pass of one
    regular expression whose alternatives never backtrack, so linear in the length."""
    if _QUOTING.search(line) is None:
        return line.split()  # the same words: ``str.split`` and ``\s`` agree on whitespace
    words: list[str] = []
    word: list[str] | None = None  # the pieces of the word being read
    for found in _LEXEME.finditer(line):
        kind = found.lastgroup or "open"
        if kind == "space":
            if word is not None:
                words.append("".join(word))
            word = None
        elif kind == "open":
            problem = "a backslash ends it" if found.group() == "\\" else "a quote is not closed"
            raise InvalidNotation(f"cannot read {shown(line)}: {problem}")
        else:
            piece = found.group(kind)
            if kind == "double" and "\\" in piece:
                piece = _unescape_double(piece)
            word = word if word is not None else []
            word.append(piece)
    if word is not None:
        words.append("".join(word))
    return words


def _unescape_double(body: str) -> str:
    """A double-quoted body with ``\\\\`` and ``\\"`` read as ``\\`` and ``"`` (other
    backslashes stay). Every backslash of the body starts a pair, so the leftmost ``\\\\``
    is always a pair, and so is each ``\\"`` of the parts between them."""
    return "\\".join(part.replace('\\"', '"') for part in body.split("\\\\"))


def is_marker(word: str) -> bool:
    """Whether ``word`` looks like a legion marker id (``Bk03``)."""
    return MARKER.fullmatch(word) is not None


def marker(word: str) -> str:
    """A legion marker id in the engine's spelling: ``bk03`` → ``Bk03``."""
    if not is_marker(word):
        raise InvalidNotation(f"{shown(word)} is not a legion marker (like Bk03)")
    spelled = word[0].upper() + word[1].lower() + word[2:]
    try:
        marker_colour(spelled)
    except InvalidNotation:
        raise InvalidNotation(f"{shown(word)} is not a legion marker (like Bk03)") from None
    return spelled


def character(word: str) -> str:
    """A character name in the engine's spelling: ``ogres`` → ``Ogre``."""
    name = _CHARACTERS.get(word.lower())
    if name is None:
        raise InvalidNotation(f"{shown(word)} is not a character of TITAN")
    return name


def colour(word: str) -> str:
    """A colour name: ``red`` or ``rd`` → ``Red``."""
    name = _COLOURS.get(word.lower())
    if name is None:
        choices = ", ".join(c.name for c in COLOURS)
        raise InvalidNotation(f"{shown(word)} is not a colour (choose from {choices})")
    return name


def is_hex(word: str) -> bool:
    """Whether ``word`` looks like a battleland hex label (``D4``, any case)."""
    return HEX.fullmatch(word) is not None


def hex_label(word: str) -> str:
    """A battleland hex in the engine's spelling: ``d4`` → ``D4``."""
    if not is_hex(word):
        raise InvalidNotation(f"{shown(word)} is not a battleland hex (like D4)")
    return check_label(word.upper())


def land(word: str) -> int:
    """A land number of the masterboard (ASCII digits: ``104``)."""
    if DIGITS.fullmatch(word) is None or len(word.lstrip("0")) > len(str(COUNT_MAX)):
        raise InvalidNotation(f"{shown(word)} is not a land number")
    return parse_land(int(word))


def number(word: str, what: str = "number", *, least: int = 0, most: int = COUNT_MAX) -> int:
    """A whole number from ``least`` to ``most``, written in the digits 0-9.

    Raises :class:`InvalidNotation` naming ``what`` and the bounds otherwise; the length is
    checked before conversion, so a word of any size is refused at once.
    """
    if DIGITS.fullmatch(word) is None:
        raise InvalidNotation(f"{shown(word)} is not a {what} (write it in the digits 0-9)")
    digits = word.lstrip("0") or "0"
    if len(digits) > len(str(most)) or not least <= int(digits) <= most:
        raise InvalidNotation(f"{shown(word)} is not a {what}: give {least} to {most}")
    return int(digits)


def user(word: str) -> int:
    """A Discord user: a mention (``<@id>``, ``<@!id>``) or the bare id.

    The id must be a plausible snowflake, :data:`MIN_SNOWFLAKE` to :data:`MAX_SNOWFLAKE`;
    raises :class:`InvalidNotation` otherwise.
    """
    mention = _MENTION.fullmatch(word)
    digits = mention.group(1) if mention is not None else word
    if DIGITS.fullmatch(digits) is None:
        raise InvalidNotation(f"{shown(word)} is not a user (mention them)")
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(MAX_SNOWFLAKE)) or not (MIN_SNOWFLAKE <= int(digits) <= MAX_SNOWFLAKE):
        raise InvalidNotation(f"{shown(word)} is not a Discord user id (mention them)")
    return int(digits)


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
                raise self._error(f"unexpected {shown(word)}")
            if name in found:
                raise self._error(f"{name!r} given twice")
            self._at += 1
            found[name] = self.until(names)
        return found

    def finish(self) -> None:
        """Raise if words are left over."""
        rest = self._words[self._at :]
        if rest:
            raise self._error(f"unexpected {shown(' '.join(rest))}")
