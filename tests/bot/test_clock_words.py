"""A game's clock in words (the lobby's and the settings' news): the level the computer
stands in at is said where it is not the default, once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.schedule.options import after_deadline, describe, with_stand_in
from bot.storage.record import NO_CLOCK
from engine.errors import IllegalAction

DAY = replace(NO_CLOCK, deadline=86400)


def test_the_default_level_goes_unsaid():
    assert describe(NO_CLOCK) == "no deadline"
    assert describe(DAY) == "1d a decision, then the computer plays"


def test_another_level_is_said_with_the_timeout_or_on_its_own():
    assert (
        describe(with_stand_in(DAY, "Normal")) == "1d a decision, then the computer plays at normal"
    )
    easy = with_stand_in(NO_CLOCK, "easy")
    assert describe(easy) == "no deadline; the computer stands in at easy"
    passing = with_stand_in(replace(DAY, on_timeout="pass"), "easy")
    assert (
        describe(passing)
        == "1d a decision, then the least is played; the computer stands in at easy"
    )


def test_an_unknown_level_is_refused():
    with pytest.raises(IllegalAction, match=r"easy.*normal.*hard"):
        with_stand_in(NO_CLOCK, "genius")


def test_status_says_what_a_passed_deadline_does_with_the_level():
    assert after_deadline(DAY, level=True) == "the computer plays at hard"
    assert after_deadline(with_stand_in(DAY, "easy"), level=True) == "the computer plays at easy"
    assert after_deadline(replace(DAY, on_timeout="pause"), level=True) == "it waits"
