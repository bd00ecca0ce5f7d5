"""Rating rated games: called by services._finish, inside its transaction."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import Q

from games import glicko2, rules
from games.held import Held
from games.models import Game, Rating, RatingChange

SCORES = {rules.WHITE: glicko2.WIN, rules.BLACK: glicko2.LOSS, "": glicko2.DRAW}
FIELDS = ["rating", "deviation", "volatility", "games", "wins", "draws", "losses", "last_rated_at"]


def _periods_since(rating: Rating, now: datetime) -> float:
    if rating.last_rated_at is None:
        return 1.0  # a new player: the paper's single period (the deviation is at 500 anyway)
    return glicko2.periods_between((now - rating.last_rated_at).total_seconds() / 86400)


def _check_rateable(game: Game) -> None:
    if not game.rated or game.status != Game.Status.FINISHED:
        raise ValueError(f"game {game.pk} is not a finished rated game")


def _locked_ratings(keys: set[tuple[int, str]]) -> dict[tuple[int, str], Rating]:
    """The Rating rows for these (user id, variant) pairs, created if missing.

    Created and locked in (user id, variant) order, whoever rates: two rating
    transactions then never wait for each other in a cycle.
    """
    keys = sorted(keys)
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, variant=variant) for user_id, variant in keys],
        ignore_conflicts=True,
    )
    users = defaultdict(list)
    for user_id, variant in keys:
        users[variant].append(user_id)
    wanted = Q()
    for variant, user_ids in users.items():
        wanted |= Q(variant=variant, user_id__in=user_ids)
    rows = Rating.objects.select_for_update().filter(wanted).order_by("user_id", "variant")
    return {(row.user_id, row.variant): row for row in rows}


def rate_game(game: Game, now: datetime) -> tuple[RatingChange, RatingChange] | None:
    """Update both players' ratings for a finished rated game, once (see ``rate_games``).

    Inside ``in_bulk()`` the game is only queued, and None returned.
    """
    _check_rateable(game)
    if _held.hold([(game, now)]):
        return None
    white, black = rate_games([(game, now)])
    return white, black


@transaction.atomic
def rate_games(games: Sequence[tuple[Game, datetime]]) -> list[RatingChange]:
    """Rate each finished rated game at its time, in the order given; the changes,
    white's then black's for each game.

    A player in several of the games is rated game after game, so the result is
    the same as rating them one by one.  The caller holds the games' row locks.
    The RatingChange rows are written first: a game already rated breaks their
    unique constraint and the savepoint rolls back, leaving the ratings as they were.
    """
    if not games:
        return []
    for game, _ in games:
        _check_rateable(game)
    rows = _locked_ratings(
        {(user_id, game.variant) for game, _ in games for user_id in (game.white_id, game.black_id)}
    )
    changes = []
    for game, now in games:
        players = {
            rules.WHITE: rows[game.white_id, game.variant],
            rules.BLACK: rows[game.black_id, game.variant],
        }
        score = {rules.WHITE: SCORES[game.winner], rules.BLACK: 1 - SCORES[game.winner]}
        before = {side: row.glicko() for side, row in players.items()}
        for side, row in players.items():
            after = glicko2.rate_one_game(
                before[side], before[rules.opponent(side)], score[side], _periods_since(row, now)
            )
            changes.append(
                RatingChange(
                    game=game,
                    user_id=row.user_id,
                    variant=game.variant,
                    before=before[side].rating,
                    after=after.rating,
                    deviation_before=before[side].deviation,
                    deviation_after=after.deviation,
                    created_at=now,
                )
            )
            row.rating, row.deviation = after.rating, after.deviation
            row.volatility = after.volatility
            row.games += 1
            row.wins += score[side] == glicko2.WIN
            row.draws += score[side] == glicko2.DRAW
            row.losses += score[side] == glicko2.LOSS
            row.last_rated_at = max(now, row.last_rated_at) if row.last_rated_at else now
    RatingChange.objects.bulk_create(changes)
    # An upsert on the primary key: one plain UPDATE of the rows, where bulk_update
    # builds a CASE per row and field (slower than all the rest for a large batch).
    Rating.objects.bulk_create(
        rows.values(), update_conflicts=True, unique_fields=["id"], update_fields=FIELDS
    )
    return changes


# The clock sweep's batches: inside ``in_bulk()`` rate_game only queues its game,
# and the batch's games are rated together as the block ends (its rating rows
# locked in one query and written in one statement per table, not four queries a
# game).  Nothing is rated if the block raises.
_held = Held("rating_queue", rate_games)
in_bulk = _held.block


def shown_ratings(game: Game) -> dict[str, tuple[str, int | None]]:
    """Each side's rating as the game page shows it, and the game's change once a
    rated game is over: ``{"white": ("1523", 12), "black": ("1610?", None)}``.

    A rated game that is over shows the ratings it was played at and its changes;
    any other game the players' ratings now (a player without one has the start
    rating, provisional).  One query.
    """
    return shown_ratings_of([game])[game.pk]


def shown_ratings_of(games: Sequence[Game]) -> dict[int, dict[str, tuple[str, int | None]]]:
    """``shown_ratings`` of many games by their ids, in two queries whatever their
    number (none for no game): the changes of the rated games that are over, then
    the ratings now of the players of every other game (one query when only one of
    the two has games to read)."""
    changes: dict[int, dict[int, RatingChange]] = defaultdict(dict)
    over = [game.pk for game in games if game.rated and game.status == Game.Status.FINISHED]
    if over:
        found = RatingChange.objects.filter(game_id__in=over).only(
            "game_id", "user_id", "before", "after", "deviation_before"
        )
        for change in found:
            changes[change.game_id][change.user_id] = change
    shown: dict[int, dict[str, tuple[str, int | None]]] = {}
    rest = []
    for game in games:
        mine = changes.get(game.pk, {})
        if len(mine) == 2:
            shown[game.pk] = {
                side: (mine[user_id].display_before, mine[user_id].diff)
                for side, user_id in ((rules.WHITE, game.white_id), (rules.BLACK, game.black_id))
            }
        else:
            rest.append(game)
    if not rest:
        return shown
    players = {game.white_id for game in rest} | {game.black_id for game in rest}
    now = {
        (rating.user_id, rating.variant): rating
        for rating in Rating.objects.filter(
            user_id__in=players, variant__in={game.variant for game in rest}
        ).only("user_id", "variant", "rating", "deviation")
    }
    start = Rating()  # defaults only: the start rating
    for game in rest:
        shown[game.pk] = {
            side: (now.get((user_id, game.variant), start).display, None)
            for side, user_id in ((rules.WHITE, game.white_id), (rules.BLACK, game.black_id))
        }
    return shown
