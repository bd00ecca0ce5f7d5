"""Each e-mail wholly in the language the player last used the site in: the time left
and the result too, not only the template's own words."""

from datetime import timedelta

from django.core import mail

from games import clock, notify

from .play import T0, mail_to, move, start


def french(user):
    user.language = "fr"
    user.save(update_fields=["language"])


def test_the_time_left_of_a_turn_email_is_in_french(alice, bob):
    french(bob)
    move(start(alice, bob), "@a1", T0)  # bob has 3 days from T0
    mail.outbox.clear()
    notify.deliver_due(now=T0)
    [message] = mail_to(bob)
    assert "son coup : @a1 — encore 3 jours" in message.body
    assert "son coup : <b>@a1</b> — encore 3 jours" in message.alternatives[0].content
    assert "left" not in message.body


def test_the_player_who_uses_english_still_gets_english(alice, bob):
    french(alice)  # the sender's other player: no matter
    move(start(alice, bob), "@a1", T0)
    mail.outbox.clear()
    notify.deliver_due(now=T0)
    [message] = mail_to(bob)
    assert "their move: @a1 — 3 days left" in message.body


def test_a_reminder_subject_tells_the_time_left_in_french(alice, bob):
    french(bob)
    move(start(alice, bob, days=5), "@a1", T0)  # deadline T0 + 5 days
    notify.deliver_due(now=T0)
    assert clock.queue_reminders(now=T0 + timedelta(days=4)) == 1  # 80% of 5 days
    notify.deliver_due(now=T0 + timedelta(days=4))
    reminder = mail_to(bob)[-1]
    assert reminder.subject == "[Carolo] Rappel : votre coup contre alice, encore 1 jour"
    assert "(encore 1 jour)" in reminder.body


def test_a_digest_tells_the_time_left_in_french(alice, bob):
    french(bob)
    first, second, third = start(alice, bob), start(alice, bob), start(alice, bob)
    move(first, "@a1", T0)
    notify.deliver_due(now=T0)  # bob's turn e-mail: the window opens
    move(second, "@a1", T0 + timedelta(minutes=5))  # deadline T0 + 3 days 5 minutes
    move(third, "@a1", T0 + timedelta(minutes=6))  # deadline T0 + 3 days 6 minutes
    notify.deliver_due(now=T0 + timedelta(minutes=15))  # 2 days 23 hours 50/51 minutes left
    digest = mail_to(bob)[-1]
    assert digest.subject == "[Carolo] 2 parties attendent votre coup"
    assert digest.body.count("— encore 2 jours 23 heures") == 2


def test_a_daily_digest_tells_the_time_left_in_french(alice, bob):
    french(bob)
    bob.notify, bob.time_zone = "daily", "UTC"
    bob.save(update_fields=["notify", "time_zone"])
    move(start(alice, bob), "@a1", T0)  # deadline T0 + 3 days
    next_noon = T0 + timedelta(days=1)
    assert notify.queue_daily_digests(now=next_noon) == 1
    notify.deliver_due(now=next_noon)
    [daily] = mail_to(bob)
    assert daily.subject == "[Carolo] Aujourd’hui : 1 partie attend votre coup"
    assert "son coup : @a1 — encore 2 jours" in daily.body


def test_on_vacation_is_in_french(alice, bob):
    french(bob)
    game = start(alice, bob)
    clock.start_vacation(bob, 10, now=T0)
    move(game, "@a1", T0 + timedelta(hours=1))  # bob's turn comes while he is away
    mail.outbox.clear()
    notify.deliver_due(now=T0 + timedelta(hours=1))
    [message] = mail_to(bob)
    assert "son coup : @a1 — en vacances" in message.body


# -- results ------------------------------------------------------------------------------


def bob_to_move(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    game = move(game, "@a3", T0)
    return move(game, "@b1", T0)  # bob to move by T0 + 3 days


def test_a_loss_on_time_is_told_in_the_players_own_language(alice, bob):
    french(bob)
    bob_to_move(alice, bob)
    clock.expire_overdue_games(now=T0 + timedelta(days=3))
    mail.outbox.clear()
    notify.deliver_due(now=T0 + timedelta(days=3))
    [to_alice], [to_bob] = mail_to(alice), mail_to(bob)
    assert "is over: Black ran out of time: White wins (you won)." in to_alice.body
    assert "<b>Black ran out of time: White wins</b> (you won).</p>" in (
        to_alice.alternatives[0].content
    )
    assert "est terminée : Noir a dépassé son temps : Blanc gagne (vous avez perdu)." in (
        to_bob.body
    )
    assert "<b>Noir a dépassé son temps : Blanc gagne</b> (vous avez perdu).</p>" in (
        to_bob.alternatives[0].content
    )
    assert "ran out of time" not in to_bob.body


def test_an_abort_for_no_first_move_is_told_in_french(alice, bob):
    french(bob)
    move(start(alice, bob), "@a1", T0)  # bob never moves
    clock.expire_overdue_games(now=T0 + timedelta(days=3))
    mail.outbox.clear()
    notify.deliver_due(now=T0 + timedelta(days=3))
    [to_alice], [to_bob] = mail_to(alice), mail_to(bob)
    assert "is over: The game was aborted.\n" in to_alice.body
    assert "est terminée : La partie a été annulée.\n" in to_bob.body
    assert "Aborted" not in to_bob.body and "vous avez" not in to_bob.body
