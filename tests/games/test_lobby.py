"""The lobby (/lobby/): open challenges anyone may accept, filtered by game."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from tests.conftest import make_player
from tests.helpers import text


def challenge(user, variant="carolo", **kwargs):
    return services.create_challenge(user, variant=variant, **kwargs)


def test_it_lists_open_challenges_with_an_accept_button(client, alice, bob):
    made = challenge(alice, variant="rococo", days_per_move=7, color="white")
    client.force_login(bob)
    page = text(client.get("/lobby/"))
    assert 'href="/@/alice"' in page
    assert f'href="/challenge/{made.token}/">Rococo</a>' in page
    assert "7 days per move" in page
    assert f'action="/challenge/{made.pk}/accept/"' in page


def test_each_challenge_says_its_options(client_alice, bob):
    challenge(bob, variant="carge", options={"barriers": "maze", "barrier_rule": "on"})
    fen = "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA b c1f1c8f8 1"
    challenge(bob, options={"fen": fen})
    page = text(client_alice.get("/lobby/"))
    assert "Barrier rule: yes · Barriers: Maze" in page
    assert "own start position" in page and fen not in page


def test_it_leaves_out_named_and_closed_challenges(client_alice, alice, bob, charlie):
    to_charlie = challenge(bob, opponent=charlie)
    cancelled = challenge(bob)
    services.cancel_challenge(bob, cancelled.pk)
    accepted = challenge(charlie)
    services.accept_challenge(bob, accepted.pk)
    page = text(client_alice.get("/lobby/"))
    for made in (to_charlie, cancelled, accepted):
        assert made.token not in page
    assert "No open challenges at the moment." in page


def test_it_hides_challenges_older_than_thirty_days(client_alice, bob):
    now = timezone.now()
    old = challenge(bob, now=now - timedelta(days=30, minutes=1))
    recent = challenge(bob, now=now - timedelta(days=29, hours=23))
    page = text(client_alice.get("/lobby/"))
    assert old.token not in page
    assert recent.token in page


def test_your_own_challenge_has_a_cancel_button(client_alice, alice):
    made = challenge(alice)
    page = text(client_alice.get("/lobby/"))
    assert f'action="/challenge/{made.pk}/cancel/"' in page
    assert f'action="/challenge/{made.pk}/accept/"' not in page


def test_a_visitor_sees_the_challenges_and_is_asked_to_log_in(client, alice):
    made = challenge(alice)
    page = text(client.get("/lobby/"))
    assert f'href="/accounts/login/?next=/challenge/{made.token}/"' in page
    assert "/accept/" not in page


def test_it_filters_by_game_with_a_plain_get(client_alice, bob):
    carge = challenge(bob, variant="carge")
    carolo = challenge(bob, variant="carolo")
    page = text(client_alice.get("/lobby/?game=carge"))
    assert carge.token in page
    assert carolo.token not in page
    assert '<option value="carge" selected>' in page


def test_htmx_gets_only_the_filtered_list(client_alice, bob):
    shuuro = challenge(bob, variant="shuuro")
    mini = challenge(bob, variant="shuuro-mini")
    r = client_alice.get("/lobby/?game=shuuro-mini", HTTP_HX_REQUEST="true")
    page = text(r)
    assert page.lstrip().startswith('<section id="challenges"')
    assert mini.token in page
    assert shuuro.token not in page
    assert "<html" not in page


def test_an_unknown_game_filter_is_reported_and_everything_listed(client_alice, bob):
    made = challenge(bob)
    page = text(client_alice.get("/lobby/?game=chess"))
    assert "Select a valid choice. chess is not one of the available choices." in page
    assert made.token in page


def test_accepting_from_the_lobby_starts_the_game(client_alice, alice, bob):
    made = challenge(bob)
    r = client_alice.post(f"/challenge/{made.pk}/accept/")
    made.refresh_from_db()
    assert r["Location"] == f"/game/{made.game_id}/"
    assert {made.game.white, made.game.black} == {alice, bob}


@pytest.mark.parametrize("size", [1, 12])
def test_the_lobby_costs_the_same_queries_whatever_its_size(
    client_alice, django_assert_num_queries, size
):
    for i in range(size):
        challenge(make_player(f"player{i}"), variant="carge")
    # session, user, the challenges with their challengers, those to alice, the header's
    # turn count
    with django_assert_num_queries(5):
        page = text(client_alice.get("/lobby/"))
    assert page.count("/accept/") == size


def test_challenges_to_you_are_listed_apart_with_accept_and_decline(client_alice, alice, bob):
    to_alice = challenge(bob, variant="carge", opponent=alice, days_per_move=2, rated=False)
    page = text(client_alice.get("/lobby/?game=carge"))
    mine = page[page.index("Challenges to you") : page.index("Open challenges")]
    assert f'href="/challenge/{to_alice.token}/">Le Carge from bob</a>' in mine
    assert "2 days per move, casual" in mine
    assert f'action="/challenge/{to_alice.pk}/accept/"' in mine
    assert f'action="/challenge/{to_alice.pk}/decline/"' in mine
    # declining comes back to the lobby, as it was filtered
    assert 'name="next" value="/lobby/?game=carge"' in mine
    assert "No open challenges at the moment." in page  # a named one is not open to all


def test_the_lobby_has_no_challenges_to_you_section_when_there_are_none(client_alice, client):
    assert "Challenges to you" not in text(client_alice.get("/lobby/"))
    client.logout()
    assert "Challenges to you" not in text(client.get("/lobby/"))
