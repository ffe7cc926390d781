"""``/titan info``: the board, the battle, the status, history and look-ups (only you see
the answers); ``/titan game``: withdrawing, the time limit and showing a legion."""

from __future__ import annotations

import asyncio
import logging

from discord import app_commands

from bot.discord import specs as s
from bot.discord.host import TitanInteraction, place_of
from bot.discord.runner import AUTOCOMPLETE_BUDGET, completer, run_command
from engine.characters import CHARACTERS

log = logging.getLogger(__name__)


async def _creatures(interaction: TitanInteraction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().casefold()
    names = [name for name in sorted(CHARACTERS) if name.casefold().startswith(typed)]
    return [app_commands.Choice(name=name, value=name) for name in names[:25]]


async def _own_characters(
    interaction: TitanInteraction, current: str
) -> list[app_commands.Choice[str]]:
    """For the caller's own legion chosen in ``legion``: all its characters, then each
    kind of them (only the caller sees them, and only his own legion)."""
    try:
        async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
            game = await interaction.client.service.game_in(place_of(interaction).channel)
    except Exception:
        log.warning("autocomplete of reveal characters failed", exc_info=True)
        return []
    state = game.state if game is not None else None
    seat = game.seat_of(interaction.user.id) if game is not None else None
    marker = str(getattr(interaction.namespace, "legion", None) or "").strip()
    legion = state.legions.get(marker[:1].upper() + marker[1:].lower()) if state else None
    if legion is None or legion.owner != seat:
        return []
    typed = current.strip().casefold()
    found = [" ".join(legion.characters), *dict.fromkeys(legion.characters)]
    found = [v for v in dict.fromkeys(found) if typed in v.casefold()]
    return [app_commands.Choice(name=v[:100], value=v[:100]) for v in found[:25]]


class InfoCommands(app_commands.Group, name="info", description="Boards, status and look-ups"):
    """Information: it changes nothing and only the caller sees it."""

    @app_commands.command(description="The masterboard and the legions you may see")
    async def board(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.BOARD)

    @app_commands.command(description="The battle being fought in this channel")
    async def battle(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.BATTLE)

    @app_commands.command(description="Turn, phase, scores and who must act")
    async def status(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.STATUS)

    @app_commands.command(description="The last things that happened")
    @app_commands.describe(count="how many actions (default 10, at most 50)")
    async def history(
        self, interaction: TitanInteraction, count: app_commands.Range[int, 1, 50] | None = None
    ) -> None:
        await run_command(interaction, s.HISTORY, count=count)

    @app_commands.command(description="Every command you may give now")
    async def legal(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.LEGAL)

    @app_commands.command(description="A character's factors and where it is mustered")
    @app_commands.autocomplete(name=_creatures)
    async def creature(self, interaction: TitanInteraction, name: str) -> None:
        await run_command(interaction, s.CREATURE, name=name)

    @app_commands.command(description="A land: its terrain, exits, recruits and legions")
    async def land(
        self, interaction: TitanInteraction, number: app_commands.Range[int, 1, 999]
    ) -> None:
        await run_command(interaction, s.LAND, number=number)

    @app_commands.command(description="The command language, as the console reads it")
    async def help(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.HELP)


class GameCommands(app_commands.Group, name="game", description="The whole game"):
    """Leaving the game, the agreed time limit, and showing a legion: at any time."""

    @app_commands.command(description="Concede the whole game (RULES §12.4)")
    async def withdraw(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.WITHDRAW)

    @app_commands.command(description="Declare the agreed time limit expired (errata 21.1)")
    async def expire(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.EXPIRE)

    @app_commands.command(description="Show one of your legions, or some of it, to everyone")
    @app_commands.describe(
        legion="the legion to show", characters="which of its characters (default: all)"
    )
    @app_commands.autocomplete(legion=completer(s.REVEAL, "legion"), characters=_own_characters)
    async def reveal(
        self, interaction: TitanInteraction, legion: str, characters: str | None = None
    ) -> None:
        await run_command(interaction, s.REVEAL, legion=legion, characters=characters)
