"""Revoking an API token asks first: only the confirmed POST revokes it."""

import re

from accounts import tokens
from accounts.models import ApiToken
from tests.api.conftest import Api
from tests.helpers import text

QUESTION = "Revoke the token “{}”? Programs using it will stop working at once."


def revoke_forms(response) -> list[str]:
    """The action of every form posting to a revoke URL on the page."""
    return re.findall(r'action="(/settings/tokens/\d+/revoke)"', response.content.decode())


def test_the_first_post_only_asks_and_the_token_keeps_working(client_alice, alice):
    row, raw = tokens.create_token(alice, "my bot")
    r = client_alice.post(f"/settings/tokens/{row.pk}/revoke")
    assert r.status_code == 302
    assert r["Location"] == f"/settings/tokens/?revoke={row.pk}"
    page = client_alice.get(r["Location"])
    assert QUESTION.format("my bot") in text(page)
    html = page.content.decode()
    assert 'name="confirmed" value="1"' in html
    assert '<a class="button secondary" href="/settings/tokens/">Cancel</a>' in html
    assert ApiToken.objects.filter(pk=row.pk).exists()
    assert Api(raw).get("/api/account")[0] == 200


def test_the_confirmed_post_revokes(client_alice, alice):
    row, raw = tokens.create_token(alice, "my bot")
    r = client_alice.post(f"/settings/tokens/{row.pk}/revoke", {"confirmed": "1"}, follow=True)
    assert "The token is revoked." in text(r)
    assert "my bot" not in text(r)
    assert not ApiToken.objects.exists()
    assert Api(raw).get("/api/account")[0] == 401


def test_the_question_replaces_the_button_of_that_token_only(client_alice, alice):
    asked, _ = tokens.create_token(alice, "first bot")
    other, _ = tokens.create_token(alice, "second bot")
    page = client_alice.get(f"/settings/tokens/?revoke={asked.pk}")
    assert QUESTION.format("first bot") in text(page)
    assert "second bot”?" not in text(page)
    # the other token's Revoke button, and the confirming form of the asked one
    assert sorted(revoke_forms(page)) == sorted(
        [f"/settings/tokens/{other.pk}/revoke", f"/settings/tokens/{asked.pk}/revoke"]
    )
    assert page.content.decode().count('name="confirmed"') == 1


def test_the_plain_page_and_cancel_ask_nothing(client_alice, alice):
    row, _ = tokens.create_token(alice, "my bot")
    page = client_alice.get("/settings/tokens/")
    assert "Programs using it" not in text(page)
    assert revoke_forms(page) == [f"/settings/tokens/{row.pk}/revoke"]


def test_a_get_of_the_revoke_url_revokes_nothing(client_alice, alice):
    row, raw = tokens.create_token(alice, "my bot")
    assert client_alice.get(f"/settings/tokens/{row.pk}/revoke?confirmed=1").status_code == 405
    assert Api(raw).get("/api/account")[0] == 200


def test_another_players_token_changes_nothing(client_alice, bob):
    row, raw = tokens.create_token(bob, "bob's bot")
    for data in ({}, {"confirmed": "1"}):
        r = client_alice.post(f"/settings/tokens/{row.pk}/revoke", data, follow=True)
        assert "No such token." in text(r)
        assert "bob's bot" not in text(r)
    page = client_alice.get(f"/settings/tokens/?revoke={row.pk}")
    assert "bob's bot" not in text(page) and "Programs using it" not in text(page)
    assert Api(raw).get("/api/account")[0] == 200


def test_a_bad_id_changes_nothing(client_alice, alice):
    row, raw = tokens.create_token(alice, "my bot")
    for data in ({}, {"confirmed": "1"}):
        r = client_alice.post("/settings/tokens/999999/revoke", data, follow=True)
        assert "No such token." in text(r)
    assert client_alice.post("/settings/tokens/abc/revoke").status_code == 404
    for bad in ("abc", "", "1.5", "99999999999999999999999"):
        page = client_alice.get("/settings/tokens/", {"revoke": bad})
        assert page.status_code == 200 and "Programs using it" not in text(page)
    assert Api(raw).get("/api/account")[0] == 200


def test_only_the_exact_confirmation_revokes(client_alice, alice):
    row, raw = tokens.create_token(alice, "my bot")
    r = client_alice.post(f"/settings/tokens/{row.pk}/revoke", {"confirmed": "yes"})
    assert r["Location"] == f"/settings/tokens/?revoke={row.pk}"
    assert Api(raw).get("/api/account")[0] == 200
