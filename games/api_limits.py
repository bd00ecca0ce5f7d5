"""Fixed-window rate limits for the API, counted in Redis (the Django cache without it)."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.core.cache import cache as django_cache
from django.utils import timezone
from ninja.errors import HttpError

# POST /api/token, counted per account and client address, so that a stranger's
# wrong passwords lock out only the stranger; and per address over all accounts,
# so that one address cannot guess across many (allauth's "login" limit is 30 too).
TOKEN_ATTEMPTS_PER_MINUTE = 10
TOKEN_ATTEMPTS_PER_ADDRESS_PER_MINUTE = 30


class RateLimited(HttpError):
    """A 429 that says when the window ends: the API sends it as ``Retry-After``."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(429, message)
        self.retry_after = retry_after


@cache
def _redis():
    """A client on the cache's Redis, or None: every move counts, so one round trip."""
    if not settings.REDIS_URL:
        return None
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def seconds_left(seconds: int = 60) -> int:
    """The whole seconds until this window ends, at least 1."""
    return seconds - int(timezone.now().timestamp()) % seconds


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
