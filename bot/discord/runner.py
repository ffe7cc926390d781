"""Running a slash command: defer, ask the service, deliver; and autocomplete.

Every command is deferred first (ephemerally: refusals and answers reach only the caller,
while the news goes to the channel as a new message), then written as a line of the shared
command language and given to the service. A command that could mean several legal
actions (a move with several entry sides) is answered with buttons for each.
Autocomplete never waits on anything slow: it answers from the legal actions within
:data:`AUTOCOMPLETE_BUDGET` seconds, or with no choices.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from bot.discord.components import choices_view
from bot.discord.deliver import deliver_command
from bot.discord.host import TitanInteraction, caller_of, organiser_of, place_of
from bot.discord.specs import Spec, ambiguity, suggestions
from bot.legality import legal
from bot.offers import Offers, offer
from bot.service import GameService
from engine.game.state import GameState
from engine.masterboard import land as land_of

log = logging.getLogger(__name__)

AUTOCOMPLETE_BUDGET = 2.0
"""Seconds an autocomplete may take (Discord allows 3 and it cannot be deferred)."""
Completer = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


async def run_command(
    interaction: TitanInteraction, spec: Spec, *, organiser: bool = False, **values: object
) -> None:
    """Defer, run ``spec`` with the option ``values`` for the caller (as an organiser, for
    ``/titan-admin``: Discord let them through), and deliver."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = interaction.client.service
    place = place_of(interaction)
    caller = organiser_of(interaction) if organiser else caller_of(interaction)
    text = spec.text(values)
    choices = await _readings(service, place.channel, caller.user, spec, values)
    if choices is not None:
        message = f"`{text}` could mean several things: choose one."
        await interaction.edit_original_response(
            content=interaction.client.dialect.render(message), view=choices
        )
        return
    reply_to = interaction.client.reference(interaction, "command", text)
    replies = await service.submit(place, caller, text, reply_to=reply_to)
    await deliver_command(interaction, replies, text)


async def _readings(
    service: GameService, channel: int, user: int, spec: Spec, values: dict[str, object]
) -> discord.ui.View | None:
    """Buttons for each legal action the command could mean, when it could mean several."""
    if not spec.kinds:
        return None
    game = await service.game_in(channel)
    seat = await service.seat_for(game, user) if game is not None else None
    if game is None or game.state is None or seat is None:
        return None
    meant = ambiguity(spec, legal(game.state, seat), values)
    if not meant:
        return None
    return choices_view(Offers(game.id, game.n, tuple(offer(action) for action in meant)))


def completer(spec: Spec, option: str) -> Completer:
    """An autocomplete callback offering the legal values of ``option``."""

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
                return await _choices(interaction, spec, option, current)
        except Exception:
            log.warning("autocomplete of %s %s failed", spec.verb, option, exc_info=True)
            return []

    return complete


async def _choices(
    interaction: TitanInteraction, spec: Spec, option: str, current: str
) -> list[app_commands.Choice[str]]:
    game = await interaction.client.service.game_in(place_of(interaction).channel)
    if game is None or game.state is None:
        return []
    seat = await interaction.client.service.seat_for(game, interaction.user.id)
    if seat is None:
        return []
    values: dict[str, Any] = {name: value for name, value in interaction.namespace}
    found = suggestions(spec, option, legal(game.state, seat), values, current)
    field = spec.word(option).field or ""
    return [app_commands.Choice(name=label(game.state, field, v), value=v) for v in found]


def label(state: GameState, field: str, value: str) -> str:
    """A choice's name: the value, with where a legion stands or a land's terrain."""
    legion = state.legions.get(value)
    if legion is not None:
        return f"{value} in {legion.land} ({land_of(legion.land).terrain}), {legion.height} high"
    if field == "land" and value.isdigit():
        return f"{value} ({land_of(int(value)).terrain})"
    return value[:100]
