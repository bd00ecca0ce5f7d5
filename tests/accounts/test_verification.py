import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from accounts.models import User
from tests.conftest import PASSWORD
from tests.helpers import link_in, text


def signup(client):
    data = {
        "username": "dora",
        "email": "dora@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    client.post("/accounts/signup/", data)
    return link_in(mail.outbox[-1], "/accounts/confirm-email/")


@pytest.mark.django_db
def test_it_verifies_the_address_from_the_emailed_link_and_logs_in(client):
    link = signup(client)
    r = client.get(link, follow=True)
    assert "You have confirmed dora@example.org." in text(r)
    assert EmailAddress.objects.get(email="dora@example.org").verified
    assert client.session["_auth_user_id"] == str(User.objects.get(username="dora").pk)


@pytest.mark.django_db
def test_it_refuses_to_log_in_before_verification(client):
    signup(client)
    client.logout()
    r = client.post("/accounts/login/", {"login": "dora", "password": PASSWORD}, follow=True)
    assert r.redirect_chain[-1][0] == "/accounts/confirm-email/"
    assert "Verify Your Email Address" in text(r)
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_it_rejects_an_invalid_verification_link(client):
    r = client.get("/accounts/confirm-email/not-a-key/", follow=True)
    assert "This email confirmation link expired or is invalid." in text(r)


@pytest.mark.django_db
def test_the_link_works_from_another_browser_but_does_not_log_in(client):
    from django.test import Client

    link = signup(client)
    other = Client()
    r = other.get(link, follow=True)
    assert "You have confirmed dora@example.org." in text(r)
    assert "_auth_user_id" not in other.session
    r = other.post("/accounts/login/", {"login": "dora", "password": PASSWORD}, follow=True)
    assert "Successfully signed in as dora." in text(r)
