"""The profile page: ratings, history charts, results, games, search-free extras."""

import re

import pytest
from django.utils import timezone

from games.models import Rating
from tests.helpers import text, without_tokens
from tests.ratings.helpers import active_game, finished_game, play_many


def test_it_shows_ratings_with_provisional_marks_and_results(client, alice, bob):
    finished_game(alice, bob, "white")
    finished_game(alice, bob, "", rated=False)  # casual: counts as a draw, not rated
    page = text(client.get("/@/alice"))
    rating = Rating.objects.get(user=alice, variant="carge")
    assert f"{round(rating.rating)}?" in page
    # Rated games 1; wins, draws (the casual game), losses: 1, 1, 0.
    assert re.search(
        r"Le Carge</a></th> <td[^>]*>\d+\?</td> <td>1</td> <td>1</td> <td>1</td> <td>0</td>", page
    )


def test_an_established_rating_has_no_question_mark(client, alice):
    Rating.objects.create(user=alice, variant="rococo", rating=1876.4, deviation=60, games=40)
    page = text(client.get("/@/alice"))
    assert ">1876<" in page and "1876?" not in page


def test_it_draws_a_rating_history_chart_with_a_title(client, alice, bob):
    play_many([alice, bob], 4)
    page = client.get("/@/alice").content.decode()
    assert '<svg viewBox="0 0 600 160" role="img" aria-labelledby="chart-carge-title"' in page
    assert re.search(
        r'<title id="chart-carge-title">Le Carge rating history: from 1500 to \d+', page
    )
    points = re.search(r'<polyline points="([^"]+)"', page).group(1).split()
    # the start (1500) and one point per rated game, the first game at the left edge too
    assert len(points) == 5
    assert points[0].startswith("8.0,") and points[1].startswith("8.0,")
    assert points[-1].startswith("592.0,")
    dots = re.search(r'class="rating-points" d="([^"]+)"', page).group(1)
    assert dots.split() == [f"M{point}h0" for point in points[1:]]  # a dot per game
    assert "cdn" not in without_tokens(page).lower()


def test_it_lists_current_and_finished_games_with_rating_changes(client, alice, bob):
    current = active_game(alice, bob)
    done = finished_game(alice, bob, "white")
    page = text(client.get("/@/bob"))
    assert f'href="/game/{current.pk}/"' in page
    assert f'href="/game/{done.pk}/"' in page
    change = done.rating_changes.get(user=bob)
    assert f"\u2212{round(change.before) - round(change.after)}" in page
    assert "Lost" in page


def test_finished_games_come_20_a_page(client, alice, bob):
    games = play_many([alice, bob], 25)
    first = text(client.get("/@/alice"))
    second = text(client.get("/@/alice?page=2"))
    assert f'href="/game/{games[-1].pk}/"' in first and f'href="/game/{games[0].pk}/"' not in first
    assert f'href="/game/{games[0].pk}/"' in second
    assert "Page 1 of 2" in first and 'href="?page=2"' in first


def test_it_shows_last_seen_and_a_challenge_button(client, alice, bob):
    alice.last_seen = timezone.now()
    alice.save()
    page = text(client.get("/@/alice"))
    assert "Last seen 0 minutes ago" in page
    assert 'href="/challenge/new/?opponent=alice"' in page


def test_no_challenge_button_on_my_own_profile(client_alice):
    assert "/challenge/new/" not in text(client_alice.get("/@/alice"))


def test_a_bot_has_a_badge(client, alice, bob):
    bob.is_bot = True
    bob.save()
    assert ">BOT</span>" in text(client.get("/@/bob"))
    assert ">BOT</span>" not in text(client.get("/@/alice"))


@pytest.mark.parametrize("count", [3, 45])
def test_the_profile_costs_a_fixed_number_of_queries(
    client, alice, bob, charlie, count, django_assert_num_queries
):
    play_many([alice, bob, charlie], count)
    play_many([alice, bob], count, variant="rococo")
    active_game(alice, bob)
    active_game(charlie, alice, variant="rococo")
    # user, ratings, W/D/L, rating history, current games, tournaments, finished count,
    # finished page
    with django_assert_num_queries(8):
        assert client.get("/@/alice").status_code == 200


def test_a_bad_page_number_shows_a_page_anyway(client, alice, bob):
    finished_game(alice, bob)
    for page in ("abc", "999", "-1"):
        r = client.get(f"/@/alice?page={page}")
        assert r.status_code == 200 and "Finished games" in text(r)
