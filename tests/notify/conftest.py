import pytest


@pytest.fixture(autouse=True)
def _own_cache_and_site(settings):
    """Presence lives in the cache: a private one per test, apart from Redis and other tests."""
    settings.SITE_URL = "https://carolo.example"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "n"}
    }
    from django.core.cache import cache

    cache.clear()
