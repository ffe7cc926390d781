"""Autocomplete that is not a legal action's field: creature names, a legion's characters."""

from __future__ import annotations

import asyncio
import logging

from discord import app_commands

from bot.discord.host import TitanInteraction, place_of
from bot.discord.runner import AUTOCOMPLETE_BUDGET
from engine.characters import CHARACTERS

log = logging.getLogger(__name__)


async def creatures(interaction: TitanInteraction, current: str) -> list[app_commands.Choice[str]]:
    """The characters whose names start with what is typed."""
    typed = current.strip().casefold()
    names = [name for name in sorted(CHARACTERS) if name.casefold().startswith(typed)]
    return [app_commands.Choice(name=name, value=name) for name in names[:25]]


async def own_characters(
    interaction: TitanInteraction, current: str
) -> list[app_commands.Choice[str]]:
    """For the caller's own legion chosen in ``legion``: all its characters, then each
    kind of them (only the caller sees them, and only his own legion)."""
    try:
        async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
            service = interaction.client.service
            game = await service.game_in(place_of(interaction).channel)
            seat = await service.seat_for(game, interaction.user.id) if game else None
    except Exception:
        log.warning("autocomplete of reveal characters failed", exc_info=True)
        return []
    state = game.state if game is not None else None
    marker = str(getattr(interaction.namespace, "legion", None) or "").strip()
    legion = state.legions.get(marker[:1].upper() + marker[1:].lower()) if state else None
    if legion is None or legion.owner != seat:
        return []
    typed = current.strip().casefold()
    found = [" ".join(legion.characters), *dict.fromkeys(legion.characters)]
    found = [v for v in dict.fromkeys(found) if typed in v.casefold()]
    return [app_commands.Choice(name=v[:100], value=v[:100]) for v in found[:25]]


async def tournaments(
    interaction: TitanInteraction, current: str
) -> list[app_commands.Choice[str]]:
    """The server's tournaments whose names start with what is typed, then those holding
    it (the newest first); none when the database is slow."""
    try:
        async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
            names = await interaction.client.service.tournament_names(interaction.guild_id)
    except Exception:
        log.warning("autocomplete of tournament names failed", exc_info=True)
        return []
    typed = current.strip().casefold()
    starting = [n for n in names if n.casefold().startswith(typed)]
    found = starting + [n for n in names if typed in n.casefold() and n not in starting]
    return [app_commands.Choice(name=n, value=n) for n in found[:25]]
