"""Snapshot checksums: SHA-256 over the game id, the action count and the state text.

A snapshot is only a shortcut: the truth is the seed and the action log. Its checksum,
written with it, tells on load whether the stored text is still what was written; a
snapshot that fails it (or has none: those written before migration 2) is not trusted,
and the game is replayed from an earlier trusted snapshot or from the seed instead.
The checksum guards against accidents (a bad write, a hand edit), not against someone
who rewrites the file on purpose: they can recompute it.
"""

from __future__ import annotations

import hashlib

_DOMAIN = b"titanbot snapshot 1\0"


def snapshot_checksum(game_id: int, n: int, state: str) -> str:
    """The hex SHA-256 of a snapshot of game ``game_id`` after ``n`` actions."""
    digest = hashlib.sha256(_DOMAIN)
    digest.update(f"{game_id}\0{n}\0".encode())
    digest.update(state.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def checksum_holds(game_id: int, n: int, state: str, checksum: str | None) -> bool:
    """Whether ``checksum`` is present and matches the snapshot."""
    return checksum is not None and checksum == snapshot_checksum(game_id, n, state)
