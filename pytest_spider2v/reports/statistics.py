"""How sure a run's figures are: intervals of success rates, pass@k and pass^k, paired comparisons of two runs.

A benchmark has few tasks (tens, not thousands), so a success rate alone says little: 80 % over five tasks is
compatible with anything from about 38 % to 96 %. These helpers put the uncertainty next to the figure, with the
task as the unit throughout: the attempts of one task share its difficulty and are not independent draws.

The numerical work is left to statsmodels and scipy, imported inside each function: the plugin imports the
reports at start-up, and loading those libraries there would slow every pytest run, even one without a report.
Neither ships type information: ``[tool.mypy]`` lets their imports be untyped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_spider2v.run.json_values import JsonObject

#: The confidence level of every interval here.
CONFIDENCE = 0.95

#: Differences whose spread is below this are taken as all the same: per-task means such as 2/3 - 1/3 and
#: 1/3 - 0 differ in their last bit, and a t interval over such rounding noise would be meaningless.
_NO_SPREAD = 1e-12


@dataclass(frozen=True)
class Interval:
    """A confidence interval, kept unrounded so that callers can compare or combine it; rounded on output."""

    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"low": round(self.low, 4), "high": round(self.high, 4)}

    def text(self) -> str:
        """The interval as a table cell shows a rate: ``[56.6%, 100.0%]``."""
        return f"[{self.low:.1%}, {self.high:.1%}]"


def rate_interval(task_scores: Sequence[float]) -> Interval | None:
    """The 95 % interval of a success rate, with the task as the unit.

    ``task_scores`` holds one number per task: the mean of its attempts' scores, each in [0, 1]. The interval is
    Wilson's score interval over the number of tasks, with the sum of the means as the (possibly fractional) count.

    Why Wilson: it keeps its coverage with few tasks and at 0 % and 100 %, where a normal or t interval collapses
    to zero width and claims a certainty five tasks cannot give. Why per task: a task's attempts are not
    independent (they share its difficulty), so counting them as separate trials would narrow the interval
    falsely. A per-task mean in [0, 1] with mean p has a variance of at most p(1 - p), so the Bernoulli variance
    over tasks bounds it: the interval is conservative when a task's attempts disagree.

    None when there is no task: no interval describes an empty run.
    """
    if not task_scores:
        return None
    from statsmodels.stats import proportion

    low, high = proportion.proportion_confint(count=math.fsum(task_scores), nobs=len(task_scores),
                                              alpha=1 - CONFIDENCE, method="wilson")
    # Wilson's bounds are 0 and 1 exactly at 0 % and 100 % in theory; clip the floating-point remainder.
    return Interval(max(0.0, float(low)), min(1.0, float(high)))


def _check_counts(n: int, c: int, k: int) -> None:
    """Reject counts for which the estimators' binomial coefficients mean nothing, rather than return 0 or 1."""
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and the number of attempts n={n}, not {k}")
    if not 0 <= c <= n:
        raise ValueError(f"the successes c must be between 0 and the number of attempts n={n}, not {c}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k: the chance that at least one of k attempts, drawn without replacement from a task's n, succeeds.

    The unbiased estimator of Chen et al. 2021 (Codex), 1 - C(n - c, k) / C(n, k), given c of the n attempts
    succeeded. Exact integer coefficients: with many attempts the floating-point products of the naive formula
    lose the small differences that matter. ValueError when k > n, k < 1 or c is not in [0, n].
    """
    _check_counts(n, c, k)
    from scipy.special import comb

    # C(n - c, k) is 0 when fewer than k attempts failed: some success is then certain among any k.
    return 1.0 - int(comb(n - c, k, exact=True)) / int(comb(n, k, exact=True))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k: the chance that all k attempts, drawn without replacement from a task's n, succeed.

    tau-bench's estimator (Yao et al. 2024), C(c, k) / C(n, k): where pass@k rewards one lucky attempt, pass^k
    measures whether an agent succeeds reliably. ValueError when k > n, k < 1 or c is not in [0, n].
    """
    _check_counts(n, c, k)
    from scipy.special import comb

    return int(comb(c, k, exact=True)) / int(comb(n, k, exact=True))


@dataclass(frozen=True)
class PairedComparison:
    """Two runs compared task by task over the tasks they share.

    Paired because both runs face the same tasks: a task's difficulty then cancels out of its difference, which
    makes the comparison far sharper than two separate rate intervals that overlap.
    """

    tasks: int
    mean_a: float
    mean_b: float
    #: mean_a - mean_b, rounded to 4 places.
    difference: float
    #: The paired 95 % t interval of the mean difference; None for fewer than 2 tasks (no spread to estimate).
    interval: Interval | None
    #: The exact two-sided sign test's p-value; None for no task.
    p_value: float | None
    #: The tasks where run a scored higher, and where run b did; ties count for neither.
    a_better: int
    b_better: int
    test: str = "sign test (exact McNemar for one attempt per task)"

    def to_json(self) -> JsonObject:
        # The p-value keeps 4 significant digits, not 4 places: a small p-value must not print as 0.
        return {"tasks": self.tasks, "mean_a": round(self.mean_a, 4), "mean_b": round(self.mean_b, 4),
                "difference": self.difference,
                "interval": None if self.interval is None else self.interval.to_json(),
                "p_value": None if self.p_value is None else float(f"{self.p_value:.4g}"),
                "a_better": self.a_better, "b_better": self.b_better, "test": self.test}


def paired_comparison(a: Sequence[float], b: Sequence[float]) -> PairedComparison:
    """Compare two runs over the same tasks: ``a[i]`` and ``b[i]`` are their mean scores on task i.

    The interval is the paired t interval of the mean difference over tasks (scipy's ``ttest_rel``), clipped to
    [-1, 1], the range a difference of scores in [0, 1] can take. When every task's difference is the same there
    is no spread to estimate, and the interval is [d, d]: the sign test then carries the uncertainty (five tasks
    all won give p = 0.0625, not certainty).

    The test is the exact two-sided sign test over the tasks that differ: it assumes nothing of the differences'
    distribution, which with scores of 0 and 1 is far from normal, and it is the exact McNemar test when each task
    has one 0/1 attempt. Its p-value is 1.0 when no task differs, None when there is no task.

    ValueError when the runs' lengths differ: the tasks must be paired.
    """
    if len(a) != len(b):
        raise ValueError(f"paired runs need one score per shared task each: {len(a)} and {len(b)} scores")
    tasks = len(a)
    if tasks == 0:
        return PairedComparison(tasks=0, mean_a=0.0, mean_b=0.0, difference=0.0, interval=None, p_value=None,
                                a_better=0, b_better=0)
    mean_a, mean_b = math.fsum(a) / tasks, math.fsum(b) / tasks
    differences = [x - y for x, y in zip(a, b)]
    mean_difference = math.fsum(differences) / tasks
    a_better = sum(1 for d in differences if d > 0)
    b_better = sum(1 for d in differences if d < 0)

    from scipy.stats import binomtest, ttest_rel

    interval: Interval | None = None
    if tasks >= 2:
        if max(differences) - min(differences) <= _NO_SPREAD:
            interval = Interval(mean_difference, mean_difference)
        else:
            low, high = ttest_rel(a, b).confidence_interval(CONFIDENCE)
            interval = Interval(max(-1.0, float(low)), min(1.0, float(high)))
    differing = a_better + b_better
    p_value = float(binomtest(a_better, differing, 0.5).pvalue) if differing else 1.0
    return PairedComparison(tasks=tasks, mean_a=mean_a, mean_b=mean_b, difference=round(mean_a - mean_b, 4),
                            interval=interval, p_value=p_value, a_better=a_better, b_better=b_better)
