"""The one-click unsubscribe link of every e-mail: /unsubscribe/<token>/, no login needed."""

from games import notify
from tests.helpers import text


def url_for(user):
    return f"/unsubscribe/{notify.unsubscribe_token(user)}/"


def test_get_asks_for_confirmation_and_changes_nothing(client, bob):
    response = client.get(url_for(bob))
    assert response.status_code == 200
    assert "Stop all e-mails about games" in text(response) and "<form" in text(response)
    bob.refresh_from_db()
    assert bob.notify == "per_turn"


def test_post_unsubscribes_without_a_login(client, bob):
    response = client.post(url_for(bob))
    assert response.status_code == 200 and "no more e-mails" in text(response)
    bob.refresh_from_db()
    assert bob.notify == "none"


def test_the_rfc_8058_one_click_post_unsubscribes(bob):
    from django.test import Client

    csrf_checking = Client(enforce_csrf_checks=True)
    response = csrf_checking.post(
        url_for(bob),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    bob.refresh_from_db()
    assert bob.notify == "none"


def test_a_forged_token_is_refused(client, alice, bob):
    forged = notify.unsubscribe_token(bob)[:-2] + "xx"
    assert client.post(f"/unsubscribe/{forged}/").status_code == 400
    assert client.post(f"/unsubscribe/{alice.pk}/").status_code == 400
    bob.refresh_from_db()
    assert bob.notify == "per_turn"


def test_a_token_names_one_player_only(client, alice, bob):
    client.post(url_for(alice))
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.notify, bob.notify) == ("none", "per_turn")


def test_the_link_in_an_email_works(client, alice, bob):
    from django.core import mail

    from tests.helpers import link_in

    from .play import T0, move, start

    move(start(alice, bob), "@a1", T0)
    notify.deliver_due(now=T0)
    [message] = [m for m in mail.outbox if m.to == [bob.email]]
    assert client.post(link_in(message, "/unsubscribe/")).status_code == 200
    bob.refresh_from_db()
    assert bob.notify == "none"
