"""POST /api/token, bearer tokens, session calls with CSRF, the tokens page, bots."""

import hashlib

from django.test import Client
from django.utils import timezone

from accounts import tokens
from accounts.models import ApiToken
from games import api_limits
from tests.api.conftest import Api
from tests.conftest import PASSWORD, make_player
from tests.helpers import text, without_tokens


def test_it_gives_a_token_for_username_and_password(alice, anonymous):
    status, body = anonymous.post("/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 200
    assert body["token"].startswith("cs_")
    status, body = Api(body["token"]).get("/api/account")
    assert status == 200 and body["username"] == "alice"


def test_it_stores_only_the_sha256_of_a_token(alice, anonymous):
    _, body = anonymous.post(
        "/api/token", {"username": "alice", "password": PASSWORD, "name": "my bot"}
    )
    row = ApiToken.objects.get(user=alice)
    assert row.name == "my bot"
    assert row.digest == hashlib.sha256(body["token"].encode()).hexdigest()
    assert body["token"] not in str(list(ApiToken.objects.values_list()))
    assert row.created_at is not None and row.last_used_at is None
    Api(body["token"]).get("/api/account")
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_it_rejects_a_wrong_password(alice, anonymous):
    status, body = anonymous.post("/api/token", {"username": "alice", "password": "nope"})
    assert status == 401
    assert body == {"error": "Wrong username or password."}
    assert not ApiToken.objects.exists()


def test_it_rejects_malformed_token_requests(alice, anonymous):
    for raw in ["not json", "[1, 2]", "{}", '{"username": 5, "password": "x"}']:
        status, body = anonymous.post("/api/token", raw=raw)
        assert status == 400, raw
        assert body["error"]
    status, body = anonymous.post("/api/token", {"username": "a" * 5000, "password": "x"})
    assert status == 400


def test_it_limits_token_attempts_per_account_and_address(alice, anonymous, monkeypatch):
    now = timezone.now()  # one window throughout, even on a slow machine
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    for _ in range(10):
        anonymous.post("/api/token", {"username": "alice", "password": "nope"})
    status, body = anonymous.post("/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 429
    wait = 60 - int(now.timestamp()) % 60  # the seconds left in this minute's window
    assert anonymous.last["Retry-After"] == str(wait)
    assert f"Too many attempts; try again in {wait} second" in body["error"]


def at(address):
    """An API client whose requests come from ``address``."""
    return Api(client=Client(REMOTE_ADDR=address))


def test_a_stranger_s_wrong_passwords_do_not_lock_the_player_out(alice, monkeypatch):
    now = timezone.now()
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    stranger = at("203.0.113.9")
    for _ in range(10):
        assert stranger.post("/api/token", {"username": "alice", "password": "nope"})[0] == 401
    status, body = stranger.post("/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 429 and "Too many attempts" in body["error"]
    assert stranger.last["Retry-After"]

    status, body = at("198.51.100.4").post(
        "/api/token", {"username": "alice", "password": PASSWORD}
    )
    assert status == 200 and body["token"].startswith("cs_")


def test_one_address_cannot_guess_across_many_accounts(alice, bob, monkeypatch):
    """30 attempts a minute per address over all names; X-Forwarded-For is not trusted."""
    now = timezone.now()
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    stranger = at("203.0.113.9")
    for n in range(30):
        attempt = {"username": f"player{n}", "password": "nope"}
        headers = {"X-Forwarded-For": f"192.0.2.{n}"}
        assert stranger.post("/api/token", attempt, headers=headers)[0] == 401
    status, body = stranger.post("/api/token", {"username": "bob", "password": PASSWORD})
    assert status == 429 and "Too many attempts" in body["error"]
    wait = 60 - int(now.timestamp()) % 60
    assert stranger.last["Retry-After"] == str(wait)

    status, _ = at("198.51.100.4").post("/api/token", {"username": "bob", "password": PASSWORD})
    assert status == 200  # bob, elsewhere, is not held back


def test_an_ipv6_network_counts_as_one_address(alice, monkeypatch):
    """A /64 holds countless addresses: allauth's limits, and these, count it as one."""
    now = timezone.now()
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    for n in range(1, 31):
        attempt = {"username": f"player{n}", "password": "nope"}
        assert at(f"2001:db8:0:1::{n:x}").post("/api/token", attempt)[0] == 401
    attempt = {"username": "alice", "password": PASSWORD}
    assert at("2001:db8:0:1::ffff").post("/api/token", attempt)[0] == 429
    assert at("2001:db8:0:2::1").post("/api/token", attempt)[0] == 200


def test_behind_a_trusted_proxy_each_client_is_counted(alice, monkeypatch, settings):
    """With TRUSTED_PROXY_COUNT=1 the address is the one the proxy appended last."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    now = timezone.now()
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    proxy = at("10.0.0.2")
    stranger = {"X-Forwarded-For": "1.2.3.4, 203.0.113.9"}  # the first part is the client's word
    for _ in range(10):
        attempt = {"username": "alice", "password": "nope"}
        assert proxy.post("/api/token", attempt, headers=stranger)[0] == 401
    attempt = {"username": "alice", "password": PASSWORD}
    assert proxy.post("/api/token", attempt, headers=stranger)[0] == 429
    player = {"X-Forwarded-For": "203.0.113.9, 198.51.100.4"}
    assert proxy.post("/api/token", attempt, headers=player)[0] == 200


def test_the_e_mail_address_counts_against_the_same_account(alice, bob, anonymous, monkeypatch):
    """Both names sign in, so ten attempts a minute is per account, not per name."""
    now = timezone.now()
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    status, _ = anonymous.post(
        "/api/token", {"username": "Alice@Example.org", "password": PASSWORD}
    )
    assert status == 200  # the e-mail address signs in
    for name in ["alice"] * 4 + ["ALICE@example.org"] * 5:
        assert anonymous.post("/api/token", {"username": name, "password": "nope"})[0] == 401
    status, body = anonymous.post("/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 429 and "Too many attempts" in body["error"]
    status, _ = anonymous.post("/api/token", {"username": "bob@example.org", "password": PASSWORD})
    assert status == 200  # another account's count is its own


def test_it_refuses_tokens_before_the_email_is_verified(db, anonymous):
    from accounts.models import User

    User.objects.create_user("dora", "dora@example.org", PASSWORD)
    status, body = anonymous.post("/api/token", {"username": "dora", "password": PASSWORD})
    assert status == 403
    assert "Verify your e-mail" in body["error"]


def test_it_requires_authentication(db, anonymous):
    for path in ["/api/account", "/api/games", "/api/challenges", "/api/games/1"]:
        status, body = anonymous.get(path)
        assert status == 401, path
        assert "Authorization: Bearer" in body["error"]
    status, _ = anonymous.post("/api/games/1/moves", {"move": "d2-f6", "ply": 0})
    assert status == 401


def test_it_rejects_a_bad_token(alice):
    api = Api("cs_not-a-real-token")
    status, body = api.get("/api/account")
    assert status == 401
    assert api.client.get("/api/account", headers=api.headers)["WWW-Authenticate"] == "Bearer"
    assert body == {"error": "Invalid or revoked API token."}


def test_it_rejects_a_revoked_token(alice):
    row, raw = tokens.create_token(alice, "bot")
    assert Api(raw).get("/api/account")[0] == 200
    assert tokens.revoke_token(alice, row.pk)
    assert Api(raw).get("/api/account")[0] == 401


def test_it_rejects_the_token_of_a_deactivated_player(alice):
    _, raw = tokens.create_token(alice, "bot")
    alice.is_active = False
    alice.save()
    assert Api(raw).get("/api/account")[0] == 401


def test_revoking_someone_elses_token_does_nothing(alice, bob):
    row, _ = tokens.create_token(alice, "bot")
    assert not tokens.revoke_token(bob, row.pk)
    assert ApiToken.objects.filter(pk=row.pk).exists()


def test_it_caps_the_number_of_tokens(alice, anonymous):
    for _ in range(tokens.MAX_TOKENS):
        tokens.create_token(alice, "bot")
    status, body = anonymous.post("/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 409
    assert "too many API tokens" in body["error"]


def test_token_requests_need_no_csrf(alice):
    strict = Api(client=Client(enforce_csrf_checks=True))
    status, body = strict.post("/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 200
    bearer = Api(body["token"], client=Client(enforce_csrf_checks=True))
    status, _ = bearer.post(
        "/api/challenges", {"game": "carolo", "options": {}, "days_per_move": 3}
    )
    assert status == 200


def test_session_calls_need_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    session = Api(client=client)
    assert session.get("/api/account")[0] == 200  # reading needs no CSRF token
    challenge = {"game": "carolo", "options": {}, "days_per_move": 3}
    status, body = session.post("/api/challenges", challenge)
    assert status == 403
    assert "CSRF" in body["error"]
    client.get("/settings/")  # sets the CSRF cookie
    csrf = client.cookies["csrftoken"].value
    status, _ = session.post("/api/challenges", challenge, headers={"X-CSRFToken": csrf})
    assert status == 200


def test_the_tokens_page_creates_shows_once_and_revokes(client_alice, alice):
    r = client_alice.get("/settings/")
    assert "/settings/tokens/" in r.content.decode()
    r = client_alice.post("/settings/tokens/", {"name": "my bot"})
    assert r.status_code == 200
    row = ApiToken.objects.get(user=alice)
    raw = r.context["new_token"]
    assert raw in text(r) and "will not be shown again" in text(r)
    assert "no-store" in r["Cache-Control"]  # no cache keeps a copy of the token
    assert Api(raw).get("/api/account")[0] == 200
    r = client_alice.get("/settings/tokens/")
    assert "my bot" in text(r) and raw not in text(r)
    r = client_alice.post(f"/settings/tokens/{row.pk}/revoke", follow=True)
    assert "Revoke the token “my bot”?" in text(r)  # it asks first
    r = client_alice.post(f"/settings/tokens/{row.pk}/revoke", {"confirmed": "1"}, follow=True)
    assert "The token is revoked." in text(r)
    assert not ApiToken.objects.exists()
    assert Api(raw).get("/api/account")[0] == 401


def test_the_tokens_page_needs_login(client):
    r = client.get("/settings/tokens/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_a_bot_cannot_sign_in_to_the_site(db, client):
    bot = make_player("robo")
    bot.is_bot = True
    bot.save()
    r = client.post("/accounts/login/", {"login": "robo", "password": PASSWORD}, follow=True)
    assert "Bot accounts cannot sign in to the site" in text(r)
    assert "_auth_user_id" not in client.session


def test_an_account_made_a_bot_while_signed_in_is_signed_out(client_alice, alice):
    alice.is_bot = True
    alice.save()
    r = client_alice.get("/settings/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    assert "_auth_user_id" not in client_alice.session
    assert client_alice.get("/api/account").status_code == 401


def test_a_bot_plays_through_the_api(db, anonymous):
    bot = make_player("robo")
    bot.is_bot = True
    bot.save()
    status, body = anonymous.post("/api/token", {"username": "robo", "password": PASSWORD})
    assert status == 200
    status, body = Api(body["token"]).get("/api/account")
    assert body["username"] == "robo" and body["is_bot"] is True


def test_a_bot_profile_shows_a_badge(db, client):
    bot = make_player("robo")
    bot.is_bot = True
    bot.save()
    assert "BOT" in text(client.get("/@/robo"))
    make_player("human")
    assert "BOT" not in without_tokens(text(client.get("/@/human")))


def test_a_nul_character_in_the_name_or_password_is_refused(alice, anonymous):
    # PostgreSQL refuses NUL in text: it must be a 400, not a server error.
    for body in (
        {"username": "al\u0000ice", "password": PASSWORD},
        {"username": "alice", "password": PASSWORD, "name": "a\u0000b"},
    ):
        status, answer = anonymous.post("/api/token", body)
        assert status == 400 and "NUL" in answer["error"]
    assert not ApiToken.objects.exists()
