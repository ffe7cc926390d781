"""The Discord bot: start-up, shut-down and running it from the configuration."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.config import Config
from bot.discord.admin import Admin
from bot.discord.choices import choose
from bot.discord.commands import top_level_commands
from bot.discord.commands.mentions import slash_commands
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.errors import TitanTree
from bot.discord.host import TitanHost
from bot.discord.sync import OverLimits, Synced, sync_commands, sync_file
from bot.pictures import Renderer, default_renderer
from bot.schedule.clock import Clock
from bot.service import GameService, random_seed

log = logging.getLogger(__name__)


class TitanBot(TitanHost):
    """Hosts TITAN games: slash commands, buttons, DMs, over one game database."""

    def __init__(
        self,
        config: Config,
        *,
        renderer: Renderer | None = None,
        paint_in_processes: bool = False,
        seeds: Callable[[], int] = random_seed,
        wall_clock: Clock | None = None,
        **options: Any,
    ) -> None:
        options.setdefault("tree_cls", TitanTree)
        super().__init__(config, renderer=renderer, **options)
        self.paint_in_processes = paint_in_processes
        self.seeds = seeds
        self.wall_clock = wall_clock
        """The scheduler's time (a test's clock; the system's by default)."""

    @property
    def dev_guild(self) -> discord.Object | None:
        return discord.Object(self.config.dev_guild) if self.config.dev_guild else None

    @property
    def sync_scope(self) -> str:
        guild = self.dev_guild
        return f"guild {guild.id}" if guild is not None else "global"

    async def setup_hook(self) -> None:
        """Open the games (under the configured limits), add the commands and buttons, and
        sync the commands if changed."""
        self._service = await GameService.open(
            self.config.database,
            renderer=self.renderer,
            paint_in_processes=self.paint_in_processes,
            seeds=self.seeds,
            limits=self.config.limits,
            timing=self.config.timing,
            wall_clock=self.wall_clock,
        )
        await self._service.deliver_with(self.transport)  # what a restart left unsaid first
        await self._service.keep_time()  # what fell due meanwhile, then the clock runs
        await self.add_cog(Admin(self))
        for command in top_level_commands():
            self.tree.add_command(command)
        if self.dev_guild is not None:
            self.tree.copy_global_to(guild=self.dev_guild)
        self.dialect = slash_commands(self.tree, self.dev_guild)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        try:
            await self.sync()
        except (discord.HTTPException, OverLimits):
            log.exception("syncing the commands failed: the ones registered before stay")

    async def sync(self, *, force: bool = False) -> Synced:
        """Sync the commands to the development guild, or globally (never both), and
        name them by their ids from then on."""
        if self.application_id is None:
            raise RuntimeError("sync needs the application id: log in first")
        path = sync_file(self.config.database)
        synced = await sync_commands(
            self.tree, self.application_id, self.dev_guild, path, force=force
        )
        self.dialect = slash_commands(self.tree, self.dev_guild, synced.ids)
        return synced

    async def choose(
        self, interaction: discord.Interaction[Any], game: int, verb: str, version: int
    ) -> None:
        """A click on a button or menu of game ``game`` made at ``version``."""
        await choose(interaction, game, verb, version)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if self._service is not None:
            await self._service.close()
            self._service = None


def run_bot(config: Config) -> int:
    """Run the bot until it is stopped; the process exit status."""
    discord.utils.setup_logging()
    bot = TitanBot(config, renderer=default_renderer(), paint_in_processes=True)
    try:
        asyncio.run(_run(bot, config.token))
    except discord.LoginFailure:
        log.error("Discord refused the token: check TITANBOT_TOKEN or discord.token")
        return 1
    except discord.ConnectionClosed as exc:
        log.error("Discord closed the connection for good (code %s)", exc.code)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def _run(bot: TitanBot, token: str) -> None:
    async with bot:
        await bot.start(token.strip())
