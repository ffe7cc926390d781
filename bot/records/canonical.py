"""The canonical encoding that the commitment and the record digest hash.

A JSON value is written with its object keys sorted (by code point), no whitespace,
strings as themselves (no ``\\u`` escapes but for the characters JSON requires), numbers
as Python writes them (whole numbers in decimal, others in the shortest form that reads
back the same) and UTF-8 bytes. The same value read from any file that holds it — indented
or not, keys in any order — encodes to the same bytes, hence the same digest.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(value: Any) -> bytes:
    """``value`` in the canonical encoding; raises ``ValueError`` for a number that is
    not finite (JSON has none) and ``TypeError`` for anything JSON cannot hold."""
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8")


def digest(value: Any) -> str:
    """The SHA-256 of ``value``'s canonical encoding, in lowercase hexadecimal."""
    return hashlib.sha256(canonical(value)).hexdigest()
