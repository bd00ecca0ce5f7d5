from django.test import Client

from accounts import tokens
from accounts.models import ApiToken
from tests.conftest import PASSWORD
from tests.helpers import text

NEW_PASSWORD = "Brand-New-Bayard-7"
REVOKED = "Your API tokens were revoked: make new ones on your settings page."


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


def api_status(raw):
    return Client().get("/api/account", headers={"Authorization": f"Bearer {raw}"}).status_code


def test_a_new_password_revokes_every_api_token_of_the_player(client_alice, alice, bob):
    """Whoever took the account over and made a token loses it with the password."""
    r = change(client_alice, new="Other-Bayard-42", again="Other-Bayard-42")
    assert "Password successfully changed." in text(r)
    assert "API tokens" not in text(r)  # told only to a player who had some

    raws = [tokens.create_token(alice, name)[1] for name in ("bot", "phone")]
    _, bobs = tokens.create_token(bob, "bot")
    r = change(client_alice, old="not-my-password")  # refused: nothing changes
    assert REVOKED not in text(r)
    assert api_status(raws[0]) == 200

    r = change(client_alice, old="Other-Bayard-42")
    assert "Password successfully changed." in text(r)
    assert REVOKED in text(r)
    assert not ApiToken.objects.filter(user=alice).exists()
    assert [api_status(raw) for raw in raws] == [401, 401]
    assert api_status(bobs) == 200  # another player's tokens are theirs


def test_setting_a_first_password_revokes_the_api_tokens(client_alice, alice):
    alice.set_unusable_password()
    alice.save()
    client_alice.force_login(alice)  # the session follows the password
    _, raw = tokens.create_token(alice, "bot")
    data = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    r = client_alice.post("/accounts/password/set/", data, follow=True)
    assert "Password successfully set." in text(r)
    assert REVOKED in text(r)
    assert api_status(raw) == 401


def test_a_password_set_in_the_admin_revokes_the_api_tokens(alice, django_user_model):
    staff = django_user_model.objects.create_superuser("admin", "admin@example.org", PASSWORD)
    _, raw = tokens.create_token(alice, "bot")
    client = Client()
    client.force_login(staff)
    data = {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}
    r = client.post(f"/admin/accounts/user/{alice.pk}/password/", data)
    assert r.status_code == 302, text(r)
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert api_status(raw) == 401


def test_a_password_set_in_code_revokes_the_api_tokens_and_other_saves_do_not(alice):
    """``manage.py changepassword`` does this: set_password, then save."""
    _, raw = tokens.create_token(alice, "bot")
    alice.time_zone = "Europe/Paris"
    alice.save()
    alice.save(update_fields=["last_login"])
    assert api_status(raw) == 200

    alice.set_password(NEW_PASSWORD)
    alice.save()
    assert alice.tokens_revoked == 1
    assert api_status(raw) == 401
