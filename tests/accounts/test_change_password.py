from tests.conftest import PASSWORD
from tests.helpers import text

NEW_PASSWORD = "Brand-New-Bayard-7"


def change(client, old=PASSWORD, new=NEW_PASSWORD, again=NEW_PASSWORD):
    data = {"oldpassword": old, "password1": new, "password2": again}
    return client.post("/accounts/password/change/", data, follow=True)


def test_it_changes_the_password(client_alice, alice):
    r = change(client_alice)
    assert "Password successfully changed." in text(r)
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # the session survives the change
    assert client_alice.get("/settings/").status_code == 200


def test_it_rejects_a_wrong_current_password(client_alice, alice):
    r = change(client_alice, old="not-my-password")
    assert "Please type your current password." in text(r)
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_it_rejects_a_too_common_new_password(client_alice, alice):
    r = change(client_alice, new="password123", again="password123")
    assert "This password is too common." in text(r)


def test_it_requires_login(client):
    r = client.get("/accounts/password/change/")
    assert r.status_code == 302
    assert r["Location"].startswith("/accounts/login/")
