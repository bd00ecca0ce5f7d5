import re
from datetime import timedelta

import pytest
from django.utils import timezone

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


# -- filtering the finished games -------------------------------------------------


def finished_section(response) -> str:
    page = text(response)
    return page[
        page.index('id="finished-games"') : page.index(
            "</section>", page.index('id="finished-games"')
        )
    ]


def game_links(response) -> list[int]:
    return [int(pk) for pk in re.findall(r'href="/game/(\d+)/"', finished_section(response))]


@pytest.fixture
def record(alice, bob, charlie):
    """From alice's side, oldest first: a rated Le Carge win over bob, a rated Le Carge
    loss to bob, a casual Rococo draw with bob, a rated Rococo win over charlie."""
    day = timezone.now() - timedelta(days=10)
    return [
        finished_game(alice, bob, "white", when=day),
        finished_game(bob, alice, "white", when=day + timedelta(days=1)),
        finished_game(alice, bob, "", variant="rococo", rated=False, when=day + timedelta(days=2)),
        finished_game(charlie, alice, "black", variant="rococo", when=day + timedelta(days=3)),
    ]


def test_it_filters_the_finished_games_without_javascript(client, record):
    win, loss, draw, rococo_win = record
    r = client.get("/@/alice?result=won")
    assert r.status_code == 200
    assert game_links(r) == [rococo_win.pk, win.pk]
    assert game_links(client.get("/@/alice?game=carge&rated=rated")) == [loss.pk, win.pk]
    assert game_links(client.get("/@/alice?rated=casual")) == [draw.pk]
    assert game_links(client.get("/@/alice?result=draw&game=carge")) == []
    # the form shows the filters chosen
    page = text(client.get("/@/alice?result=won&game=rococo&opponent=charlie"))
    assert '<option value="won" selected>' in page
    assert '<option value="rococo" selected>' in page
    assert 'name="opponent" value="charlie"' in page


def test_it_says_when_no_game_matches(client, record):
    r = client.get("/@/alice?result=draw&game=carge")
    assert "No finished games match these filters." in finished_section(r)
    assert "No finished games yet." not in finished_section(r)


def test_an_opponent_gives_the_head_to_head(client, record):
    win, loss, draw, _rococo_win = record
    r = client.get("/@/alice?opponent=Bob")
    assert game_links(r) == [draw.pk, loss.pk, win.pk]
    assert "alice against bob: 1 win, 1 draw, 1 loss." in finished_section(r)
    r = client.get("/@/bob?opponent=alice&rated=rated")
    assert "bob against alice: 1 win, 0 draws, 1 loss." in finished_section(r)
    r = client.get("/@/alice?opponent=bob&result=won&game=carge")
    assert game_links(r) == [win.pk]
    assert "alice against bob: 1 win, 0 draws, 1 loss." in finished_section(r)


def test_no_head_to_head_without_an_opponent(client, record):
    assert " against bob: " not in text(client.get("/@/alice?result=won"))


def test_an_unknown_opponent_is_said_so_with_an_empty_list(client, record):
    r = client.get("/@/alice?opponent=nobody")
    assert r.status_code == 200
    assert "No player named “nobody”." in finished_section(r)
    assert game_links(r) == []


def test_the_htmx_request_gets_the_finished_games_only(client, record, django_assert_num_queries):
    win, loss, _draw, _rococo_win = record
    # the player, the opponent, the head-to-head, the count, the page
    with django_assert_num_queries(5):
        r = client.get("/@/alice?opponent=bob&rated=rated", headers={"HX-Request": "true"})
    page = text(r)
    assert page.lstrip().startswith('<section class="profile-finished" id="finished-games"')
    assert "<h1>" not in page and "Ratings" not in page and "Current games" not in page
    assert game_links(r) == [loss.pk, win.pk]
    assert "alice against bob: 1 win, 0 draws, 1 loss." in page
    assert "HX-Request" in r["Vary"]


def test_an_htmx_history_restore_gets_the_whole_page(client, record):
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
    r = client.get("/@/alice?result=won", headers=headers)
    assert "<h1>alice</h1>" in text(r) and "Ratings" in text(r)
    assert game_links(r) == [record[3].pk, record[0].pk]


def test_the_form_updates_the_list_in_place_with_htmx(client, record):
    page = client.get("/@/alice").content.decode()
    form = re.search(r'<form class="games-filter"[^>]*>', page).group(0)
    assert 'method="get"' in form and 'action="/@/alice"' in form
    assert 'hx-get="/@/alice"' in form and 'hx-target="#finished-games"' in form
    assert 'hx-push-url="true"' in form


def test_the_pages_keep_the_filters(client, alice, bob):
    games = play_many([alice, bob], 61)
    # game i: alice is white when i is even; white wins if i % 3 == 0, black if 1; so
    # alice wins games 0, 1, 6, 7, ..., 60: 21 of them, the latest first on the list
    wins = [games[i] for i in range(61) if i % 6 in (0, 1)][::-1]
    assert len(wins) == 21
    first = client.get("/@/alice?result=won&opponent=bob")
    assert game_links(first) == [g.pk for g in wins[:20]]
    assert "Page 1 of 2" in text(first)
    assert 'href="?result=won&amp;opponent=bob&amp;page=2"' in first.content.decode()
    second = client.get("/@/alice?result=won&opponent=bob&page=2")
    assert game_links(second) == [wins[20].pk]
    assert 'href="?result=won&amp;opponent=bob&amp;page=1"' in second.content.decode()


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("game=chess", "Select a valid choice. chess is not one of the available choices."),
        ("result=resigned", "Select a valid choice. resigned is not one of the available"),
        ("rated=maybe", "Select a valid choice. maybe is not one of the available choices."),
        ("opponent=" + "b" * 21, "Ensure this value has at most 20 characters (it has 21)."),
    ],
)
def test_a_bad_filter_is_left_out_and_shown(client, record, query, error):
    r = client.get(f"/@/alice?{query}&page=1")
    assert r.status_code == 200
    assert error in text(r)
    assert game_links(r) == [g.pk for g in reversed(record)]  # every game


def test_a_bad_filter_leaves_the_good_ones(client, record):
    r = client.get("/@/alice?game=chess&result=won&page=abc")
    assert r.status_code == 200
    assert game_links(r) == [record[3].pk, record[0].pk]


def test_a_bad_page_number_with_filters_shows_a_page(client, record):
    for page in ("abc", "999", "-1", "1" * 40):
        r = client.get(f"/@/alice?result=lost&page={page}")
        assert r.status_code == 200 and game_links(r) == [record[1].pk]


def test_another_case_redirects_with_the_filters(client, alice):
    r = client.get("/@/ALICE?result=won&opponent=bob")
    assert r.status_code == 302 and r["Location"] == "/@/alice?result=won&opponent=bob"


def test_a_filtered_list_shows_each_game_as_the_whole_list_does(client, record):
    def rows(response) -> dict[str, str]:
        found = re.findall(r'<li> (.*?href="/game/(\d+)/".*?)</li>', finished_section(response))
        return {pk: row for row, pk in found}

    every = rows(client.get("/@/alice"))
    filtered = rows(client.get("/@/alice?opponent=bob&result=won"))
    assert filtered == {str(record[0].pk): every[str(record[0].pk)]}


@pytest.mark.parametrize("count", [3, 30])
def test_filters_cost_a_fixed_number_of_queries(
    client, alice, bob, charlie, count, django_assert_num_queries
):
    play_many([alice, bob, charlie], count)
    play_many([alice, bob], count, variant="rococo")
    # the 8 of the page (its tournaments one of them), then the opponent and the
    # head-to-head
    with django_assert_num_queries(10):
        r = client.get("/@/alice?game=rococo&result=won&rated=rated&opponent=bob")
    assert r.status_code == 200
