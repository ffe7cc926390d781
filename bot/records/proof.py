"""The game's commitment, bound at its start, and the record digest announced at its end.

When a game starts the bot draws a 128-bit seed and a secret 128-bit salt and writes the
**pledge**: the game's identity (server, channel, game number, start time), its seats
(user ids and names, in order), the settings that shape play, the engine's version, the
seed and the salt. The start announces its SHA-256 in the canonical encoding
(:mod:`bot.records.canonical`): the commitment, scheme ``titanbot-game/2``. The end reveals
the seed and the salt and announces the digest of the complete public record. Anyone can
then check that the record is the game committed to, and that nothing in it was changed
(``titanbot verify``, :mod:`bot.records.check_record`).

Games started before this scheme committed to the seed and salt alone (``titanbot-dice/1``:
SHA-256 of ``titanbot-dice/1:{seed}:{salt}``): their commitment binds the dice only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from bot.records.canonical import canonical, digest
from bot.storage.games import SeatRow
from bot.storage.record import Settings
from engine.codec import encode

GAME_SCHEME = "titanbot-game/2"
DICE_SCHEME = "titanbot-dice/1"
SALT_BITS = 128
SALT_DIGITS = SALT_BITS // 4
DIGEST_DIGITS = 64


def random_salt() -> str:
    """A fresh secret salt: 32 lowercase hexadecimal digits."""
    return f"{secrets.randbits(SALT_BITS):0{SALT_DIGITS}x}"


def commitment(seed: int, salt: str) -> str:
    """The ``titanbot-dice/1`` commitment to ``seed`` and ``salt`` (games started before
    ``titanbot-game/2``): SHA-256 of ``titanbot-dice/1:SEED:SALT``, in hexadecimal."""
    return hashlib.sha256(f"{DICE_SCHEME}:{seed}:{salt}".encode()).hexdigest()


def commitment_holds(seed: int, salt: str, claimed: str) -> bool:
    """Whether ``claimed`` is the ``titanbot-dice/1`` commitment to ``seed`` and ``salt``."""
    return same_digest(commitment(seed, salt), claimed)


def same_digest(mine: str, claimed: str) -> bool:
    """Whether two hexadecimal digests are the same (case and spaces aside)."""
    return hmac.compare_digest(mine.encode(), claimed.strip().lower().encode())


def players_json(seats: tuple[SeatRow, ...] | list[SeatRow]) -> list[dict[str, Any]]:
    """The seats as the pledge and the record list them, in seat order."""
    return [
        {"seat": s.seat, "name": s.name, "user": None if s.is_ai else str(s.user), "ai": s.is_ai}
        for s in sorted(seats, key=lambda s: s.seat)
    ]


def settings_json(settings: Settings) -> dict[str, Any]:
    """The settings that shape play, as the pledge and the record give them."""
    return {
        "players": settings.players,
        "record_keeping": settings.record_keeping,
        "time_limit": settings.time_limit,
        "time_limit_ends": settings.timing.expires_at,
        "options": encode(settings.options),
    }


def pledge(
    *,
    game: int,
    guild: str | None,
    channel: str,
    started_at: str | None,
    players: Any,
    settings: Any,
    engine: Any,
    seed: str,
    salt: str,
) -> dict[str, Any]:
    """What the ``titanbot-game/2`` commitment binds (ids and the seed in decimal text)."""
    return {
        "scheme": GAME_SCHEME,
        "game": game,
        "guild": guild,
        "channel": channel,
        "started_at": started_at,
        "players": players,
        "settings": settings,
        "engine": engine,
        "seed": seed,
        "salt": salt,
    }


def starting_pledge(
    game: int,
    place: tuple[int | None, int],
    started_at: str,
    seats: tuple[SeatRow, ...],
    settings: Settings,
    dice: tuple[int, str, int],
) -> str:
    """The pledge of a game starting now, in the canonical encoding (stored with the
    game): ``place`` is its (guild, channel), ``dice`` the (seed, salt, engine)."""
    guild, channel = place
    seed, salt, engine = dice
    document = pledge(
        game=game,
        guild=None if guild is None else str(guild),
        channel=str(channel),
        started_at=started_at,
        players=players_json(seats),
        settings=settings_json(settings),
        engine=engine,
        seed=str(seed),
        salt=salt,
    )
    return canonical(document).decode("utf-8")


def game_commitment(stored_pledge: str) -> str:
    """The commitment announced for a stored pledge."""
    return digest(json.loads(stored_pledge))


def start_line(announced: str, engine: int) -> str:
    """The start announcement's line: the commitment and the engine's version."""
    return (
        f"Game commitment: `{announced}` (SHA-256, {GAME_SCHEME}, engine {engine}): it binds "
        "this game's server, channel, number, start, seats, settings and dice. The seed and "
        "salt are revealed when the game ends."
    )


def reveal_line(seed: int | None, salt: str | None, scheme: str | None = DICE_SCHEME) -> str | None:
    """The end announcement's line: the seed and the salt (None for a game never started)."""
    if seed is None:
        return None
    if salt is None:
        return f"Dice revealed: seed {seed}. `record` gives the whole game."
    if scheme == GAME_SCHEME:
        return (
            f"Dice revealed: seed {seed}, salt `{salt}`. `record` gives the whole game, to "
            "check with `titanbot verify RECORD --commitment … --record-digest …`."
        )
    return (
        f"Dice revealed: seed {seed}, salt `{salt}` (the start's commitment is SHA-256 of "
        f"`{DICE_SCHEME}:{seed}:{salt}`). `record` gives the whole game, to check with "
        "`titanbot verify`."
    )


def digest_line(record_digest: str) -> str:
    """The end announcement's line after the reveal: the digest of the public record."""
    return (
        f"Record digest: `{record_digest}` (SHA-256 of the canonical record, "
        f"{GAME_SCHEME}): the record `record` gives has exactly this digest."
    )


def scheme_of(pledged: str | None, salt: str | None) -> str | None:
    """The commitment scheme of a stored game: its pledge, its salt alone, or none."""
    if pledged is not None:
        return GAME_SCHEME
    return DICE_SCHEME if salt is not None else None


SEED_BITS = 128
"""Bits of a game's seed: too many to be found by testing guesses against public dice."""


def random_seed() -> int:
    """A fresh game seed of 128 bits (drawn when a game starts, then stored)."""
    return secrets.randbits(SEED_BITS)
