"""Flipping the board (games.flips, POST /game/<id>/flip): each viewer turns a game's
board round for themselves, kept in their session through steps, polls and the
explore board; nothing of the game changes."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import flips
from games.models import Game
from tests.games.game_utils import client_for, game_page, play_line, start_game

HTMX = {"HTTP_HX_REQUEST": "true"}
WHITE_DOWN = ["8", "7", "6", "5", "4", "3", "2", "1"]  # Le Carolo's ranks, top to bottom
BLACK_DOWN = WHITE_DOWN[::-1]


@pytest.fixture
def game(alice, bob):
    return start_game("carolo", alice, bob)


def ranks(response) -> list[str]:
    """The board's rank labels, top to bottom."""
    labels = re.search(r'<div class="board-ranks"[^>]*>(.*?)</div>', response.content.decode())
    return re.findall(r"<span>([^<]*)</span>", labels.group(1))


def flip(client, game, **extra):
    return client.post(reverse("game_flip", args=[game.pk]), extra.pop("data", {}), **extra)


def test_each_side_sees_its_own_side_at_the_bottom_until_it_flips(alice, bob, game):
    white, black, spectator = client_for(alice), client_for(bob), Client()
    assert ranks(game_page(white, game)) == WHITE_DOWN
    assert ranks(game_page(black, game)) == BLACK_DOWN
    assert ranks(game_page(spectator, game)) == WHITE_DOWN

    response = flip(black, game)
    assert response.status_code == 302
    assert response["Location"] == f"/game/{game.pk}/#game-board"
    assert ranks(game_page(black, game)) == WHITE_DOWN
    # only for bob: alice's board and the spectator's stay as they were
    assert ranks(game_page(white, game)) == WHITE_DOWN
    assert ranks(game_page(spectator, game)) == WHITE_DOWN

    flip(black, game)  # and back
    assert ranks(game_page(black, game)) == BLACK_DOWN


def test_a_spectator_flips_without_an_account(game):
    spectator = Client()
    assert flip(spectator, game).status_code == 302
    assert ranks(game_page(spectator, game)) == BLACK_DOWN


def test_with_htmx_the_live_part_comes_back_flipped_at_the_step_shown(alice, bob, game):
    white, black = client_for(alice), client_for(bob)
    play_line({"white": (white, alice), "black": (black, bob)}, game.pk, ["d2-f6", "d7-f3"])
    response = flip(white, game, data={"ply": "1"}, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="game-live"') and "board--flipped" in page
    assert "Replay: position after move 1 of 2." in re.sub(r"\s+", " ", page)
    assert ranks(response) == BLACK_DOWN


def test_the_flip_lasts_through_steps_polls_and_the_explore_board(alice, bob, game):
    white, black = client_for(alice), client_for(bob)
    flip(white, game)
    assert ranks(game_page(white, game, ply=0)) == BLACK_DOWN  # a replay step
    play_line({"white": (white, alice), "black": (black, bob)}, game.pk, ["d2-f6"])
    poll = white.get(reverse("game_poll", args=[game.pk]), {"v": "stale"}, **HTMX)
    assert poll.status_code == 200 and ranks(poll) == BLACK_DOWN
    explore = white.get(reverse("game_explore", args=[game.pk]))
    assert ranks(explore) == BLACK_DOWN
    assert ranks(black.get(reverse("game_explore", args=[game.pk]))) == BLACK_DOWN


def test_flipping_changes_nothing_of_the_game(alice, game):
    before = Game.objects.values().get(pk=game.pk)
    flip(client_for(alice), game)
    assert Game.objects.values().get(pk=game.pk) == before


def test_a_session_keeps_the_latest_games_only(alice, bob, monkeypatch):
    monkeypatch.setattr(flips, "MAX_GAMES", 2)
    client = client_for(alice)
    games = [start_game("carolo", alice, bob) for _ in range(3)]
    for each in games:
        flip(client, each)
    assert client.session[flips.KEY] == [games[1].pk, games[2].pk]
    assert ranks(game_page(client, games[0])) == WHITE_DOWN  # let go: as it was
    assert ranks(game_page(client, games[2])) == BLACK_DOWN


def test_a_missing_game_and_a_get_are_refused(alice):
    client = client_for(alice)
    assert client.post(reverse("game_flip", args=[999999])).status_code == 404
    assert client.get(reverse("game_flip", args=[1])).status_code == 405
    assert flips.KEY not in client.session


def test_the_page_offers_the_flip_to_everyone(alice, game):
    for client in (client_for(alice), Client()):
        page = game_page(client, game).content.decode()
        assert f'<form class="game-flip" method="post" action="/game/{game.pk}/flip"' in page
        assert "Flip the board" in page
