"""Ending a vacation while a move lands in one of the player's games (PostgreSQL).

The end of a vacation locks the player, then their games; a move locks its game,
then writes the player a turn row, whose foreign key takes a key-share lock on the
player.  Were the player locked FOR UPDATE, each would wait for the other.
"""

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.db import connections, transaction
from django.utils import timezone

from games import clock, services
from games.models import Game, Notification
from tests.conftest import make_player


def test_a_vacation_ends_while_a_move_writes_the_player_a_turn_row(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    challenge = services.create_challenge(alice, variant="carolo", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    now = timezone.now()
    services.play_move(alice, game.pk, "d2-f6", 0, now=now - timedelta(days=2))  # bob to act
    clock.start_vacation(bob, 3, now=now - timedelta(days=1))
    game_locked, errors = threading.Event(), []

    def a_move_in_bobs_game():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                game_locked.set()
                time.sleep(0.5)  # the vacation's end has locked bob by now, and waits
                Notification.objects.create(
                    kind="turn", user=bob, game_id=game.pk, created_at=now, due_at=now, key="race"
                )
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))
        finally:
            connections.close_all()

    def bobs_vacation_ends():
        try:
            game_locked.wait(5)
            clock.end_vacation(bob, now=now)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=2) as pool:
        for job in [pool.submit(a_move_in_bobs_game), pool.submit(bobs_vacation_ends)]:
            job.result(timeout=30)
    assert errors == []
    assert Notification.objects.filter(key="race").exists()
    bob.refresh_from_db()
    assert bob.vacation_started_at is None
