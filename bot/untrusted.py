"""Reading files that anyone may have made: bounded in size and in nesting.

A record, an export or a config file may come from anywhere. Each reader here refuses,
with :class:`UnsafeInput` and a plain reason, a file larger than its caller allows (a
gzip stream is unpacked only up to that size), and JSON nested deeper than
:data:`MAX_DEPTH` — before Python's parser or any walk over the value could run out of
stack. Nothing is read past the limit.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted (a record's is below 10)."""
CHUNK = 1 << 20


class UnsafeInput(ValueError):
    """The input is too large or too deeply nested to be read (the reason says which)."""


def read_bounded(path: Path, most: int) -> bytes:
    """The bytes of the file at ``path``, when it has at most ``most``.

    Raises :class:`UnsafeInput` for a larger one and ``OSError`` when it cannot be read.
    """
    with path.open("rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > most:
            raise UnsafeInput(f"it has {size} bytes, more than the {most} allowed")
        data = file.read(most + 1)  # the file may have grown since
    if len(data) > most:
        raise UnsafeInput(f"it has more than the {most} bytes allowed")
    return data


def gunzip(data: bytes, most: int) -> bytes:
    """The one gzip stream ``data`` holds, unpacked, when it unpacks to at most ``most``
    bytes. Raises :class:`UnsafeInput` for more, ``zlib.error`` or ``EOFError`` for
    bytes that are not one whole gzip stream."""
    unpacker = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    parts: list[bytes] = []
    size = 0
    pending = data
    while pending and not unpacker.eof:
        part = unpacker.decompress(pending, CHUNK)
        size += len(part)
        if size > most:
            raise UnsafeInput(f"it unpacks to more than the {most} bytes allowed")
        parts.append(part)
        pending = unpacker.unconsumed_tail
    if not unpacker.eof:
        raise EOFError("the gzip stream is cut short")
    if unpacker.unused_data:
        raise zlib.error("there are bytes after the gzip stream")
    return b"".join(parts)


def parse_json(data: bytes | str, depth: int = MAX_DEPTH) -> Any:
    """The JSON value in ``data`` (UTF-8 when bytes), nested at most ``depth`` deep.

    Raises :class:`UnsafeInput` for deeper nesting, ``ValueError`` (or
    ``UnicodeDecodeError``) for anything that is not JSON.
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    try:
        value = json.loads(text)
    except RecursionError:  # the parser counts its depth: far deeper than allowed
        raise UnsafeInput(f"it is nested more than {depth} deep, the most allowed") from None
    if nesting(value, depth) > depth:
        raise UnsafeInput(f"it is nested more than {depth} deep, the most allowed")
    return value


def loads(text: str | bytes) -> Any:
    """``json.loads`` of text that is trusted in size (a stored row) but not in nesting:
    JSON nested deeper than the parser can go raises :class:`UnsafeInput` (a
    ``ValueError``, as for any unreadable JSON) instead of ``RecursionError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise UnsafeInput("it is nested deeper than JSON can be read here") from None


def nesting(value: Any, most: int = MAX_DEPTH) -> int:
    """How deep the lists and dicts of ``value`` nest, counted up to ``most + 1`` (no
    recursion: any depth is measured)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > most:
            return deepest
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest
