"""Pictures drawn off the command's path: a bounded pool, and one waiting picture per channel.

A command is answered as soon as it is stored; its picture is drawn afterwards by a
:class:`Painter`, which runs at most ``workers`` drawings at a time (in worker processes,
so drawing never competes with the event loop for the interpreter, or in threads when a
renderer cannot be sent to a process — tests' stand-ins). Requests are queued per key (a
channel): a newer request for a key whose picture is still waiting replaces it, and the
superseded request is answered with ``None`` at once, so a burst of actions in one channel
ends with the picture of its latest state without drawing every state in between. One
key's pictures are drawn one after the other, in the order asked.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field

from bot.pictures import Renderer
from bot.replies import Message, Picture

log = logging.getLogger(__name__)

WORKERS = 1
"""Pictures drawn at once by default: one core for drawing, the other for commands."""


@dataclass
class _Job:
    picture: Picture
    done: asyncio.Future[bytes | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Painter:
    """Draws pictures with ``renderer`` in a bounded pool, coalescing per key.

    ``processes`` chooses worker processes (the renderer must then be a module-level
    function); otherwise threads are used.
    """

    def __init__(
        self, renderer: Renderer | None, *, workers: int = WORKERS, processes: bool = False
    ) -> None:
        if workers < 1:
            raise ValueError("a painter needs at least one worker")
        self.renderer = renderer
        self._workers = workers
        self._processes = processes
        self._executor: Executor | None = None
        self._waiting: OrderedDict[Hashable, _Job] = OrderedDict()
        self._busy: set[Hashable] = set()
        self._wake: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.drawn = 0
        """Pictures drawn so far (for benchmarks and tests)."""
        self.seconds = 0.0
        """Time spent drawing them."""

    async def paint(self, message: Message | None, key: Hashable | None = None) -> Message | None:
        """``message`` with its picture drawn (unchanged when it has none, when there is no
        renderer, when drawing failed, or when a newer request for ``key`` replaced it).

        ``key`` None asks for a picture nobody replaces (an answer to one user).
        """
        if message is None or message.picture is None or self.renderer is None:
            return message
        image = await self.draw(message.picture, key)
        return message if image is None else message.with_image(image)

    async def draw(self, picture: Picture, key: Hashable | None = None) -> bytes | None:
        """The PNG of ``picture``, or None (superseded, failed, or no renderer)."""
        if self.renderer is None:
            return None
        self._start()
        job = _Job(picture)
        slot: Hashable = object() if key is None else key
        superseded = self._waiting.pop(slot, None)
        if superseded is not None and not superseded.done.done():
            superseded.done.set_result(None)
        self._waiting[slot] = job
        assert self._wake is not None
        self._wake.set()
        return await asyncio.shield(job.done)

    def _start(self) -> None:
        if self._tasks:
            return
        self._wake = asyncio.Event()
        if self._processes:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self._workers, mp_context=context)
        else:
            self._executor = ThreadPoolExecutor(self._workers, thread_name_prefix="painter")
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self._workers)]

    def _next(self) -> tuple[Hashable, _Job] | None:
        """The oldest waiting job whose key is not being drawn now."""
        for slot in self._waiting:
            if slot not in self._busy:
                return slot, self._waiting.pop(slot)
        return None

    async def _work(self) -> None:
        assert self._wake is not None and self.renderer is not None
        loop = asyncio.get_running_loop()
        while True:
            found = self._next()
            if found is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            slot, job = found
            self._busy.add(slot)
            started = loop.time()
            try:
                image = await loop.run_in_executor(self._executor, self.renderer, job.picture)
            except asyncio.CancelledError:
                if not job.done.done():
                    job.done.set_result(None)
                raise
            except Exception:
                log.exception("drawing %s failed", job.picture.kind.value)
                image = None
            finally:
                self._busy.discard(slot)
                self._wake.set()  # a job of this key may wait behind it
            self.drawn += 1
            self.seconds += loop.time() - started
            if not job.done.done():
                job.done.set_result(image if isinstance(image, bytes) else None)

    async def close(self) -> None:
        """Stop drawing: waiting requests are answered with None."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        for job in self._waiting.values():
            if not job.done.done():
                job.done.set_result(None)
        self._waiting.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
