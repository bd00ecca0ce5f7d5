"""The challenge form (/challenge/new/), the challenge link page and its buttons."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Challenge, Game
from tests.games.game_utils import words
from tests.helpers import text

# What a browser sends for a Carolo challenge with the form's defaults.
BASE = {"game": "carolo", "days_per_move": "3", "mode": "rated", "color": "random"}


def post_new(client, **fields):
    data = {**BASE, **{k.replace("__", "."): v for k, v in fields.items()}}
    return client.post("/challenge/new/", data)


def open_challenge(user, **kwargs):
    kwargs.setdefault("variant", "carolo")
    return services.create_challenge(user, **kwargs)


# -- the form -------------------------------------------------------------------------


def test_it_asks_visitors_to_log_in_before_challenging(client, db):
    r = client.get("/challenge/new/")
    assert r.status_code == 302
    assert r["Location"].startswith("/accounts/login/?next=/challenge/new/")


def test_it_offers_the_five_games_with_their_titles(client_alice):
    page = text(client_alice.get("/challenge/new/"))
    for key, title in [
        ("carolo", "Le Carolo"),
        ("carge", "Le Carge"),
        ("rococo", "Rococo"),
        ("shuuro", "Shuuro"),
        ("shuuro-mini", "Mini-Shuuro"),
    ]:
        assert f'<option value="{key}"' in page
        assert f"Options of {title}" in page  # every game's: the style shows the chosen one


def test_it_fills_in_the_opponent_from_the_link(client_alice, bob):
    page = text(client_alice.get("/challenge/new/?opponent=bob"))
    assert 'name="opponent" value="bob"' in page


def test_a_refused_form_still_holds_every_games_options(client_alice):
    # The page's style shows the chosen game's options; after a refusal the player
    # may still choose another game, so its options must be there too.
    r = post_new(client_alice, game="shuuro-mini", opponent="zed")
    assert r.status_code == 400
    page = text(r)
    assert '<option value="shuuro-mini" selected>' in page
    for title in ("Le Carolo", "Le Carge", "Rococo", "Shuuro", "Mini-Shuuro"):
        assert f"Options of {title}" in page
    assert len(edge_checkboxes(page)) == 40


def test_each_carge_layout_field_is_marked_with_its_layout(client_alice):
    page = text(client_alice.get("/challenge/new/"))
    assert re.search(
        r'<div data-layout="preset"> <div class="field"><label for="id_carge\.preset"', page
    )
    assert re.search(r'<div class="field" data-layout="random"><label for="id_carge\.count"', page)
    assert '<div class="field edge-editor-field" data-layout="drawn">' in page


def test_it_creates_an_open_challenge_and_shows_its_link(client_alice, alice):
    r = post_new(client_alice)
    challenge = Challenge.objects.get()
    assert r.status_code == 302
    assert r["Location"] == f"/challenge/{challenge.token}/"
    assert challenge.challenger == alice and challenge.opponent is None
    assert (challenge.variant, challenge.options) == ("carolo", {})
    assert (challenge.days_per_move, challenge.rated, challenge.color) == (3, True, "random")
    page = text(client_alice.get(r["Location"]))
    assert f'value="http://testserver/challenge/{challenge.token}/"' in page


def test_it_creates_a_challenge_to_a_named_player(client_alice, bob):
    post_new(client_alice, opponent="Bob", color="black", days_per_move="7")
    challenge = Challenge.objects.get()
    assert challenge.opponent == bob
    assert (challenge.color, challenge.days_per_move) == ("black", 7)


def test_it_lets_you_challenge_the_bot_of_the_game(client_alice):
    post_new(client_alice, opponent="carolo-bot")
    challenge = Challenge.objects.get()
    assert challenge.opponent.username == "carolo-bot" and challenge.status == "accepted"


def test_it_refuses_a_bot_that_does_not_play_the_game(client_alice):
    response = client_alice.post(
        "/challenge/new/",
        {
            "game": "carolo",
            "days_per_move": "3",
            "mode": "rated",
            "color": "white",
            "opponent": "rococo-bot",
        },
    )
    assert response.status_code == 400 and "rococo-bot does not play this game" in text(response)
    assert not Challenge.objects.exists()


def test_unlimited_time_is_allowed_for_a_casual_game(client_alice):
    post_new(client_alice, days_per_move="unlimited", mode="casual")
    challenge = Challenge.objects.get()
    assert (challenge.days_per_move, challenge.rated) == (None, False)


def test_it_stores_the_shuuro_variants_chosen(client_alice):
    post_new(
        client_alice,
        game="shuuro-mini",
        **{
            "shuuro-mini__budget": "300",
            "shuuro-mini__limits": "on",  # the "No limits" box
            "shuuro-mini__scouts": "on",
            "shuuro-mini__jungle": "3",
            "shuuro-mini__castle": "on",
            "shuuro-mini__serious": "on",
        },
    )
    challenge = Challenge.objects.get()
    assert challenge.variant == "shuuro-mini"
    assert challenge.options == {
        "budget": "300",
        "limits": "off",
        "scouts": "on",
        "jungle": "3",
        "castle": "on",
        "serious": "on",
    }


def test_standard_shuuro_stores_no_options(client_alice):
    post_new(client_alice, game="shuuro", shuuro__budget="800", shuuro__jungle="2")
    assert Challenge.objects.get().options == {}


def test_only_the_chosen_games_options_are_used(client_alice):
    # The page sends every game's fields; the others' are ignored, faults included.
    post_new(
        client_alice,
        game="rococo",
        carge__layout="preset",
        carge__preset="maze",
        carge__count="99",
        shuuro__jungle="5",
    )
    assert Challenge.objects.get().options == {}


# A value each of Le Carge's layout fields refuses.
FAULTY_LAYOUT = {"carge.preset": "nowhere", "carge.count": "99", "carge.edges": ["a1n", "x9n"]}


@pytest.mark.parametrize(
    ("layout", "field", "value", "barriers"),
    [
        ("preset", "carge.preset", "maze", "maze"),
        ("random", "carge.count", "4", "random:4"),
        ("drawn", "carge.edges", ["c3e", "b2n"], "b2n,c3e"),
    ],
)
def test_only_the_chosen_carge_layouts_field_is_read(client_alice, layout, field, value, barriers):
    # The page hides the other layouts' fields but sends them: faults there do not count.
    data = {**BASE, "game": "carge", "carge.layout": layout, **FAULTY_LAYOUT, field: value}
    r = client_alice.post("/challenge/new/", data)
    assert r.status_code == 302
    assert Challenge.objects.get().options == {"barriers": barriers}


def test_it_stores_a_carge_preset_and_the_barrier_rule(client_alice):
    post_new(
        client_alice,
        game="carge",
        carge__layout="preset",
        carge__preset="maze",
        carge__barrier_rule="on",
    )
    assert Challenge.objects.get().options == {"barriers": "maze", "barrier_rule": "on"}


def test_it_stores_a_random_carge_layout_with_its_count(client_alice):
    post_new(client_alice, game="carge", carge__layout="random", carge__count="10")
    assert Challenge.objects.get().options == {"barriers": "random:10"}


def test_it_refuses_more_than_sixteen_random_barriers(client_alice):
    r = post_new(client_alice, game="carge", carge__layout="random", carge__count="17")
    assert r.status_code == 400
    assert "Ensure this value is less than or equal to 16." in text(r)
    assert not Challenge.objects.exists()


def edge_checkboxes(page):
    return re.findall(r'name="carge\.edges" value="(\w+)"', page)


def test_the_carge_editor_lays_the_edges_out_between_the_squares(client_alice):
    page = text(client_alice.get("/challenge/new/"))
    edges = edge_checkboxes(page)
    assert len(edges) == len(set(edges)) == 40
    # Read like the board, rank 5 at the top: first the four edges between the
    # squares of rank 5 (a5|b5 ... d5|e5), then the five between ranks 4 and 5.
    assert edges[:4] == ["a5e", "b5e", "c5e", "d5e"]
    assert edges[4:9] == ["a4n", "b4n", "c4n", "d4n", "e4n"]
    assert edges[-4:] == ["a1e", "b1e", "c1e", "d1e"]
    assert edges[-9:-4] == ["a1n", "b1n", "c1n", "d1n", "e1n"]
    assert 'value="c3e" aria-label="Barrier between c3 and d3"' in page
    assert 'value="b2n" aria-label="Barrier between b2 and b3"' in page


def test_the_carge_editor_gives_the_barriers_ticked(client_alice):
    post_new(client_alice, game="carge", carge__layout="drawn", carge__edges=["c3e", "b2n"])
    assert Challenge.objects.get().options == {"barriers": "b2n,c3e"}


def test_the_carge_editor_keeps_the_ticks_when_refused(client_alice):
    r = post_new(
        client_alice,
        game="carge",
        carge__layout="drawn",
        carge__edges=["a1n", "a1e"],
        opponent="zed",
    )
    assert re.search(r'value="a1n" aria-label="[^"]+" checked', text(r))


def test_it_refuses_a_drawn_layout_that_encloses_a_square(client_alice):
    # Barriers north and east of a1 shut the corner off.
    r = post_new(client_alice, game="carge", carge__layout="drawn", carge__edges=["a1n", "a1e"])
    assert r.status_code == 400
    assert "the barriers enclose a1" in text(r)
    assert not Challenge.objects.exists()


def test_it_refuses_a_bad_carolo_fen_with_the_engines_message(client_alice):
    r = post_new(client_alice, carolo__fen="not a position")
    assert r.status_code == 400
    assert "fen:" in text(r)
    assert not Challenge.objects.exists()


def test_a_french_player_reads_the_engines_fen_error_in_french(client_alice):
    client_alice.cookies["django_language"] = "fr"
    r = post_new(client_alice, carolo__fen="not a position")
    assert r.status_code == 400
    assert (
        "fen : une FEN du Carolo a 4 champs (plateau, camp au trait, cases de Ney, numéro du"
        " coup), et non 3 : 'not a position'"
    ) in text(r)


def test_it_takes_a_carolo_start_position(client_alice):
    fen = "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"
    post_new(client_alice, carolo__fen=fen)
    assert Challenge.objects.get().options == {"fen": fen}


FORGED = [
    ({"game": "chess"}, "Select a valid choice. chess is not one of the available choices."),
    ({"game": "shuuro", "shuuro.jungle": "5"}, "Select a valid choice. 5 is not one"),
    ({"game": "shuuro", "shuuro.budget": "lots"}, "budget must be a whole number"),
    ({"carolo.colour": "pink"}, "Unknown option colour for Le Carolo."),
    ({"game": "carge", "carge.layout": "spiral"}, "Select a valid choice. spiral is not one"),
    (
        {"game": "carge", "carge.layout": "preset", "carge.preset": "nowhere"},
        "Select a valid choice. nowhere is not one",
    ),
    ({"days_per_move": "4"}, "Select a valid choice. 4 is not one of the available choices."),
    ({"days_per_move": "unlimited"}, "Games without a time limit can only be casual."),
    ({"color": "green"}, "Select a valid choice. green is not one of the available choices."),
    ({"mode": "ranked"}, "Select a valid choice. ranked is not one"),
    ({"opponent": "alice"}, "You cannot challenge yourself."),
    ({"opponent": "zed"}, "There is no player called zed."),
]


@pytest.mark.parametrize(("fields", "message"), FORGED)
def test_it_refuses_a_forged_form_and_creates_nothing(client_alice, fields, message):
    r = client_alice.post("/challenge/new/", {**BASE, **fields})
    assert r.status_code == 400
    assert message in text(r)
    assert not Challenge.objects.exists()


# -- the challenge page -----------------------------------------------------------------


def test_a_visitor_with_the_link_is_asked_to_log_in_and_come_back(client, alice):
    challenge = open_challenge(alice)
    page = text(client.get(f"/challenge/{challenge.token}/"))
    assert "Le Carolo challenge by alice" in page
    assert f'href="/accounts/login/?next=/challenge/{challenge.token}/"' in page
    assert "/accept/" not in page


def test_an_unknown_link_is_not_found(client_alice):
    assert client_alice.get("/challenge/nosuchtoken1/").status_code == 404


def test_the_challenger_may_cancel_but_not_accept(client_alice, alice):
    challenge = open_challenge(alice)
    page = text(client_alice.get(f"/challenge/{challenge.token}/"))
    assert f'action="/challenge/{challenge.pk}/cancel/"' in page
    assert "/accept/" not in page and "/decline/" not in page


def test_the_challenged_player_may_accept_or_decline(client, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    client.force_login(bob)
    page = text(client.get(f"/challenge/{challenge.token}/"))
    assert f'action="/challenge/{challenge.pk}/accept/"' in page
    assert f'action="/challenge/{challenge.pk}/decline/"' in page
    assert "/cancel/" not in page


def test_a_stranger_gets_no_buttons_on_a_challenge_to_someone_else(client, alice, bob, charlie):
    challenge = open_challenge(alice, opponent=bob)
    client.force_login(charlie)
    page = text(client.get(f"/challenge/{challenge.token}/"))
    assert "/accept/" not in page and "/decline/" not in page and "/cancel/" not in page


def test_the_page_previews_a_carge_layout(client_alice, alice):
    challenge = open_challenge(alice, variant="carge", options={"barriers": "b2n"})
    page = text(client_alice.get(f"/challenge/{challenge.token}/"))
    assert 'aria-label="b3, empty, barrier towards b2"' in page


@pytest.mark.parametrize("written", ["-", ""])
def test_an_empty_barrier_list_is_shown_as_the_open_field(client_alice, alice, written):
    # The API takes the engine's option text as it is; "-" or nothing is no barrier.
    challenge = open_challenge(alice, variant="carge", options={"barriers": written})
    page = text(client_alice.get(f"/challenge/{challenge.token}/"))
    assert "Open field" in page
    assert 'aria-label="b3, empty"' in page and "barrier towards" not in page


# -- accept, decline, cancel -----------------------------------------------------------


def test_accepting_via_the_link_starts_a_game_and_opens_it(client, alice, bob):
    challenge = open_challenge(alice)
    client.force_login(bob)
    r = client.post(f"/challenge/{challenge.pk}/accept/")
    game = Game.objects.get()
    assert r.status_code == 302
    assert r["Location"] == f"/game/{game.pk}/"
    assert {game.white, game.black} == {alice, bob}
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == ("accepted", game)


def test_it_refuses_accepting_your_own_challenge(client_alice, alice):
    challenge = open_challenge(alice)
    r = client_alice.post(f"/challenge/{challenge.pk}/accept/")
    assert r.status_code == 403
    assert "You cannot accept your own challenge." in text(r)
    assert not Game.objects.exists()
    assert Challenge.objects.get().status == "open"


def test_only_the_addressed_player_can_accept_a_named_challenge(client, alice, bob, charlie):
    challenge = open_challenge(alice, opponent=bob)
    client.force_login(charlie)
    r = client.post(f"/challenge/{challenge.pk}/accept/")
    assert r.status_code == 403
    assert "This challenge is addressed to another player." in text(r)
    assert challenge.token not in text(r)  # a stranger does not learn the link
    assert not Game.objects.exists()


def test_a_stranger_cannot_cancel(client, alice, charlie):
    challenge = open_challenge(alice)
    client.force_login(charlie)
    r = client.post(f"/challenge/{challenge.pk}/cancel/")
    assert r.status_code == 403
    assert "Only the challenger can cancel." in text(r)
    assert Challenge.objects.get().status == "open"


def test_a_stranger_cannot_decline(client, alice, bob, charlie):
    challenge = open_challenge(alice, opponent=bob)
    client.force_login(charlie)
    r = client.post(f"/challenge/{challenge.pk}/decline/")
    assert r.status_code == 403
    assert "Only the challenged player can decline." in text(r)
    assert Challenge.objects.get().status == "open"


def test_the_challenger_cancels(client_alice, alice):
    challenge = open_challenge(alice)
    r = client_alice.post(f"/challenge/{challenge.pk}/cancel/", {"next": "/lobby/"})
    assert (r.status_code, r["Location"]) == (302, "/lobby/")
    assert Challenge.objects.get().status == "cancelled"


def test_the_challenged_player_declines(client, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    client.force_login(bob)
    r = client.post(f"/challenge/{challenge.pk}/decline/", follow=True)
    assert "Challenge declined." in text(r)
    assert Challenge.objects.get().status == "declined"


def test_it_does_not_redirect_to_another_site(client_alice, alice):
    challenge = open_challenge(alice)
    r = client_alice.post(f"/challenge/{challenge.pk}/cancel/", {"next": "https://evil.example/"})
    assert r["Location"] == "/"


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_a_closed_challenge_cannot_be_accepted(client, alice, bob, action):
    challenge = open_challenge(alice, opponent=bob)
    getattr(services, f"{action}_challenge")(bob if action == "decline" else alice, challenge.pk)
    client.force_login(bob)
    r = client.post(f"/challenge/{challenge.pk}/accept/")
    assert r.status_code == 409
    assert "This challenge is no longer open." in text(r)
    assert not Game.objects.exists()


def test_the_page_says_yes_or_no_for_a_switch(client_alice, alice):
    carge = open_challenge(alice, variant="carge", options={"barrier_rule": "on"})
    assert "Barrier rule yes" in words(client_alice.get(f"/challenge/{carge.token}/"))
    shuuro = open_challenge(alice, variant="shuuro", options={"scouts": "on", "castle": "off"})
    page = words(client_alice.get(f"/challenge/{shuuro.token}/"))
    assert " on " not in page and " off " not in page
    assert page.count(" yes ") == 1 and page.count(" no ") == 1


def test_a_challenge_of_a_player_since_deactivated_is_neither_shown_nor_accepted(
    client, alice, bob, charlie
):
    to_anyone = open_challenge(charlie, variant="carge")
    to_bob = open_challenge(charlie, opponent=bob)
    charlie.is_active = False
    charlie.save()
    client.force_login(bob)
    assert "charlie" not in text(client.get("/lobby/")) and "charlie" not in text(client.get("/"))
    for challenge in (to_anyone, to_bob):
        r = client.post(f"/challenge/{challenge.pk}/accept/")
        assert r.status_code == 409 and "This challenge is no longer open." in text(r)
    assert not Game.objects.exists()


def test_a_challenge_to_anyone_expires_with_the_lobby_s_thirty_days(client, alice, bob):
    now = timezone.now()
    old = open_challenge(alice, now=now - timedelta(days=31))
    named = open_challenge(alice, opponent=bob, now=now - timedelta(days=31))
    client.force_login(bob)
    page = text(client.get(f"/challenge/{old.token}/"))
    assert "This challenge has expired" in page and "Accept" not in page
    r = client.post(f"/challenge/{old.pk}/accept/")
    assert r.status_code == 409 and "This challenge is no longer open." in text(r)
    assert not Game.objects.exists()
    client.force_login(alice)  # its challenger may still clear it away
    assert "Cancel the challenge" in text(client.get(f"/challenge/{old.token}/"))
    client.force_login(bob)
    # one addressed to bob waits for his answer, however long
    assert client.post(f"/challenge/{named.pk}/accept/").status_code == 302
    assert Game.objects.count() == 1


def test_an_accepted_challenge_cannot_be_accepted_twice(client, alice, bob, charlie):
    challenge = open_challenge(alice)
    services.accept_challenge(bob, challenge.pk)
    client.force_login(charlie)
    assert client.post(f"/challenge/{challenge.pk}/accept/").status_code == 409
    assert Game.objects.count() == 1


def test_a_missing_challenge_is_reported(client_alice):
    r = client_alice.post("/challenge/999/accept/")
    assert r.status_code == 404
    assert "No such challenge." in text(r)


def test_answers_must_be_posted(client_alice, alice):
    challenge = open_challenge(alice)
    assert client_alice.get(f"/challenge/{challenge.pk}/cancel/").status_code == 405
    assert Challenge.objects.get().status == "open"


def test_visitors_must_log_in_to_accept(client, alice):
    challenge = open_challenge(alice)
    r = client.post(f"/challenge/{challenge.pk}/accept/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    assert not Game.objects.exists()


def test_an_htmx_accept_is_sent_on_to_the_game(client, alice, bob):
    challenge = open_challenge(alice)
    client.force_login(bob)
    r = client.post(f"/challenge/{challenge.pk}/accept/", HTTP_HX_REQUEST="true")
    assert r["HX-Redirect"] == f"/game/{Game.objects.get().pk}/"


def test_an_htmx_cancel_is_sent_back_to_the_page(client_alice, alice):
    challenge = open_challenge(alice)
    r = client_alice.post(
        f"/challenge/{challenge.pk}/cancel/", {"next": "/lobby/"}, HTTP_HX_REQUEST="true"
    )
    assert r["HX-Redirect"] == "/lobby/"
    assert Challenge.objects.get().status == "cancelled"


# -- the open challenge page follows what happens to it --------------------------------


def poll(client, challenge):
    return client.get(f"/challenge/{challenge.token}/poll", HTTP_HX_REQUEST="true")


def test_the_open_page_polls_and_tells_the_challenger_it_waits(client_alice, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    page = text(client_alice.get(f"/challenge/{challenge.token}/"))
    assert f'hx-get="/challenge/{challenge.token}/poll" hx-trigger="every 3s"' in page
    assert 'aria-live="polite"' in page
    assert "Waiting for bob to accept…" in page


def test_an_open_challenge_to_anyone_waits_for_someone(client_alice, alice):
    challenge = open_challenge(alice)
    assert "Waiting for someone to accept…" in text(
        client_alice.get(f"/challenge/{challenge.token}/")
    )


def test_a_closed_challenge_page_does_not_poll(client_alice, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    services.decline_challenge(bob, challenge.pk)
    page = text(client_alice.get(f"/challenge/{challenge.token}/"))
    assert "/poll" not in page
    assert "bob declined this challenge." in page


def test_the_poll_answers_nothing_while_the_challenge_is_open(
    client_alice, alice, bob, django_assert_num_queries
):
    challenge = open_challenge(alice, opponent=bob)
    with django_assert_num_queries(3):  # session, user, the challenge's row
        r = poll(client_alice, challenge)
    assert (r.status_code, r.content) == (204, b"")
    assert "HX-Redirect" not in r


@pytest.mark.parametrize("named", [True, False])
def test_after_the_accept_the_poll_sends_both_players_to_the_game(client, alice, bob, named):
    challenge = open_challenge(alice, opponent=bob if named else None)
    game = services.accept_challenge(bob, challenge.pk)
    for player in (alice, bob):
        client.force_login(player)
        r = poll(client, challenge)
        assert r.status_code == 204
        assert r["HX-Redirect"] == f"/game/{game.pk}/"


def test_after_a_decline_the_poll_shows_the_declined_status(client_alice, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    services.decline_challenge(bob, challenge.pk)
    r = poll(client_alice, challenge)
    page = text(r)
    assert r.status_code == 286  # htmx stops polling
    assert "HX-Redirect" not in r
    assert "bob declined this challenge." in page
    assert '<span id="challenge-status" hx-swap-oob="true">Declined</span>' in page
    assert "/cancel/" not in page and "/poll" not in page and "<html" not in page


def test_after_a_cancel_the_opponents_poll_shows_it(client, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    services.cancel_challenge(alice, challenge.pk)
    client.force_login(bob)
    r = poll(client, challenge)
    assert r.status_code == 286
    assert "alice cancelled this challenge." in text(r)
    assert "/accept/" not in text(r) and "/decline/" not in text(r)


@pytest.mark.parametrize("who", ["charlie", "visitor"])
def test_a_stranger_polling_an_accepted_challenge_sees_what_the_page_shows(
    client, alice, bob, charlie, who
):
    challenge = open_challenge(alice, opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    if who == "charlie":
        client.force_login(charlie)
    r = poll(client, challenge)
    assert r.status_code == 286 and "HX-Redirect" not in r
    page = text(r)
    assert "The challenge was accepted: the game has begun." in page
    assert f'href="/game/{game.pk}/"' in page  # as the page itself shows anyone with the link
    assert f'href="/game/{game.pk}/"' in text(client.get(f"/challenge/{challenge.token}/"))
    assert "/accept/" not in page and "/decline/" not in page and "/cancel/" not in page


def test_the_poll_needs_the_challenges_link(client_alice, alice):
    challenge = open_challenge(alice)
    assert client_alice.get("/challenge/nosuchtoken1/poll").status_code == 404
    assert client_alice.get(f"/challenge/{challenge.pk}/poll").status_code == 404
    assert client_alice.post(f"/challenge/{challenge.token}/poll").status_code == 405


def test_without_htmx_the_page_still_shows_the_answer(client_alice, alice, bob):
    challenge = open_challenge(alice, opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    r = client_alice.get(f"/challenge/{challenge.token}/")
    page = text(r)
    assert r.status_code == 200 and "<html" in page
    assert '<span id="challenge-status">Accepted</span>' in page
    assert "hx-swap-oob" not in page and "/poll" not in page
    assert f'<a class="button" href="/game/{game.pk}/">Go to the game</a>' in page
