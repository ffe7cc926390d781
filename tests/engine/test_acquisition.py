"""Acquiring Angels and Archangels (RULES §7.1; errata 17.3; §13 E24, V10)."""

from __future__ import annotations

import pytest

from engine.acquisition import (
    Acquisition,
    acquisition_choices,
    acquisitions,
    best_acquisition,
    check_acquisition,
)
from engine.errors import IllegalSummon


def test_each_multiple_of_100_crossed_gives_one():
    assert acquisitions(180, 330) == (Acquisition(200, ("Angel",)), Acquisition(300, ("Angel",)))
    assert acquisitions(40, 88) == ()
    assert acquisitions(99, 100) == (Acquisition(100, ("Angel",)),)
    assert acquisitions(100, 199) == ()


def test_e24_480_plus_40_one_archangel_or_angel():
    assert acquisitions(480, 520) == (Acquisition(500, ("Archangel", "Angel")),)
    assert acquisition_choices(480, 520, legion_height=4) == [("Archangel",), ("Angel",), ()]
    assert best_acquisition(480, 520, 4) == ("Archangel",)


def test_v10_375_plus_150_angel_then_archangel_or_angel():
    assert acquisitions(375, 525) == (
        Acquisition(400, ("Angel",)),
        Acquisition(500, ("Archangel", "Angel")),
    )
    assert best_acquisition(375, 525, 2) == ("Archangel", "Angel")


def test_errata_17_3_angel_instead_of_archangel_is_allowed():
    assert ("Angel", "Angel") in acquisition_choices(375, 525, 2)
    check_acquisition(375, 525, 2, ["Angel", "Angel"])
    check_acquisition(480, 520, 2, ["Angel"])


def test_never_two_archangels_for_one_multiple_of_500():
    with pytest.raises(IllegalSummon, match=r"RULES §7\.1"):
        check_acquisition(375, 525, 2, ["Archangel", "Archangel"])
    with pytest.raises(IllegalSummon, match="only Angels and Archangels"):
        check_acquisition(375, 525, 2, ["Guardian"])


def test_room_limits_height_six_takes_one():
    assert best_acquisition(180, 330, 6) == ("Angel",)
    assert best_acquisition(375, 525, 6) == ("Archangel",)  # skip the 400 Angel
    assert acquisition_choices(375, 525, 6) == [("Archangel",), ("Angel",), ()]


def test_room_limits_full_legion_takes_nothing():
    assert acquisition_choices(0, 180, 7) == [()]
    with pytest.raises(IllegalSummon):
        check_acquisition(0, 180, 7, ["Angel"])


def test_caretaker_limits():
    assert best_acquisition(375, 525, 2, {"Angel": 5, "Archangel": 0}) == ("Angel", "Angel")
    assert best_acquisition(375, 525, 2, {"Angel": 0, "Archangel": 6}) == ("Archangel",)
    assert best_acquisition(180, 330, 2, {"Angel": 1}) == ("Angel",)
    assert acquisition_choices(180, 330, 2, {}) == [()]


def test_a_big_score_is_capped_by_room():
    assert best_acquisition(0, 1000, 3) == ("Archangel", "Archangel", "Angel", "Angel")


def test_scores_do_not_fall():
    with pytest.raises(ValueError, match="must not fall"):
        acquisitions(300, 200)
