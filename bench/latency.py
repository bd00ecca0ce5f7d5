"""Latency percentiles, as the load benchmark reports them."""

from __future__ import annotations

import statistics


def summary(samples: list[float]) -> dict:
    """Count, median, 95th and 99th percentile, in ms, of durations in seconds."""
    if not samples:
        return {"count": 0}
    samples = sorted(samples)

    def pick(q: float) -> float:
        return round(samples[min(len(samples) - 1, int(len(samples) * q))] * 1000, 2)

    return {
        "count": len(samples),
        "p50_ms": round(statistics.median(samples) * 1000, 2),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
    }
