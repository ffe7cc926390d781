"""Slash options → command lines, legal choices and ambiguity (no Discord involved)."""

from __future__ import annotations

import pytest

from bot.context import Place
from bot.discord import specs as s
from bot.discord.components import choices_view
from bot.offers import NOT_OFFERED, Menu, Offer, Offers, public_offers
from bot.syntax import parse_command
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import to_act
from engine.movement import MoveKind
from tests.bot.agent import caller, open_game

MOVES = [
    a.Move("Bk01", 104, None, 1),
    a.Move("Bk01", 104, None, 3),
    a.Move("Bk01", 7, None, None),
    a.Move("Bk01", 300, MoveKind.TOWER_TELEPORT),
    a.Move("Bk02", 108),
    a.EndMovement(),
]


@pytest.mark.parametrize(
    ("spec", "values", "text"),
    [
        (s.MOVE, {"legion": "Bk01", "land": "104", "side": "3"}, "move Bk01 104 side 3"),
        (
            s.MOVE,
            {"legion": "bk01", "land": "1", "teleport": "titan"},
            "move bk01 1 teleport titan",
        ),
        (s.SPLIT, {"legion": "Bk01", "characters": "Ogre  Ogre"}, "split Bk01 Ogre Ogre"),
        (s.NEW, {"players": 3, "record_keeping": True}, "new players 3 record_keeping"),
        (s.NEW, {"players": None, "time_limit": False}, "new"),
        (s.JOIN, {"name": "Big Al"}, "join Big Al"),
        (s.STRIKE, {"striker": "D4", "target": "E5", "strike_number": "5"}, "strike D4 E5 sn 5"),
        (s.ADD, {"user": "<@5>", "name": None}, "add '<@5>'"),
    ],
)
def test_options_become_a_command_line_of_the_shared_language(spec, values, text):
    assert spec.text(values) == text
    parse_command(text)


def test_words_cannot_smuggle_extra_words_in():
    text = s.TAKEBACK.text({"legion": "Bk01 side 5"})
    assert parse_command(text).words == ("Bk01 side 5",)


def test_suggestions_follow_the_other_options_and_the_typed_prefix():
    assert s.suggestions(s.MOVE, "legion", MOVES, {}, "") == ["Bk01", "Bk02"]
    assert s.suggestions(s.MOVE, "land", MOVES, {"legion": "bk01"}, "") == ["104", "7", "300"]
    assert s.suggestions(s.MOVE, "land", MOVES, {"legion": "Bk01"}, "10") == ["104"]
    assert s.suggestions(s.MOVE, "land", MOVES, {"legion": "Bk01"}, "0") == ["104", "300"]
    assert s.suggestions(s.MOVE, "side", MOVES, {"legion": "Bk01", "land": "104"}, "") == ["1", "3"]
    assert s.suggestions(s.MOVE, "teleport", MOVES, {"legion": "Bk01"}, "") == ["tower"]
    many = [a.Engage(land) for land in range(1, 40)]
    assert len(s.suggestions(s.ENGAGE, "land", many, {}, "")) == s.MAX_CHOICES


def test_a_command_is_ambiguous_only_when_no_reading_is_the_default():
    assert s.ambiguity(s.MOVE, MOVES, {"legion": "Bk01", "land": "104"}) == MOVES[:2]
    assert s.ambiguity(s.MOVE, MOVES, {"legion": "Bk01", "land": "104", "side": "3"}) == []
    assert s.ambiguity(s.MOVE, MOVES, {"legion": "Bk01", "land": "7"}) == []
    strikes = [b.Strike("D4", "E5"), b.Strike("D4", "E5", 2, None), b.Strike("D4", "E5", None, 5)]
    assert s.ambiguity(s.STRIKE, strikes, {"striker": "D4", "target": "E5"}) == []


def test_candidates_differing_only_in_what_they_reveal_mean_the_first():
    """RULES §1.7: the engine shows the least revealing set by default, the first listed."""
    teleports = [
        a.Move("Bk01", 30, MoveKind.TOWER_TELEPORT, None, "Angel"),
        a.Move("Bk01", 30, MoveKind.TOWER_TELEPORT, None, "Titan"),
    ]
    assert s.ambiguity(s.MOVE, teleports, {"legion": "Bk01", "land": "30"}) == []
    musters = [
        a.Muster("Bk01", "Warlock", ("Warlock",)),
        a.Muster("Bk01", "Warlock", ("Titan",)),
        a.Muster("Bk01", "Ogre", ()),
    ]
    assert s.ambiguity(s.MUSTER, musters, {"legion": "Bk01", "recruit": "Warlock"}) == []
    assert s.ambiguity(s.MUSTER, musters, {"legion": "Bk01"}) == musters
    reinforcements = [a.Reinforce("Troll", ("Troll",)), a.Reinforce("Troll", ("Ogre", "Ogre"))]
    assert s.ambiguity(s.REINFORCE, reinforcements, {"recruit": "Troll"}) == []
    # Which lord to summon is the decision itself, not a reveal.
    summons = [a.Summon("Bk02", "Archangel"), a.Summon("Bk02", "Angel")]
    assert s.ambiguity(s.SUMMON, summons, {"donor": "Bk02"}) == summons


def test_only_leaving_the_game_the_time_limit_and_showing_a_legion_are_left_to_commands():
    assert set(NOT_OFFERED) == {a.Withdraw, a.ExpireTimeLimit, a.Reveal}


def test_choices_are_drawn_as_rows_of_buttons_and_menus():
    offers = [Offer(f"Engage {n}", f"engage {n}") for n in range(1, 30)]

    def view(count: int, menus: tuple[Menu, ...] = ()):
        return choices_view(Offers(1, 9, tuple(offers[:count]), menus))

    buttons = view(25).children
    assert len(buttons) == 25 and buttons[0].item.label == "Engage 1"
    assert buttons[0].item.custom_id == "titan:1:engage 1:9"
    assert {b.item.row for b in buttons} == {0, 1, 2, 3, 4}  # five rows of five
    menu = Menu("Choose…", tuple(offers[:25]))
    drawn = view(3, (menu,)).children
    assert [c.item.row for c in drawn] == [0, 1, 1, 1]  # the menu first, a row of its own
    assert drawn[0].custom_id == "titan:1:pick:9"
    assert [o.value for o in drawn[0].item.options] == [o.command for o in offers[:25]]
    two = view(0, (menu, menu)).children
    assert [m.custom_id for m in two] == ["titan:1:pick:9", "titan:1:pick#2:9"]
    several = Menu("Leaving…", tuple(offers[:4]), "choices split Bk01", least=2, most=3)
    [picked] = view(0, (several,)).children
    assert picked.custom_id == "titan:1:pick choices split Bk01:9"
    assert (picked.item.min_values, picked.item.max_values) == (2, 3)
    long = Offer("Long", "split Bk01 Bk03 " + " ".join(["Salamander"] * 7))
    [moved] = choices_view(Offers(1, 9, (long,))).children  # too long for a button's id
    assert moved.custom_id == "titan:1:pick:9" and moved.item.options[0].value == long.command
    assert view(0) is None
    assert choices_view(None) is None


async def test_offered_choices_come_from_the_legal_actions_of_who_must_act(service):
    await open_game(service, 9, 2)
    game = await service.game_in(9)

    def offered() -> list[str]:
        return public_offers(game.state).commands()

    assert offered() == [f"colour {c}" for c in ("Black", "Blue", "Brown", "Gold", "Green", "Red")]
    for _ in range(2):
        seat = to_act(game.state)
        replies = await service.submit(Place(9), caller(9, seat), offered()[0])
        game = await service.game_in(9)
        assert replies.public.offers.choices == public_offers(game.state)
        assert replies.public.offers.version == game.n
    # The first turn starts with a split, chosen in private steps.
    assert offered() == ["choices split"]
