"""The home page of a signed-in player, and the header's count of games to move in."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.utils import timezone

from games import services
from games.context_processors import turn_count
from games.models import Game
from tests.conftest import make_player
from tests.helpers import text


def make_game(white, black, *, to_act="white", deadline_days=None, ended_days=None, **extra):
    """A game row as the services leave it: active with a side to act, or ended."""
    now = timezone.now()
    fields = {
        "variant": "rococo",
        "white": white,
        "black": black,
        "start_fen": "-",
        "fen": "-",
        "created_at": now - timedelta(days=40),
    }
    if ended_days is not None:
        fields.update(
            status=extra.pop("status", Game.Status.FINISHED),
            result_reason=extra.pop("result_reason", "resign"),
            ended_at=now - timedelta(days=ended_days),
        )
    else:
        fields.update(
            white_to_act=to_act == "white",
            black_to_act=to_act == "black",
            deadline=None if deadline_days is None else now + timedelta(days=deadline_days),
        )
    return Game.objects.create(**fields, **extra)


def positions(page, *needles):
    return [page.index(needle) for needle in needles]


def test_visitors_still_get_the_welcome(client, db):
    page = text(client.get("/"))
    assert "Slow games, deep moves" in page
    assert "Your turn" not in page


def test_it_lists_the_games_to_move_in_by_deadline_then_the_rest(client_alice, alice, bob, charlie):
    later = make_game(alice, bob, to_act="white", deadline_days=3)
    sooner = make_game(charlie, alice, to_act="black", deadline_days=1)
    unlimited = make_game(alice, charlie, to_act="white")
    theirs = make_game(alice, bob, to_act="black", deadline_days=2)
    to_alice = services.create_challenge(bob, variant="carge", opponent=alice)
    by_alice = services.create_challenge(alice, variant="shuuro")
    old_end = make_game(alice, bob, ended_days=5, winner="white")
    new_end = make_game(bob, alice, ended_days=1, winner="white")

    page = text(client_alice.get("/"))
    order = positions(
        page,
        f'href="/game/{sooner.pk}/"',
        f'href="/game/{later.pk}/"',
        f'href="/game/{unlimited.pk}/"',
        "Waiting for your opponent",
        f'href="/game/{theirs.pk}/"',
        "Challenges to you",
        f'href="/challenge/{to_alice.token}/"',
        "Your open challenges",
        f'href="/challenge/{by_alice.token}/"',
        "Finished games",
        f'href="/game/{new_end.pk}/"',
        f'href="/game/{old_end.pk}/"',
    )
    assert order == sorted(order)
    assert f'action="/challenge/{to_alice.pk}/accept/"' in page
    assert f'action="/challenge/{to_alice.pk}/decline/"' in page
    assert f'action="/challenge/{by_alice.pk}/cancel/"' in page


def test_each_game_names_the_opponent_and_the_result(client_alice, alice, bob, charlie):
    make_game(alice, bob, to_act="white", deadline_days=2)
    make_game(charlie, alice, ended_days=1, winner="white")  # alice was Black: lost
    make_game(alice, charlie, ended_days=2, winner="white")  # won
    make_game(bob, alice, ended_days=3, winner="", result_reason="agreement")
    make_game(bob, alice, ended_days=4, status=Game.Status.ABORTED, result_reason="aborted")
    page = text(client_alice.get("/"))
    assert "Rococo against bob" in page
    assert "(1 day 23 hours left)" in page  # worded as on the game page
    finished = page[page.index("Finished games") :]
    assert re.findall(r"(Won|Lost|Draw|Aborted),", finished) == ["Lost", "Won", "Draw", "Aborted"]


def test_it_shows_the_last_twenty_finished_games(client_alice, alice, bob):
    games = [make_game(alice, bob, ended_days=day, winner="black") for day in range(1, 23)]
    page = text(client_alice.get("/"))
    for game in games[:20]:
        assert f'href="/game/{game.pk}/"' in page
    for game in games[20:]:  # ended 21 and 22 days ago
        assert f'href="/game/{game.pk}/"' not in page


def test_other_players_games_are_not_listed(client_alice, bob, charlie):
    game = make_game(bob, charlie)
    assert f"/game/{game.pk}/" not in text(client_alice.get("/"))


@pytest.mark.parametrize("size", [1, 8])
def test_the_home_page_costs_the_same_queries_whatever_its_size(
    client_alice, alice, django_assert_num_queries, size
):
    for i in range(size):
        other = make_player(f"player{i}")
        make_game(alice, other, to_act="white", deadline_days=i + 1)
        make_game(other, alice, to_act="white", deadline_days=i + 1)
        make_game(alice, other, ended_days=i + 1, winner="white")
        services.create_challenge(other, variant="carolo", opponent=alice)
        services.create_challenge(alice, variant="carolo", opponent=other)
    # session, user, then one query per list; the header count comes with the first list
    with django_assert_num_queries(7):
        page = text(client_alice.get("/"))
    assert page.count("Rococo against player") == 3 * size


# -- the header count ------------------------------------------------------------------


def test_the_header_counts_the_games_awaiting_your_move(client_alice, alice, bob, charlie):
    make_game(alice, bob, to_act="white")
    make_game(charlie, alice, to_act="black")
    make_game(alice, charlie, to_act="black")  # charlie's move
    make_game(bob, alice, ended_days=1, winner="white")
    page = text(client_alice.get("/rules/"))
    # the count's meaning is spoken (aria-label) and shown on hover (title)
    assert (
        '<span class="badge turn-count" role="img" aria-label="2 games await your move"'
        ' title="2 games await your move">2</span>' in page
    )


def test_the_header_says_one_game_in_the_singular(client_alice, alice, bob):
    make_game(alice, bob, to_act="white")
    page = text(client_alice.get("/lobby/"))
    assert 'aria-label="1 game awaits your move" title="1 game awaits your move">1</span>' in page


def test_the_header_shows_no_badge_when_nothing_awaits(client_alice, alice, bob):
    make_game(alice, bob, to_act="black")
    assert "turn-count" not in text(client_alice.get("/lobby/"))


def test_the_home_page_count_matches_the_header_elsewhere(client_alice, alice, bob):
    make_game(alice, bob, to_act="white")
    make_game(bob, alice, to_act="black")
    for url in ("/", "/lobby/"):
        assert 'aria-label="2 games await your move"' in text(client_alice.get(url))


def test_the_count_costs_nothing_for_visitors(db, rf_anonymous, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert turn_count(rf_anonymous) == {"turn_count": 0}


def test_the_count_costs_one_query_and_only_when_shown(alice, bob, django_assert_num_queries):
    make_game(alice, bob, to_act="white")
    request = RequestFactory().get("/")
    request.user = alice
    with django_assert_num_queries(0):
        count = turn_count(request)["turn_count"]
    with django_assert_num_queries(1):
        assert count == 1


@pytest.fixture
def rf_anonymous():
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    return request
