"""A bot process the tests start (``python -m tests.bot.discord.bot_process``) and what it
logs: ready once it says so; stopped as an operator would, or killed."""

from __future__ import annotations

import asyncio
import signal
from dataclasses import dataclass, field


@dataclass
class BotProcess:
    """A running bot process (on ``shards``, when it runs some) and what it logged."""

    process: asyncio.subprocess.Process
    shards: str = ""
    log: list[str] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    killed: bool = False
    """Whether :meth:`stop` had to kill it (it did not close on Ctrl-C)."""

    def start_reading(self) -> None:
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.process.stderr is not None
        async for raw in self.process.stderr:
            line = raw.decode(errors="replace").rstrip()
            self.log.append(line)
            if "ready as" in line:
                self.ready.set()

    def said(self, words: str) -> bool:
        return any(words in line for line in self.log)

    async def stop(self) -> None:
        """Stop it as an operator would (Ctrl-C: it closes cleanly), killed if it hangs."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.process.wait(), 15)
            except TimeoutError:
                self.killed = True
                self.process.kill()
                await self.process.wait()
        if self.reader is not None:
            await self.reader

    async def kill(self) -> None:
        """SIGKILL: nothing is finished, flushed or closed."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        if self.reader is not None:
            await self.reader
