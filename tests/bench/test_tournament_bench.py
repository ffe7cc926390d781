"""The tournament benchmark's quick mode runs and reports every figure (not whether the
targets are met: the machine running the tests is shared)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "tournament.py"
FIGURES = (
    r"heat command \(seating\): +[\d.]+ ms \(CPU \d+ ms\)",
    r"every table opened, started: +[\d.]+ ms",
    r"all their news delivered: +[\d.]+ ms",
    r"stub Discord asked: .*open_table 3\b",
    r"games active: 3 of 3; tables playing: 3",
    r"memory: \+-?[\d.]+ MB resident",
    r"allocations peak at \+[\d.]+ MB",
    r"(PASS|FAIL)  heat of 3 tables, opened and started: [\d.]+ s \(target ≤ 5 s",
    r"stored 60 results",
    r"standings of 12 players",
    r"(PASS|FAIL)  standings of 60 games: [\d.]+ s \(target ≤ 1 s",
    r"ratings rebuilt for 12 players",
    r"(PASS|FAIL)  ratings rebuilt from 60 games: [\d.]+ s \(target ≤ 1 s",
    r"apply_rating \(read, rate, write\) +p50 +[\d.]+ ms +p99 +[\d.]+ ms",
    r"rate \(the pure rules\) +p50 +[\d.]+ ms",
    r"targets: \d of 3 met",
)


def test_the_quick_run_reports_every_figure(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--db", str(tmp_path / "dbs")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    missing = [f for f in FIGURES if re.search(f, done.stdout) is None]
    assert not missing, (missing, done.stdout)
    assert sorted(p.name for p in (tmp_path / "dbs").glob("*.sqlite3")) == [
        "heat-traced.sqlite3",
        "heat.sqlite3",
        "results.sqlite3",
    ]
