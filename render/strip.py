"""The masterboard's side strip: turn, phase, players and a legend (all public)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from engine.words import plural
from render.board_base import Layout
from render.board_info import BoardInfo, PlayerInfo
from render.legend import Key, draw_legend, legend_height
from render.style import (
    ENGAGED,
    PAPER,
    RGB,
    bold_text,
    casing,
    font,
    ink_on,
    mix,
    player_rgb,
    player_tag,
)

MUTED: RGB = (150, 158, 168)
ACTIVE_BAND: RGB = (60, 72, 88)
ALERT: RGB = (255, 110, 100)


def draw_strip(
    draw: ImageDraw.ImageDraw,
    lay: Layout,
    info: BoardInfo,
    contested: Sequence[int],
    keys: Sequence[Key] = (),
) -> None:
    """Turn (``Turn 11 · Bob``), phase and roll; one row per player; pending engagements;
    the legend of the signs and of ``keys``, the marks drawn (:mod:`render.legend`)."""
    unit = lay.frame.s / 26  # 1.0 at the default width
    x = lay.strip_left + 16 * unit
    y = 14 * unit
    bold_text(draw, (x, y), "TITAN", round(30 * unit), PAPER)
    y += 44 * unit
    for line in heading_lines(info):
        draw.text((x, y), line, font=font(round(18 * unit)), fill=PAPER)
        y += 24 * unit
    y += 10 * unit
    for seat, player in enumerate(info.players):
        active = seat == info.active and not player.eliminated
        if active:
            _active_band(draw, (x, y), lay.width - x - 12 * unit, unit)
        _player_row(draw, (x, y), unit, player, sum(leg.owner == seat for leg in info.legions))
        y += 70 * unit
    y += 8 * unit
    if info.engagement is not None:
        draw.text(
            (x, y), f"Resolving: land {info.engagement}", font=font(round(16 * unit)), fill=ENGAGED
        )
        y += 26 * unit
    if contested:
        draw.text((x, y), "Engagements:", font=font(round(16 * unit)), fill=ALERT)
        lands = _wrapped([str(n) for n in contested], 4)
        draw.multiline_text((x, y + 22 * unit), lands, font=font(round(16 * unit)), fill=PAPER)
        y += 22 * unit * (1 + (len(contested) + 3) // 4) + 8 * unit
    bottom = lay.height - 14 * unit - legend_height(keys, unit)
    draw_legend(draw, (x, max(y, bottom)), unit, keys)


def heading_lines(info: BoardInfo) -> tuple[str, str, str]:
    """``Turn 11 · Bob``, the phase and the roll: the game turn as players count them
    (:func:`engine.game.game_turns.game_turn`) and whose it is; ``Before turn 1`` while
    the colours are chosen."""
    roll = "-" if info.roll is None else str(info.roll)
    if info.phase == "colours" or not 0 <= info.active < len(info.players):
        turn = "Before turn 1" if info.phase == "colours" else f"Turn {info.turn}"
    else:
        turn = f"Turn {info.turn} · {_short(info.players[info.active].name, 12)}"
    return turn, f"Phase: {info.phase.capitalize()}", f"Roll: {roll}"


def player_detail(player: PlayerInfo, legions: int) -> str:
    """``236 points · Titan 8 · 1 legion`` (or the colour and score of an eliminated
    player), under the player's name."""
    points = plural(player.score, "pt")
    if player.eliminated:
        return f"{player.colour or '-'} · eliminated · {points}"
    return f"{points} · Titan {player.titan_power} · {plural(legions, 'legion')}"


def _short(name: str, most: int) -> str:
    return name if len(name) <= most else name[: most - 1] + "."


def _wrapped(words: list[str], per_line: int) -> str:
    return "\n".join(", ".join(words[i : i + per_line]) for i in range(0, len(words), per_line))


def _active_band(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], width: float, unit: float
) -> None:
    """The band and pointer behind the player whose turn it is."""
    x, y = at
    draw.rounded_rectangle(
        (x - 8 * unit, y - 4 * unit, x + width, y + 64 * unit), 8, fill=ACTIVE_BAND
    )
    pointer = [
        (x - 6 * unit, y + 6 * unit),
        (x + 4 * unit, y + 14 * unit),
        (x - 6 * unit, y + 22 * unit),
    ]
    draw.polygon(pointer, fill=PAPER)


def _player_row(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    unit: float,
    player: PlayerInfo,
    legions: int,
) -> None:
    """Colour swatch (cased, with the colour's abbreviation) and name; score, Titan power
    and legion count below."""
    x, y = at
    ink = MUTED if player.eliminated else PAPER
    swatch = swatch_fill(player)
    inner, outer = casing(swatch)
    box = (x + 10 * unit, y + 2 * unit, x + 34 * unit, y + 26 * unit)
    ring = (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2)
    draw.rounded_rectangle(ring, 6, fill=outer)
    draw.rounded_rectangle(box, 4, fill=swatch, outline=inner, width=2)
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    tag = player_tag(player.colour)
    draw.text(centre, tag, font=font(round(12 * unit)), fill=ink_on(swatch), anchor="mm")
    name = _short(player.name, 16)
    bold_text(draw, (x + 44 * unit, y + 14 * unit), name, round(19 * unit), ink, "lm")
    detail = player_detail(player, legions)
    draw.text((x + 10 * unit, y + 36 * unit), detail, font=font(round(15 * unit)), fill=ink)


def swatch_fill(player: PlayerInfo) -> RGB:
    """The colour of a player's swatch (faded toward grey once eliminated)."""
    swatch = player_rgb(player.colour)
    return mix(swatch, MUTED, 0.6) if player.eliminated else swatch
