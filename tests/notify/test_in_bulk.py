"""Outbox rows written for a batch at once (the clock sweep's way): together, one kick."""

import pytest

from games import notify
from games.models import Notification

from .play import T0, start


def test_in_bulk_writes_the_rows_together_with_one_kick(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    games = [start(alice, bob) for _ in range(3)]
    monkeypatch.setattr(notify, "_kick", lambda: None)
    with django_capture_on_commit_callbacks() as kicks, notify.in_bulk():
        for game in games:
            notify.game_ended(game, T0)
        notify.game_ended(games[0], T0)  # the same event twice is written once
        assert not Notification.objects.filter(kind="result").exists()
    assert Notification.objects.filter(kind="result").count() == 6
    assert kicks == [notify._kick]


def test_in_bulk_writes_nothing_when_the_block_raises(alice, bob):
    game = start(alice, bob)
    with pytest.raises(RuntimeError), notify.in_bulk():
        notify.game_ended(game, T0)
        raise RuntimeError
    assert not Notification.objects.filter(kind="result").exists()
