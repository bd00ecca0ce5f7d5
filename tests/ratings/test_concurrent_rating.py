"""Games of the same players ending at the same moment are all rated (PostgreSQL).

Each ending locks the game row, then both Rating rows in user-id order; racing
endings of many games among four players must neither deadlock nor lose an update.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from games import services
from games.models import Rating, RatingChange
from tests.conftest import make_player

PAIRS = 6  # every pair of four players
GAMES_PER_PAIR = 5


def _end(game_id, user, action, errors, lock):
    try:
        if action == "resign":
            services.resign(user, game_id)
        else:
            services.draw_action(user, game_id, "accept")
    except Exception as error:  # noqa: BLE001 - every failure is reported below
        with lock:
            errors.append(repr(error))
    finally:
        connections.close_all()


def test_racing_endings_rate_every_game_once(postgres):
    players = [make_player(name) for name in ("alice", "bob", "charlie", "dora")]
    jobs = []
    for i, white in enumerate(players):
        for black in players[i + 1 :]:
            for n in range(GAMES_PER_PAIR):
                challenge = services.create_challenge(
                    white, variant="carge", options={"barriers": "b2n,c3e,d1n"}, color="white"
                )
                game = services.accept_challenge(black, challenge.pk)
                if n % 2:
                    services.draw_action(white, game.pk, "offer")
                    jobs.append((game.pk, black, "accept"))
                else:
                    jobs.append((game.pk, white if n % 4 else black, "resign"))
    errors, lock = [], threading.Lock()
    with ThreadPoolExecutor(max_workers=12) as pool:
        for job in [pool.submit(_end, *args, errors, lock) for args in jobs]:
            job.result()
    assert errors == []
    games = PAIRS * GAMES_PER_PAIR
    assert RatingChange.objects.count() == 2 * games
    ratings = Rating.objects.filter(variant="carge")
    assert sum(r.games for r in ratings) == 2 * games
    for rating in ratings:
        assert rating.games == 3 * GAMES_PER_PAIR == rating.wins + rating.draws + rating.losses
        assert rating.games == RatingChange.objects.filter(user=rating.user).count()
