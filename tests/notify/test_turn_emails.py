"""The turn e-mail: to the player now to move, with the move, the time left and a link."""

from datetime import timedelta

from django.core import mail

from games import notify, presence, services
from games.models import Notification

from .play import T0, mail_to, move, start


def test_a_move_writes_a_turn_row_in_its_own_transaction(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    row = Notification.objects.get(kind="turn", user=bob)
    assert (row.game_id, row.ply, row.due_at, row.sent_at) == (game.pk, 1, T0, None)
    assert row.key == f"turn:{game.pk}:1:{bob.pk}"


def test_the_player_to_move_gets_one_email_with_move_time_left_and_link(alice, bob):
    game = move(start(alice, bob), "@a1", T0 + timedelta(hours=1))
    mail.outbox.clear()
    assert notify.deliver_due(now=T0 + timedelta(hours=1)) == 1
    [message] = mail_to(bob)
    assert "alice" in message.subject and "Le Carge" in message.subject
    assert "their move: @a1" in message.body
    assert "3 days left" in message.body
    assert f"https://carolo.example/game/{game.pk}/" in message.body
    html = message.alternatives[0].content
    assert f'href="https://carolo.example/game/{game.pk}/"' in html
    assert "<b>@a1</b>" in html


def test_the_email_is_in_the_language_the_player_last_used_the_site_in(alice, bob, client):
    client.force_login(bob)
    client.get("/", headers={"accept-language": "fr"})  # bob uses the site in French
    bob.refresh_from_db()
    assert bob.language == "fr"
    move(start(alice, bob), "@a1", T0 + timedelta(hours=1))
    mail.outbox.clear()
    notify.deliver_due(now=T0 + timedelta(hours=1))
    [to_bob] = mail_to(bob)
    assert "À vous de jouer contre alice (Le Carge)" in to_bob.subject
    assert "son coup : @a1" in to_bob.body
    client.get("/", headers={"accept-language": "en"})  # and back in English
    bob.refresh_from_db()
    assert bob.language == "en"


def test_the_player_who_moved_gets_no_email(alice, bob):
    game = start(alice, bob)
    notify.deliver_due(now=T0)
    mail.outbox.clear()
    move(game, "@a1", T0 + timedelta(hours=1))
    notify.deliver_due(now=T0 + timedelta(hours=1))
    assert mail_to(alice) == []


def test_the_challenger_is_told_when_the_game_starts_with_their_move(alice, bob):
    start(alice, bob)  # bob accepts; alice (white) is to move
    notify.deliver_due(now=T0)
    assert [m.subject for m in mail.outbox if "Your move" in m.subject] == [
        "[Carolo] Your move against bob (Le Carge)"
    ]
    assert mail_to(bob) == []


def test_the_first_turn_email_of_a_game_says_it_has_started(alice, bob):
    game = start(alice, bob)  # nobody has moved yet
    notify.deliver_due(now=T0)
    [to_alice] = mail_to(alice)
    assert "Your game against bob has started: it is your turn." in to_alice.body
    assert "Your game against bob has started: it is your turn.</p>" in (
        to_alice.alternatives[0].content
    )
    assert "has moved" not in to_alice.body
    move(game, "@a1", T0 + timedelta(hours=1))  # the next turn e-mail tells the move
    notify.deliver_due(now=T0 + timedelta(hours=1))
    [to_bob] = mail_to(bob)
    assert "alice has moved: it is your turn." in to_bob.body
    assert "has started" not in to_bob.body


def test_a_game_begun_by_chance_moves_has_started_all_the_same(alice, bob):
    """Shuuro with scouts: plinths fall by chance before recruitment, a move no one made."""
    challenge = services.create_challenge(
        alice,
        variant="shuuro",
        options={"scouts": "on"},
        color="white",
        opponent=bob,
        days_per_move=3,
        now=T0,
    )
    game = services.accept_challenge(bob, challenge.pk, now=T0)
    assert game.ply > 0 and set(game.to_act()) == {"white", "black"}
    notify.deliver_due(now=T0)
    [to_alice] = mail_to(alice)
    assert "Your game against bob has started: it is your turn." in to_alice.body
    assert "has moved" not in to_alice.body


def test_no_email_to_a_player_who_has_the_game_open(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    presence.touch(game.pk, bob.pk)
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []
    assert Notification.objects.get(user=bob, kind="turn").outcome == "present"


def test_no_email_once_the_player_has_moved_already(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    move(game, "@a3", T0)  # bob replies before the e-mail went
    mail.outbox.clear()
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []
    assert Notification.objects.get(user=bob, kind="turn").outcome == "stale"


def test_a_second_delivery_sends_nothing_again(alice, bob):
    move(start(alice, bob), "@a1", T0)
    notify.deliver_due(now=T0)
    notify.deliver_due(now=T0 + timedelta(minutes=1))
    notify.deliver_due(now=T0 + timedelta(days=1))
    assert len(mail_to(bob)) == 1


def test_writing_the_same_event_twice_keeps_one_row(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    notify.turn_started(game, ["white"], T0)
    notify.turn_started(game, ["white"], T0 + timedelta(seconds=5))
    assert Notification.objects.filter(kind="turn", user=bob).count() == 1


def test_at_most_one_email_in_15_minutes_then_one_digest(alice, bob):
    games = [start(alice, bob) for _ in range(4)]
    notify.deliver_due(now=T0)
    mail.outbox.clear()
    for minute, game in enumerate(games):
        at = T0 + timedelta(minutes=minute)
        move(game, "@a1", at)
        notify.deliver_due(now=at)
    [first] = mail_to(bob)
    assert "Your move against alice" in first.subject
    notify.deliver_due(now=T0 + timedelta(minutes=14, seconds=59))
    assert len(mail_to(bob)) == 1
    notify.deliver_due(now=T0 + timedelta(minutes=15))
    first, digest = mail_to(bob)
    assert digest.subject == "[Carolo] 3 games await your move"
    for game in games[1:]:
        assert f"/game/{game.pk}/" in digest.body
    assert f"/game/{games[0].pk}/" not in digest.body
    # and the window starts again after the digest
    move(games[0], "@a3", T0 + timedelta(minutes=16))  # bob replies in game 0
    move(games[0], "@b1", T0 + timedelta(minutes=17))
    notify.deliver_due(now=T0 + timedelta(minutes=17))
    assert len(mail_to(bob)) == 2
    notify.deliver_due(now=T0 + timedelta(minutes=30))
    assert len(mail_to(bob)) == 3
    assert "Your move against alice" in mail_to(bob)[-1].subject


def test_a_digest_reduced_to_one_game_is_a_plain_turn_email(alice, bob):
    one, two = start(alice, bob), start(alice, bob)
    move(one, "@a1", T0)
    notify.deliver_due(now=T0)
    move(two, "@a1", T0 + timedelta(minutes=5))
    notify.deliver_due(now=T0 + timedelta(minutes=5))
    assert len(mail_to(bob)) == 1
    notify.deliver_due(now=T0 + timedelta(minutes=15))
    assert "Your move against alice" in mail_to(bob)[-1].subject
    assert len(mail_to(bob)) == 2


def test_notify_none_gets_no_turn_email(alice, bob):
    bob.notify = "none"
    bob.save()
    move(start(alice, bob), "@a1", T0)
    notify.deliver_due(now=T0)
    assert mail_to(bob) == []
    assert Notification.objects.get(user=bob, kind="turn").outcome == "off"


def test_a_hidden_move_is_not_told(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    game.moves.update(hidden=True)
    notify.deliver_due(now=T0)
    [message] = mail_to(bob)
    assert "@a1" not in message.body


def test_one_batch_puts_off_each_player_to_their_own_window(alice, bob, django_user_model):
    """Rows of several players in one delivery: each waits for their own window's end."""
    carol = django_user_model.objects.create_user("carol", "carol@example.org", "pw-carol-123")
    dave = django_user_model.objects.create_user("dave", "dave@example.org", "pw-dave-123")
    first, second = start(alice, bob), start(carol, dave)
    move(first, "@a1", T0)
    notify.deliver_due(now=T0)  # bob's turn e-mail at T0
    move(second, "@a1", T0 + timedelta(minutes=4))
    notify.deliver_due(now=T0 + timedelta(minutes=4))  # dave's at T0 + 4
    assert len(mail_to(bob)) == len(mail_to(dave)) == 1
    third, fourth = start(alice, bob), start(carol, dave)
    watched = start(alice, dave)
    presence.touch(watched.pk, dave.pk)
    move(third, "@a1", T0 + timedelta(minutes=5))
    move(fourth, "@a1", T0 + timedelta(minutes=5))
    move(watched, "@a1", T0 + timedelta(minutes=5))
    notify.deliver_due(now=T0 + timedelta(minutes=5))  # one batch for bob and dave
    due = {
        (row.user_id, row.game_id): (row.due_at, row.outcome, row.claimed_until)
        for row in Notification.objects.filter(kind="turn", ply=1, sent_at__isnull=True)
    }
    assert due == {
        (bob.pk, third.pk): (T0 + timedelta(minutes=15), "", None),
        (dave.pk, fourth.pk): (T0 + timedelta(minutes=19), "", None),
    }
    assert Notification.objects.get(user=dave, game=watched, kind="turn").outcome == "present"
