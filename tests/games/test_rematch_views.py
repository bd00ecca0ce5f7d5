"""Rematch on the game page: the button, the offer and its answers, with and without
htmx, what the poll tells each player, and what a stranger or a forged form gets."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Challenge, Game
from tests.games.game_utils import client_for, start_game, words

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob):
    game = start_game("carolo", alice, bob)
    return services.resign(alice, game.pk)


@pytest.fixture
def players(alice, bob):
    return {"alice": client_for(alice), "bob": client_for(bob)}


def page(client, game):
    return client.get(reverse("game", args=[game.pk]))


def rematch(client, game, action="offer", **headers):
    return client.post(reverse("game_rematch", args=[game.pk]), {"action": action}, **headers)


def poll_url(response) -> str:
    found = re.search(r'hx-get="([^"]+/poll\?v=[^"]+)"', response.content.decode())
    return found and found[1].replace("&amp;", "&")


def test_each_player_of_an_ended_game_may_offer_a_rematch(players, alice, bob, charlie, game):
    for client in players.values():
        body = page(client, game).content.decode()
        assert 'name="action" value="offer"' in body
        assert f'action="/game/{game.pk}/rematch"' in body
        assert poll_url(page(client, game))  # it looks out for the other's offer
    # not while a game is on, nor for a spectator
    on = start_game("rococo", alice, bob)
    assert f"/game/{on.pk}/rematch" not in page(players["alice"], on).content.decode()
    for client in (client_for(charlie), Client()):
        assert "Rematch" not in words(page(client, game))


def test_the_other_player_s_open_page_shows_an_offer_as_it_comes(players, game):
    watching = poll_url(page(players["bob"], game))
    assert players["bob"].get(watching, **HTMX).status_code == 204  # nothing new yet
    rematch(players["alice"], game)
    response = players["bob"].get(watching, **HTMX)
    assert response.status_code == 200
    assert "alice offers a rematch." in words(response)
    assert poll_url(response)  # and it waits on, for alice to cancel


def test_an_hour_after_the_end_a_page_no_longer_looks_out_for_an_offer(players, game):
    watching = poll_url(page(players["bob"], game))
    Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() - timedelta(minutes=61))
    assert poll_url(page(players["bob"], game)) is None
    response = players["bob"].get(watching, **HTMX)
    assert response.status_code == 286  # htmx stops polling
    # an offer made then still shows on a page opened or reloaded, and is waited on
    rematch(players["alice"], game)
    assert "alice offers a rematch." in words(page(players["bob"], game))
    assert poll_url(page(players["bob"], game))


def test_a_page_of_a_game_against_a_bot_does_not_look_out_for_an_offer(alice):
    bot = User.objects.get(username="rococo-bot")
    challenge = services.create_challenge(
        alice, variant="rococo", opponent=bot, bot_level=2, color="black", rated=False
    )
    game = services.resign(alice, challenge.game_id)
    assert poll_url(page(client_for(alice), game)) is None


def test_an_offer_is_shown_to_both_players(players, game):
    response = rematch(players["alice"], game)
    assert response.status_code == 302 and response["Location"] == f"/game/{game.pk}/"
    offer = Challenge.objects.get(rematch_of=game)
    assert offer.opponent.username == "bob"
    mine = page(players["alice"], game)
    assert "You offered bob a rematch." in words(mine)
    assert 'value="cancel"' in mine.content.decode()
    assert 'value="offer"' not in mine.content.decode()
    theirs = page(players["bob"], game)
    assert "alice offers a rematch." in words(theirs)
    assert 'value="accept"' in theirs.content.decode()
    assert 'value="decline"' in theirs.content.decode()
    for response in (mine, theirs):
        assert poll_url(response)  # each waits for the other's answer


def test_with_htmx_the_offer_answers_with_the_fragment(players, game):
    response = rematch(players["alice"], game, **HTMX)
    assert response.status_code == 200
    assert 'id="game-live"' in response.content.decode()
    assert "<html" not in response.content.decode()
    assert "You offered bob a rematch." in words(response)


def test_accepting_takes_both_players_to_the_new_game(players, game):
    rematch(players["alice"], game)
    waiting = poll_url(page(players["alice"], game))
    assert players["alice"].get(waiting, **HTMX).status_code == 204  # nothing new
    response = rematch(players["bob"], game, "accept", **HTMX)
    new = Challenge.objects.get(rematch_of=game).game
    assert response.status_code == 204 and response["HX-Redirect"] == f"/game/{new.pk}/"
    assert (new.white.username, new.black.username) == ("bob", "alice")
    response = players["alice"].get(waiting, **HTMX)  # alice's page, on its next poll
    assert response["HX-Redirect"] == f"/game/{new.pk}/"


def test_accepting_without_javascript_goes_to_the_game(players, game):
    rematch(players["alice"], game)
    response = rematch(players["bob"], game, "accept")
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/game/{new.pk}/"


def test_pressing_rematch_when_offered_accepts(players, game):
    rematch(players["bob"], game)
    response = rematch(players["alice"], game)
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/game/{new.pk}/"
    assert (new.white.username, new.black.username) == ("bob", "alice")  # as bob offered


def test_once_rematched_everyone_sees_the_link_and_no_button(players, charlie, game):
    rematch(players["alice"], game)
    rematch(players["bob"], game, "accept")
    new = Game.objects.exclude(pk=game.pk).get()
    for client in (*players.values(), client_for(charlie), Client()):
        response = page(client, game)
        assert f"Rematch: game {new.pk}" in words(response)
        assert f'href="/game/{new.pk}/"' in response.content.decode()
        assert 'name="action"' not in response.content.decode()
        assert poll_url(response) is None
    response = rematch(players["alice"], game)  # a stale page's button
    assert response.status_code == 302
    response = page(players["alice"], game)
    assert "This game has had its rematch already." in words(response)
    assert Game.objects.count() == 2


def test_a_declined_offer_is_told_on_the_offerers_next_poll(players, game):
    rematch(players["alice"], game)
    waiting = poll_url(page(players["alice"], game))
    response = rematch(players["bob"], game, "decline", **HTMX)
    assert response.status_code == 200
    assert 'value="offer"' in response.content.decode()  # bob may offer one himself
    response = players["alice"].get(waiting, **HTMX)
    assert response.status_code == 286  # the answer is in: no more polling
    assert "bob declined your rematch offer." in words(response)
    assert 'value="offer"' in response.content.decode()


def test_a_cancelled_offer_is_gone_from_the_opponents_page(players, game):
    rematch(players["alice"], game)
    waiting = poll_url(page(players["bob"], game))
    response = rematch(players["alice"], game, "cancel")
    assert response.status_code == 302
    response = players["bob"].get(waiting, **HTMX)
    assert response.status_code == 286
    assert "offers a rematch" not in words(response)
    assert 'value="offer"' in response.content.decode()
    assert Challenge.objects.get(rematch_of=game).status == Challenge.Status.CANCELLED


def test_a_game_still_on_refuses_with_the_reason(alice, bob):
    on = start_game("carolo", alice, bob)
    client = client_for(alice)
    response = rematch(client, on, **HTMX)
    assert "A rematch can be offered once the game is over." in words(response)
    response = rematch(client, on)
    assert response.status_code == 302
    assert "A rematch can be offered once the game is over." in words(page(client, on))
    assert not Challenge.objects.filter(rematch_of=on).exists()


def test_a_stranger_gets_403_and_a_missing_game_404(charlie, game):
    client = client_for(charlie)
    response = rematch(client, game)
    assert response.status_code == 403
    assert response.content == b"You are not playing in this game."
    assert client.post(f"/game/{game.pk + 100}/rematch", {"action": "offer"}).status_code == 404
    assert not Challenge.objects.filter(rematch_of__isnull=False).exists()


def test_a_forged_action_or_form_changes_nothing(alice, game):
    response = rematch(client_for(alice), game, "steal")
    assert response.status_code == 302
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(alice)
    assert rematch(forged, game).status_code == 403  # no CSRF token
    assert Client().post(f"/game/{game.pk}/rematch", {"action": "offer"}).status_code == 302
    assert client_for(alice).get(f"/game/{game.pk}/rematch").status_code == 405
    assert not Challenge.objects.filter(rematch_of__isnull=False).exists()


def test_a_bot_rematch_takes_the_player_to_the_new_game(alice):
    bot = User.objects.get(username="carolo-bot")
    challenge = services.create_challenge(alice, variant="carolo", opponent=bot, bot_level=1)
    game = services.resign(alice, challenge.game_id)
    client = client_for(alice)
    assert poll_url(page(client, game)) is None
    response = rematch(client, game)
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == f"/game/{new.pk}/"
    assert new.bot_level == 1 and new.is_active


def test_the_challenge_says_it_is_a_rematch(players, game):
    rematch(players["alice"], game)
    offer = Challenge.objects.get(rematch_of=game)
    response = players["bob"].get(reverse("challenge_detail", args=[offer.token]))
    assert f"Rematch of game {game.pk}" in words(response)
    assert "Carolo from alice" in words(players["bob"].get(reverse("lobby")))
    assert "rematch" in words(players["bob"].get(reverse("lobby")))
