"""The points share of paired deals and its 95% interval, shared by the strength
benchmarks that score bot against bot (``gin_strength.py``, ``search_gain.py``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.96


def share_interval(ours: Sequence[float], total: Sequence[float]) -> tuple[float, float, float]:
    """The share ``sum(ours) / sum(total)`` and its 95% interval over the pairs.

    One entry per paired deal (the deal played once from each seat): our points and
    all points scored in it.  The share is a ratio of means, so its interval comes from
    the delta method on the residuals ``ours - share * total``; the pairing is what
    makes those small, since the luck of the cards is in both.

    >>> share, low, high = share_interval([30, 20, 25, 35], [50, 40, 45, 55])
    >>> round(share, 3), low < share < high
    (0.579, True)
    """
    n = len(ours)
    t = sum(total)
    if t <= 0:
        return 0.5, 0.0, 1.0
    share = sum(ours) / t
    if n < 2:
        return share, 0.0, 1.0
    resid = [x - share * y for x, y in zip(ours, total, strict=True)]
    var = sum(e * e for e in resid) / (n - 1)
    half = Z95 * math.sqrt(var / n) / (t / n)
    return share, share - half, share + half
