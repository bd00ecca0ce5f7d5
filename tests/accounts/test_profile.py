import re

from tests.helpers import text
from tests.ratings.helpers import finished_game, play_many


def test_it_shows_username_and_member_since(client, alice):
    r = client.get("/@/alice")
    assert r.status_code == 200
    assert "<h1>alice</h1>" in text(r)
    assert "Member since" in text(r)


def test_it_redirects_a_username_in_other_case(client, alice):
    r = client.get("/@/ALICE")
    assert r.status_code == 302
    assert r["Location"] == "/@/alice"


def test_it_404s_for_an_unknown_player(client, db):
    assert client.get("/@/nobody").status_code == 404


def test_it_404s_for_a_deactivated_player(client, charlie):
    charlie.is_active = False
    charlie.save()
    assert client.get("/@/charlie").status_code == 404


def test_the_header_links_to_my_profile(client_alice):
    assert 'class="nav-user" href="/@/alice"' in text(client_alice.get("/@/alice"))


def chart_dots(page: str) -> tuple[list[tuple[float, float]], str]:
    """The chart's point markers (centres in the viewBox) and the markers' element."""
    marker = re.search(r'<path class="rating-points"[^>]*>', page).group(0)
    centres = re.findall(r"M([\d.]+),([\d.]+)h0", re.search(r' d="([^"]+)"', marker).group(1))
    return [(float(x), float(y)) for x, y in centres], marker


def test_a_one_game_rating_history_draws_a_line_to_its_point(client, alice, bob):
    # the line starts at 1500, before the game (bottom left), and rises to the
    # rating after the win (top right), where the game's dot is
    finished_game(alice, bob, "white")
    page = client.get("/@/alice").content.decode()
    assert '<polyline points="8.0,152.0 592.0,8.0"' in page
    dots, marker = chart_dots(page)
    assert dots == [(592.0, 8.0)]
    # a round dot, wider than the line (2) and not stretched with the chart
    assert 'stroke-linecap="round"' in marker and 'stroke="currentColor"' in marker
    assert int(re.search(r'stroke-width="(\d+)"', marker).group(1)) >= 6
    assert 'vector-effect="non-scaling-stroke"' in marker


def test_every_rated_game_has_its_point_on_the_chart(client, alice, bob):
    play_many([alice, bob], 3)
    dots, _marker = chart_dots(client.get("/@/alice").content.decode())
    assert len(dots) == 3
    assert dots[0][0] == 8.0 and dots[-1][0] == 592.0  # the first and last at the edges
