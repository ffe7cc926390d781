"""What storage raises that its callers act on, whichever database is behind it."""

from __future__ import annotations


class LostRace(Exception):
    """Another writer (another process, on a shared database) changed the game first, or
    the database gave up one of two transactions in conflict: nothing of this one was
    stored. Reload and try again, or refuse."""

    def __init__(self, what: str) -> None:
        super().__init__(f"lost a race: {what}")
        self.what = what
