"""The dice commitment: a game's seed, hidden until the end, bound at its start.

When a game starts the bot draws, besides the seed, a secret 128-bit salt, and announces
``SHA-256("titanbot-dice/1:{seed}:{salt}")`` (the seed in decimal, the salt as 32
lowercase hexadecimal digits). At the end it reveals the seed and the salt: anyone can
then recompute the commitment, and replay every die from the seed (:mod:`engine.dice`).
The salt keeps the 62-bit seed from being found by trying every seed against the hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SCHEME = "titanbot-dice/1"
SALT_BITS = 128
SALT_DIGITS = SALT_BITS // 4


def random_salt() -> str:
    """A fresh secret salt: 32 lowercase hexadecimal digits."""
    return f"{secrets.randbits(SALT_BITS):0{SALT_DIGITS}x}"


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed`` and ``salt``: SHA-256 of ``titanbot-dice/1:SEED:SALT``,
    in hexadecimal."""
    return hashlib.sha256(f"{SCHEME}:{seed}:{salt}".encode()).hexdigest()


def commitment_holds(seed: int, salt: str, claimed: str) -> bool:
    """Whether ``claimed`` is the commitment to ``seed`` and ``salt``."""
    return hmac.compare_digest(commitment(seed, salt), claimed.strip().lower())


def start_line(seed: int, salt: str, engine: int) -> str:
    """The start announcement's line: the commitment and the engine's version."""
    return (
        f"Dice commitment: `{commitment(seed, salt)}` (SHA-256, {SCHEME}, engine {engine}). "
        "The seed and salt behind every die are revealed when the game ends."
    )


def reveal_line(seed: int | None, salt: str | None) -> str | None:
    """The end announcement's line: the seed and the salt (None for a game never started)."""
    if seed is None:
        return None
    if salt is None:
        return f"Dice revealed: seed {seed}. `record` gives the whole game."
    return (
        f"Dice revealed: seed {seed}, salt `{salt}` (the start's commitment is SHA-256 of "
        f"`{SCHEME}:{seed}:{salt}`). `record` gives the whole game, to check with "
        "`titanbot verify`."
    )
