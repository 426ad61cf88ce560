"""The statistical tests behind `compare`, in plain Python so the lab needs no scientific stack.

- proportions: the two-proportion z test with the pooled variance, and Newcombe's hybrid-score interval
  for the difference (Newcombe 1998, method 10), built from the two Wilson intervals;
- means: Welch's t test (unequal variances, Welch–Satterthwaite degrees of freedom), with the t
  distribution computed exactly through the regularized incomplete beta function;
- many metrics at once: Holm–Bonferroni, which controls the family-wise error rate without assuming
  the tests are independent.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .intervals import Z95, wilson

PROPORTION_TEST = "two-proportion z test (pooled variance), two-sided"
PROPORTION_INTERVAL = "Newcombe hybrid score interval (method 10) from the two Wilson 95% intervals"
MEAN_TEST = ("Welch's t test (unequal variances, Welch-Satterthwaite df, exact t distribution via the "
             "regularized incomplete beta function), two-sided, with its 95% t interval")
CORRECTION = "Holm-Bonferroni step-down over every metric that has a p-value"


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz), as in Numerical Recipes."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((a - 1.0 + m2) * (a + m2)),
                   -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom: I_{df/(df+t²)}(df/2, 1/2)."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(q: float, df: float) -> float:
    """The q quantile (q > 0.5) of Student's t, by bisection on the exact tail."""
    target = 2.0 * (1.0 - q)
    low, high = 0.0, 2.0
    while t_two_sided(high, df) > target:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_two_sided(mid, df) > target:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2.0


def newcombe(x_a: int, n_a: int, x_b: int, n_b: int) -> tuple[float, float]:
    """95% interval for p_b − p_a (Newcombe's hybrid score): it inherits the Wilson intervals' good
    coverage near 0 and 1, where the plain Wald interval of a difference fails."""
    p_a, p_b = x_a / n_a, x_b / n_b
    low_a, high_a = wilson(x_a, n_a)
    low_b, high_b = wilson(x_b, n_b)
    d = p_b - p_a
    low = d - math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2)
    high = d + math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2)
    return max(-1.0, low), min(1.0, high)


def two_proportions(x_a: int, n_a: int, x_b: int, n_b: int) -> dict:
    """p_b − p_a with its Newcombe interval and the pooled two-proportion z test. When both sides are all
    successes or all failures the difference is exactly 0 and p is 1."""
    if n_a <= 0 or n_b <= 0:
        return {"diff": None, "low": None, "high": None, "statistic": None, "p": None}
    p_a, p_b = x_a / n_a, x_b / n_b
    pooled = (x_a + x_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n_a + 1.0 / n_b))
    z = (p_b - p_a) / se if se > 0 else 0.0
    low, high = newcombe(x_a, n_a, x_b, n_b)
    return {"diff": p_b - p_a, "low": low, "high": high, "statistic": z, "p": normal_two_sided(z)}


def welch(a: Sequence[float], b: Sequence[float]) -> dict:
    """mean(b) − mean(a) with Welch's t test and 95% interval. Needs two values a side; when both
    samples are constant, p is 1 for equal means and 0 for different ones (no spread, no doubt)."""
    n_a, n_b = len(a), len(b)
    if n_a < 2 or n_b < 2:
        return {"diff": None, "low": None, "high": None, "statistic": None, "df": None, "p": None}
    m_a, m_b = sum(a) / n_a, sum(b) / n_b
    va = sum((x - m_a) ** 2 for x in a) / (n_a - 1) / n_a
    vb = sum((x - m_b) ** 2 for x in b) / (n_b - 1) / n_b
    diff, se2 = m_b - m_a, va + vb
    if se2 <= 0:
        return {"diff": diff, "low": diff, "high": diff, "statistic": None, "df": None,
                "p": 1.0 if diff == 0 else 0.0}
    se = math.sqrt(se2)
    df = se2 * se2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1))
    t = diff / se
    half = t_quantile(0.975, df) * se
    return {"diff": diff, "low": diff - half, "high": diff + half, "statistic": t, "df": df,
            "p": t_two_sided(t, df)}


def holm(pvalues: Sequence[float | None], alpha: float = 0.05) -> tuple[list[float | None], list[bool]]:
    """Holm-adjusted p-values and rejections: sort the m p-values, compare the i-th smallest (from 0) with
    alpha/(m − i), stop at the first that fails. Adjusted p_(i) = max over j ≤ i of min(1, (m − j)·p_(j)).
    None (a metric without a test) takes no part and is never significant."""
    order = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(order)
    adjusted: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted, [q is not None and q <= alpha for q in adjusted]


__all__ = ["CORRECTION", "MEAN_TEST", "PROPORTION_INTERVAL", "PROPORTION_TEST", "Z95", "betainc", "holm",
           "newcombe", "normal_two_sided", "t_quantile", "t_two_sided", "two_proportions", "welch"]
