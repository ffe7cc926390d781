"""The tests' copy of the shared material: the tests read ``../shared`` when it is there and
the copy otherwise; the copy equals the original (when both exist) and its checksums; the
refresh tool copies, reports and checks."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from tests.shared import COPY, ORIGINAL, REPO, SHARED, present

TOOL = REPO / "tools" / "refresh_shared.py"


def _tool(*args: str | Path, shared: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if shared is not None:
        env["TITAN_SHARED"] = str(shared)
    command = [sys.executable, str(TOOL), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env)


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_the_tests_read_the_original_when_it_is_there_else_the_copy():
    if present(ORIGINAL):
        assert SHARED == ORIGINAL
        checked = _tool("--check", shared=ORIGINAL)
        assert checked.returncode == 0, f"the copy is stale: run {TOOL.name}\n{checked.stdout}"
    else:
        assert SHARED == COPY
    assert present(SHARED)


def test_the_copy_holds_the_files_its_checksums_list_as_they_are():
    listed = {}
    for line in (COPY / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    assert _files(COPY) == {*listed, "SHA256SUMS"}
    for name, digest in listed.items():
        assert hashlib.sha256((COPY / name).read_bytes()).hexdigest() == digest, name
    assert {"RULES.md", "conformance/seeds.json", "reference/masterboard.json"} <= set(listed)


def _source(root: Path) -> Path:
    for name, text in {
        "RULES.md": "# rules",
        "conformance/moves.json": "[]",
        "conformance/README.md": "cases",
        "reference/board.json": "{}",
        "reference/notes.txt": "not kept",
        "hooks/before-stop": "not kept",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_tool_copies_the_kept_files_and_finds_a_stale_copy(tmp_path):
    source, copy = _source(tmp_path / "shared"), tmp_path / "copy"
    made = _tool(source, "--into", copy)
    assert made.returncode == 0 and "added RULES.md" in made.stdout
    assert _files(copy) == {
        "RULES.md",
        "conformance/moves.json",
        "conformance/README.md",
        "reference/board.json",
        "SHA256SUMS",
    }
    assert _tool("--check", source, "--into", copy).returncode == 0
    (source / "conformance" / "moves.json").write_text("[1]", encoding="utf-8")
    (source / "reference" / "board.json").unlink()
    (copy / "reference" / "extra.json").write_text("{}", encoding="utf-8")
    stale = _tool("--check", source, "--into", copy)
    assert stale.returncode == 1
    assert stale.stdout.splitlines() == [
        "not in the source: reference/board.json",
        "not in the source: reference/extra.json",
        "differs: conformance/moves.json",
    ]
    again = _tool(source, "--into", copy)
    assert "updated conformance/moves.json" in again.stdout
    assert "removed reference/extra.json" in again.stdout
    assert _tool("--check", source, "--into", copy).returncode == 0
    assert (copy / "conformance" / "moves.json").read_text(encoding="utf-8") == "[1]"


def test_the_tool_finds_an_edited_copy_by_its_checksums_and_refuses_no_source(tmp_path):
    source, copy = _source(tmp_path / "shared"), tmp_path / "copy"
    _tool(source, "--into", copy)
    (copy / "SHA256SUMS").write_text("", encoding="utf-8")
    assert _tool("--check", source, "--into", copy).stdout.strip() == (
        "SHA256SUMS does not list the files as they are"
    )
    missing = _tool("--check", "--into", copy, shared=tmp_path / "nowhere")
    assert missing.returncode == 2 and "no shared material" in missing.stderr
