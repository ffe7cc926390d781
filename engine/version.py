"""The engine's version for replays: bumped by hand whenever a change of the rules (or of
the dice, or of the events' encoding) makes an old action log replay differently.

A public game record names the version that played it (``docs/record-format.md``); a
record of another version cannot be checked by this engine.
"""

from __future__ import annotations

ENGINE_VERSION = 1
