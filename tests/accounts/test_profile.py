from tests.helpers import text


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
