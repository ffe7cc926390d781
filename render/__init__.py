"""Pictures of a game of TITAN: pure functions from engine values to PIL images or PNG bytes.

* :func:`masterboard_png` — the board, legion markers, highlights and the player strip;
  public information only (a game state, a :class:`~engine.game.view.View` or a
  :class:`BoardInfo`).
* :func:`battleland_png` — any battleland with its fighters (a battle ``Position``).
* :func:`legion_card_png`, :func:`public_legion_png`, :func:`legions_sheet_png` — legions.
* :func:`table_png` — a table (standings, a leaderboard) from plain strings.
* :func:`final_card_png` — a finished game's final card over :func:`score_chart_png`, the
  chart of its scores by game turn; :func:`replay_gif` — its replay, an animated GIF of
  the public masterboard, one frame per player turn.
* :func:`demo_set` — one picture of every kind, for ``titanbot render-demo``.

Each ``*_png`` has an image twin (``masterboard``, ``battleland_image``, ``legion_card``,
``public_legion``, ``legions_sheet``, ``table_image``). Static layers are drawn once and
cached. No I/O.
"""

from render.battleland import battleland_image, battleland_png
from render.board_info import BoardInfo, board_info
from render.demo import demo_set
from render.final_card import final_card, final_card_png
from render.legions import (
    legion_card,
    legion_card_png,
    legions_sheet,
    legions_sheet_png,
    public_legion,
    public_legion_png,
)
from render.masterboard import masterboard, masterboard_png
from render.replay import replay_gif
from render.score_chart import score_chart, score_chart_png
from render.table import Column, Line, Mark, Note, table_image, table_png

__all__ = [
    "BoardInfo",
    "Column",
    "Line",
    "Mark",
    "Note",
    "battleland_image",
    "battleland_png",
    "board_info",
    "demo_set",
    "final_card",
    "final_card_png",
    "legion_card",
    "legion_card_png",
    "legions_sheet",
    "legions_sheet_png",
    "masterboard",
    "masterboard_png",
    "public_legion",
    "public_legion_png",
    "replay_gif",
    "score_chart",
    "score_chart_png",
    "table_image",
    "table_png",
]
