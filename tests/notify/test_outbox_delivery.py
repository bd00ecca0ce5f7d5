"""Delivery from the outbox: on commit, by the sweep, once, and whatever the broker does."""

import time
from datetime import timedelta
from smtplib import SMTPRecipientsRefused, SMTPServerDisconnected
from types import SimpleNamespace
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from kombu.exceptions import OperationalError

from games import notify, tasks
from games.models import Game, Notification

from .play import T0, mail_to, move, start


def test_delivery_is_asked_for_on_commit(alice, bob, django_capture_on_commit_callbacks):
    game = start(alice, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        move(game, "@a1", T0)
    assert [c.__name__ for c in callbacks] == ["_kick"]


def test_on_commit_a_worker_sends_the_turn_email(alice, bob, django_capture_on_commit_callbacks):
    game = start(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        move(game, "@a1", T0)  # the eager task sends it at once (now is the real time)
    assert len(mail_to(bob)) == 1
    assert Notification.objects.get(user=bob, kind="turn").outcome == "sent"


def test_with_the_broker_down_the_move_is_saved_and_the_sweep_sends_once(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start(alice, bob)
    down = OperationalError("Error 111 connecting to localhost:6379. Connection refused.")
    with mock.patch.object(tasks.deliver_notifications, "apply_async", side_effect=down) as sent:
        with django_capture_on_commit_callbacks(execute=True):
            game = move(game, "@a1", T0)
    assert sent.called
    assert Game.objects.get(pk=game.pk).ply == 1
    assert mail_to(bob) == []
    # The broker is back: beat runs the sweep (twice, say), and the e-mail goes once.
    tasks.deliver_notifications.delay()
    tasks.deliver_notifications.delay()
    assert len(mail_to(bob)) == 1


def test_a_broker_at_an_unreachable_url_does_not_fail_the_move(
    alice, bob, django_capture_on_commit_callbacks
):
    from carolo_site.celery import app

    game = start(alice, bob)
    saved = {
        key: app.conf[key]
        for key in ("task_always_eager", "broker_url", "broker_transport_options")
    }
    pools = app._pool, app.amqp._producer_pool
    app.conf.update(
        task_always_eager=False,
        broker_url="redis://127.0.0.1:1/0",  # nothing listens there
        broker_transport_options={"max_retries": 0},  # as settings have with REDIS_URL
    )
    app._pool = app.amqp._producer_pool = None
    try:
        with django_capture_on_commit_callbacks(execute=True):
            started = time.monotonic()
            game = move(game, "@a1", T0)
            waited = time.monotonic() - started
    finally:
        app.conf.update(saved)
        app._pool, app.amqp._producer_pool = pools
    assert Game.objects.get(pk=game.pk).ply == 1
    assert waited < 2  # the move did not wait on the broker
    assert Notification.objects.get(user=bob, kind="turn").sent_at is None
    assert notify.deliver_due(now=T0) == 1
    assert notify.deliver_due(now=T0) == 0
    assert len(mail_to(bob)) == 1


def test_a_claimed_row_is_not_taken_by_a_second_sender(alice, bob):
    move(start(alice, bob), "@a1", T0)
    claimed = notify._claim(T0)  # a sender that then crashed before sending
    assert "turn" in {row.kind for row in claimed}
    assert notify.deliver_due(now=T0 + timedelta(minutes=1)) == 0
    assert mail_to(bob) == []
    # its lease runs out, and the next sweep sends
    assert notify.deliver_due(now=T0 + notify.LEASE + timedelta(seconds=1)) == 1
    assert len(mail_to(bob)) == 1


def test_an_email_sent_again_after_a_crash_keeps_its_message_id(alice, bob):
    # The worker dies after the mail server took the e-mail, before the row is marked:
    # the row is sent again, as the same message, which mail systems then drop.
    move(start(alice, bob), "@a1", T0)
    with mock.patch.object(notify, "_mark", side_effect=RuntimeError("worker killed")):
        with pytest.raises(RuntimeError):
            notify.deliver_due(now=T0)
    assert notify.deliver_due(now=T0) == 1
    first, again = mail_to(bob)
    assert first.extra_headers["Message-ID"] == again.extra_headers["Message-ID"]
    # another e-mail is another message
    move(Game.objects.get(), "@a2", T0 + timedelta(hours=1))
    notify.deliver_due(now=T0 + timedelta(hours=1))
    (to_alice,) = mail_to(alice)
    assert to_alice.extra_headers["Message-ID"] != first.extra_headers["Message-ID"]


def test_a_transient_smtp_error_leaves_the_rows_for_the_retry(alice, bob):
    move(start(alice, bob), "@a1", T0)
    failure = SMTPServerDisconnected("Connection unexpectedly closed")
    with mock.patch.object(EmailMultiAlternatives, "send", side_effect=failure):
        with pytest.raises(SMTPServerDisconnected):
            notify.deliver_due(now=T0)
    row = Notification.objects.get(user=bob, kind="turn")
    assert row.sent_at is None and row.claimed_until is None
    assert mail.outbox == []
    assert notify.deliver_due(now=T0) == 1
    assert len(mail_to(bob)) == 1


def test_the_task_retries_a_transient_error(alice, bob):
    move(start(alice, bob), "@a1", T0)
    failure = ConnectionError("smtp down")
    with mock.patch.object(notify, "deliver_due", side_effect=failure):
        with mock.patch.object(tasks.deliver_notifications, "retry", side_effect=RuntimeError) as r:
            with pytest.raises(RuntimeError):
                tasks.deliver_notifications.delay()
    assert r.called


def test_one_players_failing_address_does_not_hold_up_the_others(alice, bob, charlie):
    move(start(alice, bob), "@a1", T0)
    move(start(alice, charlie), "@a1", T0)
    real_send = EmailMultiAlternatives.send

    def send(message, *args, **kwargs):
        if message.to == [bob.email]:
            raise SMTPServerDisconnected("bob's server hangs up")
        return real_send(message, *args, **kwargs)

    with mock.patch.object(EmailMultiAlternatives, "send", send):
        with pytest.raises(SMTPServerDisconnected):
            notify.deliver_due(now=T0)
    assert len(mail_to(charlie)) == 1 and mail_to(bob) == []
    notify.deliver_due(now=T0)
    assert len(mail_to(charlie)) == 1 and len(mail_to(bob)) == 1


def test_an_address_the_server_refuses_is_not_tried_again(alice, bob, charlie):
    move(start(alice, bob), "@a1", T0)
    move(start(alice, charlie), "@a1", T0)
    real_send = EmailMultiAlternatives.send
    tries = []

    def send(message, *args, **kwargs):
        if message.to == [bob.email]:
            tries.append(message.subject)
            raise SMTPRecipientsRefused({bob.email: (550, b"5.1.1 no such mailbox")})
        return real_send(message, *args, **kwargs)

    with mock.patch.object(EmailMultiAlternatives, "send", send):
        notify.deliver_due(now=T0)  # no error to retry: the refusal is for good
        assert Notification.objects.get(user=bob, kind="turn").outcome == "refused"
        notify.deliver_due(now=T0 + timedelta(minutes=1))
    assert len(tries) == 1
    assert len(mail_to(charlie)) == 1 and mail_to(bob) == []


def test_a_player_whose_rows_another_sender_holds_is_left_to_it(alice, bob, charlie):
    # Two senders at once must not both mail bob inside his 15-minute window.
    first = start(alice, bob)
    move(first, "@a1", T0)
    held = Notification.objects.get(user=bob, kind="turn")
    Notification.objects.filter(pk=held.pk).update(claimed_until=T0 + timedelta(minutes=10))
    move(start(alice, bob), "@a1", T0)  # bob's second turn, while the other sender holds his first
    move(start(alice, charlie), "@a1", T0)
    assert notify.deliver_due(now=T0) == 1
    assert mail_to(bob) == [] and len(mail_to(charlie)) == 1
    # the other sender sends bob's first and marks it; then his second waits for the window
    notify.deliver_due(now=T0 + timedelta(minutes=11))  # its lease has run out: taken over
    assert len(mail_to(bob)) == 1


def test_bots_get_no_email(alice, bob):
    game = start(alice, bob)
    bob.is_bot = True
    bob.save()
    move(game, "@a1", T0)
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []
    assert Notification.objects.get(user=bob, kind="turn").outcome == "off"


def test_kicks_within_a_second_share_one_delivery_task(monkeypatch):
    from carolo_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr(notify, "_next_kick", 0.0)
    clock = iter([100.0, 100.2, 100.5, 100.9, 101.0, 101.3])
    monkeypatch.setattr(notify, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    with mock.patch.object(tasks.deliver_notifications, "apply_async") as queued:
        for _ in range(4):
            notify._kick()
        # one task, held back until the gate opens again: it sees every row kicked for
        assert queued.call_args_list == [mock.call(countdown=notify.KICK_EVERY, retry=False)]
        notify._kick()  # at 101.0 the gate's second is over
        assert queued.call_count == 2
        notify._kick()  # and shut again
        assert queued.call_count == 2
