"""The sweep benchmark's bulk fill (bench/sweeps.py) writes games the site can sweep:
its hand-written INSERT must keep up with every NOT NULL column of the game table."""

from datetime import timedelta

from django.utils import timezone

from bench import sweeps
from games import clock
from games.models import Game


def test_the_fill_makes_active_games_one_in_a_hundred_overdue(postgres):
    sweeps._fill(300)
    assert Game.objects.filter(status="active").count() == 300
    now = timezone.now()
    assert clock.expire_overdue_games(now - timedelta(hours=2)) == []  # none due then
    ended = clock.expire_overdue_games(now)
    assert len(ended) == 3  # games 100, 200 and 300
    assert Game.objects.filter(status="finished", result_reason="time").count() == 3
