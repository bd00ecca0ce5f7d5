"""The games page, /games/: every game in progress or ended, for anyone to watch."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Rating
from games.models.play import Variant
from tests.games.game_utils import client_for, post_move, start_game, words
from tests.helpers import without_tokens
from tests.ratings.helpers import active_game, finished_game

URL = reverse("games_list")


def listed(response) -> list[int]:
    """The ids of the games the page lists, in its order."""
    section = response.content.decode().split('id="games-list"')[1]
    return [int(pk) for pk in re.findall(r'<li>\s*<div>\s*<a href="/game/(\d+)/"', section)]


def moved(game, ago, *, ply=None):
    """``game`` last moved ``ago`` before now (with ``ply`` moves made)."""
    game.last_move_at = timezone.now() - ago
    game.ply = ply if ply is not None else game.ply
    game.save(update_fields=["last_move_at", "ply"])
    return game


@pytest.fixture
def carolo_bot(db):
    return User.objects.get(username="carolo-bot")


# -- the lists and their order -------------------------------------------------------------


def test_anyone_sees_the_games_in_progress_the_latest_move_first(client, alice, bob, charlie):
    old = moved(active_game(alice, bob), timedelta(days=3), ply=4)
    new = moved(active_game(bob, charlie, variant="rococo"), timedelta(hours=2), ply=7)
    unmoved = active_game(charlie, alice)
    finished_game(alice, bob)
    response = client.get(URL)
    assert response.status_code == 200
    assert listed(response) == [new.pk, old.pk, unmoved.pk]  # no move yet: last
    body = words(response)
    assert "Games in progress" in body
    assert f"Rococo #{new.pk} · rated · 3 days per move" in body
    assert "7 moves · last move 2 hours ago · bob (White) to move." in body
    assert "0 moves · no move yet · charlie (White) to move." in body
    html = response.content.decode()
    assert '<a href="/@/alice">alice</a>' in html and '<a href="/@/charlie">charlie</a>' in html


def test_recently_finished_lists_ended_games_the_latest_end_first(client, alice, bob, charlie):
    now = timezone.now()
    first = finished_game(alice, bob, "white", when=now - timedelta(days=2))
    last = finished_game(charlie, alice, "", variant="rococo", rated=False, when=now)
    aborted = finished_game(bob, charlie, when=now - timedelta(days=1), rated=False)
    Game.objects.filter(pk=aborted.pk).update(
        status=Game.Status.ABORTED, winner="", result_reason="aborted"
    )
    active_game(alice, bob)
    response = client.get(URL, {"show": "finished"})
    # aborted games are listed, as on a profile
    assert listed(response) == [last.pk, aborted.pk, first.pk]
    body = words(response)
    assert "Recently finished" in body
    assert "Black resigned: White wins." in body
    assert "Draw by agreement." in body and "The game was aborted." in body
    assert "ended 2 days ago" in body
    assert f"Rococo #{last.pk} · casual · 3 days per move" in body
    # the winner is marked
    assert re.search(r'class="browse-player result won">\s*<a href="/@/alice">', response.text)


def test_ratings_are_shown_for_rated_games_only(client, alice, bob, charlie):
    Rating.objects.create(user=bob, variant="carge", rating=1712.4, deviation=80)
    active_game(alice, bob)
    casual = active_game(alice, charlie)
    Game.objects.filter(pk=casual.pk).update(rated=False)
    body = words(client.get(URL))
    assert "alice 1500? (White) – bob 1712 (Black)" in body
    assert "alice (White) – charlie (Black)" in body


def test_a_rated_game_over_shows_the_ratings_it_was_played_at_and_the_changes(client, alice, bob):
    game = finished_game(alice, bob, "white")
    changes = {c.user_id: c for c in game.rating_changes.all()}
    body = words(client.get(URL, {"show": "finished"}))
    win, loss = changes[alice.pk].diff, changes[bob.pk].diff
    assert f"alice 1500? +{win} (White) – bob 1500? \N{MINUS SIGN}{-loss} (Black)" in body


def test_games_against_bots_are_listed(client, alice, carolo_bot):
    game = moved(active_game(alice, carolo_bot, variant="carolo"), timedelta(minutes=5))
    response = client.get(URL)
    assert listed(response) == [game.pk]
    assert "carolo-bot" in words(response) and "BOT" in words(response)


def test_both_players_in_secret_and_no_players_to_act(client, alice, bob):
    game = start_game("shuuro-mini", alice, bob)
    assert "Both players to act." in words(client.get(URL))
    assert listed(client.get(URL)) == [game.pk]


# -- the choices ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", Variant.values)
def test_the_game_choice_lists_that_game_only(client, alice, bob, variant):
    games = {key: active_game(alice, bob, variant=key) for key in Variant.values}
    for key in Variant.values:
        finished_game(bob, alice, variant=key, rated=False)
    response = client.get(URL, {"game": variant})
    assert listed(response) == [games[variant].pk]
    assert f"{Variant(variant).label} #{games[variant].pk}" in words(response)
    assert f'<option value="{variant}" selected>' in response.content.decode()
    response = client.get(URL, {"game": variant, "show": "finished"})
    (pk,) = listed(response)
    assert Game.objects.get(pk=pk).variant == variant and pk not in games.values()


def test_all_games_and_in_progress_are_the_default(client, alice, bob):
    games = [
        moved(active_game(alice, bob, variant=key), timedelta(hours=i))
        for i, key in enumerate(Variant.values)
    ]
    assert listed(client.get(URL)) == [g.pk for g in games]
    assert listed(client.get(URL, {"game": "", "show": "active"})) == [g.pk for g in games]


@pytest.mark.parametrize(
    "params",
    [
        {"game": "chess"},
        {"show": "everything"},
        {"game": "<script>", "show": "finished'"},
        {"game": "Carolo"},
    ],
)
def test_a_forged_choice_gives_the_default_list_and_the_forms_error(client, alice, bob, params):
    game = active_game(alice, bob)
    response = client.get(URL, params)
    assert response.status_code == 200
    assert listed(response) == [game.pk]
    assert "Select a valid choice." in words(response)
    assert "<script>" not in without_tokens(response.content.decode()).split("<main")[1]


@pytest.mark.parametrize("page", ["0", "-1", "abc", "99999", "1.5", "2" * 40])
def test_a_bad_page_number_gives_a_page_never_an_error(client, alice, bob, page):
    game = active_game(alice, bob)
    response = client.get(URL, {"page": page})
    assert response.status_code == 200
    assert listed(response) == [game.pk]


# -- pages ---------------------------------------------------------------------------------


def test_fifty_a_page_and_the_pages_keep_the_choices(client, alice, bob):
    now = timezone.now()
    games = [
        finished_game(alice, bob, variant="rococo", rated=False, when=now - timedelta(hours=i))
        for i in range(52)
    ]
    finished_game(alice, bob, variant="carge", rated=False, when=now)  # not chosen
    first = client.get(URL, {"game": "rococo", "show": "finished"})
    assert listed(first) == [g.pk for g in games[:50]]
    assert "Page 1 of 2" in words(first)
    html = first.content.decode()
    older = re.search(r'<a href="([^"]+)" hx-get="[^"]+"[^>]*rel="next">', html).group(1)
    assert older.replace("&amp;", "&") == "?game=rococo&show=finished&page=2"
    second = client.get(URL + older.replace("&amp;", "&"))
    assert listed(second) == [g.pk for g in games[50:]]
    newer = re.search(r'<a href="([^"]+)"[^>]*rel="prev">', second.content.decode()).group(1)
    assert newer.replace("&amp;", "&") == "?game=rococo&show=finished&page=1"


def test_htmx_gets_the_list_alone(client, alice, bob):
    game = active_game(alice, bob)
    response = client.get(URL, {"game": "carge"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="games-browse" id="games-list"')
    assert "<header" not in html and listed(response) == [game.pk]
    assert "HX-Request" in response["Vary"]
    restore = client.get(URL, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<header" in restore.content.decode()  # the whole page to restore


# -- cost ----------------------------------------------------------------------------------

# the count, the page with both players, the ratings shown (now, or the changes once over)
QUERIES = 3


@pytest.mark.parametrize("show", ["active", "finished"])
def test_a_page_costs_the_same_queries_for_one_game_or_fifty(
    client, alice, bob, charlie, carolo_bot, show, django_assert_num_queries
):
    def make(i):
        white, black = [(alice, bob), (bob, charlie), (charlie, carolo_bot)][i % 3]
        if show == "active":
            moved(active_game(white, black, variant=Variant.values[i % 5]), timedelta(hours=i))
        else:
            finished_game(white, black, variant=Variant.values[i % 5])

    make(0)
    with django_assert_num_queries(QUERIES):
        assert len(listed(client.get(URL, {"show": show}))) == 1
    for i in range(1, 60):
        make(i)
    with django_assert_num_queries(QUERIES):
        assert len(listed(client.get(URL, {"show": show}))) == 50
    client.force_login(alice)  # a player's page: their session, user and header count more
    client.get(URL, {"show": show})
    with django_assert_num_queries(QUERIES + 3):
        assert len(listed(client.get(URL, {"show": show, "page": 2}))) == 10


# -- hidden information --------------------------------------------------------------------


def test_a_shuuro_army_in_recruitment_never_shows(client, alice, bob, charlie):
    game = start_game("shuuro-mini", alice, bob)
    alice_client, bob_client = client_for(alice), client_for(bob)
    for buy in ("+Q", "+R", "+P"):  # 110 + 70 + 10 of 200
        post_move(alice_client, alice, game.pk, buy)
    post_move(bob_client, bob, game.pk, "+N")
    game.refresh_from_db()
    assert (game.ply, game.white_hidden, game.black_hidden) == (4, 3, 1)
    assert game.last_move_at is None  # a secret move leaves no time behind
    for viewer in (client, client_for(charlie), alice_client, bob_client):
        for params in ({}, {"game": "shuuro-mini"}):
            response = viewer.get(URL, params)
            assert listed(response) == [game.pk]
            page = without_tokens(response.content.decode())
            section = page.split('id="games-list"')[1]
            for secret in ("+Q", "+R", "+P", "+N", "queen", "rook", "pawn", "knight", "army"):
                assert secret not in section, secret
            assert not re.search(r"\b[QRPN]\b", section.split("<ul")[1])
            body = words(response)
            assert "0 moves · no move yet · Both players to act." in body
    # once both armies are in, the moves count
    post_move(alice_client, alice, game.pk, "done")
    assert "0 moves" in words(client.get(URL))
    post_move(bob_client, bob, game.pk, "done")
    game.refresh_from_db()
    assert game.white_hidden == game.black_hidden == 0
    assert f"{game.visible_ply(None)} moves" in words(client.get(URL))


# -- the header ----------------------------------------------------------------------------


def test_the_header_links_to_the_games_page(client, alice):
    for viewer in (client, client_for(alice)):
        html = viewer.get(reverse("home")).content.decode()
        nav = html.split('class="site-nav"')[1].split("</nav>")[0]
        assert f'<a href="{URL}">Games</a>' in nav
        assert nav.index(">Home<") < nav.index(">Games<") < nav.index(">Rules<")
