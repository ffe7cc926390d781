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
from engine.battle.position import Fighter, Side
from engine.battle.state import Battle
from engine.game.reach import Reach, reach
from engine.game.state import GameState, Stage

if TYPE_CHECKING:
    from bot.records.course import Course

log = logging.getLogger(__name__)

Renderer = Callable[[Picture], bytes | None]
HEADER = "render.battle_header"


def _function(module: str, name: str) -> Callable[..., Any] | None:
    """``module.name`` if it can be imported and called, else None."""
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return found if callable(found) else None


def masterboard_reach(picture: Picture) -> tuple[Reach, ...]:
    """Where a masterboard shows the mover's legions may go: in the movement phase, as the
    picture's viewer knows it (a public picture: no teleport of a hidden lord, RULES §1.7)."""
    return reach(picture.state, picture.viewer)


def _masterboard(picture: Picture) -> bytes | None:
    """The board, the land shown highlighted, where the mover's legions may go
    (:func:`masterboard_reach`; only the chosen legion's when one is)."""
    draw = _function("render.masterboard", "masterboard_png")
    if draw is None:
        return None
    highlights = () if picture.land is None else (picture.land,)
    moves = masterboard_reach(picture)
    image = draw(picture.state, highlights=highlights, reach=moves, selected=picture.legion)
    return image if isinstance(image, bytes) else None


def _colour_of(state: GameState, marker: str) -> str | None:
    legion = state.legions.get(marker)
    return state.player(legion.owner).colour if legion is not None else None


def _battleland(picture: Picture) -> bytes | None:
    """The battle in progress (public to everyone, RULES §5.7), its last maneuvers and
    strikes highlighted."""
    draw = _function("render.battleland", "battleland_png")
    options = battleland_options(picture)
    if draw is None or options is None:
        return None
    image = draw(options.pop("position"), **options)
    return image if isinstance(image, bytes) else None


def battleland_options(picture: Picture) -> dict[str, Any] | None:
    """What the battleland picture of ``picture`` is drawn from (the keyword options of
    ``render.battleland.battleland_png``, and ``position``), or None without a battle: only
    the battle's two legions, public from its start (RULES §5.7), its characters waiting
    off the board included."""
    engagement = picture.state.engagement
    battle = engagement.battle if engagement is not None else None
    if engagement is None or battle is None or engagement.stage is not Stage.BATTLE:
        return None
    state = picture.state
    marks = picture.marks or BattleMarks()
    options: dict[str, Any] = {
        "position": battle.position,
        "attacker_colour": _colour_of(state, engagement.attacker) or "Red",
        "defender_colour": _colour_of(state, engagement.defender) or "Blue",
        "entry_side": battle.entry_side,
        "turn": battle.turn,
        "selected": marks.selected or marks.entered,
        "destinations": marks.destinations,
    }
    if marks.moves or marks.strikes:
        options["moves"] = marks.moves
        options["strikes"] = _strikes(marks)
    else:
        options |= {
            "last_move": marks.last_move,
            "last_strike": marks.last_strike,
            "strike_result": marks.strike_result,
            "rangestrike": marks.rangestrike,
        }
    heading = _heading(state, battle)
    if heading is not None:
        options["heading"] = heading
    options["waiting"] = tuple(
        Fighter(name, side, "", battle.power_of(side, name))
        for side in Side
        for name in battle.waiting(side)
    )
    return options


def battleland_scene(picture: Picture) -> Any:
    """The layout of the battleland picture of ``picture`` (``render.battle_scene.Scene``:
    its header's texts and every counter it places), or None."""
    scene = _function("render.battle_scene", "battle_scene")
    options = battleland_options(picture)
    if scene is None or options is None:
        return None
    wanted = ("heading", "waiting", "entry_side")
    return scene(options["position"], **{k: v for k, v in options.items() if k in wanted})


def _heading(state: GameState, battle: Battle) -> Any:
    """The header of the battle: both legions' markers, heights, owners and colours."""
    party, heading_of = _function(HEADER, "Party"), _function(HEADER, "heading_of")
    if party is None or heading_of is None:
        return None
    parties = []
    for side in Side:
        marker = battle.marker(side)
        legion = state.legions.get(marker)
        height = legion.height if legion is not None else len(battle.legion(side))
        owner = state.player(legion.owner) if legion is not None else None
        name = owner.name if owner is not None else marker
        parties.append(party(marker, height, name, owner.colour if owner else None))
    return heading_of(battle, *parties)


def _strikes(marks: BattleMarks) -> tuple[Any, ...]:
    mark = _function("render.battleland", "StrikeMark")
    if mark is None:
        return ()
    return tuple(mark(*strike) for strike in marks.strikes)


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
