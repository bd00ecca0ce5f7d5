"""A sweep ending many games in batches does what ending them one by one does:
the same outcomes, the same ratings (a player in several games of a batch is
rated game after game) and the same result e-mails."""

from datetime import timedelta

import pytest
from django.db import transaction

from accounts.models import User
from games import clock, glicko2, services
from games.models import Game, Notification, Rating, RatingChange
from tests.conftest import make_player
from tests.notify.play import T0, move, start

PLAYERS = 6
PLACEMENTS = ["@a1", "@a3", "@b1"]
NOW = T0 + timedelta(days=4)  # every deadline below has passed
# Ratings some players already have: (rating, deviation, volatility, days since last rated)
KNOWN = {0: (1720.0, 60.0, 0.06, 40), 2: (1450.0, 120.0, 0.08, 3), 3: (1500.0, 80.0, 0.059, 400)}


def spec():
    """(white, black, rated, placements, minutes after T0) for 30 games among 6 players.

    Every ordered pair plays once, so each player is in 10 games.  Two placements
    leave white to act (white loses on time), three leave black to act (black
    loses), one leaves black to act never having moved (aborted).  The start
    times are shuffled so the deadline order is not the creation order.
    """
    pairs = [(w, b) for w in range(PLAYERS) for b in range(PLAYERS) if w != b]
    return [
        (w, b, i % 3 != 0, 1 if i % 5 == 4 else 2 + i % 2, (i * 7) % len(pairs))
        for i, (w, b) in enumerate(pairs)
    ]


def cast(name):
    """Six players with the KNOWN ratings, and a seventh on vacation since before T0."""
    players = [make_player(f"{name}{n}") for n in range(PLAYERS + 1)]
    for n, (rating, deviation, volatility, days) in KNOWN.items():
        Rating.objects.create(
            user=players[n],
            variant="carge",
            rating=rating,
            deviation=deviation,
            volatility=volatility,
            games=5,
            last_rated_at=T0 - timedelta(days=days),
        )
    User.objects.filter(pk=players[PLAYERS].pk).update(vacation_started_at=T0 - timedelta(days=1))
    return players


def games_for(players):
    """The spec's games, then one where the player on vacation is to act (paused)."""
    games = []
    for white, black, rated, placements, minutes in [*spec(), (0, PLAYERS, True, 3, 31)]:
        when = T0 + timedelta(minutes=minutes)
        game = start(players[white], players[black], now=when, rated=rated)
        for text in PLACEMENTS[:placements]:
            game = move(game, text, when)
        games.append(game)
    return games


def expected_ratings():
    """The players' ratings worked out with the Glicko-2 module alone, game by game."""
    ratings = {n: glicko2.Rating() for n in range(PLAYERS)}
    last = {}
    for n, (rating, deviation, volatility, days) in KNOWN.items():
        ratings[n] = glicko2.Rating(rating, deviation, volatility)
        last[n] = T0 - timedelta(days=days)
    for white, black, rated, placements, minutes in sorted(spec(), key=lambda g: g[4]):
        if not rated or placements == 1:
            continue  # casual, or aborted
        ended = T0 + timedelta(minutes=minutes, days=3)
        white_score = glicko2.WIN if placements == 3 else glicko2.LOSS
        new = {}
        for player, opponent, score in (
            (white, black, white_score),
            (black, white, 1 - white_score),
        ):
            periods = (
                glicko2.periods_between((ended - last[player]).total_seconds() / 86400)
                if player in last
                else 1.0
            )
            new[player] = glicko2.rate_one_game(ratings[player], ratings[opponent], score, periods)
        ratings.update(new)
        last.update(dict.fromkeys(new, ended))
    return ratings


def end_one_by_one(games):
    """What the sweep did before batches: each game in its own transaction, by deadline."""
    for game in sorted(games, key=lambda g: g.deadline):
        with transaction.atomic():
            locked = Game.objects.select_for_update().get(pk=game.pk)
            if services.expire_if_overdue(locked, NOW):
                locked.save()


def results(players, games):
    """Everything the ending of ``games`` wrote, with players named by their number."""
    number = {player.pk: n for n, player in enumerate(players)}
    ratings = {
        number[r.user_id]: (r.rating, r.deviation, r.volatility, r.games, r.wins, r.draws)
        + (r.losses, r.last_rated_at)
        for r in Rating.objects.filter(user__in=players)
    }
    outcomes, changes, mails = [], [], []
    for game in Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk"):
        outcomes.append(
            (game.status, game.winner, game.result_reason, game.result_text)
            + (game.ended_at, game.deadline, game.version)
        )
        changes.append(
            sorted(
                (number[c.user_id], c.before, c.after, c.deviation_after, c.created_at)
                for c in RatingChange.objects.filter(game=game)
            )
        )
        mails.append(
            sorted(
                (number[n.user_id], n.kind, n.created_at, n.due_at, n.ply)
                for n in Notification.objects.filter(game=game, kind="result")
            )
        )
    return ratings, outcomes, changes, mails


def test_a_batch_sweep_ends_rates_and_mails_as_one_by_one(db, monkeypatch):
    monkeypatch.setattr(clock, "BATCH", 7)  # several batches, players in games of each
    one_by_one_players, batch_players = cast("single"), cast("batch")
    one_by_one_games, batch_games = games_for(one_by_one_players), games_for(batch_players)
    end_one_by_one(one_by_one_games)

    ended = clock.expire_overdue_games(NOW)

    assert ended == [g.pk for g in sorted(batch_games[:-1], key=lambda g: g.deadline)]
    assert clock.expire_overdue_games(NOW) == []
    assert results(batch_players, batch_games) == results(one_by_one_players, one_by_one_games)
    ratings, outcomes, changes, mails = results(batch_players, batch_games)
    paused = outcomes.pop()
    assert paused[0] == "active" and changes.pop() == [] and mails.pop() == []
    reasons = [(status, winner, reason) for status, winner, reason, *_ in outcomes]
    assert reasons.count(("aborted", "", "aborted")) == 6
    assert reasons.count(("finished", "black", "time")) == 12
    assert reasons.count(("finished", "white", "time")) == 12
    assert all(len(game_mails) == 2 for game_mails in mails)
    rated = [(w, b) for w, b, is_rated, placements, _ in spec() if is_rated and placements > 1]
    assert sum(len(game_changes) for game_changes in changes) == 2 * len(rated)
    for n, expected in expected_ratings().items():
        rating, deviation, volatility, games, *_ = ratings[n]
        assert (rating, deviation, volatility) == pytest.approx(
            (expected.rating, expected.deviation, expected.volatility)
        )
        assert games == (5 if n in KNOWN else 0) + sum(n in pair for pair in rated)


def test_a_sweep_stops_at_its_limit_and_the_next_goes_on(db, monkeypatch):
    monkeypatch.setattr(clock, "BATCH", 4)
    monkeypatch.setattr(clock, "SWEEP_LIMIT", 10)
    players = [make_player(f"p{n}") for n in range(2)]
    games = []
    for minutes in range(14):
        when = T0 + timedelta(minutes=minutes)
        game = start(*players, now=when, rated=False)
        games.append(move(move(game, "@a1", when), "@a3", when))  # white late
    first = clock.expire_overdue_games(NOW)
    assert first == [g.pk for g in games[:12]]  # three batches: the limit reached
    assert clock.expire_overdue_games(NOW) == [g.pk for g in games[12:]]
    assert not Game.objects.filter(status="active").exists()
