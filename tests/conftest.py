"""Shared fixtures: the fixed cast (alice, bob, charlie) and quick test settings.

Session-scoped on purpose: the engine tests in tests/rules/ use hypothesis, which
refuses function-scoped autouse fixtures, and need no database.
"""

import copy
import os
import types
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

PASSWORD = "Sturdy-Carolo-42"


@pytest.fixture(scope="session", autouse=True)
def _quick_site_settings():
    from carolo_site.celery import app

    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        **_redis_of_this_worker(),
    ):
        yield


def _redis_of_this_worker() -> dict:
    """Under pytest-xdist, a Redis database per worker (the cache and the API's rate
    limits): a test's ``cache.clear()`` empties its whole database, and each worker's
    test database numbers its rows alike. The integration test's Celery worker counts
    its own databases down from 15."""
    worker = os.getenv("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    if not settings.REDIS_URL or worker in ("", "0"):
        return {}
    url = urlsplit(settings.REDIS_URL)
    redis_url = url._replace(path=f"/{int(url.path.strip('/') or 0) + int(worker)}").geturl()
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["LOCATION"] = redis_url
    return {"CACHES": caches, "REDIS_URL": redis_url}


def make_player(username):
    from allauth.account.models import EmailAddress

    from accounts.models import User

    # seen just now, so that a test's first request writes no "last seen" (it would
    # count in the tests that count queries)
    user = User.objects.create_user(
        username, f"{username}@example.org", PASSWORD, last_seen=timezone.now()
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def postgres(transactional_db):
    """A real database with committed transactions, for tests of row locks under
    concurrency: PostgreSQL only (CI must have it; elsewhere they are skipped)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("CI must run the concurrency tests on PostgreSQL")
        pytest.skip("row locks under concurrency are tested on PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def alice(db):
    return make_player("alice")


@pytest.fixture
def bob(db):
    return make_player("bob")


@pytest.fixture
def charlie(db):
    return make_player("charlie")


@pytest.fixture
def client_alice(client, alice):
    client.force_login(alice)
    return client


def pytest_runtest_teardown(item):
    """Celery keeps "inside a task" in one process-wide flag; eager tasks run at the
    same time in several threads (live server, concurrency tests) can leave it set.
    A request in French leaves French active in the thread (the locale middleware
    does not switch back): the next test starts in the site's default language."""
    from celery._state import _set_task_join_will_block
    from django.utils import translation

    _set_task_join_will_block(False)
    translation.deactivate()


@pytest.fixture
def fixed_dice(monkeypatch):
    """Dice that fall as the test says: a queue of indexes into the legal chance moves."""
    queue = []
    dice = types.SimpleNamespace(choice=lambda seq: seq[queue.pop(0)])
    monkeypatch.setattr("games.services.secrets", dice)
    return queue
