"""The painter: pictures drawn off the command's path, in a bounded pool, newest per channel."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.painting import Painter
from bot.pictures import render_with_package
from bot.replies import Message, Picture, PictureKind
from tests.bot.test_pictures import coloured_state, needs_render


def picture(land: int | None = None) -> Picture:
    return Picture(PictureKind.MASTERBOARD, STATE, land=land)


STATE = coloured_state()


async def until(probe, timeout: float = 30.0) -> None:
    """Wait (the event loop running) until ``probe()`` holds: a drawing started in its
    worker thread, a task answered; however slow the machine (bounded against a hang)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not probe():
        assert loop.time() < deadline, "it did not happen"
        await asyncio.sleep(0.001)


class Gated:
    """A renderer that waits for a gate before each drawing and records what it drew."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.drawn: list[int | None] = []
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def __call__(self, shown: Picture) -> bytes:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        self.gate.wait(5)
        with self._lock:
            self.running -= 1
            self.drawn.append(shown.land)
        return f"png-{shown.land}".encode()


async def test_no_picture_or_no_renderer_means_no_work():
    painter = Painter(lambda p: b"x")
    plain = Message("text")
    assert await painter.paint(plain) is plain
    assert await painter.paint(None) is None
    with_picture = Message("text", picture())
    assert await Painter(None).paint(with_picture) is with_picture
    drawn = await painter.paint(with_picture)
    assert drawn is not None and drawn.image == b"x" and drawn.picture is with_picture.picture
    await painter.close()


async def test_a_failing_renderer_leaves_the_message_undrawn():
    def failing(shown: Picture) -> bytes:
        raise OSError("no fonts")

    painter = Painter(failing)
    message = Message("text", picture())
    assert await painter.paint(message) is message
    await painter.close()


async def test_a_burst_in_one_channel_ends_with_the_latest_picture():
    renderer = Gated()
    painter = Painter(renderer)
    first = asyncio.create_task(painter.draw(picture(1), key="ch"))
    await until(lambda: renderer.running == 1)  # the first drawing waits at the gate
    later = [asyncio.create_task(painter.draw(picture(land), key="ch")) for land in (2, 3, 4)]
    await until(lambda: later[0].done() and later[1].done())  # 2 and 3 were replaced
    assert not later[2].done() and not first.done()
    renderer.gate.set()
    images = await asyncio.gather(first, *later)
    assert images == [b"png-1", None, None, b"png-4"]
    assert renderer.drawn == [1, 4]
    await painter.close()


async def test_the_pool_is_bounded_and_one_channel_draws_in_order():
    renderer = Gated()
    painter = Painter(renderer, workers=2)
    tasks = [asyncio.create_task(painter.draw(picture(1), key="a"))]
    await until(lambda: renderer.running == 1)
    tasks.append(asyncio.create_task(painter.draw(picture(2), key="a")))
    await asyncio.sleep(0.05)  # time for a's second picture to start, were it not to wait
    assert renderer.running == 1  # a's second picture waits for its first, a worker idle
    tasks += [
        asyncio.create_task(painter.draw(picture(land), key=key))
        for land, key in ((3, "b"), (4, "c"), (5, "d"))
    ]
    await until(lambda: renderer.running == 2)
    await asyncio.sleep(0.05)  # time for a third drawing to start, were the pool not full
    assert renderer.running == 2  # two at a time, however many channels ask
    renderer.gate.set()
    assert await asyncio.gather(*tasks) == [f"png-{n}".encode() for n in range(1, 6)]
    assert renderer.most == 2
    assert renderer.drawn.index(1) < renderer.drawn.index(2)  # a's pictures in order
    await painter.close()


async def test_answers_to_one_user_are_never_replaced():
    painter = Painter(lambda p: f"png-{p.land}".encode())
    images = await asyncio.gather(*(painter.draw(picture(n)) for n in range(5)))
    assert images == [f"png-{n}".encode() for n in range(5)]
    await painter.close()


async def test_closing_answers_what_still_waits():
    renderer = Gated()
    painter = Painter(renderer)
    busy = asyncio.create_task(painter.draw(picture(1), key="a"))
    waiting = asyncio.create_task(painter.draw(picture(2), key="b"))
    await until(lambda: renderer.running >= 1)
    await painter.close()
    renderer.gate.set()
    assert await asyncio.gather(busy, waiting) == [None, None]


def test_a_painter_needs_a_worker():
    with pytest.raises(ValueError):
        Painter(None, workers=0)


@needs_render
async def test_pictures_are_drawn_in_another_process():
    painter = Painter(render_with_package, processes=True)
    image = await painter.draw(picture(100), key=1)
    assert image is not None and image.startswith(b"\x89PNG")
    assert image == render_with_package(picture(100))
    await painter.close()
