import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import IntegrityError, transaction

from accounts.models import User
from tests.conftest import PASSWORD
from tests.helpers import text


def people():
    """Accounts of people: the computer opponents' accounts exist from the start."""
    return User.objects.filter(is_bot=False)


def signup(client, username="dora", email="dora@example.org", **extra):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data | extra, follow=True)


@pytest.mark.django_db
def test_it_signs_up_and_asks_to_verify_the_address(client):
    r = signup(client)
    assert r.redirect_chain[-1][0] == "/accounts/confirm-email/"
    assert "We have sent an email to you for verification" in text(r)
    dora = User.objects.get(username="dora")
    assert dora.notify == "per_turn" and dora.confirm_moves and not dora.is_bot
    assert not EmailAddress.objects.get(user=dora).verified
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["dora@example.org"]


@pytest.mark.django_db
def test_it_does_not_log_in_before_verification(client):
    signup(client)
    assert "_auth_user_id" not in client.session


def test_it_rejects_duplicate_username_in_other_case(client, alice):
    r = signup(client, username="ALICE")
    assert r.status_code == 200
    assert "A user with that username already exists." in text(r)
    assert people().count() == 1


def test_the_database_rejects_duplicate_username_in_other_case(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="Alice", email="other@example.org")


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["al", "a" * 21, "al ice", "alice!", "élodie", "a.b"])
def test_it_rejects_invalid_usernames(client, username):
    r = signup(client, username=username)
    assert any(
        words in text(r)
        for words in ("letters, digits, _ and - only", "at least 3 characters", "at most 20")
    )
    assert not people().exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["abc", "a" * 20, "Dora_the-2nd"])
def test_it_accepts_valid_usernames(client, username):
    signup(client, username=username)
    assert User.objects.filter(username=username).exists()


def test_it_keeps_a_taken_email_address_secret_and_warns_its_owner(client, alice):
    r = signup(client, email="ALICE@example.org")
    # allauth prevents account enumeration: the page reads as for a new address...
    assert "We have sent an email to you for verification" in text(r)
    assert people().count() == 1
    # ...and the owner of the address is told that someone tried to use it.
    assert mail.outbox[0].to == ["alice@example.org"]
    assert "already" in mail.outbox[0].body


@pytest.mark.django_db
def test_it_rejects_mismatched_passwords(client):
    r = signup(client, password2="something-else-7")
    assert "You must type the same password each time." in text(r)
    assert not people().exists()
