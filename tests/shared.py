"""Where the shared reference material lives: ``../shared`` beside the repository (or
``$TITAN_SHARED``) when it is there, else the tests' own copy in ``tests/shared_copy``.

The copy is refreshed by ``tools/refresh_shared.py``; when both exist, a test checks the
copy equals the original, so every test runs on a fresh clone and a stale copy fails.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ORIGINAL = Path(os.environ.get("TITAN_SHARED", REPO.parent / "shared"))
COPY = REPO / "tests" / "shared_copy"


def present(root: Path) -> bool:
    """Whether ``root`` holds the material the tests read."""
    needed = (root / "RULES.md", root / "reference", root / "conformance")
    return all(path.exists() for path in needed)


SHARED = ORIGINAL if present(ORIGINAL) else COPY
REFERENCE = SHARED / "reference"
CONFORMANCE = SHARED / "conformance"


def reference(name: str) -> Any:
    """A reference JSON file, e.g. ``reference("masterboard")``."""
    return json.loads((REFERENCE / f"{name}.json").read_text(encoding="utf-8"))


def conformance_cases(*kinds: str) -> list[dict[str, Any]]:
    """Every shared conformance case of the given kinds (all files, seeds included)."""
    cases = []
    for path in sorted(CONFORMANCE.glob("*.json")):
        cases += [c for c in json.loads(path.read_text(encoding="utf-8")) if c["kind"] in kinds]
    return cases
