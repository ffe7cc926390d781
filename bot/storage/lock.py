"""One process per database file: an exclusive OS lock on ``<database>.lock`` beside it.

Every process caches the games it loads, so a second process writing the same file would
act on stale games (an acknowledged join lost, valid moves refused). The lock is an
``flock`` held as long as the :class:`~bot.storage.Database` is open; the kernel drops it
when the process ends in any way (a crash or SIGKILL included), so a restarted process
gets it without any clean-up. The lock file holds the owner's pid for the refusal message
and is left in place (removing it could let two processes lock two different files).

The lock is per open file, not per process: a second ``Database`` on the same file in the
same process is refused as well (deliberately: it would have its own stale cache too).
``flock`` works on local disks; do not put the database on a network share.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


class DatabaseInUse(RuntimeError):
    """Another process (or another open ``Database``) holds the file's lock."""

    def __init__(self, database: Path, pid: int | None) -> None:
        holder = f"pid {pid}" if pid is not None else "its pid unknown"
        super().__init__(
            f"the database {database} is in use by another titanbot process ({holder}): "
            "stop that one first (one process per database file)"
        )
        self.database = database
        self.pid = pid


def lock_path(database: Path) -> Path:
    """Where the lock of ``database`` lives: beside the real file (symlinks resolved)."""
    real = database.resolve()
    return real.with_name(real.name + ".lock")


class FileLock:
    """An exclusive lock on a database file, held until :meth:`release`."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def acquire(cls, database: Path) -> FileLock:
        """Lock ``database``; :class:`DatabaseInUse` at once when another holds it."""
        path = lock_path(database)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _pid_in(descriptor)
            os.close(descriptor)
            raise DatabaseInUse(database.resolve(), pid) from None
        except BaseException:
            os.close(descriptor)
            raise
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        return cls(path, descriptor)

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def release(self) -> None:
        """Unlock (idempotent); the lock file stays."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        with contextlib.suppress(OSError):
            fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)


def _pid_in(descriptor: int) -> int | None:
    """The pid the holder wrote (None while it is still writing it, or unreadable)."""
    try:
        text = os.pread(descriptor, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
