"""Leaderboards: established, recently active, non-bot players, best first."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Rating
from tests.helpers import text


def rated(username, rating, *, deviation=60, days_ago=1, variant="carolo", bot=False):
    user = User.objects.create_user(username, f"{username}@example.org", "x", is_bot=bot)
    when = timezone.now() - timedelta(days=days_ago)
    return Rating.objects.create(
        user=user,
        variant=variant,
        rating=rating,
        deviation=deviation,
        games=30,
        last_rated_at=when,
    )


def test_it_ranks_established_active_players_best_first(client, db):
    rated("middle", 1800)
    rated("top", 2100)
    rated("bottom", 1600)
    rated("provisional", 2500, deviation=110)
    rated("away", 2400, days_ago=31)
    rated("robot", 2600, bot=True)
    rated("other_game", 2700, variant="rococo")
    page = text(client.get("/leaderboard/carolo/"))
    names = ["top", "middle", "bottom"]
    positions = [page.index(f">{name}</a>") for name in names]
    assert positions == sorted(positions)
    for absent in ("provisional", "away", "robot", "other_game"):
        assert f">{absent}</a>" not in page
    assert "<td>2100</td>" in page


def test_it_shows_at_most_100(client, db):
    for i in range(105):
        rated(f"p{i:03d}", 1500 + i)
    page = text(client.get("/leaderboard/carolo/"))
    assert ">p104</a>" in page and ">p005</a>" in page and ">p004</a>" not in page


def test_the_index_shows_each_games_top_ten(client, db):
    rated("carolo_star", 2000)
    rated("rococo_star", 1900, variant="rococo")
    page = text(client.get("/leaderboard/"))
    for name in ("Le Carolo", "Le Carge", "Rococo", "Shuuro", "Mini-Shuuro"):
        assert name in page
    assert ">carolo_star</a>" in page and ">rococo_star</a>" in page


def test_every_game_has_a_board_and_an_unknown_game_is_404(client, db):
    assert client.get("/leaderboard/chess/").status_code == 404
    assert "Mini-Shuuro leaderboard" in text(client.get("/leaderboard/shuuro-mini/"))


def test_the_french_title_reads_right_with_le_in_the_game_s_name(client, db):
    # "Classement de Le Carolo" would be wrong French ("du Carolo"): no "de" at all
    page = text(client.get("/leaderboard/carolo/", headers={"accept-language": "fr"}))
    assert "<h1>Classement : Le Carolo</h1>" in page and "de Le" not in page


@pytest.mark.parametrize("count", [3, 60])
def test_leaderboards_cost_a_fixed_number_of_queries(client, db, count, django_assert_num_queries):
    for i in range(count):
        rated(f"p{i:03d}", 1500 + i)
        rated(f"r{i:03d}", 1500 + i, variant="rococo")
    with django_assert_num_queries(1):
        assert client.get("/leaderboard/carolo/").status_code == 200
    with django_assert_num_queries(5):  # one per game
        assert client.get("/leaderboard/").status_code == 200
