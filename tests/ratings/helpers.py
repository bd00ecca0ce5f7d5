"""Quick game rows for the read-side tests: finished games made directly, rated by rate_game."""

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.ratings import rate_game

FEN = "5/5/5/5/5 w b2n,c3e,d1n 8,8 0,0"


def finished_game(white, black, winner="white", *, variant="carge", rated=True, when=None):
    when = when or timezone.now()
    game = Game.objects.create(
        variant=variant,
        white=white,
        black=black,
        rated=rated,
        days_per_move=3,
        start_fen=FEN,
        fen=FEN,
        created_at=when - timedelta(days=1),
        status=Game.Status.FINISHED,
        winner=winner,
        result_reason="resign" if winner else "agreement",
        result_text="",
        ended_at=when,
    )
    if rated:
        rate_game(game, when)
    return game


def active_game(white, black, *, variant="carge"):
    now = timezone.now()
    return Game.objects.create(
        variant=variant,
        white=white,
        black=black,
        days_per_move=3,
        start_fen=FEN,
        fen=FEN,
        created_at=now,
        white_to_act=True,
        deadline=now + timedelta(days=3),
    )


def play_many(players, count, *, variant="carge", start=None):
    """``count`` rated games among ``players`` in turn, a day apart, ending at ``start``."""
    start = start or timezone.now()
    games = []
    for i in range(count):
        white, black = players[i % len(players)], players[(i + 1) % len(players)]
        winner = ("white", "black", "")[i % 3]
        when = start - timedelta(hours=count - i)
        games.append(finished_game(white, black, winner, variant=variant, when=when))
    return games
