"""``/titan battle``: maneuver, strike, carry over, rangestrike, summon, reinforce, concede."""

from __future__ import annotations

from discord import app_commands

from bot.discord import specs as s
from bot.discord.host import TitanInteraction
from bot.discord.runner import completer, run_command


class BattleCommands(app_commands.Group, name="battle", description="Fight a battle"):
    """A battle on its battleland (RULES §8–§11); hexes are written like ``D4``."""

    @app_commands.command(description="Move a character (name it to bring it onto the board)")
    @app_commands.describe(character="its hex, or its name when off the board", to="the hex")
    @app_commands.autocomplete(
        character=completer(s.MANEUVER, "character"), to=completer(s.MANEUVER, "to")
    )
    async def maneuver(self, interaction: TitanInteraction, character: str, to: str) -> None:
        await run_command(interaction, s.MANEUVER, character=character, to=to)

    @app_commands.command(description="Take back a maneuver (and every later one)")
    @app_commands.describe(hex="the hex where the maneuver ended")
    @app_commands.autocomplete(hex=completer(s.UNDO, "hex"))
    async def takeback(self, interaction: TitanInteraction, hex: str) -> None:
        await run_command(interaction, s.UNDO, hex=hex)

    @app_commands.command(description="End your maneuvers or strikes, or pass a chance")
    async def done(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.DONE)

    @app_commands.command(description="Strike an enemy in contact (or strike back)")
    @app_commands.describe(
        striker="the hex of your striking character",
        target="the hex of the enemy",
        dice="fewer dice than your power, to carry over (RULES §9.5)",
        strike_number="a higher strike number, to carry over (RULES §9.5)",
    )
    @app_commands.autocomplete(
        striker=completer(s.STRIKE, "striker"),
        target=completer(s.STRIKE, "target"),
        dice=completer(s.STRIKE, "dice"),
        strike_number=completer(s.STRIKE, "strike_number"),
    )
    async def strike(
        self,
        interaction: TitanInteraction,
        striker: str,
        target: str,
        dice: str | None = None,
        strike_number: str | None = None,
    ) -> None:
        await run_command(
            interaction,
            s.STRIKE,
            striker=striker,
            target=target,
            dice=dice,
            strike_number=strike_number,
        )

    @app_commands.command(description="Put carried-over hits on an enemy")
    @app_commands.autocomplete(target=completer(s.CARRY, "target"))
    async def carry(self, interaction: TitanInteraction, target: str) -> None:
        await run_command(interaction, s.CARRY, target=target)

    @app_commands.command(description="Rangestrike an enemy in range and line of sight")
    @app_commands.describe(strike_number="a higher strike number of another clear path")
    @app_commands.autocomplete(
        striker=completer(s.RANGESTRIKE, "striker"),
        target=completer(s.RANGESTRIKE, "target"),
        strike_number=completer(s.RANGESTRIKE, "strike_number"),
    )
    async def rangestrike(
        self,
        interaction: TitanInteraction,
        striker: str,
        target: str,
        strike_number: str | None = None,
    ) -> None:
        await run_command(
            interaction, s.RANGESTRIKE, striker=striker, target=target, strike_number=strike_number
        )

    @app_commands.command(description="Summon an Angel or Archangel (in battle or after it)")
    @app_commands.autocomplete(donor=completer(s.SUMMON, "donor"), lord=completer(s.SUMMON, "lord"))
    async def summon(self, interaction: TitanInteraction, donor: str, lord: str) -> None:
        await run_command(interaction, s.SUMMON, donor=donor, lord=lord)

    @app_commands.command(description="Muster a reinforcement into the defending legion")
    @app_commands.autocomplete(recruit=completer(s.REINFORCE, "recruit"))
    async def reinforce(self, interaction: TitanInteraction, recruit: str) -> None:
        await run_command(interaction, s.REINFORCE, recruit=recruit)

    @app_commands.command(description="Pass on a summon or reinforcement")
    async def decline(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.DECLINE)

    @app_commands.command(description="Concede the battle")
    async def concede(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.CONCEDE)

    @app_commands.command(description="Let your opponent's concession stand")
    async def accept(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.ACCEPT_CONCESSION)

    @app_commands.command(description="Concede instead of your opponent (or insist: a roll-off)")
    async def insist(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.INSIST)
