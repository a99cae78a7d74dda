"""The run statistics against figures worked out by hand in the comments, never by calling the library again:
Wilson intervals of per-task success rates, pass@k and pass^k, and paired comparisons of two runs."""

from __future__ import annotations

import pytest

from pytest_spider2v.reports.statistics import (
    Interval,
    PairedComparison,
    paired_comparison,
    pass_at_k,
    pass_hat_k,
    rate_interval,
)

# Wilson: z = 1.959964, z² = 3.841459;
# center = (p + z²/2n) / (1 + z²/n), half = z * sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).
# For n = 5: z²/n = 0.768292, 1 + z²/n = 1.768292, z²/4n² = 3.841459/100 = 0.038415.


def test_wilson_four_of_five_tasks() -> None:
    # p = 0.8: center = (0.8 + 0.384146) / 1.768292 = 1.184146 / 1.768292 = 0.669655
    # half = 1.959964 * sqrt(0.16/5 + 0.038415) / 1.768292 = 1.959964 * sqrt(0.070415) / 1.768292
    #      = 1.959964 * 0.265357 / 1.768292 = 0.294121
    # -> [0.669655 - 0.294121, 0.669655 + 0.294121] = [0.375534, 0.963776]
    interval = rate_interval([1, 1, 1, 1, 0])
    assert interval is not None
    assert interval.low == pytest.approx(0.3755, abs=1e-4)
    assert interval.high == pytest.approx(0.9638, abs=1e-4)
    assert interval.to_json() == {"low": 0.3755, "high": 0.9638}
    assert interval.text() == "[37.6%, 96.4%]"


def test_wilson_five_of_five_keeps_a_width() -> None:
    # p = 1: center = (1 + 0.384146) / 1.768292 = 0.782759; half = 1.959964 * sqrt(0 + 0.038415) / 1.768292
    #      = 1.959964 * 0.195996 / 1.768292 = 0.217241 -> low = 0.565518 (= 1 / 1.768292), high = 1.0
    interval = rate_interval([1.0] * 5)
    assert interval is not None
    assert interval.low == pytest.approx(0.5655, abs=1e-4)
    assert interval.high == 1.0
    assert interval.text() == "[56.6%, 100.0%]"


def test_wilson_zero_of_five() -> None:
    # p = 0: center = 0.384146 / 1.768292 = 0.217241, half = 0.217241 (as above)
    # -> low = 0.0, high = 0.434482 (= 0.768292 / 1.768292)
    interval = rate_interval([0.0] * 5)
    assert interval is not None
    assert interval.low == 0.0
    assert interval.high == pytest.approx(0.4345, abs=1e-4)


def test_wilson_of_fractional_task_means_counts_their_sum() -> None:
    # [1, .5, .5, 0]: count 2 of 4 tasks, p = 0.5; z²/n = 0.960365, 1 + z²/n = 1.960365
    # center = (0.5 + 0.480182) / 1.960365 = 0.5
    # half = 1.959964 * sqrt(0.25/4 + 3.841459/64) / 1.960365 = 1.959964 * sqrt(0.0625 + 0.060023) / 1.960365
    #      = 1.959964 * 0.350033 / 1.960365 = 0.349961 -> [0.150039, 0.849961]
    fractional = rate_interval([1.0, 0.5, 0.5, 0.0])
    assert fractional == rate_interval([1.0, 1.0, 0.0, 0.0])
    assert fractional is not None
    assert fractional.low == pytest.approx(0.1500, abs=1e-4)
    assert fractional.high == pytest.approx(0.8500, abs=1e-4)


def test_no_task_has_no_interval() -> None:
    assert rate_interval([]) is None


@pytest.mark.parametrize(("n", "c", "k", "at_k", "hat_k"), [
    # C(1, 2) = 0: any two of the two attempts include the success -> pass@2 = 1 - 0/1 = 1; pass^2 = C(1,2)/1 = 0
    (2, 1, 2, 1.0, 0.0),
    # one attempt of two: pass@1 = 1 - C(1,1)/C(2,1) = 1 - 1/2 = 0.5; pass^1 = C(1,1)/C(2,1) = 1/2
    (2, 1, 1, 0.5, 0.5),
    # pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7; pass^2 = C(2,2)/C(5,2) = 1/10 = 0.1
    (5, 2, 2, 0.7, 0.1),
    # all attempts fail: pass@3 = 1 - C(4,3)/C(4,3) = 0; pass^3 = C(0,3)/C(4,3) = 0/4 = 0
    (4, 0, 3, 0.0, 0.0),
])
def test_pass_at_k_and_pass_hat_k(n: int, c: int, k: int, at_k: float, hat_k: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(at_k)
    assert pass_hat_k(n, c, k) == pytest.approx(hat_k)


@pytest.mark.parametrize(("n", "c", "k"), [(2, 1, 3), (2, 1, 0), (2, 3, 1), (2, -1, 1)])
def test_pass_k_rejects_impossible_counts(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)


def test_paired_all_won_without_spread() -> None:
    # d = [1]*5: no spread -> interval [1, 1]; sign test 5 vs 0: p = 2 * 0.5**5 = 2/32 = 0.0625
    comparison = paired_comparison([1.0] * 5, [0.0] * 5)
    assert comparison.tasks == 5
    assert (comparison.mean_a, comparison.mean_b, comparison.difference) == (1.0, 0.0, 1.0)
    assert comparison.interval == Interval(1.0, 1.0)
    assert comparison.p_value == pytest.approx(0.0625)
    assert (comparison.a_better, comparison.b_better) == (5, 0)


def test_paired_with_spread() -> None:
    # d = a - b = [1, 0, 1, 0, 0, 0], mean 2/6 = 1/3
    # sample sd = sqrt(((2/3)² * 2 + (1/3)² * 4) / 5) = sqrt((0.888889 + 0.444444) / 5) = sqrt(0.266667) = 0.516398
    # se = 0.516398 / sqrt(6) = 0.516398 / 2.449490 = 0.210819; t(0.975, 5 df) = 2.570582
    # half = 2.570582 * 0.210819 = 0.541926
    # -> [0.333333 - 0.541926, 0.333333 + 0.541926] = [-0.208593, 0.875260]
    # sign test 2 vs 0 (four ties): p = 2 * 0.5**2 = 0.5
    comparison = paired_comparison([1, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 0])
    assert comparison.tasks == 6
    assert comparison.mean_a == pytest.approx(4 / 6)
    assert comparison.mean_b == pytest.approx(2 / 6)
    assert comparison.difference == 0.3333
    assert comparison.interval is not None
    assert comparison.interval.low == pytest.approx(-0.2086, abs=1e-4)
    assert comparison.interval.high == pytest.approx(0.8753, abs=1e-4)
    assert comparison.p_value == pytest.approx(0.5)
    assert (comparison.a_better, comparison.b_better) == (2, 0)
    assert comparison.to_json() == {"tasks": 6, "mean_a": 0.6667, "mean_b": 0.3333, "difference": 0.3333,
                                    "interval": {"low": -0.2086, "high": 0.8753}, "p_value": 0.5,
                                    "a_better": 2, "b_better": 0, "test": PairedComparison.test}


def test_paired_interval_is_clipped_to_the_range_of_differences() -> None:
    # d = [1, 1, 0]: mean 2/3, sd = sqrt(((1/3)² * 2 + (2/3)²) / 2) = sqrt(0.333333) = 0.577350,
    # se = 0.577350 / sqrt(3) = 0.333333; t(0.975, 2 df) = 4.302653 -> 0.666667 ± 1.434218 = [-0.767551, 2.100884],
    # whose high end a difference of scores in [0, 1] cannot reach: clipped to 1
    comparison = paired_comparison([1, 1, 0], [0, 0, 0])
    assert comparison.interval is not None
    assert comparison.interval.low == pytest.approx(-0.7676, abs=1e-4)
    assert comparison.interval.high == 1.0


def test_identical_runs_differ_in_nothing() -> None:
    # d = [0, 0, 0]: no spread -> [0, 0]; no task differs -> p = 1.0
    comparison = paired_comparison([1.0, 0.5, 0.0], [1.0, 0.5, 0.0])
    assert comparison.difference == 0.0
    assert comparison.interval == Interval(0.0, 0.0)
    assert comparison.p_value == 1.0
    assert (comparison.a_better, comparison.b_better) == (0, 0)


def test_one_task_has_no_interval_and_no_task_no_test() -> None:
    # one task: no spread to estimate; sign test 1 vs 0: p = 2 * 0.5 = 1.0
    one = paired_comparison([1.0], [0.0])
    assert one.interval is None
    assert one.p_value == 1.0
    none = paired_comparison([], [])
    assert (none.tasks, none.interval, none.p_value) == (0, None, None)


def test_paired_runs_must_have_the_same_tasks() -> None:
    with pytest.raises(ValueError):
        paired_comparison([1.0, 0.0], [1.0])
