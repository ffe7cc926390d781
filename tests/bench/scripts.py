"""Loading a benchmark script of ``bench/`` as a module, without running it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_script(filename: str) -> ModuleType:
    """``bench/<filename>`` as a module: its ``main`` not run, and neither ``bench/`` (which
    a script may put on the path to import its neighbours) nor the module left behind in
    ``sys.path`` and ``sys.modules``."""
    name = f"{Path(filename).stem}_bench"
    spec = importlib.util.spec_from_file_location(name, BENCH / filename)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    path = list(sys.path)
    sys.modules[name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = path
        del sys.modules[name]
    return module
