"""The command rate: a token bucket per user, on an injected clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ratelimit import PRUNE_AT, CommandRate


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_command_per_refill():
    clock = Clock()
    rate = CommandRate(per_minute=6, burst=3, clock=clock)
    assert [rate.take(1) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rate.take(1) == pytest.approx(10.0)  # one token every 10 s
    clock.now += 9.9
    assert rate.take(1) == pytest.approx(0.1)
    clock.now += 0.1
    assert rate.take(1) == 0.0
    assert rate.take(1) == pytest.approx(10.0)


def test_refusals_spend_nothing_and_users_are_apart():
    clock = Clock()
    rate = CommandRate(per_minute=60, burst=1, clock=clock)
    assert rate.take(1) == 0.0
    for _ in range(50):
        assert rate.take(1) == pytest.approx(1.0)  # asking again does not push it back
    assert rate.take(2) == 0.0
    clock.now += 1
    assert rate.take(1) == 0.0


def test_a_bucket_holds_no_more_than_its_burst():
    clock = Clock()
    rate = CommandRate(per_minute=60, burst=2, clock=clock)
    clock.now += 3600
    assert [rate.take(7) == 0.0 for _ in range(3)] == [True, True, False]


def test_users_whose_bucket_refilled_are_forgotten():
    clock = Clock()
    rate = CommandRate(per_minute=60, burst=5, clock=clock)
    most = 0
    for second in range(20):
        for k in range(300):  # 300 new users a second, each bucket full again a second later
            assert rate.take(second * 1000 + k) == 0.0
            most = max(most, len(rate))
        clock.now += 1
    assert most <= PRUNE_AT  # 6,000 users seen, never more than the threshold kept
    assert len(rate) < PRUNE_AT


@pytest.mark.parametrize(("per_minute", "burst"), [(0, 3), (-1, 3), (10, 0)])
def test_a_rate_needs_a_positive_rate_and_burst(per_minute, burst):
    with pytest.raises(ValueError):
        CommandRate(per_minute, burst)


requests = st.lists(
    st.tuples(st.floats(0, 30, allow_nan=False), st.integers(0, 2)), min_size=1, max_size=80
)


@given(
    requests,
    st.floats(0.5, 120, allow_nan=False),
    st.integers(1, 12),
)
def test_no_interval_admits_more_than_the_burst_and_the_rate(gaps, per_minute, burst):
    clock = Clock()
    rate = CommandRate(per_minute, burst, clock)
    admitted: dict[int, list[float]] = {}
    for gap, user in gaps:
        clock.now += gap
        if rate.take(user) == 0.0:
            admitted.setdefault(user, []).append(clock.now)
    for times in admitted.values():
        for i, start in enumerate(times):
            for j in range(i, len(times)):
                allowed = burst + (times[j] - start) * per_minute / 60
                assert j - i + 1 <= allowed + 1e-6


@given(requests, st.floats(0.5, 120, allow_nan=False), st.integers(1, 12))
def test_a_refused_user_is_admitted_after_the_wait_it_was_told(gaps, per_minute, burst):
    clock = Clock()
    rate = CommandRate(per_minute, burst, clock)
    for gap, user in gaps:
        clock.now += gap
        wait = rate.take(user)
        if wait > 0:
            clock.now += wait
            assert rate.take(user) == 0.0
