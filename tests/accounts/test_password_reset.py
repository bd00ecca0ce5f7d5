import datetime

from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import mail
from django.test import Client

from accounts import tokens
from accounts.models import ApiToken
from tests.helpers import link_in, text

NEW_PASSWORD = "Brand-New-Bayard-7"


def request_reset(client, email="alice@example.org"):
    return client.post("/accounts/password/reset/", {"email": email}, follow=True)


def test_it_emails_a_reset_link_and_sets_the_new_password(client, alice):
    r = request_reset(client)
    assert "We have sent you an email." in text(r)
    link = link_in(mail.outbox[-1], "/accounts/password/reset/key/")

    r = client.get(link, follow=True)
    form_url = r.redirect_chain[-1][0]
    r = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}, follow=True)
    assert "Your password is now changed." in text(r)
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def reset_by_link(client, password=NEW_PASSWORD):
    request_reset(client)
    link = link_in(mail.outbox[-1], "/accounts/password/reset/key/")
    r = client.get(link, follow=True)
    data = {"password1": password, "password2": password}
    return client.post(r.redirect_chain[-1][0], data, follow=True)


def test_a_reset_revokes_every_api_token_of_the_player(client, alice, bob):
    """The owner who gets the account back by e-mail shuts out whoever made tokens."""
    r = reset_by_link(client, "Other-Bayard-42")
    assert "Your password is now changed." in text(r)
    assert "API tokens" not in text(r)  # told only to a player who had some

    _, raw = tokens.create_token(alice, "intruder")
    _, bobs = tokens.create_token(bob, "bot")
    r = reset_by_link(client)
    assert "Your password is now changed." in text(r)
    assert "Your API tokens were revoked: make new ones on your settings page." in text(r)
    assert not ApiToken.objects.filter(user=alice).exists()
    bearer = {"Authorization": f"Bearer {raw}"}
    assert Client().get("/api/account", headers=bearer).status_code == 401
    assert ApiToken.objects.filter(user=bob).count() == 1


def test_it_rejects_an_invalid_reset_link(client, alice):
    r = client.get("/accounts/password/reset/key/1-not-a-token/", follow=True)
    assert "The password reset link was invalid" in text(r)


def test_it_rejects_an_expired_reset_link(client, alice, monkeypatch):
    request_reset(client)
    link = link_in(mail.outbox[-1], "/accounts/password/reset/key/")
    later = datetime.datetime.now() + datetime.timedelta(days=30)
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", lambda self: later)
    r = client.get(link, follow=True)
    assert "The password reset link was invalid" in text(r)


def test_it_rejects_a_reset_link_used_once_already(client, alice):
    request_reset(client)
    link = link_in(mail.outbox[-1], "/accounts/password/reset/key/")
    r = client.get(link, follow=True)
    client.post(r.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    r = client.get(link, follow=True)
    assert "The password reset link was invalid" in text(r)


def test_account_e_mails_name_the_site_not_the_request_s_host(client, alice, settings):
    settings.SITE_URL = "https://carolo.example"
    request_reset(client)  # the test client's host is "testserver"
    body = mail.outbox[-1].body
    assert body.startswith("Hello from Carolo!")
    assert "Thank you for using Carolo!\ncarolo.example" in body
