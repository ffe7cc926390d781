"""Legion cards, the public legion card and the "my legions" sheet."""

from __future__ import annotations

from dataclasses import replace

from engine.game.state import Legion
from engine.game.view import view
from render.demo import demo_state
from render.legions import (
    COUNTER,
    GAP,
    HEADER,
    PAD,
    legion_card_png,
    legions_sheet_png,
    public_legion_png,
)
from render.style import PLAYER_COLOURS, font
from tests.render.helpers import decode, near, pixel

STARTING = ("Titan", "Angel", "Centaur", "Centaur", "Gargoyle", "Gargoyle", "Ogre", "Ogre")


def _first_counter_probe() -> tuple[float, float]:
    x = PAD + COUNTER * 0.8 + GAP * 2 + COUNTER / 2
    return x - 0.4 * COUNTER, HEADER + COUNTER / 2


def test_card_shows_every_character_in_the_owners_colour():
    image = decode(legion_card_png("Gr01", STARTING, score=250, land=500))
    assert near(pixel(image, *_first_counter_probe()), PLAYER_COLOURS["Green"])
    last_x = _first_counter_probe()[0] + 7 * (COUNTER + GAP)
    assert near(pixel(image, last_x, HEADER + COUNTER / 2), PLAYER_COLOURS["Green"])
    assert image.width >= PAD + 9 * (COUNTER + GAP)


def test_card_grows_with_a_tall_legion():
    small = decode(legion_card_png("Rd02", ("Ogre", "Ogre")))
    tall = decode(legion_card_png("Rd02", (*STARTING, "Troll", "Troll")))
    assert tall.width > small.width
    assert tall.height == small.height


def test_public_card_shows_only_what_was_revealed():
    a = public_legion_png("Bu04", 5, ("Warlock",), land=300)
    b = public_legion_png("Bu04", 5, ("Warlock",), land=300)
    assert a == b
    image = decode(a)
    grey = pixel(image, _first_counter_probe()[0] + COUNTER + GAP, HEADER + COUNTER / 2)
    assert near(grey, (150, 150, 156))


def test_public_card_ignores_hidden_contents():
    state = demo_state()
    legion = state.legion("Rd01")
    other = replace(legion, characters=("Titan",) + ("Ogre",) * (legion.height - 1))
    cards = [
        public_legion_png(leg.marker, leg.height, leg.revealed, land=leg.land)
        for leg in (legion, other)
    ]
    assert cards[0] == cards[1]


def test_sheet_has_a_row_per_legion_and_matches_the_owners_view():
    state = demo_state()
    own = sum(1 for _ in state.legions_of(0))
    image = decode(legions_sheet_png(state, 0))
    one = decode(legions_sheet_png(replace(state, legions={"Rd01": state.legion("Rd01")}), 0))
    assert image.height - one.height == (own - 1) * (one.height - HEADER - PAD)
    assert legions_sheet_png(state, 0) == legions_sheet_png(view(state, 0), 0)
    hidden = legions_sheet_png(view(state, 1), 0)
    assert hidden != legions_sheet_png(state, 0)
    decode(hidden)


def test_sheet_of_a_player_without_legions():
    state = demo_state()
    legions = {m: leg for m, leg in state.legions.items() if leg.owner != 3}
    decode(legions_sheet_png(replace(state, legions=legions), 3))


def test_text_is_never_below_12_px():
    assert font(5).size == 12
    assert font(20).size == 20


def test_unknown_and_titan_power():
    legion = Legion("Bk01", 3, 108, ("Titan", "Guardian"))
    assert legion_card_png(legion.marker, legion.characters, score=0) != legion_card_png(
        legion.marker, legion.characters, score=700
    )
