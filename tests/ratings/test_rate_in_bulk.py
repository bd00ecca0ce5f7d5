"""Rating a batch of games at once (the clock sweep's way): game after game, as one by one."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import glicko2, ratings
from games.models import Rating, RatingChange

from .helpers import finished_game


def test_in_bulk_rates_the_queued_games_in_order_as_it_ends(alice, bob, charlie):
    t = timezone.now()
    with ratings.in_bulk():
        finished_game(alice, bob, "white", when=t)
        finished_game(bob, charlie, "", when=t + timedelta(hours=1))
        assert not Rating.objects.exists() and not RatingChange.objects.exists()

    # bob is rated after his loss, then for the draw an hour later.
    new = glicko2.Rating()
    bob_lost = glicko2.rate_one_game(new, new, glicko2.LOSS, 1.0)
    expected = {
        alice: glicko2.rate_one_game(new, new, glicko2.WIN, 1.0),
        bob: glicko2.rate_one_game(bob_lost, new, glicko2.DRAW, glicko2.periods_between(1 / 24)),
        charlie: glicko2.rate_one_game(new, bob_lost, glicko2.DRAW, 1.0),
    }
    for player, rating in expected.items():
        row = Rating.objects.get(user=player, variant="carge")
        assert (row.rating, row.deviation, row.volatility) == pytest.approx(
            (rating.rating, rating.deviation, rating.volatility)
        )
    assert Rating.objects.get(user=bob).games == 2
    assert Rating.objects.get(user=bob).last_rated_at == t + timedelta(hours=1)
    assert RatingChange.objects.count() == 4


def test_in_bulk_rates_nothing_when_the_block_raises(alice, bob):
    with pytest.raises(RuntimeError), ratings.in_bulk():
        finished_game(alice, bob, "white")
        raise RuntimeError
    assert not RatingChange.objects.exists()
    finished_game(alice, bob, "black")  # and rating works as before afterwards
    assert RatingChange.objects.count() == 2
