"""Polling GET /api/games/<id> with If-None-Match: 304 while nothing the caller sees changed."""

import pytest

from tests.api.conftest import play, start_game


@pytest.fixture
def game_id(api_alice, api_bob):
    return start_game(api_alice, api_bob, "carolo")


def _poll(api, game_id, etag=None):
    headers = {**api.headers, **({"If-None-Match": etag} if etag else {})}
    return api.client.get(f"/api/games/{game_id}", headers=headers)


def test_an_unchanged_game_answers_304_with_no_body(api_bob, game_id):
    first = _poll(api_bob, game_id)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    again = _poll(api_bob, game_id, first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_a_weak_or_listed_tag_matches_as_http_says(api_bob, game_id):
    etag = _poll(api_bob, game_id)["ETag"]
    for header in (f"W/{etag}", f'"other", {etag}', "*"):
        assert _poll(api_bob, game_id, header).status_code == 304, header
    assert _poll(api_bob, game_id, '"other", W/"stale"').status_code == 200


def test_each_viewer_has_their_own_etag_and_answers_are_private(
    api_alice, api_bob, api_charlie, game_id
):
    answers = [_poll(api, game_id) for api in (api_alice, api_bob, api_charlie)]
    assert len({answer["ETag"] for answer in answers}) == 3  # three different bodies
    # another player's tag is just stale: the full state, not a 304
    assert _poll(api_bob, game_id, answers[0]["ETag"]).status_code == 200
    for answer in answers:
        assert "private" in answer["Cache-Control"] and "Authorization" in answer["Vary"]


def test_the_opponents_move_changes_the_answer(api_alice, api_bob, game_id):
    etag = _poll(api_bob, game_id)["ETag"]
    status, _ = play(api_alice, game_id, "d2-f6", 0)
    assert status == 200
    after = _poll(api_bob, game_id, etag)
    assert after.status_code == 200
    assert after.json()["moves"] == ["d2-f6"] and "b8-d6" in after.json()["legal_moves"]
    assert after["ETag"] != etag
    assert _poll(api_bob, game_id, after["ETag"]).status_code == 304


def test_a_moves_answer_carries_the_etag_of_the_movers_next_poll(api_alice, game_id):
    response = api_alice.client.post(
        f"/api/games/{game_id}/moves",
        data={"move": "d2-f6", "ply": 0},
        content_type="application/json",
        headers=api_alice.headers,
    )
    assert response.status_code == 200
    assert _poll(api_alice, game_id, response["ETag"]).status_code == 304


def test_a_stale_or_forged_etag_gets_the_full_state(api_bob, game_id):
    for etag in ['"nonsense"', "x" * 5000, '"0-0-active-none-1-0-0"']:
        response = _poll(api_bob, game_id, etag)
        assert response.status_code == 200, etag
        assert response.json()["id"] == game_id


def test_a_secret_purchase_does_not_change_the_opponents_etag(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob, "shuuro-mini")
    etag = _poll(api_bob, game_id)["ETag"]
    status, body = play(api_alice, game_id, "+Q")
    assert status == 200, body
    assert _poll(api_bob, game_id, etag).status_code == 304  # nothing leaks, not even a change
