"""Round-robin tournaments (games/tournaments.py, games/tournament_views.py): making,
joining, leaving, cancelling and starting them; the games of a double round robin;
standings with the Sonneborn-Berger tiebreak; the end; the pages."""

from collections import Counter
from datetime import timedelta
from fractions import Fraction

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import blocks
from accounts.models import User
from games import clock, notify, services, tournaments
from games.models import Entry, Game, Tournament
from tests.conftest import make_player
from tests.games.game_utils import client_for
from tests.helpers import text


def make(creator, *, size=4, **terms):
    terms = {"variant": "carolo", "days_per_move": 3, "rated": True, **terms}
    return tournaments.create_tournament(creator, name="Spring cup", max_players=size, **terms)


def game_of(tournament, white, black) -> Game:
    return Game.objects.get(tournament=tournament, white=white, black=black)


@pytest.fixture
def cast(alice, bob, charlie):
    return alice, bob, charlie


@pytest.fixture
def started(cast):
    """alice's tournament of three (room for four), started by her."""
    alice, bob, charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    tournaments.join(charlie, tournament.pk)
    return tournaments.start(alice, tournament.pk)


# -- making and joining -----------------------------------------------------------------------


def test_the_creator_is_its_first_entrant(alice):
    tournament = make(alice, options={"barrier_rule": "on"}, variant="carge", rated=False)
    assert tournament.status == Tournament.Status.OPEN
    assert list(tournament.entries.values_list("player__username", flat=True)) == ["alice"]
    assert (tournament.variant, tournament.options, tournament.rated) == (
        "carge",
        {"barrier_rule": "on"},
        False,
    )


@pytest.mark.parametrize(
    ("terms", "words"),
    [
        ({"variant": "chess"}, "Unknown game"),
        ({"days_per_move": 4}, "Days per move must be one of"),
        ({"days_per_move": None, "rated": True}, "can only be casual"),
        (
            {"variant": "shuuro-mini", "options": {"budget": "lots"}},
            "budget must be a whole number",
        ),
        ({"size": 2}, "room for 3 to 10 players"),
        ({"size": 11}, "room for 3 to 10 players"),
    ],
)
def test_terms_are_checked_as_a_challenges_are(alice, terms, words):
    with pytest.raises(services.GameError, match=words):
        make(alice, **terms)
    assert not Tournament.objects.exists()


def test_a_name_is_needed(alice):
    with pytest.raises(services.GameError, match="needs a name"):
        tournaments.create_tournament(alice, name="   ", variant="carolo")


def test_players_join_once(cast):
    alice, bob, _charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    with pytest.raises(services.Conflict, match="already playing"):
        tournaments.join(bob, tournament.pk)
    with pytest.raises(services.Conflict, match="already playing"):
        tournaments.join(alice, tournament.pk)
    assert tournament.entries.count() == 2


@pytest.mark.parametrize("forged", ["x", "0", "-3", str(2**70), "999999"])
def test_forged_ids_name_no_tournament(alice, forged):
    for action in (tournaments.join, tournaments.leave, tournaments.cancel, tournaments.start):
        with pytest.raises(services.NotFound):
            action(alice, forged)


def test_bots_do_not_play_in_tournaments(alice):
    tournament = make(alice)
    bot = User.objects.create_user("robot", "robot@example.org", is_bot=True)
    with pytest.raises(services.Forbidden, match="Bots do not play in tournaments"):
        tournaments.join(bot, tournament.pk)
    with pytest.raises(services.Forbidden, match="Bots do not play in tournaments"):
        make(bot)


def test_a_player_blocked_by_an_entrant_cannot_join(cast):
    alice, bob, charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    blocks.block(bob, charlie)
    with pytest.raises(services.Forbidden, match="bob, who plays in this tournament, has blocked"):
        tournaments.join(charlie, tournament.pk)
    assert not tournament.entries.filter(player=charlie).exists()


def test_a_player_who_blocked_an_entrant_cannot_join(cast):
    alice, bob, charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    blocks.block(charlie, alice)
    with pytest.raises(services.Forbidden, match="You have blocked alice"):
        tournaments.join(charlie, tournament.pk)


def test_a_player_is_in_five_tournaments_at_most(cast):
    alice, bob, _charlie = cast
    made = [make(alice) for _ in range(tournaments.MAX_TOURNAMENTS)]
    with pytest.raises(services.TooMany, match="5 tournaments"):
        make(alice)
    other = make(bob)
    with pytest.raises(services.TooMany):
        tournaments.join(alice, other.pk)
    tournaments.cancel(alice, made[0].pk)  # a place again
    tournaments.join(alice, other.pk)


def test_a_finished_tournament_no_longer_counts(cast):
    alice, bob, charlie = cast
    for _ in range(tournaments.MAX_TOURNAMENTS):
        tournament = make(alice, size=3)
        tournaments.join(bob, tournament.pk)
        Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    make(alice)  # none open or running


def test_open_challenges_do_not_count_against_tournaments(cast, monkeypatch):
    """A tournament is not a challenge: the challenge caps leave it alone."""
    alice, bob, _charlie = cast
    monkeypatch.setattr(services, "MAX_OPEN_CHALLENGES", 1)
    services.create_challenge(alice, variant="carolo")
    with pytest.raises(services.TooMany):
        services.create_challenge(alice, variant="carolo")
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)


# -- leaving and cancelling -------------------------------------------------------------------


def test_a_player_leaves_before_the_start(cast):
    alice, bob, _charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    tournaments.leave(bob, tournament.pk)
    assert list(tournament.entries.values_list("player__username", flat=True)) == ["alice"]
    with pytest.raises(services.Conflict, match="not playing"):
        tournaments.leave(bob, tournament.pk)


def test_the_creator_cannot_leave(alice):
    tournament = make(alice)
    with pytest.raises(services.Forbidden, match="cancel it instead"):
        tournaments.leave(alice, tournament.pk)


def test_nobody_leaves_once_started(started, cast):
    with pytest.raises(services.Conflict, match="can no longer leave"):
        tournaments.leave(cast[1], started.pk)


def test_only_the_creator_cancels_and_only_before_the_start(cast):
    alice, bob, charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    with pytest.raises(services.Forbidden, match="Only the tournament’s creator can cancel"):
        tournaments.cancel(bob, tournament.pk)
    tournaments.cancel(alice, tournament.pk)
    assert not Tournament.objects.exists() and not Entry.objects.exists()
    again = make(alice)
    tournaments.join(bob, again.pk)
    tournaments.join(charlie, again.pk)
    tournaments.start(alice, again.pk)
    with pytest.raises(services.Conflict, match="can no longer be cancelled"):
        tournaments.cancel(alice, again.pk)


# -- the start --------------------------------------------------------------------------------


def test_only_the_creator_starts_it_with_three_players_or_more(cast):
    alice, bob, charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    with pytest.raises(services.Forbidden, match="Only the tournament’s creator can start"):
        tournaments.start(bob, tournament.pk)
    with pytest.raises(services.Conflict, match="at least 3 players"):
        tournaments.start(alice, tournament.pk)
    tournaments.join(charlie, tournament.pk)
    tournaments.start(alice, tournament.pk)
    with pytest.raises(services.Conflict, match="started already"):
        tournaments.start(alice, tournament.pk)
    dave = make_player("dave")
    with pytest.raises(services.Conflict, match="takes no more players"):
        tournaments.join(dave, tournament.pk)


def test_the_start_makes_a_double_round_robin(cast):
    """4 players: 4 × 3 = 12 games, each ordered pair (white, black) once, on the
    tournament's terms."""
    alice, bob, charlie = cast
    dave = make_player("dave")
    now = timezone.now()
    tournament = make(alice, size=5, variant="shuuro-mini", rated=False, days_per_move=7)
    for player in (bob, charlie, dave):
        tournaments.join(player, tournament.pk)
    tournaments.start(alice, tournament.pk, now=now)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.started_at) == ("running", now)
    games = list(Game.objects.filter(tournament=tournament))
    assert len(games) == 12
    pairs = Counter((g.white.username, g.black.username) for g in games)
    names = ["alice", "bob", "charlie", "dave"]
    assert pairs == Counter({(w, b): 1 for w in names for b in names if w != b})
    for game in games:
        assert (game.variant, game.rated, game.days_per_move, game.status) == (
            "shuuro-mini",
            False,
            7,
            "active",
        )
        assert game.deadline == now + timedelta(days=7)
    colours = Counter(g.white.username for g in games)
    assert set(colours.values()) == {3}  # each player has White in 3 games, Black in 3


def test_the_last_place_starts_it(cast):
    alice, bob, charlie = cast
    tournament = make(alice, size=3, variant="shuuro", options={"castle": "on"})
    tournaments.join(bob, tournament.pk)
    assert not Game.objects.exists()
    tournaments.join(charlie, tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "running"
    games = Game.objects.filter(tournament=tournament)
    assert games.count() == 6
    assert all(g.options == {"castle": "on"} and g.rated for g in games)
    with pytest.raises(services.Conflict):
        tournaments.join(make_player("dave"), tournament.pk)


def test_each_player_gets_one_email_for_all_their_new_games(cast):
    """5 players: each has 8 new games, White (to move first) in 4 of them; the turn
    rows are due together, so each player gets one digest of 4 games, not 4 e-mails
    (and, apart, all but erin who filled it the news of the start)."""
    cache.clear()  # no one looking at a game (games.presence) left by another test
    alice, bob, charlie = cast
    others = [bob, charlie, make_player("dave"), make_player("erin")]
    tournament = make(alice, size=5)
    for player in others:
        tournaments.join(player, tournament.pk)
    assert Game.objects.filter(tournament=tournament).count() == 20
    mail.outbox.clear()
    notify.deliver_due()
    turns = [m for m in mail.outbox if not m.subject.endswith("has started")]
    assert sorted(m.to[0] for m in turns) == sorted(
        f"{name}@example.org" for name in ["alice", "bob", "charlie", "dave", "erin"]
    )
    subjects = [m.subject for m in turns]
    assert all("4 games await your move" in subject for subject in subjects), subjects


# -- standings --------------------------------------------------------------------------------


def test_standings_worked_example(started, cast):
    """alice, bob, charlie; the six games:
        alice (W) - bob      1-0  (bob resigns)
        bob (W) - alice      ½-½  (agreed)
        alice (W) - charlie  0-1  (alice resigns)
        charlie (W) - alice  0-1  (charlie resigns)
        bob (W) - charlie    1-0  (charlie resigns)
        charlie (W) - bob    aborted: not played
    Points: alice 1 + ½ + 0 + 1 = 2½ (4 played: 2 W, 1 D, 1 L); bob 0 + ½ + 1 = 1½
    (3 played); charlie 1 + 0 + 0 = 1 (3 played).
    Sonneborn-Berger, per game: alice beat bob (1½) + drew bob (½ × 1½ = ¾) + beat
    charlie (1) = 3¼; bob drew alice (½ × 2½ = 1¼) + beat charlie (1) = 2¼; charlie
    beat alice (2½) = 2½."""
    alice, bob, charlie = cast
    t = started
    services.resign(bob, game_of(t, alice, bob).pk)
    draw = game_of(t, bob, alice).pk
    services.draw_action(bob, draw, "offer")
    services.draw_action(alice, draw, "accept")
    services.resign(alice, game_of(t, alice, charlie).pk)
    services.resign(charlie, game_of(t, charlie, alice).pk)
    services.resign(charlie, game_of(t, bob, charlie).pk)
    services.abort(charlie, game_of(t, charlie, bob).pk)

    rows = tournaments.standings(t)
    got = [
        (
            r.rank,
            r.player.username,
            r.played,
            r.wins,
            r.draws,
            r.losses,
            r.points,
            r.sonneborn_berger,
        )
        for r in rows
    ]
    assert got == [
        (1, "alice", 4, 2, 1, 1, Fraction(5, 2), Fraction(13, 4)),
        (2, "bob", 3, 1, 1, 1, Fraction(3, 2), Fraction(9, 4)),
        (3, "charlie", 3, 1, 0, 2, Fraction(1), Fraction(5, 2)),
    ]
    t.refresh_from_db()
    assert t.status == "finished"  # the aborted game was the last one to end


def test_sonneborn_berger_breaks_a_tie_before_the_name(started, cast):
    """The six games (White first):
        alice - bob 1-0 (bob resigns),     bob - alice ½-½
        alice - charlie ½-½,               charlie - alice ½-½
        bob - charlie 1-0 (resigns),       charlie - bob 0-1 (resigns)
    Points: alice 1 + ½ + ½ + ½ = 2½; bob 0 + ½ + 1 + 1 = 2½; charlie ½ + ½ = 1.
    Sonneborn-Berger: alice beat bob 2½ + drew bob ½ × 2½ + drew charlie twice
    ½ × 1 × 2 = 4¾; bob drew alice ½ × 2½ = 1¼ + beat charlie twice 1 + 1 = 3¼;
    charlie drew alice twice ½ × 2½ × 2 = 2½.  alice, renamed zoe, is first on
    Sonneborn-Berger although bob comes first by name."""
    alice, bob, charlie = cast
    User.objects.filter(pk=alice.pk).update(username="zoe")
    t = started
    services.resign(bob, game_of(t, alice, bob).pk)
    for white, black in ((bob, alice), (alice, charlie), (charlie, alice)):
        pk = game_of(t, white, black).pk
        services.draw_action(white, pk, "offer")
        services.draw_action(black, pk, "accept")
    services.resign(charlie, game_of(t, bob, charlie).pk)
    services.resign(charlie, game_of(t, charlie, bob).pk)
    rows = tournaments.standings(t)
    assert [(r.player.username, r.points, r.sonneborn_berger) for r in rows] == [
        ("zoe", Fraction(5, 2), Fraction(19, 4)),
        ("bob", Fraction(5, 2), Fraction(13, 4)),
        ("charlie", Fraction(1), Fraction(5, 2)),
    ]


def test_points_are_written_with_halves():
    assert [tournaments.points_text(Fraction(n, 2)) for n in range(5)] == [
        "0",
        "½",
        "1",
        "1½",
        "2",
    ]


# -- the end ----------------------------------------------------------------------------------


def test_it_finishes_when_its_last_game_ends(started, cast):
    alice, bob, _charlie = cast
    games = list(Game.objects.filter(tournament=started).order_by("pk"))
    for game in games[:-1]:
        services.resign(game.white, game.pk)
    started.refresh_from_db()
    assert started.status == "running" and started.finished_at is None
    now = timezone.now()
    services.resign(games[-1].black, games[-1].pk, now=now)
    started.refresh_from_db()
    assert (started.status, started.finished_at) == ("finished", now)


def test_the_clock_sweep_finishes_it_when_it_ends_the_last_games(started):
    games = list(Game.objects.filter(tournament=started).order_by("pk"))
    for game in games[:-2]:
        services.resign(game.white, game.pk)
    later = timezone.now() + timedelta(days=4)
    ended = clock.expire_overdue_games(later)
    assert sorted(ended) == sorted(g.pk for g in games[-2:])  # both in one batch
    started.refresh_from_db()
    assert (started.status, started.finished_at) == ("finished", games[-1].deadline)


def test_a_move_of_a_tournament_game_costs_no_extra_query(started, cast):
    alice, bob, _charlie = cast
    ordinary = services.accept_challenge(
        bob, services.create_challenge(alice, variant="carolo", color="white", opponent=bob).pk
    )
    counts = []
    for game in (ordinary, game_of(started, alice, bob)):
        position = game.position()
        move = position.move_text(position.legal_moves()[0])
        with CaptureQueriesContext(connection) as captured:
            services.play_move(alice, game.pk, move, game.visible_ply("white"))
        counts.append(len(captured))
    assert counts[0] == counts[1]


# -- the pages --------------------------------------------------------------------------------


def test_the_list_shows_open_running_and_finished(started, cast, client):
    alice, bob, _charlie = cast
    open_one = tournaments.create_tournament(bob, name="Autumn open", variant="rococo")
    page = text(client.get("/tournaments/"))
    assert "Autumn open" in page and "Spring cup" in page
    assert "Sign in to create or join a tournament" in page
    assert "Create a tournament" not in page
    page = text(client_for(alice).get("/tournaments/"))
    assert "Create a tournament" in page
    assert page.index("Autumn open") < page.index("Running") < page.index("Spring cup")
    assert open_one.pk


def test_a_tournament_is_made_from_the_form(alice):
    client = client_for(alice)
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Winter cup",
            "max_players": "4",
            "game": "shuuro-mini",
            "shuuro-mini.budget": "300",
            "days_per_move": "5",
            "mode": "casual",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response.url == f"/tournaments/{tournament.pk}/"
    assert (tournament.name, tournament.max_players, tournament.variant) == (
        "Winter cup",
        4,
        "shuuro-mini",
    )
    assert (tournament.options, tournament.days_per_move, tournament.rated) == (
        {"budget": "300"},
        5,
        False,
    )


def test_the_form_refuses_bad_terms(alice):
    response = client_for(alice).post(
        "/tournaments/new/",
        {
            "name": "X",
            "max_players": "4",
            "game": "carolo",
            "days_per_move": "unlimited",
            "mode": "rated",
        },
    )
    assert response.status_code == 400
    assert "can only be casual" in text(response)
    assert not Tournament.objects.exists()


def test_the_buttons_follow_who_looks(cast, client):
    alice, bob, charlie = cast
    tournament = make(alice)
    tournaments.join(bob, tournament.pk)
    url = f"/tournaments/{tournament.pk}/"
    page = text(client_for(alice).get(url))
    assert "Cancel the tournament" in page and "Leave" not in page
    assert "Start the tournament now" not in page  # two players only
    page = text(client_for(bob).get(url))
    assert "Leave the tournament" in page and "Join" not in page and "Cancel" not in page
    page = text(client_for(charlie).get(url))
    assert "Join the tournament" in page
    assert "Sign in to join" in text(client.get(url))


def test_joining_leaving_starting_by_the_page(cast):
    alice, bob, charlie = cast
    tournament = make(alice)
    base = f"/tournaments/{tournament.pk}"
    assert client_for(bob).post(f"{base}/join/").status_code == 302
    assert client_for(charlie).post(f"{base}/join/").status_code == 302
    response = client_for(charlie).post(f"{base}/join/")
    assert response.status_code == 409 and "already playing" in text(response)
    response = client_for(bob).post(f"{base}/start/")
    assert response.status_code == 403 and "creator can start" in text(response)
    assert client_for(alice).post(f"{base}/start/").status_code == 302
    assert Game.objects.filter(tournament=tournament).count() == 6


def test_actions_need_a_post_a_login_and_a_tournament(alice, client):
    tournament = make(alice)
    assert client.post(f"/tournaments/{tournament.pk}/join/").status_code == 302  # to log in
    signed = client_for(alice)
    assert signed.get(f"/tournaments/{tournament.pk}/start/").status_code == 405
    assert signed.post(f"/tournaments/{tournament.pk}/dance/").status_code == 404
    assert signed.post("/tournaments/999999/join/").status_code == 404
    assert signed.get("/tournaments/999999/").status_code == 404
    assert signed.get(f"/tournaments/{2**70}/").status_code == 404


def test_the_page_shows_crosstable_and_standings(started, cast, client):
    alice, bob, _charlie = cast
    won = game_of(started, alice, bob)
    services.resign(bob, won.pk)
    response = client.get(f"/tournaments/{started.pk}/")
    page = response.content.decode()
    assert "Standings" in page and "Crosstable" in page
    assert f'href="/game/{won.pk}/"' in page
    assert 'aria-label="alice with White against bob: won"' in page
    assert 'aria-label="bob with Black against alice: lost"' in page
    for game in Game.objects.filter(tournament=started):
        assert f'href="/game/{game.pk}/"' in page


def page_queries(client, tournament, django_assert_num_queries, count):
    with django_assert_num_queries(count) as captured:
        assert client.get(f"/tournaments/{tournament.pk}/").status_code == 200
    return captured


@pytest.mark.parametrize("size", [3, 6])
def test_the_page_costs_the_same_queries_whatever_its_size(alice, size, django_assert_num_queries):
    tournament = make(alice, size=size)
    for n in range(size - 1):
        tournaments.join(make_player(f"player{n}"), tournament.pk)
    games = list(Game.objects.filter(tournament=tournament))
    services.resign(games[0].white, games[0].pk)  # a rated result: rating rows exist
    client = client_for(alice)
    client.get("/")  # the session's first request writes "last seen"
    # session, user, tournament, entrants, games, ratings, the header's count of turns
    page_queries(client, tournament, django_assert_num_queries, 7)


def test_a_tournament_game_links_to_its_tournament(started, cast, client):
    game = game_of(started, *cast[:2])
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert f'href="/tournaments/{started.pk}/">Spring cup</a>' in page
    assert "A game of the tournament" in page


def test_an_ordinary_game_has_no_tournament_link(cast, client):
    alice, bob, _charlie = cast
    game = services.accept_challenge(
        bob, services.create_challenge(alice, variant="carolo", opponent=bob).pk
    )
    assert "A game of the tournament" not in client.get(f"/game/{game.pk}/").content.decode()


def test_the_lobby_and_home_link_to_the_tournaments(alice, client):
    assert 'href="/tournaments/"' in client.get("/lobby/").content.decode()
    assert 'href="/tournaments/"' in client.get("/").content.decode()
    assert 'href="/tournaments/"' in client_for(alice).get("/").content.decode()


def test_the_profile_lists_the_player_s_tournaments(client, alice, bob, charlie):
    running = tournaments.create_tournament(
        alice, name="Spring Carolo", variant="carolo", max_players=3
    )
    tournaments.join(bob, running.pk)
    tournaments.join(charlie, running.pk)  # full: it starts
    waiting = tournaments.create_tournament(
        bob, name="Rococo club", variant="rococo", max_players=4
    )
    page = " ".join(client.get("/@/bob").content.decode().split())
    assert 'Spring Carolo</a> <span class="muted">· Le Carolo · Running · 3 of 3 players' in page
    assert 'Rococo club</a> <span class="muted">· Rococo · Open · 1 of 4 players' in page
    assert page.index("Rococo club") < page.index("Spring Carolo")  # the latest first
    assert f'href="/tournaments/{waiting.pk}/"' in page
    dave = make_player("dave")  # in no tournament: no such section
    assert 'id="tournaments-heading"' not in client.get(f"/@/{dave.username}").content.decode()
