"""Draw ``docs/turn.png``: one turn of TITAN played by clicks, as its player sees it on Discord.

``python tools/turn_picture.py [--out docs/turn.png] [--seed 7]`` opens a two-player game on
the tests' fake Discord (:mod:`tests.bot.discord.fake`, in this process) with the real bot and
its real board pictures: Ann types ``/titan new``, Bob and Ann click the lobby's buttons, and
the driver of :mod:`tests.bot.discord.driver` plays on by clicks alone, its picks seeded with
``--seed``. Every message the first player clicks on during their first turn is kept as it
stood at the click; the most telling are drawn in Discord's dark theme, top to bottom in time
order: the channel's live message and the private steps only that player saw. The picture is
that player's own view: no other player's private answers or DMs. The games' dice come from
the tests' fixed seed, so one ``--seed`` always draws the same picture.
"""

# ruff: noqa: E402 - the tests' fake Discord is imported once the checkout is on the path

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import re
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # ``tests`` is not an installed package

import discord
import yarl
from PIL import Image, ImageDraw

from bot.pictures import default_renderer
from engine.game.events import TurnEnded, TurnStarted
from render.style import font
from tests.bot.discord import payloads
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord, Pushed, Sent
from tests.bot.discord.helpers import ANN, BOB
from tests.bot.discord.test_clicking import open_table

SEED = 7
"""The driver's seed: Ann splits, moves both legions and musters a Cyclops."""
NAMES = {ANN: "Ann", BOB: "Bob"}
MOST_STEPS = 20

RGB = tuple[int, int, int]
WIDTH, MAX_HEIGHT, THUMB = 960, 1600, 300
BACKGROUND: RGB = (49, 51, 56)
TEXT: RGB = (219, 222, 225)
MUTED: RGB = (148, 155, 164)
WHITE: RGB = (242, 243, 245)
LINK: RGB = (0, 168, 252)
BLURPLE: RGB = (88, 101, 242)
MENU: RGB = (30, 31, 34)
CODE: RGB = (43, 45, 49)
MENTION: RGB = (60, 66, 112)
MENTION_TEXT: RGB = (201, 205, 251)
CLICKED: RGB = (240, 178, 50)
BUTTONS: dict[int, RGB] = {1: BLURPLE, 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
LEFT, PAD = 72, 16
"""Where a message's words start (right of the avatar), and the margin on either side."""
BODY, HEADING, SMALL, LABEL = 15, 19, 12, 14
LINE = 20


# --- playing the turn ---------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """A message as the player saw it when they clicked on it, and what they clicked."""

    message: int
    private: bool
    content: str
    components: list[Any]
    picture: bytes | None
    edited: bool
    clicked: str
    values: tuple[str, ...]
    phase: str
    """The phase the channel's live message named then (``split phase``, ``movement, rolled
    5``, ``muster phase``)."""

    @property
    def verb(self) -> str:
        """The clicked choice's command (a custom id is ``titan:GAME:COMMAND:SERIAL``)."""
        return self.clicked.split(":")[2]


class Recording(FakeDiscord):
    """The fake Discord, keeping each message as it stood when someone clicked on it."""

    def __init__(self) -> None:
        super().__init__()
        self.clicks: list[tuple[int, Frame]] = []

    async def click(
        self, user: int, message: Sent, custom_id: str, values: list[str] | None = None
    ) -> Pushed:
        private = message.ephemeral
        if message.channel != payloads.CHANNEL_ID or (
            private and not self._answered(user, message)
        ):
            raise AssertionError(f"user {user} clicked a message not theirs to see")
        frame = Frame(
            message=message.id,
            private=private,
            content=message.content,
            components=copy.deepcopy(message.components),
            picture=dict(message.files).get("masterboard.png"),
            edited=message.edits > 0,
            clicked=custom_id,
            values=tuple(values or ()),
            phase=self._phase(),
        )
        self.clicks.append((user, frame))
        return await super().click(user, message, custom_id, values)

    def _answered(self, user: int, message: Sent) -> bool:
        """Whether ``message`` answers one of ``user``'s own interactions."""
        return any(i.token == message.token and i.user == user for i in self.interactions.values())

    def _phase(self) -> str:
        """The phase the channel's newest live message names in its heading."""
        for message in sorted(self.in_channel(payloads.CHANNEL_ID), key=lambda m: -m.id):
            found = re.search(r"^### Turn \d+ · .+ · (.+)$", message.content, re.M)
            if found and not message.ephemeral:
                return found[1]
        return ""


PLAIN_USER: Callable[[int], dict[str, Any]] = payloads.user


def named(uid: int) -> dict[str, Any]:
    """The fake's user object, with the names of this picture's players (the fake calls
    everyone ``Player N``)."""
    found = PLAIN_USER(uid)
    if uid in NAMES:
        found |= {"username": NAMES[uid].lower(), "global_name": NAMES[uid]}
    return found


async def play(seed: int) -> list[Frame]:
    """The messages the first player clicked on in their first turn, in order."""
    renderer = default_renderer()
    if renderer is None:
        raise RuntimeError("the render package cannot draw a masterboard")
    payloads.user = named
    fake = Recording()
    await fake.start()
    discord.http.Route.BASE = fake.base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "games.sqlite3"
        running = await start_bot(fake, database, renderer=renderer)
        try:
            await open_table(fake, [ANN, BOB], clicking=True)
            driver = Driver(fake, running, seed=seed, clicks_only=True)
            return await first_turn(fake, driver)
        finally:
            await running.stop()
            await fake.stop()


async def first_turn(fake: Recording, driver: Driver) -> list[Frame]:
    """Play up to the end of the first turn; the frames of that turn's clicks."""
    began: int | None = None
    for _ in range(MOST_STEPS):
        step = await driver.step()
        if step is None:
            break
        if began is None and any(isinstance(e, TurnStarted) for e in step.events):
            began = len(fake.clicks)
        elif began is not None and any(isinstance(e, TurnEnded) for e in step.events):
            clicks = fake.clicks[began:]
            if len({user for user, _ in clicks}) != 1:
                raise AssertionError("someone else clicked during the turn")
            return [frame for _, frame in clicks]
    raise RuntimeError("no whole turn was played")


# --- choosing the moments -----------------------------------------------------------------

#: How telling a click's moment is, by whether it was private and its command's first words.
WORTH = {
    (False, "choices split"): 10,  # the board with its [Split…]
    (True, "pick"): 9,  # the characters that leave, picked in one menu
    (True, "muster"): 9,
    (True, "split"): 8,  # the new legion's marker
    (True, "move"): 8,  # where to
    (True, "choices move"): 7,  # which legion
    (False, "done"): 4,  # ending the movement (10: the board after the moves) or the turn
    (False, "choices muster"): 3,
    (False, "roll"): 2,
}
AGAIN = 3
"""How much less a moment is worth for each earlier one of its kind (the second move)."""


def kind_of(frame: Frame) -> tuple[bool, str] | None:
    """The key of :data:`WORTH` for ``frame``, if any."""
    return next(
        (k for k in WORTH if k[0] == frame.private and f"{frame.verb} ".startswith(f"{k[1]} ")),
        None,
    )


def worth(frames: list[Frame], n: int) -> int:
    """How telling ``frames[n]`` is: the board before the split and after the moves, the
    private split, muster and first move; 0 for what the picture may leave out."""
    found = kind_of(frames[n])
    if found is None:
        return 0
    if found == (False, "done") and frames[n].phase.startswith("movement"):
        return 10
    return WORTH[found] - AGAIN * sum(1 for f in frames[:n] if kind_of(f) == found)


# --- text ---------------------------------------------------------------------------------

NOTDEF = "\uffff"


@cache
def drawable(char: str) -> bool:
    """Whether Pillow's font has a glyph for ``char`` (else it draws its empty box)."""
    mask = font(BODY).getmask(char)
    empty = font(BODY).getmask(NOTDEF)
    return char == " " or (mask.size, bytes(mask)) != (empty.size, bytes(empty))


#: Shapes for the characters the font lacks: width in ems, and how to draw them.
SHAPES: dict[str, float] = {"×": 0.55, "—": 0.9, "–": 0.55, "→": 1.0, "§": 0.5}


def runs(text: str) -> Iterator[str]:
    """``text`` cut into pieces the font draws, and single characters it lacks."""
    piece = ""
    for char in text:
        if drawable(char):
            piece += char
            continue
        if piece:
            yield piece
        piece = ""
        if char in SHAPES:
            yield char
        else:
            plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            yield plain or "?"
    if piece:
        yield piece


def stroke(size: int, bold: bool) -> int:
    """The outline that makes the font's one weight look bold (none when not bold)."""
    return max(1, round(size / 24)) if bold else 0


def width(text: str, size: int, bold: bool = False) -> float:
    """How wide ``text`` is drawn."""
    total = sum(SHAPES[r] * size if r in SHAPES else font(size).getlength(r) for r in runs(text))
    return total + 2 * stroke(size, bold)


def write(
    draw: ImageDraw.ImageDraw,
    x: float,
    base: float,
    text: str,
    size: int,
    fill: RGB,
    bold: bool = False,
) -> float:
    """Draw ``text`` on the baseline ``base`` from ``x``; its width."""
    start, line = x, max(1, round(size / 13)) + (1 if bold else 0)
    for piece in runs(text):
        if piece not in SHAPES:
            thick = stroke(size, bold)
            at = (x + thick, base)
            draw.text(at, piece, fill, font(size), "ls", stroke_width=thick, stroke_fill=fill)
            x += font(size).getlength(piece)
            continue
        w, mid = SHAPES[piece] * size, base - 0.3 * size
        if piece in "—–":
            draw.line([(x + 0.05 * size, mid), (x + w - 0.05 * size, mid)], fill, line)
        elif piece == "→":
            tip, wing = x + w - 0.1 * size, 0.22 * size
            draw.line([(x + 0.1 * size, mid), (tip, mid)], fill, line)
            draw.line([(tip - wing, mid - wing), (tip, mid), (tip - wing, mid + wing)], fill, line)
        elif piece == "×":
            r, c = 0.17 * size, x + w / 2
            draw.line([(c - r, mid - r), (c + r, mid + r)], fill, line)
            draw.line([(c - r, mid + r), (c + r, mid - r)], fill, line)
        else:  # § as two small s, one above the other
            for dy in (-0.32, 0.0):
                draw.text((x, base + dy * size), "s", fill, font(size * 2 // 3), "ls")
        x += w
    return x - start + 2 * stroke(size, bold)


MARKUP = re.compile(r"\*\*(.+?)\*\*|`([^`]+)`|<@!?(\d+)>|</([^:>]+):\d+>")


def spans(line: str) -> Iterator[tuple[str, str]]:
    """A line of Discord markdown as (text, kind): plain, bold, code or mention."""
    at = 0
    for found in MARKUP.finditer(line):
        yield line[at : found.start()], "plain"
        bold, code, user, command = found.groups()
        if bold is not None:
            yield bold, "bold"
        elif code is not None:
            yield code, "code"
        elif user is not None:
            yield "@" + NAMES.get(int(user), "someone"), "mention"
        else:
            yield "/" + command, "mention"
        at = found.end()
    yield line[at:], "plain"


def words(line: str) -> Iterator[tuple[str, str]]:
    """The pieces a line may break between: plain and bold words with their spaces;
    a code span or mention whole."""
    for text, kind in spans(line):
        if kind in ("code", "mention"):
            yield text, kind
        else:
            yield from ((w, kind) for w in re.findall(r"\S+\s*|\s+", text))


def lay_out(line: str, size: int, room: float) -> list[list[tuple[str, str, float]]]:
    """``line`` broken into lines no wider than ``room``: (text, kind, width) pieces."""
    lines: list[list[tuple[str, str, float]]] = [[]]
    used = 0.0
    for text, kind in words(line):
        w = width(text, size, kind == "bold") + (8 if kind in ("code", "mention") else 0)
        if used + w - width(text, size) + width(text.rstrip(), size) > room and lines[-1]:
            lines.append([])
            used = 0.0
        lines[-1].append((text, kind, w))
        used += w
    return lines


def paragraph(
    draw: ImageDraw.ImageDraw, y: float, line: str, *, heading: bool = False, after: str = ""
) -> float:
    """Draw one line of a message (wrapped) from ``y``, and ``after`` (small, muted) behind
    it; the y below it."""
    size, height = (HEADING, 26) if heading else (BODY, LINE)
    for pieces in lay_out(line, size, WIDTH - LEFT - PAD):
        x, base = float(LEFT), y + height - 6
        for text, kind, w in pieces:
            if kind in ("code", "mention"):
                box = (x, base - size + 1, x + w, base + 5)
                draw.rounded_rectangle(box, 3, fill=CODE if kind == "code" else MENTION)
                colour = MENTION_TEXT if kind == "mention" else TEXT
                write(draw, x + 4, base, text, size, colour, heading)
            else:
                bold = heading or kind == "bold"
                write(draw, x, base, text, size, WHITE if heading else TEXT, bold)
            x += w
        y += height
    if after and x + 4 + width(after, SMALL) > WIDTH - PAD:
        x, y = float(LEFT) - 4, y + LINE
    if after:
        write(draw, x + 4, y - 6 - (height - LINE), after, SMALL, MUTED)
    return y


# --- a message ----------------------------------------------------------------------------


def header(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int, stamp: str) -> None:
    """The avatar, ``titanbot``, its BOT tag and the time."""
    avatar = Image.new("L", (160, 160), 0)
    ImageDraw.Draw(avatar).ellipse((0, 0, 159, 159), fill=255)
    disc = Image.new("RGB", (40, 40), BLURPLE)
    mark = ImageDraw.Draw(disc)  # a tower's battlements, for TITAN
    mark.rectangle((12, 17, 27, 29), fill=WHITE)
    for left in (12, 18, 24):
        mark.rectangle((left, 12, left + 3, 17), fill=WHITE)
    canvas.paste(disc, (PAD, y), avatar.resize((40, 40), Image.Resampling.LANCZOS))
    x = LEFT + write(draw, LEFT, y + 17, "titanbot", BODY, WHITE, bold=True) + 6
    draw.rounded_rectangle((x, y + 3, x + 32, y + 19), 3, fill=BLURPLE)
    write(draw, x + 4, y + 15, "BOT", SMALL, WHITE, bold=True)
    write(draw, x + 40, y + 16, stamp, SMALL, MUTED)


def thumbnail(canvas: Image.Image, y: int, png: bytes) -> int:
    """The board picture, :data:`THUMB` wide with round corners; its height."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    size = (THUMB, round(board.height * THUMB / board.width))
    board = board.resize(size, Image.Resampling.LANCZOS)
    corners = Image.new("L", size, 0)
    ImageDraw.Draw(corners).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), 8, fill=255)
    canvas.paste(board, (LEFT, y), corners)
    return size[1]


def cursor(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A mouse pointer with its tip at (x, y)."""
    shape = [(0, 0), (0, 17), (4, 13), (7, 20), (10, 19), (7, 12), (12, 12)]
    draw.polygon([(x + a, y + b) for a, b in shape], fill=WHITE, outline=(0, 0, 0), width=1)


def button(draw: ImageDraw.ImageDraw, x: float, y: float, item: dict[str, Any], hit: bool) -> float:
    """A button from its left top; its width."""
    label = item.get("label") or ""
    w = max(60.0, width(label, LABEL) + 32)
    colour = BUTTONS.get(item.get("style", 2), BUTTONS[2])
    if hit:
        draw.rounded_rectangle((x - 3, y - 3, x + w + 3, y + 35), 6, outline=CLICKED, width=2)
    draw.rounded_rectangle((x, y, x + w, y + 32), 4, fill=colour)
    write(draw, x + (w - width(label, LABEL)) / 2, y + 21, label, LABEL, WHITE)
    return w


def menu(
    draw: ImageDraw.ImageDraw, y: float, item: dict[str, Any], picked: tuple[str, ...]
) -> None:
    """A select menu: its placeholder, or the labels picked in it."""
    box = (LEFT, y, LEFT + 400, y + 40)
    if picked:
        draw.rounded_rectangle((box[0] - 3, y - 3, box[2] + 3, y + 43), 6, outline=CLICKED, width=2)
    draw.rounded_rectangle(box, 4, fill=MENU)
    labels = {o["value"]: o["label"] for o in item.get("options", [])}
    shown = ", ".join(labels.get(v, v) for v in picked) or item.get("placeholder", "")
    write(draw, LEFT + 12, y + 26, shown, BODY, TEXT if picked else MUTED)
    tip = (LEFT + 380, y + 23)
    draw.polygon([(tip[0] - 6, tip[1] - 5), (tip[0] + 6, tip[1] - 5), tip], fill=TEXT)


def components(draw: ImageDraw.ImageDraw, y: float, frame: Frame) -> float:
    """The message's rows of buttons and menus, the clicked one marked; the y below."""
    for row in frame.components:
        x, tall = float(LEFT), 32
        for item in row.get("components", []):
            hit = item.get("custom_id") == frame.clicked
            if item.get("type") == 2:
                w = button(draw, x, y, item, hit)
                if hit:
                    cursor(draw, x + w - 9, y + 17)
                x += w + 8
            else:
                menu(draw, y, item, frame.values if hit else ())
                if hit:
                    cursor(draw, LEFT + 300, y + 24)
                tall = 40
        y += tall + 6
    return y


def footer(draw: ImageDraw.ImageDraw, y: float) -> float:
    """Discord's mark under a private answer: an eye, "Only you can see this"."""
    draw.ellipse((LEFT, y + 4, LEFT + 16, y + 14), outline=MUTED, width=2)
    draw.ellipse((LEFT + 5, y + 6, LEFT + 11, y + 12), fill=MUTED)
    x = LEFT + 22 + write(draw, LEFT + 22, y + 14, "Only you can see this  ·  ", SMALL, MUTED)
    write(draw, x, y + 14, "Dismiss message", SMALL, LINK)
    return y + 22


def message(frame: Frame, stamp: str) -> Image.Image:
    """One message as Discord draws it: header, words, picture, choices, private mark."""
    canvas = Image.new("RGB", (WIDTH, 2400), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    header(canvas, draw, 8, stamp)
    y = 30.0
    lines = frame.content.splitlines()
    for n, line in enumerate(lines):
        heading = line.startswith("### ")
        after = "(edited)" if frame.edited and n == len(lines) - 1 else ""
        y = paragraph(draw, y, line.removeprefix("### "), heading=heading, after=after)
    if frame.picture is not None:
        y += 6 + thumbnail(canvas, round(y + 6), frame.picture)
    y = components(draw, y + 8, frame) if frame.components else y
    if frame.private:
        y = footer(draw, y)
    return canvas.crop((0, 0, WIDTH, round(y) + 6))


def channel_bar() -> Image.Image:
    """Discord's bar above a channel: ``# titan``."""
    canvas = Image.new("RGB", (WIDTH, 44), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    write(draw, PAD, 29, "#", 24, MUTED)
    write(draw, PAD + 22, 28, "titan", 16, WHITE, bold=True)
    draw.line([(0, 42), (WIDTH, 42)], (38, 40, 44), 2)
    return canvas


def picture(frames: list[Frame]) -> Image.Image:
    """The most telling moments of the turn that fit in :data:`MAX_HEIGHT`, top to bottom
    in time order, under the channel's bar."""
    posted = list(dict.fromkeys(f.message for f in frames))  # a message keeps its time
    drawn = [message(f, f"Today at 20:{14 + posted.index(f.message):02d}") for f in frames]
    worths = [worth(frames, n) for n in range(len(frames))]
    kept = [n for n, w in enumerate(worths) if w > 0]
    bar = channel_bar()
    while bar.height + sum(drawn[n].height for n in kept) > MAX_HEIGHT and len(kept) > 1:
        kept.remove(min(reversed(kept), key=worths.__getitem__))
    canvas = Image.new("RGB", (WIDTH, bar.height + sum(drawn[n].height for n in kept)))
    canvas.paste(bar)
    y = bar.height
    for n in kept:
        canvas.paste(drawn[n], (0, y))
        y += drawn[n].height
    return canvas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "turn.png")
    parser.add_argument("--seed", type=int, default=SEED, help="the driver's seed")
    arguments = parser.parse_args()
    image = picture(asyncio.run(play(arguments.seed)))
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    image.save(arguments.out, format="PNG", optimize=True)
    print(f"{arguments.out}: {image.width}×{image.height}")


if __name__ == "__main__":
    main()
