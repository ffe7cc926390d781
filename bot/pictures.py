"""The pluggable renderer: a :class:`Picture` → PNG bytes (drawn by :mod:`bot.painting`).

The service works without pictures (``renderer=None``); :func:`default_renderer` adapts
the ``render`` package, looked up at call time so a partly written ``render`` package
degrades to "no image" instead of failing a command.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.replies import BattleMarks, Picture, PictureKind
from engine.game.state import GameState, Stage

if TYPE_CHECKING:
    from bot.records.course import Course

log = logging.getLogger(__name__)

Renderer = Callable[[Picture], bytes | None]


def _function(module: str, name: str) -> Callable[..., Any] | None:
    """``module.name`` if it can be imported and called, else None."""
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return found if callable(found) else None


def _masterboard(picture: Picture) -> bytes | None:
    draw = _function("render.masterboard", "masterboard_png")
    if draw is None:
        return None
    highlights = () if picture.land is None else (picture.land,)
    image = draw(picture.state, highlights=highlights)
    return image if isinstance(image, bytes) else None


def _colour_of(state: GameState, marker: str) -> str | None:
    legion = state.legions.get(marker)
    return state.player(legion.owner).colour if legion is not None else None


def _battleland(picture: Picture) -> bytes | None:
    """The battle in progress (public to everyone, RULES §5.7), its last maneuver and
    strike highlighted."""
    draw = _function("render.battleland", "battleland_png")
    engagement = picture.state.engagement
    battle = engagement.battle if engagement is not None else None
    if draw is None or engagement is None or battle is None or engagement.stage is not Stage.BATTLE:
        return None
    state = picture.state
    marks = picture.marks or BattleMarks()
    image = draw(
        battle.position,
        attacker_colour=_colour_of(state, engagement.attacker) or "Red",
        defender_colour=_colour_of(state, engagement.defender) or "Blue",
        entry_side=battle.entry_side,
        turn=battle.turn,
        last_move=marks.last_move,
        last_strike=marks.last_strike,
        strike_result=marks.strike_result,
        rangestrike=marks.rangestrike,
        selected=marks.entered,
    )
    return image if isinstance(image, bytes) else None


def _legions(picture: Picture) -> bytes | None:
    """The viewer's own legions (private: only ever sent to that player)."""
    draw = _function("render.legions", "legions_sheet_png")
    if draw is None or picture.viewer is None:
        return None
    image = draw(picture.state, picture.viewer)
    return image if isinstance(image, bytes) else None


def card_of(course: Course) -> tuple[Any, list[Any]]:
    """The final card's facts and the chart's series of ``course`` (render's types), the
    players in order of place."""
    card = importlib.import_module("render.final_card")
    chart = importlib.import_module("render.score_chart")
    players = tuple(
        card.CardPlayer(
            course.places[seat], course.names[seat], course.colours[seat],
            course.final_scores[seat], course.fates[seat],
        )
        for seat in course.by_place()
    )  # fmt: skip
    facts = card.CardFacts(
        title=f"TITAN · game #{course.game} is over",
        result=course.result,
        players=players,
        turns=course.turns,
        player_turns=course.player_turns,
        battles=course.battles,
        engagements=course.engagements,
    )
    series = [
        chart.Series(
            course.names[seat], course.colours[seat], tuple(t[seat] for t in course.scores)
        )
        for seat in course.by_place()
    ]
    return facts, series


def _final(picture: Picture) -> bytes | None:
    """A finished game's final card over the chart of its scores (public, once over)."""
    course = picture.course
    draw = _function("render.final_card", "final_card_png")
    if draw is None or course is None or not course.over:
        return None
    image = draw(*card_of(course))
    return image if isinstance(image, bytes) else None


def _replay(picture: Picture) -> bytes | None:
    """A finished game's replay on the public masterboard, an animated GIF."""
    course = picture.course
    draw = _function("render.replay", "replay_gif")
    if draw is None or course is None or not course.over or not course.frames:
        return None
    image = draw(course.frames)
    return image if isinstance(image, bytes) else None


_DRAW: dict[PictureKind, Callable[[Picture], bytes | None]] = {
    PictureKind.MASTERBOARD: _masterboard,
    PictureKind.BATTLELAND: _battleland,
    PictureKind.LEGIONS: _legions,
    PictureKind.FINAL: _final,
    PictureKind.REPLAY: _replay,
}


def render_with_package(picture: Picture) -> bytes | None:
    """Draw ``picture`` with the ``render`` package (None when it cannot draw it yet)."""
    return _DRAW[picture.kind](picture)


def default_renderer() -> Renderer | None:
    """The ``render`` package's renderer if it can draw a masterboard, else None."""
    return render_with_package if _function("render.masterboard", "masterboard_png") else None
