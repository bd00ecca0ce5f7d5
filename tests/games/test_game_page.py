"""The game page: what it shows, its htmx fragments, polling, replay, record, query count."""

import re
import types
from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from django.db.models import F
from django.urls import reverse

from games import plans, presence, services
from games.models import Game, Rating, RatingChange
from tests.conftest import make_player
from tests.games.game_utils import aymon_walk, client_for, play_line, post_move, start_game, words

START = "0-0-active-none-1-0"  # the poll token of a new game: ply 0, White to act, then …


def start_token(game) -> str:
    """… the deadline, as a Unix time."""
    deadline = Game.objects.get(pk=game.pk).deadline
    return f"{START}-{int(deadline.timestamp())}"


@pytest.fixture(autouse=True)
def _no_presence_left_over():
    cache.clear()


@pytest.fixture
def game(alice, bob):
    return start_game("carolo", alice, bob)


def page(client, game, **params):
    return client.get(reverse("game", args=[game.pk]), params)


def test_it_shows_players_sides_and_who_is_to_act(players, game):
    html = page(players["black"][0], game).content.decode()
    assert '<a href="/@/alice">alice</a>' in html
    assert '<a href="/@/bob">bob</a>' in html
    body = words(page(players["black"][0], game))
    assert "alice 1500? (White) to act" in body  # a new player: the start rating, provisional
    assert "bob 1500? (Black, you)" in body
    assert "alice (White) to move." in body


def test_it_shows_the_ratings_and_after_a_rated_game_the_changes(players, alice, bob):
    Rating.objects.create(user=bob, variant="carolo", rating=1712.4, deviation=80)
    challenge = services.create_challenge(alice, variant="carolo", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    body = words(page(players["white"][0], game))
    assert "alice 1500? (White, you)" in body and "bob 1712 (Black)" in body
    services.resign(alice, game.pk)
    change = {c.user_id: c.diff for c in RatingChange.objects.filter(game=game)}
    # the loser, still unsure (deviation 500), loses much more than the sure winner gains
    assert change[alice.pk] < 0 < change[bob.pk] < -change[alice.pk]
    body = words(page(players["black"][0], game))
    # the ratings the game was played at, and the changes (a real minus sign)
    assert f"alice 1500? \N{MINUS SIGN}{-change[alice.pk]} (White)" in body  # still provisional
    assert f"bob 1712 +{change[bob.pk]} (Black, you)" in body


def test_a_casual_game_shows_the_ratings_and_no_change(players, game, alice):
    services.resign(alice, game.pk)
    body = words(page(players["black"][0], game))
    assert "alice 1500? (White)" in body and "bob 1500? (Black, you)" in body


def test_it_turns_the_board_for_black(players, game):
    black = page(players["black"][0], game).content.decode()
    white = page(players["white"][0], game).content.decode()
    assert "board--flipped" in black
    assert "Board, Black at the bottom" in black
    assert "board--flipped" not in white
    # seen from White, a8 is the first square drawn; from Black, h1
    assert black.index('aria-label="h1, white Aymon"') < black.index('aria-label="a8, black Aymon"')
    assert white.index('aria-label="a8, black Aymon"') < white.index('aria-label="h1, white Aymon"')


def test_the_board_is_buttons_only_for_the_player_to_act(players, game):
    white = page(players["white"][0], game).content.decode()
    black = page(players["black"][0], game).content.decode()
    assert '<button name="square" value="d2"' in white
    assert 'name="square"' not in black
    assert (
        '<div role="img" class="d" aria-label="d2, white Aymon"><i class="wA"></i></div>' in black
    )
    assert '<label for="move-text">Type a move</label>' in white
    assert 'id="move-text"' not in black


def test_it_shows_the_legend_and_the_rules_link(players, game, alice, bob):
    body = page(players["white"][0], game).content.decode()
    for name in ("Ego", "Carolo", "Bayard", "Hubris", "Aymon"):
        assert f"<span>{name}</span>" in body
    assert 'href="/rules/carolo/"' in body
    mini = start_game("shuuro-mini", alice, bob)
    assert 'href="/rules/shuuro/"' in page(players["white"][0], mini).content.decode()


def test_it_marks_the_last_move(players, game):
    play_line(players, game.pk, ["d2-f6"])
    html = page(players["black"][0], game).content.decode()
    assert 'aria-label="d2, empty, last move"' in html
    assert 'aria-label="f6, white Aymon, last move"' in html


def test_the_deadline_is_in_the_viewers_time_zone_with_time_left(players, game, alice, monkeypatch):
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    Game.objects.filter(pk=game.pk).update(deadline=datetime(2026, 3, 10, 22, 30, tzinfo=UTC))
    now = datetime(2026, 3, 8, 18, 0, tzinfo=UTC)  # 2 days 4 hours 30 minutes before
    clock = types.SimpleNamespace(now=lambda: now)
    monkeypatch.setattr("games.presenters.timezone", clock)
    monkeypatch.setattr("games.services.timezone", clock)  # whether the game is overdue
    body = words(page(players["white"][0], game))
    # 22:30 UTC is 7:30 the next morning in Tokyo (UTC+9)
    assert "Deadline: March 11, 2026, 7:30 a.m. (2 days 4 hours left)." in body


def test_until_both_have_moved_a_player_may_abort_not_resign(players, game):
    for client, _user in players.values():
        body = words(page(client, game))
        assert "Abort the game" in body and "Resign" not in body
    play_line(players, game.pk, ["d2-f6"])
    body = words(page(players["black"][0], game))
    assert "Abort the game" in body and "Resign" not in body  # black has not moved
    play_line(players, game.pk, ["b8-d6"])
    for client, _user in players.values():
        body = words(page(client, game))
        assert "Resign" in body and "Abort the game" not in body


def test_a_finished_game_says_how_it_ended_in_words(players, game, alice):
    play_line(players, game.pk, ["d2-f6", "b8-d6"])  # so that Resign was on the page
    services.resign(alice, game.pk)
    body = words(page(players["black"][0], game))
    assert "White resigned: Black wins." in body
    assert "to act" not in body
    assert "Resign" not in body


def test_the_result_comes_from_the_reason_not_the_stored_english(players, game, bob):
    services.resign(bob, game.pk)
    Game.objects.filter(pk=game.pk).update(result_text="stored words")
    body = words(page(players["white"][0], game))
    assert "stored words" not in body
    assert "Black resigned: White wins." in body


def test_a_spectator_sees_the_game_without_controls(client, charlie, game, players):
    play_line(players, game.pk, ["d2-f6", "b8-d6"])  # so that a player's page has Resign
    client.force_login(charlie)
    body = page(client, game).content.decode()
    assert "board--flipped" not in body
    assert 'name="square"' not in body
    assert "Resign" not in body


def test_htmx_gets_the_live_fragment_plain_requests_the_page(players, game):
    client, user = players["white"]
    full = page(client, game).content.decode()
    assert full.startswith("<!DOCTYPE html>")
    fragment = client.get(reverse("game", args=[game.pk]), HTTP_HX_REQUEST="true")
    html = fragment.content.decode().strip()
    assert html.startswith('<div id="game-live"')
    assert "<html" not in html
    assert 'id="game-board"' in html and 'id="game-moves"' in html and 'id="game-status"' in html


def test_a_move_by_htmx_answers_with_the_new_fragment(players, game):
    client, user = players["white"]
    response = post_move(client, user, game.pk, "d2-f6", htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.strip().startswith('<div id="game-live"')
    assert "bob (Black) to move." in words(response)
    # the poll asks from now on whether the page changed since ply 1, Black to act
    assert re.search(r"poll\?v=1-0-active-none-0-1-\d+\"", html)


def test_a_plain_move_redirects_to_the_page(players, game):
    client, user = players["white"]
    response = post_move(client, user, game.pk, "d2-f6")
    assert response.status_code == 302
    assert response.url == reverse("game", args=[game.pk])


def test_the_page_polls_while_the_game_is_on(players, game, alice):
    html = page(players["black"][0], game).content.decode()
    # ply 0, no secret moves, no draw offer, White to act
    token = start_token(game)
    assert (
        f'hx-get="/game/{game.pk}/poll?v={token}" hx-trigger="every 5s [document.visibilityState'
        in html
    )
    services.resign(alice, game.pk)
    # a player's page then looks out for a rematch offer for an hour
    Game.objects.filter(pk=game.pk).update(ended_at=F("ended_at") - timedelta(hours=1))
    assert "hx-trigger" not in page(players["black"][0], game).content.decode()


def test_poll_answers_204_when_nothing_changed(players, game, django_assert_num_queries):
    client, user = players["black"]
    url = reverse("game_poll", args=[game.pk])
    token = start_token(game)
    client.get(url, {"v": token})  # the session and user are loaded once the same way
    with django_assert_num_queries(3):  # session, user, the game's row
        response = client.get(url, {"v": token})
    assert response.status_code == 204
    assert response.content == b""


def test_poll_answers_with_the_fragment_after_a_move(players, game):
    play_line(players, game.pk, ["d2-f6"])
    response = players["black"][0].get(reverse("game_poll", args=[game.pk]), {"v": START})
    assert response.status_code == 200
    assert "d2-f6" in response.content.decode()
    assert re.search(r"poll\?v=1-0-active-none-0-1-\d+\"", response.content.decode())


def test_poll_answers_with_the_fragment_when_the_deadline_moves(players, game):
    # a vacation's end pushes a deadline back: the page must show the new one
    token = start_token(game)
    Game.objects.filter(pk=game.pk).update(deadline=F("deadline") + timedelta(days=2))
    response = players["black"][0].get(reverse("game_poll", args=[game.pk]), {"v": token})
    assert response.status_code == 200


def test_poll_stops_when_the_game_is_over(players, game, alice, client, charlie):
    services.resign(alice, game.pk)
    client.force_login(charlie)  # a spectator: no rematch to look out for
    response = client.get(reverse("game_poll", args=[game.pk]), {"v": START})
    assert response.status_code == 286
    assert "White resigned: Black wins." in words(response)
    response = players["black"][0].get(reverse("game_poll", args=[game.pk]), {"v": START})
    assert response.status_code == 200  # a player's page looks out for a rematch offer
    assert "White resigned: Black wins." in words(response)


def test_an_ended_game_shows_no_phase_but_its_replay_does(players, alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    play_line(players, game.pk, ["@a1"])
    assert "Phase: placement." in words(page(players["white"][0], game))
    services.resign(alice, game.pk)
    assert "Phase:" not in words(page(players["white"][0], game))
    assert "Phase: placement." in words(page(players["white"][0], game, ply=0))


def test_page_and_poll_record_presence(players, game, alice, bob):
    assert not presence.is_present(game.pk, alice.pk)
    page(players["white"][0], game)
    assert presence.is_present(game.pk, alice.pk)
    players["black"][0].get(reverse("game_poll", args=[game.pk]), {"v": START})
    assert presence.is_present(game.pk, bob.pk)


def test_a_spectator_leaves_no_presence(client, charlie, game):
    client.force_login(charlie)
    page(client, game)
    assert not presence.is_present(game.pk, charlie.pk)


# -- replay and record -------------------------------------------------------------------


def test_replay_shows_the_board_at_a_ply(players, game):
    play_line(players, game.pk, ["d2-f6", "b8-d6", "d1xd6"])
    html = page(players["white"][0], game, ply=1).content.decode()
    assert "Replay: position after move 1 of 3." in words(page(players["white"][0], game, ply=1))
    assert 'aria-label="f6, white Aymon, last move"' in html
    assert 'aria-label="b8, black Hubris"' in html  # not yet moved at ply 1
    assert 'name="square"' not in html  # no moves from a past position
    assert 'value="ahbcebha/3a1a2/5A2/8/8/8/5A2/AHBCEBHA b c1f1c8f8 1"' in html
    start = page(players["white"][0], game, ply=0)
    assert 'value="ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"' in start.content.decode()
    assert "Replay: the start position, before the game's 3 moves." in words(start)


def test_replay_links_step_through_the_game(players, game):
    play_line(players, game.pk, ["d2-f6", "b8-d6"])
    html = page(players["white"][0], game, ply=1).content.decode()
    url = reverse("game", args=[game.pk])
    assert f'href="{url}?ply=0"' in html  # first
    assert f'href="{url}" hx-get="{url}" hx-push-url="true" aria-label="Next move"' in html
    fragment = players["white"][0].get(url, {"ply": 1}, HTTP_HX_REQUEST="true")
    assert fragment.content.decode().strip().startswith('<div id="game-live"')


def test_a_replay_past_the_end_shows_the_current_position(players, game):
    play_line(players, game.pk, ["d2-f6"])
    body = words(page(players["white"][0], game, ply=99))
    assert "Replay:" not in body


def test_the_record_lists_start_options_and_moves(players, game):
    play_line(players, game.pk, ["d2-f6", "b8-d6"])
    response = players["black"][0].get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "attachment" in response["Content-Disposition"]
    lines = response.content.decode().splitlines()
    assert "start: ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1" in lines
    assert lines.index("white d2-f6") + 1 == lines.index("black b8-d6")
    assert "fen: a1bcebha/3a1a2/3h1A2/8/8/8/5A2/AHBCEBHA w c1f1c8f8 2" in lines


# -- actions -----------------------------------------------------------------------------


def test_a_draw_is_offered_and_accepted(players, game):
    white, black = players["white"][0], players["black"][0]
    url = reverse("game_draw", args=[game.pk])
    white.post(url, {"action": "offer"})
    assert "White offers a draw." in words(page(black, game))
    assert "Accept the draw" in words(page(black, game))
    black.post(url, {"action": "accept"})
    game.refresh_from_db()
    assert (game.status, game.result_reason) == ("finished", "agreement")
    assert "Draw by agreement." in words(page(white, game))


def test_a_draw_offer_can_be_declined(players, game):
    white, black = players["white"][0], players["black"][0]
    url = reverse("game_draw", args=[game.pk])
    white.post(url, {"action": "offer"})
    black.post(url, {"action": "decline"}, HTTP_HX_REQUEST="true")
    game.refresh_from_db()
    assert (game.draw_offer, game.is_active) == ("", True)


def test_the_offerer_learns_that_the_draw_was_declined(players, game, charlie):
    white, black = players["white"][0], players["black"][0]
    play_line(players, game.pk, ["d2-f6"])
    url = reverse("game_draw", args=[game.pk])
    white.post(url, {"action": "offer"})
    token = re.search(r"poll\?v=([^\"]+)", page(white, game).content.decode()).group(1)
    black.post(url, {"action": "decline"})
    # alice's page, polling, gets the news without a reload
    response = white.get(reverse("game_poll", args=[game.pk]), {"v": token})
    assert response.status_code == 200
    assert "Black declined your draw offer." in words(response)
    assert "Offer a draw" in words(response)  # she may offer again
    assert "You declined the draw offer." in words(page(black, game))
    assert "Black declined a draw offer." in words(page(client_for(charlie), game))
    # bob's move leaves it for alice to see at her turn; her own move ends it
    play_line(players, game.pk, ["b8-d6"])
    assert "Black declined your draw offer." in words(page(white, game))
    play_line(players, game.pk, ["d1xd6"])
    assert "declined" not in words(page(white, game))
    assert "declined" not in words(page(black, game))


def test_answering_a_draw_nobody_offered_is_refused(players, game):
    response = players["black"][0].post(
        reverse("game_draw", args=[game.pk]), {"action": "accept"}, HTTP_HX_REQUEST="true"
    )
    assert "There is no draw offer to answer." in words(response)
    response = players["black"][0].post(
        reverse("game_draw", args=[game.pk]), {"action": "shrug"}, HTTP_HX_REQUEST="true"
    )
    assert "Choose to offer, accept or decline a draw." in words(response)
    game.refresh_from_db()
    assert game.is_active


def test_abort_is_offered_until_both_have_moved(players, game):
    assert "Abort the game" in words(page(players["white"][0], game))
    play_line(players, game.pk, ["d2-f6", "b8-d6"])
    assert "Abort the game" not in words(page(players["white"][0], game))
    response = players["white"][0].post(reverse("game_abort", args=[game.pk]))
    assert "Both players have moved; the game can no longer be aborted." in words(
        players["white"][0].get(response.url)
    )
    game.refresh_from_db()
    assert game.is_active


def test_a_game_is_aborted(players, game):
    players["black"][0].post(reverse("game_abort", args=[game.pk]))
    game.refresh_from_db()
    assert (game.status, game.result_reason) == ("aborted", "aborted")
    assert "The game was aborted." in words(page(players["white"][0], game))


def test_a_stranger_cannot_resign(client, charlie, game):
    client.force_login(charlie)
    response = client.post(reverse("game_resign", args=[game.pk]), {"confirmed": "1"})
    assert response.status_code == 403
    response = client.post(reverse("game_resign", args=[game.pk]))  # not even to be asked
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.is_active


# -- cost --------------------------------------------------------------------------------


def test_the_page_costs_the_same_queries_at_ply_2_and_200(
    players, game, alice, bob, django_assert_num_queries
):
    client = players["white"][0]
    aymon_walk(game, alice, bob, 0, 2)
    page(client, game)
    with django_assert_num_queries(QUERIES):
        assert page(client, game).status_code == 200
    aymon_walk(game, alice, bob, 2, 200)
    game.refresh_from_db()
    assert (game.ply, game.is_active) == (200, True)
    with django_assert_num_queries(QUERIES):
        body = words(page(client, game))
    assert "a3-b3" in body  # the move list has the whole game


def test_a_waiting_players_conditional_moves_cost_one_query(
    players, game, alice, bob, django_assert_num_queries
):
    client = players["white"][0]
    services.play_move(alice, game.pk, "d2-f6", 0)  # bob is to move: alice may plan
    page(client, game)
    # waiting, she is shown the next game awaiting her move (games.queries): one more
    with django_assert_num_queries(QUERIES + 1):
        assert 'id="game-plans"' in page(client, game).content.decode()
    plans.add_line(alice, game.pk, "b8-d6 d1xd6", 1)
    with django_assert_num_queries(QUERIES + 2):  # and her plan
        assert "reply d1xd6" in page(client, game).content.decode()


# session, user, the game with its players, the move texts, the movers (can abort?),
# the players' ratings, the header's count of games awaiting the user, the player's
# private note on the game, the chat's messages and whether either player blocked
# the other (accounts.blocks); and, only while a plan of the player's waits (the game
# row's plan_side says so), their conditional moves (games.plans): one more
QUERIES = 10


# -- the header's count after an action --------------------------------------------------


def nav_user(response) -> str:
    """The header's link to the player's profile, as the response carries it."""
    found = re.findall(r'<a class="nav-user"[^>]*>.*?</a>', response.content.decode(), re.S)
    return " ".join(" ".join(found).split())


def test_after_resigning_the_header_count_is_updated_out_of_band(players, game, alice, bob):
    start_game("rococo", alice, bob)  # alice, White, is to move in both games
    client = players["white"][0]
    assert 'title="2 games await your move">2</span>' in nav_user(page(client, game))
    response = client.post(
        reverse("game_resign", args=[game.pk]), {"confirmed": "1"}, HTTP_HX_REQUEST="true"
    )
    badge = nav_user(response)
    assert 'hx-swap-oob="true"' in badge
    assert 'title="1 game awaits your move">1</span>' in badge
    # resigning the other one too: the badge goes
    other = Game.objects.filter(variant="rococo").get()
    response = client.post(
        reverse("game_resign", args=[other.pk]), {"confirmed": "1"}, HTTP_HX_REQUEST="true"
    )
    badge = nav_user(response)
    assert 'hx-swap-oob="true"' in badge and "turn-count" not in badge


def test_a_poll_that_brings_the_opponents_move_updates_the_header_count(players, game, alice, bob):
    client = players["black"][0]
    assert "turn-count" not in nav_user(page(client, game))  # White is to move
    token = start_token(game)
    aymon_walk(game, alice, bob, 0, 1)  # White moves: Black's turn
    response = client.get(
        reverse("game_poll", args=[game.pk]), {"v": token}, HTTP_HX_REQUEST="true"
    )
    badge = nav_user(response)
    assert 'hx-swap-oob="true"' in badge
    assert 'title="1 game awaits your move">1</span>' in badge


def test_a_replay_step_sends_no_header_count(players, game, alice, bob):
    aymon_walk(game, alice, bob, 0, 2)
    client = players["white"][0]
    response = client.get(reverse("game", args=[game.pk]), {"ply": 1}, HTTP_HX_REQUEST="true")
    assert "aria-current" in response.content.decode()  # the fragment, with its move list
    assert nav_user(response) == ""


# -- the next game awaiting the player ------------------------------------------------------


def test_once_a_player_has_moved_the_page_offers_their_next_game(players, game, alice, bob):
    soon = start_game("rococo", alice, bob, days_per_move=1)  # alice (White) to act
    later = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"}, days_per_move=5)
    client = players["white"][0]
    assert "Next game" not in words(page(client, game))  # it is her turn here
    play_line(players, game.pk, ["d2-f6"])
    body = words(page(client, game))
    # the least time left first: Rococo's one day before Le Carge's five
    assert f"Next game awaiting your move: Rococo #{soon.pk}" in body
    assert f'href="/game/{soon.pk}/"' in page(client, game).content.decode()
    assert "Next game" not in words(page(client, game, ply=0))  # a replay step
    services.resign(alice, soon.pk)
    assert f"Next game awaiting your move: Le Carge #{later.pk}" in words(page(client, game))
    # bob is to act in this game; a spectator is offered nothing
    assert "Next game" not in words(page(players["black"][0], game))
    spectator = client_for(make_player("dora"))
    assert "Next game" not in words(page(spectator, game))
