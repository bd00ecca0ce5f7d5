"""Player search by username prefix, as you type (htmx) or as a plain form."""

from accounts.models import User
from tests.helpers import text


def make(*names):
    for name in names:
        User.objects.create_user(name, f"{name}@example.org", "x")


def test_it_finds_prefix_matches_in_any_case(client, db):
    make("Alfred", "alfonso", "ALBA", "bob_al", "xalf")
    page = text(client.get("/players/?q=aLf"))
    assert ">Alfred</a>" in page and ">alfonso</a>" in page
    for absent in ("ALBA", "bob_al", "xalf"):
        assert f">{absent}</a>" not in page


def test_underscore_is_a_letter_not_a_wildcard(client, db):
    make("a_b", "axb")
    page = text(client.get("/players/?q=a_"))
    assert ">a_b</a>" in page and ">axb</a>" not in page


def test_it_returns_at_most_20_sorted(client, db):
    make(*[f"zed{i:02d}" for i in range(25)])
    page = text(client.get("/players/?q=ZED"))
    assert page.count('href="/@/zed') == 20
    assert ">zed00</a>" in page and ">zed20</a>" not in page


def test_an_htmx_request_gets_only_the_results(client, db):
    make("alfred")
    r = client.get("/players/?q=al", headers={"HX-Request": "true"})
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="player-results"')
    assert ">alfred</a>" in body and "<html" not in body


def test_the_page_is_a_plain_get_form(client, db):
    page = text(client.get("/players/"))
    assert 'method="get" action="/players/"' in page and 'name="q"' in page
    assert "No player" not in page


def test_no_match_says_so(client, db):
    assert "No player's name starts with “qq”" in text(client.get("/players/?q=qq"))


def test_deactivated_players_are_not_found(client, db):
    make("ghost")
    User.objects.filter(username="ghost").update(is_active=False)
    assert ">ghost</a>" not in text(client.get("/players/?q=gh"))
