"""Every ending of a rated game rates both players once; casual and aborted games don't."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import glicko2, services
from games.models import Game, Rating, RatingChange
from games.ratings import rate_game, shown_ratings
from tests.games.test_services import ANNIHILATION, PLACEMENTS, play, start_carge

REPETITION = "d2-e2 e5-d5 e2-d2 d5-e5 d2-e2 e5-d5 e2-d2 d5-e5".split()


def changes_for(game):
    """Each side's rating change as the game page shows it (none: not rated)."""
    shown = shown_ratings(game).items()
    return {side: change for side, (_, change) in shown if change is not None}


def ratings(*users):
    return [Rating.objects.get(user=u, variant="carge") for u in users]


def assert_rated_once(game):
    changes = RatingChange.objects.filter(game=game)
    assert changes.count() == 2
    assert {c.user_id for c in changes} == {game.white_id, game.black_id}
    white, black = (
        Rating.objects.get(user_id=pk, variant=game.variant)
        for pk in (game.white_id, game.black_id)
    )
    assert white.games == black.games == 1
    assert white.last_rated_at == black.last_rated_at == game.ended_at


def test_annihilation_rates_both_players(alice, bob):
    game = play(start_carge(alice, bob), alice, bob, PLACEMENTS + ANNIHILATION.split())
    assert game.result_reason == "annihilation"
    assert_rated_once(game)
    white, black = ratings(alice, bob)
    assert (white.wins, white.losses, black.wins, black.losses) == (1, 0, 0, 1)
    assert white.rating > 1500 > black.rating
    # Two newcomers: the same +/- as the pure module gives, with bounds applied.
    expected = glicko2.rate_one_game(glicko2.Rating(), glicko2.Rating(), 1.0, 1.0)
    assert white.rating == pytest.approx(expected.rating)
    assert white.deviation == pytest.approx(expected.deviation)
    assert changes_for(game) == {
        "white": round(white.rating) - 1500,
        "black": round(black.rating) - 1500,
    }
    assert changes_for(game)["white"] == -changes_for(game)["black"] > 0


def test_a_carolo_mat_rates_both_players(alice, bob):
    # The story game of tests/rules/test_carolo.py: the Carolo reaches e7, mat.
    challenge = services.create_challenge(alice, variant="carolo", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    game = play(game, alice, bob, ["d2-f6", "b8-d6", "d1xd6", "h8-h6", "d6-e7"])
    assert (game.status, game.winner, game.result_reason) == ("finished", "white", "mat")
    assert_rated_once(game)
    white = Rating.objects.get(user=alice, variant="carolo")
    black = Rating.objects.get(user=bob, variant="carolo")
    assert white.rating > 1500 > black.rating and white.wins == black.losses == 1


def test_resignation_rates_both_players(alice, bob):
    game = services.resign(alice, start_carge(alice, bob).pk)
    assert_rated_once(game)
    white, black = ratings(alice, bob)
    assert white.rating < 1500 < black.rating and black.wins == 1


def test_agreement_rates_a_draw(alice, bob):
    game = start_carge(alice, bob)
    services.draw_action(alice, game.pk, "offer")
    game = services.draw_action(bob, game.pk, "accept")
    assert_rated_once(game)
    white, black = ratings(alice, bob)
    assert white.draws == black.draws == 1
    assert white.rating == pytest.approx(1500) == black.rating
    assert changes_for(game) == {"white": 0, "black": 0}


def test_repetition_rates_a_draw(alice, bob):
    game = play(start_carge(alice, bob), alice, bob, PLACEMENTS + REPETITION)
    assert (game.status, game.result_reason) == ("finished", "repetition")
    assert_rated_once(game)
    assert [r.draws for r in ratings(alice, bob)] == [1, 1]


def test_time_rates_both_players_in_the_sweep(alice, bob):
    game = play(start_carge(alice, bob), alice, bob, ["@a1", "@a2"])
    late = game.deadline + timedelta(hours=1)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        assert services.expire_if_overdue(locked, late)
        locked.save()
    game.refresh_from_db()
    assert (game.winner, game.result_reason) == ("black", "time")
    assert_rated_once(game)
    assert RatingChange.objects.get(game=game, user=bob).created_at == game.ended_at < late


def test_a_second_rating_of_the_same_game_is_refused(alice, bob):
    game = services.resign(alice, start_carge(alice, bob).pk)
    before = [(r.rating, r.deviation, r.games) for r in ratings(alice, bob)]
    with pytest.raises(IntegrityError), transaction.atomic():
        rate_game(game, timezone.now())
    assert [(r.rating, r.deviation, r.games) for r in ratings(alice, bob)] == before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_casual_games_change_no_rating(alice, bob):
    game = services.resign(alice, start_carge(alice, bob, rated=False).pk)
    assert game.status == "finished"
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert changes_for(game) == {}


def test_aborted_games_change_no_rating(alice, bob):
    game = services.abort(alice, start_carge(alice, bob).pk)
    assert game.status == "aborted"
    assert not RatingChange.objects.exists()
    game = start_carge(alice, bob)
    with pytest.raises(services.Conflict):  # no first move in time: aborted
        services.play_move(alice, game.pk, "@a1", 0, now=timezone.now() + timedelta(days=4))
    assert Game.objects.get(pk=game.pk).status == "aborted"
    assert not RatingChange.objects.exists()


def test_inactivity_widens_the_deviation_before_the_game(alice, bob, charlie):
    now = timezone.now()
    Rating.objects.create(
        user=alice,
        variant="carge",
        rating=1700,
        deviation=50,
        volatility=0.06,
        games=30,
        last_rated_at=now - timedelta(days=400),
    )
    Rating.objects.create(
        user=bob,
        variant="carge",
        rating=1700,
        deviation=50,
        volatility=0.06,
        games=30,
        last_rated_at=now,
    )
    for loser in (alice, bob):
        game = start_carge(loser, charlie)
        services.resign(loser, game.pk, now=now)
    away, regular = ratings(alice, bob)
    # The player away for 400 days (about 86 periods) had a wider deviation: it
    # moves more and stays wider.
    assert 1700 - away.rating > 1700 - regular.rating > 0
    assert away.deviation > regular.deviation
    assert away.deviation == pytest.approx(
        glicko2.rate_one_game(
            glicko2.Rating(1700, 50, 0.06), glicko2.Rating(), 0.0, glicko2.periods_between(400)
        ).deviation
    )


def test_the_deviation_shrinks_over_games_and_stops_at_45(alice, bob):
    for i in range(3):
        game = start_carge(alice, bob)
        services.resign(bob if i % 2 else alice, game.pk)
    white, _ = ratings(alice, bob)
    assert white.games == 3 and 45 <= white.deviation < 500
    assert white.provisional


def test_rate_game_refuses_a_game_not_finished_or_not_rated(alice, bob):
    game = start_carge(alice, bob)
    with pytest.raises(ValueError):
        rate_game(game, timezone.now())
    assert changes_for(game) == {}
    game = services.resign(alice, start_carge(alice, bob, rated=False).pk)
    with pytest.raises(ValueError):
        rate_game(game, timezone.now())
    assert not RatingChange.objects.exists()
