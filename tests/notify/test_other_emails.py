"""Results, challenges, reminders and the daily digest; what 'none' and 'daily' change."""

from datetime import timedelta

import pytest
from django.core import mail

from games import clock, notify, presence, services, tasks
from games.models import Notification

from .play import CARGE, T0, mail_to, move, start


def test_a_result_goes_to_both_players(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    services.abort(alice, game.pk, now=T0 + timedelta(minutes=1))
    mail.outbox.clear()
    notify.deliver_due(now=T0 + timedelta(minutes=1))
    subjects = {message.to[0]: message.subject for message in mail.outbox}
    assert subjects == {
        "alice@example.org": "[Carolo] Game over: Le Carge against bob",
        "bob@example.org": "[Carolo] Game over: Le Carge against alice",
    }


def test_a_result_goes_to_a_player_looking_at_the_game_too(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    presence.touch(game.pk, alice.pk)  # alice resigns from the game page
    presence.touch(game.pk, bob.pk)  # and bob watches it happen
    services.resign(alice, game.pk, now=T0)
    mail.outbox.clear()
    notify.deliver_due(now=T0)
    assert sorted(message.to[0] for message in mail.outbox) == [
        "alice@example.org",
        "bob@example.org",
    ]
    assert "White resigned: Black wins (you lost)." in mail_to(alice)[0].body
    outcomes = Notification.objects.filter(kind="result").values_list("outcome", flat=True)
    assert list(outcomes) == ["sent", "sent"]


def test_a_challenge_to_a_player_is_emailed(alice, bob):
    challenge = services.create_challenge(
        alice, variant="carge", options=CARGE, opponent=bob, days_per_move=5, now=T0
    )
    assert Notification.objects.get(kind="challenge").key == f"challenge:{challenge.pk}"
    notify.deliver_due(now=T0)
    [message] = mail_to(bob)
    assert message.subject == "[Carolo] alice challenges you to Le Carge"
    assert "5 days per move" in message.body
    assert f"https://carolo.example/challenge/{challenge.token}/" in message.body


def test_a_rematch_offer_is_emailed_as_a_rematch(alice, bob):
    challenge = services.create_challenge(
        alice, variant="carge", options=CARGE, opponent=bob, color="white", now=T0
    )
    game = services.resign(alice, services.accept_challenge(bob, challenge.pk, now=T0).pk, now=T0)
    notify.deliver_due(now=T0)
    mail.outbox.clear()
    offer = services.offer_rematch(bob, game.pk, now=T0)
    notify.deliver_due(now=T0)
    [message] = mail_to(alice)
    assert message.subject == "[Carolo] bob offers you a rematch of Le Carge"
    assert (
        f"bob offers you a rematch of your game {game.pk} of Le Carge, with colours swapped."
        in message.body
    )
    assert f"https://carolo.example/challenge/{offer.token}/" in message.body


def test_an_open_challenge_to_anyone_is_not_emailed(alice, bob):
    services.create_challenge(alice, variant="carge", options=CARGE, now=T0)
    notify.deliver_due(now=T0)
    assert mail.outbox == [] and not Notification.objects.exists()


def test_a_challenge_withdrawn_before_delivery_is_not_emailed(alice, bob):
    challenge = services.create_challenge(
        alice, variant="carge", options=CARGE, opponent=bob, now=T0
    )
    services.cancel_challenge(alice, challenge.pk)
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []


@pytest.mark.parametrize("kind", ["result", "challenge", "turn"])
def test_notify_none_means_no_email_at_all(alice, bob, kind):
    bob.notify = "none"
    bob.save()
    game = move(start(alice, bob), "@a1", T0)
    services.create_challenge(alice, variant="carge", options=CARGE, opponent=bob, now=T0)
    services.resign(alice, game.pk, now=T0)
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []
    outcomes = set(
        Notification.objects.filter(user=bob, kind=kind).values_list("outcome", flat=True)
    )
    assert "off" in outcomes and "sent" not in outcomes


def test_every_email_has_text_html_and_a_one_click_unsubscribe(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    services.create_challenge(alice, variant="carge", options=CARGE, opponent=bob, now=T0)
    notify.deliver_due(now=T0)
    services.resign(alice, game.pk, now=T0 + timedelta(minutes=20))
    notify.deliver_due(now=T0 + timedelta(minutes=20))
    assert len(mail.outbox) == 4  # bob's turn and challenge, the result to both
    for message in mail.outbox:
        token = notify.unsubscribe_token(alice if message.to == [alice.email] else bob)
        url = f"https://carolo.example/unsubscribe/{token}/"
        assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert url in message.body
        [(html, mimetype)] = message.alternatives
        assert mimetype == "text/html" and url in html and "<p>" in html
        assert "\n" not in message.subject and "&" not in message.body


# -- reminders ----------------------------------------------------------------------------


def reminded(game_days=5):
    """The moment 80% of a move's time has passed, for a move made at T0."""
    return T0 + timedelta(days=game_days) * clock.REMINDER_AT


def test_a_reminder_once_80_percent_of_the_time_has_passed(alice, bob):
    game = move(start(alice, bob, days=5), "@a1", T0)
    notify.deliver_due(now=T0)
    assert clock.queue_reminders(now=reminded() - timedelta(minutes=1)) == 0
    assert clock.queue_reminders(now=reminded()) == 1
    assert clock.queue_reminders(now=reminded() + timedelta(minutes=5)) == 0  # once per move
    notify.deliver_due(now=reminded())
    notify.deliver_due(now=reminded() + timedelta(minutes=5))
    reminder = mail_to(bob)[-1]
    assert len(mail_to(bob)) == 2
    assert reminder.subject == "[Carolo] Reminder: your move against alice, 1 day left"
    assert f"/game/{game.pk}/" in reminder.body


def test_a_new_move_gets_its_own_reminder(alice, bob):
    game = move(start(alice, bob, days=1), "@a1", T0)
    late = T0 + timedelta(hours=20)
    assert clock.queue_reminders(now=late) == 1
    game = move(game, "@a3", late)  # bob moves; alice is now to move, for a day
    assert clock.queue_reminders(now=late + timedelta(hours=20)) == 1
    assert {row.user for row in Notification.objects.filter(kind="reminder")} == {alice, bob}


def test_no_reminder_while_the_player_looks_at_the_game_and_none_once_moved(alice, bob):
    game = move(start(alice, bob, days=5), "@a1", T0)
    notify.deliver_due(now=T0)
    clock.queue_reminders(now=reminded())
    presence.touch(game.pk, bob.pk)
    notify.deliver_due(now=reminded())
    assert len(mail_to(bob)) == 1  # the turn e-mail only
    move(game, "@a3", reminded() + timedelta(minutes=5))
    notify.deliver_due(now=reminded() + timedelta(minutes=20))
    assert len(mail_to(bob)) == 1
    assert Notification.objects.get(kind="reminder").outcome == "stale"


def test_a_reminder_waits_while_the_player_looks_then_goes(alice, bob):
    game = move(start(alice, bob, days=5), "@a1", T0)
    clock.queue_reminders(now=reminded())
    presence.touch(game.pk, bob.pk)
    notify.deliver_due(now=reminded())
    presence.cache.clear()  # the page was closed without a move
    notify.deliver_due(now=reminded() + timedelta(minutes=15))
    assert "Reminder" in mail_to(bob)[-1].subject


def test_no_reminder_without_a_clock(alice, bob):
    move(start(alice, bob, days=None, rated=False), "@a1", T0)
    assert clock.queue_reminders(now=T0 + timedelta(days=300)) == 0


def test_the_reminder_task(alice, bob):
    game = move(start(alice, bob, days=1), "@a1", T0)
    from django.utils import timezone

    type(game).objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=1))
    assert tasks.queue_reminders.delay().get() == 1


# -- daily ----------------------------------------------------------------------------------


def test_daily_players_get_one_digest_a_day_sorted_by_time_left(alice, bob, charlie):
    bob.notify, bob.time_zone = "daily", "Europe/Paris"
    bob.save()
    slow = move(start(alice, bob, days=14), "@a1", T0)
    fast = move(start(charlie, bob, days=1), "@a1", T0)
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []  # no turn e-mails for 'daily'
    morning = T0.replace(hour=5, minute=30)  # 6:30 in Paris: too early
    next_morning = morning + timedelta(days=1)  # 6:30 next day: not yet
    assert notify.queue_daily_digests(now=next_morning) == 0
    at_seven = next_morning + timedelta(minutes=30)
    assert notify.queue_daily_digests(now=at_seven) == 1
    assert notify.queue_daily_digests(now=at_seven + timedelta(hours=1)) == 0  # once a day
    notify.deliver_due(now=at_seven + timedelta(hours=1))
    [digest] = mail_to(bob)
    assert digest.subject == "[Carolo] Today: 2 games await your move"
    assert digest.body.index(f"/game/{fast.pk}/") < digest.body.index(f"/game/{slow.pk}/")
    assert notify.queue_daily_digests(now=at_seven + timedelta(days=1)) == 1


def test_no_daily_digest_without_games_awaiting(alice, bob):
    bob.notify = "daily"
    bob.save()
    move(start(alice, bob), "@a1", T0)
    assert notify.queue_daily_digests(now=T0.replace(hour=6)) == 0
    assert notify.queue_daily_digests(now=T0.replace(hour=23)) == 1
    assert notify.queue_daily_digests(now=T0.replace(hour=23)) == 0


def test_an_unknown_time_zone_does_not_block_the_email(alice, bob):
    bob.time_zone = "Mars/Olympus_Mons"
    bob.save()
    move(start(alice, bob), "@a1", T0)
    notify.deliver_due(now=T0)
    assert len(mail_to(bob)) == 1


@pytest.mark.parametrize(("setting", "reminders"), [("daily", 1), ("none", 0)])
def test_a_daily_summary_player_is_still_warned_before_losing_on_time(
    alice, bob, setting, reminders
):
    bob.notify = setting
    bob.save(update_fields=["notify"])
    move(start(alice, bob, days=1), "@a1", T0)  # bob to move within a day
    late = T0 + timedelta(hours=20)
    assert clock.queue_reminders(now=late) == 1
    notify.deliver_due(now=late)
    assert len([m for m in mail_to(bob) if "Reminder" in m.subject]) == reminders
