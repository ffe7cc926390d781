"""``/battle``: engagements and the battles fought in them.

Choosing the next engagement, negotiating (flee, propose, accept, concede), the battle on
its battleland (maneuver, strike, carry over, rangestrike, summon, reinforce, the
concession's answers) and what follows it (acquire, decline). Each verb of the command
language has one command: ``accept``, ``concede`` and ``decline`` mean what the
engagement's moment makes of them, as they do at the terminal. Hexes are written ``D4``.
"""

from __future__ import annotations

from typing import Literal

from discord import app_commands

from bot.discord import specs as s
from bot.discord.commands.leaf import command
from bot.discord.commands.options import CONFIRM
from bot.discord.host import TitanInteraction
from bot.discord.runner import completer, run_command


@app_commands.guild_only()
class BattleCommands(
    app_commands.Group, name="battle", description="Engagements and battles: engage, fight, strike"
):
    """Engagements (RULES §5, §7.1) and battles (RULES §8–§11)."""

    # --- the engagement ----------------------------------------------------------------------
    @command("engage", "Resolve the engagement in a land next")
    @app_commands.describe(land="the land of the engagement")
    @app_commands.autocomplete(land=completer(s.ENGAGE, "land"))
    async def engage(self, interaction: TitanInteraction, land: str) -> None:
        await run_command(interaction, s.ENGAGE, land=land)

    @command("flee", "Flee with the defending legion")
    async def flee(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.FLEE)

    @command("fight", "Fight the battle out")
    async def fight(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.FIGHT)

    @command("propose", "Propose who is eliminated (and what the survivor loses)")
    @app_commands.describe(
        eliminate="the legion eliminated, or both",
        lose="characters the survivor gives up",
        confirm=CONFIRM,
    )
    async def propose(
        self,
        interaction: TitanInteraction,
        eliminate: Literal["attacker", "defender", "both"],
        lose: str | None = None,
        confirm: bool = False,
    ) -> None:
        await run_command(interaction, s.PROPOSE, eliminate=eliminate, lose=lose, confirm=confirm)

    @command("accept", "Accept a proposal, or your opponent's concession")
    @app_commands.describe(number="the proposal's number (none for a concession)", confirm=CONFIRM)
    @app_commands.autocomplete(number=completer(s.ACCEPT, "number"))
    async def accept(
        self, interaction: TitanInteraction, number: str | None = None, confirm: bool = False
    ) -> None:
        await run_command(interaction, s.ACCEPT, number=number, confirm=confirm)

    @command("concede", "Concede the engagement or the battle")
    @app_commands.describe(confirm=CONFIRM)
    async def concede(self, interaction: TitanInteraction, confirm: bool = False) -> None:
        await run_command(interaction, s.CONCEDE, confirm=confirm)

    @command("nomore", "Declare that you make no more proposals")
    async def nomore(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.NOMORE)

    @command("acquire", "Take the Angel or Archangel you earned")
    @app_commands.describe(lord="Angel or Archangel")
    @app_commands.autocomplete(lord=completer(s.ACQUIRE, "lord"))
    async def acquire(self, interaction: TitanInteraction, lord: str) -> None:
        await run_command(interaction, s.ACQUIRE, lord=lord)

    @command("decline", "Pass on a summon, reinforcement or acquisition")
    async def decline(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.DECLINE)

    # --- the battle --------------------------------------------------------------------------
    @command("maneuver", "Move a character (name it to bring it onto the board)")
    @app_commands.describe(character="its hex, or its name when off the board", to="the hex")
    @app_commands.autocomplete(
        character=completer(s.MANEUVER, "character"), to=completer(s.MANEUVER, "to")
    )
    async def maneuver(self, interaction: TitanInteraction, character: str, to: str) -> None:
        await run_command(interaction, s.MANEUVER, character=character, to=to)

    @command("undo", "Take back a maneuver (and every later one)")
    @app_commands.describe(hex="the hex where the maneuver ended")
    @app_commands.autocomplete(hex=completer(s.UNDO, "hex"))
    async def takeback(self, interaction: TitanInteraction, hex: str) -> None:
        await run_command(interaction, s.UNDO, hex=hex)

    @command("strike", "Strike an enemy in contact (or strike back)")
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

    @command("carry", "Put carried-over hits on an enemy (RULES §9.4)")
    @app_commands.describe(target="the hex of the enemy")
    @app_commands.autocomplete(target=completer(s.CARRY, "target"))
    async def carry(self, interaction: TitanInteraction, target: str) -> None:
        await run_command(interaction, s.CARRY, target=target)

    @command("rangestrike", "Rangestrike an enemy in range and line of sight")
    @app_commands.describe(
        striker="the hex of your rangestriker",
        target="the hex of the enemy",
        strike_number="a higher strike number of another clear path",
    )
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

    @command("summon", "Summon an Angel or Archangel (in a battle or after it)")
    @app_commands.describe(donor="the legion it comes from", lord="Angel or Archangel")
    @app_commands.autocomplete(donor=completer(s.SUMMON, "donor"), lord=completer(s.SUMMON, "lord"))
    async def summon(self, interaction: TitanInteraction, donor: str, lord: str) -> None:
        await run_command(interaction, s.SUMMON, donor=donor, lord=lord)

    @command("reinforce", "Muster a reinforcement into the defending legion")
    @app_commands.describe(recruit="the character it musters")
    @app_commands.autocomplete(recruit=completer(s.REINFORCE, "recruit"))
    async def reinforce(self, interaction: TitanInteraction, recruit: str) -> None:
        await run_command(interaction, s.REINFORCE, recruit=recruit)

    @command("insist", "Concede instead of your opponent (both insist: a roll-off)")
    @app_commands.describe(confirm=CONFIRM)
    async def insist(self, interaction: TitanInteraction, confirm: bool = False) -> None:
        await run_command(interaction, s.INSIST, confirm=confirm)

    @command("battle", "The battle being fought: battleland and every character", name="board")
    async def board(self, interaction: TitanInteraction) -> None:
        await run_command(interaction, s.BATTLE)
