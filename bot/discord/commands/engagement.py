"""``/titan engagement``: choose the next engagement, negotiate, and what follows it."""

from __future__ import annotations

from typing import Literal

from discord import app_commands

from bot.discord import specs as s
from bot.discord.host import TitanInteraction
from bot.discord.runner import completer, run_command


class EngagementCommands(
    app_commands.Group, name="engagement", description="Engage, flee, negotiate, fight"
):
    """Engagements before and after a battle (RULES §5, §7.1)."""

    @app_commands.command(description="Resolve the engagement in a land next")
    @app_commands.autocomplete(land=completer(s.ENGAGE, "land"))
    async def engage(self, interaction: TitanInteraction, land: str) -> None:
        await run_command(interaction, s.ENGAGE, land=land)

    @app_commands.command(description="Flee with the defending legion")
    async def flee(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.FLEE)

    @app_commands.command(description="Fight the battle out")
    async def fight(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.FIGHT)

    @app_commands.command(description="Propose who is eliminated (and what the survivor loses)")
    @app_commands.describe(
        eliminate="the legion eliminated, or both", lose="characters the survivor gives up"
    )
    async def propose(
        self,
        interaction: TitanInteraction,
        eliminate: Literal["attacker", "defender", "both"],
        lose: str | None = None,
    ) -> None:
        await run_command(interaction, s.PROPOSE, eliminate=eliminate, lose=lose)

    @app_commands.command(description="Accept your opponent's proposal")
    @app_commands.autocomplete(number=completer(s.ACCEPT, "number"))
    async def accept(self, interaction: TitanInteraction, number: str) -> None:
        await run_command(interaction, s.ACCEPT, number=number)

    @app_commands.command(description="Concede the engagement")
    async def concede(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.CONCEDE)

    @app_commands.command(description="Declare that you make no more proposals")
    async def nomore(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.NOMORE)

    @app_commands.command(description="Take the Angel or Archangel you earned")
    @app_commands.autocomplete(lord=completer(s.ACQUIRE, "lord"))
    async def acquire(self, interaction: TitanInteraction, lord: str) -> None:
        await run_command(interaction, s.ACQUIRE, lord=lord)

    @app_commands.command(description="Give up a summon, reinforcement or acquisition")
    async def decline(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.DECLINE)
