"""The Discord bot: start-up, shut-down and running it from the configuration.

A bot may run as several processes over one PostgreSQL database, each on its own shards
(``discord.shard_count`` and ``discord.shard_ids``; see docs/deployment.md). Any process
may act on any game; only the one that runs shard 0 (or the only one) registers the
commands with Discord, and the others name them by the ids it got.
"""

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
from bot.discord.sync import OverLimits, Synced, registered_ids, sync_commands, sync_file
from bot.heap import settle
from bot.pictures import Renderer, default_renderer
from bot.records.proof import random_seed
from bot.schedule.clock import Clock
from bot.service import GameService

log = logging.getLogger(__name__)

SHARDING_REQUIRED = 4011
"""Discord's close code for a connection that would carry too many servers."""
NAME_AGAIN_AFTER = (5.0, 30.0, 120.0, 600.0)
"""Seconds after which a process that does not sync asks again for the ids of commands
not registered when it started (the process of shard 0 may have started after it)."""


class TitanBot(TitanHost):
    """Hosts TITAN games: slash commands, buttons, DMs, over one game database."""

    name_again_after: tuple[float, ...] = NAME_AGAIN_AFTER

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
        self._naming: asyncio.Task[None] | None = None

    @property
    def dev_guild(self) -> discord.Object | None:
        return discord.Object(self.config.dev_guild) if self.config.dev_guild else None

    @property
    def sync_scope(self) -> str:
        guild = self.dev_guild
        return f"guild {guild.id}" if guild is not None else "global"

    @property
    def syncs_commands(self) -> bool:
        """Whether this process registers the commands with Discord: it runs shard 0, or
        every shard. The processes of the other shards name them by the ids it got."""
        ids = self.config.shard_ids
        return ids is None or 0 in ids

    def shards_text(self) -> str:
        """The shards this process runs, in words: ``shards 0, 1 of 4``, ``shard 0 of 1``."""
        ids = sorted(self.shards) or list(self.config.shard_ids or ())
        count = self.shard_count if self.shard_count is not None else "?"
        return f"shard{'s' if len(ids) != 1 else ''} {', '.join(map(str, ids))} of {count}"

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
        if not self.syncs_commands:
            await self.name_commands()
            return
        try:
            await self.sync()
        except (discord.HTTPException, OverLimits):
            log.exception("syncing the commands failed: the ones registered before stay")

    async def sync(self, *, force: bool = False) -> Synced:
        """Sync the commands to the development guild, or globally (never both), and
        name them by their ids from then on. Raises :class:`RuntimeError` in a process
        that does not sync (:attr:`syncs_commands`)."""
        if self.application_id is None:
            raise RuntimeError("sync needs the application id: log in first")
        if not self.syncs_commands:
            raise RuntimeError("only the process that runs shard 0 syncs the commands")
        path = sync_file(self.config.database)
        synced = await sync_commands(
            self.tree, self.application_id, self.dev_guild, path, force=force
        )
        self.dialect = slash_commands(self.tree, self.dev_guild, synced.ids)
        return synced

    async def name_commands(self) -> list[str]:
        """Name the commands by the ids the syncing process got (this one does not sync);
        the commands not registered yet, which are asked for again later, in the
        background (:attr:`name_again_after`)."""
        unnamed = await self._name_registered()
        if unnamed and self._naming is None:
            self._naming = asyncio.create_task(self._name_later(), name="titan-command-ids")
        return unnamed

    async def _name_registered(self) -> list[str]:
        if self.application_id is None:
            raise RuntimeError("naming the commands needs the application id: log in first")
        path = sync_file(self.config.database)
        ids = await registered_ids(self.tree, self.application_id, self.dev_guild, path)
        self.dialect = slash_commands(self.tree, self.dev_guild, ids)
        return [c.name for c in self.tree.get_commands(guild=self.dev_guild) if c.name not in ids]

    async def _name_later(self) -> None:
        unnamed: list[str] = []
        for pause in self.name_again_after:
            await asyncio.sleep(pause)
            try:
                unnamed = await self._name_registered()
            except Exception:  # Discord out of reach a while: the next try may do
                log.exception("asking Discord for the commands' ids failed")
                continue
            if not unnamed:
                log.info("the commands are registered now: named by their ids")
                return
        log.warning(
            "commands %s are not registered (is the process of shard 0 running?): "
            "they are named plainly",
            ", ".join(f"/{name}" for name in unnamed),
        )

    async def choose(
        self, interaction: discord.Interaction[Any], game: int, verb: str, version: int
    ) -> None:
        """A click on a button or menu of game ``game`` made at ``version``."""
        await choose(interaction, game, verb, version)

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d of %s ready", shard_id, self.shard_count)

    async def on_ready(self) -> None:
        """Ready on every shard of this process: says which, and whether it syncs."""
        syncing = "it syncs the commands" if self.syncs_commands else "shard 0's process syncs"
        log.info(
            "ready as %s in %d guilds on %s (%s)",
            self.user, len(self.guilds), self.shards_text(), syncing,
        )  # fmt: skip

    async def close(self) -> None:
        if self._naming is not None:
            self._naming.cancel()
        await super().close()
        if self._service is not None:
            await self._service.close()
            self._service = None


def run_bot(config: Config) -> int:
    """Run the bot until it is stopped; the process exit status."""
    discord.utils.setup_logging()
    bot = TitanBot(config, renderer=default_renderer(), paint_in_processes=True)
    settle()
    try:
        asyncio.run(_run(bot, config.token))
    except discord.LoginFailure:
        log.error("Discord refused the token: check TITANBOT_TOKEN or discord.token")
        return 1
    except discord.ConnectionClosed as exc:
        if exc.code == SHARDING_REQUIRED:
            log.error(
                "Discord requires more shards (code 4011: at most 2,500 servers a shard): "
                "raise discord.shard_count (TITANBOT_SHARD_COUNT), or leave it unset"
            )
            return 1
        log.error("Discord closed the connection for good (code %s)", exc.code)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def _run(bot: TitanBot, token: str) -> None:
    async with bot:
        await bot.start(token.strip())
