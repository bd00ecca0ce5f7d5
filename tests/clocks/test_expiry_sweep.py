"""The sweep that ends games whose deadline has passed, and its task."""

from datetime import timedelta

from django.core import mail

from games import clock, notify, tasks
from games.models import Game, Notification
from tests.notify.play import T0, mail_to, move, start

DEADLINE = T0 + timedelta(days=3, minutes=1)  # bob's, after alice's move at T0 + 1 min


def both_moved(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    game = move(game, "@a3", T0)
    return move(game, "@b1", T0 + timedelta(minutes=1))  # bob to move, 3 days


def test_it_does_nothing_before_the_deadline(alice, bob):
    game = both_moved(alice, bob)
    assert clock.expire_overdue_games(now=DEADLINE - timedelta(seconds=1)) == []
    assert Game.objects.get(pk=game.pk).is_active


def test_it_is_one_indexed_query_when_nothing_is_due(alice, bob, django_assert_num_queries):
    both_moved(alice, bob)
    with django_assert_num_queries(1):
        clock.expire_overdue_games(now=T0 + timedelta(days=1))


def test_the_late_player_loses_on_time(alice, bob):
    game = both_moved(alice, bob)
    assert clock.expire_overdue_games(now=DEADLINE) == [game.pk]
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.winner, game.result_reason) == ("finished", "white", "time")
    assert game.ended_at == DEADLINE and game.deadline is None


def test_a_player_who_never_moved_gets_the_game_aborted(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    clock.expire_overdue_games(now=T0 + timedelta(days=3))
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.result_reason) == ("aborted", "aborted")


def test_sweeping_twice_ends_rates_and_mails_once(alice, bob):
    from games.models import RatingChange

    game = both_moved(alice, bob)
    notify.deliver_due(now=T0 + timedelta(minutes=1))
    mail.outbox.clear()
    assert clock.expire_overdue_games(now=DEADLINE) == [game.pk]
    assert clock.expire_overdue_games(now=DEADLINE + timedelta(minutes=1)) == []
    notify.deliver_due(now=DEADLINE)
    notify.deliver_due(now=DEADLINE + timedelta(minutes=1))
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Notification.objects.filter(kind="result", game=game).count() == 2
    [to_alice], [to_bob] = mail_to(alice), mail_to(bob)
    assert "Game over" in to_alice.subject and "you won" in to_alice.body
    assert "ran out of time" in to_bob.body and "you lost" in to_bob.body


def test_an_action_after_the_deadline_sees_the_same_result(alice, bob):
    from games import services

    game = both_moved(alice, bob)
    try:
        services.resign(alice, game.pk, now=DEADLINE + timedelta(hours=1))
    except services.Conflict:
        pass
    assert clock.expire_overdue_games(now=DEADLINE + timedelta(hours=2)) == []
    game = Game.objects.get(pk=game.pk)
    assert game.result_reason == "time" and game.ended_at == DEADLINE
    assert Notification.objects.filter(kind="result", game=game).count() == 2


def test_the_task_is_a_thin_wrapper_over_the_sweep(alice, bob):
    game = both_moved(alice, bob)
    Game.objects.filter(pk=game.pk).update(deadline=T0)  # long past in real time
    assert tasks.expire_overdue_games.delay().get() == [game.pk]
    assert tasks.expire_overdue_games.delay().get() == []


def test_the_beat_schedule_runs_the_sweeps(settings):
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "games.tasks.expire_overdue_games",
        "games.tasks.deliver_notifications",
        "games.tasks.queue_reminders",
        "games.tasks.end_vacations",
        "games.tasks.queue_daily_digests",
    } <= tasks_scheduled
    assert settings.CELERY_BEAT_SCHEDULE["expire-overdue-games"]["schedule"] <= 60


def test_tasks_ack_late_and_retry_transient_errors():
    from smtplib import SMTPException

    for task in (tasks.expire_overdue_games, tasks.deliver_notifications):
        assert task.acks_late
        assert SMTPException in task.autoretry_for and ConnectionError in task.autoretry_for
        assert task.retry_backoff
