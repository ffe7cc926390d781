"""The quick tier (``pytest -m quick``) names only test files that exist, and holds the
engine's and the conformance tests, so a rename cannot empty the inner loop silently."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST, QUICK

ROOT = Path(__file__).resolve().parent.parent


def test_each_quick_prefix_names_test_files_that_exist() -> None:
    files = [p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")]
    for prefix in QUICK:
        assert any(f.startswith(prefix) for f in files), prefix


def test_the_quick_tier_holds_the_engine_and_the_conformance_cases() -> None:
    assert "tests/engine/" in QUICK
    assert any("tests/test_conformance.py".startswith(prefix) for prefix in QUICK)


def test_each_of_the_longest_files_exists() -> None:
    for name in LONGEST:
        assert (ROOT / name).is_file(), name
