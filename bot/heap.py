"""What the process loaded, set aside from the garbage collector once it is started.

A full collection walks every object the collector tracks: the modules, the rules' tables
and the data loaded at start-up (some 45,000 objects) as well as what the games leave in
the engine's memos. It takes tens of milliseconds and may fall on the event loop, where
it holds every command up (``bench/soak.py``'s longest stall). What is alive once the
program is loaded lives as long as the process: :func:`settle` collects once, then
freezes it out of the later collections (:func:`gc.freeze`; a forked painter process
then shares those pages with its parent instead of copying them when it is collected).
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect, then set aside everything alive now. Call it once, when the process has
    loaded what it runs on and before it serves: what is frozen is never collected."""
    gc.collect()
    gc.freeze()
