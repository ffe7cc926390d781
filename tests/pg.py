"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary folder.

The server binaries (``initdb``, ``pg_ctl``) are found on PATH or under
``/usr/lib/postgresql/*/bin``. PostgreSQL refuses to run as root: then the cluster belongs
to the unprivileged user ``nobody`` and its commands run through ``runuser``. The server
listens only on a Unix socket in the cluster's folder (no TCP port), trusts whoever
connects to it there, and is stopped and deleted when the tests end. Anything missing or
failing raises :class:`ServerUnavailable`, so that the tests fail, never skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "titan"
UNPRIVILEGED = "nobody"
_SEARCHED = "/usr/lib/postgresql/*/bin"


class ServerUnavailable(RuntimeError):
    """No PostgreSQL server could be started for the tests."""


@dataclass(frozen=True)
class Server:
    """A running throwaway server: its folder (holding the socket) and its superuser."""

    folder: Path
    user: str = SUPERUSER

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@/{database}?host={self.folder}"


def find_bin() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl`` (PATH first, then the newest installed
    under ``/usr/lib/postgresql``)."""
    on_path = shutil.which("initdb")
    if on_path is not None:
        folder = Path(on_path).resolve().parent
        if (folder / "pg_ctl").is_file():
            return folder
    for candidate in sorted(glob.glob(_SEARCHED), key=_version_key, reverse=True):
        folder = Path(candidate)
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise ServerUnavailable(
        f"the PostgreSQL tests need a server: no initdb and pg_ctl on PATH or in {_SEARCHED} "
        "(on Debian: apt-get install postgresql)"
    )


def _version_key(path: str) -> tuple[int, ...]:
    major = Path(path).parent.name
    return tuple(int(part) for part in major.split(".") if part.isdigit())


def _runner() -> tuple[list[str], int | None]:
    """The prefix that runs a server command, and the uid to own the cluster (None: us)."""
    if os.geteuid() != 0:
        return [], None
    try:
        uid = pwd.getpwnam(UNPRIVILEGED).pw_uid
    except KeyError as missing:
        raise ServerUnavailable(
            f"running as root, and there is no user {UNPRIVILEGED!r} to run PostgreSQL as"
        ) from missing
    runuser = shutil.which("runuser")
    if runuser is None:
        raise ServerUnavailable("running as root, and there is no runuser to drop to nobody")
    return [runuser, "-u", UNPRIVILEGED, "--"], uid


def _run(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise ServerUnavailable(
            f"PostgreSQL's {what} failed ({result.returncode}): "
            f"{(result.stderr or result.stdout).strip()[-2000:]}"
        )


@contextlib.contextmanager
def throwaway_server() -> Iterator[Server]:
    """Start a new cluster in a temporary folder; stop and delete it on leaving."""
    bin_folder = find_bin()
    prefix, uid = _runner()
    # Short: the socket's path must fit in a sockaddr_un (107 bytes).
    folder = Path(tempfile.mkdtemp(prefix="titanpg-"))
    data = folder / "data"
    started = False
    try:
        if uid is not None:
            os.chown(folder, uid, -1)
        _run(
            [
                *prefix,
                str(bin_folder / "initdb"),
                f"--pgdata={data}",
                f"--username={SUPERUSER}",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
            ],
            "initdb",
        )
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{folder}' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        started = True
        log = folder / "server.log"
        try:
            _run(
                [
                    *prefix,
                    str(bin_folder / "pg_ctl"),
                    "start",
                    "--wait",
                    f"--pgdata={data}",
                    f"--log={log}",
                    f"--options={options}",
                ],
                "start",
            )
        except ServerUnavailable as failed:
            told = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
            raise ServerUnavailable(f"{failed}\nserver log:\n{told}") from None
        yield Server(folder)
    finally:
        if started:
            subprocess.run(
                [*prefix, str(bin_folder / "pg_ctl"), "stop", "--mode=immediate", "-D", data],
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(folder, ignore_errors=True)
