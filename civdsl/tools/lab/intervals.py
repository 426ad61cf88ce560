"""Confidence intervals shared by the statistics, the comparisons and the plots."""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): unlike the normal approximation it
    stays inside [0, 1] and behaves at 0 and n successes, which win rates of rare nations reach."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
