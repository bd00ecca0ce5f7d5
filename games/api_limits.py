"""Fixed-window rate limits for the API, counted in the Django cache."""

from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

TOKEN_ATTEMPTS_PER_MINUTE = 10  # POST /api/token, per username


def count_in_window(key: str, limit: int, seconds: int = 60) -> bool:
    """Count one request against ``key``; False once ``limit`` is passed in this window."""
    window = int(timezone.now().timestamp()) // seconds
    key = f"api-rate:{key}:{window}"
    try:
        count = cache.incr(key)  # one round trip once the window has begun
    except ValueError:  # the window's first request (or its key just expired)
        count = 1 if cache.add(key, 1, timeout=seconds + 5) else cache.incr(key)
    return count <= limit
