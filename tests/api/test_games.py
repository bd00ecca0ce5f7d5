"""GET /api/games, GET /api/games/<id>, moves, resign, draw, abort and their errors."""

import json

import pytest
from django.utils import timezone

from games import api_limits
from games.api_schemas import GameOut
from games.models import Game, Move
from tests.api.conftest import play, start_game


@pytest.fixture
def game_id(api_alice, api_bob):
    return start_game(api_alice, api_bob, "carolo")


def _game(game_id):
    return Game.objects.get(pk=game_id)


def test_it_shows_a_game_to_the_player_to_move(api_alice, game_id):
    status, body = api_alice.get(f"/api/games/{game_id}")
    assert status == 200
    assert body["id"] == game_id and body["game"] == "carolo" and body["status"] == "active"
    assert body["players"] == {"white": "alice", "black": "bob"}
    assert body["my_side"] == "white"
    assert body["fen"] == "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"
    assert body["ply"] == 0 and body["moves"] == []
    assert body["to_move"] == ["alice"]
    assert "d2-f6" in body["legal_moves"] and len(body["legal_moves"]) > 20
    assert body["deadline"] is not None and body["outcome"] is None


def test_it_shows_no_legal_moves_to_the_other_player_or_a_spectator(api_bob, api_charlie, game_id):
    _, for_bob = api_bob.get(f"/api/games/{game_id}")
    assert for_bob["legal_moves"] == [] and for_bob["my_side"] == "black"
    _, for_charlie = api_charlie.get(f"/api/games/{game_id}")
    assert for_charlie["legal_moves"] == [] and for_charlie["my_side"] is None
    assert for_charlie["fen"] == for_bob["fen"]


def test_it_answers_404_for_no_such_game(api_alice):
    for path in ["/api/games/424242", f"/api/games/{2**70}", "/api/games/0"]:
        status, body = api_alice.get(path)
        assert status == 404
        assert body == {"error": "No such game."}


def test_it_plays_a_move(api_alice, api_bob, game_id):
    status, body = play(api_alice, game_id, "d2-f6", 0)
    assert status == 200
    assert body["ply"] == 1 and body["moves"] == ["d2-f6"] and body["to_move"] == ["bob"]
    assert body["legal_moves"] == []
    _, for_bob = api_bob.get(f"/api/games/{game_id}")
    assert for_bob["legal_moves"] and for_bob["ply"] == 1


def _as_ninja_renders_a_game_out(content: bytes) -> bytes:
    """``content`` validated against GameOut and rendered again, as ninja renders a
    view's result: a move's and a read's answers skip that validation."""
    from games.api import api

    validated = GameOut.model_validate(json.loads(content)).model_dump()
    return api.renderer.render(None, validated, response_status=200).encode()


def test_a_move_and_a_read_answer_what_their_validation_would(api_alice, api_bob, game_id):
    play(api_alice, game_id, "d2-f6", 0)
    moved = api_alice.last.content
    assert moved == _as_ninja_renders_a_game_out(moved)
    api_bob.post(f"/api/games/{game_id}/resign")
    for api in (api_alice, api_bob):
        api.get(f"/api/games/{game_id}")
        assert json.loads(api.last.content)["outcome"]["winner"] == "alice"
        assert api.last.content == _as_ninja_renders_a_game_out(api.last.content)


def test_it_refuses_an_illegal_move(api_alice, game_id):
    for move in ["d2-d2", "e1-e5", "zz", ""]:
        status, body = play(api_alice, game_id, move, 0)
        assert status == 400, move
        assert body["error"]
    assert _game(game_id).ply == 0


@pytest.mark.parametrize(
    "payload",
    [
        {"move": "d2-f6", "ply": "0"},
        {"move": 42, "ply": 0},
        {"move": "d2-f6", "ply": 0.0},
        {"move": "d2-f6", "ply": True},
        {"move": "d2-f6", "ply": -1},
        {"move": "d2-f6"},
        {"ply": 0},
        {"move": "d2-f6" * 1000, "ply": 0},
        {"move": ["d2-f6"], "ply": 0},
        {"move": None, "ply": 0},
    ],
)
def test_it_refuses_malformed_moves(api_alice, game_id, payload):
    status, body = api_alice.post(f"/api/games/{game_id}/moves", payload)
    assert status == 400
    assert body["error"].startswith("Invalid request")
    assert _game(game_id).ply == 0


@pytest.mark.parametrize("raw", ["{not json", "", "[]", '"d2-f6"', "null", "\xff"])
def test_it_refuses_bodies_that_are_not_a_json_object(api_alice, game_id, raw):
    status, body = api_alice.post(f"/api/games/{game_id}/moves", raw=raw)
    assert status == 400
    assert body["error"]
    assert _game(game_id).ply == 0


def test_it_refuses_a_huge_body(api_alice, game_id):
    status, body = api_alice.post(
        f"/api/games/{game_id}/moves", raw='{"move": "' + "x" * 3_000_000 + '", "ply": 0}'
    )
    assert status == 400
    assert _game(game_id).ply == 0


def test_it_refuses_a_stale_ply(api_alice, api_bob, game_id):
    play(api_alice, game_id, "d2-f6", 0)
    status, body = play(api_bob, game_id, "b8-d6", 0)
    assert status == 409
    # the answer holds no position, so it names the ply the game is at
    expected = "The game has changed since you saw it: it is at ply 1 now; read it again."
    assert body["error"] == expected
    assert _game(game_id).ply == 1


def test_a_repeated_move_is_stale_and_changes_nothing(api_alice, game_id):
    assert play(api_alice, game_id, "d2-f6", 0)[0] == 200
    status, body = play(api_alice, game_id, "d2-f6", 0)
    assert status == 409
    assert body["error"]
    game = _game(game_id)
    assert game.ply == 1 and game.moves.count() == 1


def test_it_refuses_a_move_out_of_turn(api_bob, game_id):
    status, body = play(api_bob, game_id, "b8-d6", 0)
    assert status == 403
    assert body == {"error": "It is not your turn."}


def test_it_refuses_a_stranger(api_charlie, game_id):
    for path, payload in [
        ("moves", {"move": "d2-f6", "ply": 0}),
        ("resign", None),
        ("draw", {"action": "offer"}),
        ("abort", None),
    ]:
        status, body = api_charlie.post(f"/api/games/{game_id}/{path}", payload)
        assert status == 403, path
        assert body == {"error": "You are not playing in this game."}
    assert _game(game_id).is_active


def test_moves_to_no_such_game_are_404(api_alice):
    for game in [424242, 2**63, 2**70, 0]:
        status, body = api_alice.post(f"/api/games/{game}/moves", {"move": "d2-f6", "ply": 0})
        assert status == 404
        assert body == {"error": "No such game."}


@pytest.mark.parametrize("written", ["-1", "abc", "{}.0", "{}e0", "+{}", "0_{}", "%20{}", "{}%20"])
def test_a_game_id_is_digits_only(api_alice, game_id, written):
    # Before, "7.0", "+7", " 7" or "0_7" were all read as game 7.
    written = written.format(game_id)
    status, body = api_alice.post(f"/api/games/{written}/moves", {"move": "d2-f6", "ply": 0})
    assert status == 404 and body == {"error": "No such API endpoint; see /api/docs."}
    for path in (f"/api/games/{written}", f"/api/challenges/{written}"):
        assert api_alice.get(path)[0] == 404
    assert not Move.objects.exists()


def test_it_resigns(api_alice, api_bob, game_id):
    status, body = api_bob.post(f"/api/games/{game_id}/resign")
    assert status == 200
    assert body["status"] == "finished"
    assert body["outcome"]["winner"] == "alice" and body["outcome"]["winner_side"] == "white"
    assert body["outcome"]["reason"] == "resign"
    status, body = api_bob.post(f"/api/games/{game_id}/resign")
    assert status == 409
    assert body == {"error": "This game is over. Black resigned: White wins."}
    assert play(api_alice, game_id, "d2-f6", 0)[0] == 409


def test_it_offers_declines_and_accepts_draws(api_alice, api_bob, game_id):
    status, body = api_alice.post(f"/api/games/{game_id}/draw", {"action": "offer"})
    assert status == 200 and body["draw_offer"] == "alice"
    assert api_alice.post(f"/api/games/{game_id}/draw", {"action": "offer"})[0] == 409
    status, body = api_bob.post(f"/api/games/{game_id}/draw", {"action": "decline"})
    assert status == 200 and body["draw_offer"] is None and body["draw_declined"] == "alice"
    assert api_bob.post(f"/api/games/{game_id}/draw", {"action": "accept"})[0] == 409
    status, body = api_alice.post(f"/api/games/{game_id}/draw", {"action": "offer"})
    assert body["draw_offer"] == "alice" and body["draw_declined"] is None
    status, body = api_bob.post(f"/api/games/{game_id}/draw", {"action": "accept"})
    assert status == 200
    assert body["status"] == "finished"
    assert body["outcome"] == {
        "winner": None,
        "winner_side": None,
        "reason": "agreement",
        "text": "Draw by agreement",
    }


def test_it_refuses_an_unknown_draw_action(api_alice, game_id):
    for payload in [{"action": "maybe"}, {}, {"action": 1}]:
        status, body = api_alice.post(f"/api/games/{game_id}/draw", payload)
        assert status == 400
        assert body["error"]


def test_it_aborts_before_both_have_moved(api_alice, api_bob, game_id):
    status, body = api_bob.post(f"/api/games/{game_id}/abort")
    assert status == 200 and body["status"] == "aborted" and body["outcome"]["winner"] is None


def test_it_limits_moves_to_60_a_minute_per_token(api_alice, api_for, alice, game_id, monkeypatch):
    # One window throughout: 61 requests on a slow machine may cross a minute.
    now = timezone.now()
    monkeypatch.setattr(api_limits.timezone, "now", lambda: now)
    for _ in range(60):
        assert play(api_alice, game_id, "e1-e9", 0)[0] == 400
    status, body = play(api_alice, game_id, "d2-f6", 0)
    assert status == 429
    assert "at most 60 a minute" in body["error"]
    assert _game(game_id).ply == 0
    wait = 60 - int(now.timestamp()) % 60  # the seconds left in this minute's window
    assert api_alice.last["Retry-After"] == str(wait)
    assert f"Try again in {wait} second" in body["error"]
    # another token of the same player has its own window
    assert play(api_for(alice), game_id, "d2-f6", 0)[0] == 200


def test_the_move_limit_resets_each_minute(api_alice, game_id, monkeypatch):
    start = timezone.now().replace(second=0, microsecond=0)
    monkeypatch.setattr(api_limits.timezone, "now", lambda: start)
    for _ in range(60):
        play(api_alice, game_id, "e1-e9", 0)
    assert play(api_alice, game_id, "d2-f6", 0)[0] == 429
    assert api_alice.last["Retry-After"] == "60"  # the window has just begun
    monkeypatch.setattr(api_limits.timezone, "now", lambda: start + timezone.timedelta(seconds=59))
    status, body = play(api_alice, game_id, "d2-f6", 0)
    assert status == 429 and api_alice.last["Retry-After"] == "1"
    assert body["error"].endswith("Try again in 1 second.")
    monkeypatch.setattr(api_limits.timezone, "now", lambda: start + timezone.timedelta(minutes=1))
    assert play(api_alice, game_id, "d2-f6", 0)[0] == 200


def test_it_lists_games(api_alice, api_bob, api_charlie, game_id):
    other = start_game(api_bob, api_charlie, "rococo")
    _, everyone = api_alice.get("/api/games")
    assert {g["id"] for g in everyone} == {game_id, other}
    _, mine = api_alice.get("/api/games?mine=1")
    assert [g["id"] for g in mine] == [game_id]
    assert mine[0]["my_side"] == "white" and mine[0]["to_move"] == ["alice"]
    _, my_turn = api_alice.get("/api/games?my_turn=1")
    assert [g["id"] for g in my_turn] == [game_id]
    _, bobs_turn = api_bob.get("/api/games?my_turn=1")
    assert [g["id"] for g in bobs_turn] == [other]
    api_alice.post(f"/api/games/{game_id}/resign")
    _, finished = api_alice.get("/api/games?mine=1&status=finished")
    assert [g["id"] for g in finished] == [game_id]
    _, active = api_alice.get("/api/games?mine=1&status=active")
    assert active == []
    assert api_alice.get("/api/games?my_turn=1")[1] == []


def test_it_refuses_bad_game_filters(api_alice):
    assert api_alice.get("/api/games?status=sleeping")[0] == 400
    assert api_alice.get("/api/games?mine=perhaps")[0] == 400


def test_wrong_methods_and_unknown_paths_answer_json(api_alice, game_id):
    r = api_alice.client.get(f"/api/games/{game_id}/moves", headers=api_alice.headers)
    assert r.status_code == 405 and r["Allow"] == "POST"
    assert r.json() == {"error": "Method GET is not allowed here (allowed: POST)."}
    r = api_alice.client.get("/api/nothing/here", headers=api_alice.headers)
    assert r.status_code == 404 and r.json() == {"error": "No such API endpoint; see /api/docs."}
    status, body = api_alice.get("/api/games/abc")
    assert status == 404 and body == {"error": "No such API endpoint; see /api/docs."}


def test_every_error_is_private_json_even_before_the_api_s_views(api_alice, game_id):
    for method, path in (
        ("get", f"/api/games/{game_id}/moves"),  # a wrong method
        ("get", "/api/nothing"),  # no endpoint
        ("get", "/api/games?mine=%00"),  # refused before any view
    ):
        r = getattr(api_alice.client, method)(path, headers=api_alice.headers)
        assert r.status_code in (400, 404, 405) and "error" in r.json(), path
        assert r["Cache-Control"] == "private, no-cache", path
        assert "Authorization" in r["Vary"], path


def test_a_move_without_a_body_is_told_what_to_send(api_alice, game_id):
    status, body = api_alice.post(f"/api/games/{game_id}/moves", raw="")
    assert (status, body) == (400, {"error": "Invalid request: a JSON object is required."})
    status, body = api_alice.post(f"/api/games/{game_id}/moves", {})
    assert body["error"] == (
        "Invalid request: move: this field is required; ply: this field is required."
    )


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        (
            {"move": 3, "ply": "1"},
            "move: must be text; ply: must be a whole number",
            "move : doit être un texte ; ply : doit être un nombre entier",
        ),
        (
            {"move": "x" * 101, "ply": -1},
            "move: must be at most 100 characters; ply: must be at least 0",
            "move : doit compter au plus 100 caractères ; ply : doit valoir au moins 0",
        ),
        (
            {"move": "a1\x00", "ply": 0},
            "move: must not hold a NUL character",
            "move : ne doit pas contenir de caractère NUL",
        ),
    ],
)
def test_a_malformed_move_is_told_what_is_wrong_in_the_reader_s_language(
    api_alice, game_id, body, english, french
):
    status, answer = api_alice.post(f"/api/games/{game_id}/moves", body)
    assert (status, answer) == (400, {"error": f"Invalid request: {english}."})
    headers = {"Accept-Language": "fr"}
    status, answer = api_alice.post(f"/api/games/{game_id}/moves", body, headers=headers)
    assert (status, answer) == (400, {"error": f"Requête invalide : {french}."})


def test_a_wrong_choice_names_the_choices(api_alice, game_id):
    status, answer = api_alice.post(f"/api/games/{game_id}/draw", {"action": "maybe"})
    assert answer == {
        "error": "Invalid request: action: must be one of 'offer', 'accept', 'decline'."
    }
