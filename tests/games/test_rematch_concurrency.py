"""Both players press Rematch at once (PostgreSQL): one offer, which the second press
accepts, and one game.  Each press locks the game's row before it looks for an
offer; the pause holds the first press between its look and its insert, where
without the lock the second would find none and make an offer of its own."""

import time

from games import services
from games.models import Challenge, Game
from tests.conftest import make_player
from tests.helpers import at_once


def test_two_presses_at_once_make_one_rematch(postgres, monkeypatch):
    alice, bob = make_player("alice"), make_player("bob")
    challenge = services.create_challenge(alice, variant="carolo", opponent=bob, color="white")
    game = services.resign(alice, services.accept_challenge(bob, challenge.pk).pk)
    opened = services._open_challenge
    monkeypatch.setattr(services, "_open_challenge", lambda *args: time.sleep(0.3) or opened(*args))
    results = at_once(
        lambda: services.offer_rematch(alice, game.pk),
        lambda: services.offer_rematch(bob, game.pk),
    )
    assert all(isinstance(r, Challenge) for r in results), results
    assert results[0].pk == results[1].pk
    offer = Challenge.objects.get(rematch_of=game)
    assert offer.status == Challenge.Status.ACCEPTED
    assert Game.objects.exclude(pk=game.pk).count() == 1
