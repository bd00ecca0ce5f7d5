"""Fixed-window rate limits for the API, counted in Redis (the Django cache without it)."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.core.cache import cache as django_cache
from django.utils import timezone

TOKEN_ATTEMPTS_PER_MINUTE = 10  # POST /api/token, per username


@cache
def _redis():
    """A client on the cache's Redis, or None: every move counts, so one round trip."""
    if not settings.REDIS_URL:
        return None
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def count_in_window(key: str, limit: int, seconds: int = 60) -> bool:
    """Count one request against ``key``; False once ``limit`` is passed in this window."""
    window = int(timezone.now().timestamp()) // seconds
    key = f"api-rate:{key}:{window}"
    client = _redis()
    if client is not None:
        count, _ = client.pipeline(transaction=False).incr(key).expire(key, seconds + 5).execute()
        return count <= limit
    try:
        count = django_cache.incr(key)
    except ValueError:  # the window's first request (or its key just expired)
        count = 1 if django_cache.add(key, 1, timeout=seconds + 5) else django_cache.incr(key)
    return count <= limit
