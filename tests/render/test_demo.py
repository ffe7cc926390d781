"""The demonstration set for ``titanbot render-demo``."""

from __future__ import annotations

from engine.battleland import BATTLELANDS
from render.demo import demo_set
from tests.render.helpers import decode


def test_demo_set_has_every_picture_and_each_is_a_small_png():
    pictures = demo_set()
    battles = {f"battleland-{t.lower()}.png" for t in BATTLELANDS}
    expected = {"masterboard.png", "masterboard-reachable.png", "masterboard-moves.png"}
    expected |= {"masterboard-moves-public.png", "legion-card.png"}
    assert expected | battles <= set(pictures)
    for png in pictures.values():
        decode(png)
