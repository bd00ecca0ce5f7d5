"""Who may do and see what, on every HTML, htmx and API path of a game.

A stranger (charlie) can change nothing; nobody but alice sees her Shuuro army
before both armies are in: not in the page, the htmx fragment, the replay, the
game record or the API.
"""

import json

import pytest
from django.test import Client

from accounts import tokens
from games import services
from games.models import Game
from tests.helpers import without_tokens

# Alice has bought a queen in secret: her hand is "KQ" in the full FEN only.
SECRET_FEN_HAND = "KQk"


@pytest.fixture
def game(alice, bob):
    challenge = services.create_challenge(alice, variant="shuuro-mini", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    game = services.play_move(alice, game.pk, "+Q", 0)
    assert SECRET_FEN_HAND in game.fen and game.white_hidden == 1
    return game


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def snapshot(game):
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version, fresh.ply, fresh.fen, fresh.status, fresh.draw_offer


@pytest.mark.parametrize(
    "path, data",
    [
        ("move", {"text": "+Q", "ply": 0}),
        ("click", {"square": "a1", "ply": 0}),
        ("resign", {}),
        ("draw", {"action": "offer"}),
        ("draw", {"action": "accept"}),
        ("abort", {}),
    ],
)
def test_a_stranger_cannot_act_on_the_html_paths(game, charlie, path, data):
    before = snapshot(game)
    for headers in ({}, {"HX-Request": "true"}):
        response = client_for(charlie).post(f"/game/{game.pk}/{path}", data, headers=headers)
        assert response.status_code == 403, (path, response.status_code)
    assert snapshot(game) == before


def test_an_anonymous_visitor_cannot_act(game):
    before = snapshot(game)
    response = client_for(None).post(f"/game/{game.pk}/move", {"text": "+Q", "ply": 0})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "path, body",
    [
        ("moves", {"move": "+Q", "ply": 0}),
        ("resign", None),
        ("draw", {"action": "offer"}),
        ("draw", {"action": "accept"}),
    ],
)
def test_a_stranger_cannot_act_through_the_api(game, charlie, path, body):
    token = tokens.create_token(charlie)[1]
    before = snapshot(game)
    response = Client().post(
        f"/api/games/{game.pk}/{path}",
        data=json.dumps(body) if body is not None else "",
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 403 and response.json()["error"]
    assert snapshot(game) == before


@pytest.mark.parametrize("ending", [None, "abort", "resign"])
@pytest.mark.parametrize("viewer", ["bob", "charlie", None])
def test_no_path_shows_the_secret_army(game, bob, viewer, ending, request):
    # Ending the game before both armies are in reveals nothing either: else bob
    # could abort (free, unrated) to see what alice bought.
    if ending == "abort":
        game = services.abort(bob, game.pk)
    elif ending == "resign":
        game = services.resign(bob, game.pk)
    assert game.is_active == (ending is None)
    user = request.getfixturevalue(viewer) if viewer else None
    client = client_for(user)
    pages = {
        "page": client.get(f"/game/{game.pk}/"),
        "fragment": client.get(f"/game/{game.pk}/poll?v=0", headers={"HX-Request": "true"}),
        "replay": client.get(f"/game/{game.pk}/?ply=1"),
        "record": client.get(f"/game/{game.pk}/record.txt"),
    }
    for name, response in pages.items():
        # 286: htmx's "stop polling", with the last fragment, once the game is over
        # (a player's page polls on for an hour, for a rematch offer)
        stops = ending and name == "fragment" and viewer != "bob"
        assert response.status_code == (286 if stops else 200), name
        body = without_tokens(response.content.decode())
        assert SECRET_FEN_HAND not in body and "White's army" not in body, name
    assert "+Q" not in pages["record"].content.decode()
    if user is not None:
        token = tokens.create_token(user)[1]
        state = (
            Client()
            .get(f"/api/games/{game.pk}", headers={"Authorization": f"Bearer {token}"})
            .json()
        )
        assert state["moves"] == [] and state["ply"] == 0
        assert SECRET_FEN_HAND not in state["fen"]


def test_the_army_is_shown_once_both_are_in(game, alice, bob):
    game = services.play_move(alice, game.pk, "done", 1)
    game = services.play_move(bob, game.pk, "done", 0)
    assert game.white_hidden == game.black_hidden == 0
    record = client_for(bob).get(f"/game/{game.pk}/record.txt").content.decode()
    assert "+Q" in record
