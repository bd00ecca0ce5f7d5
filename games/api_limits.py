"""Fixed-window rate limits for the API, counted in the Django cache."""

from __future__ import annotations

from django.core.cache import cache
from django.utils import timezone

MOVES_PER_MINUTE = 60  # per token (per player for session calls)
TOKEN_ATTEMPTS_PER_MINUTE = 10  # POST /api/token, per username


def count_in_window(key: str, limit: int, seconds: int = 60) -> bool:
    """Count one request against ``key``; False once ``limit`` is passed in this window."""
    window = int(timezone.now().timestamp()) // seconds
    key = f"api-rate:{key}:{window}"
    cache.add(key, 0, timeout=seconds + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=seconds + 5)
        count = 1
    return count <= limit
