"""When a player was last seen: recorded as they use the site or the API, shown on
their profile, written at most every five minutes."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import tokens
from accounts.models import User
from tests.helpers import text

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """Django's now(), moved by the test."""
    now = [NOON]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    return now


def seen(user):
    return User.objects.get(pk=user.pk).last_seen


@pytest.fixture(autouse=True)
def never_seen(alice):
    User.objects.filter(pk=alice.pk).update(last_seen=None)
    alice.last_seen = None


def test_a_page_view_records_it_and_the_profile_shows_it(client, alice, bob, clock):
    assert seen(alice) is None
    client.force_login(alice)
    client.get("/")
    assert seen(alice) == NOON
    assert "Last seen " in text(Client().get("/@/alice"))


def test_it_is_written_at_most_every_five_minutes(client_alice, alice, clock):
    client_alice.get("/")
    clock[0] = NOON + timedelta(minutes=4, seconds=59)
    client_alice.get("/")
    assert seen(alice) == NOON
    clock[0] = NOON + timedelta(minutes=5)
    client_alice.get("/")
    assert seen(alice) == NOON + timedelta(minutes=5)


def test_an_api_call_records_it(alice, clock):
    _, raw = tokens.create_token(alice, "app")
    response = Client().get("/api/account", headers={"Authorization": f"Bearer {raw}"})
    assert response.status_code == 200
    assert seen(alice) == NOON


def test_a_visitor_records_nothing(client, alice, clock):
    client.get("/@/alice")
    assert seen(alice) is None
