"""The throwaway server of the tests: its absence is a failure with a reason, never a skip."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import pg


def test_no_server_binaries_is_an_error_that_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(pg, "_SEARCHED", str(tmp_path / "postgresql" / "*" / "bin"))
    with pytest.raises(pg.ServerUnavailable, match="no initdb and pg_ctl"):
        pg.find_bin()


def test_the_server_listens_on_its_folders_socket_only(pg_server: pg.Server) -> None:
    assert list(pg_server.folder.glob(".s.PGSQL.*"))
    assert "host=" in pg_server.dsn() and "localhost" not in pg_server.dsn()
