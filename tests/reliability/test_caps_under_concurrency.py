"""Caps that two requests at once must not pass together (PostgreSQL): a player's
20 API tokens, and their 20 challenges waiting for an answer.  Each request locks
the player's row before it counts; the pause below holds the first request between
its count and its insert, where without the lock the second would count the same."""

import time

from accounts import tokens
from accounts.models import ApiToken
from games import services
from games.models import Challenge
from tests.conftest import make_player
from tests.helpers import at_once


def test_two_token_requests_at_once_make_at_most_the_twentieth(postgres, monkeypatch):
    alice = make_player("alice")
    for _ in range(tokens.MAX_TOKENS - 1):
        tokens.create_token(alice)
    made = tokens.secrets.token_urlsafe
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: time.sleep(0.3) or made(n))
    results = at_once(*[lambda: tokens.create_token(alice)] * 2)
    assert sorted(type(r).__name__ for r in results) == ["TooManyTokens", "tuple"]
    assert ApiToken.objects.filter(user=alice).count() == tokens.MAX_TOKENS


def test_two_challenges_at_once_make_at_most_the_twentieth(postgres, monkeypatch):
    alice = make_player("alice")
    for _ in range(services.MAX_OPEN_CHALLENGES - 1):
        services.create_challenge(alice, variant="carolo")
    opened = services._open_challenge
    monkeypatch.setattr(services, "_open_challenge", lambda *args: time.sleep(0.3) or opened(*args))
    results = at_once(*[lambda: services.create_challenge(alice, variant="carolo")] * 2)
    assert sorted(type(r).__name__ for r in results) == ["Challenge", "TooMany"]
    assert Challenge.objects.filter(challenger=alice).count() == services.MAX_OPEN_CHALLENGES
