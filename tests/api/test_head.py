"""HEAD on the API (carolo_site.middleware.ApiHeadMiddleware): a GET's status and
headers without its body, and nothing else answered differently."""

from django.test import Client

from tests.api.conftest import start_game


def _head(api, path, **headers):
    return api.client.head(path, headers={**api.headers, **headers})


def test_a_head_of_a_game_has_the_gets_headers_and_no_body(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob)
    status, state = api_bob.get(f"/api/games/{game_id}")
    got = api_bob.last
    head = _head(api_bob, f"/api/games/{game_id}")
    assert status == 200 and head.status_code == 200
    assert head.content == b""
    assert head["ETag"] == got["ETag"]
    assert head["Content-Type"] == got["Content-Type"]
    assert head["Cache-Control"] == got["Cache-Control"]
    assert state["ply"] == 0  # the read changed nothing: a HEAD is only a GET's headers


def test_a_head_with_the_current_etag_answers_304(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob)
    api_bob.get(f"/api/games/{game_id}")
    head = _head(api_bob, f"/api/games/{game_id}", **{"If-None-Match": api_bob.last["ETag"]})
    assert head.status_code == 304 and head.content == b""


def test_a_head_answers_as_the_get_would_refuse(api_alice):
    assert _head(api_alice, "/api/games/999999").status_code == 404
    assert Client().head("/api/account").status_code == 401  # no token


def test_a_head_of_a_post_only_address_is_405_with_the_allowed_methods(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob)
    head = _head(api_alice, f"/api/games/{game_id}/moves")
    assert head.status_code == 405
    assert head["Allow"] == "POST"


def test_the_request_still_says_head_to_the_server(api_alice, api_bob):
    """The server drops a HEAD's body by the request's method: it is HEAD again once
    the API has answered (Django's test client drops it the same way)."""
    game_id = start_game(api_alice, api_bob)
    head = _head(api_alice, f"/api/games/{game_id}")
    assert head.wsgi_request.method == "HEAD"
