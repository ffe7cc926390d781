"""Where the shared reference material lives (``../shared`` beside the repository)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TITAN_SHARED", REPO.parent / "shared"))
REFERENCE = SHARED / "reference"
CONFORMANCE = SHARED / "conformance"

needs_shared = pytest.mark.skipif(
    not REFERENCE.is_dir(),
    reason=f"the shared reference data ({SHARED}) is not present on this machine",
)


def reference(name: str) -> Any:
    """A reference JSON file, e.g. ``reference("masterboard")``."""
    return json.loads((REFERENCE / f"{name}.json").read_text(encoding="utf-8"))


def conformance_cases(*kinds: str) -> list[dict[str, Any]]:
    """Every shared conformance case of the given kinds (all files, seeds included)."""
    if not CONFORMANCE.is_dir():
        return []
    cases = []
    for path in sorted(CONFORMANCE.glob("*.json")):
        cases += [c for c in json.loads(path.read_text(encoding="utf-8")) if c["kind"] in kinds]
    return cases
