"""The engine speed bench times a recorded corpus: the same battle states on every version
of the engine, whatever the computer players would choose today (issue 24)."""

from __future__ import annotations

import json
from types import ModuleType

from tests.bench.scripts import load_script
from tests.engine.battle.corpus import fought, random_starts, replayed


def load() -> ModuleType:
    """The script as a module, without running it."""
    return load_script("engine.py")


def test_replaying_the_actions_rebuilds_every_state():
    start = random_starts(11, 1)[3]
    played = list(fought(start))
    assert len(played) > 20
    again = list(replayed(start, [action for _, action in played]))
    assert again == [battle for battle, _ in played]


def test_a_recorded_corpus_reads_back_as_it_was_fought(tmp_path):
    bench = load()
    starts = random_starts(5, 1)[:2]
    path = tmp_path / "corpus.json"
    bench.record(path, "random_starts(5)", starts)
    source, read, states = bench.replay(path)
    assert (source, read) == ("random_starts(5)", starts)
    assert states == [battle for start in starts for battle, _ in fought(start)]


def test_the_baseline_was_taken_on_the_recorded_corpus():
    bench = load()
    source, starts, states = bench.replay(bench.CORPUS)
    baseline = json.loads(bench.BASELINE.read_text(encoding="utf-8"))
    found = bench.digest([(b.position, b.step, b.phasing, b.off_board) for b in states])
    assert baseline["corpus"] == {
        "source": source,
        "starts": len(starts),
        "battles": len(states),
        "digest": found,
    }
    assert len({start.terrain for start in starts}) == 11
