"""A match double's verdicts follow from the stake arithmetic: with MWC ``p`` the doubler
has ``2p - 1`` stakes without doubling, ``2(2p - 1)`` if taken, ``+1`` if dropped, so the
take point is 25 %."""

from __future__ import annotations

import pytest

from analysis.rules_as_played import TAKE_POINT, judge_match_double, skill_mark


@pytest.mark.parametrize(
    ("mwc", "taken", "should_double", "should_take", "double_error", "answer_error"),
    [
        # an even match: doubling gains nothing, taking is right
        (0.50, True, False, True, 0.0, 0.0),
        # the doubler at 60 %: double (0.4 taken beats 0.2 kept), take
        (0.60, True, True, True, 0.0, 0.0),
        # the doubler at 80 %: a drop (+1) beats a take (+1.2) for the taker; taking cost 0.2
        (0.80, True, True, False, 0.0, 0.2),
        (0.80, False, True, False, 0.0, 0.0),
        # the doubler at 70 %: dropping gave up 1 - 0.8 = 0.2 stakes
        (0.70, False, True, True, 0.0, 0.2),
        # the doubler at 40 %: doubling turned -0.2 into -0.4
        (0.40, True, False, True, 0.2, 0.0),
        # exactly at the take point: taking and dropping are worth the same
        (0.75, True, True, True, 0.0, 0.0),
        (0.75, False, True, True, 0.0, 0.0),
    ],
)
def test_verdicts_follow_the_take_point(
    mwc: float,
    taken: bool,
    should_double: bool,
    should_take: bool,
    double_error: float,
    answer_error: float,
) -> None:
    judged = judge_match_double(mwc, taken=taken)

    assert (judged.no_double, judged.double_take, judged.double_drop) == pytest.approx(
        (2 * mwc - 1, 2 * (2 * mwc - 1), 1.0)
    )
    assert judged.should_double is should_double
    assert judged.should_take is should_take
    assert judged.should_take is (1 - mwc >= TAKE_POINT)
    assert judged.double_error == pytest.approx(double_error)
    assert judged.answer_error == pytest.approx(answer_error)


@pytest.mark.parametrize(
    ("error", "mark"),
    [(0.0, None), (0.029, None), (0.03, "doubtful"), (0.06, "bad"), (0.2, "very bad")],
)
def test_errors_are_marked_with_gnubgs_thresholds(error: float, mark: str | None) -> None:
    assert skill_mark(error) == mark
