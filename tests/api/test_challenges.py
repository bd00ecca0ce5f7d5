"""POST/GET /api/challenges and accept, decline, cancel."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import bot_play, services
from games.models import Challenge, Game
from tests.api.conftest import play
from tests.conftest import make_player

LEVEL_REFUSED = {
    "error": "A level is only for the site's bots: carolo-bot, carge-bot, rococo-bot, shuuro-bot."
}


@pytest.fixture
def challenge(api_alice):
    status, body = api_alice.post(
        "/api/challenges",
        {
            "game": "carolo",
            "options": {},
            "days_per_move": 3,
            "rated": True,
            "color": "white",
            "opponent": None,
        },
    )
    assert status == 200
    return body


def test_it_creates_an_open_challenge(challenge, alice):
    row = Challenge.objects.get(pk=challenge["id"])
    assert row.challenger == alice and row.opponent is None and row.color == "white"
    assert challenge["url"] == f"http://testserver/challenge/{row.token}/"


def test_it_creates_a_challenge_to_a_player(api_alice, bob):
    status, body = api_alice.post(
        "/api/challenges",
        {
            "game": "carge",
            "options": {"barriers": "b2n,c3e,d1n", "barrier_rule": True},
            "days_per_move": 7,
            "rated": False,
            "color": "random",
            "opponent": "BOB",
        },
    )
    assert status == 200
    row = Challenge.objects.get(pk=body["id"])
    assert row.opponent == bob and row.options == {"barriers": "b2n,c3e,d1n", "barrier_rule": "on"}


def test_it_defaults_the_optional_fields(api_alice):
    status, body = api_alice.post("/api/challenges", {"game": "rococo"})
    assert status == 200
    row = Challenge.objects.get(pk=body["id"])
    assert (row.days_per_move, row.rated, row.color) == (3, True, "random")


@pytest.mark.parametrize(
    "body, message",
    [
        ({"game": "chess"}, "game"),
        ({}, "game: this field is required"),
        ({"game": "carolo", "days_per_move": "3"}, "days_per_move"),
        ({"game": "carolo", "days_per_move": 4}, "Days per move"),
        ({"game": "carolo", "days_per_move": None}, "casual"),
        ({"game": "carolo", "rated": "yes"}, "rated"),
        ({"game": "carolo", "color": "green"}, "color"),
        ({"game": "carolo", "options": {"fen": "nonsense"}}, "fen"),
        ({"game": "carolo", "options": {"speed": "1"}}, "unknown option"),
        ({"game": "carolo", "options": ["fen"]}, "options"),
        ({"game": "carolo", "options": {"fen": "x" * 5000}}, "options"),
        ({"game": "carolo", "opponent": "alice"}, "yourself"),
    ],
)
def test_it_rejects_bad_challenges(api_alice, body, message):
    status, answer = api_alice.post("/api/challenges", body)
    assert status == 400
    assert message in answer["error"]
    assert not Challenge.objects.exists()


def test_it_rejects_an_unknown_opponent(api_alice):
    status, body = api_alice.post("/api/challenges", {"game": "carolo", "opponent": "nobody"})
    assert status == 404
    assert body == {"error": "No such player: nobody."}


def test_it_lists_open_challenges_and_those_to_me(api_alice, api_bob, api_charlie, challenge):
    api_alice.post("/api/challenges", {"game": "rococo", "opponent": "bob"})
    api_alice.post("/api/challenges", {"game": "carge", "opponent": "charlie"})
    _, mine = api_alice.get("/api/challenges")
    assert len(mine) == 3
    _, to_bob = api_bob.get("/api/challenges")
    assert sorted(c["game"] for c in to_bob) == ["carolo", "rococo"]
    rococo = next(c for c in to_bob if c["game"] == "rococo")
    assert rococo["challenger"] == "alice" and rococo["opponent"] == "bob"


def test_it_shows_one_challenge(api_alice, api_bob, challenge):
    status, body = api_bob.get(f"/api/challenges/{challenge['id']}")
    assert status == 200 and body["id"] == challenge["id"] and body["status"] == "open"
    assert api_bob.get("/api/challenges/999999")[0] == 404


def test_it_accepts_a_challenge(api_alice, api_bob, challenge, alice, bob):
    status, body = api_bob.post(f"/api/challenges/{challenge['id']}/accept")
    assert status == 200
    game = Game.objects.get(pk=body["game_id"])
    assert body["url"] == f"http://testserver/game/{game.pk}/"
    assert (game.white, game.black) == (alice, bob)
    status, again = api_bob.post(f"/api/challenges/{challenge['id']}/accept")
    assert status == 409 and "no longer open" in again["error"]
    _, listed = api_bob.get("/api/challenges")
    assert listed == []


def test_it_refuses_to_accept_my_own_challenge(api_alice, challenge):
    status, body = api_alice.post(f"/api/challenges/{challenge['id']}/accept")
    assert status == 403
    assert "your own challenge" in body["error"]


def test_it_refuses_a_challenge_addressed_to_another(api_alice, api_charlie, bob):
    _, created = api_alice.post("/api/challenges", {"game": "carolo", "opponent": "bob"})
    status, body = api_charlie.post(f"/api/challenges/{created['id']}/accept")
    assert status == 403
    assert api_charlie.get(f"/api/challenges/{created['id']}")[0] == 404


def test_it_declines_a_challenge(api_alice, api_bob, api_charlie):
    _, created = api_alice.post("/api/challenges", {"game": "carolo", "opponent": "bob"})
    assert api_charlie.post(f"/api/challenges/{created['id']}/decline")[0] == 403
    status, body = api_bob.post(f"/api/challenges/{created['id']}/decline")
    assert (status, body) == (200, {"id": created["id"], "status": "declined"})
    assert api_bob.post(f"/api/challenges/{created['id']}/decline")[0] == 409


def test_it_cancels_a_challenge(api_alice, api_bob, challenge):
    assert api_bob.post(f"/api/challenges/{challenge['id']}/cancel")[0] == 403
    status, body = api_alice.post(f"/api/challenges/{challenge['id']}/cancel")
    assert (status, body) == (200, {"id": challenge["id"], "status": "cancelled"})
    assert api_bob.post(f"/api/challenges/{challenge['id']}/accept")[0] == 409


@pytest.mark.parametrize("action", ["accept", "decline", "cancel"])
def test_it_answers_404_for_no_such_challenge(api_bob, action):
    for challenge_id in ["424242", str(2**70)]:
        status, body = api_bob.post(f"/api/challenges/{challenge_id}/{action}")
        assert status == 404
        assert body == {"error": "No such challenge."}


def test_a_bot_accepts_a_challenge_at_once(api_alice):
    status, body = api_alice.post(
        "/api/challenges",
        {"game": "carolo", "opponent": "carolo-bot", "level": 2, "color": "white"},
    )
    assert status == 200
    status, listed = api_alice.get(f"/api/challenges/{body['id']}")
    assert status == 200 and listed["status"] == "accepted"
    game = Game.objects.get()
    assert game.black.username == "carolo-bot" and game.bot_level == 2
    assert body["game_id"] == listed["game_id"] == game.pk


def test_a_bot_account_of_its_own_is_challenged_and_plays_like_a_person(api_alice, api_for):
    # A bot run by its owner through the API: nothing on the site plays for it.
    robo = make_player("robo")
    robo.is_bot = True
    robo.save()
    status, body = api_alice.post(
        "/api/challenges", {"game": "rococo", "opponent": "robo", "color": "white"}
    )
    assert status == 200 and body["game_id"] is None
    assert Challenge.objects.get().status == Challenge.Status.OPEN
    status, body = api_alice.post(
        "/api/challenges", {"game": "carolo", "opponent": "robo", "level": 3}
    )
    assert status == 400 and body == LEVEL_REFUSED
    api_robo = api_for(robo)
    status, listed = api_robo.get("/api/challenges")
    assert [item["opponent"] for item in listed] == ["robo"]
    status, accepted = api_robo.post(f"/api/challenges/{listed[0]['id']}/accept")
    assert status == 200
    game_id = accepted["game_id"]
    assert api_alice.get(f"/api/challenges/{listed[0]['id']}")[1]["game_id"] == game_id
    status, state = play(
        api_alice, game_id, api_alice.get(f"/api/games/{game_id}")[1]["legal_moves"][0]
    )
    assert status == 200 and state["to_move"] == ["robo"]
    game = Game.objects.get(pk=game_id)
    assert bot_play.bot_to_act(game) is None  # robo's own program moves, not ours
    assert game_id not in bot_play.waiting_games(game.created_at + timedelta(days=1))
    _, seen = api_robo.get(f"/api/games/{game_id}")
    status, state = play(api_robo, game_id, seen["legal_moves"][0], seen["ply"])
    assert status == 200 and state["ply"] == 2


def test_an_empty_opponent_name_is_refused(api_alice):
    status, body = api_alice.post("/api/challenges", {"game": "carolo", "opponent": ""})
    assert status == 400 and "opponent" in body["error"]
    assert not Challenge.objects.exists()


@pytest.mark.parametrize("field", ["opponent", "option"])
def test_a_nul_character_is_refused(api_alice, bob, field):
    # PostgreSQL refuses NUL in text: it must be a 400, not a server error.
    challenge = {"game": "carolo", "opponent": "b\u0000ob"}
    if field == "option":
        challenge = {"game": "carolo", "options": {"fen\u0000": "x"}}
    status, body = api_alice.post("/api/challenges", challenge)
    assert status == 400 and "NUL" in body["error"]
    assert not Challenge.objects.exists()


def test_it_rejects_a_bot_level_out_of_range(api_alice):
    status, body = api_alice.post(
        "/api/challenges", {"game": "carolo", "opponent": "carolo-bot", "level": 9}
    )
    assert status == 400 and "level is 1 to 5" in body["error"]
    assert not Game.objects.exists()


def test_it_refuses_a_level_for_an_opponent_who_is_not_a_bot(api_alice, bob):
    for opponent in ["bob", None]:
        status, body = api_alice.post(
            "/api/challenges", {"game": "carolo", "opponent": opponent, "level": 5}
        )
        assert status == 400, opponent
        assert body == LEVEL_REFUSED
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (1.5, "options.fen: must be text, a whole number, true or false"),
        (None, "options.fen: must be text, a whole number, true or false"),
        ("x" * 501, "options.fen: must be at most 500 characters"),
    ],
)
def test_a_bad_option_value_gets_one_plain_error(api_alice, value, error):
    status, body = api_alice.post("/api/challenges", {"game": "carolo", "options": {"fen": value}})
    assert (status, body) == (400, {"error": f"Invalid request: {error}."})
    assert not Challenge.objects.exists()


def test_an_error_quotes_a_long_option_name_cut_short(api_alice):
    name = "y" * 100_000  # names are at most 50 characters: quoted to there
    status, body = api_alice.post("/api/challenges", {"game": "carolo", "options": {name: 1.5}})
    cut = "options." + "y" * 50 + "…"
    assert (status, body) == (
        400,
        {
            "error": f"Invalid request: {cut}.[key]: must be at most 50 characters;"
            f" {cut}: must be text, a whole number, true or false."
        },
    )


def test_true_or_false_is_on_or_off_only_for_a_switch(api_alice):
    status, body = api_alice.post(
        "/api/challenges", {"game": "shuuro", "options": {"scouts": False}}
    )
    assert status == 200 and Challenge.objects.get().options == {"scouts": "off"}
    status, body = api_alice.post(
        "/api/challenges", {"game": "shuuro", "options": {"budget": True}}
    )
    assert status == 400 and body["error"].endswith("not 'true'")  # what was sent, not 'on'
    assert Challenge.objects.count() == 1


def test_the_list_leaves_out_what_can_no_longer_be_accepted(api_bob, alice, charlie):
    services.create_challenge(charlie, variant="carolo")
    services.create_challenge(alice, variant="carge", now=timezone.now() - timedelta(days=31))
    kept = services.create_challenge(alice, variant="rococo")
    charlie.is_active = False
    charlie.save()
    status, listed = api_bob.get("/api/challenges")
    assert status == 200 and [item["id"] for item in listed] == [kept.pk]


def test_a_challenge_that_can_no_longer_be_accepted_reads_expired(api_bob, alice, bob, charlie):
    month_ago = timezone.now() - timedelta(days=31)
    old = services.create_challenge(alice, variant="carge", now=month_ago)
    named = services.create_challenge(alice, variant="carge", opponent=bob, now=month_ago)
    closed = services.create_challenge(charlie, variant="carolo")
    charlie.is_active = False
    charlie.save()
    for challenge, status in ((old, "expired"), (closed, "expired"), (named, "open")):
        code, body = api_bob.get(f"/api/challenges/{challenge.pk}")
        assert code == 200 and body["status"] == status, challenge
    code, body = api_bob.post(f"/api/challenges/{old.pk}/accept")
    assert code == 409 and not Game.objects.exists()


def test_a_challenge_from_ones_own_position_is_casual(api_alice):
    fen = "4e3/8/8/8/8/c7/3A1A2/AHBCEBHA w c1f1 1"  # Black: its Ego and Carolo only
    status, body = api_alice.post("/api/challenges", {"game": "carolo", "options": {"fen": fen}})
    assert status == 200
    assert api_alice.get(f"/api/challenges/{body['id']}")[1]["rated"] is False


def test_too_many_challenges_is_a_429(api_alice, bob):
    for _ in range(services.MAX_OPEN_CHALLENGES):
        assert api_alice.post("/api/challenges", {"game": "carolo"})[0] == 200
    status, body = api_alice.post("/api/challenges", {"game": "carolo", "opponent": "bob"})
    assert status == 429
    assert body["error"].startswith("You have 50 challenges waiting for an answer")
    assert "Retry-After" not in api_alice.last  # no window: an answer makes room
    assert Challenge.objects.count() == services.MAX_OPEN_CHALLENGES
