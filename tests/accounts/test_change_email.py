from allauth.account.models import EmailAddress
from django.core import mail

from tests.helpers import link_in, text


def change_to(client, email):
    return client.post("/accounts/email/", {"action_add": "", "email": email}, follow=True)


def test_it_changes_the_address_once_the_new_one_is_verified(client_alice, alice):
    r = change_to(client_alice, "alice@example.net")
    assert "Confirmation email sent to alice@example.net." in text(r)
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"  # not before verification

    link = link_in(mail.outbox[-1], "/accounts/confirm-email/")
    r = client_alice.get(link, follow=True)
    assert "You have confirmed alice@example.net." in text(r)
    alice.refresh_from_db()
    assert alice.email == "alice@example.net"
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", flat=True)) == [
        "alice@example.net"
    ]


def test_it_never_takes_the_address_of_another_player(client_alice, alice, bob):
    # allauth prevents account enumeration: the page reads as for a free address...
    r = change_to(client_alice, "bob@example.org")
    assert "Confirmation email sent to bob@example.org." in text(r)
    # ...but the change cannot complete.
    link = link_in(mail.outbox[-1], "/accounts/confirm-email/")
    client_alice.get(link, follow=True)
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert bob.email == "bob@example.org"
    assert EmailAddress.objects.get(email="bob@example.org", verified=True).user == bob


def test_it_rejects_a_malformed_address(client_alice):
    r = change_to(client_alice, "not-an-address")
    assert "Enter a valid email address." in text(r)


def test_it_requires_login(client):
    r = client.get("/accounts/email/")
    assert r.status_code == 302
    assert r["Location"].startswith("/accounts/login/")


def test_the_page_shows_the_change_waiting_for_its_link_and_can_cancel_it(client_alice, alice):
    page = text(change_to(client_alice, "alice@example.net"))
    assert "Your e-mail address is <strong>alice@example.org</strong>." in page
    assert "Changing to <strong>alice@example.net</strong>" in page
    assert page.count('name="email"') == 2  # the pending address's form, and a new one
    for button in ('name="action_send"', 'name="action_remove"', 'name="action_add"'):
        assert button in page
    client_alice.post("/accounts/email/", {"action_remove": "", "email": "alice@example.net"})
    page = text(client_alice.get("/accounts/email/"))
    assert "Changing to" not in page
    assert not EmailAddress.objects.filter(email="alice@example.net").exists()


def test_the_confirmation_e_mail_fits_a_change_of_address(client_alice):
    change_to(client_alice, "alice@example.net")
    body = mail.outbox[-1].body
    assert "the player alice has given this address for their account on Carolo." in body
    assert "register" not in body
