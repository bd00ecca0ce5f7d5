"""The profile's rating chart: from the rating before the first game, a point per game."""

import re
from datetime import UTC, datetime, timedelta

from games.models import RatingChange
from games.profiles import rating_chart
from tests.ratings.helpers import finished_game

T0 = datetime(2026, 3, 12, 9, 0, tzinfo=UTC)


def test_no_game_draws_no_chart():
    assert rating_chart("Le Carge", 1500.0, []) is None


def test_one_game_draws_a_line_from_the_start_to_its_result():
    chart = rating_chart("Le Carge", 1500.0, [(T0, 1662.3)])
    # one instant: the start at the left edge, the game at the right; 1500 is the
    # bottom (8 + 144), 1662 the top (8)
    assert chart.points == "8.0,152.0 592.0,8.0"
    assert chart.dots == "M592.0,8.0h0"  # the game has a dot, the start none
    assert (chart.low, chart.high) == (1500, 1662)
    assert chart.first == chart.last == T0
    assert chart.title == ("Le Carge rating history: from 1500 to 1662, between 1500 and 1662")


def test_an_unchanged_rating_draws_a_level_line():
    chart = rating_chart("Rococo", 1500.0, [(T0, 1500.0)])
    assert chart.points == "8.0,80.0 592.0,80.0"  # halfway up: 8 + 144 / 2
    assert chart.title == "Rococo rating history: from 1500 to 1500, between 1500 and 1500"


def test_the_start_steps_up_at_the_first_games_time():
    history = [(T0, 1600.0), (T0 + timedelta(hours=2), 1550.0)]
    chart = rating_chart("Le Carge", 1500.0, history)
    # x by time: both first points at the left edge; y: 1500 bottom, 1600 top, 1550 middle
    assert chart.points == "8.0,152.0 8.0,8.0 592.0,80.0"
    assert chart.dots == "M8.0,8.0h0 M592.0,80.0h0"
    assert chart.title == ("Le Carge rating history: from 1500 to 1550, between 1500 and 1600")


def test_a_profile_with_one_rated_game_draws_a_line(client, alice, bob):
    game = finished_game(alice, bob, "white")
    change = RatingChange.objects.get(game=game, user=alice)
    assert change.before == 1500.0 and change.after > 1500.0
    page = client.get("/@/alice").content.decode()
    assert re.search(r'<polyline points="8\.0,152\.0 592\.0,8\.0"', page)
    after = round(change.after)
    assert (
        f"Le Carge rating history: from 1500 to {after}, between 1500 and {after}</title>"
    ) in page
    assert f"Le Carge · 1500–{after} ·" in page


def test_the_caption_gives_one_date_for_games_of_one_day(client, alice, bob):
    finished_game(alice, bob, "white", when=T0)
    page = client.get("/@/alice").content.decode()
    caption = re.search(r"<figcaption>([^<]+)</figcaption>", page).group(1)
    assert caption.endswith("· 03/12/2026") and " – " not in caption
    finished_game(alice, bob, "white", when=T0 + timedelta(days=2))
    page = client.get("/@/alice").content.decode()
    caption = re.search(r"<figcaption>([^<]+)</figcaption>", page).group(1)
    assert caption.endswith("· 03/12/2026 – 03/14/2026")
