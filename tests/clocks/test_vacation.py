"""Vacation: up to 30 days a year that pause a player's clocks, not their opponents'.

The deadline is not moved while the player is away; the sweep leaves the game
alone (paused), and when the vacation ends each deadline of theirs is extended
by the part of the vacation that overlapped their turn.
"""

from datetime import UTC, datetime, timedelta

import pytest

from games import clock, tasks
from games.models import Game
from tests.helpers import text
from tests.notify.play import T0, move, start


def bob_to_move(alice, bob, days=3, at=T0):
    game = move(start(alice, bob, days=days, now=at), "@a1", at)
    game = move(game, "@a3", at)
    return move(game, "@b1", at)  # both have moved; bob to move, deadline at + days


def fresh(game):
    return Game.objects.get(pk=game.pk)


def test_a_vacation_pauses_the_players_clock(alice, bob):
    game = bob_to_move(alice, bob)
    clock.start_vacation(bob, 10, now=T0 + timedelta(days=1))
    assert clock.expire_overdue_games(now=T0 + timedelta(days=5)) == []
    game = fresh(game)
    assert game.is_active
    assert clock.time_left_text(game, T0 + timedelta(days=5)) == "on vacation"


def test_an_opponents_action_does_not_end_the_paused_game_either(alice, bob):
    from games import services

    game = bob_to_move(alice, bob)
    clock.start_vacation(bob, 10, now=T0 + timedelta(days=1))
    services.draw_action(alice, game.pk, "offer", now=T0 + timedelta(days=5))
    assert fresh(game).is_active


def test_ending_the_vacation_gives_back_the_time_it_took(alice, bob):
    game = bob_to_move(alice, bob)  # deadline T0 + 3 days
    clock.start_vacation(bob, 10, now=T0 + timedelta(days=1))
    clock.end_vacation(bob, now=T0 + timedelta(days=5))  # 4 days away
    game = fresh(game)
    assert game.deadline == T0 + timedelta(days=7)
    assert clock.time_left_text(game, T0 + timedelta(days=5)) == "2 days left"
    assert clock.expire_overdue_games(now=T0 + timedelta(days=6)) == []
    assert clock.expire_overdue_games(now=T0 + timedelta(days=7)) == [game.pk]
    assert fresh(game).winner == "white"


def test_a_turn_that_came_during_the_vacation_gets_its_full_time(alice, charlie, bob):
    clock.start_vacation(bob, 10, now=T0)
    game = bob_to_move(alice, bob, at=T0 + timedelta(days=2))  # deadline T0 + 5 days
    clock.end_vacation(bob, now=T0 + timedelta(days=6))
    assert fresh(game).deadline == T0 + timedelta(days=9)  # 3 days from the return


def test_the_opponents_clock_is_unaffected(alice, bob):
    game = move(start(alice, bob), "@a1", T0)
    game = move(game, "@a3", T0)  # alice to move, deadline T0 + 3 days
    clock.start_vacation(bob, 10, now=T0)
    assert clock.time_left_text(fresh(game), T0 + timedelta(days=1)) == "2 days left"
    assert clock.expire_overdue_games(now=T0 + timedelta(days=3)) == [game.pk]
    assert fresh(game).winner == "black"
    clock.end_vacation(bob, now=T0 + timedelta(days=4))
    assert fresh(game).deadline is None


def test_the_sweep_ends_a_vacation_at_its_end(alice, bob):
    game = bob_to_move(alice, bob)  # deadline T0 + 3 days
    clock.start_vacation(bob, 2, now=T0 + timedelta(days=1))
    assert clock.end_due_vacations(now=T0 + timedelta(days=2)) == 0
    assert clock.end_due_vacations(now=T0 + timedelta(days=3, hours=1)) == 1
    bob.refresh_from_db()
    assert not bob.on_vacation
    assert fresh(game).deadline == T0 + timedelta(days=5)  # paused from day 1 to day 3
    assert clock.expire_overdue_games(now=T0 + timedelta(days=5)) == [game.pk]


def test_a_vacation_cannot_save_a_game_already_lost_on_time(alice, bob):
    game = bob_to_move(alice, bob)
    clock.start_vacation(bob, 5, now=T0 + timedelta(days=3, seconds=30))  # 30 s too late
    assert clock.expire_overdue_games(now=T0 + timedelta(days=3, minutes=1)) == [game.pk]


def test_thirty_days_a_year_and_unused_days_come_back(alice):
    clock.start_vacation(alice, 20, now=T0)
    alice.refresh_from_db()
    assert clock.vacation_days_left(alice, T0) == 10
    with pytest.raises(clock.VacationError, match="already on vacation"):
        clock.start_vacation(alice, 1, now=T0)
    clock.end_vacation(alice, now=T0 + timedelta(days=5, hours=1))  # 14 whole days unused
    alice.refresh_from_db()
    assert clock.vacation_days_left(alice, T0) == 24
    with pytest.raises(clock.VacationError, match="24 days of vacation left"):
        clock.start_vacation(alice, 25, now=T0 + timedelta(days=6))
    clock.start_vacation(alice, 24, now=T0 + timedelta(days=6))
    alice.refresh_from_db()
    assert clock.vacation_days_left(alice, T0 + timedelta(days=7)) == 0
    next_year = datetime(2027, 1, 1, tzinfo=UTC)
    assert clock.vacation_days_left(alice, next_year) == 30


def test_the_vacation_task(alice, bob):
    from django.utils import timezone

    clock.start_vacation(bob, 1, now=timezone.now() - timedelta(days=2))
    assert tasks.end_vacations.delay().get() == 1


# -- the settings form -----------------------------------------------------------------------


def test_the_settings_page_starts_and_ends_a_vacation(client_alice, alice):
    page = text(client_alice.get("/settings/"))
    assert "You have 30 days left this year" in page
    r = client_alice.post("/settings/vacation/", {"action": "start", "days": "7"}, follow=True)
    assert "Your vacation has begun" in text(r) and "You are on vacation until" in text(r)
    alice.refresh_from_db()
    assert alice.on_vacation and alice.vacation_days_used == 7
    r = client_alice.post("/settings/vacation/", {"action": "end"}, follow=True)
    assert "your clocks run again" in text(r)
    alice.refresh_from_db()
    assert not alice.on_vacation and alice.vacation_days_used == 1  # a day begun counts


def test_the_settings_form_refuses_too_many_days(client_alice, alice):
    r = client_alice.post("/settings/vacation/", {"action": "start", "days": "31"})
    assert r.status_code == 400
    from django.utils import timezone

    alice.vacation_days_used, alice.vacation_year = 24, timezone.now().year
    alice.save()
    r = client_alice.post("/settings/vacation/", {"action": "start", "days": "7"})
    assert r.status_code == 400 and "6 days of vacation left" in text(r)


def test_vacation_needs_a_login_and_a_post(client, client_alice):
    assert client_alice.get("/settings/vacation/").status_code == 405
    client_alice.logout()
    assert client.post("/settings/vacation/", {"days": "3"}).status_code == 302
