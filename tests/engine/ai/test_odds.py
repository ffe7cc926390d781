"""Dice odds of the computer player (RULES §9.2)."""

from __future__ import annotations

import pytest

from engine.ai.odds import combine, hit_chance, hits


@pytest.mark.parametrize(("number", "chance"), [(1, 1.0), (4, 0.5), (6, 1 / 6), (7, 1 / 6)])
def test_rule_9_2_a_die_hits_at_or_above_the_strike_number(number, chance):
    assert hit_chance(number) == pytest.approx(chance)


def test_hits_are_binomial():
    dist = hits(6, 3)  # V2: a Titan of Power 6 at a Gargoyle, S 3
    assert sum(dist) == pytest.approx(1.0)
    assert sum(k * p for k, p in enumerate(dist)) == pytest.approx(6 * 4 / 6)
    assert dist[6] == pytest.approx((4 / 6) ** 6)


def test_strikes_combine_as_independent_sums():
    both = combine(hits(2, 4), hits(1, 6))
    assert len(both) == 4
    assert both[3] == pytest.approx(0.25 / 6)
    assert sum(both) == pytest.approx(1.0)
