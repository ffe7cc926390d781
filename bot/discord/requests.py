"""One request to Discord, and what its failure means: what may pass (a 5xx, a timeout, a
rate limit discord.py did not absorb) becomes :class:`~bot.outbox.transport.Retry`."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import aiohttp
import discord

from bot.outbox.transport import Retry

SEND_TIMEOUT = 30.0
"""Seconds one request may take before it is tried again."""


async def guarded(request: Any) -> Any:
    """Await one request to Discord; what may pass becomes :class:`Retry`."""
    try:
        async with asyncio.timeout(SEND_TIMEOUT):
            return await request
    except discord.DiscordServerError as exc:
        raise Retry(f"Discord answered {exc.status}") from exc
    except discord.RateLimited as exc:
        raise Retry("rate limited", after=exc.retry_after) from exc
    except discord.HTTPException as exc:
        if exc.status == 429:
            raise Retry("rate limited", after=_retry_after(exc)) from exc
        raise
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        raise Retry(f"no answer from Discord ({type(exc).__name__})") from exc


def _retry_after(exc: discord.HTTPException) -> float | None:
    response = cast(Any, exc.response)
    value = getattr(response, "headers", {}).get("Retry-After") if response else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
