"""Every shared conformance case of the kinds the engine answers, through the runner."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.conformance import Unsupported, answer_case, check
from tests.shared import CONFORMANCE, conformance_cases

#: The kinds the engine answers; every case of these kinds must pass.
ANSWERED_KINDS = (
    "movement",
    "recruit",
    "hexinfo",
    "misc",
    "maneuver",
    "strike",
    "rangestrike",
    "carry",
    "resolve",
)

CASES = conformance_cases(*ANSWERED_KINDS)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    got = answer_case(case)
    assert check(got, case["expect"]) == [], case.get("note")


def test_cases_found():
    assert len(CASES) >= 980


def test_check_compares_lists_as_sets_and_honours_include_exclude():
    assert check({"a": [1, 2]}, {"a": [2, 1]}) == []
    assert check({"a": [1, 2]}, {"a": [1]}) != []
    assert check({"a": [1, 2, 3]}, {"a_include": [3, 1], "a_exclude": [4]}) == []
    assert check({"a": [1, 2, 3]}, {"a_exclude": [2]}) != []
    assert check({"natural": [4, 12]}, {"natural": [12, 4]}) != []
    assert check({"x": {"k": [["b", "a"]]}}, {"x": {"k": [["a", "b"]]}}) == []


def test_unknown_kind_is_unsupported():
    with pytest.raises(Unsupported):
        answer_case({"id": "x", "kind": "no-such-kind", "input": {}})


def test_runner_cli_prints_a_line_per_case_and_a_summary(tmp_path):
    cases = [c for c in json.loads((CONFORMANCE / "misc.json").read_text())][:5]
    cases.append({"id": "bogus", "kind": "no-such-kind", "input": {}, "expect": {}})
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    run = subprocess.run(
        [sys.executable, "-m", "engine.conformance", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = run.stdout.strip().splitlines()
    assert len(lines) == len(cases) + 1
    assert json.loads(lines[-2]) == {
        "id": "bogus",
        "unsupported": "unknown case kind 'no-such-kind'",
    }
    assert lines[-1] == "5 passed, 1 failed"
    assert run.returncode == 1
