"""Rating rated games: called by services._finish, inside its transaction."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games import glicko2, rules
from games.models import Game, Rating, RatingChange

SCORES = {rules.WHITE: glicko2.WIN, rules.BLACK: glicko2.LOSS, "": glicko2.DRAW}


def _periods_since(rating: Rating, now: datetime) -> float:
    if rating.last_rated_at is None:
        return 1.0  # a new player: the paper's single period (the deviation is at 500 anyway)
    return glicko2.periods_between((now - rating.last_rated_at).total_seconds() / 86400)


def _locked_ratings(game: Game) -> tuple[Rating, Rating]:
    """The two players' Rating rows for the game, created if missing, locked in id order."""
    players = (game.white_id, game.black_id)
    Rating.objects.bulk_create(
        [Rating(user_id=pk, variant=game.variant) for pk in players], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(user_id__in=players, variant=game.variant)
    by_user = {row.user_id: row for row in rows.order_by("user_id")}
    return by_user[game.white_id], by_user[game.black_id]


@transaction.atomic
def rate_game(game: Game, now: datetime) -> tuple[RatingChange, RatingChange]:
    """Update both players' ratings for a finished rated game, once.

    The caller holds the game's row lock. The RatingChange rows are written
    first: a second call for the same game breaks their unique constraint and
    its savepoint rolls back, leaving the ratings as they were.
    """
    if not game.rated or game.status != Game.Status.FINISHED:
        raise ValueError(f"game {game.pk} is not a finished rated game")
    white, black = _locked_ratings(game)
    rows = {rules.WHITE: white, rules.BLACK: black}
    score = {rules.WHITE: SCORES[game.winner], rules.BLACK: 1 - SCORES[game.winner]}
    before = {side: row.glicko() for side, row in rows.items()}
    after = {
        side: glicko2.rate_one_game(
            before[side],
            before[rules.opponent(side)],
            score[side],
            _periods_since(row, now),
        )
        for side, row in rows.items()
    }
    changes = RatingChange.objects.bulk_create(
        [
            RatingChange(
                game=game,
                user_id=row.user_id,
                variant=game.variant,
                before=before[side].rating,
                after=after[side].rating,
                deviation_after=after[side].deviation,
                created_at=now,
            )
            for side, row in rows.items()
        ]
    )
    for side, row in rows.items():
        new = after[side]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.wins += score[side] == glicko2.WIN
        row.draws += score[side] == glicko2.DRAW
        row.losses += score[side] == glicko2.LOSS
        row.last_rated_at = max(now, row.last_rated_at) if row.last_rated_at else now
    Rating.objects.bulk_update(
        [white, black],
        ["rating", "deviation", "volatility", "games", "wins", "draws", "losses", "last_rated_at"],
    )
    return changes[0], changes[1]


def changes_for(game: Game) -> dict[str, int]:
    """The rating change of each side in ``game`` as shown: {"white": +12, "black": -12}.

    Empty for a game not rated (casual, aborted or still running).
    """
    side_of = {game.white_id: rules.WHITE, game.black_id: rules.BLACK}
    return {
        side_of[change.user_id]: change.diff
        for change in game.rating_changes.all()
        if change.user_id in side_of
    }
