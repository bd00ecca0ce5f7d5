from tests.conftest import PASSWORD
from tests.helpers import text


def login(client, login, password=PASSWORD):
    return client.post("/accounts/login/", {"login": login, "password": password}, follow=True)


def test_it_logs_in_with_username(client, alice):
    r = login(client, "alice")
    assert r.redirect_chain[-1][0] == "/"
    assert "Successfully signed in as alice." in text(r)
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_logs_in_with_username_in_other_case(client, alice):
    r = login(client, "ALICE")
    assert "Successfully signed in as alice." in text(r)


def test_it_logs_in_with_email(client, alice):
    r = login(client, "alice@example.org")
    assert "Successfully signed in as alice." in text(r)


def test_it_rejects_wrong_password(client, alice):
    r = login(client, "alice", "not-my-password")
    assert "The username and/or password you specified are not correct." in text(r)
    assert "_auth_user_id" not in client.session


def test_it_rate_limits_failed_logins(client, alice):
    for _ in range(5):
        login(client, "alice", "not-my-password")
    r = login(client, "alice")
    assert "Too many failed login attempts. Try again later." in text(r)
    assert "_auth_user_id" not in client.session


def test_it_logs_out(client_alice):
    r = client_alice.post("/accounts/logout/", follow=True)
    assert "You have signed out." in text(r)
    assert "_auth_user_id" not in client_alice.session


def test_the_header_shows_the_signed_in_user(client_alice):
    r = client_alice.get("/")
    assert 'href="/@/alice"' in text(r)
    assert "Sign out" in text(r)
