import datetime

from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import mail

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
