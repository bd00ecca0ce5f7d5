"""Vacation where both players act at once: Shuuro's recruitment, one deadline for both.

The game is paused only while every player still to act is on vacation; one
player's vacation neither stops nor extends the other's clock.  Mini-Shuuro
begun at T0 (Monday 2 March 2026, noon) with 3 days per move: the recruitment's
deadline is 5 March, noon, for both players.
"""

from datetime import timedelta

from games import clock, services
from games.models import Game, Notification
from tests.notify.play import T0

DAY = timedelta(days=1)


def recruitment(alice, bob):
    """alice (white) has bought a queen and is not done; bob has done nothing yet."""
    challenge = services.create_challenge(
        alice, variant="shuuro-mini", color="white", opponent=bob, days_per_move=3, now=T0
    )
    game = services.accept_challenge(bob, challenge.pk, now=T0)
    return services.play_move(alice, game.pk, "+Q", 0, now=T0)


def done(user, game, now):
    game = fresh(game)
    return services.play_move(user, game.pk, "done", game.visible_ply(game.side_of(user)), now=now)


def fresh(game):
    return Game.objects.get(pk=game.pk)


def test_the_recruitments_deadline_is_one_for_both(alice, bob):
    game = fresh(recruitment(alice, bob))
    assert game.to_act() == ["white", "black"]
    assert game.deadline == T0 + 3 * DAY


def test_one_players_vacation_does_not_stop_the_other_players_clock(alice, bob):
    game = recruitment(alice, bob)
    clock.start_vacation(bob, 20, now=T0 + DAY)
    # alice still has to act: her clock runs, and her page shows it, not 'on vacation'
    assert clock.time_left_text(fresh(game), T0 + 2 * DAY) == "1 day left"
    assert not clock.is_paused(fresh(game), T0 + 3 * DAY)
    assert clock.late_sides(fresh(game), T0 + 3 * DAY) == ["white"]
    # alice is the late one; late in the recruitment, with no move bob has seen: aborted
    assert clock.expire_overdue_games(now=T0 + 3 * DAY) == [game.pk]
    game = fresh(game)
    assert game.status == Game.Status.ABORTED and game.result_reason == "aborted"
    assert game.ended_at == T0 + 3 * DAY
    # bob's return finds the game over: no deadline of alice's moved to 15 March
    clock.end_due_vacations(now=T0 + 21 * DAY)
    assert fresh(game).deadline is None


def test_a_vacation_ended_while_the_other_still_acts_extends_nothing(alice, bob):
    game = recruitment(alice, bob)
    clock.start_vacation(bob, 10, now=T0 + DAY)
    clock.end_vacation(bob, now=T0 + 2 * DAY)  # alice was to act all along
    assert fresh(game).deadline == T0 + 3 * DAY  # not 4 March: alice gains no day
    done(alice, game, T0 + 2 * DAY + timedelta(hours=12))
    # bob is back and late in turn: aborted at the one deadline
    assert clock.expire_overdue_games(now=T0 + 3 * DAY - timedelta(minutes=1)) == []
    assert clock.expire_overdue_games(now=T0 + 3 * DAY) == [game.pk]
    assert fresh(game).status == Game.Status.ABORTED


def test_the_game_is_paused_once_the_other_player_is_done(alice, bob):
    game = recruitment(alice, bob)
    clock.start_vacation(bob, 10, now=T0 + DAY)  # 2 days left on his clock
    done(alice, game, T0 + 2 * DAY)
    assert clock.time_left_text(fresh(game), T0 + 2 * DAY) == "on vacation"
    assert clock.expire_overdue_games(now=T0 + 4 * DAY) == []
    assert fresh(game).is_active
    clock.end_due_vacations(now=T0 + 11 * DAY)
    # the deadline is bob's alone now: pushed back by his 10 days away, 2 days left
    assert fresh(game).deadline == T0 + 13 * DAY
    assert clock.time_left_text(fresh(game), T0 + 11 * DAY) == "2 days left"


def test_both_away_pauses_the_game_until_one_comes_back(alice, bob):
    game = recruitment(alice, bob)
    clock.start_vacation(bob, 10, now=T0 + DAY)  # back T0 + 11 days
    clock.start_vacation(alice, 5, now=T0 + 2 * DAY)  # back T0 + 7 days; 1 day was left
    assert clock.expire_overdue_games(now=T0 + 4 * DAY) == []  # both away: paused
    assert clock.time_left_text(fresh(game), T0 + 4 * DAY) == "on vacation"
    clock.end_due_vacations(now=T0 + 7 * DAY)
    # paused from T0 + 2 days (both away) to alice's return: 5 days
    assert fresh(game).deadline == T0 + 8 * DAY
    assert clock.time_left_text(fresh(game), T0 + 7 * DAY) == "1 day left"
    # bob is still away: alice, back and not done, is the late one
    assert clock.expire_overdue_games(now=T0 + 8 * DAY) == [game.pk]
    assert fresh(game).status == Game.Status.ABORTED


def test_the_reminder_goes_to_the_player_still_acting_not_to_the_one_away(alice, bob):
    game = recruitment(alice, bob)
    clock.start_vacation(bob, 20, now=T0 + DAY)
    # 80% of the 3 days: 2 days 9 h 36 min after T0
    assert clock.queue_reminders(now=T0 + 2 * DAY + timedelta(hours=10)) == 1
    [row] = Notification.objects.filter(kind="reminder", game_id=game.pk)
    assert row.user_id == alice.pk
