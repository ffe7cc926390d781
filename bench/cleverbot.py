"""Measure one level of the computer player with the aibridge harness (issue 24).

Run from the project's root with the harness's python (see its README)::

    SLUGATHON_DIR=... python bench/cleverbot.py hard battles run POSITIONS -o OUT --shard 0/2
    SLUGATHON_DIR=... python bench/cleverbot.py hard games run -o OUT --seeds 1-12

The harness (``AIBRIDGE_DIR``, default ``../shared/aibridge`` beside the project) calls
``engine.ai.choose_action(state, seat)``; this wrapper imports its script (``battles`` or
``games``), binds that name to :func:`engine.ai.choose_action` at the level asked, and runs
the script's own ``main`` with the remaining arguments. Nothing of the harness is copied.
"""

from __future__ import annotations

import os
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def open_harness() -> Path:
    """Put the project and the harness (``AIBRIDGE_DIR``) on the import path; the
    harness's folder."""
    harness = Path(os.environ.get("AIBRIDGE_DIR", ROOT.parent / "shared" / "aibridge"))
    os.environ.setdefault("TITANBOT_DIR", str(ROOT))
    sys.path[:0] = [str(ROOT), str(harness)]
    return harness


def main() -> int:
    level, script, *rest = sys.argv[1:]
    harness = open_harness()
    from engine.ai import choose_action
    from engine.ai.levels import level_of

    chosen = level_of(level)
    if chosen is None or script not in ("battles", "games"):
        raise SystemExit(f"usage: {sys.argv[0]} easy|normal|hard battles|games ARGS...")
    module = __import__(script)
    module.choose_action = partial(choose_action, level=chosen)
    sys.argv = [str(harness / f"{script}.py"), *rest]
    result: int = module.main()
    return result


if __name__ == "__main__":
    sys.exit(main())
