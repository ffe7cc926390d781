"""Legion cards: a legion's characters with their factors (RULES §1.1, §3.3).

The owner's card shows every character; the public card only the revealed ones, the
rest as ``?``; the "my legions" sheet stacks one row per legion of a player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from engine.characters import TITAN, character, legion_value, titan_power
from engine.game.view import View
from engine.markers import marker_colour, marker_name
from engine.masterboard import LANDS
from engine.words import plural
from render.counters import UNKNOWN, CounterFace, draw_counter, draw_marker, face
from render.style import BACKGROUND, PAPER, RGB, bold_text, font, player_rgb, png_bytes

COUNTER = 92
GAP = 10
PAD = 14
HEADER = 34
ROW = HEADER + COUNTER + PAD


class OwnLegionLike(Protocol):
    @property
    def marker(self) -> str: ...
    @property
    def owner(self) -> int: ...
    @property
    def land(self) -> int: ...
    @property
    def characters(self) -> Sequence[str]: ...


class OwnerLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def colour(self) -> str | None: ...
    @property
    def score(self) -> int: ...


class SheetLike(Protocol):
    """A game state, or a player's private view, holding that player's legions."""

    @property
    def players(self) -> Sequence[OwnerLike]: ...
    @property
    def legions(self) -> Mapping[str, OwnLegionLike]: ...


def _order(name: str) -> tuple[int, int, str]:
    """Titan first, then lords, demi-lords, and creatures by value (strongest first)."""
    found = character(name)
    rank = 0 if found.is_titan else 1 if found.is_lord else 2 if found.is_demilord else 3
    return rank, -found.value_at(), name


def _faces(characters: Iterable[str], score: int) -> list[CounterFace]:
    """Counter faces in card order; unknown characters (``?``) last."""
    known = sorted((n for n in characters if n != UNKNOWN), key=_order)
    unknown = [n for n in characters if n == UNKNOWN]
    return [face(n, power=titan_power(score) if n == TITAN else None) for n in [*known, *unknown]]


def _colour(marker: str, colour: str | None) -> RGB:
    return player_rgb(colour or marker_colour(marker).name)


def _title(marker: str, land: int | None, extra: str) -> str:
    where = f" · land {land} {LANDS[land].terrain}" if land is not None and land in LANDS else ""
    return f"{marker} ({marker_name(marker)}){where} · {extra}"


def _draw_row(
    draw: ImageDraw.ImageDraw,
    top: float,
    marker: str,
    title: str,
    faces: list[CounterFace],
    fill: RGB,
) -> None:
    """One legion: title line, then its marker and its counters side by side."""
    draw.text((PAD, top + HEADER / 2), title, font=font(17), fill=PAPER, anchor="lm")
    y = top + HEADER + COUNTER / 2
    draw_marker(draw, (PAD + COUNTER * 0.4, y), COUNTER * 0.8, marker, len(faces), fill)
    x = PAD + COUNTER * 0.8 + GAP * 2 + COUNTER / 2
    for counter in faces:
        draw_counter(draw, (x, y), COUNTER, counter, fill)
        x += COUNTER + GAP


def _row_width(count: int) -> int:
    return round(2 * PAD + COUNTER * 0.8 + GAP * 2 + max(count, 1) * (COUNTER + GAP))


def legion_card(
    marker: str,
    characters: Sequence[str],
    *,
    colour: str | None = None,
    score: int = 0,
    land: int | None = None,
) -> Image.Image:
    """The owner's card of a legion: every character with its Power-Skill (a Titan's Power
    from ``score``, rule 19.1) and the legion's value."""
    faces = _faces(characters, score)
    image = Image.new("RGB", (max(_row_width(8), _row_width(len(faces))), ROW), BACKGROUND)
    extra = f"{plural(len(faces), 'character')} · value {legion_value(characters, score)}"
    _draw_row(
        ImageDraw.Draw(image),
        0,
        marker,
        _title(marker, land, extra),
        faces,
        _colour(marker, colour),
    )
    return image


def legion_card_png(
    marker: str,
    characters: Sequence[str],
    *,
    colour: str | None = None,
    score: int = 0,
    land: int | None = None,
) -> bytes:
    """:func:`legion_card` as PNG bytes."""
    return png_bytes(legion_card(marker, characters, colour=colour, score=score, land=land))


def public_legion(
    marker: str,
    height: int,
    revealed: Sequence[str] = (),
    *,
    colour: str | None = None,
    score: int = 0,
    land: int | None = None,
) -> Image.Image:
    """What everyone knows of a legion: its height and the characters revealed in it; the
    others are drawn as ``?`` (RULES §3.3)."""
    known = list(revealed)[:height]
    faces = _faces([*known, *[UNKNOWN] * (height - len(known))], score)
    image = Image.new("RGB", (max(_row_width(8), _row_width(len(faces))), ROW), BACKGROUND)
    extra = f"height {height} · {len(known)} known"
    _draw_row(
        ImageDraw.Draw(image),
        0,
        marker,
        _title(marker, land, extra),
        faces,
        _colour(marker, colour),
    )
    return image


def public_legion_png(
    marker: str,
    height: int,
    revealed: Sequence[str] = (),
    *,
    colour: str | None = None,
    score: int = 0,
    land: int | None = None,
) -> bytes:
    """:func:`public_legion` as PNG bytes."""
    return png_bytes(public_legion(marker, height, revealed, colour=colour, score=score, land=land))


def _own(state: SheetLike | View, seat: int) -> list[tuple[str, int, tuple[str, ...]]]:
    """(marker, land, characters) of each of ``seat``'s legions, by marker; characters a
    view hides from its seat are ``?``."""
    if isinstance(state, View):
        return sorted(
            (leg.marker, leg.land, leg.characters or (UNKNOWN,) * leg.height)
            for leg in state.legions
            if leg.owner == seat
        )
    return sorted(
        (leg.marker, leg.land, tuple(leg.characters))
        for leg in state.legions.values()
        if leg.owner == seat
    )


def legions_sheet(state: SheetLike | View, seat: int) -> Image.Image:
    """All of ``seat``'s legions, one card per row ("my legions"; private to that player).

    ``state`` is a game state or ``seat``'s own view of it."""
    player = state.players[seat]
    own = _own(state, seat)
    widest = max((len(names) for _, _, names in own), default=1)
    size = (max(_row_width(8), _row_width(widest)), HEADER + PAD + ROW * max(1, len(own)))
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    power = titan_power(player.score)
    points = plural(player.score, "pt")
    heading = f"{player.name} · {player.colour or '-'} · {points} · Titan {power}"
    bold_text(draw, (PAD, HEADER / 2 + 4), heading, 20, PAPER, "lm")
    if not own:
        draw.text(
            (PAD, HEADER + PAD + ROW / 2), "no legions", font=font(17), fill=PAPER, anchor="lm"
        )
    for i, (marker, land, names) in enumerate(own):
        faces = _faces(names, player.score)
        known = [n for n in names if n != UNKNOWN]
        extra = f"{plural(len(faces), 'character')} · value {legion_value(known, player.score)}"
        top = HEADER + PAD + i * ROW
        _draw_row(
            draw, top, marker, _title(marker, land, extra), faces, _colour(marker, player.colour)
        )
    return image


def legions_sheet_png(state: SheetLike | View, seat: int) -> bytes:
    """:func:`legions_sheet` as PNG bytes."""
    return png_bytes(legions_sheet(state, seat))
