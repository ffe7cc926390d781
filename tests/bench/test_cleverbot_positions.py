"""Runs of the CleverBot battles sort their positions by who won them in each seat, and give
titanbot's scores in each band of the attacker's strength, worked out from the positions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.bench.scripts import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "cleverbot_positions.py"

#: position → (attacker, defender, the Titans' Power by role); values (Power × Skill):
#: Ogre 12, Troll 16, Cyclops 18, Lion 15, Gargoyle 12, a Titan its Power × 4.
POSITIONS: dict[str, tuple[list[str], list[str], dict[str, int]]] = {
    "pos0": (["Ogre"], ["Cyclops"], {"attacker": 6, "defender": 6}),  # 12 / 18
    "pos1": (["Ogre", "Ogre", "Troll"], ["Titan"], {"attacker": 20, "defender": 12}),  # 40 / 48
    "pos2": (["Titan"], ["Ogre", "Ogre"], {"attacker": 6, "defender": 9}),  # 24 / 24
    "pos3": (["Cyclops", "Ogre"], ["Lion", "Gargoyle"], {"attacker": 6, "defender": 6}),  # 30 / 27
    "pos4": (["Titan"], ["Troll"], {"attacker": 10, "defender": 6}),  # 40 / 16
}

#: position → (winner with titanbot attacking, winner with titanbot defending)
RUN: dict[str, tuple[str | None, str | None]] = {
    "pos0": ("titanbot", "cleverbot"),  # the attacker's
    "pos1": ("cleverbot", "cleverbot"),  # CleverBot's
    "pos2": ("titanbot", "titanbot"),  # titanbot's
    "pos3": ("cleverbot", "titanbot"),  # the defender's
    "pos4": ("titanbot", None),  # drawn
}
#: The same positions under other dice; pos2 fought attacking only.
OTHER_DICE: dict[str, tuple[str | None, str | None]] = {"pos0": ("cleverbot", "titanbot")}


def load() -> ModuleType:
    """The script as a module, without running it (with ``bench/`` on the path, as when
    it is run, for its neighbours)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        return load_script(SCRIPT.name)
    finally:
        sys.path.remove(str(SCRIPT.parent))


def positions_file(path: Path) -> Path:
    found = [
        {"id": pos, "attacker": att, "defender": dfn, "titan_power": titans}
        for pos, (att, dfn, titans) in POSITIONS.items()
    ]
    path.write_text(json.dumps({"positions": found}))
    return path


def run_file(path: Path, run: dict[str, tuple[str | None, str | None]], extra: str = "") -> Path:
    lines = []
    for pos, (attacking, defending) in run.items():
        for role, winner in (("attacker", attacking), ("defender", defending)):
            row = {"id": pos, "titan_side": role, "end": "legion wiped out", "winner": winner}
            lines.append(json.dumps({**row, "error": None}) + "\n")
    if extra:
        row = {"id": extra, "titan_side": "attacker", "end": "time loss", "winner": "titanbot"}
        lines.append(json.dumps({**row, "error": None}) + "\n")
    path.write_text("".join(lines))
    return path


def test_a_positions_strength_is_the_attackers_value_over_the_defenders(tmp_path):
    script = load()
    found = script.strengths(json.loads(positions_file(tmp_path / "p.json").read_text()))
    # each side's Titan at its own Power
    assert found == {"pos0": 12 / 18, "pos1": 40 / 48, "pos2": 1.0, "pos3": 30 / 27, "pos4": 2.5}


def test_positions_are_sorted_by_who_won_and_scored_by_strength_over_runs(tmp_path):
    script = load()
    one = script.rows([run_file(tmp_path / "one.jsonl", RUN)])
    two = script.rows([run_file(tmp_path / "two.jsonl", OTHER_DICE, extra="pos2")])
    assert script.kinds([one]) == {
        "the attacker's": 1,
        "CleverBot's": 1,
        "titanbot's": 1,
        "the defender's": 1,
        "drawn": 1,
    }
    assert script.kinds([one, two])["the defender's"] == 2
    strength = script.strengths(json.loads(positions_file(tmp_path / "p.json").read_text()))
    # a strength on a band's edge (1.0) opens that band; the second run's pos0 counts too,
    # its pos2 (one role only) does not
    assert script.bands([one, two], strength) == [
        ("below 0.8", 2, 0.5, 0.5),
        ("0.8 to 1.0", 1, 0.0, 0.0),
        ("1.0 to 1.25", 2, 0.5, 1.0),
        ("1.6 and over", 1, 1.0, 0.5),
    ]


def test_the_script_prints_the_kinds_and_the_bands(tmp_path):
    shards = [
        run_file(tmp_path / "one.0.jsonl", dict(list(RUN.items())[:2])),
        run_file(tmp_path / "one.1.jsonl", dict(list(RUN.items())[2:])),
    ]
    other = run_file(tmp_path / "two.0.jsonl", OTHER_DICE)
    positions = positions_file(tmp_path / "p.json")
    argv = [*map(str, shards), "--", str(other), "--positions", str(positions)]
    out = subprocess.run(
        [sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, check=True
    ).stdout
    assert "6 positions fought in both roles, in 2 run(s):" in out
    assert "the defender's  2" in out
    assert "below 0.8              2      50.0 %      50.0 %" in out
    assert "1.6 and over           1     100.0 %      50.0 %" in out
