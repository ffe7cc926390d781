"""A script's output in processes that hash strings differently (``PYTHONHASHSEED``):
whatever must come out alike wherever it runs (replays, the computer's choices) must not
hang on the order of a set or a dict built from one."""

from __future__ import annotations

import os
import subprocess
import sys


def outputs_under_hash_seeds(script: str, seeds: range) -> set[str]:
    """The distinct outputs of ``python -c script`` under each hash seed of ``seeds``."""
    return {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in seeds
    }
