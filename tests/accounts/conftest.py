import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts attempts in the cache; each test starts with none."""
    cache.clear()
    yield
    cache.clear()
