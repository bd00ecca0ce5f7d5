"""The e-mails of a tournament's start and end (games/tournaments.py, games/notify.py):
one to each entrant but the starter when it starts, one to each entrant with the
final standings when its last game ends, however it ends; through the outbox, in
each player's language and by their notification choice."""

import re
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.closing import close_account
from accounts.models import User
from games import clock, notify, services, tournaments
from games.models import Game, Notification, Tournament
from tests.conftest import make_player
from tests.helpers import at_once

Kind = Notification.Kind
SITE = "https://carolo.example"


@pytest.fixture(autouse=True)
def _own_cache_and_site(settings):
    """No one looking at a game (presence lives in the cache), and a known site address."""
    settings.SITE_URL = SITE
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"}
    }
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def cast(alice, bob, charlie):
    return alice, bob, charlie


def make(creator, *, size=3, name="Spring cup", **terms):
    terms = {"variant": "carolo", "days_per_move": 3, "rated": True, **terms}
    return tournaments.create_tournament(creator, name=name, max_players=size, **terms)


def filled(players, **terms):
    """A tournament of exactly ``players``, the first its creator, started by the last join."""
    tournament = make(players[0], size=len(players), **terms)
    for player in players[1:]:
        tournaments.join(player, tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "running"
    return tournament


def game_of(tournament, white, black) -> Game:
    return Game.objects.get(tournament=tournament, white=white, black=black)


def draw(game):
    services.draw_action(game.white, game.pk, "offer")
    services.draw_action(game.black, game.pk, "accept")


def resign_all_but(tournament, left: int):
    """Every game but the last ``left`` (by id) resigned by White; those left."""
    games = list(Game.objects.filter(tournament=tournament).order_by("pk"))
    for game in games[: len(games) - left]:
        services.resign(game.white, game.pk)
    return games[len(games) - left :]


def delivered(now=None):
    mail.outbox.clear()
    notify.deliver_due(now=now or timezone.now() + timedelta(seconds=1))
    return list(mail.outbox)


def started_mails(messages):
    """The start e-mails, in English or in French."""
    ends = ("Spring cup has started", "Spring cup a commencé")
    return [m for m in messages if m.subject.endswith(ends)]


def finished_mails(messages):
    """The end e-mails, in English or in French."""
    ends = ("Spring cup is over", "Spring cup est terminé")
    return [m for m in messages if m.subject.endswith(ends)]


def to(messages, user):
    return [m for m in messages if m.to == [user.email]]


def french(user):
    user.language = "fr"
    user.save(update_fields=["language"])


# -- the end ----------------------------------------------------------------------------------


def test_each_player_is_told_their_place_and_the_table(cast):
    """alice, bob, charlie; the six games (White first):
        alice - bob      1-0 (bob resigns)       bob - alice      1-0 (alice resigns)
        alice - charlie  1-0 (charlie resigns)   charlie - alice  ½-½
        bob - charlie    1-0 (charlie resigns)   charlie - bob    ½-½ (the last one)
    Points: alice 1 + 0 + 1 + ½ = 2½; bob 0 + 1 + 1 + ½ = 2½; charlie ½ + ½ = 1.
    Sonneborn-Berger: alice beat bob 2½ + beat charlie 1 + drew charlie ½ × 1 = 4;
    bob the same, 4; charlie drew alice ½ × 2½ + drew bob ½ × 2½ = 2½.
    alice and bob are equal on both: they share the first place, charlie is third.
    charlie reads the site in French."""
    alice, bob, charlie = cast
    french(charlie)
    t = filled([alice, bob, charlie])
    services.resign(bob, game_of(t, alice, bob).pk)
    services.resign(alice, game_of(t, bob, alice).pk)
    services.resign(charlie, game_of(t, alice, charlie).pk)
    draw(game_of(t, charlie, alice))
    services.resign(charlie, game_of(t, bob, charlie).pk)
    assert not finished_mails(delivered())  # one game is still being played
    draw(game_of(t, charlie, bob))

    messages = finished_mails(delivered())
    assert sorted(m.to[0] for m in messages) == [u.email for u in (alice, bob, charlie)]
    table = "1. alice — 2½ (4)\n1. bob — 2½ (4)\n3. charlie — 1 (2½)"
    [to_alice], [to_bob], [to_charlie] = (to(messages, u) for u in (alice, bob, charlie))
    assert to_alice.subject == "[Carolo] Spring cup is over"
    assert "The tournament Spring cup is over." in to_alice.body
    assert "Your place: 1 of 3, with a score of 2½." in to_alice.body
    assert table.replace("(4)\n1.", "(4) ← you\n1.") in to_alice.body
    assert to_charlie.subject == "[Carolo] Spring cup est terminé"
    assert "Votre place : 3 sur 3, avec un score de 1." in to_charlie.body
    assert "Classement final (points, puis Sonneborn-Berger) :" in to_charlie.body
    assert table.replace("(2½)", "(2½) ← vous") in to_charlie.body
    assert "Your place: 1 of 3, with a score of 2½." in to_bob.body
    assert table.replace("bob — 2½ (4)", "bob — 2½ (4) ← you") in to_bob.body
    assert f"{SITE}/tournaments/{t.pk}/" in to_bob.body
    html = to_bob.alternatives[0].content
    assert f'<a href="{SITE}/tournaments/{t.pk}/">See the tournament</a>' in html
    assert re.search(r'<tr style="font-weight:bold"><td[^>]*>1</td><td[^>]*>bob</td>', html)
    # In French: the words the catalogue has, the numbers the same.
    assert to_charlie.body.startswith("Bonjour charlie,")
    assert "3. charlie — 1 (2½) ← vous" in to_charlie.body
    assert "Classement" in to_charlie.alternatives[0].content
    assert "Unsubscribe from all e-mails about games:" in to_alice.body
    assert "/unsubscribe/" in to_alice.extra_headers["List-Unsubscribe"]
    # The page shows the same shared place.
    assert [(r.rank, r.player.username) for r in tournaments.standings(t)] == [
        (1, "alice"),
        (1, "bob"),
        (3, "charlie"),
    ]


def test_the_last_game_ended_by_a_mate_tells_each_player_once(cast):
    """Rococo: the last game ends by White's chameleon mating (the line of
    test_game_moves), the five others resigned."""
    alice, bob, charlie = cast
    t = filled([alice, bob, charlie], variant="rococo")
    [last] = resign_all_but(t, 1)
    line = "f3-f4 g8-g7 e3-e4 g7-h6 e2-g4 g9-g7 g3-h4 g7-g5 g4-g9xg5".split()
    for text in line:
        game = Game.objects.get(pk=last.pk)
        side = "white" if game.white_to_act else "black"
        services.play_move(game.player(side), game.pk, text, game.visible_ply(side))
    last.refresh_from_db()
    assert (last.status, last.result_reason) == ("finished", "checkmate")
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    assert Notification.objects.filter(kind=Kind.TOURNAMENT_END).count() == 3
    messages = finished_mails(delivered())
    assert sorted(m.to[0] for m in messages) == [u.email for u in (alice, bob, charlie)]
    assert not finished_mails(delivered())  # never again


def test_the_clock_sweep_tells_each_player_once(cast):
    """The last two games end on time in one batch of the sweep: one e-mail each."""
    alice, bob, charlie = cast
    t = filled([alice, bob, charlie])
    last_two = resign_all_but(t, 2)
    later = timezone.now() + timedelta(days=4)
    ended = clock.expire_overdue_games(later)
    assert sorted(ended) == sorted(g.pk for g in last_two)
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    rows = Notification.objects.filter(kind=Kind.TOURNAMENT_END, tournament=t)
    assert sorted(rows.values_list("user_id", flat=True)) == [alice.pk, bob.pk, charlie.pk]
    messages = finished_mails(delivered(later))
    assert sorted(m.to[0] for m in messages) == [u.email for u in (alice, bob, charlie)]


def test_a_closed_account_is_not_told(cast):
    """charlie closes their account with their four games not begun: they are aborted
    (not played), which ends the tournament.  alice beat bob twice: alice 2 points,
    Sonneborn-Berger 2 × 0 = 0; bob and charlie 0 and 0, sharing the second place."""
    alice, bob, charlie = cast
    t = filled([alice, bob, charlie])
    services.resign(bob, game_of(t, alice, bob).pk)
    services.resign(bob, game_of(t, bob, alice).pk)
    close_account(charlie)
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    messages = finished_mails(delivered())
    assert sorted(m.to[0] for m in messages) == [alice.email, bob.email]
    [to_bob] = to(messages, bob)
    assert "Your place: 2 of 3, with a score of 0." in to_bob.body
    assert "1. alice — 2 (0)\n2. bob — 0 (0) ← you\n2. charlie — 0 (0)" in to_bob.body
    row = Notification.objects.get(kind=Kind.TOURNAMENT_END, user=charlie)
    assert row.outcome == Notification.Outcome.OFF


def test_finishing_costs_the_same_queries_for_3_and_6_players(db):
    """Ending the last game of a tournament adds a fixed number of queries to ending
    another of its games, whatever its size: the tournament's UPDATE, the entrants'
    ids, one INSERT of all their rows.  Casual games: no rating queries."""
    counts = {}
    for size in (3, 6):
        players = [make_player(f"p{size}x{n}") for n in range(size)]
        t = filled(players, rated=False)
        games = resign_all_but(t, 2)
        costs = []
        for game in games:
            with CaptureQueriesContext(connection) as captured:
                services.resign(game.white, game.pk)
            costs.append(len(captured))
        counts[size] = costs
        rows = Notification.objects.filter(kind=Kind.TOURNAMENT_END, tournament=t)
        assert rows.count() == size
    assert counts[3] == counts[6]
    another, last = counts[3]
    assert last - another == 3


# -- the start --------------------------------------------------------------------------------


def test_the_last_to_join_starts_it_and_is_not_told(cast):
    """Three players: each plays the two others twice, 4 games; each has White, and
    the first move in Le Carolo, in 2 of them: a digest of 2 turns, apart."""
    alice, bob, charlie = cast
    stranger = make_player("dave")
    t = filled([alice, bob, charlie])
    messages = delivered()
    started = started_mails(messages)
    assert sorted(m.to[0] for m in started) == [alice.email, bob.email]
    [to_bob] = to(started, bob)
    assert to_bob.subject == "[Carolo] Spring cup has started"
    assert "The tournament Spring cup has started: you play 4 games of Le Carolo in it." in (
        to_bob.body
    )
    assert "3 days per move, rated." in to_bob.body
    assert f"{SITE}/tournaments/{t.pk}/" in to_bob.body
    assert f'<a href="{SITE}/tournaments/{t.pk}/">See the tournament</a>' in (
        to_bob.alternatives[0].content
    )
    for player in (alice, bob, charlie):
        turns = [m for m in to(messages, player) if m not in started]
        assert [m.subject for m in turns] == ["[Carolo] 2 games await your move"]
    assert not to(messages, stranger)


def test_the_creator_who_starts_it_is_not_told(cast):
    """Room for four, three in, alice starts it; dave joined and left before: nothing."""
    alice, bob, charlie = cast
    dave = make_player("dave")
    t = make(alice, size=4, days_per_move=None, rated=False)
    tournaments.join(bob, t.pk)
    tournaments.join(dave, t.pk)
    tournaments.leave(dave, t.pk)
    tournaments.join(charlie, t.pk)
    tournaments.start(alice, t.pk)
    started = started_mails(delivered())
    assert sorted(m.to[0] for m in started) == [bob.email, charlie.email]
    [to_charlie] = to(started, charlie)
    assert "No time limit, casual." in to_charlie.body
    assert "you play 4 games" in to_charlie.body


def test_the_start_in_french_and_by_each_ones_choice(cast):
    """dave fills it (and is not told anyway); bob reads in French; charlie wants a
    daily summary: told at once all the same (a start is news, not a turn); erin
    wants no e-mail: none, nor a turn."""
    alice, bob, charlie = cast
    dave, erin = make_player("dave"), make_player("erin")
    french(bob)
    User.objects.filter(pk=charlie.pk).update(notify="daily")
    User.objects.filter(pk=erin.pk).update(notify="none")
    filled([alice, bob, charlie, erin, dave])
    messages = delivered()
    started = started_mails(messages)
    assert sorted(m.to[0] for m in started) == [alice.email, bob.email, charlie.email]
    [to_bob] = to(started, bob)
    assert to_bob.subject == "[Carolo] Spring cup a commencé"
    assert to_bob.body.startswith("Bonjour bob,")
    assert "Le tournoi Spring cup a commencé : vous y jouez 8 parties de Le Carolo." in to_bob.body
    assert "3 jours par coup, classée." in to_bob.body
    [to_charlie] = to(started, charlie)
    assert "you play 8 games" in to_charlie.body  # 2 × 4 others
    assert not to(messages, erin)
    row = Notification.objects.get(kind=Kind.TOURNAMENT_START, user=erin)
    assert row.outcome == Notification.Outcome.OFF


def test_news_of_a_start_is_dropped_once_the_tournament_is_over(cast):
    alice, bob, charlie = cast
    t = filled([alice, bob, charlie])
    resign_all_but(t, 0)
    messages = delivered()
    assert not started_mails(messages)
    assert len(finished_mails(messages)) == 3
    rows = Notification.objects.filter(kind=Kind.TOURNAMENT_START)
    assert set(rows.values_list("outcome", flat=True)) == {Notification.Outcome.STALE}


def test_a_name_is_escaped_in_the_html(cast):
    alice, bob, charlie = cast
    t = make(alice, size=4, name="<b>Cup</b>")
    tournaments.join(bob, t.pk)
    tournaments.join(charlie, t.pk)
    tournaments.start(alice, t.pk)
    messages = [m for m in delivered() if "has started" in m.subject]
    assert sorted(m.to[0] for m in messages) == [bob.email, charlie.email]
    for message in messages:
        assert message.subject == "[Carolo] <b>Cup</b> has started"  # plain text
        html = message.alternatives[0].content
        assert "&lt;b&gt;Cup&lt;/b&gt;" in html and "<b>Cup</b>" not in html


def test_a_bot_is_never_an_entrant_so_never_told(alice, bob):
    bot = User.objects.create_user("robot", "robot@example.org", is_bot=True)
    t = make(alice)
    with pytest.raises(services.Forbidden):
        tournaments.join(bot, t.pk)
    tournaments.join(bob, t.pk)
    tournaments.join(make_player("dave"), t.pk)
    assert not to(delivered(), bot)
    assert not Notification.objects.filter(user=bot).exists()


def test_a_cancelled_tournament_tells_no_one(cast):
    alice, bob, _charlie = cast
    t = make(alice)
    tournaments.join(bob, t.pk)
    tournaments.cancel(alice, t.pk)
    assert not delivered()
    assert not Notification.objects.exists()


# -- two last games ending at once (PostgreSQL) -------------------------------------------------


def test_two_last_games_resigned_at_once_tell_each_player_once(postgres, monkeypatch):
    """Four players, casual: the last two games, alice - bob and charlie - dave, share
    no player and no rating, only the tournament's row.  The pause holds each
    resignation open after it looked at the tournament, before its game is saved:
    the second to look must wait for the first to commit, see its game ended and
    finish the tournament then; never both, never neither (without the lock each
    would see the other's game still being played)."""
    alice, bob, charlie, dave = (make_player(n) for n in ("alice", "bob", "charlie", "dave"))
    everyone = [alice, bob, charlie, dave]
    t = filled(everyone, rated=False)
    first, second = game_of(t, alice, bob), game_of(t, charlie, dave)
    for game in Game.objects.filter(tournament=t).exclude(pk__in=[first.pk, second.pk]):
        services.resign(game.white, game.pk)
    ended = tournaments.game_ended
    monkeypatch.setattr(tournaments, "game_ended", lambda g, n: ended(g, n) or time.sleep(0.3))
    mail.outbox.clear()
    results = at_once(
        lambda: services.resign(bob, first.pk),
        lambda: services.resign(dave, second.pk),
    )
    assert all(isinstance(r, Game) for r in results), results
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    rows = Notification.objects.filter(kind=Kind.TOURNAMENT_END, tournament=t)
    assert sorted(rows.values_list("user_id", flat=True)) == [u.pk for u in everyone]
    notify.deliver_due(now=timezone.now() + timedelta(seconds=1))  # whatever a kick missed
    messages = finished_mails(mail.outbox)
    assert sorted(m.to[0] for m in messages) == [u.email for u in everyone]
    assert sum(r.points for r in tournaments.standings(t)) == 12  # a point a game
