"""Display of the time left for a move."""

from datetime import timedelta

import pytest

from games import clock
from games.models import Game
from tests.notify.play import T0, start


@pytest.mark.parametrize(
    "left, text",
    [
        (timedelta(days=2, hours=4, minutes=30), "2 days 4 hours left"),
        (timedelta(days=1), "1 day left"),
        (timedelta(days=3, minutes=59), "3 days left"),
        (timedelta(days=1, hours=1), "1 day 1 hour left"),
        (timedelta(hours=3, minutes=10), "3 hours left"),
        (timedelta(minutes=12), "12 minutes left"),
        (timedelta(seconds=20), "1 minute left"),
        (timedelta(0), "overdue"),
        (timedelta(hours=-2), "overdue"),
    ],
)
def test_it_humanizes_the_time_left(left, text):
    assert clock.humanize(left) == text


def test_time_left_counts_to_the_deadline(alice, bob):
    game = start(alice, bob, days=2)
    assert clock.time_left(game, T0 + timedelta(hours=20)) == timedelta(days=1, hours=4)
    assert clock.time_left_text(game, T0 + timedelta(hours=20)) == "1 day 4 hours left"
    assert clock.time_left_text(game, T0 + timedelta(days=3)) == "overdue"


def test_no_clock_without_a_deadline_or_once_over(alice, bob):
    casual = start(alice, bob, days=None, rated=False)
    assert clock.time_left(casual, T0) is None and clock.time_left_text(casual, T0) == ""
    game = start(alice, bob)
    game.status, game.deadline = Game.Status.ABORTED, None
    assert clock.time_left_text(game, T0) == ""


def test_it_is_translated(alice, bob):
    from django.utils import translation

    with translation.override("fr"):
        text = clock.humanize(timedelta(days=2, hours=4))
    assert text != "" and "2" in text and "4" in text
