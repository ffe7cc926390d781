"""A finished game's replay: an animated GIF of the masterboard, one frame per player turn.

Each frame is the public masterboard (:func:`render.masterboard.masterboard`: markers and
heights only, RULES §3.3) at the end of a player turn, its moves drawn, the lands of the
battles fought in it ringed in red and named in a caption. A long game is sampled, never
refused: at most ``most_frames`` frames (the first and the last always among them), and
fewer again until the file fits ``max_bytes`` (Discord's upload limit is 10 MiB).

Every frame is reduced to one palette, made once from the board and the player colours,
so the GIF's frames share it and store only what changed (a few KB a frame); frames are
encoded as they are drawn, so only two are held at a time. Pure: no I/O.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from render.board_info import BoardInfo
from render.masterboard import masterboard
from render.style import (
    ENGAGED,
    HIGHLIGHT,
    LAST_MOVE,
    PAPER,
    PLAYER_COLOURS,
    REACHABLE,
    STRIP,
    TELEPORT,
    bold_text,
    font,
    mix,
)

WIDTH = 1200
"""A frame's width (px): small enough for many frames, large enough to read the markers."""
MOST_FRAMES = 300
"""Frames at most: a 300-turn two-player game (600 player turns) shows every other one."""
MAX_BYTES = 9_500_000
"""Under Discord's 10 MiB per file, with room to spare."""
FRAME_MS = 450
LAST_MS = 5000
"""How long the last frame (the end of the game) stays before the animation loops."""
FEWEST = 2
BATTLE_TEXT = mix(ENGAGED, PAPER, 0.35)
"""The battles' caption: the red of the rings, light enough to read on the dark box."""
UNCHANGED = 255
"""The palette index of a pixel a frame leaves as the previous one showed it."""


@dataclass(frozen=True)
class ReplayFrame:
    """The board at the end of a player turn (public: a :class:`BoardInfo`), the lands of
    the battles fought in that turn, and a caption (the last frame's: the result)."""

    board: BoardInfo
    battles: tuple[int, ...] = ()
    caption: str = ""


@dataclass(frozen=True)
class Replay:
    """An encoded replay: the GIF's bytes and which of the frames it shows."""

    data: bytes
    shown: tuple[int, ...]
    """Indexes of the frames drawn, in order."""


def sampled(count: int, most: int) -> tuple[int, ...]:
    """``most`` indexes spread evenly over ``range(count)``, the first and the last among
    them (all of them when there are no more than ``most``)."""
    if count <= most:
        return tuple(range(count))
    most = max(most, FEWEST)
    step = (count - 1) / (most - 1)
    return tuple(sorted({round(i * step) for i in range(most)}))


def caption_lines(frame: ReplayFrame) -> list[str]:
    """The caption of ``frame`` and, when battles were fought, where."""
    lines = [frame.caption] if frame.caption else []
    if frame.battles:
        lands = ", ".join(str(land) for land in frame.battles)
        lines.append(f"{'Battles' if len(frame.battles) > 1 else 'Battle'} in {lands}")
    return lines


def frame_image(
    frame: ReplayFrame, *, width: int = WIDTH, index: int = 0, count: int = 1
) -> Image.Image:
    """One frame: the public masterboard, the battles ringed, the caption at the top left
    and the frame's place in the game (``12/40``)."""
    image = masterboard(frame.board, engagements=frame.battles, size=width)
    draw = ImageDraw.Draw(image)
    size = max(13, round(width / 64))
    x, y = size, size * 0.8
    lines = [f"Player turn {index + 1}/{count}", *caption_lines(frame)]
    face = font(size)
    right = x + max(draw.textlength(line, font=face) for line in lines) + size * 0.4
    bottom = y + len(lines) * (size + 6) + 2
    draw.rounded_rectangle((x - 8, y - 6, right, bottom), radius=6, fill=STRIP)
    bold_text(draw, (x, y), lines[0], size, PAPER)
    for number, line in enumerate(lines[1:], 1):
        battle = bool(frame.battles) and number == len(lines) - 1
        fill = BATTLE_TEXT if battle else PAPER
        draw.text((x, y + number * (size + 6)), line, font=face, fill=fill)
    return image


def shared_palette(sample: Image.Image) -> Image.Image:
    """One palette for every frame (255 colours: index 255 stays free for "unchanged"):
    the sample frame's colours and every player's and highlight colour, exactly."""
    colours = [*PLAYER_COLOURS.values(), ENGAGED, HIGHLIGHT, LAST_MOVE, REACHABLE, TELEPORT]
    swatch = Image.new("RGB", (sample.width, sample.height + 8 * len(colours)))
    swatch.paste(sample, (0, 0))
    draw = ImageDraw.Draw(swatch)
    for i, rgb in enumerate(colours):
        top = sample.height + 8 * i
        draw.rectangle((0, top, sample.width, top + 7), fill=rgb)
    return swatch.quantize(
        colors=UNCHANGED, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )


class _Gif:
    """An animated GIF written frame by frame: each frame after the first keeps only the
    box of what changed, its unchanged pixels transparent (so the frames compress to a
    few KB each), and only the last frame is held in memory."""

    def __init__(self, palette: Image.Image, size: tuple[int, int]) -> None:
        colours = (palette.getpalette() or [])[: 3 * 256]
        table = bytes(colours) + bytes(3 * 256 - len(colours))
        self.chunks: list[bytes] = [
            b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0) + table,
            b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00",  # loop for ever
        ]
        self.size = sum(len(c) for c in self.chunks) + 1
        self._previous: Image.Image | None = None
        self._pending: tuple[Image.Image, tuple[int, int], dict[str, int]] | None = None

    def add(self, frame: Image.Image, ms: int) -> None:
        """Add ``frame`` (reduced to the palette), shown for ``ms`` milliseconds."""
        previous, self._previous = self._previous, frame
        if previous is None:
            self._hold(frame, (0, 0), {"duration": ms, "disposal": 1})
            return
        now = Image.frombytes("L", frame.size, frame.tobytes())
        before = Image.frombytes("L", frame.size, previous.tobytes())
        changed = ImageChops.difference(now, before).point(lambda v: 255 if v else 0)
        box = changed.getbbox()
        if box is None:  # the same picture: the one shown stays longer
            assert self._pending is not None
            self._pending[2]["duration"] += ms
            return
        delta = frame.copy()
        delta.paste(UNCHANGED, mask=ImageChops.invert(changed))
        params = {"duration": ms, "disposal": 1, "transparency": UNCHANGED}
        self._hold(delta.crop(box), box[:2], params)

    def _hold(self, image: Image.Image, offset: tuple[int, int], params: dict[str, int]) -> None:
        self._flush()
        self._pending = (image, offset, params)

    def _flush(self) -> None:
        if self._pending is None:
            return
        image, offset, params = self._pending
        data = b"".join(GifImagePlugin.getdata(image, offset, **params))
        self.chunks.append(data)
        self.size += len(data)
        self._pending = None

    def close(self) -> bytes:
        self._flush()
        return b"".join([*self.chunks, b";"])


def _attempt(
    frames: Sequence[ReplayFrame],
    chosen: Sequence[int],
    width: int,
    max_bytes: int,
    timing: tuple[int, int],
) -> tuple[bytes | None, int]:
    """The GIF of the ``chosen`` frames, or None once it grows past ``max_bytes``; and the
    bytes written (to estimate how many frames do fit)."""
    gif: _Gif | None = None
    palette: Image.Image | None = None
    for number, i in enumerate(chosen):
        image = frame_image(frames[i], width=width, index=i, count=len(frames))
        palette = palette or shared_palette(image)
        if gif is None:
            gif = _Gif(palette, image.size)
        last = number == len(chosen) - 1
        gif.add(image.quantize(palette=palette, dither=Image.Dither.NONE), timing[last])
        if gif.size > max_bytes:
            return None, gif.size * len(chosen) // (number + 1)
    assert gif is not None
    data = gif.close()  # the last frame, held until now, may be what tips it over
    return (data if len(data) <= max_bytes else None), len(data)


def replay(
    frames: Sequence[ReplayFrame],
    *,
    width: int = WIDTH,
    most_frames: int = MOST_FRAMES,
    max_bytes: int = MAX_BYTES,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
) -> Replay:
    """The animated GIF of ``frames``: sampled to at most ``most_frames``, then to fewer
    (drawn again) should it grow past ``max_bytes`` — never refused, down to the first and
    the last frame. Raises ValueError without frames."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    chosen = sampled(len(frames), most_frames)
    while True:
        data, size = _attempt(frames, chosen, width, max_bytes, (frame_ms, last_ms))
        if data is not None:
            return Replay(data, tuple(chosen))
        if len(chosen) <= FEWEST:
            raise ValueError(f"even {len(chosen)} frames take more than {max_bytes} bytes")
        fits = int(len(chosen) * max_bytes / size * 0.9)
        chosen = sampled(len(frames), max(FEWEST, min(len(chosen) - 1, fits)))


def replay_gif(frames: Sequence[ReplayFrame], **options: int) -> bytes:
    """:func:`replay`'s bytes (see it for the options)."""
    return replay(frames, **options).data
