"""Showing a legion (errata 4.5) in the command language: read and written in pairs,
told in words, and open to every seated player at any time."""

from __future__ import annotations

import pytest

from bot.context import Place
from bot.discord import specs as s
from bot.handlers.ai_seats import NOT_FALLBACK
from bot.handlers.play import ANYTIME, ANYTIME_VERBS
from bot.narration.narrate import Names, narrate
from bot.offers import NOT_OFFERED
from bot.syntax import format_action, parse_command, to_action
from engine.errors import InvalidNotation
from engine.game import actions as a
from engine.game.events import SHOWN_BY_OWNER, Revealed
from engine.game.legal import legal_actions, to_act
from engine.game.state import GameState
from tests.bot.agent import caller
from tests.bot.test_service import to_split_phase
from tests.engine.game.helpers import pos

CHANNEL = 5
STATE = pos("Bk01@41:Ogre*2,Troll Rd01@600:Titan | turn=Bk")


def read(text: str, state: GameState = STATE, seat: int = 0) -> a.Action:
    return to_action(parse_command(text), state, seat)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("reveal Bk01", a.Reveal("Bk01")),
        ("reveal bk01 troll ogres Ogre", a.Reveal("Bk01", ("Troll", "Ogre", "Ogre"))),
        ("show Bk01 Ogre", a.Reveal("Bk01", ("Ogre",))),
    ],
)
def test_reveal_reads_and_writes_back(text, action):
    assert read(text) == action
    assert read(format_action(action)) == action


def test_reveal_names_a_legion():
    with pytest.raises(InvalidNotation, match="missing the legion to show"):
        read("reveal")
    with pytest.raises(InvalidNotation, match="Dodo"):
        read("reveal Bk01 Dodo")


def test_a_reveal_is_told_as_what_the_owner_shows():
    event = Revealed("Bk01", ("Ogre", "Ogre", "Troll"), SHOWN_BY_OWNER)
    assert narrate([event], Names(STATE)) == ["Bk01 (Black) shows: Ogre ×2, Troll."]
    battle = Revealed("Bk01", ("Troll",), "battle")
    assert narrate([battle], Names(STATE)) == ["Bk01 (Black) shows Troll (battle)."]


def test_any_time_never_offered_as_a_button_nor_played_by_the_computer():
    assert a.Reveal in ANYTIME and "reveal" in ANYTIME_VERBS
    assert a.Reveal in NOT_OFFERED and a.Reveal in NOT_FALLBACK
    assert (
        s.REVEAL.text({"legion": "Bk01", "characters": "Ogre  Troll"}) == "reveal Bk01 Ogre Troll"
    )
    assert s.REVEAL.text({"legion": "Bk01", "characters": None}) == "reveal Bk01"


async def test_a_player_shows_a_legion_out_of_turn_and_the_channel_hears_it(service):
    game = await to_split_phase(service)
    idle = 1 - to_act(game.state)
    marker = next(leg.marker for leg in game.state.legions_of(idle))
    who = caller(CHANNEL, idle)
    refused = await service.submit(Place(CHANNEL), who, "roll")
    assert refused.error and "not your turn" in refused.ephemeral.text
    replies = await service.submit(Place(CHANNEL), who, f"reveal {marker} Titan Angel")
    assert not replies.error, replies.ephemeral
    assert f"{marker} ({game.name_of(idle)}) shows: Angel, Titan." in replies.public.text
    game = await service.game_in(CHANNEL)
    assert game.state.legion(marker).revealed == ("Angel", "Titan")
    again = await service.submit(Place(CHANNEL), who, f"reveal {marker} Titan")
    assert again.error and "already" in again.ephemeral.text
    assert a.Reveal(marker) in legal_actions(game.state, idle)
