"""POST /api/games/<id>/rematch: offer a rematch of an ended game, answer it, withdraw it."""

import pytest

from games.models import Challenge, Game
from tests.api.conftest import start_game


@pytest.fixture
def ended(api_alice, api_bob):
    """A 5-day rated Rococo game, alice White, that bob resigned."""
    game_id = start_game(api_alice, api_bob, "rococo", days_per_move=5, rated=True)
    assert api_bob.post(f"/api/games/{game_id}/resign")[0] == 200
    return game_id


def rematch(api, game_id, action):
    return api.post(f"/api/games/{game_id}/rematch", {"action": action})


def test_an_offer_is_a_challenge_to_the_other_player_with_the_colours_swapped(
    api_alice, api_bob, ended
):
    status, offer = rematch(api_alice, ended, "offer")
    assert status == 200
    assert offer["status"] == "open" and offer["game_id"] is None
    assert (offer["challenger"], offer["opponent"], offer["rematch_of"]) == ("alice", "bob", ended)
    # alice was White: she asks for Black, on the same terms
    assert (offer["game"], offer["color"], offer["days_per_move"], offer["rated"]) == (
        "rococo",
        "black",
        5,
        True,
    )
    # bob finds it among the challenges to him, marked as the rematch of the game
    status, listed = api_bob.get("/api/challenges")
    assert [(c["id"], c["rematch_of"]) for c in listed] == [(offer["id"], ended)]
    assert api_bob.get(f"/api/challenges/{offer['id']}")[1]["rematch_of"] == ended


def test_accepting_starts_the_new_game(api_alice, api_bob, ended):
    _, offer = rematch(api_alice, ended, "offer")
    status, answer = rematch(api_bob, ended, "accept")
    assert status == 200
    assert answer["id"] == offer["id"] and answer["status"] == "accepted"
    game = Game.objects.get(pk=answer["game_id"])
    assert (game.white.username, game.black.username) == ("bob", "alice")
    assert (game.variant, game.days_per_move, game.rated, game.status) == (
        "rococo",
        5,
        True,
        "active",
    )
    status, body = rematch(api_alice, ended, "offer")
    assert status == 409 and body == {"error": "This game has had its rematch already."}


def test_offers_from_both_sides_make_one_game(api_alice, api_bob, ended):
    _, first = rematch(api_alice, ended, "offer")
    status, second = rematch(api_bob, ended, "offer")
    assert status == 200
    assert second["id"] == first["id"] and second["status"] == "accepted"
    assert Game.objects.filter(challenge__rematch_of_id=ended).count() == 1


def test_offering_twice_changes_nothing(api_alice, ended):
    _, first = rematch(api_alice, ended, "offer")
    _, again = rematch(api_alice, ended, "offer")
    assert again["id"] == first["id"] and again["status"] == "open"
    assert Challenge.objects.filter(rematch_of_id=ended).count() == 1


def test_the_other_declines_and_the_offerer_may_withdraw(api_alice, api_bob, ended):
    rematch(api_alice, ended, "offer")
    status, answer = rematch(api_bob, ended, "decline")
    assert status == 200 and answer["status"] == "declined"
    status, body = rematch(api_bob, ended, "accept")
    assert status == 409 and body == {"error": "There is no rematch offer to answer."}
    # a declined offer leaves room for a new one, which its maker withdraws
    _, offer = rematch(api_alice, ended, "offer")
    assert offer["status"] == "open"
    status, answer = rematch(api_alice, ended, "cancel")
    assert status == 200 and (answer["id"], answer["status"]) == (offer["id"], "cancelled")


def test_the_offerer_cannot_accept_their_own_offer(api_alice, ended):
    rematch(api_alice, ended, "offer")
    status, body = rematch(api_alice, ended, "accept")
    assert status in (403, 409) and body["error"]
    assert Challenge.objects.get(rematch_of_id=ended).status == "open"


def test_a_game_in_progress_has_no_rematch(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob, "carolo")
    status, body = rematch(api_alice, game_id, "offer")
    assert status == 409
    assert body == {"error": "A rematch can be offered once the game is over."}
    assert not Challenge.objects.filter(rematch_of_id=game_id).exists()


def test_a_spectator_and_a_missing_game_are_refused(api_charlie, api_alice, ended):
    status, body = rematch(api_charlie, ended, "offer")
    assert status == 403 and body == {"error": "You are not playing in this game."}
    status, body = rematch(api_alice, ended + 1000, "offer")
    assert status == 404 and body["error"]
    assert not Challenge.objects.filter(rematch_of_id=ended).exists()


def test_an_unknown_action_is_refused(api_alice, ended):
    for payload in [{"action": "maybe"}, {}, {"action": 1}]:
        status, body = api_alice.post(f"/api/games/{ended}/rematch", payload)
        assert status == 400 and body["error"]
    assert not Challenge.objects.filter(rematch_of_id=ended).exists()


def test_a_site_bot_accepts_at_once(api_alice):
    status, created = api_alice.post(
        "/api/challenges", {"game": "carolo", "opponent": "carolo-bot", "color": "white"}
    )
    assert status == 200
    assert api_alice.post(f"/api/games/{created['game_id']}/resign")[0] == 200
    status, offer = rematch(api_alice, created["game_id"], "offer")
    assert status == 200 and offer["status"] == "accepted"
    game = Game.objects.get(pk=offer["game_id"])
    assert (game.white.username, game.black.username) == ("carolo-bot", "alice")
