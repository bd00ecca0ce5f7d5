"""Sweeps run twice at once (PostgreSQL row locks): each game ends once and is mailed once."""

import threading
from datetime import timedelta

from django.core import mail
from django.db import connections

from games import clock, notify
from games.models import Game, Notification, RatingChange
from tests.notify.play import T0, mail_to, move, start

GAMES = 6
RACERS = 4


def race(function, now):
    barrier = threading.Barrier(RACERS)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(function(now=now))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return results


def test_racing_sweeps_end_rate_and_mail_each_game_once(postgres, alice, bob, monkeypatch):
    # Rows commit here: no eager delivery on commit at the real time, only the sweeps below.
    monkeypatch.setattr(notify, "_kick", lambda: None)
    games = []
    for _ in range(GAMES):
        game = move(start(alice, bob), "@a1", T0)
        game = move(game, "@a3", T0)
        games.append(move(game, "@b1", T0))  # bob to move until T0 + 3 days
    notify.deliver_due(now=T0)
    mail.outbox.clear()
    due = T0 + timedelta(days=3, minutes=1)

    ended = race(clock.expire_overdue_games, due)
    assert sorted(pk for result in ended for pk in result) == sorted(g.pk for g in games)
    assert not Game.objects.filter(status="active").exists()
    assert RatingChange.objects.count() == 2 * GAMES
    assert Notification.objects.filter(kind="result").count() == 2 * GAMES

    race(notify.deliver_due, due)
    assert len(mail_to(alice)) == GAMES and len(mail_to(bob)) == GAMES
    assert not Notification.objects.filter(sent_at__isnull=True).exists()
