"""Player names and Discord display names: what a name may hold, when two are the same,
and how a display name is shown.

A player name is drawn from a safe alphabet: letters and their accents, digits, spaces,
and ``'``, ``-`` and ``.`` after its first letter or digit. It holds no markdown, no
mention and nothing invisible, so it is shown as it is everywhere: narration, lobby texts,
DMs, pictures, the terminal. Escaping at every place a name is shown would put backslashes
into pictures and terminal lines and would have to be remembered by every new text; the
alphabet is checked once, where a seat is taken. Discord display names, which nobody
chose for us, are escaped (:func:`display`) when shown and cleaned into the alphabet
(:func:`clean`) when they become a seat's default name.

Two names are the same when their :func:`name_key` is: NFKC, case folding and the
look-alike letters of ``bot/data/confusables.toml``, so ``Ноst`` (Cyrillic) or ``Ｈｏｓｔ``
cannot sit beside ``Host``.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Sequence
from functools import cache
from importlib import resources

from engine.errors import InvalidNotation

MAX_NAME = 32
"""The most characters of a player name."""
MAX_MARKS = 4
"""The most accents (combining marks) on one letter: enough for any script, not for the
towers of marks that spill over other lines."""
PUNCTUATION = frozenset("'-.")
"""The punctuation a player name may hold (none of it is markdown inside a line)."""
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Controls, format characters (bidi overrides, zero-width spaces and joiners, soft hyphen),
private-use, surrogates, unassigned code points, line and paragraph separators."""
INVISIBLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers, blank letters
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b\u180c\u180d\u180f"  # Mongolian variation selectors
    "\u2800"  # braille blank
) | frozenset(chr(c) for c in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
"""Invisible code points outside :data:`INVISIBLE_CATEGORIES` (variation selectors too)."""
_LETTER_OR_DIGIT = ("L", "Nd")
_MARKS = frozenset({"Mn", "Mc"})
_SEPARATORS = PUNCTUATION | {" "}


@cache
def confusables() -> dict[str, str]:
    """The look-alike table of ``bot/data/confusables.toml`` (read once)."""
    text = resources.files("bot").joinpath("data/confusables.toml").read_text(encoding="utf-8")
    return read_confusables(text)


def read_confusables(text: str) -> dict[str, str]:
    """A look-alike table: a character (as after case folding) → the letter it passes for.

    Raises :class:`ValueError` when it is malformed: a key that is not one character, a
    value that is not one ASCII lowercase letter, a key given twice or used as a value.
    """
    table: dict[str, str] = {}
    for group, pairs in tomllib.loads(text).items():
        if not isinstance(pairs, dict):
            raise ValueError(f"confusables: {group!r} is not a table of letters")
        for key, value in pairs.items():
            if len(key) != 1 or key in table:
                raise ValueError(f"confusables [{group}]: bad or repeated key {key!r}")
            if not (isinstance(value, str) and len(value) == 1 and "a" <= value <= "z"):
                raise ValueError(f"confusables [{group}]: {key!r} must fold to one ASCII letter")
            table[key] = value
    if clash := set(table) & set(table.values()):
        raise ValueError(f"confusables: {sorted(clash)} are both folded and fold targets")
    return table


def describe(char: str) -> str:
    """A character by code point and Unicode name (``U+202E RIGHT-TO-LEFT OVERRIDE``)."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def is_invisible(char: str) -> bool:
    """Whether ``char`` is a control, format or otherwise invisible character."""
    return char in INVISIBLE or unicodedata.category(char) in INVISIBLE_CATEGORIES


def _allowed(char: str) -> bool:
    """Whether ``char`` belongs to the player names' alphabet."""
    category = unicodedata.category(char)
    return category.startswith(_LETTER_OR_DIGIT) or category in _MARKS or char in _SEPARATORS


def _starts_well(char: str) -> bool:
    return unicodedata.category(char).startswith(_LETTER_OR_DIGIT)


def player_name(text: str) -> str:
    """``text`` as a player name (spaces collapsed, NFC), or :class:`InvalidNotation` saying
    why it cannot be one. The message names the bad character, never repeats the name."""
    if bad := next((c for c in text if is_invisible(c)), None):
        raise InvalidNotation(
            f"a player name may not hold invisible or control characters ({describe(bad)})"
        )
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidNotation(f"a player name has 1 to {MAX_NAME} characters")
    if bad := next((c for c in name if not _allowed(c)), None):
        raise InvalidNotation(
            f"a player name holds letters, digits, spaces and ' - . only, not {describe(bad)}"
        )
    if not _starts_well(name[0]):
        raise InvalidNotation("a player name begins with a letter or a digit")
    if _marks_overflow(unicodedata.normalize("NFD", name)):
        raise InvalidNotation(f"a player name has at most {MAX_MARKS} accents on a letter")
    return name


def _marks_overflow(name: str) -> bool:
    """Whether a combining mark of ``name`` (decomposed) is stacked past :data:`MAX_MARKS`
    or follows no letter or digit."""
    run = 0
    for index, char in enumerate(name):
        if unicodedata.category(char) not in _MARKS:
            run = 0
            continue
        run += 1
        if run > MAX_MARKS or index < run or not _starts_well(name[index - run]):
            return True
    return False


def clean(text: str) -> str:
    """A display name made into a player name ("" when nothing of it is usable).

    Invisible characters are dropped, other characters outside the alphabet become spaces,
    the name starts at its first letter or digit, stray or excess accents go, and it is
    cut to :data:`MAX_NAME` characters.
    """
    kept = "".join(
        c if _allowed(c) else " " for c in unicodedata.normalize("NFD", text) if not is_invisible(c)
    )
    chars: list[str] = []
    run = 0
    for char in " ".join(kept.split()):
        if unicodedata.category(char) in _MARKS:
            run += 1
            if run > MAX_MARKS or not chars or not _starts_well(chars[-run]):
                run -= 1
                continue
        else:
            run = 0
        if chars or _starts_well(char):
            chars.append(char)
    joined = " ".join("".join(chars[:MAX_NAME]).split())  # a dropped accent may leave spaces
    return unicodedata.normalize("NFC", joined)


def name_key(name: str) -> str:
    """What two names are compared by: equal keys, names that read the same.

    Invisible characters are ignored; look-alikes are folded before NFKC (which would make
    a lunate sigma a sigma) and after it, letter by letter with accents apart (so ``ё``
    meets ``ë``).
    """
    table = confusables()
    text = "".join(table.get(c, c) for c in name.casefold() if not is_invisible(c))
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    folded = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return " ".join(unicodedata.normalize("NFC", folded).split())


def same_name(one: str, other: str) -> bool:
    """Whether two player names read the same (:func:`name_key`)."""
    return name_key(one) == name_key(other)


def told_apart(names: Sequence[str]) -> list[str]:
    """``names`` in order, each one that reads the same (:func:`name_key`) as an earlier
    one numbered with the lowest number free: ``Ann``, ``Ann 2``, ``Ann 3``. The results
    read differently from each other and stay in the player names' alphabet."""
    taken: set[str] = set()
    shown: list[str] = []
    for name in names:
        told, number = name, 1
        while name_key(told) in taken:
            number += 1
            suffix = f" {number}"
            told = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        taken.add(name_key(told))
        shown.append(told)
    return shown


def display(name: str, fallback: str = "someone") -> str:
    """A Discord display name as text in a message: invisible characters dropped, every
    ASCII punctuation mark escaped with a backslash (no markdown, no mention, no masked
    link), spaces collapsed; ``fallback`` when nothing is left."""
    visible = " ".join("".join(c for c in name if not is_invisible(c)).split())
    escaped = "".join(f"\\{c}" if _is_ascii_punctuation(c) else c for c in visible)
    return escaped or fallback


def _is_ascii_punctuation(char: str) -> bool:
    return char.isascii() and not char.isalnum() and not char.isspace()
